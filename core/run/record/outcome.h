/* SPDX-License-Identifier: MIT */
/* outcome.h - what the matrix needs from one trial, read from its trial
 * JSON: the same function serves a trial just run and one resumed from
 * disk, so both aggregate alike. */
#ifndef AR_OUTCOME_H
#define AR_OUTCOME_H

#include "sys/json.h"

typedef struct ar_outcome {
    int trial_index;
    char *verdict;              /* "pass", "fail" or "error" */
    char *exit_status;
    double wall_clock_sec;
    int launched;               /* result.main_work_started */
    int executed_iterations;
    char *hint;                 /* why it did not pass, else NULL */
    ar_json_t *metrics;      /* result.metrics (a reference), or NULL */
    char *trial_path;           /* the trial JSON's path as the runner saw it */
    ar_json_t *gpu;          /* the trial's "gpu" object (a reference), or NULL */
} ar_outcome_t;

/* Fill *out from a trial JSON.  Returns 0, or -1 when the JSON lacks what a
 * trial record must have (exit_status, result); *out is then cleared. */
int ar_outcome_from_json(const ar_json_t *trial_json, int trial_index,
                            const char *trial_path, ar_outcome_t *out);
void ar_outcome_clear(ar_outcome_t *outcome);

/* Whether a trial JSON has what every reader of a record needs: a "result"
 * object and an "exit_status" string.  Anything else (a `{}` a payload wrote
 * over an earlier trial's record, a foreign file) is read as an `error`
 * trial, with one warning, never dereferenced. */
int ar_outcome_is_record(const ar_json_t *trial_json);

/* The verdict a trial JSON stands for: result.metrics.verdict when it is
 * one of the three, else derived from exit_status; NULL when it is not a
 * record (ar_outcome_is_record()). */
const char *ar_outcome_verdict(const ar_json_t *trial_json);

#endif
