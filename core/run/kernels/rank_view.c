/* SPDX-License-Identifier: MIT */
/* rank_view.c - the ranks of one cell side by side (rank_view.h).
 *
 * The imbalance is the slowest rank's GPU time minus the ranks' mean.  It
 * splits exactly over the kernels: a rank's time is the sum of its
 * kernels' times, so the imbalance is the sum over kernels of (the
 * kernel's time on the slowest rank - its mean over the ranks).  That term
 * is a kernel's share: positive for what the slowest rank does more of,
 * negative for what it does less of, and the shares add up to the whole. */
#include "config.h"

#include "kernels/rank_view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keyindex.h"
#include "xalloc.h"

/* The kernels of every rank, each name once, in the order first met. */
typedef struct union_names {
    ar_keyindex_t index;
    ar_rank_kernel_t *kernels;
    size_t count, capacity;
    size_t ranks;
} union_names_t;

static ar_rank_kernel_t *kernel_slot(union_names_t *all, const char *name)
{
    size_t at = ar_keyindex_find(&all->index, name);
    if (at != AR_KEYINDEX_NONE)
        return &all->kernels[at];
    ar_xgrow((void **)&all->kernels, &all->capacity, all->count + 1, sizeof *all->kernels);
    ar_rank_kernel_t *kernel = &all->kernels[all->count];
    memset(kernel, 0, sizeof *kernel);
    kernel->name = name;
    kernel->ms = ar_xcalloc(all->ranks, sizeof *kernel->ms);
    kernel->launches = ar_xcalloc(all->ranks, sizeof *kernel->launches);
    ar_keyindex_add(&all->index, name, all->count);
    all->count++;
    return kernel;
}

/* Each rank's GPU time, the slowest and fastest, the mean, the imbalance. */
static void rank_totals(ar_rank_view_t *view, const ar_kagg_table_t *job)
{
    double sum = 0.0;
    for (size_t r = 0; r < view->count; r++) {
        const ar_kagg_table_t *rank = &job->ranks[r];
        view->ranks[r] = rank->rank;
        view->gpu_ms[r] = rank->gpu_mean_ms;
        view->trials[r] = rank->trials;
        sum += rank->gpu_mean_ms;
        if (rank->gpu_mean_ms > view->gpu_ms[view->slowest])
            view->slowest = r;
        if (rank->gpu_mean_ms < view->gpu_ms[view->fastest])
            view->fastest = r;
    }
    view->mean_ms = sum / (double)view->count;
    view->imbalance_ms = view->gpu_ms[view->slowest] - view->mean_ms;
    if (view->imbalance_ms < 0)
        view->imbalance_ms = 0; /* the mean's rounding, never a negative imbalance */
    view->imbalance_pct = view->mean_ms > 0 ? 100.0 * view->imbalance_ms / view->mean_ms : 0.0;
}

/* A kernel's figures over the ranks, once its per-rank times are in. */
static void kernel_figures(ar_rank_kernel_t *k, const ar_rank_view_t *view)
{
    double sum = 0.0, low = k->ms[0];
    int known = 1;
    for (size_t r = 0; r < view->count; r++) {
        sum += k->ms[r];
        if (k->ms[r] > k->ms[k->slowest])
            k->slowest = r;
        low = k->ms[r] < low ? k->ms[r] : low;
        known &= k->launches[r] >= 0;
        if (k->launches[r] > k->launches[k->most])
            k->most = r;
        if (k->launches[r] < k->launches[k->fewest])
            k->fewest = r;
    }
    k->mean_ms = sum / (double)view->count;
    k->spread_ms = k->ms[k->slowest] - low;
    k->excess_ms = k->ms[view->slowest] - k->mean_ms;
    k->share = view->imbalance_ms > 0 ? k->excess_ms / view->imbalance_ms : 0.0;
    /* Means over trials: a difference below a thousandth of a launch is
     * the division's, not the ranks'. */
    k->mismatch = known && k->launches[k->most] - k->launches[k->fewest] > 1e-3;
}

typedef struct by_excess_item {
    double excess;
    size_t index;
} by_excess_item_t;

