/* SPDX-License-Identifier: MIT */
/* run.c - what every trial of a run shares (run.h). */
#include "config.h"

#include "sweep/run.h"

#include <errno.h>
#include <string.h>

#include "sys/diag.h"
#include "sys/knobs.h"

aorta_json_t *aorta_run_snapshot(const aorta_run_ctx_t *ctx, int stop)
{
    if (aorta_host_env_finish(ctx->host_env, stop)
        && aorta_json_write_file_at(ctx->run_fd, "host_env.json",
                                    aorta_host_env_snapshot(ctx->host_env))
               != 0) {
        aorta_diag_error("cannot write %s/host_env.json: %s", ctx->display_dir, strerror(errno));
        if (ctx->write_failed)
            *ctx->write_failed = 1;
    }
    return aorta_host_env_snapshot(ctx->host_env);
}

double aorta_run_kill_grace(void)
{
    return aorta_knob_seconds("AORTA_KILL_GRACE", AORTA_KILL_GRACE_DEFAULT, AORTA_KNOB_ZERO_OK);
}
