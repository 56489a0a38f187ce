/* SPDX-License-Identifier: MIT */
/* pairs.c - order statistics of the m*n pairwise differences y[j] - x[i]
 * that the Hodges-Lehmann estimate and its interval read.  Few pairs are
 * computed and sorted.  Many are never stored: with x and y ascending,
 * the number of differences at or below t is counted in one merge-like
 * pass (row i's count never falls as i grows, since subtraction rounds
 * monotonically), and the k-th smallest is the least double t whose count
 * reaches k, found by bisection over the doubles in their order (64 steps
 * at most). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/internal.h"

static int ascending(const void *left, const void *right)
{
    double x = *(const double *)left, y = *(const double *)right;
    return x < y ? -1 : x > y;
}

int aorta_pairs_init(aorta_pairs_t *pairs, const double *x, size_t m, const double *y, size_t n,
                     int force_bisect)
{
    *pairs = (aorta_pairs_t){x, y, m, n, NULL};
    size_t count = m * n;
    if (force_bisect || count > AORTA_PAIRS_SORTED_MAX)
        return 0;
    pairs->sorted = malloc((count ? count : 1) * sizeof *pairs->sorted);
    if (!pairs->sorted)
        return -1;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            pairs->sorted[i * n + j] = y[j] - x[i];
    qsort(pairs->sorted, count, sizeof *pairs->sorted, ascending);
    return 0;
}

void aorta_pairs_free(aorta_pairs_t *pairs)
{
    free(pairs->sorted);
    pairs->sorted = NULL;
}

/* The differences at or below t. */
static size_t count_at_most(const aorta_pairs_t *pairs, double t)
{
    size_t count = 0, j = 0;
    for (size_t i = 0; i < pairs->m; i++) {
        while (j < pairs->n && pairs->y[j] - pairs->x[i] <= t)
            j++;
        count += j;
    }
    return count;
}

/* The doubles as unsigned integers in the same order (-0 just below +0). */
static uint64_t key_of(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits >> 63 ? ~bits : bits | (UINT64_C(1) << 63);
}

static double value_of(uint64_t key)
{
    uint64_t bits = key >> 63 ? key & ~(UINT64_C(1) << 63) : ~key;
    double value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

double aorta_pairs_kth(const aorta_pairs_t *pairs, size_t k)
{
    if (pairs->sorted)
        return pairs->sorted[k - 1] + 0.0;
    const double *x = pairs->x, *y = pairs->y;
    uint64_t low = key_of(y[0] - x[pairs->m - 1]), high = key_of(y[pairs->n - 1] - x[0]);
    while (low < high) {
        uint64_t middle = low + (high - low) / 2;
        if (count_at_most(pairs, value_of(middle)) >= k)
            high = middle;
        else
            low = middle + 1;
    }
    return value_of(low) + 0.0; /* -0 reads as 0, as the sorted way gives it */
}
