/* SPDX-License-Identifier: MIT */
/* A collector whose wrap cuts a long output directory short: the
 * template's old slip (it formatted "NAME=<out_dir>" into a 4096-byte
 * buffer and went on with what fitted, so the profiler would write
 * somewhere else). */
#define SLIP_NAME "cutpath"
#include "slip_common.h"

static int cutpath_wrap(const aorta_options_t *options, const char *out_dir,
                        const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                        aorta_error_t *err)
{
    (void)options, (void)env, (void)err;
    char dir[4096];
    snprintf(dir, sizeof dir, "SLIP_DIR=%s", out_dir); /* the slip: cut, and no refusal */
    return aorta_argv_push(out, "/usr/bin/env") | aorta_argv_push(out, dir)
                   | aorta_argv_push_all(out, command)
               ? -1
               : 0;
}

static void cutpath_parse(const aorta_options_t *options, const char *dir,
                          aorta_metrics_t *metrics)
{
    (void)options;
    slip_parse_whole(dir, metrics);
}

AORTA_COLLECTOR_DEFINE(cutpath,
    .version = "1.0",
    .description = "cuts a long output directory short in wrap",
    .wrap_rank = 60,
    .options = slip_options,
    .validate = slip_validate,
    .wrap = cutpath_wrap,
    .parse = cutpath_parse)
