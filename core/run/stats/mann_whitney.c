/* SPDX-License-Identifier: MIT */
/* mann_whitney.c - the two-sided Mann-Whitney U test as scipy 1.10's
 * mannwhitneyu(a, b, alternative="two-sided", method="auto") computes it:
 * U of a from the midranks of the pooled values; the exact null
 * distribution when the data have no ties and a side has at most 8 values
 * (p = 2 P(U <= mn - max(U_a, U_b))), otherwise the normal approximation
 * with the tie term sum(t^3 - t) in the variance and 0.5 taken off the
 * distance for continuity; p at most 1.  Past what the exact distribution
 * is computed for (a million values on the larger side) the normal
 * approximation stands in. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "stats/internal.h"
#include "stats/stats.h"

#define EXACT_MAX_SIDE 8

typedef struct tagged {
    double value;
    int from_a;
} tagged_t;

static int by_value(const void *left, const void *right)
{
    double x = ((const tagged_t *)left)->value, y = ((const tagged_t *)right)->value;
    return x < y ? -1 : x > y;
}

typedef struct ranked {
    double rank_sum_a; /* R1 */
    double tie_term;   /* sum over tie groups of t^3 - t */
    int ties;
} ranked_t;

static void rank(const tagged_t *all, size_t count, ranked_t *out)
{
    *out = (ranked_t){0.0, 0.0, 0};
    for (size_t start = 0; start < count;) {
        size_t end = start + 1, in_a = all[start].from_a;
        while (end < count && all[end].value == all[start].value)
            in_a += all[end++].from_a;
        double t = (double)(end - start);
        double midrank = ((double)start + 1.0 + (double)end) / 2.0;
        out->rank_sum_a += midrank * (double)in_a;
        out->tie_term += t * t * t - t;
        out->ties |= end - start > 1;
        start = end;
    }
}

static double asymptotic_p(double u, size_t n_a, size_t n_b, double tie_term)
{
    double n1 = (double)n_a, n2 = (double)n_b, n = n1 + n2;
    double mu = n1 * n2 / 2.0;
    double s = sqrt(n1 * n2 / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0))));
    double numerator = u - mu - 0.5;
    /* All values tied: s is 0 and U its mean, so -0.5 / 0, -inf, p 1. */
    double z = s > 0.0 ? numerator / s : numerator < 0 ? -INFINITY : numerator > 0 ? INFINITY : NAN;
    return 2.0 * aorta_normal_sf(z);
}

static int finite_all(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

aorta_stats_status_t aorta_stats_mwu(const double *a, size_t n_a, const double *b, size_t n_b,
                                     aorta_stats_mwu_t *out)
{
    *out = (aorta_stats_mwu_t){NAN, NAN, 0};
    if (!finite_all(a, n_a) || !finite_all(b, n_b))
        return AORTA_STATS_NOT_FINITE;
    if (n_a == 0 || n_b == 0)
        return AORTA_STATS_OK;
    tagged_t *all = malloc((n_a + n_b) * sizeof *all);
    if (!all)
        return AORTA_STATS_NO_MEMORY;
    for (size_t i = 0; i < n_a; i++)
        all[i] = (tagged_t){a[i], 1};
    for (size_t j = 0; j < n_b; j++)
        all[n_a + j] = (tagged_t){b[j], 0};
    qsort(all, n_a + n_b, sizeof *all, by_value);
    ranked_t ranked;
    rank(all, n_a + n_b, &ranked);
    free(all);
    double n1 = (double)n_a, n2 = (double)n_b;
    double u1 = ranked.rank_sum_a - n1 * (n1 + 1.0) / 2.0, u2 = n1 * n2 - u1;
    double u = u1 > u2 ? u1 : u2;
    out->u = u1;
    double p = NAN;
    if (!ranked.ties && (n_a <= EXACT_MAX_SIDE || n_b <= EXACT_MAX_SIDE)) {
        /* Without ties U is an integer. */
        p = 2.0 * aorta_u_cdf(n_a, n_b, (size_t)(n1 * n2 - u));
        out->exact = !isnan(p);
    }
    if (isnan(p))
        p = asymptotic_p(u, n_a, n_b, ranked.tie_term);
    out->p = p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
    return AORTA_STATS_OK;
}

double aorta_stats_min_p(size_t n_a, size_t n_b)
{
    if (n_a == 0 || n_b == 0)
        return 1.0;
    if ((n_a <= EXACT_MAX_SIDE || n_b <= EXACT_MAX_SIDE)
        && aorta_u_exact_fits(n_a, n_b, 0))
        return aorta_u_min_p_exact(n_a, n_b);
    double p = asymptotic_p((double)n_a * (double)n_b, n_a, n_b, 0.0);
    return p > 1.0 ? 1.0 : p;
}

size_t aorta_stats_trials_to_reach(double alpha, size_t family)
{
    double f = family ? (double)family : 1.0;
    for (size_t n = 1; n < AORTA_STATS_TRIALS_MAX; n++)
        if (f * aorta_stats_min_p(n, n) < alpha)
            return n;
    return AORTA_STATS_TRIALS_MAX;
}
