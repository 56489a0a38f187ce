/* SPDX-License-Identifier: MIT */
/* types.c - makes the collector ABI's types visible to abidw.  libaorta.so
 * exports functions, but struct aorta_collector, the option table and the
 * callback types reach it through no function, so its ABI dump cannot show
 * them.  This module (never installed) takes each of them as a parameter
 * (the metric table's row and direction since ABI 1.2),
 * and tests/abi/check-abi.sh compares its dump with the baseline too. */
#include "aorta/collector.h"

AORTA_EXPORT void aorta_abi_types(const struct aorta_collector *collector,
                                  const aorta_option_spec_t *option, aorta_walk_status_t status,
                                  aorta_walk_fn walk, aorta_collector_get_fn get,
                                  const aorta_metric_t *metric, aorta_metric_type_t type,
                                  const aorta_metric_spec_t *spec, aorta_metric_better_t better);

void aorta_abi_types(const struct aorta_collector *collector, const aorta_option_spec_t *option,
                     aorta_walk_status_t status, aorta_walk_fn walk, aorta_collector_get_fn get,
                     const aorta_metric_t *metric, aorta_metric_type_t type,
                     const aorta_metric_spec_t *spec, aorta_metric_better_t better)
{
    (void)collector, (void)option, (void)status, (void)walk, (void)get, (void)metric, (void)type;
    (void)spec, (void)better;
}
