/* SPDX-License-Identifier: MIT */
/* Built against a newer minor version of the collector ABI than the core's. */
#include "broken_common.h"

BROKEN_COLLECTOR(aorta_collector_newminor_get, AORTA_COLLECTOR_ABI_MAJOR,
                 AORTA_COLLECTOR_ABI_MINOR + 1, "newminor", broken_validate, broken_wrap,
                 broken_parse)
