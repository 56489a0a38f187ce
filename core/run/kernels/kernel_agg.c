/* SPDX-License-Identifier: MIT */
/* kernel_agg.c - per-cell kernel aggregates.  A kernel a trial did not
 * report ran for 0 ms in it: its mean is over all the table's trials, and
 * "trials" says in how many it appeared.  No division by zero: a table
 * exists only once a trial carried it. */
#include "config.h"

#include "kernels/kernel_agg.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/kernel_file.h"
#include "record/outcome.h"
#include "record/layout.h"
#include "stats/stats.h"
#include "sys/diag.h"
#include "sys/json.h"
#include "sys/nofollow.h"
#include "sys/parallel.h"
#include "xalloc.h"

#define TRIAL_MAX_BYTES (64u << 20)
#define TRIAL_MAX_DEPTH 64
/* 1e15 ms is 31,000 years of GPU time. */
#define MAX_MS 1e15

static ar_kagg_table_t *table_for(ar_kagg_cell_t *cell, const char *collector)
{
    for (size_t i = 0; i < cell->count; i++)
        if (!strcmp(cell->tables[i].collector, collector))
            return &cell->tables[i];
    ar_xgrow((void **)&cell->tables, &cell->capacity, cell->count + 1, sizeof *cell->tables);
    ar_kagg_table_t *table = &cell->tables[cell->count++];
    memset(table, 0, sizeof *table);
    table->collector = ar_xstrdup(collector);
    table->rank = -1;
    return table;
}

/* The job table's table of rank, new when it has none; at: where the rank
 * sat in the trial's list, a guess at its index (the lists are in rank
 * order, so a guess mostly hits). */
static ar_kagg_table_t *rank_table_for(ar_kagg_table_t *job, long rank, size_t at)
{
    if (at < job->rank_count && job->ranks[at].rank == rank)
        return &job->ranks[at];
    for (size_t i = 0; i < job->rank_count; i++)
        if (job->ranks[i].rank == rank)
            return &job->ranks[i];
    ar_xgrow((void **)&job->ranks, &job->rank_capacity, job->rank_count + 1,
                sizeof *job->ranks);
    ar_kagg_table_t *table = &job->ranks[job->rank_count++];
    memset(table, 0, sizeof *table);
    table->collector = ar_xstrdup(job->collector);
    table->rank = rank;
    return table;
}

/* A table holds hundreds of names, looked up once per trial row; a hash
 * beats a tree of strcmp() over long shared prefixes.  Eight bytes a step:
 * the names are long (templated C++). */
static uint64_t hash_name(const char *name, size_t len)
{
    uint64_t hash = 0xcbf29ce484222325ULL ^ (len * 0x9e3779b97f4a7c15ULL);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, name + i, 8);
        hash = (hash ^ word) * 0x100000001b3ULL;
        hash ^= hash >> 29;
    }
    for (; i < len; i++)
        hash = (hash ^ (unsigned char)name[i]) * 0x100000001b3ULL;
    return hash ^ (hash >> 32);
}

static int same_name(const ar_kagg_kernel_t *kernel, const char *name, size_t len,
                     uint64_t hash)
{
    return kernel->hash == hash && kernel->name_len == len && !memcmp(kernel->name, name, len);
}

static size_t find_slot(const ar_kagg_table_t *table, const char *name, size_t len,
                        uint64_t hash)
{
    size_t mask = table->slot_count - 1;
    size_t slot = (size_t)hash & mask;
    while (table->slots[slot]) {
        if (same_name(&table->kernels[table->slots[slot] - 1], name, len, hash))
            break;
        slot = (slot + 1) & mask;
    }
    return slot;
}

static void grow_slots(ar_kagg_table_t *table)
{
    free(table->slots);
    table->slot_count = table->slot_count ? table->slot_count * 2 : 64;
    table->slots = ar_xcalloc(table->slot_count, sizeof *table->slots);
    for (size_t k = 0; k < table->count; k++) {
        const ar_kagg_kernel_t *kernel = &table->kernels[k];
        table->slots[find_slot(table, kernel->name, kernel->name_len, kernel->hash)] =
            (uint32_t)(k + 1);
    }
}

/* name's kernel, new when the table has none of that name.  at: where the
 * name's row sits in its trial, a guess at its index: trials of a cell
 * mostly list their kernels in the same order, and one compare then
 * replaces the hash. */
