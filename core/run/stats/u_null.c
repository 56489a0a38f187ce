/* SPDX-License-Identifier: MIT */
/* u_null.c - the exact null distribution of the Mann-Whitney U.  The
 * number of arrangements with U = k at sizes m <= n is the coefficient of
 * q^k in the Gaussian binomial [m+n choose m]_q, built as
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i): per factor one pass subtracting
 * and one of prefix sums with stride i, each looking only at lower k, so
 * the coefficients up to kmax need kmax + 1 doubles and m (kmax + 1) steps.
 * Doubles, not integers: C(m+n, m) passes 2^64 at 8 and 960, and
 * P(U <= k) for k up to mn/2 stays within 2e-15 (relative) of the exact
 * integers' for a side of at most 8, 4e-14 at 200 a side. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "stats/internal.h"

/* Work per cdf: the smaller size times the terms. */
#define EXACT_MAX_WORK ((double)(1u << 27))

static size_t smaller(size_t m, size_t n)
{
    return m < n ? m : n;
}

int ar_u_exact_fits(size_t m, size_t n, size_t kmax)
{
    size_t s = smaller(m, n);
    if (kmax >= AR_U_EXACT_MAX_TERMS || (double)s * (double)(kmax + 1) > EXACT_MAX_WORK)
        return 0;
    /* log C(m+n, s) well inside a double's range. */
    double log_total = lgamma((double)(m + n) + 1) - lgamma((double)s + 1)
                       - lgamma((double)(m + n - s) + 1);
    return log_total < 700.0;
}

/* C(m+n, s) as a double, s the smaller size. */
static double arrangements(size_t m, size_t n)
{
    size_t s = smaller(m, n), l = m + n - s;
    double total = 1.0;
    for (size_t i = 1; i <= s; i++)
        total = total * (double)(l + i) / (double)i;
    return total;
}

int ar_u_pmf(size_t m, size_t n, size_t kmax, double *pmf)
{
    if (!ar_u_exact_fits(m, n, kmax))
        return -1;
    size_t s = smaller(m, n), l = m + n - s;
    for (size_t k = 0; k <= kmax; k++)
        pmf[k] = 0.0;
    pmf[0] = 1.0;
    for (size_t i = 1; i <= s; i++) {
        size_t stride = l + i;
        for (size_t k = kmax; k >= stride; k--)
            pmf[k] -= pmf[k - stride];
        for (size_t k = i; k <= kmax; k++)
            pmf[k] += pmf[k - i];
    }
    double total = arrangements(m, n);
    for (size_t k = 0; k <= kmax; k++)
        pmf[k] /= total;
    return 0;
}

double ar_u_cdf(size_t m, size_t n, size_t k)
{
    if (!ar_u_exact_fits(m, n, k))
        return NAN;
    double *pmf = malloc((k + 1) * sizeof *pmf);
    if (!pmf || ar_u_pmf(m, n, k, pmf) != 0) {
        free(pmf);
        return NAN;
    }
    /* Summed from the left, as scipy's cumsum of the pmf. */
    double cdf = 0.0;
    for (size_t i = 0; i <= k; i++)
        cdf += pmf[i];
    free(pmf);
    return cdf;
}

double ar_u_min_p_exact(size_t m, size_t n)
{
    double p = 2.0 / arrangements(m, n);
    return p < 1.0 ? p : 1.0;
}

size_t ar_u_critical(size_t m, size_t n, double level)
{
    double tail = (1.0 - level) / 2.0;
    size_t half = m * n / 2;
    double *pmf = ar_u_exact_fits(m, n, half) ? malloc((half + 1) * sizeof *pmf) : NULL;
    if (pmf && ar_u_pmf(m, n, half, pmf) == 0) {
        /* The first k with P(U <= k) past the tail; the slack keeps a cdf
         * that is the tail exactly (as 1/40 is) on the inside. */
        double cdf = 0.0;
        size_t k = 0;
        for (; k <= half; k++) {
            cdf += pmf[k];
            if (cdf > tail * (1.0 + 1e-12))
                break;
        }
        free(pmf);
        return k;
    }
    free(pmf);
    /* Normal approximation with continuity: P(U <= c - 1) ~ tail. */
    double mn = (double)m * (double)n;
    double sigma = sqrt(mn * ((double)(m + n) + 1.0) / 12.0);
    double c = floor(mn / 2.0 + 0.5 - ar_normal_isf(tail) * sigma);
    return c > 0 ? (size_t)c : 0;
}
