/* SPDX-License-Identifier: MIT */
/* internal.h - what the statistics module's files share and callers do not
 * need: exact sums as expansions, the normal distribution, the null
 * distribution of U, and the order statistics of pairwise differences.
 * The tests reach these to hold each part to its reference. */
#ifndef AORTA_STATS_INTERNAL_H
#define AORTA_STATS_INTERNAL_H

#include <stddef.h>

#include "stats/stats.h"

/* v ascending (NaN-free): insertion for a few values, qsort past 32. */
void aorta_sort_doubles(double *v, size_t n);
/* v rearranged so that v[k] (0 <= k < n) is what sorting would put there,
 * nothing larger before it and nothing smaller after (nth_element):
 * Hoare's find, expected O(n), at worst O(n log n). */
void aorta_select_kth(double *v, ptrdiff_t n, ptrdiff_t k);

/* An exact sum as Shewchuk's non-overlapping partials, smallest first (the
 * algorithm of Python's math.fsum).  local serves the common case; more
 * partials than that go to the heap. */
#define AORTA_EXPANSION_LOCAL 32
typedef struct aorta_expansion {
    double *p;
    size_t count, capacity;
    double local[AORTA_EXPANSION_LOCAL];
} aorta_expansion_t;

void aorta_expansion_init(aorta_expansion_t *e);
void aorta_expansion_free(aorta_expansion_t *e);
/* Add x exactly; -1 when out of memory (e is then unchanged in value). */
int aorta_expansion_add(aorta_expansion_t *e, double x);
/* Copy from into to (to initialized or not); -1 when out of memory. */
int aorta_expansion_copy(aorta_expansion_t *to, const aorta_expansion_t *from);
/* The exact sum rounded to the nearest double, ties to even (math.fsum). */
double aorta_expansion_round(const aorta_expansion_t *e);

/* The standard normal's upper tail P(Z > z) (scipy.stats.norm.sf), and its
 * inverse: the z with P(Z > z) = p, for 0 < p < 1. */
double aorta_normal_sf(double z);
double aorta_normal_isf(double p);

/* The null distribution of the Mann-Whitney U for sizes m and n: P(U = k)
 * for k = 0..kmax into pmf (kmax + 1 doubles).  0, or -1 when the sizes
 * are past what the exact distribution is computed for
 * (aorta_u_exact_fits). */
int aorta_u_pmf(size_t m, size_t n, size_t kmax, double *pmf);
/* Whether P(U <= k) for k up to kmax is computed exactly at these sizes:
 * C(m+n, m) within a double, at most AORTA_U_EXACT_MAX_TERMS entries and
 * a bounded amount of work. */
#define AORTA_U_EXACT_MAX_TERMS ((size_t)1 << 22)
int aorta_u_exact_fits(size_t m, size_t n, size_t kmax);
/* P(U <= k) from the exact distribution; NaN when it does not fit. */
double aorta_u_cdf(size_t m, size_t n, size_t k);
/* 2 / C(m+n, m), at most 1: the exact test's smallest two-sided p. */
double aorta_u_min_p_exact(size_t m, size_t n);
/* The count C of the level's distribution-free interval for a shift,
 * [d_(C), d_(mn+1-C)] of the m*n ordered differences (Lehmann): the
 * largest C with P(U <= C - 1) <= (1 - level) / 2, from the exact
 * distribution where it fits, else the normal one.  0: the sizes cannot
 * give such an interval (3 per side at 95%). */
size_t aorta_u_critical(size_t m, size_t n, double level);

/* The m*n differences y[j] - x[i] (each as the double subtraction gives it)
 * of the ascending arrays x (m) and y (n), for their order statistics.
 * Up to AORTA_PAIRS_STORED_MAX of them are computed and each k-th selected
 * among them (expected O(m n)); past that the k-th is found by bisection
 * over the doubles, counting the differences at or below each candidate
 * (exact, O((m + n) * 64), no memory).  Both ways give the same value;
 * force_bisect picks the second (the tests compare them). */
#define AORTA_PAIRS_STORED_MAX 4096
typedef struct aorta_pairs {
    const double *x, *y;
    size_t m, n;
    double *stored; /* the m * n differences in some order, or NULL */
} aorta_pairs_t;
/* -1 when out of memory. */
int aorta_pairs_init(aorta_pairs_t *pairs, const double *x, size_t m, const double *y, size_t n,
                     int force_bisect);
/* The k-th smallest, 1 <= k <= m * n (reorders the stored differences). */
double aorta_pairs_kth(const aorta_pairs_t *pairs, size_t k);
/* The ks[i]-th smallest of each of count (at most 8) ascending ks into out:
 * the same values, each selection narrowed by the ones before. */
void aorta_pairs_select(const aorta_pairs_t *pairs, const size_t *ks, size_t count, double *out);
void aorta_pairs_free(aorta_pairs_t *pairs);

/* aorta_stats_mwu() and aorta_stats_effect() on values already sorted
 * ascending (a measure sorts its two sides once for both), the effect with
 * the interval's count given (aorta_u_critical: a family reuses it across
 * measures of the same sizes).  Sides non-empty, values finite. */
void aorta_stats_mwu_sorted(const double *a, size_t n_a, const double *b, size_t n_b,
                            aorta_stats_mwu_t *out);
aorta_stats_status_t aorta_stats_effect_sorted(const double *a, size_t n_a, const double *b,
                                               size_t n_b, size_t critical,
                                               aorta_stats_effect_t *out);
/* Copies of a and b, each sorted, into one new array (a's first); NULL
 * when out of memory. */
double *aorta_sorted_copy(const double *a, size_t n_a, const double *b, size_t n_b);

#endif
