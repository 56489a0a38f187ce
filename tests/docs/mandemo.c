/* SPDX-License-Identifier: MIT */
/* mandemo.c - the small collector tests/docs/check-collector-build.sh builds
 * with aorta-collector(7)'s build line, against an SDK installed into a
 * DESTDIR staging tree: a peak-RSS-style collector that declares its
 * metrics (ABI 1.2).  Its helper is not static, as the helpers of a
 * collector of several files are not: the build line must still export
 * only the entry point. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"

int mandemo_read_kb(const char *path, int fd, void *user);

static const aorta_option_spec_t mandemo_options[] = {
    {NULL, NULL, NULL, NULL},
};

static const aorta_metric_spec_t mandemo_metrics[] = {
    {"mandemo_max_rss_kb", "KiB", AORTA_BETTER_LOWER, "largest resident set size seen"},
    {"mandemo_samples", "count", AORTA_BETTER_NONE, "files read"},
    {NULL, NULL, AORTA_BETTER_NONE, NULL},
};

static int mandemo_validate(aorta_options_t *options, aorta_error_t *err)
{
    return aorta_options_apply_table(options, mandemo_options, "mandemo", err);
}

/* "env MANDEMO_DIR=<out_dir> COMMAND...". */
static int mandemo_wrap(const aorta_options_t *options, const char *out_dir,
                        const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                        aorta_error_t *err)
{
    (void)options;
    char *tool = aorta_which("env", aorta_env_get(env, "PATH"));
    if (!tool) {
        aorta_error_set(err, "mandemo: env(1) is not on PATH");
        return -1;
    }
    char setting[4096];
    if ((size_t)snprintf(setting, sizeof setting, "MANDEMO_DIR=%s", out_dir) >= sizeof setting) {
        aorta_free(tool);
        aorta_error_set(err, "mandemo: the output directory is too long (%zu bytes)", strlen(out_dir));
        return -1;
    }
    aorta_argv_push(out, tool);
    aorta_free(tool);
    aorta_argv_push(out, setting);
    aorta_argv_push_all(out, command);
    return 0;
}

/* Each *.rss file holds one count of KiB; user is {max, samples}. */
int mandemo_read_kb(const char *path, int fd, void *user)
{
    (void)path;
    int64_t *seen = user, kb = 0;
    char text[64];
    ssize_t got = read(fd, text, sizeof text);
    double value = 0;
    if (got > 0 && aorta_number_parse_n(text, (size_t)got, &value) == 0
        && aorta_count_from_double(value, &kb) == 0 && kb > seen[0])
        seen[0] = kb;
    seen[1]++;
    return 0;
}

static void mandemo_parse(const aorta_options_t *options, const char *dir,
                          aorta_metrics_t *metrics)
{
    (void)options;
    int64_t seen[2] = {0, 0};
    aorta_walk_status_t status = aorta_walk_files(dir, ".rss", mandemo_read_kb, seen);
    if (status != AORTA_WALK_OK && status != AORTA_WALK_NO_FDS)
        return;
    aorta_metrics_set_string(metrics, "mandemo_artifact_dir", dir);
    if (status == AORTA_WALK_NO_FDS) /* a partial peak would look complete */
        return;
    aorta_metrics_set_int(metrics, "mandemo_samples", seen[1]);
    if (seen[1] > 0)
        aorta_metrics_set_int(metrics, "mandemo_max_rss_kb", seen[0]);
}

AORTA_COLLECTOR_DEFINE(mandemo,
    .version = "1.0",
    .description = "peak resident set size, from *.rss files",
    .wrap_rank = 30,
    .options = mandemo_options,
    .validate = mandemo_validate,
    .wrap = mandemo_wrap,
    .parse = mandemo_parse,
    .metrics = mandemo_metrics)
