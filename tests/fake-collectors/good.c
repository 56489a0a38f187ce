/* SPDX-License-Identifier: MIT */
/* A well-formed test collector: wraps with "<out_dir>/good-wrapper --" and
 * reports a metric per option.  Built twice: tests/fake-collectors/good.la and, with
 * GOOD_VERSION "shadow", tests/fake-collectors/shadow/good.la (the same name later on
 * the search path). */
#include <stdio.h>
#include <string.h>

#include "aorta/collector.h"

#ifndef GOOD_VERSION
#define GOOD_VERSION "1.0"
#endif

static const char *const level_values[] = {"low", "high", NULL};

static const aorta_option_spec_t good_options[] = {
    {"level", level_values, "low", "how much to collect"},
    {"label", NULL, NULL, "free text copied into the metrics"},
    {NULL, NULL, NULL, NULL},
};

static int good_validate(aorta_options_t *options, aorta_error_t *err)
{
    for (size_t i = 0; i < aorta_options_count(options); i++) {
        const char *key = aorta_options_key_at(options, i);
        if (strcmp(key, "level") != 0 && strcmp(key, "label") != 0) {
            aorta_error_set(err, "good: unknown option '%s'", key);
            return -1;
        }
    }
    const char *level = aorta_options_get(options, "level");
    if (level && strcmp(level, "low") != 0 && strcmp(level, "high") != 0) {
        aorta_error_set(err, "good option 'level': '%s' is not one of ['high', 'low']", level);
        return -1;
    }
    if (!level)
        aorta_options_set(options, "level", "low");
    return 0;
}

static int good_wrap(const aorta_options_t *options, const char *out_dir,
                     const aorta_argv_t *command, const aorta_env_t *environ, aorta_argv_t *out,
                     aorta_error_t *err)
{
    (void)options, (void)environ, (void)err;
    char *wrapper = aorta_path_join(out_dir, "good-wrapper");
    aorta_argv_push(out, wrapper);
    aorta_free(wrapper);
    aorta_argv_push(out, "--");
    aorta_argv_push_all(out, command);
    return 0;
}

static void good_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    aorta_metrics_set_string(metrics, "good_artifact_dir", dir);
    aorta_metrics_set_string(metrics, "good_version", GOOD_VERSION);
    const char *label = options ? aorta_options_get(options, "label") : NULL;
    if (label)
        aorta_metrics_set_string(metrics, "good_label", label);
}

AORTA_COLLECTOR_DEFINE(good,
    .version = GOOD_VERSION,
    .description = "a well-formed test collector",
    .wrap_rank = 50,
    .options = good_options,
    .validate = good_validate,
    .wrap = good_wrap,
    .parse = good_parse)
