/* SPDX-License-Identifier: MIT */
/* run.h - what every trial of a run shares: the context the sweep sets up
 * once (the plan, the run directory, aorta-run's environment, the kill
 * grace, the rank), and the run's environment snapshot. */
#ifndef AR_RUN_H
#define AR_RUN_H

#include "aorta/collector.h"
#include "record/host_env.h"
#include "recipe/plan.h"
#include "sweep/fingerprint.h"
#include "sys/json.h"

typedef struct ar_run_ctx {
    const ar_plan_t *plan;
    char *run_dir;              /* absolute */
    const char *display_dir;    /* the run directory as the user named it */
    int run_fd;                 /* open on run_dir */
    aorta_env_t *base_env;      /* aorta-run's environment at start */
    ar_host_env_t *host_env; /* host_env.json's content, completed by ar_run_snapshot() */
    double kill_grace_sec;      /* SIGTERM to SIGKILL */
    int *write_failed;          /* set when a file could not be written (reported); may be NULL */
    long self_rank;             /* rank 0 of an --all-ranks run: 0; otherwise -1 */
    long world_size;            /* with --all-ranks, the ranks rank 0 waits for; else 0 */
    double wall_started;        /* the wall clock when rank 0 began: a rank record before it is
                                   an earlier run's (without a launcher id of this job) */
    const ar_request_t *requests; /* each cell's request fingerprint, in cell order */
} ar_run_ctx_t;

/* The run's environment snapshot, complete: the first call collects the
 * probe that ran beside the first trial (killed instead when stop is set)
 * and writes host_env.json (a failure is reported and sets write_failed). */
ar_json_t *ar_run_snapshot(const ar_run_ctx_t *ctx, int stop);

/* Seconds between SIGTERM and SIGKILL: AORTA_KILL_GRACE, else this. */
#define AR_KILL_GRACE_DEFAULT 10.0
double ar_run_kill_grace(void);

#endif
