/* SPDX-License-Identifier: MIT */
/* internal.h - what the statistics module's files share and callers do not
 * need: exact sums as expansions, the normal distribution, the incomplete
 * beta function.  The tests reach these to hold each part to its
 * reference. */
#ifndef AR_STATS_INTERNAL_H
#define AR_STATS_INTERNAL_H

#include <stddef.h>

#include "stats/stats.h"

/* v ascending (NaN-free): insertion for a few values, qsort past 32. */
void ar_sort_doubles(double *v, size_t n);

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

/* The regularized incomplete beta function I_x(a, b) (a, b > 0, 0 <= x <= 1),
 * which Student's t's tail is made of. */
double ar_betainc(double a, double b, double x);

#endif
