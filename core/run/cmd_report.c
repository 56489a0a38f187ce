/* SPDX-License-Identifier: MIT */
/* cmd_report.c - --report RUN_DIR: perf.md, report.html and the cells'
 * kernels.json again, from matrix.json and the trial records alone (an old
 * or resumed run gets them too).  Under the run lock, so a live aorta-run
 * writing the directory is refused.  SIGINT or SIGTERM stops it between two
 * cells (exit 128 + the signal). */
#include "config.h"

#include "commands.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/json.h"
#include "report/cell_reports.h"
#include "report/matrix.h"
#include "report/perf_md.h"
#include "record/lock.h"
#include "sys/files.h"
#include "xalloc.h"

#define MATRIX_MAX_BYTES (256u << 20)
#define MATRIX_MAX_DEPTH 64

/* matrix.json of run_dir, or NULL after one error line. */
ar_json_t *ar_cmd_read_matrix(const char *run_dir)
{
    char *path = ar_xasprintf("%s/matrix.json", run_dir);
    ar_json_t *matrix = ar_json_read_file(path, MATRIX_MAX_BYTES, MATRIX_MAX_DEPTH);
    if (!matrix || ar_json_type(ar_json_get(matrix, "cells")) != AR_JSON_ARRAY) {
        ar_diag_error("%s is not a run directory: cannot read %s%s%s", run_dir, path,
                         errno ? ": " : "", errno ? strerror(errno) : "");
        ar_json_free(matrix);
        matrix = NULL;
    }
    char *problem = matrix ? ar_matrix_cells_problem(matrix) : NULL;
    if (problem) {
        ar_diag_error("%s is not a run directory: %s: %s", run_dir, path, problem);
        free(problem);
        ar_json_free(matrix);
        matrix = NULL;
    }
    free(path);
    return matrix;
}

int ar_cmd_open_run(const char *run_dir)
{
    int fd = open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        ar_diag_error("cannot open the run directory %s: %s", run_dir, strerror(errno));
    return fd;
}

static int has_cell(const ar_json_t *matrix, const char *name)
{
    const ar_json_t *cells = ar_json_get(matrix, "cells");
    for (size_t i = 0; i < ar_json_length(cells); i++) {
        const char *cell = ar_json_get_string(ar_json_get(ar_json_at(cells, i), "name"));
        if (cell && !strcmp(cell, name))
            return 1;
    }
    return 0;
}

int ar_cmd_report(const ar_cli_t *cli)
{
    const char *run_dir = cli->run_a;
    errno = 0;
    ar_json_t *matrix = ar_cmd_read_matrix(run_dir);
    if (!matrix)
        return AR_EXIT_FAILED;
    if (cli->baseline && !has_cell(matrix, cli->baseline)) {
        ar_diag_error("--baseline: %s has no cell '%s'", run_dir, cli->baseline);
        ar_json_free(matrix);
        return AR_EXIT_USAGE;
    }
    ar_lock_t *lock = ar_lock_acquire(run_dir);
    if (!lock) {
        ar_json_free(matrix);
        return AR_EXIT_FAILED;
    }
    int run_fd = ar_cmd_open_run(run_dir);
    if (run_fd < 0) {
        ar_lock_release(lock);
        ar_json_free(matrix);
        return AR_EXIT_FAILED;
    }
    char *error = NULL;
    int interrupted = 0;
    size_t rank_cells = 0;
    char *kernels = ar_cell_reports_write(run_fd, run_dir, matrix, cli->baseline, &error,
                                             &interrupted, &rank_cells);
    int status = AR_EXIT_OK;
    /* The rank views are matrix.json's too (docs/multi-rank.md). */
    if (rank_cells && !interrupted
        && ar_json_write_file_at(run_fd, "matrix.json", matrix) != 0) {
        ar_diag_error("cannot write %s/matrix.json: %s", run_dir, strerror(errno));
        status = AR_EXIT_FAILED;
    }
    if (error) {
        ar_diag_error("%s", error);
        free(error);
        status = AR_EXIT_FAILED;
    }
    if (interrupted) {
        ar_diag_reports_interrupted(interrupted, run_dir);
        close(run_fd);
        ar_lock_release(lock);
        ar_json_free(matrix);
        return 128 + interrupted;
    }
    char *perf = ar_perf_md(matrix, -1.0, cli->baseline); /* the wall time matrix.json recorded */
    /* kernels is the most of it (10^5 cells: 190 MB): perf goes in front
     * of it where it lies, not into a third copy grown by doubling. */
    size_t perf_len = strlen(perf), kernels_len = strlen(kernels);
    char *text = ar_xrealloc(kernels, perf_len + kernels_len + 1);
    kernels = NULL;
    memmove(text + perf_len, text, kernels_len + 1);
    memcpy(text, perf, perf_len);
    char *path = ar_xasprintf("%s/perf.md", run_dir);
    if (ar_write_file_atomic_at(run_fd, "perf.md", text, perf_len + kernels_len) != 0) {
        ar_diag_error("cannot write %s: %s", path, strerror(errno));
        status = AR_EXIT_FAILED;
    } else {
        printf("Performance report: %s\nVisual report: %s/report.html\n", path, run_dir);
    }
    free(path);
    free(text);
    free(perf);
    free(kernels);
    close(run_fd);
    ar_lock_release(lock);
    ar_json_free(matrix);
    return status;
}
