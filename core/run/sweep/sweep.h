/* SPDX-License-Identifier: MIT */
/* sweep.h - the sweep: every cell's trials, resumed or run, then
 * matrix.json, perf.md and the summary (docs/design.md). */
#ifndef AORTA_RUNNER_H
#define AORTA_RUNNER_H

#include "recipe/plan.h"

/* Run the plan.  Returns the exit status: 0 when the run completed
 * (whatever the verdicts), 1 when the run directory is locked or the output
 * cannot be written, 128 + the signal when SIGINT or SIGTERM stopped it.
 * The caller blocks SIGINT, SIGTERM and SIGCHLD first
 * (aorta_spawn_block_signals()). */
int aorta_sweep_run(const aorta_plan_t *plan);

#endif
