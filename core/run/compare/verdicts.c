/* SPDX-License-Identifier: MIT */
/* verdicts.c - a comparison's measures, their families and their one JSON
 * form (verdicts.h). */
#include "config.h"

#include "compare/verdicts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* text kept once in the set: the same as one of the last few kept (a
 * kernel's cell, collector, family), else a new copy. */
static const char *keep(ar_measures_t *set, const char *text)
{
    if (!text)
        return NULL;
    for (size_t i = set->string_count, seen = 0; i > 0 && seen < 8; i--, seen++)
        if (!strcmp(set->strings[i - 1], text))
            return set->strings[i - 1];
    ar_xgrow((void **)&set->strings, &set->string_capacity, set->string_count + 1,
                sizeof *set->strings);
    set->strings[set->string_count] = ar_xstrdup(text);
    return set->strings[set->string_count++];
}

size_t ar_measures_add(ar_measures_t *set, const char *cell, const char *measure,
                          const char *collector, const char *kernel, const char *family,
                          const double *a, size_t n_a, const double *b, size_t n_b,
                          ar_stats_better_t better, int gated)
{
    ar_xgrow((void **)&set->items, &set->capacity, set->count + 1, sizeof *set->items);
    ar_measure_t *m = &set->items[set->count];
    memset(m, 0, sizeof *m);
    m->cell = keep(set, cell);
    m->measure = keep(set, measure);
    m->collector = keep(set, collector);
    m->kernel = keep(set, kernel);
    m->rank = -1;
    m->family = keep(set, family);
    m->a = ar_xcalloc(n_a + n_b ? n_a + n_b : 1, sizeof *m->a);
    m->b = m->a + n_a;
    if (n_a)
        memcpy(m->a, a, n_a * sizeof *a);
    if (n_b)
        memcpy(m->b, b, n_b * sizeof *b);
    m->n_a = n_a;
    m->n_b = n_b;
    m->better = better;
    m->gated = gated;
    set->judged = 0;
    return set->count++;
}

/* A kernel's samples in a table: its per-trial values, or the table's
 * trials as zeros when it did not run there at all (NULL table: none). */
static const double *kernel_values(const ar_kagg_table_t *table, const ar_kagg_kernel_t *k,
                                   double *zeros, size_t *n)
{
    *n = table ? table->trials : 0;
    return k ? k->values : zeros;
}

void ar_measures_add_kernels(ar_measures_t *set, const char *cell,
                                const ar_kagg_table_t *ta, const ar_kagg_table_t *tb)
{
    char *family = ar_xasprintf("kernels:%s/%s", cell, ta->collector);
    size_t most = ta->trials > tb->trials ? ta->trials : tb->trials;
    double *zeros = ar_xcalloc(most ? most : 1, sizeof *zeros);
    for (size_t side = 0; side < 2; side++) {
        const ar_kagg_table_t *own = side ? tb : ta, *other = side ? ta : tb;
        for (size_t k = 0; k < own->count; k++) {
            const ar_kagg_kernel_t *kernel = &own->kernels[own->order[k]];
            const ar_kagg_kernel_t *twin = ar_kagg_kernel(other, kernel->name);
            if (side && twin)
                continue; /* counted from A's side */
            size_t n_own, n_other;
            const double *v_own = kernel_values(own, kernel, zeros, &n_own);
            const double *v_other = kernel_values(other, twin, zeros, &n_other);
            ar_measures_add(set, cell, "kernel_time_ms", ta->collector, kernel->name, family,
                               side ? v_other : v_own, side ? n_other : n_own,
                               side ? v_own : v_other, side ? n_own : n_other,
                               AR_STATS_BETTER_LOWER, 1);
        }
    }
    free(zeros);
    free(family);
}

static const ar_kagg_series_t *series_of(const ar_kagg_cell_t *cell, const char *name)
{
    return ar_kagg_metric(cell, name); /* indexed: n metrics cost n log n */
}

/* A collector's own GPU time metric is its table's total, already judged. */
static int is_table_total(const ar_kagg_cell_t *cell, const char *metric)
{
    for (size_t t = 0; t < cell->count; t++) {
        size_t len = strlen(cell->tables[t].collector);
        if (!strncmp(metric, cell->tables[t].collector, len)
            && !strcmp(metric + len, "_gpu_time_ms"))
            return 1;
    }
    return 0;
}

