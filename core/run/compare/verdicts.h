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

/* The families: every gated measure of a comparison is in one, the gate's
 * (decisions: one Holm family per comparison); a measure shown but not
 * gated keeps a family of its kind. */
#define AR_FAMILY_GATE "gate"
#define AR_FAMILY_STEP "step_time"     /* the step time, when not gated */
/* A kernel is gated when its mean holds at least this share of its cell's
 * mean GPU time on either side (--gate-kernels-above). */
#define AR_GATE_KERNELS_PCT 1.0

/* Where a measure's data is missing. */
typedef enum ar_presence {
    AR_PRESENT,     /* both sides */
    AR_ONLY_A,      /* a kernel of A only: removed */
    AR_ONLY_B,      /* a kernel of B only: added */
    AR_NO_DATA_A,   /* the collector ran in A but captured nothing there */
    AR_NO_DATA_B,   /* ... in B */
    AR_NO_DATA_BOTH /* ... on both sides: nothing to judge */
} ar_presence_t;

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
    int headline;      /* a collector's GPU time or a declared metric: the gate's
                        * pass needs its upper bound below delta */
    ar_presence_t presence;
    ar_stats_result_t result; /* once judged */
} ar_measure_t;

typedef struct ar_measures {
    ar_measure_t *items;
    size_t count, capacity;
    int judged;
    size_t kernels_omitted; /* kernels left out by the bound on shown ones */
    /* The strings the measures point to, each kept once: a cell's hundreds
     * of kernels share their cell, measure, collector and family. */
    char **strings;
    size_t string_count, string_capacity;
} ar_measures_t;

/* What a comparison judges and how. */
typedef struct ar_verdict_request {
    ar_stats_options_t stats;
    int gate_step_time;   /* --gate-step-time: the step time is gated too */
    int kernels;          /* judge each kernel */
    double gate_kernels_pct; /* a kernel's share that gates it (AR_GATE_KERNELS_PCT) */
    /* Kernels shown beside the gated ones, per cell and collector: the
     * largest changes, added and removed kernels included; 0 for all (a
     * run's own reports), else the rest are counted in kernels_omitted. */
    size_t kernels_shown;
    /* The collectors' declared metrics, {metric: "lower" | "higher" |
     * "none"} (ABI 1.2 metric tables, as provenance records them), or NULL:
     * a declared direction is judged and gated, any other metric compared
     * and shown only. */
    const ar_json_t *declared;
} ar_verdict_request_t;

/* The defaults: alpha 0.01, delta 5%, kernels judged, gated from a 1%
 * share, all shown; the step time not gated, no metric declared. */
#define AR_VERDICT_REQUEST_INIT                                                     \
    {.stats = AR_STATS_OPTIONS_INIT, .kernels = 1, .gate_kernels_pct = AR_GATE_KERNELS_PCT}

/* Append a measure (the samples are copied); returns its index.  A gated
 * measure joins the gate's family whatever family says. */
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

/* Each kernel of one collector's tables, b against a: gated by its share
 * (request->gate_kernels_pct), else in a family of its own
 * ("kernels:<cell>/<collector>"); a kernel of one side only is shown as
 * added or removed, never judged; past request->kernels_shown the ungated
 * ones with the smallest changes are left out. */
void ar_measures_add_kernels(ar_measures_t *set, const char *cell,
                                const ar_kagg_table_t *a, const ar_kagg_table_t *b,
                                const ar_verdict_request_t *request);

/* The ranks of one collector's tables, b against a, when both have ranks:
 * each rank's GPU time ("rank_gpu_time_ms", the rank in .rank; a family
 * "ranks:<cell>/<collector>") and the imbalance ("rank_imbalance_ms", the
 * slowest rank minus the ranks' mean per trial; a family of its own).
 * Judged and shown, not gated: the collector's GPU time is. */
void ar_measures_add_ranks(ar_measures_t *set, const char *cell,
                              const ar_kagg_table_t *a, const ar_kagg_table_t *b);

/* Judge every family, then set the verdicts no test gives (added, removed,
 * no data).  0, or -1 with *error set (a value not finite, an option out of
 * range). */
int ar_measures_judge(ar_measures_t *set, const ar_stats_options_t *options,
                         char **error);

/* The one writer of a judged measure's numbers: measure, collector, kernel
 * or rank (when it has one), n_a, n_b, mean_a, mean_b, delta, p_value (corrected), p_raw, effect_pct,
 * ci_low_pct, ci_high_pct, verdict, gated, headline, trials_needed (NaN and
 * infinite values as null). */
ar_json_t *ar_measure_json(const ar_measure_t *measure);


/* The same parts from a measure's JSON (ar_measure_json()), for the
 * reports: "+12.3% [+8.1%, +16.9%]" (an open end as -inf or +inf; "?"
 * without an effect) and "0.0021" ("?" without a p).  Free them. */
char *ar_measure_effect_text(const ar_json_t *measure);
char *ar_measure_p_text(const ar_json_t *measure);
/* Both with the verdict, for one line: "regressed +12.3% [+8.1%, +16.9%]
 * p=0.0021", "unchanged +3.0% [+1.2%, +4.5%] p=0.002, within 5%" for a
 * significant change inside delta, or "inconclusive (n=2 vs 3)" without an
 * effect.  Free it. */
char *ar_measure_text(const ar_measure_t *measure, double threshold_pct);

void ar_measures_clear(ar_measures_t *set);

#endif
