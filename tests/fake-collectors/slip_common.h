/* SPDX-License-Identifier: MIT */
/* slip_common.h - the collector template's shape, for the test collectors
 * that each make one slip aorta-run --check-collector must catch
 * (tests/run/check_check_collector.c): everything but the slip is right.
 * SLIP_NAME is the collector's name; the file defines slip_wrap and
 * slip_parse, or takes these. */
#ifndef AORTA_SLIP_COMMON_H
#define AORTA_SLIP_COMMON_H

#include <stdio.h>
#include <string.h>

#include "aorta/collector.h"

static const aorta_option_spec_t slip_options[] = {{NULL, NULL, NULL, NULL}};

static inline int slip_validate(aorta_options_t *options, aorta_error_t *err)
{
    return aorta_options_apply_table(options, slip_options, SLIP_NAME, err);
}

/* `env SLIP_DIR=<out_dir> COMMAND...`, refusing a directory it cannot hold. */
static inline int slip_wrap_whole(const aorta_argv_t *command, const char *out_dir, aorta_argv_t *out,
                           aorta_error_t *err)
{
    char dir[4096];
    if ((size_t)snprintf(dir, sizeof dir, "SLIP_DIR=%s", out_dir) >= sizeof dir) {
        aorta_error_set(err, SLIP_NAME ": the output directory is too long");
        return -1;
    }
    return aorta_argv_push(out, "/usr/bin/env") | aorta_argv_push(out, dir)
                   | aorta_argv_push_all(out, command)
               ? -1
               : 0;
}

/* Files that end in ".tsv" are read by nobody: a walk is all it does. */
static inline int slip_skip(const char *path, int fd, void *user)
{
    (void)path, (void)fd, (void)user;
    return 0;
}

/* The directory whenever it is one, as the contract says. */
static inline void slip_parse_whole(const char *dir, aorta_metrics_t *metrics)
{
    aorta_walk_status_t status = aorta_walk_files(dir, ".tsv", slip_skip, NULL);
    if (status == AORTA_WALK_OK || status == AORTA_WALK_NO_FDS)
        aorta_metrics_set_string(metrics, SLIP_NAME "_artifact_dir", dir);
}

#endif
