/* SPDX-License-Identifier: MIT */
/* trial_json.c - the per-trial dispatcher JSON (docs/design.md). */
#include "config.h"

#include "record/trial_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "record/metrics_json.h"
#include "record/retention.h"
#include "xalloc.h"

ar_json_t *ar_trial_environment(void)
{
    ar_json_t *env = ar_json_object();
    ar_json_set(env, "name", ar_json_string("local"));
    ar_json_set(env, "docker", NULL);
    ar_json_set(env, "venv", NULL);
    ar_json_set(env, "buck_target", NULL);
    ar_json_set(env, "emulator", NULL);
    ar_json_set(env, "mirage_profile", NULL);
    ar_json_set(env, "source_package", ar_json_string("aorta"));
    ar_json_set(env, "env", ar_json_object());
    return env;
}

ar_json_t *ar_trial_env_object(const aorta_env_t *env)
{
    ar_json_t *obj = ar_json_object();
    for (size_t i = 0; env && i < aorta_env_count(env); i++)
        ar_json_set(obj, aorta_env_name_at(env, i),
                       ar_json_string(aorta_env_value_at(env, i)));
    return obj;
}

static ar_json_t *options_object(const aorta_options_t *options)
{
    ar_json_t *obj = ar_json_object();
    for (size_t i = 0; options && i < aorta_options_count(options); i++)
        ar_json_set(obj, aorta_options_key_at(options, i),
                       ar_json_string(aorta_options_value_at(options, i)));
    return obj;
}

static ar_json_t *argv_array(const aorta_argv_t *argv)
{
    return ar_json_strings(aorta_argv_items(argv), aorta_argv_count(argv));
}

static ar_json_t *probe_extras(const ar_trial_json_t *trial)
{
    const ar_plan_t *plan = trial->plan;
    ar_json_t *extras = ar_json_object();
    ar_json_set(extras, "cell_name", ar_json_string(trial->cell->name));
    ar_json_set(extras, "env_passthrough_mode", ar_json_string(plan->env_passthrough_mode));
    ar_json_set(extras, "timeout_per_trial",
                   plan->timeout_sec > 0 ? ar_json_double(plan->timeout_sec) : NULL);
    ar_json_set(extras, "cell_env_vars", ar_trial_env_object(trial->cell->env));
    ar_json_t *retain = NULL;
    if (plan->has_retain) {
        retain = ar_json_object();
        ar_json_set(retain, "on_fail",
                       ar_json_string(ar_retain_level_name(plan->retain_on_fail)));
        ar_json_set(retain, "on_pass",
                       ar_json_string(ar_retain_level_name(plan->retain_on_pass)));
        ar_json_set(retain, "on_error",
                       ar_json_string(ar_retain_level_name(plan->retain_on_error)));
    }
    ar_json_set(extras, "retain", retain);
    ar_json_set(extras, "launcher", plan->launcher ? argv_array(plan->launcher) : NULL);
    return extras;
}

static ar_json_t *config_object(const ar_trial_json_t *trial)
{
    const ar_plan_t *plan = trial->plan;
    ar_json_t *config = ar_json_object();
    ar_json_set(config, "steps", ar_json_int(1));
    ar_json_set(config, "_aorta_environment", ar_trial_environment());
    ar_json_set(config, "_aorta_trial_isolation", ar_json_string("in_process"));
    ar_json_set(config, "_aorta_subprocess_argv", argv_array(plan->command));
    ar_json_set(config, "_aorta_probe_extras", probe_extras(trial));
    if (plan->collector_count > 0) {
        ar_json_t *names = ar_json_array();
        ar_json_t *options = ar_json_object();
        for (size_t i = 0; i < plan->collector_count; i++) {
            const ar_collect_entry_t *entry = &plan->collectors[i];
            ar_json_append(names, ar_json_string(entry->module->collector.name));
            ar_json_set(options, entry->module->collector.name,
                           options_object(entry->effective));
        }
        ar_json_set(config, "_aorta_collect", names);
        ar_json_set(config, "_aorta_collect_options", options);
        ar_json_set(config, "_aorta_collect_dir", ar_json_string(trial->collect_dir));
    }
    ar_json_set(config, "_aorta_results_root", ar_json_string(trial->results_root));
    ar_json_t *root_id = ar_json_array();
    ar_json_append(root_id, ar_json_int(trial->results_root_dev));
    ar_json_append(root_id, ar_json_int(trial->results_root_ino));
    ar_json_set(config, "_aorta_results_root_id", root_id);
    ar_json_set(config, "_aorta_trial_env", ar_trial_env_object(trial->trial_env));
    ar_json_set(config, "_aorta_save_logs", ar_json_bool(1));
    ar_json_set(config, "_aorta_log_prefix", ar_json_string(trial->log_prefix));
    if (trial->request)
        ar_json_set(config, "_aorta_request", ar_json_ref(trial->request));
    return config;
}

