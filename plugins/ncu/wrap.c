/* SPDX-License-Identifier: MIT */
/* wrap.c - the ncu argv of docs/collectors/ncu.md:
 *   ncu --target-processes all --clock-control none --metrics M
 *       [--section S]... [--set S] [--kernel-name K] [--launch-skip N]
 *       [--launch-count N] [--replay-mode R]
 *       (--export DIR/ncu --force-overwrite | --csv --page raw --log-file DIR/ncu.csv)
 *       -- COMMAND...
 * Every child process is profiled (a launcher, a shell script, a Python
 * that starts workers); clocks are left as the GPU runs them, so a time is
 * the one the payload would see. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ncu.h"

static void push_pair(aorta_argv_t *out, const char *flag, const char *value)
{
    if (!value)
        return;
    aorta_argv_push(out, flag);
    aorta_argv_push(out, value);
}

/* NCCL collectives need every rank's kernel running at once; ncu runs one
 * launch at a time, so they may hang or take other times.  Said when the
 * trial's environment or command shows a collective payload. */
static void warn_nccl(const aorta_argv_t *command, const aorta_env_t *env)
{
    const char *why = NULL;
    for (size_t i = 0; env && i < aorta_env_count(env) && !why; i++)
        if (!strncmp(aorta_env_name_at(env, i), "NCCL_", 5))
            why = aorta_env_name_at(env, i);
    const char *program = aorta_argv_at(command, 0);
    const char *base = program ? strrchr(program, '/') : NULL;
    base = base ? base + 1 : program;
    if (!why && base && !strcmp(base, "torchrun"))
        why = "torchrun";
    if (why)
        aorta_warn("ncu", "the payload looks like it uses NCCL (%s): ncu serialises kernel "
                          "launches, so collectives may hang or be timed alone; profile one "
                          "rank, or filter with kernel_name",
                   why);
}

int ncu_wrap(const aorta_options_t *options, const char *out_dir, const aorta_argv_t *command,
             const aorta_env_t *env, aorta_argv_t *out, aorta_error_t *err)
{
    if (aorta_argv_count(command) == 0) {
        aorta_error_set(err, "cannot wrap an empty argv with ncu");
        return -1;
    }
    char *binary = aorta_which("ncu", env ? aorta_env_get(env, "PATH") : NULL);
    if (!binary) {
        aorta_error_set(err, "ncu is not on the command's PATH: install NVIDIA Nsight Compute "
                             "(it comes with the CUDA toolkit) or put its directory on PATH, "
                             "in aorta-run's environment or the cell's variables");
        return -1;
    }
    ncu_opts_t opts;
    ncu_opts_read(options, &opts);
    aorta_argv_push(out, binary);
    aorta_free(binary);
    push_pair(out, "--target-processes", "all");
    push_pair(out, "--clock-control", "none");
    char *metrics = cc_xstrdup(opts.metrics[0]);
    for (size_t i = 1; i < opts.metric_count; i++) {
        char *longer = cc_xasprintf("%s,%s", metrics, opts.metrics[i]);
        free(metrics);
        metrics = longer;
    }
    push_pair(out, "--metrics", metrics);
    free(metrics);
    for (size_t i = 0; i < opts.section_count; i++)
        push_pair(out, "--section", opts.sections[i]);
    push_pair(out, "--set", opts.set);
    push_pair(out, "--kernel-name", opts.kernel_name);
    push_pair(out, "--launch-skip", opts.launch_skip);
    push_pair(out, "--launch-count", opts.launch_count);
    push_pair(out, "--replay-mode", opts.replay_mode);
    char *path = aorta_path_join(out_dir, strcmp(opts.output, "log") ? NCU_REPORT_STEM
                                                                      : NCU_LOG_FILE);
    if (strcmp(opts.output, "log") != 0) {
        push_pair(out, "--export", path);
        aorta_argv_push(out, "--force-overwrite");
    } else {
        aorta_argv_push(out, "--csv");
        push_pair(out, "--page", "raw");
        push_pair(out, "--log-file", path);
    }
    aorta_free(path);
    aorta_argv_push(out, "--");
    aorta_argv_push_all(out, command);
    ncu_opts_free(&opts);
    warn_nccl(command, env);
    return 0;
}
