/* SPDX-License-Identifier: MIT */
/* A collector that, out of file descriptors, reports nothing: the template's
 * old slip (it skipped <name>_artifact_dir when the walk said
 * AORTA_WALK_NO_FDS, which the contract requires whenever the directory
 * exists). */
#define SLIP_NAME "noartifact"
#include "slip_common.h"

static int noartifact_wrap(const aorta_options_t *options, const char *out_dir,
                           const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                           aorta_error_t *err)
{
    (void)options, (void)env;
    return slip_wrap_whole(command, out_dir, out, err);
}

static void noartifact_parse(const aorta_options_t *options, const char *dir,
                             aorta_metrics_t *metrics)
{
    (void)options;
    aorta_walk_status_t status = aorta_walk_files(dir, ".tsv", slip_skip, NULL);
    if (status == AORTA_WALK_OK) /* the slip: AORTA_WALK_NO_FDS reports nothing */
        aorta_metrics_set_string(metrics, "noartifact_artifact_dir", dir);
}

AORTA_COLLECTOR_DEFINE(noartifact,
    .version = "1.0",
    .description = "skips _artifact_dir when out of file descriptors",
    .wrap_rank = 60,
    .options = slip_options,
    .validate = slip_validate,
    .wrap = noartifact_wrap,
    .parse = noartifact_parse)