static ar_kagg_kernel_t *kernel_for(ar_kagg_table_t *table, const char *name, size_t at)
{
    size_t len = strlen(name);
    if (at < table->count) {
        ar_kagg_kernel_t *guess = &table->kernels[at];
        if (guess->name_len == len && !memcmp(guess->name, name, len))
            return guess;
    }
    uint64_t hash = hash_name(name, len);
    if (table->slot_count) {
        size_t slot = find_slot(table, name, len, hash);
        if (table->slots[slot])
            return &table->kernels[table->slots[slot] - 1];
    }
    ar_xgrow((void **)&table->kernels, &table->capacity, table->count + 1,
                sizeof *table->kernels);
    ar_kagg_kernel_t *kernel = &table->kernels[table->count];
    memset(kernel, 0, sizeof *kernel);
    kernel->name = ar_xstrndup(name, len);
    kernel->name_len = len;
    kernel->hash = hash;
    kernel->first_seen = table->count;
    table->count++;
    if (table->count * 2 > table->slot_count)
        grow_slots(table);
    else
        table->slots[find_slot(table, name, len, hash)] = (uint32_t)table->count;
    return kernel;
}

/* kernel's value in its table's trial at (0 in the trials before it). */
static void set_value(ar_kagg_kernel_t *kernel, size_t at, double value)
{
    if (at >= kernel->values_len) {
        kernel->values = ar_xrealloc(kernel->values, (at + 1) * sizeof *kernel->values);
        for (size_t i = kernel->values_len; i <= at; i++)
            kernel->values[i] = 0.0;
        kernel->values_len = at + 1;
    }
    kernel->values[at] = value;
}

static void series_add(ar_kagg_series_t *series, double value)
{
    ar_xgrow((void **)&series->values, &series->capacity, series->count + 1,
                sizeof *series->values);
    series->values[series->count++] = value;
}

/* name's series, new when the cell has none: looked up once per metric
 * and trial, so by an index (a reply may carry 10^5 metrics). */
static ar_kagg_series_t *metric_series(ar_kagg_cell_t *cell, const char *name)
{
    size_t at = ar_keyindex_find(&cell->metric_index, name);
    if (at != AR_KEYINDEX_NONE)
        return &cell->metrics[at];
    ar_xgrow((void **)&cell->metrics, &cell->metric_capacity, cell->metric_count + 1,
                sizeof *cell->metrics);
    ar_kagg_series_t *series = &cell->metrics[cell->metric_count++];
    memset(series, 0, sizeof *series);
    series->name = ar_xstrdup(name);
    ar_keyindex_add(&cell->metric_index, series->name, cell->metric_count - 1);
    return series;
}

const ar_kagg_series_t *ar_kagg_metric(const ar_kagg_cell_t *cell, const char *name)
{
    size_t at = cell ? ar_keyindex_find(&cell->metric_index, name) : AR_KEYINDEX_NONE;
    return at == AR_KEYINDEX_NONE ? NULL : &cell->metrics[at];
}

static int add_metric(const char *name, ar_json_t *value, void *user)
{
    ar_json_type_t type = ar_json_type(value);
    if (type != AR_JSON_INT && type != AR_JSON_DOUBLE)
        return 0;
    double number = ar_json_get_double(value);
    if (isfinite(number))
        series_add(metric_series(user, name), number);
    return 0;
}

void ar_kagg_add_passing(ar_kagg_cell_t *cell, double step_ms, const ar_json_t *metrics)
{
    if (isfinite(step_ms) && step_ms >= 0 && step_ms <= MAX_MS)
        series_add(&cell->step_ms, step_ms);
    if (ar_json_type(metrics) == AR_JSON_OBJECT)
        ar_json_foreach((ar_json_t *)metrics, add_metric, cell);
}

void ar_kagg_add_samples(ar_kagg_cell_t *cell, const ar_json_t *trial_json)
{
    const ar_json_t *wall = ar_json_get(trial_json, "wall_clock_sec");
    ar_json_type_t type = ar_json_type(wall);
    double step_ms = type == AR_JSON_INT || type == AR_JSON_DOUBLE
                         ? ar_json_get_double(wall) * 1000.0
                         : NAN;
    ar_kagg_add_passing(cell, step_ms,
                           ar_json_get(ar_json_get(trial_json, "result"), "metrics"));
}

typedef struct trial_sum {
    ar_kagg_table_t *table;
    double total;
    size_t row;        /* the row's position in its trial */
} trial_sum_t;

/* One row of a trial's table: the kernel name, its total (a number) and
 * its launches (an integer, else unknown). */
