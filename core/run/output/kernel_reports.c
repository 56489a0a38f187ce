/* SPDX-License-Identifier: MIT */
/* kernel_reports.c - the kernel tables' reports, from the records alone. */
#include "config.h"

#include "output/kernel_reports.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/kernel_agg.h"
#include "output/kernel_md.h"
#include "output/report_html.h"
#include "sys/files.h"
#include "sys/nofollow.h"
#include "xalloc.h"

/* Cells are independent: each worker takes the next one, reads its
 * trials, and writes its kernels.json.  Reading the tables (json-c) is most
 * of a large run's time; nothing but the counter and the first error is
 * shared. */
#define MAX_WORKERS 8

typedef struct work {
    int run_fd;
    const aorta_json_t *cells;
    aorta_kagg_run_t *run;
    size_t next;
    char *error;
    pthread_mutex_t lock;
} work_t;

static void note_failure(work_t *work, const char *cell, const char *why)
{
    pthread_mutex_lock(&work->lock);
    if (!work->error)
        work->error = aorta_xasprintf("cannot write %s/kernels.json: %s", cell, why);
    pthread_mutex_unlock(&work->lock);
}

/* What one worker reuses from cell to cell. */
typedef struct worker_tools {
    aorta_kagg_reader_t *reader;
    aorta_json_writer_t *writer;
} worker_tools_t;

static void one_cell(work_t *work, size_t i, worker_tools_t *tools)
{
    aorta_kagg_cell_t *cell = &work->run->cells[i];
    aorta_kagg_load_cell(work->run_fd, aorta_json_at(work->cells, i), cell, tools->reader);
    if (cell->count == 0)
        return;
    /* Below the run directory without following a symlink, whatever the
     * payload made of its cell. */
    char *why = NULL;
    int cell_fd = aorta_fsafe_open_dir(work->run_fd, cell->name, 0, &why);
    if (cell_fd < 0) {
        note_failure(work, cell->name, why);
    } else if (aorta_kagg_cell_write_at(cell_fd, "kernels.json", cell, tools->writer) != 0) {
        char reason[256];
        note_failure(work, cell->name, strerror_r(errno, reason, sizeof reason));
    }
    if (cell_fd >= 0)
        close(cell_fd);
    free(why);
}

static void *worker(void *user)
{
    work_t *work = user;
    worker_tools_t tools = {aorta_kagg_reader_new(), aorta_json_writer_new()};
    for (;;) {
        pthread_mutex_lock(&work->lock);
        size_t i = work->next++;
        pthread_mutex_unlock(&work->lock);
        if (i >= work->run->count)
            break;
        one_cell(work, i, &tools);
    }
    aorta_kagg_reader_free(tools.reader);
    aorta_json_writer_free(tools.writer);
    return NULL;
}

char *aorta_kernel_reports(int run_fd, const aorta_json_t *matrix, const char *baseline,
                           char **error)
{
    aorta_kagg_run_t run = {0};
    work_t work = {.run_fd = run_fd, .cells = aorta_json_get(matrix, "cells"), .run = &run};
    pthread_mutex_init(&work.lock, NULL);
    run.count = aorta_json_length(work.cells);
    run.cells = aorta_xcalloc(run.count ? run.count : 1, sizeof *run.cells);
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
    aorta_kagg_pick_baseline(&run, matrix, baseline);
    *error = work.error;
    char *html = aorta_report_html(matrix, &run);
    if (aorta_write_file_atomic_at(run_fd, "report.html", html, strlen(html)) != 0 && !*error)
        *error = aorta_xasprintf("cannot write report.html: %s", strerror(errno));
    free(html);
    char *section = aorta_kernel_md(&run);
    aorta_kagg_run_clear(&run);
    return section;
}
