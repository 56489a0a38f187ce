/* SPDX-License-Identifier: MIT */
/* stats.h - the one statistics module every comparison uses (cell against
 * baseline in perf.md, report.html and matrix.json; run against run in
 * --compare).  It sees only arrays of doubles, one value per trial; which
 * trials count, which measures are gated and what the gate concludes are
 * the callers' (docs/design.md, Statistics).
 *
 * Per measure: Welch's t test on the log values of each side (p-values
 * equal to scipy.stats.ttest_ind(log b, log a, equal_var=False)); the
 * effect of B against A as the ratio of the geometric means in percent,
 * with its interval from the same t distribution at level 1 - 2 alpha, so
 * that its upper end is the one-sided 1 - alpha bound the gate reads;
 * Holm's correction within the measure's family; a verdict against the
 * practical threshold; and for an inconclusive one, the trials per side
 * that would settle it.
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
#define AR_STATS_MIN_TRIALS 3       /* per side, for any verdict */

typedef struct ar_stats_options {
    double alpha;         /* family-wise level, 0 < alpha < 0.5 */
    double threshold_pct; /* practical threshold delta in percent, >= 0 */
    double min_delta;     /* absolute floor in the measure's unit, >= 0 (--min-delta-ms) */
} ar_stats_options_t;

#define AR_STATS_OPTIONS_INIT {AR_STATS_ALPHA, AR_STATS_THRESHOLD_PCT, 0.0}

/* The interval's level for these options: 1 - 2 alpha (98% at 0.01). */
double ar_stats_ci_level(const ar_stats_options_t *options);

/* Which way is better.  Times are lower-is-better. */
typedef enum ar_stats_better {
    AR_STATS_BETTER_LOWER,
    AR_STATS_BETTER_HIGHER,
    AR_STATS_BETTER_NONE /* compared and shown, never judged better or worse */
} ar_stats_better_t;

typedef enum ar_verdict {
    AR_VERDICT_UNCHANGED,
    AR_VERDICT_REGRESSED,
    AR_VERDICT_IMPROVED,
    AR_VERDICT_INCONCLUSIVE,
    AR_VERDICT_NOT_GATED,    /* no better direction: shown with its effect only */
    /* Set by callers, never by this module: */
    AR_VERDICT_INCOMPARABLE, /* the runs differ in what makes it comparable */
    AR_VERDICT_NO_DATA,      /* a collector ran but captured nothing on one side */
    AR_VERDICT_ADDED,        /* a kernel of B only */
    AR_VERDICT_REMOVED       /* a kernel of A only */
} ar_verdict_t;

/* "unchanged", "regressed", "improved", "inconclusive", "not gated",
 * "incomparable", "no data", "added", "removed". */
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
    double t, df;       /* Welch's statistic (B against A) and its degrees of freedom */
    double p_raw;       /* two-sided; NaN below AR_STATS_MIN_TRIALS a side */
    double p_value;     /* Holm-corrected within the family; NaN likewise */
    /* B against A; + is B larger.  NaN without a test.  On data with a
     * value <= 0 the effect is a shift, in percent of |mean(A)|; a
     * never-negative quantity's percentages stop at -100. */
    double effect_pct, ci_low_pct, ci_high_pct;
    /* The same in the measure's unit. */
    double effect_abs, ci_low_abs, ci_high_abs;
    int log_scale;      /* the effect is a ratio (every value > 0) */
    double spread;      /* pooled std on the effect's scale (log values, or raw) */
    int significant;    /* p_value < alpha */
    int practical;      /* |effect_pct| > threshold and |effect_abs| > min_delta */
    ar_verdict_t verdict;
    int gated;
    /* Inconclusive: the trials per side that would settle it at the
     * observed spread (at least one more than the larger side now and at
     * least AR_STATS_MIN_TRIALS, at most AR_STATS_TRIALS_MAX); 0 otherwise. */
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
 * (a measure with fewer than AR_STATS_MIN_TRIALS on a side is left out of
 * the family), then each verdict, against delta = threshold_pct (and the
 * floor min_delta), by the better direction:
 *   regressed / improved  p_value < alpha and the estimate past +-delta in
 *                         the worse / better direction (and past the floor);
 *   unchanged             the whole interval inside +-delta (or inside
 *                         +-min_delta): a significant change within delta
 *                         is unchanged, its effect shown;
 *   inconclusive          anything else: fewer than AR_STATS_MIN_TRIALS on
 *                         a side, or an interval that reaches past delta
 *                         without a significant change past it;
 *   not gated             a measure with no better direction (its effect
 *                         and p are still computed).
 * "Past" is strict: an estimate equal to delta is not past it, an interval
 * ending on it is inside.  On an error nothing is judged and *bad (when not
 * NULL) is the index of the measure at fault (count for an option). */
