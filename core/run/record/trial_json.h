/* SPDX-License-Identifier: MIT */
/* trial_json.h - the per-trial dispatcher JSON,
 * <cell>/_subprocess/trial_d0_m0_t<t>.json (docs/design.md): a
 * TrialResult of schema "0.1" that passes upstream's strict reader. */
#ifndef AR_TRIAL_JSON_H
#define AR_TRIAL_JSON_H

#include <stdint.h>

#include "aorta/collector.h"
#include "record/classify.h"
#include "record/layout.h"
#include "sys/json.h"
#include "recipe/plan.h"

/* exit_status values. */
#define AR_STATUS_OK "ok"
#define AR_STATUS_FAILED "workload_failed"
#define AR_STATUS_SETUP_FAILED "workload_setup_failed"
#define AR_STATUS_INFRA_FAILED "infrastructure_failed"

typedef struct ar_trial_json {
    const ar_plan_t *plan;
    const ar_cell_t *cell;
    int trial_index;
    const char *collect_dir;       /* absolute; used only with collectors */
    const char *log_prefix;        /* absolute <cell>/_subprocess/trial_d0_m0_t<t> */
    const char *results_root;      /* absolute cell directory */
    int64_t results_root_dev, results_root_ino;
    const aorta_env_t *trial_env;  /* the variables set for the trial on top of aorta-run's */
    ar_json_t *env_snapshot;    /* the run's snapshot (borrowed) */
    const char *verdict;
    const char *exit_status;
    int launched;                  /* the command started */
    double elapsed_sec;            /* the command's wall time */
    double wall_clock_sec;         /* the whole trial */
    ar_json_t *metrics;         /* .result.metrics (borrowed) */
    ar_json_t *failure_detail;  /* the one failure_details entry, or NULL (borrowed) */
    const char *request_fingerprint; /* the cell's, 64 hex digits; NULL: JSON null */
    ar_json_t *request;         /* config._aorta_request, its parts, or NULL (borrowed) */
    const char *started_at;        /* ISO 8601 UTC, to the millisecond; NULL: JSON null */
    const char *node;              /* the host name; NULL: JSON null */
    ar_json_t *gpu;             /* the GPUs just before the trial (record/gpu_state.h), or
                                 * NULL: JSON null (borrowed) */
} ar_trial_json_t;

ar_json_t *ar_trial_json(const ar_trial_json_t *trial);

/* .result.metrics of a trial that ran: the collectors' keys in plan order
 * (collected may be NULL), then the platform keys verdict, exit_code,
 * result_json_path (may be NULL: JSON null) and the three detector lists,
 * which replace any collector key of the same name. */
ar_json_t *ar_trial_metrics(const aorta_metrics_t *collected,
                                  const ar_classification_t *classification, int exit_code,
                                  const char *result_json_path);

/* The environment descriptor every cell runs in ("local"). */
ar_json_t *ar_trial_environment(void);

/* A variable bundle as a JSON object of strings (NULL: {}). */
ar_json_t *ar_trial_env_object(const aorta_env_t *env);

#endif
