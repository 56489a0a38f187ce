/* SPDX-License-Identifier: MIT */
/* A test collector for per-rank parses: each directory it parses may hold
 * "ms" (a GPU time, in ms) and "delay" (milliseconds to sleep first, so
 * tests can make parse children finish in any order); its parse sums "ms"
 * in the directory and its rank<k>/ subdirectories, as a real collector's
 * recursive walk does.  A directory holding "kernels" (a count N) is
 * parsed as N kernels of 1 us each with 300-byte names, reported through
 * the SDK's accumulator with their table (ABI 1.1). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aorta/collector.h"

static int read_number(const char *dir, const char *name, double *out)
{
    char *path = aorta_path_join(dir, name);
    FILE *in = fopen(path, "r");
    aorta_free(path);
    if (!in)
        return -1;
    int ok = fscanf(in, "%lf", out) == 1;
    fclose(in);
    return ok ? 0 : -1;
}

static int ranked_validate(aorta_options_t *options, aorta_error_t *err)
{
    (void)options, (void)err;
    return 0;
}

static int ranked_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *environ, aorta_argv_t *out,
                       aorta_error_t *err)
{
    (void)options, (void)environ, (void)err;
    /* env(1) carries the directory, as Proton's mode env does. */
    char *var = aorta_path_join(out_dir, NULL);
    size_t len = strlen(var) + sizeof "RANKED_DIR=";
    char *assignment = malloc(len);
    snprintf(assignment, len, "RANKED_DIR=%s", var);
    aorta_argv_push(out, "/usr/bin/env");
    aorta_argv_push(out, assignment);
    aorta_argv_push_all(out, command);
    free(assignment);
    aorta_free(var);
    return 0;
}

static void report_kernels(double count, aorta_metrics_t *metrics)
{
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    char name[301];
    memset(name, 'x', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    for (long i = 0; i < (long)count; i++) {
        int len = snprintf(name, sizeof name, "kernel_%08ld_", i);
        name[len] = 'x';
        aorta_kernels_add(kernels, name, sizeof name - 1, 1000.0, 1);
    }
    aorta_kernels_report(kernels, metrics, "ranked", 1e6, NULL);
    aorta_kernels_free(kernels);
}

static void ranked_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options;
    aorta_metrics_set_string(metrics, "ranked_artifact_dir", dir);
    double kernels = 0;
    if (read_number(dir, "kernels", &kernels) == 0 && kernels > 0) {
        report_kernels(kernels, metrics);
        return;
    }
    double delay = 0, total = 0, value = 0;
    int found = 0;
    if (read_number(dir, "delay", &delay) == 0 && delay > 0) {
        struct timespec ts = {(time_t)(delay / 1000), (long)((delay - 1000 * (long)(delay / 1000)) * 1e6)};
        nanosleep(&ts, NULL);
    }
    if (read_number(dir, "ms", &value) == 0) {
        total += value;
        found = 1;
    }
    DIR *listing = opendir(dir);
    struct dirent *entry;
    while (listing && (entry = readdir(listing))) {
        if (strncmp(entry->d_name, "rank", 4) != 0)
            continue;
        char *sub = aorta_path_join(dir, entry->d_name);
        if (read_number(sub, "ms", &value) == 0) {
            total += value;
            found = 1;
        }
        aorta_free(sub);
    }
    if (listing)
        closedir(listing);
    if (found)
        aorta_metrics_set_double(metrics, "ranked_gpu_time_ms", total);
}

AORTA_COLLECTOR_DEFINE(ranked,
    .version = "1.0",
    .description = "a test collector for per-rank parses",
    .wrap_rank = 30,
    .validate = ranked_validate,
    .wrap = ranked_wrap,
    .parse = ranked_parse)
