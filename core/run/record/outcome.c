/* SPDX-License-Identifier: MIT */
/* outcome.c - what the matrix needs from one trial JSON. */
#include "config.h"

#include "record/outcome.h"

#include <stdlib.h>
#include <string.h>

#include "record/trial_json.h"
#include "xalloc.h"

static int is_verdict(const char *text)
{
    return text && (!strcmp(text, "pass") || !strcmp(text, "fail") || !strcmp(text, "error"));
}

int ar_outcome_is_record(const ar_json_t *trial_json)
{
    return ar_json_type(ar_json_get(trial_json, "result")) == AR_JSON_OBJECT
           && ar_json_get_string(ar_json_get(trial_json, "exit_status")) != NULL;
}

const char *ar_outcome_verdict(const ar_json_t *trial_json)
{
    if (!ar_outcome_is_record(trial_json))
        return NULL;
    ar_json_t *metrics = ar_json_get(ar_json_get(trial_json, "result"), "metrics");
    const char *verdict = ar_json_get_string(ar_json_get(metrics, "verdict"));
    if (is_verdict(verdict))
        return verdict;
    const char *status = ar_json_get_string(ar_json_get(trial_json, "exit_status"));
    if (!strcmp(status, AR_STATUS_OK))
        return "pass";
    if (!strcmp(status, AR_STATUS_SETUP_FAILED) || !strcmp(status, AR_STATUS_INFRA_FAILED))
        return "error";
    return "fail";
}

/* A short phrase for the summary and failure_hints. */
static char *hint_of(const ar_json_t *detail)
{
    const char *type = ar_json_get_string(ar_json_get(detail, "type"));
    if (!type)
        return NULL;
    ar_json_t *code_json = ar_json_get(detail, "exit_code");
    long long code =
        ar_json_type(code_json) == AR_JSON_INT ? (long long)ar_json_get_int(code_json) : 0;
    const char *error = ar_json_get_string(ar_json_get(detail, "error"));
    if (!strcmp(type, "subprocess_exec_failed"))
        return error ? ar_xstrdup(error)
                     : ar_xasprintf("command could not be executed, exit %lld", code);
    if (!strcmp(type, "subprocess_timeout"))
        return ar_xstrdup("timed out");
    if (!strcmp(type, "subprocess_interrupted"))
        return ar_xstrdup("interrupted");
    if (!strcmp(type, "subprocess_nonzero_exit"))
        return code < 0 ? ar_xasprintf("killed by signal %llu", 0ull - (unsigned long long)code)
                        : ar_xasprintf("exit code %lld", code);
    if (!strcmp(type, "detector_failure")) {
        const char *id = ar_json_get_string(
            ar_json_at(ar_json_get(detail, "failure_detectors_fired"), 0));
        return ar_xasprintf("detector %s", id ? id : "?");
    }
    if (!strcmp(type, "setup_failed"))
        return ar_xasprintf("setup failed: %s", error ? error : "?");
    return error ? ar_xasprintf("%s: %s", type, error) : ar_xstrdup(type);
}

int ar_outcome_from_json(const ar_json_t *trial_json, int trial_index,
                            const char *trial_path, ar_outcome_t *out)
{
    memset(out, 0, sizeof *out);
    ar_json_t *result = ar_json_get(trial_json, "result");
    const char *status = ar_json_get_string(ar_json_get(trial_json, "exit_status"));
    const char *verdict = ar_outcome_verdict(trial_json);
    if (ar_json_type(result) != AR_JSON_OBJECT || !status || !verdict)
        return -1;
    out->trial_index = trial_index;
    out->verdict = ar_xstrdup(verdict);
    out->exit_status = ar_xstrdup(status);
    out->wall_clock_sec = ar_json_get_double(ar_json_get(trial_json, "wall_clock_sec"));
    out->launched = ar_json_get_bool(ar_json_get(result, "main_work_started"));
    out->executed_iterations =
        (int)ar_json_get_int(ar_json_get(result, "executed_iterations"));
    ar_json_t *metrics = ar_json_get(result, "metrics");
    if (ar_json_type(metrics) == AR_JSON_OBJECT)
        out->metrics = ar_json_ref(metrics);
    if (strcmp(verdict, "pass") != 0)
        out->hint = hint_of(ar_json_at(ar_json_get(result, "failure_details"), 0));
    out->trial_path = ar_xstrdup(trial_path);
    ar_json_t *gpu = ar_json_get(trial_json, "gpu");
    if (ar_json_type(gpu) == AR_JSON_OBJECT)
        out->gpu = ar_json_ref(gpu);
    return 0;
}

void ar_outcome_clear(ar_outcome_t *outcome)
{
    free(outcome->verdict);
    free(outcome->exit_status);
    free(outcome->hint);
    ar_json_free(outcome->metrics);
    free(outcome->trial_path);
    ar_json_free(outcome->gpu);
    memset(outcome, 0, sizeof *outcome);
}
