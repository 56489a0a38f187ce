/* SPDX-License-Identifier: MIT */
/* matrix.h - a cell's trials aggregated, and matrix.json (docs/design.md,
 * Output tree): per-cell counts, step timing, trial_paths,
 * resumed, and metrics_summary over the passing trials. */
#ifndef AR_MATRIX_H
#define AR_MATRIX_H

#include <stddef.h>

#include "sys/json.h"
#include "record/outcome.h"
#include "recipe/plan.h"

/* "—": iters_display and perf.md's mark for "not reported". */
#define AR_EM_DASH "\xe2\x80\x94"

typedef struct ar_cell_result {
    ar_outcome_t *outcomes;   /* by trial index */
    size_t count;
    size_t capacity;
    int resumed;                 /* taken from a prior run, not executed */
    size_t resumed_trials;       /* its first trials taken from a prior run (a cell resumed
                                  * within its rounds: interleaved or random order) */
    size_t ran_here;             /* trials this run ran (the rest came from disk) */
    int absent;                  /* a cell another part runs, with no record yet: left out
                                  * of the reports */
    char *error;                 /* the whole cell did not run: why; else NULL */
    char *stop_after_note;       /* why stop_after ended the cell early, else NULL */
} ar_cell_result_t;

/* Append outcome (moved: *outcome is left empty). */
void ar_cell_result_add(ar_cell_result_t *result, ar_outcome_t *outcome);
void ar_cell_result_clear(ar_cell_result_t *result);

/* Counts of a cell's verdicts. */
typedef struct ar_cell_counts {
    size_t trials, passed, failed, errors, launched;
} ar_cell_counts_t;
void ar_cell_counts(const ar_cell_result_t *result, ar_cell_counts_t *counts);

/* iters_display: "1/1", "0..1/1", or "—" without trials.  Free it. */
char *ar_cell_iters_display(const ar_cell_result_t *result);

/* The baseline: the first cell whose axes are both "none", else the first. */
const char *ar_matrix_baseline(const ar_plan_t *plan);

/* matrix.json for the plan's cells (results[i] is cells[i]).  warnings is
 * a string array (borrowed), recipe_sha256 the recipe's digest or NULL. */
ar_json_t *ar_matrix_json(const ar_plan_t *plan, const ar_cell_result_t *results,
                                const char *run_timestamp, ar_json_t *warnings,
                                const char *recipe_sha256);

/* Why matrix.json's cells (its object, read back) cannot be a run
 * directory's: a name listed twice, or one with a '/' (a path to another
 * cell's records; aorta-run never names a cell so), as one line without the
 * file's name (free it); NULL when every named cell is a cell of its own.
 * Each copy of a cell would otherwise be read and judged again (--compare's
 * family of tests grows with every copy). */
char *ar_matrix_cells_problem(const ar_json_t *matrix);

/* Python's round(value, 3). */
double ar_round3(double value);

#endif
