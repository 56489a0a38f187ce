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

const char *aorta_outcome_verdict(const aorta_json_t *trial_json)
{
    aorta_json_t *metrics = aorta_json_get(aorta_json_get(trial_json, "result"), "metrics");
    const char *verdict = aorta_json_get_string(aorta_json_get(metrics, "verdict"));
    if (is_verdict(verdict))
        return verdict;
    const char *status = aorta_json_get_string(aorta_json_get(trial_json, "exit_status"));
    if (!status)
        return NULL;
    if (!strcmp(status, AORTA_STATUS_OK))
        return "pass";
    if (!strcmp(status, AORTA_STATUS_SETUP_FAILED) || !strcmp(status, AORTA_STATUS_INFRA_FAILED))
        return "error";
    return "fail";
}

/* A short phrase for the summary and failure_hints. */
static char *hint_of(const aorta_json_t *detail)
{
    const char *type = aorta_json_get_string(aorta_json_get(detail, "type"));
    if (!type)
        return NULL;
    aorta_json_t *code_json = aorta_json_get(detail, "exit_code");
    long long code =
        aorta_json_type(code_json) == AORTA_JSON_INT ? (long long)aorta_json_get_int(code_json) : 0;
    const char *error = aorta_json_get_string(aorta_json_get(detail, "error"));
    if (!strcmp(type, "subprocess_exec_failed"))
        return error ? aorta_xstrdup(error)
                     : aorta_xasprintf("command could not be executed, exit %lld", code);
    if (!strcmp(type, "subprocess_timeout"))
        return aorta_xstrdup("timed out");
    if (!strcmp(type, "subprocess_interrupted"))
        return aorta_xstrdup("interrupted");
    if (!strcmp(type, "subprocess_nonzero_exit"))
        return code < 0 ? aorta_xasprintf("killed by signal %llu", 0ull - (unsigned long long)code)
                        : aorta_xasprintf("exit code %lld", code);
    if (!strcmp(type, "detector_failure")) {
        const char *id = aorta_json_get_string(
            aorta_json_at(aorta_json_get(detail, "failure_detectors_fired"), 0));
        return aorta_xasprintf("detector %s", id ? id : "?");
    }
    if (!strcmp(type, "setup_failed"))
        return aorta_xasprintf("setup failed: %s", error ? error : "?");
    return error ? aorta_xasprintf("%s: %s", type, error) : aorta_xstrdup(type);
}

int aorta_outcome_from_json(const aorta_json_t *trial_json, int trial_index,
                            const char *trial_path, aorta_outcome_t *out)
{
    memset(out, 0, sizeof *out);
    aorta_json_t *result = aorta_json_get(trial_json, "result");
    const char *status = aorta_json_get_string(aorta_json_get(trial_json, "exit_status"));
    const char *verdict = aorta_outcome_verdict(trial_json);
    if (aorta_json_type(result) != AORTA_JSON_OBJECT || !status || !verdict)
        return -1;
    out->trial_index = trial_index;
    out->verdict = aorta_xstrdup(verdict);
    out->exit_status = aorta_xstrdup(status);
    out->wall_clock_sec = aorta_json_get_double(aorta_json_get(trial_json, "wall_clock_sec"));
    out->launched = aorta_json_get_bool(aorta_json_get(result, "main_work_started"));
    out->executed_iterations =
        (int)aorta_json_get_int(aorta_json_get(result, "executed_iterations"));
    aorta_json_t *metrics = aorta_json_get(result, "metrics");
    if (aorta_json_type(metrics) == AORTA_JSON_OBJECT)
        out->metrics = aorta_json_ref(metrics);
    if (strcmp(verdict, "pass") != 0)
        out->hint = hint_of(aorta_json_at(aorta_json_get(result, "failure_details"), 0));
    out->trial_path = aorta_xstrdup(trial_path);
    return 0;
}

void aorta_outcome_clear(aorta_outcome_t *outcome)
{
    free(outcome->verdict);
    free(outcome->exit_status);
    free(outcome->hint);
    aorta_json_free(outcome->metrics);
    free(outcome->trial_path);
    memset(outcome, 0, sizeof *outcome);
}