static void add_row(trial_sum_t *sum, const char *name, const ar_json_t *ms,
                    const ar_json_t *launches)
{
    size_t row_at = sum->row++;
    ar_json_type_t type = ar_json_type(ms);
    double value = type == AR_JSON_INT || type == AR_JSON_DOUBLE ? ar_json_get_double(ms)
                                                                       : NAN;
    /* A hand-edited or foreign row is skipped, never averaged into a NaN;
     * so is a total past MAX_MS, which no run reaches and whose sums and
     * squares could overflow into one. */
    if (!name || !isfinite(value) || value < 0 || value > MAX_MS)
        return;
    /* As the cell's table will write it: names that differ only in invalid
     * bytes are one name (its first row counts) from this first read on. */
    char *fixed = ar_json_utf8_or_null(name);
    ar_kagg_kernel_t *kernel = kernel_for(sum->table, fixed ? fixed : name, row_at);
    free(fixed);
    /* A name twice in one table (schema 2's arrays can say so; schema 1's
     * object cannot): the first row counts. */
    size_t stamp = sum->table->trials + 1;
    if (kernel->stamp == stamp)
        return;
    kernel->stamp = stamp;
    if (kernel->trials == 0 || value < kernel->min_ms)
        kernel->min_ms = value;
    if (kernel->trials == 0 || value > kernel->max_ms)
        kernel->max_ms = value;
    kernel->trials++;
    kernel->sum_ms += value;
    set_value(kernel, sum->table->trials, value);
    if (ar_json_type(launches) == AR_JSON_INT && ar_json_get_int(launches) >= 0)
        kernel->launches_sum += (double)ar_json_get_int(launches);
    else
        kernel->launches_unknown = 1;
    sum->total += value;
}

/* Schema 1: {"kernels": {name: [total_ms, launches]}}. */
static int add_pair(const char *name, ar_json_t *row, void *user)
{
    int pair = ar_json_type(row) == AR_JSON_ARRAY;
    add_row(user, name, pair ? ar_json_at(row, 0) : NULL, pair ? ar_json_at(row, 1) : NULL);
    return 0;
}

/* Schema 2: {"names": [...], "total_ms": [...], "launches": [...]}. */
static void add_columns(trial_sum_t *sum, const ar_json_t *names, const ar_json_t *total_ms,
                        const ar_json_t *launches)
{
    size_t count = ar_json_length(names);
    for (size_t i = 0; i < count; i++)
        add_row(sum, ar_json_get_string(ar_json_at(names, i)), ar_json_at(total_ms, i),
                ar_json_at(launches, i));
}

typedef struct trial_add {
    ar_kagg_cell_t *cell;
    int schema;
} trial_add_t;

/* One table's rows (schema 1 or 2 and later) into table, then its total
 * as the trial's figure. */
static double add_table(ar_kagg_table_t *table, const ar_json_t *entry, int schema)
{
    trial_sum_t sum = {table, 0.0, 0};
    if (schema == 1)
        ar_json_foreach(ar_json_get(entry, "kernels"), add_pair, &sum);
    else
        add_columns(&sum, ar_json_get(entry, "names"), ar_json_get(entry, "total_ms"),
                    ar_json_get(entry, "launches"));
    table->gpu_values = ar_xrealloc(table->gpu_values,
                                       (table->trials + 1) * sizeof *table->gpu_values);
    /* At the tables' own precision (1e-6 ms): a sum's float noise is no
     * digit of the data. */
    table->gpu_values[table->trials] = round(sum.total * 1e6) / 1e6;
    if (table->trials == 0 || sum.total < table->gpu_min)
        table->gpu_min = sum.total;
    if (table->trials == 0 || sum.total > table->gpu_max)
        table->gpu_max = sum.total;
    table->trials++;
    table->gpu_sum += sum.total;
    return table->gpu_values[table->trials - 1];
}

static int rank_entry_ok(const ar_json_t *entry)
{
    const ar_json_t *rank = ar_json_get(entry, "rank");
    return ar_json_type(rank) == AR_JSON_INT && ar_json_get_int(rank) >= 0
           && ar_json_get_int(rank) <= 65535
           && ar_json_type(ar_json_get(entry, "names")) == AR_JSON_ARRAY
           && ar_json_type(ar_json_get(entry, "total_ms")) == AR_JSON_ARRAY;
}

/* Schema 3's "ranks": each rank's table into its own, and the trial's
 * imbalance (its slowest rank's total minus the ranks' mean). */
