/* SPDX-License-Identifier: MIT */
/* effect.c - how large a change is: the Hodges-Lehmann estimate, the median
 * of the m*n differences log b[j] - log a[i], as a ratio in percent, with
 * the distribution-free interval of the U test (the C-th smallest and
 * largest difference, C from the U distribution: Lehmann).  No random
 * numbers: the same data give the same interval, and it is the interval of
 * the test that decides.  When a value is 0 or negative the log does not
 * exist; the same estimate on the raw values is a shift in the measure's
 * unit, reported in percent of |median(A)|. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "stats/internal.h"
#include "stats/stats.h"

/* x (ascending) as the effect's scale has it: log is increasing, so the
 * order stays. */
static void transform(const double *x, size_t n, int log_scale, double *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = log_scale ? log(x[i]) : x[i];
}

/* The sum of squared deviations from the mean, taken about x[0] first so
 * that identical values give exactly 0. */
static double squares(const double *x, size_t n)
{
    double sum = 0.0, ss = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += x[i] - x[0];
    double mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - x[0] - mean) * (x[i] - x[0] - mean);
    return ss;
}

/* Pooled standard deviation of the two samples; NaN below 3 values. */
static double pooled_sd(const double *x, size_t m, const double *y, size_t n)
{
    if (m + n < 3)
        return NAN;
    return sqrt((squares(x, m) + squares(y, n)) / (double)(m + n - 2));
}

/* A shift (or log ratio) d as percent and as units of the baseline. */
static void express(double d, int log_scale, double base, double *pct, double *abs_out)
{
    if (log_scale) {
        *pct = 100.0 * expm1(d);
        *abs_out = base * expm1(d);
        return;
    }
    *abs_out = d;
    if (base > 0.0)
        *pct = 100.0 * d / base;
    else
        *pct = d == 0.0 ? 0.0 : copysign(INFINITY, d);
}

/* The estimate and interval from the ordered differences: the median (of
 * the two middle ones for an even count), the critical-th smallest and
 * largest (or -inf and inf without an interval). */
static void estimate(const ar_pairs_t *pairs, size_t critical, double out[3])
{
    size_t count = pairs->m * pairs->n, ks[4], used = 0;
    if (critical)
        ks[used++] = critical;
    ks[used++] = (count + 1) / 2;
    ks[used++] = count / 2 + 1;
    if (critical)
        ks[used++] = count + 1 - critical;
    double values[4];
    ar_pairs_select(pairs, ks, used, values);
    size_t middle = critical ? 1 : 0;
    out[0] = (values[middle] + values[middle + 1]) / 2.0;
    out[1] = critical ? values[0] : -INFINITY;
    out[2] = critical ? values[used - 1] : INFINITY;
}

ar_stats_status_t ar_stats_effect_sorted(const double *a, size_t n_a, const double *b,
                                               size_t n_b, size_t critical,
                                               ar_stats_effect_t *out)
{
    double *x = malloc((n_a + n_b) * sizeof *x);
    if (!x)
        return AR_STATS_NO_MEMORY;
    double *y = x + n_a;
    out->log_scale = a[0] > 0.0 && b[0] > 0.0; /* the smallest of each */
    double base = fabs(ar_stats_percentile(a, n_a, 0.5));
    transform(a, n_a, out->log_scale, x);
    transform(b, n_b, out->log_scale, y);
    ar_pairs_t pairs;
    if (ar_pairs_init(&pairs, x, n_a, y, n_b, 0) != 0) {
        free(x);
        return AR_STATS_NO_MEMORY;
    }
    double d[3];
    estimate(&pairs, critical, d);
    ar_pairs_free(&pairs);
    express(d[0], out->log_scale, base, &out->effect_pct, &out->effect_abs);
    express(d[1], out->log_scale, base, &out->ci_low_pct, &out->ci_low_abs);
    express(d[2], out->log_scale, base, &out->ci_high_pct, &out->ci_high_abs);
    out->spread = pooled_sd(x, n_a, y, n_b);
    if (!out->log_scale)
        out->spread = base > 0.0 ? out->spread / base : NAN;
    free(x);
    return AR_STATS_OK;
}

ar_stats_status_t ar_stats_effect(const double *a, size_t n_a, const double *b, size_t n_b,
                                        ar_stats_effect_t *out)
{
    for (size_t i = 0; i < n_a + n_b; i++)
        if (!isfinite(i < n_a ? a[i] : b[i - n_a]))
            return AR_STATS_NOT_FINITE;
    if (n_a == 0 || n_b == 0) {
        *out = (ar_stats_effect_t){0, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
        return AR_STATS_OK;
    }
    double *sorted = ar_sorted_copy(a, n_a, b, n_b);
    if (!sorted)
        return AR_STATS_NO_MEMORY;
    ar_stats_status_t status = ar_stats_effect_sorted(
        sorted, n_a, sorted + n_a, n_b, ar_u_critical(n_a, n_b, AR_STATS_CI_LEVEL), out);
    free(sorted);
    return status;
}
