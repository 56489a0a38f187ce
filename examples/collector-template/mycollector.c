/* SPDX-License-Identifier: MIT */
/*
 * mycollector.c - the shortest correct aorta collector, to start from.
 *
 * It wraps the command as `env MYCOLLECTOR_DIR=<out_dir> <command>`, so a
 * payload (or the profiler you put in its place) can write its results
 * there, and after the run it reads every `*.kernels.tsv` file it finds in
 * that directory -- lines of `<kernel name>\t<total ns>[\t<launches>]` --
 * into the SDK's per-kernel accumulator, which reports the five standard
 * metrics: mycollector_kernel_count, _gpu_time_ms, _top_kernel_ms,
 * _top_kernels and _artifact_dir; beside them, a plain number of its own,
 * mycollector_files.  Its metric table says which way each number is
 * better, so that `aorta-run --compare` judges and gates it.  Replace the
 * wrap and the file format
 * with your profiler's; rename "mycollector" everywhere (file stem, symbol,
 * metric prefix) to make it yours.  `aorta-run --check-collector
 * mycollector` checks the result against the collector contract.
 */
#include <aorta/collector.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const verbosity_values[] = {"quiet", "loud", NULL};

/* The option table: `aorta-run --describe mycollector` prints it, and
 * validate() checks against it. */
static const aorta_option_spec_t mycollector_options[] = {
    {"verbosity", verbosity_values, "quiet", "how chatty the payload should be"},
    {NULL, NULL, NULL, NULL},
};

/* The metric table (ABI 1.2): each metric's unit and better direction.
 * --compare judges a declared metric that way and its gate fails on a
 * regression; a metric without a row, or with AORTA_BETTER_NONE, is
 * compared and shown, never gated.  `aorta-run --describe` lists it. */
static const aorta_metric_spec_t mycollector_metrics[] = {
    {"mycollector_gpu_time_ms", "ms", AORTA_BETTER_LOWER, "GPU time of every kernel"},
    {"mycollector_files", NULL, AORTA_BETTER_NONE, "result files read"},
    {NULL, NULL, AORTA_BETTER_NONE, NULL},
};

/* At recipe load: unknown keys and values outside the table are refused
 * with upstream's wording, and defaults are filled in. */
static int mycollector_validate(aorta_options_t *options, aorta_error_t *err)
{
    return aorta_options_apply_table(options, mycollector_options, "mycollector", err);
}

/* Per trial: the profiled argv.  Refuse (-1 with a message) rather than run
 * the command unprofiled, or with a path cut short. */
static int mycollector_wrap(const aorta_options_t *options, const char *out_dir,
                            const aorta_argv_t *command, const aorta_env_t *env,
                            aorta_argv_t *out, aorta_error_t *err)
{
    char dir[4096], verbosity[256];
    if ((size_t)snprintf(dir, sizeof dir, "MYCOLLECTOR_DIR=%s", out_dir) >= sizeof dir) {
        aorta_error_set(err, "mycollector: the output directory is too long (%zu bytes)",
                        strlen(out_dir));
        return -1;
    }
    snprintf(verbosity, sizeof verbosity, "MYCOLLECTOR_VERBOSITY=%s",
             aorta_options_get(options, "verbosity"));
    char *env_path = aorta_which("env", aorta_env_get(env, "PATH"));
    if (!env_path) {
        aorta_error_set(err, "mycollector needs 'env' on $PATH");
        return -1;
    }
    int status = aorta_argv_push(out, env_path) | aorta_argv_push(out, dir)
                 | aorta_argv_push(out, verbosity) | aorta_argv_push_all(out, command);
    aorta_free(env_path);
    return status == 0 ? 0 : -1;
}

/* What parse() gathers: the kernels, and one plain number of its own. */
typedef struct tally {
    aorta_kernels_t *kernels;
    int64_t files;
} tally_t;

/* One `name\tns[\tlaunches]` line into the accumulator; others are skipped. */
static void add_line(aorta_kernels_t *kernels, char *line)
{
    char *tab = strchr(line, '\t');
    if (!tab || tab == line)
        return;
    char *time_text = tab + 1, *count_text = strchr(time_text, '\t');
    if (count_text)
        *count_text++ = '\0';
    double ns = 0, launches = -1;
    int64_t count = -1; /* unknown unless the line says */
    if (aorta_number_parse(time_text, &ns) != 0)
        return;
    if (count_text && aorta_number_parse(count_text, &launches) == 0)
        aorta_count_from_double(launches, &count);
    aorta_kernels_add(kernels, line, (size_t)(tab - line), ns, count);
}

static int read_file(const char *path, int fd, void *user)
{
    (void)path;
    tally_t *tally = user;
    tally->files++;
    /* The walk closes fd; the stream gets a copy of its own. */
    int copy = dup(fd);
    FILE *file = copy >= 0 ? fdopen(copy, "r") : NULL;
    if (!file) {
        if (copy >= 0)
            close(copy);
        return 0;
    }
    char *line = NULL;
    size_t size = 0;
    ssize_t len;
    while ((len = getline(&line, &size, file)) > 0) {
        if (line[len - 1] == '\n')
            line[len - 1] = '\0';
        add_line(tally->kernels, line);
    }
    free(line);
    fclose(file);
    return 0;
}

/* After the run, in a child process: never fails, reports what it can,
 * and mycollector_artifact_dir whenever dir is a directory. */
static void mycollector_parse(const aorta_options_t *options, const char *dir,
                              aorta_metrics_t *metrics)
{
    (void)options;
    tally_t tally = {aorta_kernels_new(0), 0};
    aorta_walk_status_t status = aorta_walk_files(dir, ".kernels.tsv", read_file, &tally);
    if (status == AORTA_WALK_OK) {
        aorta_kernels_report(tally.kernels, metrics, "mycollector", 1e6 /* ns per ms */, dir);
        /* A metric of its own: any name under the prefix, int, double or string. */
        aorta_metrics_set_int(metrics, "mycollector_files", tally.files);
    } else if (status == AORTA_WALK_NO_FDS) {
        /* Totals of part of the files would look complete: the directory alone. */
        aorta_warn("mycollector", "out of file descriptors reading %s; no totals", dir);
        aorta_metrics_set_string(metrics, "mycollector_artifact_dir", dir);
    } else if (status == AORTA_WALK_SYMLINK) {
        aorta_warn("mycollector", "%s is a symbolic link; not followed", dir);
    } /* AORTA_WALK_NOT_DIR: no directory, no metrics, nothing to say */
    aorta_kernels_free(tally.kernels);
}

AORTA_COLLECTOR_DEFINE(mycollector,
    .version = "0.1",
    .description = "template collector: reads <kernel>\\t<ns> files its payload leaves",
    .wrap_rank = 30,
    .options = mycollector_options,
    .metrics = mycollector_metrics,
    .validate = mycollector_validate,
    .wrap = mycollector_wrap,
    .parse = mycollector_parse)