static void add_ranks(ar_kagg_table_t *job, const ar_json_t *ranks)
{
    size_t count = ar_json_length(ranks), used = 0;
    double high = 0.0, sum = 0.0;
    for (size_t i = 0; i < count; i++) {
        const ar_json_t *entry = ar_json_at(ranks, i);
        if (!rank_entry_ok(entry))
            continue; /* a hand-edited or foreign entry */
        ar_kagg_table_t *table =
            rank_table_for(job, (long)ar_json_get_int(ar_json_get(entry, "rank")), i);
        if (table->stamp == job->trials + 1)
            continue; /* a rank listed twice in one trial: the first counts */
        table->stamp = job->trials + 1;
        double total = add_table(table, entry, 2);
        high = used == 0 || total > high ? total : high;
        sum += total;
        used++;
    }
    if (used < 2)
        return;
    job->imbalance_values = ar_xrealloc(job->imbalance_values,
                                           (job->imbalance_count + 1) * sizeof(double));
    job->imbalance_values[job->imbalance_count++] = round((high - sum / used) * 1e6) / 1e6;
}

static int add_collector(const char *collector, ar_json_t *entry, void *user)
{
    trial_add_t *add = user;
    const ar_json_t *kernels = ar_json_get(entry, "kernels");
    const ar_json_t *names = ar_json_get(entry, "names");
    const ar_json_t *total_ms = ar_json_get(entry, "total_ms");
    /* An entry of another shape is not a table. */
    if (add->schema == 1 ? ar_json_type(kernels) != AR_JSON_OBJECT
                         : ar_json_type(names) != AR_JSON_ARRAY
                               || ar_json_type(total_ms) != AR_JSON_ARRAY)
        return 0;
    ar_kagg_table_t *table = table_for(add->cell, collector);
    const ar_json_t *ranks = add->schema >= 3 ? ar_json_get(entry, "ranks") : NULL;
    /* The ranks first: a rank's trial is counted against the job's. */
    if (ar_json_type(ranks) == AR_JSON_ARRAY)
        add_ranks(table, ranks);
    add_table(table, entry, add->schema);
    return 0;
}

void ar_kagg_add_trial(ar_kagg_cell_t *cell, const ar_json_t *collectors, int schema)
{
    trial_add_t add = {cell, schema};
    ar_json_foreach(collectors, add_collector, &add);
}

/* The sort key with the kernel: no global for the comparison to read, so
 * cells finish in parallel. */
typedef struct ranked {
    double mean;
    size_t index;      /* = first_seen */
} ranked_t;

