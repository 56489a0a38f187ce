/* SPDX-License-Identifier: MIT */
/* A third-party-style collector that installs an HSA queue interceptor
 * (like a rocprofv3-based one), to test the core's generic checks.
 * It stays on ABI 1.0's queue_interceptor slot, proving that a 1.0
 * collector still loads and is asked.
 * Options: intercept (yes/no, default yes), phrase (what queue_interceptor
 * says about why; default none, as rocprof), exclusive_with (a collector
 * name its conflicts() refuses).  Wraps as "<out_dir>/a-wrapper -- CMD". */
#include <stdio.h>
#include <string.h>

#include "aorta/collector.h"

static const char *const yes_no[] = {"yes", "no", NULL};

static const aorta_option_spec_t a_options[] = {
    {"intercept", yes_no, "yes", "whether it installs a queue interceptor"},
    {"phrase", NULL, NULL, "why it intercepts, for the refusal message"},
    {"exclusive_with", NULL, NULL, "a collector it refuses to run with"},
    {NULL, NULL, NULL, NULL},
};

static int a_validate(aorta_options_t *options, aorta_error_t *err)
{
    for (size_t i = 0; i < aorta_options_count(options); i++) {
        const char *key = aorta_options_key_at(options, i);
        if (strcmp(key, "intercept") && strcmp(key, "phrase") && strcmp(key, "exclusive_with")) {
            aorta_error_set(err, "interceptor_a: unknown option '%s'", key);
            return -1;
        }
    }
    const char *intercept = aorta_options_get(options, "intercept");
    if (intercept && strcmp(intercept, "yes") && strcmp(intercept, "no")) {
        aorta_error_set(err, "interceptor_a option 'intercept': '%s' is not one of ['no', 'yes']",
                        intercept);
        return -1;
    }
    if (!intercept)
        aorta_options_set(options, "intercept", "yes");
    return 0;
}

static int a_wrap(const aorta_options_t *options, const char *out_dir,
                  const aorta_argv_t *command, const aorta_env_t *environ, aorta_argv_t *out,
                  aorta_error_t *err)
{
    (void)options, (void)environ, (void)err;
    char *wrapper = aorta_path_join(out_dir, "a-wrapper");
    aorta_argv_push(out, wrapper);
    aorta_free(wrapper);
    aorta_argv_push(out, "--");
    return aorta_argv_push_all(out, command);
}

static void a_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options;
    aorta_metrics_set_string(metrics, "interceptor_a_artifact_dir", dir);
}

static int a_conflicts(const aorta_options_t *options, const char *other_name,
                       const aorta_options_t *other_options, aorta_error_t *err)
{
    (void)other_options;
    const char *exclusive = aorta_options_get(options, "exclusive_with");
    if (exclusive && strcmp(exclusive, other_name) == 0) {
        aorta_error_set(err, "interceptor_a: cannot run together with '%s' (exclusive_with)",
                        other_name);
        return -1;
    }
    return 0;
}

static int a_queue_interceptor(const aorta_options_t *options, char *why, size_t why_size,
                               char *remedy, size_t remedy_size)
{
    (void)remedy, (void)remedy_size;
    const char *phrase = aorta_options_get(options, "phrase");
    if (phrase)
        snprintf(why, why_size, "%s", phrase);
    return strcmp(aorta_options_get(options, "intercept"), "yes") == 0;
}

/* Described as a collector built against ABI 1.0 is: minor 0, the old
 * queue_interceptor slot, the rest reserved (zero). */
static const struct aorta_collector interceptor_a_desc = {
    .abi_major = AORTA_COLLECTOR_ABI_MAJOR,
    .abi_minor = 0,
    .name = "interceptor_a",
    .version = "1.0",
    .description = "a test collector that installs a queue interceptor (rocprof-like)",
    .wrap_rank = 10,
    .options = a_options,
    .validate = a_validate,
    .wrap = a_wrap,
    .parse = a_parse,
    .conflicts = a_conflicts,
    .queue_interceptor = a_queue_interceptor};

AORTA_EXPORT const struct aorta_collector *aorta_collector_interceptor_a_get(void);
const struct aorta_collector *aorta_collector_interceptor_a_get(void)
{
    return &interceptor_a_desc;
}
