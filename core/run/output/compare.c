/* SPDX-License-Identifier: MIT */
/* compare.c - run-to-run comparison.  Noise: the larger of the two runs'
 * trial ranges (max - min) of the compared time; a change inside it is
 * flagged as such, since a single noisy trial can make any delta. */
#include "config.h"

#include "output/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/demangle.h"
#include "xalloc.h"

static aorta_json_t *names_array(void)
{
    return aorta_json_array();
}

static int has_string(const aorta_json_t *array, const char *text)
{
    for (size_t i = 0; i < aorta_json_length(array); i++)
        if (!strcmp(aorta_json_get_string(aorta_json_at(array, i)), text))
            return 1;
    return 0;
}

/* The collectors any cell of run has a table for, in first-seen order. */
static aorta_json_t *collectors_of(const aorta_kagg_run_t *run)
{
    aorta_json_t *names = names_array();
    for (size_t c = 0; c < run->count; c++)
        for (size_t t = 0; t < run->cells[c].count; t++)
            if (!has_string(names, run->cells[c].tables[t].collector))
                aorta_json_append(names, aorta_json_string(run->cells[c].tables[t].collector));
    return names;
}

static aorta_json_t *side(double mean, double min, double max, double std, size_t trials)
{
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "mean_ms", aorta_json_double(mean));
    aorta_json_set(obj, "min_ms", aorta_json_double(min));
    aorta_json_set(obj, "max_ms", aorta_json_double(max));
    aorta_json_set(obj, "std_ms", aorta_json_double(std));
    aorta_json_set(obj, "trials", aorta_json_int((int64_t)trials));
    return obj;
}

static aorta_json_t *kernel_entry(const char *name, const aorta_kagg_kernel_t *a,
                                  const aorta_kagg_kernel_t *b)
{
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "name", aorta_json_string(name));
    char *display = aorta_kernel_display(name);
    aorta_json_set(obj, "display", aorta_json_string(display));
    free(display);
    double ma = a ? a->mean_ms : 0.0, mb = b ? b->mean_ms : 0.0;
    aorta_json_set(obj, "a_ms", a ? aorta_json_double(ma) : NULL);
    aorta_json_set(obj, "b_ms", b ? aorta_json_double(mb) : NULL);
    aorta_json_set(obj, "delta_ms", aorta_json_double(mb - ma));
    aorta_json_set(obj, "delta_pct",
                   a && b && ma > 0 ? aorta_json_double(100.0 * (mb - ma) / ma) : NULL);
    return obj;
}

typedef struct pick {
    const char *name;
    const aorta_kagg_kernel_t *a, *b;
    double key;
    size_t order;
} pick_t;