static int by_mean(const void *left, const void *right)
{
    const ranked_t *a = left, *b = right;
    if (a->mean != b->mean)
        return a->mean > b->mean ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int by_rank(const void *left, const void *right)
{
    const ar_kagg_table_t *a = left, *b = right;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

static void finish_table(ar_kagg_table_t *table)
{
    double n = (double)table->trials;
    table->gpu_mean_ms = table->trials ? table->gpu_sum / n : 0.0;
    /* Exact sums: identical totals have a spread of exactly 0. */
    table->gpu_std_ms = table->trials ? ar_stats_pstdev(table->gpu_values, table->trials)
                                      : 0.0;
    for (size_t k = 0; k < table->count; k++) {
        ar_kagg_kernel_t *kernel = &table->kernels[k];
        if (kernel->values_len < table->trials)
            set_value(kernel, table->trials - 1, 0.0);
        kernel->mean_ms = kernel->sum_ms / n;
        if (kernel->trials < table->trials)
            kernel->min_ms = 0.0;
        kernel->mean_launches = kernel->launches_unknown ? -1.0 : kernel->launches_sum / n;
    }
    free(table->order);
    table->order = ar_xcalloc(table->count ? table->count : 1, sizeof *table->order);
    ranked_t *ranked = ar_xcalloc(table->count ? table->count : 1, sizeof *ranked);
    for (size_t k = 0; k < table->count; k++)
        ranked[k] = (ranked_t){table->kernels[k].mean_ms, k};
    qsort(ranked, table->count, sizeof *ranked, by_mean);
    for (size_t k = 0; k < table->count; k++)
        table->order[k] = ranked[k].index;
    free(ranked);
    for (size_t r = 0; r < table->rank_count; r++)
        finish_table(&table->ranks[r]);
    if (table->rank_count > 1)
        qsort(table->ranks, table->rank_count, sizeof *table->ranks, by_rank);
}

/* A table's kernel array cut to what it holds, and its ranks'. */
static void fit_table(ar_kagg_table_t *table)
{
    if (table->count && table->capacity > table->count) {
        table->kernels = ar_xrealloc(table->kernels, table->count * sizeof *table->kernels);
        table->capacity = table->count;
    }
    if (table->rank_count && table->rank_capacity > table->rank_count) {
        table->ranks = ar_xrealloc(table->ranks, table->rank_count * sizeof *table->ranks);
        table->rank_capacity = table->rank_count;
    }
    for (size_t r = 0; r < table->rank_count; r++)
        fit_table(&table->ranks[r]);
}

/* The cell's arrays cut to what they hold: --report keeps every cell of a
 * run until report.html is written, and a table or kernel array grown by
 * doubling holds up to eight slots of 112 and 120 bytes for one used. */
static void fit(ar_kagg_cell_t *cell)
{
    if (cell->count && cell->capacity > cell->count) {
        cell->tables = ar_xrealloc(cell->tables, cell->count * sizeof *cell->tables);
        cell->capacity = cell->count;
    }
    for (size_t t = 0; t < cell->count; t++)
        fit_table(&cell->tables[t]);
}

void ar_kagg_finish(ar_kagg_cell_t *cell)
{
    fit(cell);
    for (size_t t = 0; t < cell->count; t++)
        finish_table(&cell->tables[t]);
}

struct ar_kagg_reader {
    ar_json_reader_t *trial, *kernels;
};

ar_kagg_reader_t *ar_kagg_reader_new(void)
{
    ar_kagg_reader_t *reader = ar_xmalloc(sizeof *reader);
    reader->trial = ar_json_reader_new(TRIAL_MAX_DEPTH);
    reader->kernels = ar_json_reader_new(AR_KERNEL_FILE_MAX_DEPTH);
    return reader;
}

void ar_kagg_reader_free(ar_kagg_reader_t *reader)
{
    if (!reader)
        return;
    ar_json_reader_free(reader->trial);
    ar_json_reader_free(reader->kernels);
    free(reader);
}

void ar_kagg_load_cell(int run_fd, const char *display_dir, const ar_json_t *json,
                       ar_kagg_cell_t *cell, ar_kagg_reader_t *reader)
{
    ar_kagg_reader_t *own = reader ? NULL : ar_kagg_reader_new();
    if (own)
        reader = own;
    const char *name = ar_json_get_string(ar_json_get(json, "name"));
    cell->name = ar_xstrdup(name ? name : "?");
    int64_t trials = ar_json_get_int(ar_json_get(json, "trials"));
    int64_t warmup = ar_json_get_int(ar_json_get(json, "warmup_trials"));
    cell->warmup = warmup > 0 ? (size_t)warmup : 0; /* their records are not read */
    char *sub_rel = ar_workload_dir_rel(cell->name);
    char *why = NULL;
    int sub_fd = name ? ar_nofollow_open_dir(run_fd, sub_rel, 0, &why) : -1;
    for (int64_t t = 0; sub_fd >= 0 && t < trials && t < 1000000; t++) {
        char *rel = ar_trial_json_rel(name, (int)t);
        const char *trial_name = strrchr(rel, '/') + 1;
        ar_json_t *trial = ar_json_reader_read_at(reader->trial, sub_fd, trial_name,
                                                        TRIAL_MAX_BYTES);
        const char *verdict = trial ? ar_outcome_verdict(trial) : "";
        if (!verdict) {
            ar_diag_warn("%s/%s: not a trial record (no \"result\" object or "
                         "\"exit_status\"); counted as an error trial", display_dir, rel);
            verdict = "error";
        }
        /* A warm-up record where a measured one should be: left out. */
        if (trial && !ar_json_get_bool(ar_json_get(trial, "warmup"))) {
            cell->trials++;
            cell->failed += !strcmp(verdict, "fail");
            cell->errored += !strcmp(verdict, "error");
            if (!strcmp(verdict, "pass")) {
                cell->passing++;
                if (!cell->first_passing)
                    cell->first_passing = t + 1;
                ar_kagg_add_samples(cell, trial);
                char *kname = ar_kernel_file_path(trial_name);
                ar_json_t *file = ar_json_reader_read_at(reader->kernels, sub_fd, kname,
                                                               AR_KERNEL_FILE_MAX_BYTES);
                int schema = 0;
                const ar_json_t *collectors = ar_kernel_file_collectors(file, &schema);
                ar_kagg_add_trial(cell, collectors, schema);
                ar_json_free(file);
                free(kname);
            }
        }
        ar_json_free(trial);
        free(rel);
    }
    if (sub_fd >= 0)
        close(sub_fd);
    free(why);
    free(sub_rel);
    ar_kagg_finish(cell);
    ar_kagg_reader_free(own);
}

typedef struct load {
    int run_fd;
    const char *display_dir;
    const ar_json_t *cells;
    ar_kagg_run_t *run;
} load_t;

static void *load_begin(void *user)
{
    (void)user;
    return ar_kagg_reader_new();
}

static void load_end(void *reader)
{
    ar_kagg_reader_free(reader);
}

static void load_one(size_t i, void *reader, void *user)
{
    load_t *load = user;
    ar_kagg_load_cell(load->run_fd, load->display_dir, ar_json_at(load->cells, i),
                      &load->run->cells[i], reader);
}

void ar_kagg_load(int run_fd, const char *display_dir, const ar_json_t *matrix,
                  const char *baseline, ar_kagg_run_t *run)
{
    memset(run, 0, sizeof *run);
    const ar_json_t *cells = ar_json_get(matrix, "cells");
    run->count = ar_json_length(cells);
    run->cells = ar_xcalloc(run->count ? run->count : 1, sizeof *run->cells);
    /* Cells are independent: thousands of them are read on every CPU. */
    load_t load = {run_fd, display_dir, cells, run};
    ar_parallel_t loop = {.count = run->count, .per_worker = 64, .begin = load_begin,
                             .end = load_end, .item = load_one, .user = &load};
    ar_parallel_run(&loop);
    ar_kagg_pick_baseline(run, matrix, baseline);
}

void ar_kagg_pick_baseline(ar_kagg_run_t *run, const ar_json_t *matrix,
                              const char *baseline)
{
    if (!baseline)
        baseline = ar_json_get_string(ar_json_get(matrix, "baseline_cell"));
    if (!baseline && run->count)
        baseline = run->cells[0].name;
    free(run->baseline);
    run->baseline = baseline ? ar_xstrdup(baseline) : NULL;
    /* Looked up by name once per cell and run compared: an index keeps
     * --compare of many cells linear. */
    ar_keyindex_clear(&run->names);
    for (size_t i = 0; i < run->count; i++)
        ar_keyindex_add(&run->names, run->cells[i].name, i);
    run->indexed = 1;
}

const ar_kagg_cell_t *ar_kagg_cell(const ar_kagg_run_t *run, const char *name)
{
    if (name && run->indexed) {
        size_t at = ar_keyindex_find(&run->names, name);
        return at == AR_KEYINDEX_NONE ? NULL : &run->cells[at];
    }
    for (size_t i = 0; name && i < run->count; i++)
        if (!strcmp(run->cells[i].name, name))
            return &run->cells[i];
    return NULL;
}

const ar_kagg_table_t *ar_kagg_table(const ar_kagg_cell_t *cell, const char *collector)
{
    for (size_t i = 0; cell && i < cell->count; i++)
        if (!strcmp(cell->tables[i].collector, collector))
            return &cell->tables[i];
    return NULL;
}

const ar_kagg_kernel_t *ar_kagg_kernel(const ar_kagg_table_t *table, const char *name)
{
    if (!table || !table->slot_count)
        return NULL;
    size_t len = strlen(name);
    size_t slot = find_slot(table, name, len, hash_name(name, len));
    return table->slots[slot] ? &table->kernels[table->slots[slot] - 1] : NULL;
}

const ar_kagg_table_t *ar_kagg_rank_table(const ar_kagg_table_t *table, long rank)
{
    size_t low = 0, high = table ? table->rank_count : 0;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (table->ranks[mid].rank == rank)
            return &table->ranks[mid];
        if (table->ranks[mid].rank < rank)
            low = mid + 1;
        else
            high = mid;
    }
    return NULL;
}

static ar_json_t *spread(double mean, double min, double max, double std)
{
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "mean", ar_json_micro(mean));
    ar_json_set(obj, "min", ar_json_micro(min));
    ar_json_set(obj, "max", ar_json_micro(max));
    ar_json_set(obj, "std", ar_json_micro(std));
    return obj;
}

