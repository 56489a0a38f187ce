/* SPDX-License-Identifier: MIT */
/* cell_reports.c - the kernel tables' reports per cell, from the records alone. */
#include "config.h"

#include "report/cell_reports.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/kernel_agg.h"
#include "kernels/rank_view.h"
#include "report/kernel_md.h"
#include "kernels/kernel_names.h"
#include "report/lane_svg.h"
#include "record/timeline.h"
#include "record/layout.h"
#include "report/report_html.h"
#include "sys/files.h"
#include "sys/spawn.h"
#include "sys/nofollow.h"
#include "xalloc.h"

/* Cells are independent once the baseline cell is in: each worker takes
 * the next one, reads its trials, writes its kernels.json and renders its
 * perf.md tables, so every CPU stays busy until only report.html is left.
 * Reading the tables (json-c) is most of a large run's time; nothing but
 * the counter and the first error is shared. */
#define MAX_WORKERS 8
/* The cells' perf.md tables are kept in blocks of this size (pool_keep()). */
#define POOL_BLOCK ((size_t)1 << 20)

/* Text kept to the end, one string after another in large blocks: each
 * cell's tables are rendered between the churn of reading the next cells,
 * and 10^5 of them as small strings of their own left the heap holding
 * more in holes than in use (docs/design.md, Budgets). */
typedef struct pool_block {
    struct pool_block *next;
    size_t used, size;
    char data[];
} pool_block_t;

static const char *pool_keep(pool_block_t **pool, const char *text)
{
    size_t len = strlen(text) + 1;
    pool_block_t *block = *pool;
    if (!block || block->size - block->used < len) {
        size_t size = len > POOL_BLOCK ? len : POOL_BLOCK;
        block = ar_xmalloc(sizeof *block + size);
        *block = (pool_block_t){.next = *pool, .size = size};
        *pool = block;
    }
    char *kept = memcpy(block->data + block->used, text, len);
    block->used += len;
    return kept;
}

static void pool_free(pool_block_t *pool)
{
    while (pool) {
        pool_block_t *next = pool->next;
        free(pool);
        pool = next;
    }
}

typedef struct work {
    int run_fd;
    const char *display_dir;
    const ar_json_t *cells;
    ar_kagg_run_t *run;
    const ar_kagg_cell_t *baseline;   /* loaded before the workers start, or NULL */
    const char **sections;               /* each cell's perf.md tables, in pool */
    pool_block_t *pool;                  /* the workers' blocks, once each is done */
    ar_json_t **rank_views;           /* each cell's rank views for matrix.json, or NULL */
    size_t next;
    int interrupted;                     /* the signal that stopped the work, else 0 */
    char *error;
    pthread_mutex_t lock;
} work_t;

/* What one worker reuses from cell to cell. */
typedef struct tools {
    ar_kagg_reader_t *reader;
    ar_json_writer_t *writer;
    ar_kernel_names_t *names;
    pool_block_t *pool;
} tools_t;

static void tools_init(tools_t *tools)
{
    tools->reader = ar_kagg_reader_new();
    tools->writer = ar_json_writer_new();
    tools->names = ar_kernel_names_new();
    tools->pool = NULL;
}

/* The worker's tools freed, its pool handed to work (kept to the end). */
static void tools_clear(tools_t *tools, work_t *work)
{
    pthread_mutex_lock(&work->lock);
    while (tools->pool) {
        pool_block_t *next = tools->pool->next;
        tools->pool->next = work->pool;
        work->pool = tools->pool;
        tools->pool = next;
    }
    pthread_mutex_unlock(&work->lock);
    ar_kagg_reader_free(tools->reader);
    ar_json_writer_free(tools->writer);
    ar_kernel_names_free(tools->names);
}

static void note_failure(work_t *work, const char *cell, const char *why)
{
    pthread_mutex_lock(&work->lock);
    if (!work->error)
        work->error = ar_xasprintf("cannot write %s/%s/kernels.json: %s", work->display_dir,
                                      cell, why);
    pthread_mutex_unlock(&work->lock);
}

/* The first passing trial's timeline as report.html's lane chart, when it
 * has one (reached without following a symlink, like every record). */
static void draw_lanes(int run_fd, ar_kagg_cell_t *cell)
{
    if (!cell->first_passing)
        return;
    char *sub_rel = ar_workload_dir_rel(cell->name), *why = NULL;
    int sub_fd = ar_nofollow_open_dir(run_fd, sub_rel, 0, &why);
    if (sub_fd >= 0) {
        char *json_rel = ar_trial_json_rel(cell->name, (int)(cell->first_passing - 1));
        char *name = ar_timeline_path(strrchr(json_rel, '/') + 1);
        cell->lanes = ar_lane_svg_at(sub_fd, name);
        free(name);
        free(json_rel);
        close(sub_fd);
    }
    free(why);
    free(sub_rel);
}

static void load_and_write(work_t *work, size_t i, tools_t *tools)
{
    ar_kagg_cell_t *cell = &work->run->cells[i];
    ar_kagg_load_cell(work->run_fd, work->display_dir, ar_json_at(work->cells, i), cell,
                      tools->reader);
    if (cell->count == 0)
        return;
    work->rank_views[i] = ar_rank_views_json(cell);
    /* Below the run directory without following a symlink, whatever the
     * payload made of its cell. */
    char *why = NULL;
    int cell_fd = ar_nofollow_open_dir(work->run_fd, cell->name, 0, &why);
    if (cell_fd < 0) {
        note_failure(work, cell->name, why);
    } else if (ar_kagg_cell_write_at(cell_fd, "kernels.json", cell, tools->writer, &why) != 0) {
        note_failure(work, cell->name, why);
    }
    if (cell_fd >= 0)
        close(cell_fd);
    free(why);
    draw_lanes(work->run_fd, cell);
}

