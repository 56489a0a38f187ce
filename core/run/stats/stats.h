/* SPDX-License-Identifier: MIT */
/* stats.h - the one statistics module every comparison uses (cell against
 * baseline in perf.md, report.html and matrix.json; run against run in
 * --compare).  It sees only arrays of doubles, one value per trial; which
 * trials count, which measures form a family and what is gated are the
 * callers' (docs/design.md, Statistics).
 *
 * Per measure: the two-sided Mann-Whitney U test with p-values equal to
 * scipy.stats.mannwhitneyu(a, b, alternative="two-sided", method="auto")
 * (scipy 1.10); Holm's correction within the measure's family; the effect
 * of B against A in percent with a 95% interval (Hodges-Lehmann on the log
 * values, its interval from the U distribution: deterministic, and the
 * interval of the very test that decides); a verdict; and for an
 * inconclusive one, the trials per side that would settle it.
 *
 * Also the summaries a report prints (mean, population std, percentiles)
 * computed exactly enough that identical samples have std 0 and a mean
 * equal to the sample, and a mean's text at the precision of its data.
 *
 * libc and libm only, no other header of the tree: a leaf of core/run.
 * No state: every function may run in any thread at once. */
#ifndef AR_STATS_H
#define AR_STATS_H

#include <stddef.h>

/* ---- Options, measures, results ---------------------------------------- */

#define AR_STATS_ALPHA 0.01         /* --alpha */
#define AR_STATS_THRESHOLD_PCT 5.0  /* --fail-above */
#define AR_STATS_CI_LEVEL 0.95      /* the effect's interval */

typedef struct ar_stats_options {
    double alpha;         /* family-wise level, 0 < alpha < 1 */
    double threshold_pct; /* practical threshold in percent, >= 0 */
    double min_delta;     /* absolute floor in the measure's unit, >= 0 (--min-delta-ms) */
} ar_stats_options_t;

#define AR_STATS_OPTIONS_INIT {AR_STATS_ALPHA, AR_STATS_THRESHOLD_PCT, 0.0}

/* Which way is better.  Times are lower-is-better. */
typedef enum ar_stats_better {
    AR_STATS_BETTER_LOWER,
    AR_STATS_BETTER_HIGHER,
    AR_STATS_BETTER_NONE /* compared and shown, never regressed or improved */
} ar_stats_better_t;

typedef enum ar_verdict {
    AR_VERDICT_UNCHANGED,
    AR_VERDICT_REGRESSED,
    AR_VERDICT_IMPROVED,
    AR_VERDICT_INCONCLUSIVE,
    AR_VERDICT_INCOMPARABLE /* set by callers (provenance), never by this module */
} ar_verdict_t;

/* "unchanged", "regressed", "improved", "inconclusive", "incomparable". */
const char *ar_verdict_name(ar_verdict_t verdict);

/* One measure: the values of its passing trials on each side. */
typedef struct ar_stats_measure {
    const double *a; /* run A, or the baseline cell */
    size_t n_a;
    const double *b; /* run B, or the cell compared */
    size_t n_b;
    ar_stats_better_t better;
    int gated; /* the caller's; copied into the result */
} ar_stats_measure_t;

typedef struct ar_stats_result {
    size_t n_a, n_b;
    double u;           /* scipy's statistic: U of A (pairs a > b, ties half) */
    int exact;          /* p from the exact null distribution, else the normal one */
    double p_raw;       /* two-sided; NaN when a side is empty */
    double p_value;     /* Holm-corrected within the family; NaN likewise */
    /* B against A; + is B larger.  NaN when a side is empty.  An interval
     * the sizes cannot close (3 per side) is -100 (-inf for a shift) to
     * +inf.  On data with a value <= 0 the effect is a shift, in percent
     * of |median(A)| (+-inf when that is 0 and the shift is not). */
    double effect_pct, ci_low_pct, ci_high_pct;
    /* The same in the measure's unit: the percent of |median(A)|. */
    double effect_abs, ci_low_abs, ci_high_abs;
    int log_scale;      /* the effect is a ratio (every value > 0) */
    double spread;      /* pooled std on the effect's relative scale (log values,
                         * or values over |median(A)|); NaN below 3 values */
    int reachable;      /* these sizes can reach alpha in this family at all */
    int significant;    /* p_value < alpha */
    int practical;      /* |effect_pct| > threshold and |effect_abs| > min_delta */
    ar_verdict_t verdict;
    int gated;
    /* Inconclusive: the trials per side that would resolve the threshold
     * at the observed spread (at least one more than the larger side now,
     * at most AR_STATS_TRIALS_MAX); 0 otherwise, and 0 for a change
     * with no better direction, which no number of trials resolves. */
    size_t trials_needed;
} ar_stats_result_t;

#define AR_STATS_TRIALS_MAX 1000000

typedef enum ar_stats_status {
    AR_STATS_OK = 0,
    AR_STATS_NOT_FINITE, /* a value is NaN or infinite */
    AR_STATS_BAD_OPTION, /* alpha, threshold or floor out of range */
    AR_STATS_NO_MEMORY
} ar_stats_status_t;

/* What a status means, for the caller's one line ("a value is not a finite
 * number"). */
