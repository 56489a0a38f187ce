/* SPDX-License-Identifier: MIT */
/* rank_view.h - one collector's ranks of one cell side by side
 * (docs/multi-rank.md, The rank view): each rank's GPU time, the slowest
 * rank and the imbalance, and per kernel its time on every rank and its
 * share of the imbalance, so that the first kernel answers "which kernel
 * makes that rank late".  Built from the cell's per-rank tables
 * (kernels/kernel_agg.h); perf.md, report.html and matrix.json show it. */
#ifndef AR_RANK_VIEW_H
#define AR_RANK_VIEW_H

#include <stddef.h>

#include "kernels/kernel_agg.h"
#include "sys/json.h"

/* Kernels a view keeps in matrix.json and report.html's heat table; perf.md
 * shows fewer. */
#define AR_RANK_VIEW_KERNELS 20
/* Kernels past those that matrix.json still lists for their launch
 * mismatch. */
#define AR_RANK_VIEW_FLAGGED 100

/* One kernel across the ranks. */
typedef struct ar_rank_kernel {
    const char *name;      /* raw, borrowed from a rank's table */
    double *ms;            /* mean per trial on each rank of the view (0: never ran there) */
    double *launches;      /* likewise; < 0 where a rank's collector did not know them */
    size_t slowest;        /* the position of the rank where it took longest */
    double mean_ms;        /* over the ranks */
    double spread_ms;      /* its longest minus its shortest time on a rank */
    double excess_ms;      /* its time on the slowest rank (of the job) minus mean_ms */
    double share;          /* excess_ms / the view's imbalance; 0 without imbalance */
    int mismatch;          /* its launches differ between ranks (all known) */
    size_t most, fewest;   /* then the positions of the ranks launching it most and least */
} ar_rank_kernel_t;

typedef struct ar_rank_view {
    const char *collector;
    size_t count;          /* ranks, in rank order */
    long *ranks;
    double *gpu_ms;        /* each rank's GPU time, mean over the trials that carried it */
    size_t *trials;        /* those trials */
    size_t slowest, fastest;
    double mean_ms;        /* of gpu_ms */
    double imbalance_ms;   /* gpu_ms[slowest] - mean_ms */
    double imbalance_pct;  /* of mean_ms; 0 when mean_ms is 0 */
    ar_rank_kernel_t *kernels;   /* by excess_ms, largest first; ties in first-seen order */
    size_t kernel_count;
    size_t mismatches;     /* kernels whose launches differ */
} ar_rank_view_t;

/* The view of a job's table (ar_kagg_table_t with ranks), or NULL when
 * it has fewer than two ranks. */
ar_rank_view_t *ar_rank_view_new(const ar_kagg_table_t *job);
void ar_rank_view_free(ar_rank_view_t *view);

/* "rank 1 launched 7, rank 0 launched 4" for a kernel with a mismatch
 * (free it). */
char *ar_rank_view_mismatch_text(const ar_rank_view_t *view, const ar_rank_kernel_t *k);
/* A launch count as shown: integral, else one decimal. */
char *ar_rank_view_count_text(double launches);

/* matrix.json's form of the view: {"ranks", "gpu_time_ms", "trials",
 * "mean_ms", "slowest_rank", "fastest_rank", "imbalance_ms",
 * "imbalance_pct", "launch_mismatches", "kernels": [{"name",
 * "share_pct", "excess_ms", "slowest_rank", "spread_ms", "mean_ms", "ms",
 * "launches", "launch_mismatch"}]} with the first AR_RANK_VIEW_KERNELS
 * kernels and up to AR_RANK_VIEW_FLAGGED more whose launches differ. */
ar_json_t *ar_rank_view_json(const ar_rank_view_t *view);

/* Every multi-rank collector's view of cell as {collector: view's JSON},
 * or NULL when it has none. */
ar_json_t *ar_rank_views_json(const ar_kagg_cell_t *cell);

#endif
