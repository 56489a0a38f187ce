/* SPDX-License-Identifier: MIT */
/* sort.c - ordering doubles, which the summaries do per measure: a sort
 * that takes a trial count's few values without qsort's indirect calls. */
#include "config.h"

#include <stdlib.h>

#include "stats/internal.h"

static int ascending(const void *left, const void *right)
{
    double x = *(const double *)left, y = *(const double *)right;
    return x < y ? -1 : x > y;
}

void ar_sort_doubles(double *v, size_t n)
{
    if (n > 32) {
        qsort(v, n, sizeof *v, ascending);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        double value = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1] > value; j--)
            v[j] = v[j - 1];
        v[j] = value;
    }
}
