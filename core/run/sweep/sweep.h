/* SPDX-License-Identifier: MIT */
/* sweep.h - the sweep: every cell's trials, resumed or run, then
 * matrix.json, perf.md and the summary (docs/design.md). */
#ifndef AR_SWEEP_H
#define AR_SWEEP_H

#include "recipe/plan.h"

/* How a sweep ended; the command layer turns it into the exit status. */
typedef struct ar_sweep_end {
    int interrupted;       /* SIGINT or SIGTERM that stopped the sweep or its reports, else 0 */
    int incomplete;        /* the run directory could not be made or was locked, or a file
                            * of the run could not be written (each reported) */
    int nothing_measured;  /* trials ran and not one started its command (setup failures,
                            * a command that cannot be executed) */
    size_t failed_trials;  /* trials whose verdict is "fail", resumed ones included */
    int stale;             /* the run directory holds a cell's trials of another request
                            * (reported, one line): nothing ran */
    int refused;           /* the launcher's environment asks what aorta-run cannot do
                            * (reported, one line): nothing ran */
} ar_sweep_end_t;

/* Run the plan and say in *end how it ended (the verdicts aside).  The
 * caller blocks SIGINT, SIGTERM and SIGCHLD first
 * (ar_spawn_block_signals()). */
void ar_sweep_run(const ar_plan_t *plan, ar_sweep_end_t *end);

#endif
