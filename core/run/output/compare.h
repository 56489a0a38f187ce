/* SPDX-License-Identifier: MIT */
/* compare.h - two runs side by side (--compare): per cell present in both,
 * the GPU time per collector both runs have (else the step time) and the
 * kernels that changed most.  The comparison is built as JSON first
 * (--json prints it); the text is rendered from that same object. */
#ifndef AORTA_COMPARE_H
#define AORTA_COMPARE_H

#include <stdio.h>

#include "sys/json.h"
#include "output/kernel_agg.h"

#define AORTA_COMPARE_SCHEMA 1
/* Kernels listed per cell in each of changed, added, removed. */
#define AORTA_COMPARE_KERNELS 10

/* The comparison of run a (matrix_a, kernels_a; named label_a) with b.
 * fail_above: the growth in percent past which a cell counts as exceeded
 * (< 0: no threshold). */
aorta_json_t *aorta_compare(const char *label_a, const aorta_json_t *matrix_a,
                            const aorta_kagg_run_t *kernels_a, const char *label_b,
                            const aorta_json_t *matrix_b, const aorta_kagg_run_t *kernels_b,
                            double fail_above);

/* The text form of a comparison. */
void aorta_compare_print(FILE *out, const aorta_json_t *comparison);

#endif
