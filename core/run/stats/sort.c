/* SPDX-License-Identifier: MIT */
/* sort.c - ordering doubles, which every part of the module does per
 * measure: a sort that takes a trial count's few values without qsort's
 * indirect calls, and Hoare's find for one order statistic of many. */
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

static double median_of_three(double a, double b, double c)
{
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    return c < a ? a : c > b ? b : c;
}

/* Hoare's find as Wirth writes it, the pivot the median of three; a range
 * that has not shrunk to one value within twice its logarithm of rounds is
 * sorted instead, which bounds the worst case by n log n. */
void ar_select_kth(double *v, ptrdiff_t n, ptrdiff_t k)
{
    ptrdiff_t l = 0, r = n - 1;
    int rounds = 8;
    for (ptrdiff_t size = n; size > 1; size /= 2)
        rounds += 2;
    while (l < r) {
        if (rounds-- == 0) {
            ar_sort_doubles(v + l, (size_t)(r - l + 1));
            return;
        }
        double x = median_of_three(v[l], v[l + (r - l) / 2], v[r]);
        ptrdiff_t i = l, j = r;
        do {
            while (v[i] < x)
                i++;
            while (x < v[j])
                j--;
            if (i <= j) {
                double t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        } while (i <= j);
        if (j < k)
            l = i;
        if (k < i)
            r = j;
    }
}

double *ar_sorted_copy(const double *a, size_t n_a, const double *b, size_t n_b)
{
    double *copy = malloc((n_a + n_b ? n_a + n_b : 1) * sizeof *copy);
    if (!copy)
        return NULL;
    for (size_t i = 0; i < n_a; i++)
        copy[i] = a[i];
    for (size_t j = 0; j < n_b; j++)
        copy[n_a + j] = b[j];
    ar_sort_doubles(copy, n_a);
    ar_sort_doubles(copy + n_a, n_b);
    return copy;
}
