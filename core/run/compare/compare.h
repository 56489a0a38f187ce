/* SPDX-License-Identifier: MIT */
/* compare.h - two runs side by side (--compare): per cell present in both,
 * every measure judged by the statistics module (each collector's GPU
 * time, each kernel's time, the step time, every other numeric metric),
 * and the gate: passed, failed (a regression, a broken candidate) or no
 * verdict (docs/design.md, The gate).  The comparison
 * is built as JSON first (--json prints it); the text is rendered from
 * that same object. */
#ifndef AR_COMPARE_H
#define AR_COMPARE_H

#include <stdio.h>

#include "kernels/kernel_agg.h"
#include "compare/verdicts.h"
#include "sys/json.h"

#define AR_COMPARE_SCHEMA 3
/* Kernels the text lists per cell and collector beyond the significant ones,
 * and the ungated kernels the comparison keeps beside the gated ones (the
 * largest changes; the rest are counted, which bounds its memory). */
#define AR_COMPARE_KERNELS 10
#define AR_COMPARE_KERNELS_KEPT 32
/* Ranks its text shows per collector besides those with a verdict either way. */
#define AR_COMPARE_RANKS 8

typedef struct ar_compare_request {
    ar_verdict_request_t verdicts; /* alpha, threshold, floor, step time gated */
    int allow_inconclusive; /* --allow-inconclusive: "no verdict" exits 0, with one line */
    int allow_missing; /* --allow-missing: a cell or collector missing from B, or no
                        * data, passes (noted) */
    int allow_mismatch; /* --allow-mismatch: judge and gate what provenance makes incomparable */
    const ar_json_t *provenance_a, *provenance_b; /* matrix.json's, or NULL */
} ar_compare_request_t;

/* The comparison of run a (its cells' samples in kernels_a; named label_a)
 * with b.  NULL with *error set when a measure cannot be judged. */
ar_json_t *ar_compare(const char *label_a, const ar_kagg_run_t *kernels_a,
                            const char *label_b, const ar_kagg_run_t *kernels_b,
                            const ar_compare_request_t *request, char **error);

/* The comparison's exit status: 0 passed, 3 failed, 4 no verdict
 * (gate.exit_status). */
int ar_compare_exit_status(const ar_json_t *comparison);

/* The text form of a comparison: every measure with all, else the gated
 * ones and those that changed. */
void ar_compare_print(FILE *out, const ar_json_t *comparison, int all);

#endif
