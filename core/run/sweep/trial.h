/* SPDX-License-Identifier: MIT */
/* trial.h - one trial: its directories, environment and composition, the
 * command, its verdict and result.json, the collectors' metrics, retention
 * and the trial JSON. */
#ifndef AR_TRIAL_H
#define AR_TRIAL_H

#include <stddef.h>

#include "record/outcome.h"
#include "sweep/run.h"

/* Run trial trial_index of cell cell_index and fill *out (clear it with
 * ar_outcome_clear()).  A setup failure is an error trial with no
 * result.json.  Returns the signal (SIGINT/SIGTERM) that interrupted the
 * trial, else 0. */
int ar_trial_run(const ar_run_ctx_t *ctx, size_t cell_index, int trial_index,
                    ar_outcome_t *out);

#endif
