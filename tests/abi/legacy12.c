/* SPDX-License-Identifier: MIT */
/* legacy12.c - a collector written for, and compiled against, the ABI 1.2
 * header kept in tests/abi/1.2/ (never the current include/): it must keep
 * loading and behaving under every later 1.x aorta.  It uses what 1.2
 * added: the metric table, each metric's unit and better direction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"

#if AORTA_COLLECTOR_ABI_MAJOR != 1 || AORTA_COLLECTOR_ABI_MINOR != 2
#error "legacy12 must be built against the ABI 1.2 header of tests/abi/1.2"
#endif

static const aorta_metric_spec_t legacy_metrics[] = {
    {"legacy12_gpu_time_ms", "ms", AORTA_BETTER_LOWER, "the kernels' total"},
    {"legacy12_files", "files", AORTA_BETTER_NONE, "the *.k12 files read"},
    {NULL, NULL, AORTA_BETTER_NONE, NULL},
};

static int legacy_validate(aorta_options_t *options, aorta_error_t *err)
{
    (void)options, (void)err;
    return 0;
}

/* "env LEGACY12_DIR=<out_dir> COMMAND...". */
static int legacy_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                       aorta_error_t *err)
{
    (void)options;
    char *tool = aorta_which("env", aorta_env_get(env, "PATH"));
    if (!tool) {
        aorta_error_set(err, "legacy12: env(1) is not on PATH");
        return -1;
    }
    char setting[4096];
    snprintf(setting, sizeof setting, "LEGACY12_DIR=%s", out_dir);
    aorta_argv_push(out, tool);
    aorta_free(tool);
    aorta_argv_push(out, setting);
    aorta_argv_push_all(out, command);
    return 0;
}

typedef struct tally {
    aorta_kernels_t *kernels;
    int64_t files;
} tally_t;

/* Each line of a *.k12 file: "NAME<TAB>NANOSECONDS". */
static int read_rows(const char *path, int fd, void *user)
{
    (void)path;
    tally_t *tally = user;
    tally->files++;
    char text[4096];
    ssize_t got = read(fd, text, sizeof text - 1);
    if (got <= 0)
        return 0;
    text[got] = '\0';
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        double ns = 0;
        if (tab && aorta_number_parse(tab + 1, &ns) == 0)
            aorta_kernels_add(tally->kernels, line, (size_t)(tab - line), ns, 1);
    }
    return 0;
}

static void legacy_parse(const aorta_options_t *options, const char *dir,
                         aorta_metrics_t *metrics)
{
    (void)options;
    tally_t tally = {aorta_kernels_new(0), 0};
    if (aorta_walk_files_sorted(dir, ".k12", read_rows, &tally) == AORTA_WALK_OK) {
        aorta_kernels_report(tally.kernels, metrics, "legacy12", 1e6, NULL);
        aorta_metrics_set_int(metrics, "legacy12_files", tally.files);
    }
    aorta_kernels_free(tally.kernels);
}

AORTA_COLLECTOR_DEFINE(legacy12,
    .version = "1.2",
    .description = "a collector built against the ABI 1.2 header",
    .wrap_rank = 43,
    .validate = legacy_validate,
    .wrap = legacy_wrap,
    .parse = legacy_parse,
    .metrics = legacy_metrics)