/* "<c>_gpu_time_ms": collector c's GPU time (the five metrics every
 * collector's kernel accumulator reports); its length of c, else 0. */
static size_t gpu_time_prefix(const char *metric)
{
    static const char suffix[] = "_gpu_time_ms";
    size_t len = strlen(metric), cut = sizeof suffix - 1;
    return len > cut && !strcmp(metric + len - cut, suffix) ? len - cut : 0;
}

/* The metrics both cells have: the collectors' GPU times without a kernel
 * table (headline), or every other one. */
/* A metric's direction as its collector declared it; gated when it has one. */
static ar_stats_better_t declared_better(const ar_json_t *declared, const char *metric,
                                            int *gated)
{
    const char *better = ar_json_get_string(ar_json_get(declared, metric));
    *gated = better && (!strcmp(better, "lower") || !strcmp(better, "higher"));
    return !*gated ? AR_STATS_BETTER_NONE
           : !strcmp(better, "lower") ? AR_STATS_BETTER_LOWER
                                      : AR_STATS_BETTER_HIGHER;
}

static void add_metrics(ar_measures_t *set, const ar_kagg_cell_t *a,
                        const ar_kagg_cell_t *b, int headline, const ar_json_t *declared)
{
    for (size_t i = 0; i < b->metric_count; i++) {
        const ar_kagg_series_t *sb = &b->metrics[i], *sa = series_of(a, sb->name);
        size_t prefix = gpu_time_prefix(sb->name);
        if (!sa || is_table_total(b, sb->name) || (prefix != 0) != headline)
            continue;
        if (prefix) {
            char *collector = ar_xstrndup(sb->name, prefix);
            ar_measures_add(set, b->name, "gpu_time_ms", collector, NULL,
                               AR_FAMILY_HEADLINE, sa->values, sa->count, sb->values,
                               sb->count, AR_STATS_BETTER_LOWER, 1);
            free(collector);
            continue;
        }
        char *family = ar_xasprintf("metric:%s", sb->name);
        int gated = 0;
        ar_stats_better_t better = declared_better(declared, sb->name, &gated);
        ar_measures_add(set, b->name, sb->name, NULL, NULL, family, sa->values, sa->count,
                           sb->values, sb->count, better, gated);
        free(family);
    }
}

void ar_measures_add_ranks(ar_measures_t *set, const char *cell,
                              const ar_kagg_table_t *ta, const ar_kagg_table_t *tb)
{
    if (!ta->rank_count || !tb->rank_count)
        return;
    char *family = ar_xasprintf("imbalance:%s/%s", cell, ta->collector);
    ar_measures_add(set, cell, "rank_imbalance_ms", ta->collector, NULL, family,
                       ta->imbalance_values, ta->imbalance_count, tb->imbalance_values,
                       tb->imbalance_count, AR_STATS_BETTER_LOWER, 0);
    free(family);
    family = ar_xasprintf("ranks:%s/%s", cell, ta->collector);
    for (size_t r = 0; r < ta->rank_count; r++) {
        const ar_kagg_table_t *ra = &ta->ranks[r];
        const ar_kagg_table_t *rb = ar_kagg_rank_table(tb, ra->rank);
        if (!rb)
            continue; /* a rank of one run only: nothing to pair it with */
        size_t at = ar_measures_add(set, cell, "rank_gpu_time_ms", ta->collector, NULL, family,
                                       ra->gpu_values, ra->trials, rb->gpu_values, rb->trials,
                                       AR_STATS_BETTER_LOWER, 0);
        set->items[at].rank = ra->rank;
    }
    free(family);
}

void ar_measures_add_cells(ar_measures_t *set, const ar_kagg_cell_t *a,
                              const ar_kagg_cell_t *b, const ar_verdict_request_t *request)
{
    for (size_t t = 0; t < a->count; t++) {
        const ar_kagg_table_t *ta = &a->tables[t], *tb = ar_kagg_table(b, ta->collector);
        /* A collector B lacks compares with nothing: an empty side. */
        ar_measures_add(set, b->name, "gpu_time_ms", ta->collector, NULL,
                           AR_FAMILY_HEADLINE, ta->gpu_values, ta->trials,
                           tb ? tb->gpu_values : NULL, tb ? tb->trials : 0,
                           AR_STATS_BETTER_LOWER, 1);
        if (request->kernels && tb)
            ar_measures_add_kernels(set, b->name, ta, tb);
        if (request->kernels && tb)
            ar_measures_add_ranks(set, b->name, ta, tb);
    }
    for (size_t t = 0; t < b->count; t++)
        if (!ar_kagg_table(a, b->tables[t].collector))
            ar_measures_add(set, b->name, "gpu_time_ms", b->tables[t].collector, NULL,
                               AR_FAMILY_HEADLINE, NULL, 0, b->tables[t].gpu_values,
                               b->tables[t].trials, AR_STATS_BETTER_LOWER, 1);
    add_metrics(set, a, b, 1, request->declared);
    ar_measures_add(set, b->name, "step_time_ms", NULL, NULL, AR_FAMILY_STEP,
                       a->step_ms.values, a->step_ms.count, b->step_ms.values, b->step_ms.count,
                       AR_STATS_BETTER_LOWER, request->gate_step_time);
    add_metrics(set, a, b, 0, request->declared);
}