static int by_key(const void *left, const void *right)
{
    const pick_t *x = left, *y = right;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The top entries of picks by key into an array; total counts in *count. */
static aorta_json_t *top_of(pick_t *picks, size_t count)
{
    if (count > 1) /* qsort() takes no NULL array, even empty */
        qsort(picks, count, sizeof *picks, by_key);
    aorta_json_t *array = aorta_json_array();
    for (size_t i = 0; i < count && i < AORTA_COMPARE_KERNELS; i++)
        aorta_json_append(array, kernel_entry(picks[i].name, picks[i].a, picks[i].b));
    return array;
}

static void kernel_changes(aorta_json_t *entry, const aorta_kagg_table_t *a,
                           const aorta_kagg_table_t *b)
{
    pick_t *changed = aorta_xcalloc(a->count + b->count + 1, sizeof *changed);
    pick_t *added = aorta_xcalloc(b->count + 1, sizeof *added);
    pick_t *removed = aorta_xcalloc(a->count + 1, sizeof *removed);
    size_t nchanged = 0, nadded = 0, nremoved = 0;
    for (size_t k = 0; k < a->count; k++) {
        const aorta_kagg_kernel_t *ka = &a->kernels[k];
        const aorta_kagg_kernel_t *kb = aorta_kagg_kernel(b, ka->name);
        if (kb)
            changed[nchanged++] = (pick_t){ka->name, ka, kb, fabs(kb->mean_ms - ka->mean_ms), k};
        else
            removed[nremoved++] = (pick_t){ka->name, ka, NULL, ka->mean_ms, k};
    }
    for (size_t k = 0; k < b->count; k++) {
        const aorta_kagg_kernel_t *kb = &b->kernels[k];
        if (!aorta_kagg_kernel(a, kb->name))
            added[nadded++] = (pick_t){kb->name, NULL, kb, kb->mean_ms, k};
    }
    aorta_json_t *kernels = aorta_json_object();
    aorta_json_set(kernels, "changed", top_of(changed, nchanged));
    aorta_json_set(kernels, "added", top_of(added, nadded));
    aorta_json_set(kernels, "removed", top_of(removed, nremoved));
    aorta_json_set(kernels, "common_count", aorta_json_int((int64_t)nchanged));
    aorta_json_set(kernels, "added_count", aorta_json_int((int64_t)nadded));
    aorta_json_set(kernels, "removed_count", aorta_json_int((int64_t)nremoved));
    aorta_json_set(entry, "kernels", kernels);
    free(changed);
    free(added);
    free(removed);
}

/* delta, relative delta, noise and the threshold verdict of one entry. */
static int judge(aorta_json_t *entry, double ma, double range_a, double mb, double range_b,
                 double fail_above)
{
    double delta = mb - ma, noise = fmax(range_a, range_b);
    aorta_json_set(entry, "delta_ms", aorta_json_double(delta));
    aorta_json_set(entry, "delta_pct", ma > 0 ? aorta_json_double(100.0 * delta / ma) : NULL);
    aorta_json_set(entry, "noise_ms", aorta_json_double(noise));
    aorta_json_set(entry, "within_noise", aorta_json_bool(fabs(delta) <= noise));
    /* Growth from nothing is past any threshold. */
    int exceeded = fail_above >= 0 && delta > 0 && (ma <= 0 || 100.0 * delta / ma > fail_above);
    aorta_json_set(entry, "exceeds_threshold", aorta_json_bool(exceeded));
    return exceeded;
}

static const aorta_json_t *matrix_cell(const aorta_json_t *matrix, const char *name)
{
    const aorta_json_t *cells = aorta_json_get(matrix, "cells");
    for (size_t i = 0; i < aorta_json_length(cells); i++) {
        const char *other = aorta_json_get_string(aorta_json_get(aorta_json_at(cells, i), "name"));
        if (other && !strcmp(other, name))
            return aorta_json_at(cells, i);
    }
    return NULL;
}

static double number_at(const aorta_json_t *obj, const char *key, int *missing)
{
    const aorta_json_t *value = aorta_json_get(obj, key);
    if (!value) {
        *missing = 1;
        return 0;
    }
    return aorta_json_get_double(value);
}

/* Step time, for cells no common collector measured. */
static aorta_json_t *step_entry(const aorta_json_t *a, const aorta_json_t *b, double fail_above,
                                int *exceeded)
{
    int missing = 0;
    double ma = number_at(a, "mean_step_time_ms", &missing),
           mb = number_at(b, "mean_step_time_ms", &missing);
    double mina = number_at(a, "min_step_time_ms", &missing),
           maxa = number_at(a, "max_step_time_ms", &missing);
    double minb = number_at(b, "min_step_time_ms", &missing),
           maxb = number_at(b, "max_step_time_ms", &missing);
    double stda = number_at(a, "std_step_time_ms", &missing),
           stdb = number_at(b, "std_step_time_ms", &missing);
    if (missing)
        return NULL;
    aorta_json_t *entry = aorta_json_object();
    aorta_json_set(entry, "measure", aorta_json_string("step_time_ms"));
    aorta_json_set(entry, "collector", NULL);
    aorta_json_set(entry, "a", side(ma, mina, maxa, stda,
                                    (size_t)aorta_json_get_int(aorta_json_get(a, "trials"))));
    aorta_json_set(entry, "b", side(mb, minb, maxb, stdb,
                                    (size_t)aorta_json_get_int(aorta_json_get(b, "trials"))));
    *exceeded |= judge(entry, ma, maxa - mina, mb, maxb - minb, fail_above);
    return entry;
}

aorta_json_t *aorta_compare(const char *label_a, const aorta_json_t *matrix_a,
                            const aorta_kagg_run_t *kernels_a, const char *label_b,
                            const aorta_json_t *matrix_b, const aorta_kagg_run_t *kernels_b,
                            double fail_above)
{
    aorta_json_t *out = aorta_json_object();
    aorta_json_set(out, "schema_version", aorta_json_int(AORTA_COMPARE_SCHEMA));
    aorta_json_set(out, "run_a", aorta_json_string(label_a));
    aorta_json_set(out, "run_b", aorta_json_string(label_b));
    aorta_json_set(out, "fail_above_pct", fail_above >= 0 ? aorta_json_double(fail_above) : NULL);
    aorta_json_t *ca = collectors_of(kernels_a), *cb = collectors_of(kernels_b);
    aorta_json_t *common = names_array(), *only_a = names_array(), *only_b = names_array();
    for (size_t i = 0; i < aorta_json_length(ca); i++) {
        const char *name = aorta_json_get_string(aorta_json_at(ca, i));
        aorta_json_append(has_string(cb, name) ? common : only_a, aorta_json_string(name));
    }
    for (size_t i = 0; i < aorta_json_length(cb); i++) {
        const char *name = aorta_json_get_string(aorta_json_at(cb, i));
        if (!has_string(ca, name))
            aorta_json_append(only_b, aorta_json_string(name));
    }
    aorta_json_set(out, "collectors", common);
    aorta_json_set(out, "collectors_only_in_a", only_a);
    aorta_json_set(out, "collectors_only_in_b", only_b);
    aorta_json_t *added = names_array(), *removed = names_array(), *cells = aorta_json_array();
    aorta_json_t *exceeded_cells = names_array();
    for (size_t i = 0; i < kernels_a->count; i++)
        if (!aorta_kagg_cell(kernels_b, kernels_a->cells[i].name))
            aorta_json_append(removed, aorta_json_string(kernels_a->cells[i].name));
    for (size_t i = 0; i < kernels_b->count; i++) {
        const aorta_kagg_cell_t *b = &kernels_b->cells[i];
        const aorta_kagg_cell_t *a = aorta_kagg_cell(kernels_a, b->name);
        if (!a) {
            aorta_json_append(added, aorta_json_string(b->name));
            continue;
        }
        aorta_json_t *cell = aorta_json_object();
        aorta_json_set(cell, "name", aorta_json_string(b->name));
        aorta_json_t *measures = aorta_json_array();
        int exceeded = 0;
        for (size_t c = 0; c < aorta_json_length(common); c++) {
            const char *collector = aorta_json_get_string(aorta_json_at(common, c));
            const aorta_kagg_table_t *ta = aorta_kagg_table(a, collector);
            const aorta_kagg_table_t *tb = aorta_kagg_table(b, collector);
            if (!ta || !tb)
                continue;
            aorta_json_t *entry = aorta_json_object();
            aorta_json_set(entry, "measure", aorta_json_string("gpu_time_ms"));
            aorta_json_set(entry, "collector", aorta_json_string(collector));
            aorta_json_set(entry, "a", side(ta->gpu_mean_ms, ta->gpu_min, ta->gpu_max,
                                            ta->gpu_std_ms, ta->trials));
            aorta_json_set(entry, "b", side(tb->gpu_mean_ms, tb->gpu_min, tb->gpu_max,
                                            tb->gpu_std_ms, tb->trials));
            exceeded |= judge(entry, ta->gpu_mean_ms, ta->gpu_max - ta->gpu_min, tb->gpu_mean_ms,
                              tb->gpu_max - tb->gpu_min, fail_above);
            kernel_changes(entry, ta, tb);
            aorta_json_append(measures, entry);
        }
        if (aorta_json_length(measures) == 0) {
            aorta_json_t *entry = step_entry(matrix_cell(matrix_a, b->name),
                                             matrix_cell(matrix_b, b->name), fail_above,
                                             &exceeded);
            if (entry)
                aorta_json_append(measures, entry);
        }
        aorta_json_set(cell, "measures", measures);
        aorta_json_append(cells, cell);
        if (exceeded)
            aorta_json_append(exceeded_cells, aorta_json_string(b->name));
    }
    aorta_json_set(out, "cells_added", added);
    aorta_json_set(out, "cells_removed", removed);
    aorta_json_set(out, "cells", cells);
    aorta_json_set(out, "exceeded", exceeded_cells);
    aorta_json_free(ca);
    aorta_json_free(cb);
    return out;
}

static void print_list(FILE *out, const char *label, const aorta_json_t *names)
{
    if (aorta_json_length(names) == 0)
        return;
    fprintf(out, "%s:", label);
    for (size_t i = 0; i < aorta_json_length(names); i++)
        fprintf(out, "%s %s", i ? "," : "", aorta_json_get_string(aorta_json_at(names, i)));
    fputs("\n", out);
}

/* A relative change, or why there is none: from nothing, or to nothing. */
static void print_pct(FILE *out, const aorta_json_t *pct, int gone)
{
    if (pct)
        fprintf(out, "%+.1f%%", aorta_json_get_double(pct));
    else
        fputs(gone ? "removed" : "new", out);
}

static void print_kernels(FILE *out, const char *label, const aorta_json_t *list, int64_t total)
{
    if (aorta_json_length(list) == 0)
        return;
    fprintf(out, "    %s (%lld):\n", label, (long long)total);
    for (size_t i = 0; i < aorta_json_length(list); i++) {
        const aorta_json_t *k = aorta_json_at(list, i);
        const char *display = aorta_json_get_string(aorta_json_get(k, "display"));
        const char *raw = aorta_json_get_string(aorta_json_get(k, "name"));
        char *brief = aorta_kernel_short(display, AORTA_KERNEL_NAME_WIDTH);
        const aorta_json_t *a = aorta_json_get(k, "a_ms"), *b = aorta_json_get(k, "b_ms");
        fprintf(out, "      %-*s  ", (int)AORTA_KERNEL_NAME_WIDTH, brief);
        if (a)
            fprintf(out, "%10.3f", aorta_json_get_double(a));
        else
            fprintf(out, "%10s", "-");
        fputs(" -> ", out);
        if (b)
            fprintf(out, "%10.3f", aorta_json_get_double(b));
        else
            fprintf(out, "%10s", "-");
        fprintf(out, " ms  %+.3f ms  ", aorta_json_get_double(aorta_json_get(k, "delta_ms")));
        print_pct(out, aorta_json_get(k, "delta_pct"), b == NULL);
        if (strcmp(display, raw) != 0)
            fprintf(out, "  [%s]", raw);
        fputs("\n", out);
        free(brief);
    }
}

void aorta_compare_print(FILE *out, const aorta_json_t *cmp)
{
    fprintf(out, "Comparing %s -> %s\n", aorta_json_get_string(aorta_json_get(cmp, "run_a")),
            aorta_json_get_string(aorta_json_get(cmp, "run_b")));
    print_list(out, "Collectors only in A (left out)", aorta_json_get(cmp, "collectors_only_in_a"));
    print_list(out, "Collectors only in B (left out)", aorta_json_get(cmp, "collectors_only_in_b"));
    print_list(out, "Cells added (only in B)", aorta_json_get(cmp, "cells_added"));
    print_list(out, "Cells removed (only in A)", aorta_json_get(cmp, "cells_removed"));
    const aorta_json_t *cells = aorta_json_get(cmp, "cells");
    for (size_t i = 0; i < aorta_json_length(cells); i++) {
        const aorta_json_t *cell = aorta_json_at(cells, i);
        const aorta_json_t *measures = aorta_json_get(cell, "measures");
        fprintf(out, "\n%s\n", aorta_json_get_string(aorta_json_get(cell, "name")));
        if (aorta_json_length(measures) == 0)
            fputs("  nothing to compare (no common collector, no step time)\n", out);
        for (size_t m = 0; m < aorta_json_length(measures); m++) {
            const aorta_json_t *e = aorta_json_at(measures, m);
            const char *collector = aorta_json_get_string(aorta_json_get(e, "collector"));
            const aorta_json_t *a = aorta_json_get(e, "a"), *b = aorta_json_get(e, "b");
            fprintf(out, "  %s%s: %.3f ms -> %.3f ms  %+.3f ms  ",
                    collector ? collector : "step time", collector ? " GPU time" : "",
                    aorta_json_get_double(aorta_json_get(a, "mean_ms")),
                    aorta_json_get_double(aorta_json_get(b, "mean_ms")),
                    aorta_json_get_double(aorta_json_get(e, "delta_ms")));
            print_pct(out, aorta_json_get(e, "delta_pct"), 0);
            fprintf(out, "  (noise: trial range %.3f ms%s)%s\n",
                    aorta_json_get_double(aorta_json_get(e, "noise_ms")),
                    aorta_json_get_bool(aorta_json_get(e, "within_noise")) ? ", within it" : "",
                    aorta_json_get_bool(aorta_json_get(e, "exceeds_threshold"))
                        ? "  ABOVE THRESHOLD"
                        : "");
            const aorta_json_t *k = aorta_json_get(e, "kernels");
            if (!k)
                continue;
            print_kernels(out, "changed most", aorta_json_get(k, "changed"),
                          aorta_json_get_int(aorta_json_get(k, "common_count")));
            print_kernels(out, "added", aorta_json_get(k, "added"),
                          aorta_json_get_int(aorta_json_get(k, "added_count")));
            print_kernels(out, "removed", aorta_json_get(k, "removed"),
                          aorta_json_get_int(aorta_json_get(k, "removed_count")));
        }
    }
    const aorta_json_t *exceeded = aorta_json_get(cmp, "exceeded");
    if (aorta_json_get(cmp, "fail_above_pct")) {
        fprintf(out, "\n%zu cell(s) grew by more than %.3g%%", aorta_json_length(exceeded),
                aorta_json_get_double(aorta_json_get(cmp, "fail_above_pct")));
        print_list(out, "", exceeded);
        if (aorta_json_length(exceeded) == 0)
            fputs(".\n", out);
    }
}
