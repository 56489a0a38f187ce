/* SPDX-License-Identifier: MIT */
/* kernel_agg.h - a run's kernel tables aggregated per cell over its passing
 * trials, read back from the trial records alone (trial JSON for the
 * verdict, .kernels.json for the table), so a sweep, --report and --compare
 * all see the same numbers.  The cell's table is <cell>/kernels.json. */
#ifndef AR_KERNEL_AGG_H
#define AR_KERNEL_AGG_H

#include <stddef.h>
#include <stdint.h>

#include "keyindex.h"
#include "sys/json.h"

#define AR_CELL_KERNELS_SCHEMA 1

typedef struct ar_kagg_kernel {
    char *name;            /* raw, as the collector reported it */
    size_t name_len;
    uint64_t hash;
    size_t first_seen;     /* position in the cell's first-seen order */
    size_t stamp;          /* 1 + the table's trial that last counted it */
    size_t trials;         /* trials it appeared in */
    double sum_ms, min_ms, max_ms;  /* min counts 0 for a trial it missed */
    double mean_ms;        /* sum over the table's trials (absent = 0) */
    double launches_sum;
    int launches_unknown;  /* some trial did not know its launches */
    double mean_launches;  /* per trial; < 0 when unknown */
    double *values;        /* its time in each of the table's trials (0: absent), the
                            * samples its verdict is judged on; table->trials of them
                            * once finished */
    size_t values_len;
} ar_kagg_kernel_t;

/* One collector's kernels in one cell: of the whole job, or of one rank. */
typedef struct ar_kagg_table {
    char *collector;
    long rank;             /* a rank's table: its rank; the job's table: -1 */
    size_t trials;         /* passing trials that carried this table */
    double gpu_sum, gpu_min, gpu_max;
    double gpu_mean_ms, gpu_std_ms;  /* population stddev of per-trial totals */
    double *gpu_values;    /* the per-trial totals, in trial order (trials of them) */
    ar_kagg_kernel_t *kernels;    /* first-seen order */
    size_t count, capacity;
    size_t *order;         /* by mean_ms, largest first; ties in first-seen order */
    uint32_t *slots;       /* open addressing over kernels: index + 1, 0 = empty */
    size_t slot_count;     /* a power of two, or 0 */
    /* A multi-rank collector's tables per rank (the job's table only),
     * sorted by rank once finished; a rank's trials are those that carried
     * its table. */
    struct ar_kagg_table *ranks;
    size_t rank_count, rank_capacity;
    size_t stamp;          /* a rank's table: 1 + the job's trial that last counted it */
    /* Per trial that carried ranks: its slowest rank's total minus the
     * ranks' mean total (ms), the samples the imbalance is judged on. */
    double *imbalance_values;
    size_t imbalance_count;
} ar_kagg_table_t;

/* A series of per-trial values: a cell's step times, or one numeric metric. */
typedef struct ar_kagg_series {
    char *name;
    double *values;
    size_t count, capacity;
} ar_kagg_series_t;

typedef struct ar_kagg_cell {
    char *name;
    size_t trials, passing;     /* warm-up trials are in neither */
    size_t failed, errored;     /* the other verdicts' counts */
    size_t warmup;              /* warm-up trials left out of everything */
    ar_kagg_series_t step_ms;  /* each passing trial's step time (its wall clock) */
    ar_kagg_series_t *metrics; /* each numeric metric over the passing trials */
    size_t metric_count, metric_capacity;
    ar_keyindex_t metric_index; /* their names to positions: a reply or trial
                                    JSON of n metrics costs n log n, not n^2 */
    ar_kagg_table_t *tables;
    size_t count, capacity;
    int64_t first_passing;        /* 1 + the first passing trial's index; 0: none */
    char *lanes;                  /* that trial's lane chart (report/lane_svg.h), or NULL */
} ar_kagg_cell_t;

typedef struct ar_kagg_run {
    ar_kagg_cell_t *cells;   /* matrix.json's order */
    size_t count;
    char *baseline;             /* the cell the kernel deltas compare with, or NULL */
    ar_keyindex_t names;     /* cell names to positions, once every cell is in */
    int indexed;                /* names is built (ar_kagg_pick_baseline()) */
} ar_kagg_run_t;

