/* SPDX-License-Identifier: MIT */
/* compare.h - two runs side by side (--compare): per cell present in both,
 * every measure judged by the statistics module (each collector's GPU
 * time, each kernel's time, the step time, every other numeric metric),
 * and the gate: what makes --fail-above or --strict fail.  The comparison
 * is built as JSON first (--json prints it); the text is rendered from
 * that same object. */
#ifndef AR_COMPARE_H
#define AR_COMPARE_H

#include <stdio.h>

#include "kernels/kernel_agg.h"
#include "compare/verdicts.h"
#include "sys/json.h"

#define AR_COMPARE_SCHEMA 2
/* Kernels the text lists per cell and collector beyond the significant ones. */
#define AR_COMPARE_KERNELS 10
/* Ranks its text shows per collector besides those with a verdict either way. */
#define AR_COMPARE_RANKS 8

typedef struct ar_compare_request {
    ar_verdict_request_t verdicts; /* alpha, threshold, floor, step time gated */
    int gate;          /* --fail-above or --strict given: the gate decides the exit */
    int strict;        /* --strict: an inconclusive gated measure fails the gate */
    int allow_missing; /* --allow-missing: a cell or collector missing from B passes */
    int allow_mismatch; /* --allow-mismatch: judge and gate what provenance makes incomparable */
    const ar_json_t *provenance_a, *provenance_b; /* matrix.json's, or NULL */
} ar_compare_request_t;

/* The comparison of run a (its cells' samples in kernels_a; named label_a)
 * with b.  NULL with *error set when a measure cannot be judged. */
ar_json_t *ar_compare(const char *label_a, const ar_kagg_run_t *kernels_a,
                            const char *label_b, const ar_kagg_run_t *kernels_b,
                            const ar_compare_request_t *request, char **error);

/* Whether the comparison's gate failed (gate.failed). */
int ar_compare_gate_failed(const ar_json_t *comparison);

/* The text form of a comparison. */
void ar_compare_print(FILE *out, const ar_json_t *comparison);

#endif
