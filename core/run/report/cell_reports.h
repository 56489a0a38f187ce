/* SPDX-License-Identifier: MIT */
/* cell_reports.h - what a run's kernel tables turn into, cell by cell,
 * written the same way after a sweep and by --report: <cell>/kernels.json
 * per cell with a table, report.html, and perf.md's kernel section. */
#ifndef AR_CELL_REPORTS_H
#define AR_CELL_REPORTS_H

#include <stddef.h>

#include "sys/json.h"

/* Aggregate the trial records below the run directory run_fd (display_dir:
 * how the user named it, for the messages) for matrix (matrix.json's object;
 * baseline overrides its baseline_cell when not NULL), write the cells'
 * kernels.json and report.html, and return perf.md's kernel section
 * ("" without tables; free it).  A file that cannot be written sets *error
 * (the first such; free it) and the rest are still written.  A SIGINT or
 * SIGTERM pending for aorta-run stops the work between two cells (it stays
 * pending): *interrupted is set to it, report.html is not written and NULL
 * is returned; otherwise *interrupted is 0.  Each cell of matrix whose
 * collectors have ranks gets their rank view as "ranks" ({collector:
 * view}, kernels/rank_view.h; removed from a cell without, so a view no
 * table gives is never kept); *rank_cells is the count of cells given one or
 * stripped of one, for the caller to write matrix.json again. */
char *ar_cell_reports_write(int run_fd, const char *display_dir, ar_json_t *matrix,
                               const char *baseline, char **error, int *interrupted,
                               size_t *rank_cells);

#endif
