/* SPDX-License-Identifier: MIT */
/* kernel_agg.c - per-cell kernel aggregates.  A kernel a trial did not
 * report ran for 0 ms in it: its mean is over all the table's trials, and
 * "trials" says in how many it appeared.  No division by zero: a table
 * exists only once a trial carried it. */
#include "config.h"

#include "output/kernel_agg.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/kernel_file.h"
#include "record/outcome.h"
#include "record/layout.h"
#include "stats/stats.h"
#include "sys/json.h"
#include "sys/nofollow.h"
#include "sys/parallel.h"
#include "xalloc.h"

#define TRIAL_MAX_BYTES (64u << 20)
#define TRIAL_MAX_DEPTH 64
/* 1e15 ms is 31,000 years of GPU time. */
#define MAX_MS 1e15

static aorta_kagg_table_t *table_for(aorta_kagg_cell_t *cell, const char *collector)
{
    for (size_t i = 0; i < cell->count; i++)
        if (!strcmp(cell->tables[i].collector, collector))
            return &cell->tables[i];
    aorta_xgrow((void **)&cell->tables, &cell->capacity, cell->count + 1, sizeof *cell->tables);
    aorta_kagg_table_t *table = &cell->tables[cell->count++];
    memset(table, 0, sizeof *table);
    table->collector = aorta_xstrdup(collector);
    table->rank = -1;
    return table;
}

/* The job table's table of rank, new when it has none; at: where the rank
 * sat in the trial's list, a guess at its index (the lists are in rank
 * order, so a guess mostly hits). */
