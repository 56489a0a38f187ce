/* SPDX-License-Identifier: MIT */
/* pairs.c - order statistics of the m*n pairwise differences y[j] - x[i]
 * that the Hodges-Lehmann estimate and its interval read.  A few thousand
 * pairs are computed and each order statistic selected (Hoare's find, in
 * expected linear time).  More are never stored: with x and y ascending,
 * the number of differences at or below t is counted in one merge-like
 * pass (row i's count never falls as i grows, since subtraction rounds
 * monotonically), and the k-th smallest is the least double t whose count
 * reaches k, found by bisection over the doubles in their order (64 steps
 * at most). */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/internal.h"

int ar_pairs_init(ar_pairs_t *pairs, const double *x, size_t m, const double *y, size_t n,
                     int force_bisect)
{
    *pairs = (ar_pairs_t){x, y, m, n, NULL};
    size_t count = m * n;
    if (force_bisect || count > AR_PAIRS_STORED_MAX)
        return 0;
    pairs->stored = malloc((count ? count : 1) * sizeof *pairs->stored);
    if (!pairs->stored)
        return -1;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            pairs->stored[i * n + j] = y[j] - x[i];
    return 0;
}

void ar_pairs_free(ar_pairs_t *pairs)
{
    free(pairs->stored);
    pairs->stored = NULL;
}

/* The differences at or below t. */
static size_t count_at_most(const ar_pairs_t *pairs, double t)
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

/* The order statistics ks (0-based, ascending) of v's n values into out:
 * the middle one selected first, then those below it among the values
 * before it and those above among the values after, so each selection
 * works on what the last one left. */
static void select_many(double *v, size_t n, const size_t *ks, size_t count, size_t offset,
                        double *out)
{
    if (count == 0)
        return;
    size_t middle = count / 2, k = ks[middle] - offset;
    ar_select_kth(v, (ptrdiff_t)n, (ptrdiff_t)k);
    size_t below = 0, above = count;
    while (below < middle && ks[below] - offset < k)
        below++;
    while (above > middle + 1 && ks[above - 1] - offset > k)
        above--;
    for (size_t i = below; i < above; i++)
        out[i] = v[k]; /* the middle one and its equals */
    select_many(v, k, ks, below, offset, out);
    select_many(v + k + 1, n - k - 1, ks + above, count - above, offset + k + 1, out + above);
}

void ar_pairs_select(const ar_pairs_t *pairs, const size_t *ks, size_t count, double *out)
{
    if (pairs->stored) {
        size_t zero_based[8] = {0};
        for (size_t i = 0; i < count && i < 8; i++)
            zero_based[i] = ks[i] - 1;
        select_many(pairs->stored, pairs->m * pairs->n, zero_based, count < 8 ? count : 8, 0,
                    out);
        for (size_t i = 0; i < count; i++)
            out[i] += 0.0; /* -0 reads as 0 */
        return;
    }
    for (size_t i = 0; i < count; i++)
        out[i] = ar_pairs_kth(pairs, ks[i]);
}

double ar_pairs_kth(const ar_pairs_t *pairs, size_t k)
{
    if (pairs->stored) {
        ar_select_kth(pairs->stored, (ptrdiff_t)(pairs->m * pairs->n), (ptrdiff_t)k - 1);
        return pairs->stored[k - 1] + 0.0;
    }
    const double *x = pairs->x, *y = pairs->y;
    uint64_t low = key_of(y[0] - x[pairs->m - 1]), high = key_of(y[pairs->n - 1] - x[0]);
    while (low < high) {
        uint64_t middle = low + (high - low) / 2;
        if (count_at_most(pairs, value_of(middle)) >= k)
            high = middle;
        else
            low = middle + 1;
    }
    return value_of(low) + 0.0; /* -0 reads as 0, as the stored way gives it */
}
