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

typedef struct ranked {
    double rank_sum_a; /* R1 */
    double tie_term;   /* sum over tie groups of t^3 - t */
    int ties;
} ranked_t;

/* Midranks of the pooled values, walking the two sorted sides together: a
 * group of equal values, from either side, shares the mean of its ranks. */
static void rank(const double *a, size_t n_a, const double *b, size_t n_b, ranked_t *out)
{
    *out = (ranked_t){0.0, 0.0, 0};
    size_t i = 0, j = 0, done = 0;
    while (i < n_a || j < n_b) {
        double value = j >= n_b || (i < n_a && a[i] <= b[j]) ? a[i] : b[j];
        size_t in_a = 0, in_b = 0;
        for (; i < n_a && a[i] == value; i++)
            in_a++;
        for (; j < n_b && b[j] == value; j++)
            in_b++;
        double t = (double)(in_a + in_b);
        out->rank_sum_a += ((double)done + 1.0 + (double)done + t) / 2.0 * (double)in_a;
        out->tie_term += t * t * t - t;
        out->ties |= in_a + in_b > 1;
        done += in_a + in_b;
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
    return 2.0 * ar_normal_sf(z);
}

static int finite_all(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

void ar_stats_mwu_sorted(const double *a, size_t n_a, const double *b, size_t n_b,
                            ar_stats_mwu_t *out)
{
    ranked_t ranked;
    rank(a, n_a, b, n_b, &ranked);
    double n1 = (double)n_a, n2 = (double)n_b;
    double u1 = ranked.rank_sum_a - n1 * (n1 + 1.0) / 2.0, u2 = n1 * n2 - u1;
    double u = u1 > u2 ? u1 : u2;
    *out = (ar_stats_mwu_t){u1, NAN, 0};
    double p = NAN;
    if (!ranked.ties && (n_a <= EXACT_MAX_SIDE || n_b <= EXACT_MAX_SIDE)) {
        /* Without ties U is an integer. */
        p = 2.0 * ar_u_cdf(n_a, n_b, (size_t)(n1 * n2 - u));
        out->exact = !isnan(p);
    }
    if (isnan(p))
        p = asymptotic_p(u, n_a, n_b, ranked.tie_term);
    out->p = p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
}

ar_stats_status_t ar_stats_mwu(const double *a, size_t n_a, const double *b, size_t n_b,
                                     ar_stats_mwu_t *out)
{
    *out = (ar_stats_mwu_t){NAN, NAN, 0};
    if (!finite_all(a, n_a) || !finite_all(b, n_b))
        return AR_STATS_NOT_FINITE;
    if (n_a == 0 || n_b == 0)
        return AR_STATS_OK;
    double *sorted = ar_sorted_copy(a, n_a, b, n_b);
    if (!sorted)
        return AR_STATS_NO_MEMORY;
    ar_stats_mwu_sorted(sorted, n_a, sorted + n_a, n_b, out);
    free(sorted);
    return AR_STATS_OK;
}

double ar_stats_min_p(size_t n_a, size_t n_b)
{
    if (n_a == 0 || n_b == 0)
        return 1.0;
    if ((n_a <= EXACT_MAX_SIDE || n_b <= EXACT_MAX_SIDE)
        && ar_u_exact_fits(n_a, n_b, 0))
        return ar_u_min_p_exact(n_a, n_b);
    double p = asymptotic_p((double)n_a * (double)n_b, n_a, n_b, 0.0);
    return p > 1.0 ? 1.0 : p;
}

size_t ar_stats_trials_to_reach(double alpha, size_t family)
{
    double f = family ? (double)family : 1.0;
    for (size_t n = 1; n < AR_STATS_TRIALS_MAX; n++)
        if (f * ar_stats_min_p(n, n) < alpha)
            return n;
    return AR_STATS_TRIALS_MAX;
}