ar_stats_status_t ar_stats_judge(const ar_stats_measure_t *measures, size_t count,
                                 const ar_stats_options_t *options,
                                 ar_stats_result_t *results, size_t *bad);

/* ---- The parts, for callers and tests ---------------------------------- */

typedef struct ar_stats_welch {
    double t, df, p;     /* B against A; p two-sided */
    int log_scale;
    double effect_pct, ci_low_pct, ci_high_pct;
    double effect_abs, ci_low_abs, ci_high_abs;
    double spread;       /* pooled std on the effect's scale */
} ar_stats_welch_t;

/* Welch's test of b against a (scipy.stats.ttest_ind(log b, log a,
 * equal_var=False) when every value is > 0, else on the raw values) with
 * the effect's interval at level (0.5 < level < 1).  NaN everywhere when a
 * side has fewer than 2 values.  With no spread on either side, equal means
 * give p 1 and different ones p 0 (scipy: NaN). */
ar_stats_status_t ar_stats_welch(const double *a, size_t n_a, const double *b, size_t n_b,
                                 double level, ar_stats_welch_t *out);

/* What Welch's test needs of one side: n, and the mean and sample variance
 * (ddof 1; NaN for n < 2) of the log values when every value is > 0 and
 * log_scale was asked, else of the raw values.  What a history store keeps
 * per measure, so that a comparison can be rebuilt from it. */
typedef struct ar_stats_moments {
    size_t n;
    int log_scale;      /* mean and var are of the log values */
    int never_negative; /* no value < 0: a change stops at -100% */
    double mean, var;
} ar_stats_moments_t;

/* Those of n values (any order); n == 0 gives NaN. */
void ar_stats_moments(const double *x, size_t n, int log_scale, ar_stats_moments_t *out);

/* Welch's test from the summaries alone (ar_stats_welch() of samples is
 * this on their moments): NaN below 2 a side; AR_STATS_NOT_FINITE when the
 * sides are on different scales or a summary is not finite. */
ar_stats_status_t ar_stats_welch_moments(const ar_stats_moments_t *a,
                                         const ar_stats_moments_t *b, double level,
                                         ar_stats_welch_t *out);

/* Student's t: P(|T| > t) with df degrees of freedom (df > 0, not
 * necessarily whole; infinite: the normal), and the t with P(T > t) = p. */
double ar_t_two_sided(double t, double df);
double ar_t_isf(double p, double df);

/* The smallest regression of a lower-is-better measure (in percent) that a
 * design of n trials per side detects with probability power, at a
 * coefficient of variation cv (0.01 for 1%) on each side, judged in a
 * family of size family at alpha and past threshold_pct: what --dry-run
 * and a run's first line state.  +inf below AR_STATS_MIN_TRIALS. */
double ar_stats_detectable_pct(size_t n, double cv, size_t family, double power,
                               const ar_stats_options_t *options);

/* The trials per side at which a measure with no change, spread cv, has
 * its one-sided 1 - alpha upper bound below threshold_pct with
 * probability power (an A/A run that the gate passes). */
size_t ar_stats_trials_to_pass(double cv, double power, const ar_stats_options_t *options);

/* Holm's step-down correction of count p-values: p_(i) of the ascending
 * order becomes max over j <= i of min(1, (F - j + 1) p_(j)), F the number
 * of finite p-values; NaN stays NaN and is not counted.  adjusted may be p. */
ar_stats_status_t ar_stats_holm(const double *p, size_t count, double *adjusted);

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
