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

aorta_json_t *aorta_trial_environment(void)
{
    aorta_json_t *env = aorta_json_object();
    aorta_json_set(env, "name", aorta_json_string("local"));
    aorta_json_set(env, "docker", NULL);
    aorta_json_set(env, "venv", NULL);
    aorta_json_set(env, "buck_target", NULL);
    aorta_json_set(env, "emulator", NULL);
    aorta_json_set(env, "mirage_profile", NULL);
    aorta_json_set(env, "source_package", aorta_json_string("aorta"));
    aorta_json_set(env, "env", aorta_json_object());
    return env;
}

aorta_json_t *aorta_trial_env_object(const aorta_env_t *env)
{
    aorta_json_t *obj = aorta_json_object();
    for (size_t i = 0; env && i < aorta_env_count(env); i++)
        aorta_json_set(obj, aorta_env_name_at(env, i),
                       aorta_json_string(aorta_env_value_at(env, i)));
    return obj;
}

static aorta_json_t *options_object(const aorta_options_t *options)
{
    aorta_json_t *obj = aorta_json_object();
    for (size_t i = 0; options && i < aorta_options_count(options); i++)
        aorta_json_set(obj, aorta_options_key_at(options, i),
                       aorta_json_string(aorta_options_value_at(options, i)));
    return obj;
}

static aorta_json_t *argv_array(const aorta_argv_t *argv)
{
    return aorta_json_strings(aorta_argv_items(argv), aorta_argv_count(argv));
}

static aorta_json_t *probe_extras(const aorta_trial_json_t *trial)
{
    const aorta_plan_t *plan = trial->plan;
    aorta_json_t *extras = aorta_json_object();
    aorta_json_set(extras, "cell_name", aorta_json_string(trial->cell->name));
    aorta_json_set(extras, "env_passthrough_mode", aorta_json_string(plan->env_passthrough_mode));
    aorta_json_set(extras, "timeout_per_trial",
                   plan->timeout_sec > 0 ? aorta_json_double(plan->timeout_sec) : NULL);
    aorta_json_set(extras, "cell_env_vars", aorta_trial_env_object(trial->cell->env));
    aorta_json_t *retain = NULL;
    if (plan->has_retain) {
        retain = aorta_json_object();
        aorta_json_set(retain, "on_fail",
                       aorta_json_string(aorta_retain_level_name(plan->retain_on_fail)));
        aorta_json_set(retain, "on_pass",
                       aorta_json_string(aorta_retain_level_name(plan->retain_on_pass)));
        aorta_json_set(retain, "on_error",
                       aorta_json_string(aorta_retain_level_name(plan->retain_on_error)));
    }
    aorta_json_set(extras, "retain", retain);
    aorta_json_set(extras, "launcher", plan->launcher ? argv_array(plan->launcher) : NULL);
    return extras;
}

static aorta_json_t *config_object(const aorta_trial_json_t *trial)
{
    const aorta_plan_t *plan = trial->plan;
    aorta_json_t *config = aorta_json_object();
    aorta_json_set(config, "steps", aorta_json_int(1));
    aorta_json_set(config, "_aorta_environment", aorta_trial_environment());
    aorta_json_set(config, "_aorta_trial_isolation", aorta_json_string("in_process"));
    aorta_json_set(config, "_aorta_subprocess_argv", argv_array(plan->command));
    aorta_json_set(config, "_aorta_probe_extras", probe_extras(trial));
    if (plan->collector_count > 0) {
        aorta_json_t *names = aorta_json_array();
        aorta_json_t *options = aorta_json_object();
        for (size_t i = 0; i < plan->collector_count; i++) {
            const aorta_collect_entry_t *entry = &plan->collectors[i];
            aorta_json_append(names, aorta_json_string(entry->module->collector.name));
            aorta_json_set(options, entry->module->collector.name,
                           options_object(entry->effective));
        }
        aorta_json_set(config, "_aorta_collect", names);
        aorta_json_set(config, "_aorta_collect_options", options);
        aorta_json_set(config, "_aorta_collect_dir", aorta_json_string(trial->collect_dir));
    }
    aorta_json_set(config, "_aorta_results_root", aorta_json_string(trial->results_root));
    aorta_json_t *root_id = aorta_json_array();
    aorta_json_append(root_id, aorta_json_int(trial->results_root_dev));
    aorta_json_append(root_id, aorta_json_int(trial->results_root_ino));
    aorta_json_set(config, "_aorta_results_root_id", root_id);
    aorta_json_set(config, "_aorta_trial_env", aorta_trial_env_object(trial->trial_env));
    aorta_json_set(config, "_aorta_save_logs", aorta_json_bool(1));
    aorta_json_set(config, "_aorta_log_prefix", aorta_json_string(trial->log_prefix));
    if (trial->request)
        aorta_json_set(config, "_aorta_request", aorta_json_ref(trial->request));
    return config;
}