static int by_excess(const void *left, const void *right)
{
    const by_excess_item_t *a = left, *b = right;
    if (a->excess != b->excess)
        return a->excess > b->excess ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static void order_kernels(ar_rank_view_t *view)
{
    size_t n = view->kernel_count;
    by_excess_item_t *items = ar_xcalloc(n ? n : 1, sizeof *items);
    for (size_t i = 0; i < n; i++)
        items[i] = (by_excess_item_t){view->kernels[i].excess_ms, i};
    qsort(items, n, sizeof *items, by_excess);
    ar_rank_kernel_t *sorted = ar_xcalloc(n ? n : 1, sizeof *sorted);
    for (size_t i = 0; i < n; i++)
        sorted[i] = view->kernels[items[i].index];
    free(view->kernels);
    view->kernels = sorted;
    free(items);
}

ar_rank_view_t *ar_rank_view_new(const ar_kagg_table_t *job)
{
    if (!job || job->rank_count < 2)
        return NULL;
    ar_rank_view_t *view = ar_xcalloc(1, sizeof *view);
    view->collector = job->collector;
    view->count = job->rank_count;
    view->ranks = ar_xcalloc(view->count, sizeof *view->ranks);
    view->gpu_ms = ar_xcalloc(view->count, sizeof *view->gpu_ms);
    view->trials = ar_xcalloc(view->count, sizeof *view->trials);
    rank_totals(view, job);
    union_names_t all = {.ranks = view->count};
    for (size_t r = 0; r < view->count; r++) {
        const ar_kagg_table_t *rank = &job->ranks[r];
        for (size_t i = 0; i < rank->count; i++) {
            const ar_kagg_kernel_t *kernel = &rank->kernels[i];
            ar_rank_kernel_t *k = kernel_slot(&all, kernel->name);
            k->ms[r] = kernel->mean_ms;
            k->launches[r] = kernel->mean_launches;
        }
    }
    ar_keyindex_clear(&all.index);
    view->kernels = all.kernels;
    view->kernel_count = all.count;
    for (size_t i = 0; i < view->kernel_count; i++) {
        kernel_figures(&view->kernels[i], view);
        view->mismatches += view->kernels[i].mismatch;
    }
    order_kernels(view);
    return view;
}

void ar_rank_view_free(ar_rank_view_t *view)
{
    if (!view)
        return;
    for (size_t i = 0; i < view->kernel_count; i++) {
        free(view->kernels[i].ms);
        free(view->kernels[i].launches);
    }
    free(view->kernels);
    free(view->ranks);
    free(view->gpu_ms);
    free(view->trials);
    free(view);
}

char *ar_rank_view_count_text(double launches)
{
    return launches == floor(launches) ? ar_xasprintf("%.0f", launches)
                                       : ar_xasprintf("%.1f", launches);
}

char *ar_rank_view_mismatch_text(const ar_rank_view_t *view, const ar_rank_kernel_t *k)
{
    char *most = ar_rank_view_count_text(k->launches[k->most]);
    char *fewest = ar_rank_view_count_text(k->launches[k->fewest]);
    char *text = ar_xasprintf("rank %ld launched %s, rank %ld launched %s",
                                 view->ranks[k->most], most, view->ranks[k->fewest], fewest);
    free(most);
    free(fewest);
    return text;
}

static ar_json_t *per_rank(const double *values, size_t count, int launches)
{
    ar_json_t *array = ar_json_array();
    for (size_t r = 0; r < count; r++)
        ar_json_append(array, launches && values[r] < 0 ? NULL : ar_json_micro(values[r]));
    return array;
}

static ar_json_t *kernel_json(const ar_rank_view_t *view, const ar_rank_kernel_t *k)
{
    ar_json_t *item = ar_json_object();
    ar_json_set(item, "name", ar_json_string(k->name));
    ar_json_set(item, "share_pct", ar_json_micro(100.0 * k->share));
    ar_json_set(item, "excess_ms", ar_json_micro(k->excess_ms));
    ar_json_set(item, "slowest_rank", ar_json_int(view->ranks[k->slowest]));
    ar_json_set(item, "spread_ms", ar_json_micro(k->spread_ms));
    ar_json_set(item, "mean_ms", ar_json_micro(k->mean_ms));
    ar_json_set(item, "ms", per_rank(k->ms, view->count, 0));
    ar_json_set(item, "launches", per_rank(k->launches, view->count, 1));
    char *mismatch = k->mismatch ? ar_rank_view_mismatch_text(view, k) : NULL;
    ar_json_set(item, "launch_mismatch", mismatch ? ar_json_string(mismatch) : NULL);
    free(mismatch);
    return item;
}

ar_json_t *ar_rank_view_json(const ar_rank_view_t *view)
{
    ar_json_t *obj = ar_json_object();
    ar_json_t *ranks = ar_json_array(), *trials = ar_json_array();
    for (size_t r = 0; r < view->count; r++) {
        ar_json_append(ranks, ar_json_int(view->ranks[r]));
        ar_json_append(trials, ar_json_int((int64_t)view->trials[r]));
    }
    ar_json_set(obj, "ranks", ranks);
    ar_json_set(obj, "gpu_time_ms", per_rank(view->gpu_ms, view->count, 0));
    ar_json_set(obj, "trials", trials);
    ar_json_set(obj, "mean_ms", ar_json_micro(view->mean_ms));
    ar_json_set(obj, "slowest_rank", ar_json_int(view->ranks[view->slowest]));
    ar_json_set(obj, "fastest_rank", ar_json_int(view->ranks[view->fastest]));
    ar_json_set(obj, "imbalance_ms", ar_json_micro(view->imbalance_ms));
    ar_json_set(obj, "imbalance_pct", ar_json_micro(view->imbalance_pct));
    ar_json_set(obj, "launch_mismatches", ar_json_int((int64_t)view->mismatches));
    /* The largest shares, then every other kernel whose launches differ
     * (up to a bound: a flag is worth its line). */
    ar_json_t *kernels = ar_json_array();
    size_t flagged = 0;
    for (size_t i = 0; i < view->kernel_count; i++) {
        int top = i < AR_RANK_VIEW_KERNELS;
        if (top || (view->kernels[i].mismatch && flagged < AR_RANK_VIEW_FLAGGED))
            ar_json_append(kernels, kernel_json(view, &view->kernels[i]));
        flagged += !top && view->kernels[i].mismatch;
    }
    ar_json_set(obj, "kernels", kernels);
    return obj;
}

ar_json_t *ar_rank_views_json(const ar_kagg_cell_t *cell)
{
    ar_json_t *views = NULL;
    for (size_t t = 0; t < cell->count; t++) {
        ar_rank_view_t *view = ar_rank_view_new(&cell->tables[t]);
        if (!view)
            continue;
        if (!views)
            views = ar_json_object();
        ar_json_set(views, view->collector, ar_rank_view_json(view));
        ar_rank_view_free(view);
    }
    return views;
}
