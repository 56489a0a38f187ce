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

static int ascending(const void *left, const void *right)
{
    double x = *(const double *)left, y = *(const double *)right;
    return x < y ? -1 : x > y;
}

static int all_positive(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0.0))
            return 0;
    return 1;
}

/* x transformed (log or not) and sorted into out. */
static void prepare(const double *x, size_t n, int log_scale, double *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = log_scale ? log(x[i]) : x[i];
    qsort(out, n, sizeof *out, ascending);
}

/* Pooled standard deviation of the two sorted samples; NaN below 3 values. */
static double pooled_sd(const double *x, size_t m, const double *y, size_t n)
{
    if (m + n < 3)
        return NAN;
    double mx = aorta_stats_mean(x, m), my = aorta_stats_mean(y, n), ss = 0.0;
    for (size_t i = 0; i < m; i++)
        ss += (x[i] - mx) * (x[i] - mx);
    for (size_t j = 0; j < n; j++)
        ss += (y[j] - my) * (y[j] - my);
    return sqrt(ss / (double)(m + n - 2));
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

/* The estimate and interval from the ordered differences. */
static void estimate(const aorta_pairs_t *pairs, size_t critical, double out[3])
{
    size_t count = pairs->m * pairs->n;
    out[0] = count % 2 ? aorta_pairs_kth(pairs, count / 2 + 1)
                       : (aorta_pairs_kth(pairs, count / 2) + aorta_pairs_kth(pairs, count / 2 + 1)) / 2.0;
    out[1] = critical ? aorta_pairs_kth(pairs, critical) : -INFINITY;
    out[2] = critical ? aorta_pairs_kth(pairs, count + 1 - critical) : INFINITY;
}

aorta_stats_status_t aorta_stats_effect_at(const double *a, size_t n_a, const double *b,
                                           size_t n_b, size_t critical,
                                           aorta_stats_effect_t *out)
{
    double *x = malloc((n_a + n_b) * sizeof *x);
    if (!x)
        return AORTA_STATS_NO_MEMORY;
    double *y = x + n_a;
    out->log_scale = all_positive(a, n_a) && all_positive(b, n_b);
    prepare(b, n_b, 0, y); /* the raw median of A, from the raw values */
    prepare(a, n_a, 0, x);
    double base = fabs(aorta_stats_percentile(x, n_a, 0.5));
    prepare(a, n_a, out->log_scale, x);
    prepare(b, n_b, out->log_scale, y);
    aorta_pairs_t pairs;
    if (aorta_pairs_init(&pairs, x, n_a, y, n_b, 0) != 0) {
        free(x);
        return AORTA_STATS_NO_MEMORY;
    }
    double d[3];
    estimate(&pairs, critical, d);
    aorta_pairs_free(&pairs);
    express(d[0], out->log_scale, base, &out->effect_pct, &out->effect_abs);
    express(d[1], out->log_scale, base, &out->ci_low_pct, &out->ci_low_abs);
    express(d[2], out->log_scale, base, &out->ci_high_pct, &out->ci_high_abs);
    out->spread = pooled_sd(x, n_a, y, n_b);
    if (!out->log_scale)
        out->spread = base > 0.0 ? out->spread / base : NAN;
    free(x);
    return AORTA_STATS_OK;
}

aorta_stats_status_t aorta_stats_effect(const double *a, size_t n_a, const double *b, size_t n_b,
                                        aorta_stats_effect_t *out)
{
    for (size_t i = 0; i < n_a + n_b; i++)
        if (!isfinite(i < n_a ? a[i] : b[i - n_a]))
            return AORTA_STATS_NOT_FINITE;
    if (n_a == 0 || n_b == 0) {
        *out = (aorta_stats_effect_t){0, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
        return AORTA_STATS_OK;
    }
    return aorta_stats_effect_at(a, n_a, b, n_b, aorta_u_critical(n_a, n_b, AORTA_STATS_CI_LEVEL),
                                 out);
}
