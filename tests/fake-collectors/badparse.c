/* SPDX-License-Identifier: MIT */
/* A collector whose parse() misbehaves as its options say: "crash" raises
 * SIGSEGV, "hang" never returns, "exit" calls exit(3), "noise" writes
 * garbage to stdout (the reply channel is separate) and a warning line and
 * a plain line to stderr, "huge" reports a 17 MiB
 * string (past the 16 MiB reply limit; the reply cuts it), "hog" allocates and touches up to 1 GiB
 * (aborting when an allocation fails, as a parser would), "daemon" starts a
 * setsid daemon that sleeps and writes its pid to DIR/daemon.pid, "ready"
 * creates DIR/parsing and then hangs, anything else reports normally.  It also reports a key outside its namespace, which the core
 * must drop, with a warning. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aorta/collector.h"

static const aorta_option_spec_t badparse_options[] = {
    {"behaviour", NULL, "normal", "crash, hang, exit, noise, huge, hog, daemon, ready or normal"},
    {NULL, NULL, NULL, NULL},
};

static int badparse_validate(aorta_options_t *options, aorta_error_t *err)
{
    (void)err;
    if (!aorta_options_get(options, "behaviour"))
        aorta_options_set(options, "behaviour", "normal");
    return 0;
}

static int badparse_wrap(const aorta_options_t *options, const char *out_dir,
                         const aorta_argv_t *command, const aorta_env_t *environ,
                         aorta_argv_t *out, aorta_error_t *err)
{
    (void)options, (void)out_dir, (void)environ, (void)err;
    return aorta_argv_push_all(out, command);
}

static void badparse_parse(const aorta_options_t *options, const char *dir,
                           aorta_metrics_t *metrics)
{
    const char *behaviour = options ? aorta_options_get(options, "behaviour") : NULL;
    behaviour = behaviour ? behaviour : "normal";
    if (strcmp(behaviour, "crash") == 0)
        raise(SIGSEGV);
    if (strcmp(behaviour, "hang") == 0)
        for (;;)
            pause();
    if (strcmp(behaviour, "exit") == 0)
        exit(3);
    if (strcmp(behaviour, "ready") == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/parsing", dir);
        FILE *mark = fopen(path, "w");
        if (mark)
            fclose(mark);
        for (;;)
            pause();
    }
    if (strcmp(behaviour, "hog") == 0) {
        for (size_t total = 0; total < (1u << 30); total += 64u << 20) {
            char *chunk = malloc(64u << 20);
            if (!chunk)
                abort();
            memset(chunk, 1, 64u << 20);
        }
    }
    if (strcmp(behaviour, "daemon") == 0) {
        pid_t middle = fork();
        if (middle == 0) {
            setsid();
            pid_t daemon = fork();
            if (daemon == 0) {
                sleep(60);
                _exit(0);
            }
            char path[4096];
            snprintf(path, sizeof path, "%s/daemon.pid", dir);
            FILE *out = fopen(path, "w");
            if (out) {
                fprintf(out, "%ld\n", (long)daemon);
                fclose(out);
            }
            _exit(0);
        }
        waitpid(middle, NULL, 0);
    }
    if (strcmp(behaviour, "noise") == 0) {
        printf("}}} not json {{{\n");
        fputs("aorta-run: warning: badparse: a warning of its own\nnot a warning\n", stderr);
    }
    if (strcmp(behaviour, "huge") == 0) {
        static char big[17u << 20];
        memset(big, 'k', sizeof big - 1);
        aorta_metrics_set_string(metrics, "badparse_huge", big);
    }
    aorta_metrics_set_string(metrics, "badparse_artifact_dir", dir);
    aorta_metrics_set_int(metrics, "badparse_kernel_count", 7);
    aorta_metrics_set_double(metrics, "badparse_gpu_time_ms", 1.5);
    const char *top[] = {"k1", "k2"};
    aorta_metrics_set_strings(metrics, "badparse_top_kernels", top, 2);
    aorta_metrics_set_int(metrics, "verdict", 1); /* dropped by the sink, with a warning */
}

AORTA_COLLECTOR_DEFINE(badparse,
    .version = "1.0",
    .description = "a test collector whose parse() crashes, hangs or misbehaves on request",
    .wrap_rank = 60,
    .options = badparse_options,
    .validate = badparse_validate,
    .wrap = badparse_wrap,
    .parse = badparse_parse)