static aorta_kagg_table_t *rank_table_for(aorta_kagg_table_t *job, long rank, size_t at)
{
    if (at < job->rank_count && job->ranks[at].rank == rank)
        return &job->ranks[at];
    for (size_t i = 0; i < job->rank_count; i++)
        if (job->ranks[i].rank == rank)
            return &job->ranks[i];
    aorta_xgrow((void **)&job->ranks, &job->rank_capacity, job->rank_count + 1,
                sizeof *job->ranks);
    aorta_kagg_table_t *table = &job->ranks[job->rank_count++];
    memset(table, 0, sizeof *table);
    table->collector = aorta_xstrdup(job->collector);
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

static int same_name(const aorta_kagg_kernel_t *kernel, const char *name, size_t len,
                     uint64_t hash)
{
    return kernel->hash == hash && kernel->name_len == len && !memcmp(kernel->name, name, len);
}

static size_t find_slot(const aorta_kagg_table_t *table, const char *name, size_t len,
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

static void grow_slots(aorta_kagg_table_t *table)
{
    free(table->slots);
    table->slot_count = table->slot_count ? table->slot_count * 2 : 64;
    table->slots = aorta_xcalloc(table->slot_count, sizeof *table->slots);
    for (size_t k = 0; k < table->count; k++) {
        const aorta_kagg_kernel_t *kernel = &table->kernels[k];
        table->slots[find_slot(table, kernel->name, kernel->name_len, kernel->hash)] =
            (uint32_t)(k + 1);
    }
}

/* name's kernel, new when the table has none of that name.  at: where the
 * name's row sits in its trial, a guess at its index: trials of a cell
 * mostly list their kernels in the same order, and one compare then
 * replaces the hash. */
static aorta_kagg_kernel_t *kernel_for(aorta_kagg_table_t *table, const char *name, size_t at)
{
    size_t len = strlen(name);
    if (at < table->count) {
        aorta_kagg_kernel_t *guess = &table->kernels[at];
        if (guess->name_len == len && !memcmp(guess->name, name, len))
            return guess;
    }
    uint64_t hash = hash_name(name, len);
    if (table->slot_count) {
        size_t slot = find_slot(table, name, len, hash);
        if (table->slots[slot])
            return &table->kernels[table->slots[slot] - 1];
    }
    aorta_xgrow((void **)&table->kernels, &table->capacity, table->count + 1,
                sizeof *table->kernels);
    aorta_kagg_kernel_t *kernel = &table->kernels[table->count];
    memset(kernel, 0, sizeof *kernel);
    kernel->name = aorta_xstrndup(name, len);
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
static void set_value(aorta_kagg_kernel_t *kernel, size_t at, double value)
{
    if (at >= kernel->values_len) {
        kernel->values = aorta_xrealloc(kernel->values, (at + 1) * sizeof *kernel->values);
        for (size_t i = kernel->values_len; i <= at; i++)
            kernel->values[i] = 0.0;
        kernel->values_len = at + 1;
    }
    kernel->values[at] = value;
}

static void series_add(aorta_kagg_series_t *series, double value)
{
    aorta_xgrow((void **)&series->values, &series->capacity, series->count + 1,
                sizeof *series->values);
    series->values[series->count++] = value;
}

static aorta_kagg_series_t *metric_series(aorta_kagg_cell_t *cell, const char *name)
{
    for (size_t i = 0; i < cell->metric_count; i++)
        if (!strcmp(cell->metrics[i].name, name))
            return &cell->metrics[i];
    aorta_xgrow((void **)&cell->metrics, &cell->metric_capacity, cell->metric_count + 1,
                sizeof *cell->metrics);
    aorta_kagg_series_t *series = &cell->metrics[cell->metric_count++];
    memset(series, 0, sizeof *series);
    series->name = aorta_xstrdup(name);
    return series;
}

static int add_metric(const char *name, aorta_json_t *value, void *user)
{
    aorta_json_type_t type = aorta_json_type(value);
    if (type != AORTA_JSON_INT && type != AORTA_JSON_DOUBLE)
        return 0;
    double number = aorta_json_get_double(value);
    if (isfinite(number))
        series_add(metric_series(user, name), number);
    return 0;
}

void aorta_kagg_add_passing(aorta_kagg_cell_t *cell, double step_ms, const aorta_json_t *metrics)
{
    if (isfinite(step_ms) && step_ms >= 0 && step_ms <= MAX_MS)
        series_add(&cell->step_ms, step_ms);
    if (aorta_json_type(metrics) == AORTA_JSON_OBJECT)
        aorta_json_foreach((aorta_json_t *)metrics, add_metric, cell);
}

void aorta_kagg_add_samples(aorta_kagg_cell_t *cell, const aorta_json_t *trial_json)
{
    const aorta_json_t *wall = aorta_json_get(trial_json, "wall_clock_sec");
    aorta_json_type_t type = aorta_json_type(wall);
    double step_ms = type == AORTA_JSON_INT || type == AORTA_JSON_DOUBLE
                         ? aorta_json_get_double(wall) * 1000.0
                         : NAN;
    aorta_kagg_add_passing(cell, step_ms,
                           aorta_json_get(aorta_json_get(trial_json, "result"), "metrics"));
}

typedef struct trial_sum {
    aorta_kagg_table_t *table;
    double total;
    size_t row;        /* the row's position in its trial */
} trial_sum_t;

/* One row of a trial's table: the kernel name, its total (a number) and
 * its launches (an integer, else unknown). */
static void add_row(trial_sum_t *sum, const char *name, const aorta_json_t *ms,
                    const aorta_json_t *launches)
{
    size_t row_at = sum->row++;
    aorta_json_type_t type = aorta_json_type(ms);
    double value = type == AORTA_JSON_INT || type == AORTA_JSON_DOUBLE ? aorta_json_get_double(ms)
                                                                       : NAN;
    /* A hand-edited or foreign row is skipped, never averaged into a NaN;
     * so is a total past MAX_MS, which no run reaches and whose sums and
     * squares could overflow into one. */
    if (!name || !isfinite(value) || value < 0 || value > MAX_MS)
        return;
    /* As the cell's table will write it: names that differ only in invalid
     * bytes are one name (its first row counts) from this first read on. */
    char *fixed = aorta_json_utf8_or_null(name);
    aorta_kagg_kernel_t *kernel = kernel_for(sum->table, fixed ? fixed : name, row_at);
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
    if (aorta_json_type(launches) == AORTA_JSON_INT && aorta_json_get_int(launches) >= 0)
        kernel->launches_sum += (double)aorta_json_get_int(launches);
    else
        kernel->launches_unknown = 1;
    sum->total += value;
}

/* Schema 1: {"kernels": {name: [total_ms, launches]}}. */
static int add_pair(const char *name, aorta_json_t *row, void *user)
{
    int pair = aorta_json_type(row) == AORTA_JSON_ARRAY;
    add_row(user, name, pair ? aorta_json_at(row, 0) : NULL, pair ? aorta_json_at(row, 1) : NULL);
    return 0;
}

/* Schema 2: {"names": [...], "total_ms": [...], "launches": [...]}. */
static void add_columns(trial_sum_t *sum, const aorta_json_t *names, const aorta_json_t *total_ms,
                        const aorta_json_t *launches)
{
    size_t count = aorta_json_length(names);
    for (size_t i = 0; i < count; i++)
        add_row(sum, aorta_json_get_string(aorta_json_at(names, i)), aorta_json_at(total_ms, i),
                aorta_json_at(launches, i));
}

typedef struct trial_add {
    aorta_kagg_cell_t *cell;
    int schema;
} trial_add_t;

/* One table's rows (schema 1 or 2 and later) into table, then its total
 * as the trial's figure. */
static double add_table(aorta_kagg_table_t *table, const aorta_json_t *entry, int schema)
{
    trial_sum_t sum = {table, 0.0, 0};
    if (schema == 1)
        aorta_json_foreach(aorta_json_get(entry, "kernels"), add_pair, &sum);
    else
        add_columns(&sum, aorta_json_get(entry, "names"), aorta_json_get(entry, "total_ms"),
                    aorta_json_get(entry, "launches"));
    table->gpu_values = aorta_xrealloc(table->gpu_values,
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

static int rank_entry_ok(const aorta_json_t *entry)
{
    const aorta_json_t *rank = aorta_json_get(entry, "rank");
    return aorta_json_type(rank) == AORTA_JSON_INT && aorta_json_get_int(rank) >= 0
           && aorta_json_get_int(rank) <= 65535
           && aorta_json_type(aorta_json_get(entry, "names")) == AORTA_JSON_ARRAY
           && aorta_json_type(aorta_json_get(entry, "total_ms")) == AORTA_JSON_ARRAY;
}

/* Schema 3's "ranks": each rank's table into its own, and the trial's
 * imbalance (its slowest rank's total minus the ranks' mean). */
static void add_ranks(aorta_kagg_table_t *job, const aorta_json_t *ranks)
{
    size_t count = aorta_json_length(ranks), used = 0;
    double high = 0.0, sum = 0.0;
    for (size_t i = 0; i < count; i++) {
        const aorta_json_t *entry = aorta_json_at(ranks, i);
        if (!rank_entry_ok(entry))
            continue; /* a hand-edited or foreign entry */
        aorta_kagg_table_t *table =
            rank_table_for(job, (long)aorta_json_get_int(aorta_json_get(entry, "rank")), i);
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
    job->imbalance_values = aorta_xrealloc(job->imbalance_values,
                                           (job->imbalance_count + 1) * sizeof(double));
    job->imbalance_values[job->imbalance_count++] = round((high - sum / used) * 1e6) / 1e6;
}

static int add_collector(const char *collector, aorta_json_t *entry, void *user)
{
    trial_add_t *add = user;
    const aorta_json_t *kernels = aorta_json_get(entry, "kernels");
    const aorta_json_t *names = aorta_json_get(entry, "names");
    const aorta_json_t *total_ms = aorta_json_get(entry, "total_ms");
    /* An entry of another shape is not a table. */
    if (add->schema == 1 ? aorta_json_type(kernels) != AORTA_JSON_OBJECT
                         : aorta_json_type(names) != AORTA_JSON_ARRAY
                               || aorta_json_type(total_ms) != AORTA_JSON_ARRAY)
        return 0;
    aorta_kagg_table_t *table = table_for(add->cell, collector);
    const aorta_json_t *ranks = add->schema >= 3 ? aorta_json_get(entry, "ranks") : NULL;
    /* The ranks first: a rank's trial is counted against the job's. */
    if (aorta_json_type(ranks) == AORTA_JSON_ARRAY)
        add_ranks(table, ranks);
    add_table(table, entry, add->schema);
    return 0;
}

void aorta_kagg_add_trial(aorta_kagg_cell_t *cell, const aorta_json_t *collectors, int schema)
{
    trial_add_t add = {cell, schema};
    aorta_json_foreach(collectors, add_collector, &add);
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
    const aorta_kagg_table_t *a = left, *b = right;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

static void finish_table(aorta_kagg_table_t *table)
{
    double n = (double)table->trials;
    table->gpu_mean_ms = table->trials ? table->gpu_sum / n : 0.0;
    /* Exact sums: identical totals have a spread of exactly 0. */
    table->gpu_std_ms = table->trials ? aorta_stats_pstdev(table->gpu_values, table->trials)
                                      : 0.0;
    for (size_t k = 0; k < table->count; k++) {
        aorta_kagg_kernel_t *kernel = &table->kernels[k];
        if (kernel->values_len < table->trials)
            set_value(kernel, table->trials - 1, 0.0);
        kernel->mean_ms = kernel->sum_ms / n;
        if (kernel->trials < table->trials)
            kernel->min_ms = 0.0;
        kernel->mean_launches = kernel->launches_unknown ? -1.0 : kernel->launches_sum / n;
    }
    free(table->order);
    table->order = aorta_xcalloc(table->count ? table->count : 1, sizeof *table->order);
    ranked_t *ranked = aorta_xcalloc(table->count ? table->count : 1, sizeof *ranked);
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
static void fit_table(aorta_kagg_table_t *table)
{
    if (table->count && table->capacity > table->count) {
        table->kernels = aorta_xrealloc(table->kernels, table->count * sizeof *table->kernels);
        table->capacity = table->count;
    }
    if (table->rank_count && table->rank_capacity > table->rank_count) {
        table->ranks = aorta_xrealloc(table->ranks, table->rank_count * sizeof *table->ranks);
        table->rank_capacity = table->rank_count;
    }
    for (size_t r = 0; r < table->rank_count; r++)
        fit_table(&table->ranks[r]);
}

/* The cell's arrays cut to what they hold: --report keeps every cell of a
 * run until report.html is written, and a table or kernel array grown by
 * doubling holds up to eight slots of 112 and 120 bytes for one used. */
static void fit(aorta_kagg_cell_t *cell)
{
    if (cell->count && cell->capacity > cell->count) {
        cell->tables = aorta_xrealloc(cell->tables, cell->count * sizeof *cell->tables);
        cell->capacity = cell->count;
    }
    for (size_t t = 0; t < cell->count; t++)
        fit_table(&cell->tables[t]);
}

void aorta_kagg_finish(aorta_kagg_cell_t *cell)
{
    fit(cell);
    for (size_t t = 0; t < cell->count; t++)
        finish_table(&cell->tables[t]);
}

struct aorta_kagg_reader {
    aorta_json_reader_t *trial, *kernels;
};

aorta_kagg_reader_t *aorta_kagg_reader_new(void)
{
    aorta_kagg_reader_t *reader = aorta_xmalloc(sizeof *reader);
    reader->trial = aorta_json_reader_new(TRIAL_MAX_DEPTH);
    reader->kernels = aorta_json_reader_new(AORTA_KERNEL_FILE_MAX_DEPTH);
    return reader;
}

void aorta_kagg_reader_free(aorta_kagg_reader_t *reader)
{
    if (!reader)
        return;
    aorta_json_reader_free(reader->trial);
    aorta_json_reader_free(reader->kernels);
    free(reader);
}

void aorta_kagg_load_cell(int run_fd, const aorta_json_t *json, aorta_kagg_cell_t *cell,
                          aorta_kagg_reader_t *reader)
{
    aorta_kagg_reader_t *own = reader ? NULL : aorta_kagg_reader_new();
    if (own)
        reader = own;
    const char *name = aorta_json_get_string(aorta_json_get(json, "name"));
    cell->name = aorta_xstrdup(name ? name : "?");
    int64_t trials = aorta_json_get_int(aorta_json_get(json, "trials"));
    int64_t warmup = aorta_json_get_int(aorta_json_get(json, "warmup_trials"));
    cell->warmup = warmup > 0 ? (size_t)warmup : 0; /* their records are not read */
    char *sub_rel = aorta_workload_dir_rel(cell->name);
    char *why = NULL;
    int sub_fd = name ? aorta_nofollow_open_dir(run_fd, sub_rel, 0, &why) : -1;
    for (int64_t t = 0; sub_fd >= 0 && t < trials && t < 1000000; t++) {
        char *rel = aorta_trial_json_rel(name, (int)t);
        const char *trial_name = strrchr(rel, '/') + 1;
        aorta_json_t *trial = aorta_json_reader_read_at(reader->trial, sub_fd, trial_name,
                                                        TRIAL_MAX_BYTES);
        const char *verdict = trial ? aorta_outcome_verdict(trial) : "";
        /* A warm-up record where a measured one should be: left out. */
        if (trial && !aorta_json_get_bool(aorta_json_get(trial, "warmup"))) {
            cell->trials++;
            cell->failed += !strcmp(verdict, "fail");
            cell->errored += !strcmp(verdict, "error");
            if (!strcmp(verdict, "pass")) {
                cell->passing++;
                if (!cell->first_passing)
                    cell->first_passing = t + 1;
                aorta_kagg_add_samples(cell, trial);
                char *kname = aorta_kernel_file_path(trial_name);
                aorta_json_t *file = aorta_json_reader_read_at(reader->kernels, sub_fd, kname,
                                                               AORTA_KERNEL_FILE_MAX_BYTES);
                int schema = 0;
                const aorta_json_t *collectors = aorta_kernel_file_collectors(file, &schema);
                aorta_kagg_add_trial(cell, collectors, schema);
                aorta_json_free(file);
                free(kname);
            }
            aorta_json_free(trial);
        }
        free(rel);
    }
    if (sub_fd >= 0)
        close(sub_fd);
    free(why);
    free(sub_rel);
    aorta_kagg_finish(cell);
    aorta_kagg_reader_free(own);
}

typedef struct load {
    int run_fd;
    const aorta_json_t *cells;
    aorta_kagg_run_t *run;
} load_t;

static void *load_begin(void *user)
{
    (void)user;
    return aorta_kagg_reader_new();
}

static void load_end(void *reader)
{
    aorta_kagg_reader_free(reader);
}

static void load_one(size_t i, void *reader, void *user)
{
    load_t *load = user;
    aorta_kagg_load_cell(load->run_fd, aorta_json_at(load->cells, i), &load->run->cells[i],
                         reader);
}

void aorta_kagg_load(int run_fd, const aorta_json_t *matrix, const char *baseline,
                     aorta_kagg_run_t *run)
{
    memset(run, 0, sizeof *run);
    const aorta_json_t *cells = aorta_json_get(matrix, "cells");
    run->count = aorta_json_length(cells);
    run->cells = aorta_xcalloc(run->count ? run->count : 1, sizeof *run->cells);
    /* Cells are independent: thousands of them are read on every CPU. */
    load_t load = {run_fd, cells, run};
    aorta_parallel_t loop = {.count = run->count, .per_worker = 64, .begin = load_begin,
                             .end = load_end, .item = load_one, .user = &load};
    aorta_parallel_run(&loop);
    aorta_kagg_pick_baseline(run, matrix, baseline);
}

void aorta_kagg_pick_baseline(aorta_kagg_run_t *run, const aorta_json_t *matrix,
                              const char *baseline)
{
    if (!baseline)
        baseline = aorta_json_get_string(aorta_json_get(matrix, "baseline_cell"));
    if (!baseline && run->count)
        baseline = run->cells[0].name;
    free(run->baseline);
    run->baseline = baseline ? aorta_xstrdup(baseline) : NULL;
    /* Looked up by name once per cell and run compared: an index keeps
     * --compare of many cells linear. */
    aorta_keyindex_clear(&run->names);
    for (size_t i = 0; i < run->count; i++)
        aorta_keyindex_add(&run->names, run->cells[i].name, i);
    run->indexed = 1;
}

const aorta_kagg_cell_t *aorta_kagg_cell(const aorta_kagg_run_t *run, const char *name)
{
    if (name && run->indexed) {
        size_t at = aorta_keyindex_find(&run->names, name);
        return at == AORTA_KEYINDEX_NONE ? NULL : &run->cells[at];
    }
    for (size_t i = 0; name && i < run->count; i++)
        if (!strcmp(run->cells[i].name, name))
            return &run->cells[i];
    return NULL;
}

const aorta_kagg_table_t *aorta_kagg_table(const aorta_kagg_cell_t *cell, const char *collector)
{
    for (size_t i = 0; cell && i < cell->count; i++)
        if (!strcmp(cell->tables[i].collector, collector))
            return &cell->tables[i];
    return NULL;
}

const aorta_kagg_kernel_t *aorta_kagg_kernel(const aorta_kagg_table_t *table, const char *name)
{
    if (!table || !table->slot_count)
        return NULL;
    size_t len = strlen(name);
    size_t slot = find_slot(table, name, len, hash_name(name, len));
    return table->slots[slot] ? &table->kernels[table->slots[slot] - 1] : NULL;
}

const aorta_kagg_table_t *aorta_kagg_rank_table(const aorta_kagg_table_t *table, long rank)
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

static aorta_json_t *spread(double mean, double min, double max, double std)
{
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "mean", aorta_json_micro(mean));
    aorta_json_set(obj, "min", aorta_json_micro(min));
    aorta_json_set(obj, "max", aorta_json_micro(max));
    aorta_json_set(obj, "std", aorta_json_micro(std));
    return obj;
}

/* A table's rows, largest first, as {name: {mean_ms, ...}}. */
static aorta_json_t *kernels_json(const aorta_kagg_table_t *table)
{
    aorta_json_t *kernels = aorta_json_object();
    for (size_t k = 0; k < table->count; k++) {
        const aorta_kagg_kernel_t *kernel = &table->kernels[table->order[k]];
        aorta_json_t *row = aorta_json_object();
        aorta_json_set(row, "mean_ms", aorta_json_micro(kernel->mean_ms));
        aorta_json_set(row, "min_ms", aorta_json_micro(kernel->min_ms));
        aorta_json_set(row, "max_ms", aorta_json_micro(kernel->max_ms));
        aorta_json_set(row, "mean_launches",
                       kernel->mean_launches >= 0 ? aorta_json_micro(kernel->mean_launches) : NULL);
        aorta_json_set(row, "trials", aorta_json_int((int64_t)kernel->trials));
        aorta_json_set(kernels, kernel->name, row);
    }
    return kernels;
}

aorta_json_t *aorta_kagg_cell_json(const aorta_kagg_cell_t *cell)
{
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "schema_version", aorta_json_int(AORTA_CELL_KERNELS_SCHEMA));
    aorta_json_set(obj, "cell", aorta_json_string(cell->name));
    aorta_json_set(obj, "trials", aorta_json_int((int64_t)cell->trials));
    aorta_json_set(obj, "passing_trials", aorta_json_int((int64_t)cell->passing));
    aorta_json_t *collectors = aorta_json_object();
    for (size_t t = 0; t < cell->count; t++) {
        const aorta_kagg_table_t *table = &cell->tables[t];
        aorta_json_t *entry = aorta_json_object();
        aorta_json_set(entry, "trials", aorta_json_int((int64_t)table->trials));
        aorta_json_set(entry, "gpu_time_ms", spread(table->gpu_mean_ms, table->gpu_min,
                                                    table->gpu_max, table->gpu_std_ms));
        aorta_json_set(entry, "kernels", kernels_json(table));
        if (table->rank_count) {
            aorta_json_t *ranks = aorta_json_array();
            for (size_t r = 0; r < table->rank_count; r++) {
                const aorta_kagg_table_t *rank = &table->ranks[r];
                aorta_json_t *item = aorta_json_object();
                aorta_json_set(item, "rank", aorta_json_int(rank->rank));
                aorta_json_set(item, "trials", aorta_json_int((int64_t)rank->trials));
                aorta_json_set(item, "gpu_time_ms", spread(rank->gpu_mean_ms, rank->gpu_min,
                                                           rank->gpu_max, rank->gpu_std_ms));
                aorta_json_set(item, "kernels", kernels_json(rank));
                aorta_json_append(ranks, item);
            }
            aorta_json_set(entry, "ranks", ranks);
        }
        aorta_json_set(collectors, table->collector, entry);
    }
    aorta_json_set(obj, "collectors", collectors);
    return obj;
}

/* Whether every key of the cell's JSON is written as it is: two names
 * that are not UTF-8 can become one key, which only the tree merges. */
static int keys_kept(const aorta_kagg_cell_t *cell)
{
    for (size_t t = 0; t < cell->count; t++) {
        const aorta_kagg_table_t *table = &cell->tables[t];
        if (!aorta_json_key_is_kept(table->collector))
            return 0;
        for (size_t k = 0; k < table->count; k++)
            if (!aorta_json_key_is_kept(table->kernels[k].name))
                return 0;
        for (size_t r = 0; r < table->rank_count; r++)
            for (size_t k = 0; k < table->ranks[r].count; k++)
                if (!aorta_json_key_is_kept(table->ranks[r].kernels[k].name))
                    return 0;
    }
    return 1;
}

static void write_spread(aorta_json_writer_t *out, double mean, double min, double max,
                         double std)
{
    aorta_json_writer_begin_object(out);
    aorta_json_writer_key(out, "mean");
    aorta_json_writer_micro(out, mean);
    aorta_json_writer_key(out, "min");
    aorta_json_writer_micro(out, min);
    aorta_json_writer_key(out, "max");
    aorta_json_writer_micro(out, max);
    aorta_json_writer_key(out, "std");
    aorta_json_writer_micro(out, std);
    aorta_json_writer_end_object(out);
}

/* kernels_json()'s text. */
static void write_kernels(aorta_json_writer_t *out, const aorta_kagg_table_t *table)
{
    aorta_json_writer_begin_object(out);
    for (size_t k = 0; k < table->count; k++) {
        const aorta_kagg_kernel_t *kernel = &table->kernels[table->order[k]];
        aorta_json_writer_key(out, kernel->name);
        aorta_json_writer_begin_object(out);
        aorta_json_writer_key(out, "mean_ms");
        aorta_json_writer_micro(out, kernel->mean_ms);
        aorta_json_writer_key(out, "min_ms");
        aorta_json_writer_micro(out, kernel->min_ms);
        aorta_json_writer_key(out, "max_ms");
        aorta_json_writer_micro(out, kernel->max_ms);
        aorta_json_writer_key(out, "mean_launches");
        if (kernel->mean_launches >= 0)
            aorta_json_writer_micro(out, kernel->mean_launches);
        else
            aorta_json_writer_null(out);
        aorta_json_writer_key(out, "trials");
        aorta_json_writer_int(out, (int64_t)kernel->trials);
        aorta_json_writer_end_object(out);
    }
    aorta_json_writer_end_object(out);
}

/* One table's members after its collector's key or inside a rank's item. */
static void write_table(aorta_json_writer_t *out, const aorta_kagg_table_t *table)
{
    aorta_json_writer_key(out, "trials");
    aorta_json_writer_int(out, (int64_t)table->trials);
    aorta_json_writer_key(out, "gpu_time_ms");
    write_spread(out, table->gpu_mean_ms, table->gpu_min, table->gpu_max, table->gpu_std_ms);
    aorta_json_writer_key(out, "kernels");
    write_kernels(out, table);
}

/* aorta_kagg_cell_json()'s text, member by member. */
static void write_cell(aorta_json_writer_t *out, const aorta_kagg_cell_t *cell)
{
    aorta_json_writer_reset(out);
    aorta_json_writer_begin_object(out);
    aorta_json_writer_key(out, "schema_version");
    aorta_json_writer_int(out, AORTA_CELL_KERNELS_SCHEMA);
    aorta_json_writer_key(out, "cell");
    aorta_json_writer_string(out, cell->name);
    aorta_json_writer_key(out, "trials");
    aorta_json_writer_int(out, (int64_t)cell->trials);
    aorta_json_writer_key(out, "passing_trials");
    aorta_json_writer_int(out, (int64_t)cell->passing);
    aorta_json_writer_key(out, "collectors");
    aorta_json_writer_begin_object(out);
    for (size_t t = 0; t < cell->count; t++) {
        const aorta_kagg_table_t *table = &cell->tables[t];
        aorta_json_writer_key(out, table->collector);
        aorta_json_writer_begin_object(out);
        write_table(out, table);
        if (table->rank_count) {
            aorta_json_writer_key(out, "ranks");
            aorta_json_writer_begin_array(out);
            for (size_t r = 0; r < table->rank_count; r++) {
                aorta_json_writer_item(out);
                aorta_json_writer_begin_object(out);
                aorta_json_writer_key(out, "rank");
                aorta_json_writer_int(out, table->ranks[r].rank);
                write_table(out, &table->ranks[r]);
                aorta_json_writer_end_object(out);
            }
            aorta_json_writer_end_array(out);
        }
        aorta_json_writer_end_object(out);
    }
    aorta_json_writer_end_object(out);
    aorta_json_writer_end_object(out);
}

void aorta_kagg_cell_text(const aorta_kagg_cell_t *cell, aorta_json_writer_t *writer)
{
    write_cell(writer, cell);
}

int aorta_kagg_cell_write_at(int dir_fd, const char *name, const aorta_kagg_cell_t *cell,
                             aorta_json_writer_t *writer, char **error)
{
    if (keys_kept(cell)) {
        write_cell(writer, cell);
    } else {
        aorta_json_t *json = aorta_kagg_cell_json(cell);
        aorta_json_writer_reset(writer);
        aorta_json_writer_value(writer, json);
        aorta_json_free(json);
    }
    if (aorta_json_writer_write_at(writer, dir_fd, name) == 0)
        return 0;
    char reason[256]; /* cells are written on several threads */
    *error = aorta_xstrdup(strerror_r(errno, reason, sizeof reason));
    return -1;
}

static void table_clear(aorta_kagg_table_t *table)
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

void aorta_kagg_cell_clear(aorta_kagg_cell_t *cell)
{
    for (size_t t = 0; t < cell->count; t++)
        table_clear(&cell->tables[t]);
    free(cell->tables);
    for (size_t i = 0; i < cell->metric_count; i++) {
        free(cell->metrics[i].name);
        free(cell->metrics[i].values);
    }
    free(cell->metrics);
    free(cell->step_ms.values);
    free(cell->name);
    free(cell->lanes);
    memset(cell, 0, sizeof *cell);
}

void aorta_kagg_run_clear(aorta_kagg_run_t *run)
{
    for (size_t i = 0; i < run->count; i++)
        aorta_kagg_cell_clear(&run->cells[i]);
    free(run->cells);
    free(run->baseline);
    aorta_keyindex_clear(&run->names);
    memset(run, 0, sizeof *run);
}
