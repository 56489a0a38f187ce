/* SPDX-License-Identifier: MIT */
/* exact_sum.c - sums without rounding error: Shewchuk's partials (the
 * algorithm of Python's math.fsum), and from them a correctly rounded mean
 * and a population standard deviation that is exactly 0 on identical
 * samples.  Values far from 1 are scaled by a power of two first, so that
 * no partial or square overflows. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/internal.h"
#include "stats/stats.h"

void ar_expansion_init(ar_expansion_t *e)
{
    e->p = e->local;
    e->count = 0;
    e->capacity = AR_EXPANSION_LOCAL;
}

void ar_expansion_free(ar_expansion_t *e)
{
    if (e->p != e->local)
        free(e->p);
    ar_expansion_init(e);
}

static int reserve(ar_expansion_t *e, size_t count)
{
    if (count <= e->capacity)
        return 0;
    size_t capacity = e->capacity * 2 > count ? e->capacity * 2 : count;
    double *p = malloc(capacity * sizeof *p);
    if (!p)
        return -1;
    memcpy(p, e->p, e->count * sizeof *p);
    if (e->p != e->local)
        free(e->p);
    e->p = p;
    e->capacity = capacity;
    return 0;
}

int ar_expansion_add(ar_expansion_t *e, double x)
{
    /* At most one partial more than now. */
    if (reserve(e, e->count + 1) != 0)
        return -1;
    size_t kept = 0;
    for (size_t i = 0; i < e->count; i++) {
        double y = e->p[i];
        if (fabs(x) < fabs(y)) {
            double t = x;
            x = y;
            y = t;
        }
        double hi = x + y;
        double lo = y - (hi - x);
        if (lo != 0.0)
            e->p[kept++] = lo;
        x = hi;
    }
    e->p[kept++] = x;
    e->count = kept;
    return 0;
}

int ar_expansion_copy(ar_expansion_t *to, const ar_expansion_t *from)
{
    ar_expansion_init(to);
    if (reserve(to, from->count) != 0)
        return -1;
    memcpy(to->p, from->p, from->count * sizeof *to->p);
    to->count = from->count;
    return 0;
}

double ar_expansion_round(const ar_expansion_t *e)
{
    size_t n = e->count;
    if (n == 0)
        return 0.0;
    double hi = e->p[--n], lo = 0.0;
    while (n > 0) {
        double x = hi, y = e->p[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0.0)
            break;
    }
    /* Half-even across partials: a lower partial of lo's sign breaks the
     * tie away from hi (math.fsum's fix-up). */
    if (n > 0 && ((lo < 0.0 && e->p[n - 1] < 0.0) || (lo > 0.0 && e->p[n - 1] > 0.0))) {
        double y = lo * 2.0, x = hi + y;
        if (y == x - hi)
            hi = x;
    }
    return hi;
}

/* The power of two that brings the largest magnitude near 1 when it is far
 * from it (sums of squares of 1e200 overflow; of 1e-200, underflow); 0
 * (no scaling) otherwise. */
static int scale_of(const double *x, size_t n)
{
    double top = 0.0;
    for (size_t i = 0; i < n; i++)
        top = fabs(x[i]) > top ? fabs(x[i]) : top;
    if (top == 0.0 || (top < 0x1p400 && top > 0x1p-400))
        return 0;
    int exponent;
    frexp(top, &exponent);
    return -exponent;
}

static int add_all(ar_expansion_t *e, const double *x, size_t n, int scale)
{
    for (size_t i = 0; i < n; i++)
        if (ar_expansion_add(e, ldexp(x[i], scale)) != 0)
            return -1;
    return 0;
}

double ar_stats_fsum(const double *x, size_t n)
{
    ar_expansion_t e;
    ar_expansion_init(&e);
    int scale = scale_of(x, n);
    double sum = add_all(&e, x, n, scale) == 0 ? ldexp(ar_expansion_round(&e), -scale) : NAN;
    ar_expansion_free(&e);
    return sum;
}

/* The sign of sum - count * q - extra (exact: count * q is hi + lo by fma,
 * extra is exact by the caller) into *sign; -1 when out of memory. */
static int residual_sign(const ar_expansion_t *sum, double count, double q, double extra,
                         int *sign)
{
    ar_expansion_t r;
    if (ar_expansion_copy(&r, sum) != 0)
        return -1;
    double hi = count * q, lo = fma(count, q, -hi);
    int failed = ar_expansion_add(&r, -hi) || ar_expansion_add(&r, -lo)
                 || ar_expansion_add(&r, -extra);
    double rounded = ar_expansion_round(&r);
    *sign = (rounded > 0) - (rounded < 0);
    ar_expansion_free(&r);
    return failed ? -1 : 0;
}

/* sum / count rounded to nearest, ties to even.  q starts within a unit or
 * two in the last place; each step compares the exact residual
 * sum - count * q with count times half the step to the neighbour on its
 * side (that half is a power of two, so the product is exact) and moves
 * there when the residual is past it. */
static int divide_rounded(const ar_expansion_t *sum, double count, double *out)
{
    double q = ar_expansion_round(sum) / count;
    for (int step = 0; step < 8; step++) {
        int side, beyond;
        if (residual_sign(sum, count, q, 0.0, &side) != 0)
            return -1;
        if (side == 0)
            break; /* exact */
        double next = nextafter(q, side > 0 ? INFINITY : -INFINITY);
        if (residual_sign(sum, count, q, count * ((next - q) / 2), &beyond) != 0)
            return -1;
        beyond *= side;
        uint64_t bits;
        memcpy(&bits, &next, sizeof bits);
        if (beyond < 0 || (beyond == 0 && (bits & 1u)))
            break; /* q is nearer, or a tie that q, the even one, wins */
        q = next;
        if (beyond == 0)
            break;
    }
    *out = q;
    return 0;
}

static double mean_scaled(const double *x, size_t n, int scale)
{
    ar_expansion_t e;
    ar_expansion_init(&e);
    double mean = NAN;
    if (add_all(&e, x, n, scale) != 0 || divide_rounded(&e, (double)n, &mean) != 0)
        mean = NAN;
    ar_expansion_free(&e);
    return mean;
}

double ar_stats_mean(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    int scale = scale_of(x, n);
    return ldexp(mean_scaled(x, n, scale), -scale);
}

/* (x - m)^2 into e: x - m == d + dl exactly (two-sum), d^2 == p + pl
 * exactly (fma); the rest, 2 d dl + dl^2, lies far below the result's last
 * place and is added rounded. */
static int add_square_deviation(ar_expansion_t *e, double x, double m)
{
    double d = x - m;
    double bv = d - x, av = d - bv;
    double dl = (x - av) + (-m - bv);
    double p = d * d, pl = fma(d, d, -p);
    return ar_expansion_add(e, p) || ar_expansion_add(e, pl)
           || ar_expansion_add(e, 2.0 * d * dl + dl * dl);
}

double ar_stats_pstdev(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    int scale = scale_of(x, n);
    double m = mean_scaled(x, n, scale);
    if (isnan(m))
        return NAN;
    ar_expansion_t e;
    ar_expansion_init(&e);
    int failed = 0;
    for (size_t i = 0; i < n && !failed; i++)
        failed = add_square_deviation(&e, ldexp(x[i], scale), m) != 0;
    double ss = ar_expansion_round(&e);
    ar_expansion_free(&e);
    if (failed)
        return NAN;
    /* Squares about the rounded mean exceed those about the exact one by
     * n (mean - m)^2, below half a unit of m per value: negligible, and 0
     * when the samples are identical (then m is exact). */
    return ldexp(sqrt(ss / (double)n), -scale);
}
