/* SPDX-License-Identifier: MIT */
/* trial.h - one trial: its directories, environment and composition, the
 * command, its verdict and result.json, the collectors' metrics, retention
 * and the trial JSON. */
#ifndef AORTA_TRIAL_H
#define AORTA_TRIAL_H

#include "aorta/collector.h"
#include "output/host_env.h"
#include "output/json.h"
#include "output/outcome.h"
#include "recipe/plan.h"

/* What every trial of a run shares; set up once by the runner. */
typedef struct aorta_run_ctx {
    const aorta_plan_t *plan;
    char *run_dir;              /* absolute */
    const char *display_dir;    /* the run directory as the user named it */
    int run_fd;                 /* open on run_dir */
    aorta_env_t *base_env;      /* aorta-run's environment at start */
    aorta_host_env_t *host_env; /* host_env.json's content, completed by aorta_run_snapshot() */
    double kill_grace_sec;      /* SIGTERM to SIGKILL */
    int *write_failed;          /* set when a file could not be written (reported); may be NULL */
    long self_rank;             /* rank 0 of an --all-ranks run: 0; otherwise -1 */
    long world_size;            /* with --all-ranks, the ranks rank 0 waits for; else 0 */
} aorta_run_ctx_t;

/* The run's environment snapshot, complete: the first call collects the
 * probe that ran beside the first trial (killed instead when stop is set)
 * and writes host_env.json (a failure is reported and sets write_failed). */
aorta_json_t *aorta_run_snapshot(const aorta_run_ctx_t *ctx, int stop);

/* Trials per cell: stop_after's max_trials when set, else trials. */
long aorta_trial_budget(const aorta_plan_t *plan);

/* Seconds between SIGTERM and SIGKILL: AORTA_KILL_GRACE, else this. */
#define AORTA_KILL_GRACE_DEFAULT 10.0
double aorta_trial_kill_grace(void);

/* Run trial trial_index of cell cell_index and fill *out (clear it with
 * aorta_outcome_clear()).  A setup failure is an error trial with no
 * result.json.  Returns the signal (SIGINT/SIGTERM) that interrupted the
 * trial, else 0. */
int aorta_trial_run(const aorta_run_ctx_t *ctx, size_t cell_index, int trial_index,
                    aorta_outcome_t *out);

/* Paths of trial t of a cell, relative to the run directory. */
char *aorta_trial_dir_rel(const char *cell, int trial_index);
char *aorta_trial_json_rel(const char *cell, int trial_index);

#endif
