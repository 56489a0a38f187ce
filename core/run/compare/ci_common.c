/* SPDX-License-Identifier: MIT */
/* ci_common.c - what the CI outputs (ci_outputs.h) share: a measure's
 * label, the measures they list, the kernels that changed most. */
#include "config.h"

#include "compare/ci_outputs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

double ar_ci_number(const ar_json_t *obj, const char *key)
{
    const ar_json_t *value = ar_json_get(obj, key);
    return value && ar_json_type(value) != AR_JSON_NULL ? ar_json_get_double(value) : NAN;
}

char *ar_ci_measure_label(const ar_json_t *m)
{
    const char *measure = ar_json_get_string(ar_json_get(m, "measure"));
    const char *collector = ar_json_get_string(ar_json_get(m, "collector"));
    if (!measure)
        return ar_xstrdup("?");
    if (!strcmp(measure, "gpu_time_ms"))
        return ar_xasprintf("%s GPU time", collector ? collector : "?");
    if (!strcmp(measure, "step_time_ms"))
        return ar_xstrdup("step time");
    if (!strcmp(measure, "rank_imbalance_ms"))
        return ar_xasprintf("%s imbalance", collector ? collector : "?");
    return ar_xstrdup(measure);
}

int ar_ci_regressed(const ar_json_t *m)
{
    return ar_json_get_bool(ar_json_get(m, "gated"))
           && !strcmp(ar_json_get_string(ar_json_get(m, "verdict")), "regressed");
}

int ar_ci_undecided(const ar_json_t *m)
{
    return ar_json_get_bool(ar_json_get(m, "undecided"))
           && strcmp(ar_json_get_string(ar_json_get(m, "verdict")), "regressed") != 0;
}

typedef struct ranked {
    double key;
    size_t order;
    const ar_json_t *cell, *measure, *kernel;
} ranked_t;

static int by_key(const void *left, const void *right)
{
    const ranked_t *x = left, *y = right;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* Significant first, then the size of the change (as compare.c orders a
 * collector's kernels). */
static double change_key(const ar_json_t *k)
{
    const char *verdict = ar_json_get_string(ar_json_get(k, "verdict"));
    int significant = !strcmp(verdict, "regressed") || !strcmp(verdict, "improved");
    double a = ar_ci_number(k, "mean_a"), b = ar_ci_number(k, "mean_b");
    double delta = (isnan(b) ? 0.0 : b) - (isnan(a) ? 0.0 : a);
    return (significant ? 1e300 : 0.0) + fabs(delta);
}

ar_json_t *ar_ci_top_kernels(const ar_json_t *cmp, size_t max)
{
    const ar_json_t *cells = ar_json_get(cmp, "cells");
    ranked_t *all = NULL;
    size_t count = 0, capacity = 0;
    for (size_t c = 0; c < ar_json_length(cells); c++) {
        const ar_json_t *cell = ar_json_at(cells, c);
        const ar_json_t *measures = ar_json_get(cell, "measures");
        for (size_t m = 0; m < ar_json_length(measures); m++) {
            const ar_json_t *measure = ar_json_at(measures, m);
            const ar_json_t *kernels = ar_json_get(measure, "kernels");
            for (size_t k = 0; k < ar_json_length(kernels); k++) {
                ar_xgrow((void **)&all, &capacity, count + 1, sizeof *all);
                const ar_json_t *kernel = ar_json_at(kernels, k);
                all[count] = (ranked_t){change_key(kernel), count, cell, measure, kernel};
                count++;
            }
        }
    }
    if (count > 1)
        qsort(all, count, sizeof *all, by_key);
    ar_json_t *top = ar_json_array();
    for (size_t i = 0; i < count && i < max; i++) {
        ar_json_t *entry = ar_json_object();
        ar_json_set(entry, "cell", ar_json_ref((ar_json_t *)all[i].cell));
        ar_json_set(entry, "measure", ar_json_ref((ar_json_t *)all[i].measure));
        ar_json_set(entry, "kernel", ar_json_ref((ar_json_t *)all[i].kernel));
        ar_json_append(top, entry);
    }
    free(all);
    return top;
}