/* A table's rows, largest first, as {name: {mean_ms, ...}}. */
static ar_json_t *kernels_json(const ar_kagg_table_t *table)
{
    ar_json_t *kernels = ar_json_object();
    for (size_t k = 0; k < table->count; k++) {
        const ar_kagg_kernel_t *kernel = &table->kernels[table->order[k]];
        ar_json_t *row = ar_json_object();
        ar_json_set(row, "mean_ms", ar_json_micro(kernel->mean_ms));
        ar_json_set(row, "min_ms", ar_json_micro(kernel->min_ms));
        ar_json_set(row, "max_ms", ar_json_micro(kernel->max_ms));
        ar_json_set(row, "mean_launches",
                       kernel->mean_launches >= 0 ? ar_json_micro(kernel->mean_launches) : NULL);
        ar_json_set(row, "trials", ar_json_int((int64_t)kernel->trials));
        ar_json_set(kernels, kernel->name, row);
    }
    return kernels;
}

ar_json_t *ar_kagg_cell_json(const ar_kagg_cell_t *cell)
{
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "schema_version", ar_json_int(AR_CELL_KERNELS_SCHEMA));
    ar_json_set(obj, "cell", ar_json_string(cell->name));
    ar_json_set(obj, "trials", ar_json_int((int64_t)cell->trials));
    ar_json_set(obj, "passing_trials", ar_json_int((int64_t)cell->passing));
    ar_json_t *collectors = ar_json_object();
    for (size_t t = 0; t < cell->count; t++) {
        const ar_kagg_table_t *table = &cell->tables[t];
        ar_json_t *entry = ar_json_object();
        ar_json_set(entry, "trials", ar_json_int((int64_t)table->trials));
        ar_json_set(entry, "gpu_time_ms", spread(table->gpu_mean_ms, table->gpu_min,
                                                    table->gpu_max, table->gpu_std_ms));
        ar_json_set(entry, "kernels", kernels_json(table));
        if (table->rank_count) {
            ar_json_t *ranks = ar_json_array();
            for (size_t r = 0; r < table->rank_count; r++) {
                const ar_kagg_table_t *rank = &table->ranks[r];
                ar_json_t *item = ar_json_object();
                ar_json_set(item, "rank", ar_json_int(rank->rank));
                ar_json_set(item, "trials", ar_json_int((int64_t)rank->trials));
                ar_json_set(item, "gpu_time_ms", spread(rank->gpu_mean_ms, rank->gpu_min,
                                                           rank->gpu_max, rank->gpu_std_ms));
                ar_json_set(item, "kernels", kernels_json(rank));
                ar_json_append(ranks, item);
            }
            ar_json_set(entry, "ranks", ranks);
        }
        ar_json_set(collectors, table->collector, entry);
    }
    ar_json_set(obj, "collectors", collectors);
    return obj;
}

