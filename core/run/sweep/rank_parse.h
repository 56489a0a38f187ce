/* SPDX-License-Identifier: MIT */
/* rank_parse.h - the per-rank metrics of a launcher run (docs/design.md,
 * Multi-rank runs): each rank<k>/ of a collector's directory parsed in its
 * own parse child, concurrently, then merged into four keys; each rank's
 * kernel table kept for the rank view (docs/multi-rank.md). */
#ifndef AR_RANK_PARSE_H
#define AR_RANK_PARSE_H

#include <stddef.h>

#include "aorta/collector.h"
#include "registry/registry.h"

/* What one rank's parse gave. */
typedef struct ar_rank_result {
    long rank;
    int has_data;     /* its parse reported <c>_gpu_time_ms */
    double gpu_ms;    /* that value, else 0 (a rank that wrote nothing) */
    aorta_metrics_t *metrics;  /* its whole reply (metrics, kernel table), or NULL
                                * when its parse gave nothing usable */
} ar_rank_result_t;

/* A collector's ranks of one trial, in rank order, for the trial's kernel
 * file (each rank's table) and the timeline. */
typedef struct ar_rank_set {
    ar_rank_result_t *results;
    size_t count;
} ar_rank_set_t;

/* Frees the results' metrics and the array; the set is empty after. */
void ar_rank_set_clear(ar_rank_set_t *set);

/* Parse children at once: AORTA_PARSE_JOBS, else the CPUs online (at
 * least 1). */
size_t ar_parse_jobs(void);

/* The rank<k> directories (k a decimal without leading zeros) directly in
 * the directory open at dir_fd, never through a symlink, sorted by k.
 * Returns the count; *ranks (free it) holds the k. */
size_t ar_rank_dirs(int dir_fd, long **ranks);

/* Parse dir/rank<k> for each of the count ranks, at most jobs at a time
 * (0: ar_parse_jobs()), each in a child of its own bounded by
 * AORTA_PARSE_TIMEOUT (a crash, a hang or a garbled reply: one warning, and
 * that rank counts as without data); fills results[i] for ranks[i] whatever
 * order the children finish in (free their metrics: ar_rank_set_clear()
 * on a set of them).  Stops early on a pending SIGINT/SIGTERM,
 * which stays pending for the caller. */
void ar_rank_parse_all(const ar_module_t *plugin, const aorta_options_t *options,
                          const char *dir, const long *ranks, size_t count, size_t jobs,
                          ar_rank_result_t *results);

/* The four keys for collector name into metrics: <c>_rank_count (count),
 * <c>_ranks_with_data, <c>_gpu_time_ms_rank_min and _max (a rank without
 * data counts as 0 ms; both omitted when count is 0).  Independent of the
 * order of results. */
void ar_rank_merge(const char *name, const ar_rank_result_t *results, size_t count,
                      aorta_metrics_t *metrics);

/* All of it for one collector directory (dir, open at dir_fd): nothing
 * when it holds no rank<k>/.  With chosen ranks (listed, sorted, and
 * listed_count > 0; NULL and 0 for every rank): only their rank<k>/ count,
 * and <c>_ranks_profiled is the list as text ("0, 3-7, 9").  ranks (may be
 * NULL) receives the per-rank results, each rank's kernel table included. */
void ar_rank_metrics(const ar_module_t *plugin, const aorta_options_t *options,
                        int dir_fd, const char *dir, const long *listed, size_t listed_count,
                        aorta_metrics_t *metrics, ar_rank_set_t *ranks);

#endif