static ar_json_t *result_object(const ar_trial_json_t *trial)
{
    int passed = strcmp(trial->verdict, "pass") == 0;
    ar_json_t *result = ar_json_object();
    ar_json_set(result, "passed", ar_json_bool(passed));
    ar_json_set(result, "failure_count", ar_json_int(passed ? 0 : 1));
    ar_json_set(result, "first_failure_iteration", NULL);
    ar_json_t *details = ar_json_array();
    if (!passed && trial->failure_detail)
        ar_json_append(details, ar_json_ref(trial->failure_detail));
    ar_json_set(result, "failure_details", details);
    ar_json_set(result, "total_iterations", ar_json_int(0));
    ar_json_set(result, "step_times_ms", ar_json_array());
    ar_json_set(result, "elapsed_sec", ar_json_double(trial->elapsed_sec));
    ar_json_set(result, "metrics", ar_json_ref(trial->metrics));
    ar_json_set(result, "main_work_started", ar_json_bool(trial->launched));
    ar_json_set(result, "executed_iterations", ar_json_int(trial->launched ? 1 : 0));
    ar_json_set(result, "configured_iterations", ar_json_int(1));
    return result;
}

ar_json_t *ar_trial_json(const ar_trial_json_t *trial)
{
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "schema_version", ar_json_string("0.1"));
    char *tag = ar_trial_tag(trial->trial_index);
    char *trial_id = ar_xasprintf(AR_WORKLOAD "_d0_m0_%s", tag);
    ar_json_set(obj, "trial_id", ar_json_string(trial_id));
    free(trial_id);
    free(tag);
    if (trial->trial_index < 0) /* left out of every statistic and table */
        ar_json_set(obj, "warmup", ar_json_bool(1));
    ar_json_set(obj, "workload", ar_json_string(AR_WORKLOAD));
    ar_json_set(obj, "execution_env", ar_trial_environment());
    ar_json_t *applied = ar_json_array();
    ar_json_append(applied, ar_json_string(trial->cell->mitigation));
    ar_json_append(applied, ar_json_string(trial->cell->diagnostic));
    ar_json_set(obj, "mitigations_applied", applied);
    ar_json_set(obj, "config", config_object(trial));
    ar_json_set(obj, "env", ar_json_ref(trial->env_snapshot));
    ar_json_set(obj, "result", result_object(trial));
    ar_json_set(obj, "wall_clock_sec", ar_json_double(trial->wall_clock_sec));
    ar_json_set(obj, "exit_status", ar_json_string(trial->exit_status));
    ar_json_set(obj, "request_fingerprint",
                   trial->request_fingerprint ? ar_json_string(trial->request_fingerprint)
                                              : NULL);
    /* What the trial ran on, and when (docs/design.md, Trial order): its
     * round is its index; a warm-up trial belongs to none. */
    ar_json_set(obj, "round",
                   trial->trial_index >= 0 ? ar_json_int(trial->trial_index) : NULL);
    ar_json_set(obj, "started_at",
                   trial->started_at ? ar_json_string(trial->started_at) : NULL);
    ar_json_set(obj, "node", trial->node ? ar_json_string(trial->node) : NULL);
    ar_json_set(obj, "gpu", trial->gpu ? ar_json_ref(trial->gpu) : NULL);
    return obj;
}

static ar_json_t *detector_list(const char *const *detectors, size_t max)
{
    ar_json_t *list = ar_json_array();
    for (size_t i = 0; i < max && detectors[i]; i++)
        ar_json_append(list, ar_json_string(detectors[i]));
    return list;
}

ar_json_t *ar_trial_metrics(const aorta_metrics_t *collected,
                                  const ar_classification_t *classification, int exit_code,
                                  const char *result_json_path)
{
    ar_json_t *metrics = collected ? ar_metrics_to_json(collected) : ar_json_object();
    ar_json_set(metrics, "verdict", ar_json_string(classification->verdict));
    ar_json_set(metrics, "exit_code", ar_json_int(exit_code));
    ar_json_set(metrics, "result_json_path",
                   result_json_path ? ar_json_string(result_json_path) : NULL);
    ar_json_set(metrics, "failure_detectors_fired",
                   detector_list(classification->failure_detectors, 3));
    ar_json_set(metrics, "error_detectors_fired",
                   detector_list(classification->error_detectors, 2));
    ar_json_set(metrics, "warn_detectors_fired", ar_json_array());
    return metrics;
}
