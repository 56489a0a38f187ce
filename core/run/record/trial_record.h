/* SPDX-License-Identifier: MIT */
/* trial_record.h - a trial's trial_<t>/result.json (docs/design.md). */
#ifndef AR_TRIAL_RECORD_H
#define AR_TRIAL_RECORD_H

#include "aorta/collector.h"
#include "record/classify.h"
#include "sys/json.h"
#include "record/retention.h"
#include "sys/spawn.h"

typedef struct ar_trial_record {
    const ar_spawn_result_t *spawn;
    const ar_classification_t *classification;
    const aorta_argv_t *argv;            /* what actually ran (wrapped) */
    const char *cell_name;
    int trial_index;
    const char *env_passthrough_mode;    /* "inherit" */
    const aorta_env_t *cell_env;         /* the cell's variables (may be NULL) */
    const ar_retention_t *retention;  /* capture.retention, or NULL (no retain: block) */
    const char *retention_level;         /* the level applied, with retention */
    const char *failure_type;            /* with error_message: a trial refused before */
    const char *error_message;           /* it ran (a rejected probe.env), else NULL */
} ar_trial_record_t;

/* The result.json object, keys in upstream's order. */
ar_json_t *ar_trial_record_json(const ar_trial_record_t *record);

#endif