static int by_family(const void *left, const void *right, void *user)
{
    const ar_measure_t *items = user;
    size_t x = *(const size_t *)left, y = *(const size_t *)right;
    int order = strcmp(items[x].family, items[y].family);
    return order ? order : (x > y) - (x < y);
}

/* Judge the measures order[from, to), one family. */
static int judge_family(ar_measures_t *set, const size_t *order, size_t from, size_t to,
                        const ar_stats_options_t *options, char **error)
{
    size_t count = to - from, bad = 0;
    ar_stats_measure_t *in = ar_xcalloc(count, sizeof *in);
    ar_stats_result_t *out = ar_xcalloc(count, sizeof *out);
    for (size_t i = 0; i < count; i++) {
        const ar_measure_t *m = &set->items[order[from + i]];
        in[i] = (ar_stats_measure_t){m->a, m->n_a, m->b, m->n_b, m->better, m->gated};
    }
    ar_stats_status_t status = ar_stats_judge(in, count, options, out, &bad);
    if (status == AR_STATS_OK)
        for (size_t i = 0; i < count; i++)
            set->items[order[from + i]].result = out[i];
    else if (bad < count)
        *error = ar_xasprintf("cannot judge %s of cell %s: %s",
                                 set->items[order[from + bad]].measure,
                                 set->items[order[from + bad]].cell,
                                 ar_stats_status_text(status));
    else
        *error = ar_xasprintf("cannot judge: %s", ar_stats_status_text(status));
    free(in);
    free(out);
    return status == AR_STATS_OK ? 0 : -1;
}

/* qsort_r is a GNU extension; the families are few, a stable insertion
 * sort by family would be quadratic in the kernels, so sort with a context
 * the portable way: a static-free merge of index runs. */
static void sort_by_family(size_t *order, size_t count, const ar_measure_t *items)
{
    size_t *tmp = ar_xcalloc(count ? count : 1, sizeof *tmp);
    for (size_t width = 1; width < count; width *= 2) {
        for (size_t lo = 0; lo < count; lo += 2 * width) {
            size_t mid = lo + width < count ? lo + width : count;
            size_t hi = lo + 2 * width < count ? lo + 2 * width : count;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = by_family(&order[j], &order[i], (void *)items) < 0 ? order[j++]
                                                                              : order[i++];
            while (i < mid)
                tmp[k++] = order[i++];
            while (j < hi)
                tmp[k++] = order[j++];
        }
        memcpy(order, tmp, count * sizeof *order);
    }
    free(tmp);
}

int ar_measures_judge(ar_measures_t *set, const ar_stats_options_t *options,
                         char **error)
{
    size_t *order = ar_xcalloc(set->count ? set->count : 1, sizeof *order);
    for (size_t i = 0; i < set->count; i++)
        order[i] = i;
    sort_by_family(order, set->count, set->items);
    int status = 0;
    for (size_t from = 0; from < set->count && status == 0;) {
        size_t to = from + 1;
        while (to < set->count
               && !strcmp(set->items[order[to]].family, set->items[order[from]].family))
            to++;
        status = judge_family(set, order, from, to, options, error);
        from = to;
    }
    free(order);
    set->judged = status == 0;
    return status;
}

/* A number, or null where it is not one (an empty side, an open interval). */
static ar_json_t *number(double value)
{
    return isfinite(value) ? ar_json_double(value) : NULL;
}

/* The mean at the precision its data has: 6.1 for three trials of 6.1,
 * 1.23 for 1.1, 1.2 and 1.4 (ar_stats_format_mean()). */
