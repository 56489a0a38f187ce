/* SPDX-License-Identifier: MIT */
/* trial_record.c - a trial's trial_<t>/result.json (docs/design.md). */
#include "config.h"

#include "record/trial_record.h"

static ar_json_t *detector_list(const char *const *detectors)
{
    ar_json_t *list = ar_json_array();
    for (size_t i = 0; detectors && detectors[i]; i++)
        ar_json_append(list, ar_json_string(detectors[i]));
    return list;
}

ar_json_t *ar_trial_record_json(const ar_trial_record_t *record)
{
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "verdict", ar_json_string(record->classification->verdict));
    ar_json_set(obj, "exit_code", ar_json_int(record->spawn->exit_code));
    ar_json_set(obj, "walltime_sec", ar_json_double(record->spawn->walltime_sec));
    ar_json_set(obj, "peak_vram_mib", NULL);
    ar_json_t *argv = ar_json_array();
    for (size_t i = 0; i < aorta_argv_count(record->argv); i++)
        ar_json_append(argv, ar_json_string(aorta_argv_at(record->argv, i)));
    ar_json_set(obj, "argv", argv);
    ar_json_set(obj, "cell_name", ar_json_string(record->cell_name));
    /* A warm-up trial: its place among the warm-ups (from 0), marked. */
    ar_json_set(obj, "trial_index", ar_json_int(record->trial_index < 0
                                                          ? -record->trial_index - 1
                                                          : record->trial_index));
    if (record->trial_index < 0)
        ar_json_set(obj, "warmup", ar_json_bool(1));
    ar_json_set(obj, "failure_detectors_fired",
                   detector_list(record->classification->failure_detectors));
    ar_json_set(obj, "error_detectors_fired",
                   detector_list(record->classification->error_detectors));
    ar_json_set(obj, "warn_detectors_fired", ar_json_array());
    ar_json_t *capture = ar_json_object();
    if (record->retention) {
        const ar_retention_t *kept = record->retention;
        ar_json_t *retention = ar_json_object();
        ar_json_set(retention, "level", ar_json_string(record->retention_level));
        ar_json_set(retention, "deleted", ar_json_strings(kept->deleted, kept->count));
        ar_json_set(retention, "freed_bytes", ar_json_int(kept->freed_bytes));
        ar_json_set(capture, "retention", retention);
    }
    ar_json_set(obj, "capture", capture);
    ar_json_t *tiers = ar_json_object();
    static const char *const tier_names[] = {"tier1", "tier2", "tier3", "tier4", "tier5"};
    for (size_t i = 0; i < 5; i++)
        ar_json_set(tiers, tier_names[i], ar_json_double(0.0));
    ar_json_set(obj, "tier_durations_ms", tiers);
    ar_json_set(obj, "env_passthrough_mode",
                   ar_json_string(record->env_passthrough_mode ? record->env_passthrough_mode
                                                                  : "inherit"));
    ar_json_set(obj, "timed_out", ar_json_bool(record->spawn->timed_out));
    ar_json_t *env = ar_json_object();
    for (size_t i = 0; record->cell_env && i < aorta_env_count(record->cell_env); i++)
        ar_json_set(env, aorta_env_name_at(record->cell_env, i),
                       ar_json_string(aorta_env_value_at(record->cell_env, i)));
    ar_json_set(obj, "env", env);
    if (record->failure_type) {
        ar_json_set(obj, "failure_type", ar_json_string(record->failure_type));
        ar_json_set(obj, "error_message",
                       ar_json_string(record->error_message ? record->error_message : ""));
    }
    return obj;
}
