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
    m->family = keep(set, gated ? AR_FAMILY_GATE : family);
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

/* A kernel's share of its table's mean GPU time, in percent (0 without one). */
static double share_pct(const ar_kagg_table_t *table, const ar_kagg_kernel_t *k)
{
    return k && table->gpu_mean_ms > 0.0 ? 100.0 * k->mean_ms / table->gpu_mean_ms : 0.0;
}

/* One kernel of either side, with what decides whether it is shown. */
typedef struct kernel_pick {
    const ar_kagg_kernel_t *a, *b; /* its entry on each side, NULL where absent */
    int gated;
    double change;                 /* |mean B - mean A|, ms: the ungated ones' order */
} kernel_pick_t;

static int by_change(const void *left, const void *right)
{
    const kernel_pick_t *x = left, *y = right;
    return (x->change < y->change) - (x->change > y->change);
}

/* Every kernel of both tables, A's order first, then B's own. */
static kernel_pick_t *pick_kernels(const ar_kagg_table_t *ta, const ar_kagg_table_t *tb,
                                   double gate_pct, size_t *count)
{
    kernel_pick_t *picks = ar_xcalloc(ta->count + tb->count + 1, sizeof *picks);
    *count = 0;
    for (size_t side = 0; side < 2; side++) {
        const ar_kagg_table_t *own = side ? tb : ta, *other = side ? ta : tb;
        for (size_t k = 0; k < own->count; k++) {
            const ar_kagg_kernel_t *kernel = &own->kernels[own->order[k]];
            const ar_kagg_kernel_t *twin = ar_kagg_kernel(other, kernel->name);
            if (side && twin)
                continue; /* counted from A's side */
            kernel_pick_t *pick = &picks[(*count)++];
            pick->a = side ? twin : kernel;
            pick->b = side ? kernel : twin;
            pick->gated = pick->a && pick->b
                          && (share_pct(ta, pick->a) >= gate_pct
                              || share_pct(tb, pick->b) >= gate_pct);
            pick->change = fabs((pick->b ? pick->b->mean_ms : 0.0)
                                - (pick->a ? pick->a->mean_ms : 0.0));
        }
    }
    return picks;
}

/* The ungated kernels past the bound, smallest changes first, dropped. */
static size_t bound_kernels(kernel_pick_t *picks, size_t count, size_t shown,
                            size_t *omitted)
{
    /* The gated ones first, each group in its order (one pass each). */
    kernel_pick_t *sorted = ar_xcalloc(count ? count : 1, sizeof *sorted);
    size_t gated = 0, at = 0;
    for (size_t i = 0; i < count; i++)
        gated += picks[i].gated;
    for (size_t i = 0, rest = gated; i < count; i++)
        sorted[picks[i].gated ? at++ : rest++] = picks[i];
    memcpy(picks, sorted, count * sizeof *picks);
    free(sorted);
    if (!shown || count - gated <= shown)
        return count;
    qsort(picks + gated, count - gated, sizeof *picks, by_change);
    *omitted += count - gated - shown;
    return gated + shown;
}