/* Whether every key of the cell's JSON is written as it is: two names
 * that are not UTF-8 can become one key, which only the tree merges. */
static int keys_kept(const ar_kagg_cell_t *cell)
{
    for (size_t t = 0; t < cell->count; t++) {
        const ar_kagg_table_t *table = &cell->tables[t];
        if (!ar_json_key_is_kept(table->collector))
            return 0;
        for (size_t k = 0; k < table->count; k++)
            if (!ar_json_key_is_kept(table->kernels[k].name))
                return 0;
        for (size_t r = 0; r < table->rank_count; r++)
            for (size_t k = 0; k < table->ranks[r].count; k++)
                if (!ar_json_key_is_kept(table->ranks[r].kernels[k].name))
                    return 0;
    }
    return 1;
}

static void write_spread(ar_json_writer_t *out, double mean, double min, double max,
                         double std)
{
    ar_json_writer_begin_object(out);
    ar_json_writer_key(out, "mean");
    ar_json_writer_micro(out, mean);
    ar_json_writer_key(out, "min");
    ar_json_writer_micro(out, min);
    ar_json_writer_key(out, "max");
    ar_json_writer_micro(out, max);
    ar_json_writer_key(out, "std");
    ar_json_writer_micro(out, std);
    ar_json_writer_end_object(out);
}

/* kernels_json()'s text. */
static void write_kernels(ar_json_writer_t *out, const ar_kagg_table_t *table)
{
    ar_json_writer_begin_object(out);
    for (size_t k = 0; k < table->count; k++) {
        const ar_kagg_kernel_t *kernel = &table->kernels[table->order[k]];
        ar_json_writer_key(out, kernel->name);
        ar_json_writer_begin_object(out);
        ar_json_writer_key(out, "mean_ms");
        ar_json_writer_micro(out, kernel->mean_ms);
        ar_json_writer_key(out, "min_ms");
        ar_json_writer_micro(out, kernel->min_ms);
        ar_json_writer_key(out, "max_ms");
        ar_json_writer_micro(out, kernel->max_ms);
        ar_json_writer_key(out, "mean_launches");
        if (kernel->mean_launches >= 0)
            ar_json_writer_micro(out, kernel->mean_launches);
        else
            ar_json_writer_null(out);
        ar_json_writer_key(out, "trials");
        ar_json_writer_int(out, (int64_t)kernel->trials);
        ar_json_writer_end_object(out);
    }
    ar_json_writer_end_object(out);
}

