/*
 * mycollector.c - a complete, minimal aorta collector to start from.
 *
 * It wraps the command as `env MYCOLLECTOR_DIR=<out_dir> <command>` (so the
 * payload could write into the collector's directory) and, after the run,
 * reports how many files it finds there.  Rename "mycollector" everywhere
 * (file stem, symbol, metric prefix) to make it yours.
 */
#include <aorta/collector.h>
#include <stdio.h>
#include <string.h>

static const char *const verbosity_values[] = {"quiet", "loud", NULL};

/* The option table: `aorta-run --describe mycollector` prints it. */
static const aorta_option_spec_t mycollector_options[] = {
    {"verbosity", verbosity_values, "quiet", "how chatty the payload should be"},
    {NULL, NULL, NULL, NULL},
};

/* Called at recipe load: refuse unknown options, fill defaults. */
static int mycollector_validate(aorta_options_t *options, aorta_error_t *err)
{
    for (size_t i = 0; i < aorta_options_count(options); i++) {
        const char *key = aorta_options_key_at(options, i);
        if (strcmp(key, "verbosity") != 0) {
            aorta_error_set(err, "mycollector: unknown option(s) ['%s']; valid: ['verbosity']",
                            key);
            return -1;
        }
    }
    const char *verbosity = aorta_options_get(options, "verbosity");
    if (!verbosity)
        aorta_options_set(options, "verbosity", "quiet");
    else if (strcmp(verbosity, "quiet") != 0 && strcmp(verbosity, "loud") != 0) {
        aorta_error_set(err, "mycollector option 'verbosity': '%s' is not one of "
                             "['loud', 'quiet']", verbosity);
        return -1;
    }
    return 0;
}

/* Called per trial: build the profiled argv.  Refuse (return -1 with a
 * message) rather than run the command unprofiled. */
static int mycollector_wrap(const aorta_options_t *options, const char *out_dir,
                            const aorta_argv_t *command, const aorta_env_t *environ,
                            aorta_argv_t *out, aorta_error_t *err)
{
    char *env = aorta_which("env", aorta_env_get(environ, "PATH"));
    if (!env) {
        aorta_error_set(err, "mycollector needs 'env' on $PATH");
        return -1;
    }
    aorta_argv_push(out, env);
    aorta_free(env);
    char assignment[4096];
    snprintf(assignment, sizeof assignment, "MYCOLLECTOR_DIR=%s", out_dir);
    aorta_argv_push(out, assignment);
    snprintf(assignment, sizeof assignment, "MYCOLLECTOR_VERBOSITY=%s",
             aorta_options_get(options, "verbosity"));
    aorta_argv_push(out, assignment);
    aorta_argv_push_all(out, command);
    return 0;
}

static int count_file(const char *path, int fd, void *user)
{
    (void)path, (void)fd;
    (*(int64_t *)user)++;
    return 0;
}

/* Called after the run, in a child process: never fails, reports what it can. */
static void mycollector_parse(const aorta_options_t *options, const char *dir,
                              aorta_metrics_t *metrics)
{
    (void)options;
    int64_t files = 0;
    if (aorta_walk_files(dir, "", count_file, &files) != AORTA_WALK_OK)
        return; /* no directory: no metrics at all */
    aorta_metrics_set_string(metrics, "mycollector_artifact_dir", dir);
    aorta_metrics_set_int(metrics, "mycollector_file_count", files);
}

AORTA_COLLECTOR_DEFINE(mycollector,
    .version = "0.1",
    .description = "template collector: exports its directory, counts the files left there",
    .wrap_rank = 30,
    .options = mycollector_options,
    .validate = mycollector_validate,
    .wrap = mycollector_wrap,
    .parse = mycollector_parse)
