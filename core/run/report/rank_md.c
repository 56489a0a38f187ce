/* SPDX-License-Identifier: MIT */
/* rank_md.c - perf.md's rank view of one cell and collector
 * (kernels/rank_view.h): one sentence with the slowest rank, the imbalance
 * and the kernel that makes it, the ranks' GPU times, the kernels by their
 * share of the imbalance, and the kernels whose launches differ. */
#include "config.h"

#include "report/rank_md.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/matrix.h"
#include "report/md_table.h"
#include "kernels/rank_view.h"
#include "sys/text_escape.h"
#include "xalloc.h"

/* The ranks' table: every rank up to this many, else the slowest and the
 * fastest few. */
#define ALL_RANKS_UP_TO 16
#define SLOWEST_SHOWN 8
#define FASTEST_SHOWN 4

static void rank_row(ar_md_table_t *md, const ar_rank_view_t *view, size_t r)
{
    ar_md_table_add(md, ar_xasprintf("%ld%s", view->ranks[r],
                                           r == view->slowest ? " (slowest)" : ""));
    ar_md_table_add(md, ar_xasprintf("%.3f", view->gpu_ms[r]));
    ar_md_table_add(md, view->mean_ms > 0
                               ? ar_xasprintf("%+.1f%%", 100.0 * (view->gpu_ms[r] - view->mean_ms)
                                                                / view->mean_ms)
                               : ar_xstrdup(AR_EM_DASH));
    ar_md_table_add(md, ar_xasprintf("%zu", view->trials[r]));
}

static int by_time(const void *left, const void *right, void *user)
{
    const double *gpu = user;
    size_t a = *(const size_t *)left, b = *(const size_t *)right;
    if (gpu[a] != gpu[b])
        return gpu[a] > gpu[b] ? -1 : 1;
    return (a > b) - (a < b);
}

static void ranks_table(FILE *out, const ar_rank_view_t *view)
{
    ar_md_table_t md = {.columns = 4};
    static const char *const headers[] = {"Rank", "GPU time (ms)", "vs mean", "Trials"};
    for (size_t i = 0; i < 4; i++)
        ar_md_table_add(&md, ar_xstrdup(headers[i]));
    if (view->count <= ALL_RANKS_UP_TO) {
        for (size_t r = 0; r < view->count; r++)
            rank_row(&md, view, r);
        ar_md_table_render(out, &md);
        return;
    }
    size_t *order = ar_xcalloc(view->count, sizeof *order);
    for (size_t r = 0; r < view->count; r++)
        order[r] = r;
    qsort_r(order, view->count, sizeof *order, by_time, view->gpu_ms);
    for (size_t i = 0; i < SLOWEST_SHOWN; i++)
        rank_row(&md, view, order[i]);
    ar_md_table_add(&md, ar_xasprintf("(%zu more)", view->count - SLOWEST_SHOWN
                                                              - FASTEST_SHOWN));
    for (size_t i = 0; i < 3; i++)
        ar_md_table_add(&md, ar_xstrdup(""));
    for (size_t i = view->count - FASTEST_SHOWN; i < view->count; i++)
        rank_row(&md, view, order[i]);
    free(order);
    ar_md_table_render(out, &md);
}

static char *launch_range(const ar_rank_kernel_t *k)
{
    if (k->launches[k->fewest] < 0 || k->launches[k->most] < 0)
        return ar_xstrdup(AR_EM_DASH);
    char *low = ar_rank_view_count_text(k->launches[k->fewest]);
    char *high = ar_rank_view_count_text(k->launches[k->most]);
    char *text = k->mismatch ? ar_xasprintf("%s\xe2\x80\x93%s (differ)", low, high)
                             : ar_xstrdup(low);
    free(low);
    free(high);
    return text;
}

