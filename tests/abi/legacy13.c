/* SPDX-License-Identifier: MIT */
/* legacy13.c - a collector written for, and compiled against, the ABI 1.3
 * header kept in tests/abi/1.3/ (never the current include/): it must keep
 * loading and behaving under every later 1.x aorta.  It uses what 1.3 added
 * (the per-dispatch trace) and claims an HSA queue interceptor through
 * 1.1's queue_interceptor_why, which 1.4's named resources must still
 * honour. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"

#if AORTA_COLLECTOR_ABI_MAJOR != 1 || AORTA_COLLECTOR_ABI_MINOR != 3
#error "legacy13 must be built against the ABI 1.3 header of tests/abi/1.3"
#endif

static const char *const intercept_values[] = {"no", "yes", NULL};

static const aorta_option_spec_t legacy_options[] = {
    {"intercept", intercept_values, "no", "claim an HSA queue interceptor"},
    {NULL, NULL, NULL, NULL},
};

static int legacy_validate(aorta_options_t *options, aorta_error_t *err)
{
    return aorta_options_apply_table(options, legacy_options, "legacy13", err);
}

/* "env LEGACY13_DIR=<out_dir> COMMAND...". */
static int legacy_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                       aorta_error_t *err)
{
    (void)options;
    char *tool = aorta_which("env", aorta_env_get(env, "PATH"));
    if (!tool) {
        aorta_error_set(err, "legacy13: env(1) is not on PATH");
        return -1;
    }
    char setting[4096];
    snprintf(setting, sizeof setting, "LEGACY13_DIR=%s", out_dir);
    aorta_argv_push(out, tool);
    aorta_free(tool);
    aorta_argv_push(out, setting);
    aorta_argv_push_all(out, command);
    return 0;
}

typedef struct tally {
    aorta_kernels_t *kernels;
    aorta_dispatches_t *dispatches;
} tally_t;

/* Each line of a *.k13 file: "NAME<TAB>START_NS<TAB>END_NS". */
static int read_rows(const char *path, int fd, void *user)
{
    (void)path;
    tally_t *tally = user;
    char text[4096];
    ssize_t got = read(fd, text, sizeof text - 1);
    if (got <= 0)
        return 0;
    text[got] = '\0';
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char name[256];
        unsigned long long start = 0, end = 0;
        if (sscanf(line, "%255[^\t]\t%llu\t%llu", name, &start, &end) != 3 || end < start)
            continue;
        aorta_kernels_add(tally->kernels, name, strlen(name), (double)(end - start), 1);
        aorta_dispatches_add(tally->dispatches, "stream 1", name, strlen(name), start, end);
    }
    return 0;
}

static void legacy_parse(const aorta_options_t *options, const char *dir,
                         aorta_metrics_t *metrics)
{
    (void)options;
    tally_t tally = {aorta_kernels_new(0), aorta_dispatches_new()};
    aorta_dispatches_set_clock(tally.dispatches, AORTA_CLOCK_SESSION);
    if (aorta_walk_files_sorted(dir, ".k13", read_rows, &tally) == AORTA_WALK_OK) {
        aorta_kernels_report(tally.kernels, metrics, "legacy13", 1e6, dir);
        aorta_metrics_set_dispatches(metrics, tally.dispatches);
    }
    aorta_dispatches_free(tally.dispatches);
    aorta_kernels_free(tally.kernels);
}

static int legacy_queue_interceptor(const aorta_options_t *options, aorta_error_t *why,
                                    aorta_error_t *remedy)
{
    const char *value = aorta_options_get(options, "intercept");
    if (!value || strcmp(value, "yes") != 0)
        return 0;
    aorta_error_set(why, "legacy13 intercept 'yes'");
    aorta_error_set(remedy, "Set legacy13's intercept to 'no'.");
    return 1;
}

AORTA_COLLECTOR_DEFINE(legacy13,
    .version = "1.3",
    .description = "a collector built against the ABI 1.3 header",
    .wrap_rank = 44,
    .options = legacy_options,
    .validate = legacy_validate,
    .wrap = legacy_wrap,
    .parse = legacy_parse,
    .queue_interceptor_why = legacy_queue_interceptor)
