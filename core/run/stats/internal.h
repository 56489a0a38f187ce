/* SPDX-License-Identifier: MIT */
/* internal.h - what the statistics module's files share and callers do not
 * need: exact sums as expansions, the normal distribution, the null
 * distribution of U, and the order statistics of pairwise differences.
 * The tests reach these to hold each part to its reference. */
#ifndef AR_STATS_INTERNAL_H
#define AR_STATS_INTERNAL_H

#include <stddef.h>

#include "stats/stats.h"

/* v ascending (NaN-free): insertion for a few values, qsort past 32. */
void ar_sort_doubles(double *v, size_t n);
/* v rearranged so that v[k] (0 <= k < n) is what sorting would put there,
 * nothing larger before it and nothing smaller after (nth_element):
 * Hoare's find, expected O(n), at worst O(n log n). */
void ar_select_kth(double *v, ptrdiff_t n, ptrdiff_t k);

/* An exact sum as Shewchuk's non-overlapping partials, smallest first (the
 * algorithm of Python's math.fsum).  local serves the common case; more
 * partials than that go to the heap. */
#define AR_EXPANSION_LOCAL 32
typedef struct ar_expansion {
    double *p;
    size_t count, capacity;
    double local[AR_EXPANSION_LOCAL];
} ar_expansion_t;

void ar_expansion_init(ar_expansion_t *e);
void ar_expansion_free(ar_expansion_t *e);
/* Add x exactly; -1 when out of memory (e is then unchanged in value). */
int ar_expansion_add(ar_expansion_t *e, double x);
/* Copy from into to (to initialized or not); -1 when out of memory. */
int ar_expansion_copy(ar_expansion_t *to, const ar_expansion_t *from);
/* The exact sum rounded to the nearest double, ties to even (math.fsum). */
double ar_expansion_round(const ar_expansion_t *e);

/* The standard normal's upper tail P(Z > z) (scipy.stats.norm.sf), and its
 * inverse: the z with P(Z > z) = p, for 0 < p < 1. */
double ar_normal_sf(double z);
double ar_normal_isf(double p);

/* The null distribution of the Mann-Whitney U for sizes m and n: P(U = k)
 * for k = 0..kmax into pmf (kmax + 1 doubles).  0, or -1 when the sizes
 * are past what the exact distribution is computed for
 * (ar_u_exact_fits). */
int ar_u_pmf(size_t m, size_t n, size_t kmax, double *pmf);
/* Whether P(U <= k) for k up to kmax is computed exactly at these sizes:
 * C(m+n, m) within a double, at most AR_U_EXACT_MAX_TERMS entries and
 * a bounded amount of work. */
#define AR_U_EXACT_MAX_TERMS ((size_t)1 << 22)
int ar_u_exact_fits(size_t m, size_t n, size_t kmax);
/* P(U <= k) from the exact distribution; NaN when it does not fit. */
double ar_u_cdf(size_t m, size_t n, size_t k);
/* 2 / C(m+n, m), at most 1: the exact test's smallest two-sided p. */
double ar_u_min_p_exact(size_t m, size_t n);
/* The count C of the level's distribution-free interval for a shift,
 * [d_(C), d_(mn+1-C)] of the m*n ordered differences (Lehmann): the
 * largest C with P(U <= C - 1) <= (1 - level) / 2, from the exact
 * distribution where it fits, else the normal one.  0: the sizes cannot
 * give such an interval (3 per side at 95%). */
size_t ar_u_critical(size_t m, size_t n, double level);

/* The m*n differences y[j] - x[i] (each as the double subtraction gives it)
 * of the ascending arrays x (m) and y (n), for their order statistics.
 * Up to AR_PAIRS_STORED_MAX of them are computed and each k-th selected
 * among them (expected O(m n)); past that the k-th is found by bisection
 * over the doubles, counting the differences at or below each candidate
 * (exact, O((m + n) * 64), no memory).  Both ways give the same value;
 * force_bisect picks the second (the tests compare them). */
#define AR_PAIRS_STORED_MAX 4096
typedef struct ar_pairs {
    const double *x, *y;
    size_t m, n;
    double *stored; /* the m * n differences in some order, or NULL */
} ar_pairs_t;
/* -1 when out of memory. */
int ar_pairs_init(ar_pairs_t *pairs, const double *x, size_t m, const double *y, size_t n,
                     int force_bisect);
/* The k-th smallest, 1 <= k <= m * n (reorders the stored differences). */
double ar_pairs_kth(const ar_pairs_t *pairs, size_t k);
/* The ks[i]-th smallest of each of count (at most 8) ascending ks into out:
 * the same values, each selection narrowed by the ones before. */
void ar_pairs_select(const ar_pairs_t *pairs, const size_t *ks, size_t count, double *out);
void ar_pairs_free(ar_pairs_t *pairs);

/* ar_stats_mwu() and ar_stats_effect() on values already sorted
 * ascending (a measure sorts its two sides once for both), the effect with
 * the interval's count given (ar_u_critical: a family reuses it across
 * measures of the same sizes).  Sides non-empty, values finite. */
void ar_stats_mwu_sorted(const double *a, size_t n_a, const double *b, size_t n_b,
                            ar_stats_mwu_t *out);
ar_stats_status_t ar_stats_effect_sorted(const double *a, size_t n_a, const double *b,
                                               size_t n_b, size_t critical,
                                               ar_stats_effect_t *out);
/* Copies of a and b, each sorted, into one new array (a's first); NULL
 * when out of memory. */
double *ar_sorted_copy(const double *a, size_t n_a, const double *b, size_t n_b);

#endif
