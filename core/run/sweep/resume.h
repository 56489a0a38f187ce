/* SPDX-License-Identifier: MIT */
/* resume.h - deciding whether a cell is already done (docs/design.md).
 * A trial is complete when trial_<t>/result.json is a JSON object with a
 * non-empty string verdict.  A cell whose trials are all complete, and
 * whose trial JSONs all load, is skipped and aggregated from those files;
 * any other cell re-runs from trial 0.  With stop_after, the contiguous
 * prefix of complete trials counts: the cell is done once that prefix
 * reached the events or the cap.  Only trials of the cell's request are
 * resumed: the sweep refuses a run directory holding others first
 * (ar_resume_check()). */
#ifndef AR_RESUME_H
#define AR_RESUME_H

#include "report/matrix.h"
#include "sweep/run.h"

/* When cell cell_index is complete, fill *result from disk (resumed set)
 * and return 1; else return 0 with *result untouched. */
int ar_resume_cell(const ar_run_ctx_t *ctx, size_t cell_index, ar_cell_result_t *result);

/* Before anything runs: 0 when no cell of the plan that a run would
 * resume (its trials complete) holds a trial JSON recorded for another
 * request than the cell's (ctx->requests; NULL checks nothing), else -1
 * with *error the one line naming the first such cell, what changed, and
 * the fix.  A trial JSON without a fingerprint (an older aorta-run's) does
 * not match.  An incomplete cell re-runs from trial 0 whatever its trials
 * were, as before. */
int ar_resume_check(const ar_run_ctx_t *ctx, char **error);

/* Rounds (interleaved or random order): the contiguous prefix of cell
 * cell_index's complete trials of this request, loaded into *result (empty
 * before), so that the cell continues from the first trial that is not;
 * under stop_after, no further than the trial that reached the events
 * (*events: the events it holds).  Returns how many were loaded: 0 (result
 * untouched) when the first is not complete, or any of them is another
 * request's or does not load. */
long ar_resume_prefix(const ar_run_ctx_t *ctx, size_t cell_index, ar_cell_result_t *result,
                      long *events);

/* Whether trial t of cell cell_index is complete and recorded for this
 * request (a part skips it). */
int ar_resume_trial_done(const ar_run_ctx_t *ctx, size_t cell_index, long t);

/* A part of the request (--cells, --rounds): every complete trial of cell
 * cell_index recorded for this request, in trial order, gaps allowed,
 * replacing *result (cleared first) when there is at least one.  Returns
 * how many were loaded; 0 leaves *result untouched. */
size_t ar_resume_records(const ar_run_ctx_t *ctx, size_t cell_index, ar_cell_result_t *result);

/* The cell folders of the run directory (each holding trial records) that
 * are no cell of this plan: another request's, which its matrix.json would
 * leave out.  "A, B and N more", or NULL when there is none (free it). */
char *ar_resume_foreign_cells(const ar_run_ctx_t *ctx);

/* The note of a cell that stop_after ended (events reached) in matrix.json. */
char *ar_resume_stop_note(const ar_plan_t *plan, long events, long trials);

#endif