/* Add one passing trial's "collectors" object of a file of that schema
 * (ar_kernel_file_collectors()): with schema 1 each collector's entry is
 * {"kernels": {name: [total_ms, launches]}}, with 2 {"names": [...],
 * "total_ms": [...], "launches": [...]}, with 3 that and each rank's table
 * in "ranks"; an entry of another shape is no table. */
void ar_kagg_add_trial(ar_kagg_cell_t *cell, const ar_json_t *collectors, int schema);
/* Add one passing trial's step time (its whole wall clock, in ms) and its
 * numeric metrics (result.metrics), from its trial JSON or as they are. */
void ar_kagg_add_samples(ar_kagg_cell_t *cell, const ar_json_t *trial_json);
void ar_kagg_add_passing(ar_kagg_cell_t *cell, double step_ms, const ar_json_t *metrics);
/* The means, the spread and the order, once every trial is in. */
void ar_kagg_finish(ar_kagg_cell_t *cell);

/* Every cell of matrix (matrix.json's object) from the records below the
 * run directory run_fd (display_dir: how the user named it, for the
 * warnings), reached without following a symlink (a cell the payload
 * replaced by one reads as no trials); baseline: the override, else
 * matrix's baseline_cell, else the first cell.  A trial JSON that is not a
 * record (record/outcome.h) counts as an error trial, with one warning. */
void ar_kagg_load(int run_fd, const char *display_dir, const ar_json_t *matrix,
                  const char *baseline, ar_kagg_run_t *run);

/* What a thread reuses from cell to cell: json-c's tokeners and the read
 * buffers.  Never shared between threads. */
typedef struct ar_kagg_reader ar_kagg_reader_t;
ar_kagg_reader_t *ar_kagg_reader_new(void);
void ar_kagg_reader_free(ar_kagg_reader_t *reader);

/* One cell of that: json is matrix.json's entry for it; reader is the
 * thread's (NULL: one for this cell alone).  Touches nothing but *cell and
 * *reader, so cells load in parallel. */
void ar_kagg_load_cell(int run_fd, const char *display_dir, const ar_json_t *json,
                       ar_kagg_cell_t *cell, ar_kagg_reader_t *reader);
/* run's baseline as ar_kagg_load() picks it, once its cells are in. */
void ar_kagg_pick_baseline(ar_kagg_run_t *run, const ar_json_t *matrix,
                              const char *baseline);

const ar_kagg_cell_t *ar_kagg_cell(const ar_kagg_run_t *run, const char *name);
const ar_kagg_table_t *ar_kagg_table(const ar_kagg_cell_t *cell, const char *collector);
/* The cell's series of numeric metric name, or NULL. */
const ar_kagg_series_t *ar_kagg_metric(const ar_kagg_cell_t *cell, const char *name);
const ar_kagg_kernel_t *ar_kagg_kernel(const ar_kagg_table_t *table, const char *name);
/* The job table's table of rank (finished), or NULL. */
const ar_kagg_table_t *ar_kagg_rank_table(const ar_kagg_table_t *table, long rank);

/* <cell>/kernels.json's object. */
ar_json_t *ar_kagg_cell_json(const ar_kagg_cell_t *cell);
/* Its compact text, written member by member into writer (no tree): what
 * ar_json_dump(ar_kagg_cell_json(cell), 0) writes when every name is
 * UTF-8. */
void ar_kagg_cell_text(const ar_kagg_cell_t *cell, ar_json_writer_t *writer);
/* <cell>/kernels.json as name below dir_fd, on one line, whole or not at
 * all, left as it is when it already holds that (ar_update_file_at()):
 * through writer, or through the tree when a name is not UTF-8 (two such
 * names can become one key).  0, or -1 with *error set (free it). */
int ar_kagg_cell_write_at(int dir_fd, const char *name, const ar_kagg_cell_t *cell,
                             ar_json_writer_t *writer, char **error);

void ar_kagg_cell_clear(ar_kagg_cell_t *cell);
void ar_kagg_run_clear(ar_kagg_run_t *run);

#endif