static double mean_of(const double *x, size_t n)
{
    if (!n)
        return NAN;
    double mean = ar_stats_mean(x, n);
    char text[64];
    return ar_stats_format_mean(text, sizeof text, mean, x, n) > 0 ? strtod(text, NULL) : mean;
}

ar_json_t *ar_measure_json(const ar_measure_t *m)
{
    const ar_stats_result_t *r = &m->result;
    ar_json_t *obj = ar_json_object();
    ar_json_set_literal(obj, "measure", ar_json_string(m->measure));
    ar_json_set_literal(obj, "collector", m->collector ? ar_json_string(m->collector) : NULL);
    if (m->kernel)
        ar_json_set_literal(obj, "kernel", ar_json_string(m->kernel));
    if (m->rank >= 0)
        ar_json_set_literal(obj, "rank", ar_json_int(m->rank));
    double mean_a = mean_of(m->a, m->n_a), mean_b = mean_of(m->b, m->n_b);
    ar_json_set_literal(obj, "n_a", ar_json_int((int64_t)m->n_a));
    ar_json_set_literal(obj, "n_b", ar_json_int((int64_t)m->n_b));
    ar_json_set_literal(obj, "mean_a", number(mean_a));
    ar_json_set_literal(obj, "mean_b", number(mean_b));
    ar_json_set_literal(obj, "delta", number(mean_b - mean_a));
    ar_json_set_literal(obj, "p_value", number(r->p_value));
    ar_json_set_literal(obj, "p_raw", number(r->p_raw));
    ar_json_set_literal(obj, "effect_pct", number(r->effect_pct));
    ar_json_set_literal(obj, "ci_low_pct", number(r->ci_low_pct));
    ar_json_set_literal(obj, "ci_high_pct", number(r->ci_high_pct));
    ar_json_set_literal(obj, "verdict", ar_json_string(ar_verdict_name(r->verdict)));
    ar_json_set_literal(obj, "gated", ar_json_bool(m->gated));
    ar_json_set_literal(obj, "trials_needed",
                   r->trials_needed ? ar_json_int((int64_t)r->trials_needed) : NULL);
    return obj;
}

/* A percentage for people: "+12.3%", "-inf" spelled as such. */
static void pct_text(char *out, size_t size, double value)
{
    if (isnan(value))
        snprintf(out, size, "?");
    else if (isinf(value))
        snprintf(out, size, "%s", value > 0 ? "+inf" : "-inf");
    else
        snprintf(out, size, "%+.1f%%", value);
}

static double member(const ar_json_t *obj, const char *key, double absent)
{
    const ar_json_t *value = ar_json_get(obj, key);
    return value ? ar_json_get_double(value) : absent;
}

char *ar_measure_effect_text(const ar_json_t *m)
{
    if (!ar_json_get(m, "effect_pct"))
        return ar_xstrdup("?");
    char effect[32], low[32], high[32];
    pct_text(effect, sizeof effect, member(m, "effect_pct", NAN));
    /* An interval the sizes cannot close is open: null in the JSON. */
    pct_text(low, sizeof low, member(m, "ci_low_pct", -INFINITY));
    pct_text(high, sizeof high, member(m, "ci_high_pct", INFINITY));
    return ar_xasprintf("%s [%s, %s]", effect, low, high);
}

char *ar_measure_p_text(const ar_json_t *m)
{
    return ar_json_get(m, "p_value") ? ar_xasprintf("%.2g", member(m, "p_value", NAN))
                                        : ar_xstrdup("?");
}

char *ar_measure_text(const ar_measure_t *measure)
{
    ar_json_t *json = ar_measure_json(measure);
    const char *verdict = ar_json_get_string(ar_json_get(json, "verdict"));
    char *effect = ar_measure_effect_text(json), *p = ar_measure_p_text(json);
    char *text = ar_json_get(json, "effect_pct")
                     ? ar_xasprintf("%s %s p=%s", verdict, effect, p)
                     : ar_xasprintf("%s (n=%zu vs %zu)", verdict, measure->n_a, measure->n_b);
    free(effect);
    free(p);
    ar_json_free(json);
    return text;
}

void ar_measures_clear(ar_measures_t *set)
{
    for (size_t i = 0; i < set->count; i++)
        free(set->items[i].a); /* b is in the same block */
    for (size_t i = 0; i < set->string_count; i++)
        free(set->strings[i]);
    free(set->strings);
    free(set->items);
    memset(set, 0, sizeof *set);
}
