/* SPDX-License-Identifier: MIT */
/* target10.c - a collector built against the current header for ABI 1.0
 * (AORTA_COLLECTOR_ABI_TARGET 0), as an author whose users still run a 1.0
 * aorta builds it: it is stamped 1.0, needs only AORTA_1.0 symbols, and so
 * loads into a 1.0 libaorta as well as into today's. */
#define AORTA_COLLECTOR_ABI_TARGET 0
#include <stdio.h>
#include <string.h>

#include "aorta/collector.h"

#if AORTA_COLLECTOR_ABI_MINOR < 2
#error "target10 is built against the current header, not a kept one"
#endif

static const aorta_option_spec_t target_options[] = {
    {"tag", NULL, "t0", "free text copied into the metrics"},
    {NULL, NULL, NULL, NULL},
};

static int target_validate(aorta_options_t *options, aorta_error_t *err)
{
    if (aorta_options_check_keys(options, target_options, "target10", err) != 0)
        return -1;
    if (!aorta_options_get(options, "tag"))
        aorta_options_set(options, "tag", "t0");
    return 0;
}

/* "env TARGET10_DIR=<out_dir> COMMAND...". */
static int target_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                       aorta_error_t *err)
{
    (void)options;
    char *tool = aorta_which("env", aorta_env_get(env, "PATH"));
    if (!tool) {
        aorta_error_set(err, "target10: env(1) is not on PATH");
        return -1;
    }
    char setting[4096];
    if ((size_t)snprintf(setting, sizeof setting, "TARGET10_DIR=%s", out_dir) >= sizeof setting) {
        aorta_free(tool);
        aorta_error_set(err, "target10: the output directory is too long (%zu bytes)", strlen(out_dir));
        return -1;
    }
    aorta_argv_push(out, tool);
    aorta_free(tool);
    aorta_argv_push(out, setting);
    aorta_argv_push_all(out, command);
    return 0;
}

static int count_file(const char *path, int fd, void *user)
{
    (void)path, (void)fd;
    ++*(int64_t *)user;
    return 0;
}

/* target10_files: the *.t10 files below dir; target10_tag: the option. */
static void target_parse(const aorta_options_t *options, const char *dir,
                         aorta_metrics_t *metrics)
{
    int64_t files = 0;
    aorta_walk_status_t status = aorta_walk_files(dir, ".t10", count_file, &files);
    if (status != AORTA_WALK_OK && status != AORTA_WALK_NO_FDS)
        return;
    char *artifact_dir = aorta_path_join(dir, NULL);
    aorta_metrics_set_string(metrics, "target10_artifact_dir", artifact_dir);
    aorta_free(artifact_dir);
    if (status == AORTA_WALK_NO_FDS) /* a partial count would look complete */
        return;
    aorta_metrics_set_int(metrics, "target10_files", files);
    aorta_metrics_set_string(metrics, "target10_tag", aorta_options_get(options, "tag"));
}

AORTA_COLLECTOR_DEFINE(target10,
    .version = "1.0",
    .description = "a collector built for ABI 1.0 with the current header",
    .wrap_rank = 42,
    .options = target_options,
    .validate = target_validate,
    .wrap = target_wrap,
    .parse = target_parse)
