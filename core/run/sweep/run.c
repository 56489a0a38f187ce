/* SPDX-License-Identifier: MIT */
/* run.c - what every trial of a run shares (run.h). */
#include "config.h"

#include "sweep/run.h"

#include <errno.h>
#include <string.h>

#include "sys/diag.h"
#include "sys/knobs.h"

ar_json_t *ar_run_snapshot(const ar_run_ctx_t *ctx, int stop)
{
    if (ar_host_env_finish(ctx->host_env, stop)
        && ar_json_write_file_at(ctx->run_fd, "host_env.json",
                                    ar_host_env_snapshot(ctx->host_env))
               != 0) {
        ar_diag_error("cannot write %s/host_env.json: %s", ctx->display_dir, strerror(errno));
        if (ctx->write_failed)
            *ctx->write_failed = 1;
    }
    return ar_host_env_snapshot(ctx->host_env);
}

double ar_run_kill_grace(void)
{
    return ar_knob_seconds("AORTA_KILL_GRACE", AR_KILL_GRACE_DEFAULT, AR_KNOB_ZERO_OK);
}
