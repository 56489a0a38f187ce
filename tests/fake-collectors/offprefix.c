/* SPDX-License-Identifier: MIT */
/* A collector whose parse reports metrics outside its prefix beside its own:
 * "cycles" (twice, by two setters) and "other_ms".  aorta-run drops them
 * with one warning per name and parse, in a run and in --parse
 * (tests/run/check_run_minimal.c).  Built as
 * tests/fake-collectors/prefix/offprefix.la, away from the listings other
 * suites compare. */
#include <stdio.h>
#include <string.h>

#include "aorta/collector.h"

static const aorta_option_spec_t offprefix_options[] = {{NULL, NULL, NULL, NULL}};

static int offprefix_validate(aorta_options_t *options, aorta_error_t *err)
{
    return aorta_options_apply_table(options, offprefix_options, "offprefix", err);
}

/* `env OFFPREFIX_DIR=<out_dir> COMMAND...` */
static int offprefix_wrap(const aorta_options_t *options, const char *out_dir,
                          const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                          aorta_error_t *err)
{
    (void)options, (void)env;
    char dir[4096];
    if ((size_t)snprintf(dir, sizeof dir, "OFFPREFIX_DIR=%s", out_dir) >= sizeof dir) {
        aorta_error_set(err, "offprefix: the output directory is too long");
        return -1;
    }
    return aorta_argv_push(out, "/usr/bin/env") | aorta_argv_push(out, dir)
                   | aorta_argv_push_all(out, command)
               ? -1
               : 0;
}

static int skip(const char *path, int fd, void *user)
{
    (void)path, (void)fd, (void)user;
    return 0;
}

static void offprefix_parse(const aorta_options_t *options, const char *dir,
                            aorta_metrics_t *metrics)
{
    (void)options;
    aorta_walk_status_t status = aorta_walk_files(dir, ".tsv", skip, NULL);
    if (status != AORTA_WALK_OK && status != AORTA_WALK_NO_FDS)
        return;
    aorta_metrics_set_string(metrics, "offprefix_artifact_dir", dir);
    aorta_metrics_set_int(metrics, "cycles", 7);
    aorta_metrics_set_int(metrics, "offprefix_launches", 3);
    aorta_metrics_set_double(metrics, "cycles", 7.5);
    aorta_metrics_set_double(metrics, "other_ms", 1.5);
}

AORTA_COLLECTOR_DEFINE(offprefix,
    .version = "1.0",
    .description = "reports metrics outside its prefix",
    .wrap_rank = 60,
    .options = offprefix_options,
    .validate = offprefix_validate,
    .wrap = offprefix_wrap,
    .parse = offprefix_parse)
