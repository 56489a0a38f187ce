/* SPDX-License-Identifier: MIT */
/* verdicts.h - the measures of a comparison, judged by the statistics
 * module and written the one way every output writes them: cell against
 * baseline (matrix.json's vs_baseline, perf.md, report.html) and run
 * against run (--compare).  A measure is a sample per side (one value per
 * passing trial) and a family: Holm's correction runs within a family
 * (docs/design.md, Statistics). */
#ifndef AR_VERDICTS_H
#define AR_VERDICTS_H

#include <stddef.h>

#include "kernels/kernel_agg.h"
#include "stats/stats.h"
#include "sys/json.h"

/* The families. */
#define AR_FAMILY_HEADLINE "gpu_time"  /* each collector's GPU time, across the cells */
#define AR_FAMILY_STEP "step_time"     /* the step time, across the cells */

typedef struct ar_measure {
    /* The set's copies (ar_measures_t.strings), NULL where none. */
    const char *cell;      /* the cell compared (B's, or the non-baseline cell) */
    const char *measure;   /* "gpu_time_ms", "kernel_time_ms", "step_time_ms" or a metric's name */
    const char *collector; /* its collector, or NULL */
    const char *kernel;    /* a kernel's name, or NULL */
    long rank;             /* a rank's measure: the rank; else -1 */
    const char *family;    /* the Holm family */
    double *a, *b;     /* the samples (owned: one block, b after a) */
    size_t n_a, n_b;
    ar_stats_better_t better;
    int gated;
    ar_stats_result_t result; /* once judged */
} ar_measure_t;

typedef struct ar_measures {
    ar_measure_t *items;
    size_t count, capacity;
    int judged;
    /* The strings the measures point to, each kept once: a cell's hundreds
     * of kernels share their cell, measure, collector and family. */
    char **strings;
    size_t string_count, string_capacity;
} ar_measures_t;

/* What a comparison judges and how. */
typedef struct ar_verdict_request {
    ar_stats_options_t stats;
    int gate_step_time;   /* --gate-step-time: the step time is gated too */
    int kernels;          /* judge each kernel (a family per cell and collector) */
    /* The collectors' declared metrics, {metric: "lower" | "higher" |
     * "none"} (ABI 1.2 metric tables, as provenance records them), or NULL:
     * a declared direction is judged and gated, any other metric compared
     * and shown only. */
    const ar_json_t *declared;
} ar_verdict_request_t;

/* Append a measure (the samples are copied); returns its index. */
size_t ar_measures_add(ar_measures_t *set, const char *cell, const char *measure,
                          const char *collector, const char *kernel, const char *family,
                          const double *a, size_t n_a, const double *b, size_t n_b,
                          ar_stats_better_t better, int gated);

/* Every measure of cell b against cell a: each collector's GPU time (both
 * sides' tables), each kernel's time when request->kernels, the step time,
 * and every other numeric metric (compared, shown, never gated: their
 * better direction is not known). */
void ar_measures_add_cells(ar_measures_t *set, const ar_kagg_cell_t *a,
                              const ar_kagg_cell_t *b, const ar_verdict_request_t *request);

/* Each kernel of one collector's tables, b against a (a family of its own:
 * "kernels:<cell>/<collector>"). */
void ar_measures_add_kernels(ar_measures_t *set, const char *cell,
                                const ar_kagg_table_t *a, const ar_kagg_table_t *b);

/* The ranks of one collector's tables, b against a, when both have ranks:
 * each rank's GPU time ("rank_gpu_time_ms", the rank in .rank; a family
 * "ranks:<cell>/<collector>") and the imbalance ("rank_imbalance_ms", the
 * slowest rank minus the ranks' mean per trial; a family of its own).
 * Judged and shown, not gated: the collector's GPU time is. */
void ar_measures_add_ranks(ar_measures_t *set, const char *cell,
                              const ar_kagg_table_t *a, const ar_kagg_table_t *b);

/* Judge every family.  0, or -1 with *error set (a value not finite, an
 * option out of range). */
int ar_measures_judge(ar_measures_t *set, const ar_stats_options_t *options,
                         char **error);

/* The one writer of a judged measure's numbers: measure, collector, kernel
 * or rank (when it has one), n_a, n_b, mean_a, mean_b, delta, p_value (corrected), p_raw, effect_pct,
 * ci_low_pct, ci_high_pct, verdict, gated, trials_needed (NaN and infinite
 * values as null). */
ar_json_t *ar_measure_json(const ar_measure_t *measure);


/* The same parts from a measure's JSON (ar_measure_json()), for the
 * reports: "+12.3% [+8.1%, +16.9%]" (an open end as -inf or +inf; "?"
 * without an effect) and "0.0021" ("?" without a p).  Free them. */
char *ar_measure_effect_text(const ar_json_t *measure);
char *ar_measure_p_text(const ar_json_t *measure);
/* Both with the verdict, for one line: "regressed +12.3% [+8.1%, +16.9%]
 * p=0.0021", or "inconclusive (n=0 vs 3)" without an effect.  Free it. */
char *ar_measure_text(const ar_measure_t *measure);

void ar_measures_clear(ar_measures_t *set);

#endif