const char *ar_stats_status_text(ar_stats_status_t status);

/* ---- Judging ------------------------------------------------------------ */

/* Judge a family of count measures (results: count entries): each one's
 * test, effect and interval, Holm's correction over those with a p-value
 * (a measure with an empty side is left out of the family), then each
 * verdict:
 *   regressed / improved  p_value < alpha and the estimate past both
 *                         thresholds (|effect_pct| > threshold_pct and
 *                         |effect_abs| > min_delta), by the better direction;
 *   unchanged             significant but within a threshold, or not
 *                         significant with the interval inside
 *                         +-threshold_pct (or inside +-min_delta);
 *   inconclusive          a side empty; the sizes cannot reach alpha in this
 *                         family (family size * smallest possible p >= alpha:
 *                         3 per side alone gives 0.1 > 0.01); not significant
 *                         while the interval reaches past both thresholds; or
 *                         a change past them with no better direction.
 * A family is (a) one cell's kernels of one collector, (b) the headline
 * measures across the cells of a run or comparison; one measure alone is a
 * family of one.  On an error nothing is judged and *bad (when not NULL)
 * is the index of the measure at fault (count for an option). */
ar_stats_status_t ar_stats_judge(const ar_stats_measure_t *measures, size_t count,
                                       const ar_stats_options_t *options,
                                       ar_stats_result_t *results, size_t *bad);

/* ---- The parts, for callers and tests ---------------------------------- */

typedef struct ar_stats_mwu {
    double u;  /* U of a */
    double p;  /* two-sided */
    int exact;
} ar_stats_mwu_t;

/* scipy.stats.mannwhitneyu(a, b, alternative="two-sided", method="auto"):
 * exact when the data have no ties and a side has at most 8 values, else
 * the normal approximation with tie and continuity correction.  An empty
 * side gives u and p NaN (scipy refuses it). */
ar_stats_status_t ar_stats_mwu(const double *a, size_t n_a, const double *b, size_t n_b,
                                     ar_stats_mwu_t *out);

/* The smallest two-sided p the test can give at these sizes (no ties: the
 * exact 2 / C(n_a+n_b, n_a) where scipy is exact, else the normal tail at
 * the largest U); 1 when a side is empty. */
double ar_stats_min_p(size_t n_a, size_t n_b);

/* The smallest n (per side, both sides equal) at which family * min_p < alpha. */
size_t ar_stats_trials_to_reach(double alpha, size_t family);

/* Holm's step-down correction of count p-values: p_(i) of the ascending
 * order becomes max over j <= i of min(1, (F - j + 1) p_(j)), F the number
 * of finite p-values; NaN stays NaN and is not counted.  adjusted may be p. */
ar_stats_status_t ar_stats_holm(const double *p, size_t count, double *adjusted);

typedef struct ar_stats_effect {
    int log_scale;
    double effect_pct, ci_low_pct, ci_high_pct;
    double effect_abs, ci_low_abs, ci_high_abs;
    /* The pooled standard deviation on the effect's relative scale (log
     * values, or values over |median(A)|); NaN with fewer than 3 values. */
    double spread;
} ar_stats_effect_t;

/* The Hodges-Lehmann effect of b against a with its 95% interval (see
 * ar_stats_result_t); NaN when a side is empty. */
ar_stats_status_t ar_stats_effect(const double *a, size_t n_a, const double *b, size_t n_b,
                                        ar_stats_effect_t *out);

/* ---- Summaries that read true ------------------------------------------ */

/* The sum correctly rounded (math.fsum); the mean correctly rounded (as
 * Python's statistics.mean: identical samples give that sample); the
 * population standard deviation from that mean and exact sums (identical
 * samples give exactly 0).  NaN for n == 0 or out of memory. */
double ar_stats_fsum(const double *x, size_t n);
double ar_stats_mean(const double *x, size_t n);
double ar_stats_pstdev(const double *x, size_t n);

/* Linear interpolation at index (n - 1) * q of the ascending samples, as
 * upstream's matrix.json computes p50/p90/p99. */
double ar_stats_percentile(const double *sorted, size_t n, double q);

typedef struct ar_stats_summary {
    size_t n;
    double mean, std, min, max, p50, p90, p99;
} ar_stats_summary_t;

/* All of them over n values (any order; not changed); n == 0 gives NaN. */
ar_stats_status_t ar_stats_summarize(const double *x, size_t n, ar_stats_summary_t *out);

/* The decimal places of the finest of the values, each written as its
 * shortest round-trip text (Python's repr): 6.1 has 1, 1.25e-05 has 7. */
int ar_stats_decimals(const double *x, size_t n);

/* value (a mean of n values) at the precision its data has: rounded to
 * ar_stats_decimals() + ceil(log10(n)) places (a mean of n values resolves
 * 1/n of their step), trailing zeros dropped but one, and never more
 * digits than the value's own shortest text: "6.1" for the mean of three
 * 6.1s, "1.23" for that of 1.1, 1.2 and 1.4.  Written into out (size
 * bytes, 32 suffice below 1e15); the length, or -1 when it does not fit or
 * value is not finite. */
int ar_stats_format_mean(char *out, size_t size, double value, const double *x, size_t n);

#endif
