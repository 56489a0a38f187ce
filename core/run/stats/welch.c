/* SPDX-License-Identifier: MIT */
/* welch.c - the test and the effect of one measure: Welch's t on the log
 * values of each side (scipy.stats.ttest_ind(log b, log a,
 * equal_var=False)), the ratio of the geometric means as the effect, and
 * its interval from the same t distribution.  Times scatter by a factor,
 * and a lognormal's log is normal, so the test's assumption holds where the
 * rank tests' floor does not: 5 against 5 can reach any alpha.  Where a
 * value is 0 or negative the log does not exist; the same test on the raw
 * values gives a shift, expressed in percent of |mean(A)|. */
#include "config.h"

#include <math.h>

#include "stats/internal.h"
#include "stats/stats.h"

/* Mean and sample variance (ddof 1), the deviations taken about x[0]
 * first so that identical values give exactly 0. */
static void moments(const double *x, size_t n, int log_scale, double *mean, double *var)
{
    double first = log_scale ? log(x[0]) : x[0], sum = 0.0, ss = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += (log_scale ? log(x[i]) : x[i]) - first;
    double shift = sum / (double)n;
    for (size_t i = 0; i < n; i++) {
        double d = (log_scale ? log(x[i]) : x[i]) - first - shift;
        ss += d * d;
    }
    *mean = first + shift;
    *var = n > 1 ? ss / (double)(n - 1) : NAN;
}

static int all_positive(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0.0))
            return 0;
    return 1;
}

static int none_negative(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] < 0.0)
            return 0;
    return 1;
}

/* A log ratio or shift d as percent and as units of the baseline. */
static void express(double d, int log_scale, double base, double floor_pct, double *pct,
                    double *abs_out)
{
    if (log_scale) {
        *pct = 100.0 * expm1(d);
        *abs_out = base * expm1(d);
        return;
    }
    *abs_out = d;
    *pct = base > 0.0 ? 100.0 * d / base : d == 0.0 ? 0.0 : copysign(INFINITY, d);
    if (*pct < floor_pct)
        *pct = floor_pct;
}

void ar_stats_moments(const double *x, size_t n, int log_scale, ar_stats_moments_t *out)
{
    *out = (ar_stats_moments_t){.n = n, .mean = NAN, .var = NAN};
    if (!n)
        return;
    out->log_scale = log_scale && all_positive(x, n);
    out->never_negative = none_negative(x, n);
    moments(x, n, out->log_scale, &out->mean, &out->var);
}

ar_stats_status_t ar_stats_welch_moments(const ar_stats_moments_t *a,
                                         const ar_stats_moments_t *b, double level,
                                         ar_stats_welch_t *out)
{
    *out = (ar_stats_welch_t){.t = NAN, .df = NAN, .p = NAN, .effect_pct = NAN,
                              .ci_low_pct = NAN, .ci_high_pct = NAN, .effect_abs = NAN,
                              .ci_low_abs = NAN, .ci_high_abs = NAN, .spread = NAN};
    size_t n_a = a->n, n_b = b->n;
    if (n_a < 2 || n_b < 2)
        return AR_STATS_OK; /* no variance on a side: no test */
    if (a->log_scale != b->log_scale || !isfinite(a->mean) || !isfinite(b->mean)
        || !(a->var >= 0.0) || !(b->var >= 0.0) || !isfinite(a->var) || !isfinite(b->var))
        return AR_STATS_NOT_FINITE;
    int log_scale = a->log_scale;
    double mean_a = a->mean, var_a = a->var, mean_b = b->mean, var_b = b->var;
    double ua = var_a / (double)n_a, ub = var_b / (double)n_b, se = sqrt(ua + ub);
    double diff = mean_b - mean_a;
    out->log_scale = log_scale;
    out->df = ua + ub > 0.0 ? (ua + ub) * (ua + ub)
                                  / (ua * ua / (double)(n_a - 1) + ub * ub / (double)(n_b - 1))
                            : (double)(n_a + n_b - 2);
    out->spread = sqrt((var_a * (double)(n_a - 1) + var_b * (double)(n_b - 1))
                       / (double)(n_a + n_b - 2));
    /* No spread on either side: the same values are no change, others a
     * certain one (scipy answers NaN there). */
    out->t = se > 0.0 ? diff / se : diff == 0.0 ? 0.0 : copysign(INFINITY, diff);
    out->p = ar_t_two_sided(out->t, out->df);
    double half = se > 0.0 ? ar_t_isf((1.0 - level) / 2.0, out->df) * se : 0.0;
    double base = log_scale ? exp(mean_a) : fabs(mean_a);
    /* A quantity that is never negative cannot fall by more than 100%. */
    double floor_pct = a->never_negative && b->never_negative ? -100.0 : -INFINITY;
    express(diff, log_scale, base, floor_pct, &out->effect_pct, &out->effect_abs);
    express(diff - half, log_scale, base, floor_pct, &out->ci_low_pct, &out->ci_low_abs);
    express(diff + half, log_scale, base, floor_pct, &out->ci_high_pct, &out->ci_high_abs);
    return AR_STATS_OK;
}

/* The sample form: the summaries of each side, then the test above, so a
 * baseline kept as (n, mean, variance of the logs) is judged by the very
 * same arithmetic as one kept as values. */
ar_stats_status_t ar_stats_welch(const double *a, size_t n_a, const double *b, size_t n_b,
                                 double level, ar_stats_welch_t *out)
{
    int log_scale = all_positive(a, n_a) && all_positive(b, n_b);
    ar_stats_moments_t ma, mb;
    ar_stats_moments(a, n_a, log_scale, &ma);
    ar_stats_moments(b, n_b, log_scale, &mb);
    return ar_stats_welch_moments(&ma, &mb, level, out);
}
