/* SPDX-License-Identifier: MIT */
/* legacy10.c - a collector written for, and compiled against, the ABI 1.0
 * header kept in tests/abi/1.0/ (never the current include/): it must keep
 * loading and behaving under every later 1.x aorta.  It uses what a 1.0
 * collector could: every callback slot of 1.0, the old queue_interceptor
 * with caller-sized buffers, the 1.0 helpers, and the 1.0 parameter names
 * (wrap's `environ`). */
#include <stdio.h>
#include <string.h>

#include "aorta/collector.h"

#if AORTA_COLLECTOR_ABI_MAJOR != 1 || AORTA_COLLECTOR_ABI_MINOR != 0
#error "legacy10 must be built against the ABI 1.0 header of tests/abi/1.0"
#endif

static const char *const intercept_values[] = {"no", "yes", NULL};

static const aorta_option_spec_t legacy_options[] = {
    {"intercept", intercept_values, "no", "claim an HSA queue interceptor"},
    {"tag", NULL, "t0", "free text copied into the metrics"},
    {NULL, NULL, NULL, NULL},
};

static int legacy_validate(aorta_options_t *options, aorta_error_t *err)
{
    if (aorta_options_check_keys(options, legacy_options, "legacy10", err) != 0)
        return -1;
    const char *intercept = aorta_options_get(options, "intercept");
    if (intercept && strcmp(intercept, "no") != 0 && strcmp(intercept, "yes") != 0) {
        aorta_error_set(err, "legacy10 option 'intercept': '%s' is not 'no' or 'yes'", intercept);
        return -1;
    }
    if (!intercept)
        aorta_options_set(options, "intercept", "no");
    if (!aorta_options_get(options, "tag"))
        aorta_options_set(options, "tag", "t0");
    return 0;
}

/* "env LEGACY10_DIR=<out_dir> COMMAND...": the command runs, and sees where
 * its artifacts go. */
static int legacy_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *environ,
                       aorta_argv_t *out, aorta_error_t *err)
{
    (void)options;
    char *env = aorta_which("env", aorta_env_get(environ, "PATH"));
    if (!env) {
        aorta_error_set(err, "legacy10: env(1) is not on PATH");
        return -1;
    }
    char setting[4096];
    snprintf(setting, sizeof setting, "LEGACY10_DIR=%s", out_dir);
    aorta_argv_push(out, env);
    aorta_free(env);
    aorta_argv_push(out, setting);
    aorta_argv_push_all(out, command);
    return 0;
}

static int legacy_env(const aorta_options_t *options, const char *out_dir,
                      aorta_env_t *bundle, aorta_error_t *err)
{
    (void)err;
    aorta_env_set(bundle, "LEGACY10_DIR", out_dir);
    aorta_env_set(bundle, "LEGACY10_TAG", aorta_options_get(options, "tag"));
    return 0;
}

static int count_file(const char *path, int fd, void *user)
{
    (void)path, (void)fd;
    ++*(int64_t *)user;
    return 0;
}

/* legacy10_files: the *.legacy files below dir; legacy10_tag: the option. */
static void legacy_parse(const aorta_options_t *options, const char *dir,
                         aorta_metrics_t *metrics)
{
    int64_t files = 0;
    if (aorta_walk_files(dir, ".legacy", count_file, &files) != AORTA_WALK_OK)
        return;
    char *artifact_dir = aorta_path_join(dir, NULL);
    aorta_metrics_set_string(metrics, "legacy10_artifact_dir", artifact_dir);
    aorta_free(artifact_dir);
    aorta_metrics_set_int(metrics, "legacy10_files", files);
    aorta_metrics_set_string(metrics, "legacy10_tag", aorta_options_get(options, "tag"));
}

static int legacy_queue_interceptor(const aorta_options_t *options, char *why, size_t why_size,
                                    char *remedy, size_t remedy_size)
{
    if (strcmp(aorta_options_get(options, "intercept"), "yes") != 0)
        return 0;
    snprintf(why, why_size, "legacy10 intercept 'yes'");
    snprintf(remedy, remedy_size, "Set legacy10's intercept to 'no'.");
    return 1;
}

AORTA_COLLECTOR_DEFINE(legacy10,
    .version = "1.0",
    .description = "a collector built against the ABI 1.0 header",
    .wrap_rank = 40,
    .options = legacy_options,
    .validate = legacy_validate,
    .wrap = legacy_wrap,
    .env = legacy_env,
    .parse = legacy_parse,
    .queue_interceptor = legacy_queue_interceptor)
