/* SPDX-License-Identifier: MIT */
/* holm.c - Holm's step-down correction, which keeps the chance of any
 * false "changed" in a family at alpha without Bonferroni's cost: the i-th
 * smallest p of F is multiplied by F - i + 1, made non-decreasing along
 * the order, and capped at 1.  A measure without a p-value (an empty side)
 * is no member of the family. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"

typedef struct indexed {
    double p;
    size_t index;
} indexed_t;

static int by_p(const void *left, const void *right)
{
    const indexed_t *x = left, *y = right;
    if (x->p != y->p)
        return x->p < y->p ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

ar_stats_status_t ar_stats_holm(const double *p, size_t count, double *adjusted)
{
    indexed_t *order = malloc((count ? count : 1) * sizeof *order);
    if (!order)
        return AR_STATS_NO_MEMORY;
    size_t family = 0;
    for (size_t i = 0; i < count; i++)
        if (!isnan(p[i]))
            order[family++] = (indexed_t){p[i], i};
    for (size_t i = 0; i < count; i++)
        if (isnan(p[i]))
            adjusted[i] = NAN;
    qsort(order, family, sizeof *order, by_p);
    double running = 0.0;
    for (size_t i = 0; i < family; i++) {
        double scaled = (double)(family - i) * order[i].p;
        running = scaled > running ? scaled : running;
        adjusted[order[i].index] = running < 1.0 ? running : 1.0;
    }
    free(order);
    return AR_STATS_OK;
}
