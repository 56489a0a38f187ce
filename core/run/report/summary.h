/* SPDX-License-Identifier: MIT */
/* summary.h - the end-of-run summary aorta-run prints on stdout. */
#ifndef AR_SUMMARY_H
#define AR_SUMMARY_H

#include <stdio.h>

#include "report/matrix.h"
#include "recipe/plan.h"

/* How many cells are clean (every trial passed), failing (a trial
 * failed) and erroring (errors only, or the cell did not run), one line per
 * cell that is not clean, the run's wall time, where matrix.json and
 * perf.md are, and the run directory last.  interrupted is the signal that
 * stopped the sweep, or 0.  missing says what could not be written
 * (AORTA_SUMMARY_NO_*, reported already): the summary never names a file
 * that is not there.  wall_sec is the run's wall time. */
#define AR_SUMMARY_NO_MATRIX 1
#define AR_SUMMARY_NO_PERF 2
#define AR_SUMMARY_INCOMPLETE 4 /* a trial's file */
void ar_summary_print(FILE *out, const ar_plan_t *plan, const ar_cell_result_t *results,
                         const char *run_dir, int interrupted, int missing, double wall_sec);

/* The last lines (at most AR_SUMMARY_TAIL_LINES, read from at most the
 * last AR_SUMMARY_TAIL_BYTES) of the first failing trial's stderr.log
 * and its path, as `ctest --output-on-failure` shows a failing test's
 * output: the first trial with the verdict "fail" in plan order, else the
 * first "error" trial that started its command.  The file is read below
 * run_fd without following a symbolic link; control characters are shown
 * escaped (\xNN), so the terminal only ever sees text.  Nothing when every
 * trial passed or the log cannot be read. */
#define AR_SUMMARY_TAIL_LINES 10
#define AR_SUMMARY_TAIL_BYTES 4096
void ar_summary_print_failure_log(FILE *out, const ar_plan_t *plan,
                                     const ar_cell_result_t *results, int run_fd,
                                     const char *run_dir);

/* Whether the sweep ran trials and every one of them was a setup failure
 * (nothing was measured: the run exits 1). */
int ar_summary_all_setup_failed(const ar_plan_t *plan, const ar_cell_result_t *results);

/* Whether the sweep has trials and not one of them started its command
 * (setup failures, a command that cannot be executed): the run exits 1. */
int ar_summary_none_started(const ar_plan_t *plan, const ar_cell_result_t *results);

/* How many trials, resumed ones included, have the verdict "fail". */
size_t ar_summary_failed_trials(const ar_plan_t *plan, const ar_cell_result_t *results);

#endif