void ar_measures_add_kernels(ar_measures_t *set, const char *cell,
                                const ar_kagg_table_t *ta, const ar_kagg_table_t *tb,
                                const ar_verdict_request_t *request)
{
    char *family = ar_xasprintf("kernels:%s/%s", cell, ta->collector);
    size_t count;
    kernel_pick_t *picks = pick_kernels(ta, tb, request->gate_kernels_pct, &count);
    count = bound_kernels(picks, count, request->kernels_shown, &set->kernels_omitted);
    for (size_t i = 0; i < count; i++) {
        const kernel_pick_t *pick = &picks[i];
        const ar_kagg_kernel_t *named = pick->a ? pick->a : pick->b;
        size_t at = ar_measures_add(set, cell, "kernel_time_ms", ta->collector, named->name,
                                    family, pick->a ? pick->a->values : NULL,
                                    pick->a ? ta->trials : 0, pick->b ? pick->b->values : NULL,
                                    pick->b ? tb->trials : 0, AR_STATS_BETTER_LOWER,
                                    pick->gated);
        set->items[at].presence = !pick->b ? AR_ONLY_A : !pick->a ? AR_ONLY_B : AR_PRESENT;
    }
    free(picks);
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

/* A headline GPU time as a metric (a collector without kernel tables) that
 * one side lacks: no data there. */
static void add_gpu_metric(ar_measures_t *set, const char *cell, const char *name,
                           size_t prefix, const ar_kagg_series_t *sa,
                           const ar_kagg_series_t *sb)
{
    char *collector = ar_xstrndup(name, prefix);
    size_t at = ar_measures_add(set, cell, "gpu_time_ms", collector, NULL, AR_FAMILY_GATE,
                                sa ? sa->values : NULL, sa ? sa->count : 0,
                                sb ? sb->values : NULL, sb ? sb->count : 0,
                                AR_STATS_BETTER_LOWER, 1);
    set->items[at].headline = 1;
    set->items[at].presence = !sa ? AR_NO_DATA_A : !sb ? AR_NO_DATA_B : AR_PRESENT;
    free(collector);
}

static void add_metrics(ar_measures_t *set, const ar_kagg_cell_t *a,
                        const ar_kagg_cell_t *b, int headline, const ar_json_t *declared)
{
    for (size_t side = 0; side < 2; side++) {
        const ar_kagg_cell_t *own = side ? a : b, *other = side ? b : a;
        for (size_t i = 0; i < own->metric_count; i++) {
            const ar_kagg_series_t *so = &own->metrics[i], *st = series_of(other, so->name);
            size_t prefix = gpu_time_prefix(so->name);
            if ((side && st) || is_table_total(own, so->name) || is_table_total(other, so->name)
                || (prefix != 0) != headline)
                continue;
            if (prefix) { /* a GPU time one side lacks is no data there */
                add_gpu_metric(set, b->name, so->name, prefix, side ? so : st, side ? st : so);
                continue;
            }
            if (!st)
                continue; /* another metric of one side only: nothing to compare */
            char *family = ar_xasprintf("metric:%s", so->name);
            int gated = 0;
            ar_stats_better_t better = declared_better(declared, so->name, &gated);
            size_t at = ar_measures_add(set, b->name, so->name, NULL, NULL, family, st->values,
                                        st->count, so->values, so->count, better, gated);
            set->items[at].headline = gated;
            free(family);
        }
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

/* A collector's GPU time from its tables; a side whose table holds no
 * kernel at all captured nothing: no data there. */
static void add_gpu_time(ar_measures_t *set, const char *cell, const char *collector,
                         const ar_kagg_table_t *ta, const ar_kagg_table_t *tb)
{
    int none_a = ta && !ta->count, none_b = tb && !tb->count;
    ar_presence_t presence = none_a && none_b ? AR_NO_DATA_BOTH
                             : none_a          ? AR_NO_DATA_A
                             : none_b          ? AR_NO_DATA_B
                                               : AR_PRESENT;
    /* A collector one side lacks, or a side without data, compares with
     * nothing: an empty side, which no test and no family takes. */
    int use_a = ta && !none_a, use_b = tb && !none_b;
    size_t at = ar_measures_add(set, cell, "gpu_time_ms", collector, NULL, AR_FAMILY_GATE,
                                use_a ? ta->gpu_values : NULL, use_a ? ta->trials : 0,
                                use_b ? tb->gpu_values : NULL, use_b ? tb->trials : 0,
                                AR_STATS_BETTER_LOWER, 1);
    set->items[at].headline = 1;
    set->items[at].presence = presence;
}

void ar_measures_add_cells(ar_measures_t *set, const ar_kagg_cell_t *a,
                              const ar_kagg_cell_t *b, const ar_verdict_request_t *request)
{
    for (size_t t = 0; t < a->count; t++) {
        const ar_kagg_table_t *ta = &a->tables[t], *tb = ar_kagg_table(b, ta->collector);
        add_gpu_time(set, b->name, ta->collector, ta, tb);
        if (request->kernels && tb)
            ar_measures_add_kernels(set, b->name, ta, tb, request);
        if (request->kernels && tb)
            ar_measures_add_ranks(set, b->name, ta, tb);
    }
    for (size_t t = 0; t < b->count; t++)
        if (!ar_kagg_table(a, b->tables[t].collector))
            add_gpu_time(set, b->name, b->tables[t].collector, NULL, &b->tables[t]);
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
    for (size_t i = 0; status == 0 && i < set->count; i++) {
        ar_measure_t *m = &set->items[i];
        static const ar_verdict_t untested[] = {
            [AR_ONLY_A] = AR_VERDICT_REMOVED,   [AR_ONLY_B] = AR_VERDICT_ADDED,
            [AR_NO_DATA_A] = AR_VERDICT_NO_DATA, [AR_NO_DATA_B] = AR_VERDICT_NO_DATA,
            [AR_NO_DATA_BOTH] = AR_VERDICT_NO_DATA};
        if (m->presence != AR_PRESENT) {
            m->result.verdict = untested[m->presence];
            m->result.trials_needed = 0;
        }
    }
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
    ar_json_set_literal(obj, "headline", ar_json_bool(m->headline));
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

char *ar_measure_text(const ar_measure_t *measure, double threshold_pct)
{
    ar_json_t *json = ar_measure_json(measure);
    const char *verdict = ar_json_get_string(ar_json_get(json, "verdict"));
    char *effect = ar_measure_effect_text(json), *p = ar_measure_p_text(json);
    const ar_stats_result_t *r = &measure->result;
    /* A real change inside delta: unchanged, and how much it moved. */
    int within = r->verdict == AR_VERDICT_UNCHANGED && r->significant;
    char *text = !ar_json_get(json, "effect_pct")
                     ? ar_xasprintf("%s (n=%zu vs %zu)", verdict, measure->n_a, measure->n_b)
                 : within ? ar_xasprintf("%s %s p=%s, within %g%%", verdict, effect, p,
                                         threshold_pct)
                          : ar_xasprintf("%s %s p=%s", verdict, effect, p);
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
