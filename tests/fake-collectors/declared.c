/* SPDX-License-Identifier: MIT */
/* A third party's collector that declares its metrics (ABI 1.2), as a
 * throughput or peak-memory collector would: wraps the command as
 * `env DECLARED_OUT=<out_dir> COMMAND...`, and parse() reads the numbers the
 * payload wrote into <out_dir>/numbers ("RATE RSS_KB COLOUR"):
 * declared_rate (items/s, higher is better), declared_rss_kb (KiB, lower
 * is better) and declared_colour (no direction: compared and shown, never
 * gated).  Built into tests/fake-collectors/declared/ so that the other
 * folders' listings stay as they are. */
#include <stdio.h>
#include <sys/stat.h>

#include "aorta/collector.h"

static const aorta_option_spec_t declared_options[] = {{NULL, NULL, NULL, NULL}};

static const aorta_metric_spec_t declared_metrics[] = {
    {"declared_rate", "items/s", AORTA_BETTER_HIGHER, "items processed per second"},
    {"declared_rss_kb", "KiB", AORTA_BETTER_LOWER, "peak resident memory"},
    {"declared_colour", NULL, AORTA_BETTER_NONE, "a number with no better direction"},
#ifdef DECLARED_BAD_ROW
    /* Built so into tests/fake-collectors/badrow/: a row outside the
     * prefix, which declares nothing. */
    {"other_metric", "ms", AORTA_BETTER_LOWER, NULL},
#endif
    {NULL, NULL, AORTA_BETTER_NONE, NULL},
};

static int declared_validate(aorta_options_t *options, aorta_error_t *err)
{
    return aorta_options_apply_table(options, declared_options, "declared", err);
}

static int declared_wrap(const aorta_options_t *options, const char *out_dir,
                         const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                         aorta_error_t *err)
{
    (void)options, (void)env, (void)err;
    char buffer[4200];
    int len = snprintf(buffer, sizeof buffer, "DECLARED_OUT=%s", out_dir);
    if (len < 0 || (size_t)len >= sizeof buffer) {
        aorta_error_set(err, "declared: the artifact directory's path is too long");
        return -1;
    }
    aorta_argv_push(out, "env");
    aorta_argv_push(out, buffer);
    aorta_argv_push_all(out, command);
    return 0;
}

static void declared_parse(const aorta_options_t *options, const char *dir,
                           aorta_metrics_t *metrics)
{
    (void)options;
    struct stat info;
    if (stat(dir, &info) != 0 || !S_ISDIR(info.st_mode))
        return; /* nothing at all, as the contract asks */
    aorta_metrics_set_string(metrics, "declared_artifact_dir", dir);
    char *path = aorta_path_join(dir, "numbers");
    FILE *in = path ? fopen(path, "r") : NULL;
    aorta_free(path);
    if (!in)
        return;
    double rate = 0, rss = 0, colour = 0;
    if (fscanf(in, "%lf %lf %lf", &rate, &rss, &colour) == 3) {
        aorta_metrics_set_double(metrics, "declared_rate", rate);
        aorta_metrics_set_double(metrics, "declared_rss_kb", rss);
        aorta_metrics_set_double(metrics, "declared_colour", colour);
    }
    fclose(in);
}

AORTA_COLLECTOR_DEFINE(declared,
    .version = "1.0",
    .description = "declares a higher-is-better, a lower-is-better and an undirected metric",
    .wrap_rank = 60,
    .options = declared_options,
    .metrics = declared_metrics,
    .validate = declared_validate,
    .wrap = declared_wrap,
    .parse = declared_parse)
