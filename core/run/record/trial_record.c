/* SPDX-License-Identifier: MIT */
/* trial_record.c - a trial's trial_<t>/result.json (docs/design.md). */
#include "config.h"

#include "record/trial_record.h"

static aorta_json_t *detector_list(const char *const *detectors)
{
    aorta_json_t *list = aorta_json_array();
    for (size_t i = 0; detectors && detectors[i]; i++)
        aorta_json_append(list, aorta_json_string(detectors[i]));
    return list;
}

aorta_json_t *aorta_trial_record_json(const aorta_trial_record_t *record)
{
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "verdict", aorta_json_string(record->classification->verdict));
    aorta_json_set(obj, "exit_code", aorta_json_int(record->spawn->exit_code));
    aorta_json_set(obj, "walltime_sec", aorta_json_double(record->spawn->walltime_sec));
    aorta_json_set(obj, "peak_vram_mib", NULL);
    aorta_json_t *argv = aorta_json_array();
    for (size_t i = 0; i < aorta_argv_count(record->argv); i++)
        aorta_json_append(argv, aorta_json_string(aorta_argv_at(record->argv, i)));
    aorta_json_set(obj, "argv", argv);
    aorta_json_set(obj, "cell_name", aorta_json_string(record->cell_name));
    /* A warm-up trial: its place among the warm-ups (from 0), marked. */
    aorta_json_set(obj, "trial_index", aorta_json_int(record->trial_index < 0
                                                          ? -record->trial_index - 1
                                                          : record->trial_index));
    if (record->trial_index < 0)
        aorta_json_set(obj, "warmup", aorta_json_bool(1));
    aorta_json_set(obj, "failure_detectors_fired",
                   detector_list(record->classification->failure_detectors));
    aorta_json_set(obj, "error_detectors_fired",
                   detector_list(record->classification->error_detectors));
    aorta_json_set(obj, "warn_detectors_fired", aorta_json_array());
    aorta_json_t *capture = aorta_json_object();
    if (record->retention) {
        const aorta_retention_t *kept = record->retention;
        aorta_json_t *retention = aorta_json_object();
        aorta_json_set(retention, "level", aorta_json_string(record->retention_level));
        aorta_json_set(retention, "deleted", aorta_json_strings(kept->deleted, kept->count));
        aorta_json_set(retention, "freed_bytes", aorta_json_int(kept->freed_bytes));
        aorta_json_set(capture, "retention", retention);
    }
    aorta_json_set(obj, "capture", capture);
    aorta_json_t *tiers = aorta_json_object();
    static const char *const tier_names[] = {"tier1", "tier2", "tier3", "tier4", "tier5"};
    for (size_t i = 0; i < 5; i++)
        aorta_json_set(tiers, tier_names[i], aorta_json_double(0.0));
    aorta_json_set(obj, "tier_durations_ms", tiers);
    aorta_json_set(obj, "env_passthrough_mode",
                   aorta_json_string(record->env_passthrough_mode ? record->env_passthrough_mode
                                                                  : "inherit"));
    aorta_json_set(obj, "timed_out", aorta_json_bool(record->spawn->timed_out));
    aorta_json_t *env = aorta_json_object();
    for (size_t i = 0; record->cell_env && i < aorta_env_count(record->cell_env); i++)
        aorta_json_set(env, aorta_env_name_at(record->cell_env, i),
                       aorta_json_string(aorta_env_value_at(record->cell_env, i)));
    aorta_json_set(obj, "env", env);
    if (record->failure_type) {
        aorta_json_set(obj, "failure_type", aorta_json_string(record->failure_type));
        aorta_json_set(obj, "error_message",
                       aorta_json_string(record->error_message ? record->error_message : ""));
    }
    return obj;
}
