/* SPDX-License-Identifier: MIT */
/* resume.h - deciding whether a cell is already done (docs/design.md).
 * A trial is complete when trial_<t>/result.json is a JSON object with a
 * non-empty string verdict.  A cell whose trials are all complete, and
 * whose trial JSONs all load, is skipped and aggregated from those files;
 * any other cell re-runs from trial 0.  With stop_after, the contiguous
 * prefix of complete trials counts: the cell is done once that prefix
 * reached the events or the cap. */
#ifndef AORTA_RESUME_H
#define AORTA_RESUME_H

#include "output/matrix.h"
#include "sweep/run.h"

/* When cell cell_index is complete, fill *result from disk (resumed set)
 * and return 1; else return 0 with *result untouched. */
int aorta_resume_cell(const aorta_run_ctx_t *ctx, size_t cell_index, aorta_cell_result_t *result);

/* The note of a cell that stop_after ended (events reached) in matrix.json. */
char *aorta_resume_stop_note(const aorta_plan_t *plan, long events, long trials);

#endif