static void kernels_table(FILE *out, const ar_rank_view_t *view, ar_kernel_names_t *names)
{
    static const char *const headers[] = {"#", "Kernel", "Share of imbalance", "Slowest rank",
                                          "Its ms", "Mean ms over ranks", "Spread ms",
                                          "Launches"};
    ar_md_table_t md = {.columns = 8};
    for (size_t i = 0; i < 8; i++)
        ar_md_table_add(&md, ar_xstrdup(headers[i]));
    size_t shown = view->kernel_count < AR_RANK_MD_TOP ? view->kernel_count
                                                          : AR_RANK_MD_TOP;
    for (size_t i = 0; i < shown; i++) {
        const ar_rank_kernel_t *k = &view->kernels[i];
        ar_md_table_add(&md, ar_xasprintf("%zu", i + 1));
        ar_md_table_add(&md, ar_md_escape(ar_kernel_names_get(names, k->name)->brief));
        ar_md_table_add(&md, view->imbalance_ms > 0 ? ar_xasprintf("%.1f%%", 100.0 * k->share)
                                                       : ar_xstrdup(AR_EM_DASH));
        ar_md_table_add(&md, ar_xasprintf("%ld", view->ranks[k->slowest]));
        ar_md_table_add(&md, ar_xasprintf("%.3f", k->ms[k->slowest]));
        ar_md_table_add(&md, ar_xasprintf("%.3f", k->mean_ms));
        ar_md_table_add(&md, ar_xasprintf("%.3f", k->spread_ms));
        ar_md_table_add(&md, launch_range(k));
    }
    ar_md_table_render(out, &md);
}

static void mismatches(FILE *out, const ar_rank_view_t *view, ar_kernel_names_t *names)
{
    if (!view->mismatches)
        return;
    fprintf(out, "\nLaunch counts differ between ranks for %zu kernel(s):\n\n", view->mismatches);
    size_t listed = 0;
    for (size_t i = 0; i < view->kernel_count && listed < AR_RANK_MD_TOP; i++) {
        const ar_rank_kernel_t *k = &view->kernels[i];
        if (!k->mismatch)
            continue;
        char *text = ar_rank_view_mismatch_text(view, k);
        fputs("- ", out);
        ar_md_code_put(out, ar_kernel_names_get(names, k->name)->brief);
        fprintf(out, ": %s\n", text);
        free(text);
        listed++;
    }
    if (listed < view->mismatches)
        fprintf(out, "- and %zu more (`matrix.json`)\n", view->mismatches - listed);
}

static void headline(FILE *out, const ar_rank_view_t *view, ar_kernel_names_t *names)
{
    fprintf(out, "Slowest rank **%ld**: %.3f ms of GPU time against a mean of %.3f ms over "
                 "%zu ranks (fastest: rank %ld, %.3f ms); imbalance %.3f ms (%.1f%%).",
            view->ranks[view->slowest], view->gpu_ms[view->slowest], view->mean_ms, view->count,
            view->ranks[view->fastest], view->gpu_ms[view->fastest], view->imbalance_ms,
            view->imbalance_pct);
    if (view->imbalance_ms > 0 && view->kernel_count && view->kernels[0].excess_ms > 0) {
        const ar_rank_kernel_t *top = &view->kernels[0];
        fputs(" Most of it: ", out);
        ar_md_code_put(out, ar_kernel_names_get(names, top->name)->brief);
        fprintf(out, " (%.1f%% of the imbalance: %.3f ms on rank %ld against a mean of %.3f ms).",
                100.0 * top->share, top->ms[view->slowest], view->ranks[view->slowest],
                top->mean_ms);
    }
    fputs("\n\n", out);
}

void ar_rank_md(FILE *out, const ar_kagg_cell_t *cell, const ar_kagg_table_t *table,
                   ar_kernel_names_t *names)
{
    ar_rank_view_t *view = ar_rank_view_new(table);
    if (!view)
        return;
    fputs("#### Ranks of ", out);
    ar_md_put(out, cell->name);
    fputs(" \xe2\x80\x94 ", out);
    ar_md_put(out, table->collector);
    fputs("\n\n", out);
    headline(out, view, names);
    ranks_table(out, view);
    fputs("\n", out);
    kernels_table(out, view, names);
    mismatches(out, view, names);
    fputs("\n", out);
    ar_rank_view_free(view);
}