static void render(work_t *work, size_t i, tools_t *tools)
{
    char *tables = ar_kernel_md_cell(&work->run->cells[i], work->baseline, tools->names);
    work->sections[i] = pool_keep(&tools->pool, tables);
    free(tables);
}

static void *worker(void *user)
{
    work_t *work = user;
    tools_t tools;
    tools_init(&tools);
    for (;;) {
        /* The user asked to stop: no cell more (a cell takes milliseconds). */
        int sig = ar_spawn_peek_interrupt();
        pthread_mutex_lock(&work->lock);
        if (sig && !work->interrupted)
            work->interrupted = sig;
        size_t i = work->interrupted ? work->run->count : work->next++;
        pthread_mutex_unlock(&work->lock);
        if (i >= work->run->count)
            break;
        if (&work->run->cells[i] == work->baseline)
            continue; /* done before the workers started */
        load_and_write(work, i, &tools);
        render(work, i, &tools);
    }
    tools_clear(&tools, work);
    return NULL;
}

/* The first cell named as ar_kagg_pick_baseline() picks, before any is
 * loaded (a cell is named "?" without a name), or SIZE_MAX. */
static size_t baseline_index(const ar_json_t *cells, const ar_json_t *matrix,
                             const char *baseline)
{
    if (!baseline)
        baseline = ar_json_get_string(ar_json_get(matrix, "baseline_cell"));
    for (size_t i = 0; i < ar_json_length(cells); i++) {
        const char *name = ar_json_get_string(ar_json_get(ar_json_at(cells, i), "name"));
        if (!baseline || !strcmp(name ? name : "?", baseline))
            return i;
    }
    return SIZE_MAX;
}

/* Each cell's rank views into its matrix.json entry, and a view the
 * tables no longer give out (a stale or planted "ranks" would outlive them
 * in matrix.json while perf.md and report.html show none); the count of
 * cells changed so, for the caller to write matrix.json again. */
static size_t attach_rank_views(work_t *work)
{
    size_t changed = 0;
    for (size_t i = 0; i < work->run->count; i++) {
        ar_json_t *cell = ar_json_at(work->cells, i);
        if (work->rank_views[i]) {
            ar_json_set(cell, "ranks", work->rank_views[i]);
            changed++;
        } else if (ar_json_has(cell, "ranks")) {
            ar_json_remove(cell, "ranks");
            changed++;
        }
    }
    free(work->rank_views);
    work->rank_views = NULL;
    return changed;
}

char *ar_cell_reports_write(int run_fd, const char *display_dir, ar_json_t *matrix,
                               const char *baseline, char **error, int *interrupted,
                               size_t *rank_cells)
{
    ar_kagg_run_t run = {0};
    work_t work = {.run_fd = run_fd, .display_dir = display_dir,
                   .cells = ar_json_get(matrix, "cells"), .run = &run};
    pthread_mutex_init(&work.lock, NULL);
    run.count = ar_json_length(work.cells);
    run.cells = ar_xcalloc(run.count ? run.count : 1, sizeof *run.cells);
    work.sections = ar_xcalloc(run.count ? run.count : 1, sizeof *work.sections);
    work.rank_views = ar_xcalloc(run.count ? run.count : 1, sizeof *work.rank_views);
    *rank_cells = 0;
    /* The baseline first: every other cell's tables compare with it. */
    size_t base = baseline_index(work.cells, matrix, baseline);
    if (base < run.count) {
        tools_t tools;
        tools_init(&tools);
        load_and_write(&work, base, &tools);
        work.baseline = &run.cells[base];
        render(&work, base, &tools);
        tools_clear(&tools, &work);
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t workers = cpus > 1 ? (size_t)cpus : 1;
    if (workers > MAX_WORKERS)
        workers = MAX_WORKERS;
    if (workers > run.count / 16 + 1) /* a small run is not worth a thread */
        workers = run.count / 16 + 1;
    pthread_t threads[MAX_WORKERS];
    size_t started = 0;
    for (size_t i = 1; i < workers; i++)
        if (pthread_create(&threads[started], NULL, worker, &work) == 0)
            started++;
    worker(&work);
    for (size_t i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&work.lock);
    *error = work.error;
    *interrupted = work.interrupted;
    *rank_cells = attach_rank_views(&work);
    if (work.interrupted) {
        pool_free(work.pool);
        free(work.sections);
        ar_kagg_run_clear(&run);
        return NULL;
    }
    ar_kagg_pick_baseline(&run, matrix, baseline);
    char *html = ar_report_html(matrix, &run);
    if (ar_write_file_atomic_at(run_fd, "report.html", html, strlen(html)) != 0 && !*error)
        *error = ar_xasprintf("cannot write %s/report.html: %s", display_dir, strerror(errno));
    free(html);
    /* perf.md's section: the opening paragraph before the first cell with
     * a table, then every cell's tables in matrix.json's order. */
    size_t len = 0;
    for (size_t i = 0; i < run.count; i++)
        len += strlen(work.sections[i]);
    char *intro = len ? ar_kernel_md_intro(run.baseline) : ar_xstrdup("");
    size_t intro_len = strlen(intro);
    char *section = ar_xmalloc(intro_len + len + 1);
    memcpy(section, intro, intro_len);
    len = intro_len;
    for (size_t i = 0; i < run.count; i++) {
        size_t part = strlen(work.sections[i]);
        memcpy(section + len, work.sections[i], part);
        len += part;
    }
    section[len] = '\0';
    free(intro);
    pool_free(work.pool);
    free(work.sections);
    ar_kagg_run_clear(&run);
    return section;
}
