/* SPDX-License-Identifier: MIT */
/* legacy11.c - a collector written for, and compiled against, the ABI 1.1
 * header kept in tests/abi/1.1/ (never the current include/): it must keep
 * loading and behaving under every later 1.x aorta.  It uses what 1.1 added:
 * the option table check, queue_interceptor_why, the walk in path order,
 * the per-kernel accumulator, the warning channel and string lists with
 * lengths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"

#if AORTA_COLLECTOR_ABI_MAJOR != 1 || AORTA_COLLECTOR_ABI_MINOR != 1
#error "legacy11 must be built against the ABI 1.1 header of tests/abi/1.1"
#endif

static const char *const intercept_values[] = {"no", "yes", NULL};

static const aorta_option_spec_t legacy_options[] = {
    {"intercept", intercept_values, "no", "claim an HSA queue interceptor"},
    {"tag", NULL, "t1", "free text copied into the metrics"},
    {NULL, NULL, NULL, NULL},
};

static int legacy_validate(aorta_options_t *options, aorta_error_t *err)
{
    return aorta_options_apply_table(options, legacy_options, "legacy11", err);
}

/* "env LEGACY11_DIR=<out_dir> COMMAND...". */
static int legacy_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                       aorta_error_t *err)
{
    (void)options;
    char *tool = aorta_which("env", aorta_env_get(env, "PATH"));
    if (!tool) {
        aorta_error_set(err, "legacy11: env(1) is not on PATH");
        return -1;
    }
    char setting[4096];
    snprintf(setting, sizeof setting, "LEGACY11_DIR=%s", out_dir);
    aorta_argv_push(out, tool);
    aorta_free(tool);
    aorta_argv_push(out, setting);
    aorta_argv_push_all(out, command);
    return 0;
}

/* Each line of a *.k11 file: "NAME<TAB>NANOSECONDS". */
static int read_rows(const char *path, int fd, void *user)
{
    (void)path;
    char text[4096];
    ssize_t got = read(fd, text, sizeof text - 1);
    if (got <= 0)
        return 0;
    text[got] = '\0';
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        double ns = 0;
        if (!tab || aorta_number_parse(tab + 1, &ns) != 0) {
            aorta_warn("legacy11", "skipping the row '%s'", line);
            continue;
        }
        aorta_kernels_add(user, line, (size_t)(tab - line), ns, 1);
    }
    return 0;
}

static void legacy_parse(const aorta_options_t *options, const char *dir,
                         aorta_metrics_t *metrics)
{
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    if (aorta_walk_files_sorted(dir, ".k11", read_rows, kernels) != AORTA_WALK_OK) {
        aorta_kernels_free(kernels);
        return;
    }
    char *artifact_dir = aorta_path_join(dir, NULL);
    aorta_kernels_report(kernels, metrics, "legacy11", 1e6, artifact_dir);
    aorta_free(artifact_dir);
    aorta_kernels_free(kernels);
    const char *tag = aorta_options_get(options, "tag");
    const char *items[] = {tag, "with\0nul"};
    const size_t lengths[] = {strlen(tag), 8};
    aorta_metrics_set_strings_n(metrics, "legacy11_tags", items, lengths, 2);
}

static int legacy_queue_interceptor_why(const aorta_options_t *options, aorta_error_t *why,
                                        aorta_error_t *remedy)
{
    if (strcmp(aorta_options_get(options, "intercept"), "yes") != 0)
        return 0;
    aorta_error_set(why, "legacy11 intercept 'yes'");
    aorta_error_set(remedy, "Set legacy11's intercept to 'no'.");
    return 1;
}

AORTA_COLLECTOR_DEFINE(legacy11,
    .version = "1.1",
    .description = "a collector built against the ABI 1.1 header",
    .wrap_rank = 41,
    .options = legacy_options,
    .validate = legacy_validate,
    .wrap = legacy_wrap,
    .parse = legacy_parse,
    .queue_interceptor_why = legacy_queue_interceptor_why)