static aorta_json_t *result_object(const aorta_trial_json_t *trial)
{
    int passed = strcmp(trial->verdict, "pass") == 0;
    aorta_json_t *result = aorta_json_object();
    aorta_json_set(result, "passed", aorta_json_bool(passed));
    aorta_json_set(result, "failure_count", aorta_json_int(passed ? 0 : 1));
    aorta_json_set(result, "first_failure_iteration", NULL);
    aorta_json_t *details = aorta_json_array();
    if (!passed && trial->failure_detail)
        aorta_json_append(details, aorta_json_ref(trial->failure_detail));
    aorta_json_set(result, "failure_details", details);
    aorta_json_set(result, "total_iterations", aorta_json_int(0));
    aorta_json_set(result, "step_times_ms", aorta_json_array());
    aorta_json_set(result, "elapsed_sec", aorta_json_double(trial->elapsed_sec));
    aorta_json_set(result, "metrics", aorta_json_ref(trial->metrics));
    aorta_json_set(result, "main_work_started", aorta_json_bool(trial->launched));
    aorta_json_set(result, "executed_iterations", aorta_json_int(trial->launched ? 1 : 0));
    aorta_json_set(result, "configured_iterations", aorta_json_int(1));
    return result;
}

aorta_json_t *aorta_trial_json(const aorta_trial_json_t *trial)
{
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "schema_version", aorta_json_string("0.1"));
    char *tag = aorta_trial_tag(trial->trial_index);
    char *trial_id = aorta_xasprintf(AORTA_WORKLOAD "_d0_m0_%s", tag);
    aorta_json_set(obj, "trial_id", aorta_json_string(trial_id));
    free(trial_id);
    free(tag);
    if (trial->trial_index < 0) /* left out of every statistic and table */
        aorta_json_set(obj, "warmup", aorta_json_bool(1));
    aorta_json_set(obj, "workload", aorta_json_string(AORTA_WORKLOAD));
    aorta_json_set(obj, "execution_env", aorta_trial_environment());
    aorta_json_t *applied = aorta_json_array();
    aorta_json_append(applied, aorta_json_string(trial->cell->mitigation));
    aorta_json_append(applied, aorta_json_string(trial->cell->diagnostic));
    aorta_json_set(obj, "mitigations_applied", applied);
    aorta_json_set(obj, "config", config_object(trial));
    aorta_json_set(obj, "env", aorta_json_ref(trial->env_snapshot));
    aorta_json_set(obj, "result", result_object(trial));
    aorta_json_set(obj, "wall_clock_sec", aorta_json_double(trial->wall_clock_sec));
    aorta_json_set(obj, "exit_status", aorta_json_string(trial->exit_status));
    aorta_json_set(obj, "request_fingerprint",
                   trial->request_fingerprint ? aorta_json_string(trial->request_fingerprint)
                                              : NULL);
    return obj;
}

static aorta_json_t *detector_list(const char *const *detectors, size_t max)
{
    aorta_json_t *list = aorta_json_array();
    for (size_t i = 0; i < max && detectors[i]; i++)
        aorta_json_append(list, aorta_json_string(detectors[i]));
    return list;
}

aorta_json_t *aorta_trial_metrics(const aorta_metrics_t *collected,
                                  const aorta_classification_t *classification, int exit_code,
                                  const char *result_json_path)
{
    aorta_json_t *metrics = collected ? aorta_metrics_to_json(collected) : aorta_json_object();
    aorta_json_set(metrics, "verdict", aorta_json_string(classification->verdict));
    aorta_json_set(metrics, "exit_code", aorta_json_int(exit_code));
    aorta_json_set(metrics, "result_json_path",
                   result_json_path ? aorta_json_string(result_json_path) : NULL);
    aorta_json_set(metrics, "failure_detectors_fired",
                   detector_list(classification->failure_detectors, 3));
    aorta_json_set(metrics, "error_detectors_fired",
                   detector_list(classification->error_detectors, 2));
    aorta_json_set(metrics, "warn_detectors_fired", aorta_json_array());
    return metrics;
}
