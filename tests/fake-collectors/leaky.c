/* SPDX-License-Identifier: MIT */
/* A collector whose parse leaves a file descriptor open: the template's old
 * slip (it leaked the dup() of a walked file when fdopen() failed).  A
 * parse runs once per trial, in the process of whatever host calls it. */
#include <fcntl.h>

#define SLIP_NAME "leaky"
#include "slip_common.h"

static int leaky_wrap(const aorta_options_t *options, const char *out_dir,
                      const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                      aorta_error_t *err)
{
    (void)options, (void)env;
    return slip_wrap_whole(command, out_dir, out, err);
}

static void leaky_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options;
    /* The slip: a descriptor opened to look at the directory, never closed. */
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    (void)fd;
    slip_parse_whole(dir, metrics);
}

AORTA_COLLECTOR_DEFINE(leaky,
    .version = "1.0",
    .description = "leaves a file descriptor open in parse",
    .wrap_rank = 60,
    .options = slip_options,
    .validate = slip_validate,
    .wrap = leaky_wrap,
    .parse = leaky_parse)