/* One table's members after its collector's key or inside a rank's item. */
static void write_table(ar_json_writer_t *out, const ar_kagg_table_t *table)
{
    ar_json_writer_key(out, "trials");
    ar_json_writer_int(out, (int64_t)table->trials);
    ar_json_writer_key(out, "gpu_time_ms");
    write_spread(out, table->gpu_mean_ms, table->gpu_min, table->gpu_max, table->gpu_std_ms);
    ar_json_writer_key(out, "kernels");
    write_kernels(out, table);
}

/* ar_kagg_cell_json()'s text, member by member. */
static void write_cell(ar_json_writer_t *out, const ar_kagg_cell_t *cell)
{
    ar_json_writer_reset(out);
    ar_json_writer_begin_object(out);
    ar_json_writer_key(out, "schema_version");
    ar_json_writer_int(out, AR_CELL_KERNELS_SCHEMA);
    ar_json_writer_key(out, "cell");
    ar_json_writer_string(out, cell->name);
    ar_json_writer_key(out, "trials");
    ar_json_writer_int(out, (int64_t)cell->trials);
    ar_json_writer_key(out, "passing_trials");
    ar_json_writer_int(out, (int64_t)cell->passing);
    ar_json_writer_key(out, "collectors");
    ar_json_writer_begin_object(out);
    for (size_t t = 0; t < cell->count; t++) {
        const ar_kagg_table_t *table = &cell->tables[t];
        ar_json_writer_key(out, table->collector);
        ar_json_writer_begin_object(out);
        write_table(out, table);
        if (table->rank_count) {
            ar_json_writer_key(out, "ranks");
            ar_json_writer_begin_array(out);
            for (size_t r = 0; r < table->rank_count; r++) {
                ar_json_writer_item(out);
                ar_json_writer_begin_object(out);
                ar_json_writer_key(out, "rank");
                ar_json_writer_int(out, table->ranks[r].rank);
                write_table(out, &table->ranks[r]);
                ar_json_writer_end_object(out);
            }
            ar_json_writer_end_array(out);
        }
        ar_json_writer_end_object(out);
    }
    ar_json_writer_end_object(out);
    ar_json_writer_end_object(out);
}

void ar_kagg_cell_text(const ar_kagg_cell_t *cell, ar_json_writer_t *writer)
{
    write_cell(writer, cell);
}

int ar_kagg_cell_write_at(int dir_fd, const char *name, const ar_kagg_cell_t *cell,
                             ar_json_writer_t *writer, char **error)
{
    if (keys_kept(cell)) {
        write_cell(writer, cell);
    } else {
        ar_json_t *json = ar_kagg_cell_json(cell);
        ar_json_writer_reset(writer);
        ar_json_writer_value(writer, json);
        ar_json_free(json);
    }
    if (ar_json_writer_write_at(writer, dir_fd, name) == 0)
        return 0;
    char reason[256]; /* cells are written on several threads */
    *error = ar_xstrdup(strerror_r(errno, reason, sizeof reason));
    return -1;
}

static void table_clear(ar_kagg_table_t *table)
{
    free(table->slots);
    for (size_t k = 0; k < table->count; k++) {
        free(table->kernels[k].name);
        free(table->kernels[k].values);
    }
    free(table->kernels);
    free(table->gpu_values);
    free(table->order);
    free(table->collector);
    for (size_t r = 0; r < table->rank_count; r++)
        table_clear(&table->ranks[r]);
    free(table->ranks);
    free(table->imbalance_values);
}

void ar_kagg_cell_clear(ar_kagg_cell_t *cell)
{
    for (size_t t = 0; t < cell->count; t++)
        table_clear(&cell->tables[t]);
    free(cell->tables);
    for (size_t i = 0; i < cell->metric_count; i++) {
        free(cell->metrics[i].name);
        free(cell->metrics[i].values);
    }
    free(cell->metrics);
    ar_keyindex_clear(&cell->metric_index);
    free(cell->step_ms.values);
    free(cell->name);
    free(cell->lanes);
    memset(cell, 0, sizeof *cell);
}

void ar_kagg_run_clear(ar_kagg_run_t *run)
{
    for (size_t i = 0; i < run->count; i++)
        ar_kagg_cell_clear(&run->cells[i]);
    free(run->cells);
    free(run->baseline);
    ar_keyindex_clear(&run->names);
    memset(run, 0, sizeof *run);
}
