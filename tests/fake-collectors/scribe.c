/* SPDX-License-Identifier: MIT */
/* A test collector that leaves real artifacts behind, so the run
 * platform's collector tree (preparation, parse, retention) is exercised.
 * It wraps the command with its wrapper script (option "wrapper"), which
 * writes a heavy file, a summary file and a nested file into the
 * collector directory and appends a line to "attempts" (one line means the
 * directory was emptied before the trial).  Option "refuse" set to "yes"
 * makes wrap refuse the command: a setup failure. */
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"

static const char *const yes_no[] = {"yes", "no", NULL};

static const aorta_option_spec_t scribe_options[] = {
    {"wrapper", NULL, NULL, "the wrapper script (tests/fake-collectors/scribe-wrapper)"},
    {"refuse", yes_no, "no", "refuse every command (a setup failure)"},
    {NULL, NULL, NULL, NULL},
};

static int scribe_validate(aorta_options_t *options, aorta_error_t *err)
{
    for (size_t i = 0; i < aorta_options_count(options); i++) {
        const char *key = aorta_options_key_at(options, i);
        if (strcmp(key, "wrapper") != 0 && strcmp(key, "refuse") != 0) {
            aorta_error_set(err, "scribe: unknown option '%s'", key);
            return -1;
        }
    }
    if (!aorta_options_get(options, "wrapper")) {
        aorta_error_set(err, "scribe: option 'wrapper' is required");
        return -1;
    }
    if (!aorta_options_get(options, "refuse"))
        aorta_options_set(options, "refuse", "no");
    return 0;
}

static int scribe_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *environ, aorta_argv_t *out,
                       aorta_error_t *err)
{
    (void)environ;
    const char *refuse = aorta_options_get(options, "refuse");
    if (refuse && strcmp(refuse, "yes") == 0) {
        aorta_error_set(err, "scribe: refusing '%s' as asked (refuse: yes)",
                        aorta_argv_at(command, 0));
        return -1;
    }
    if (access(out_dir, W_OK) != 0) {
        aorta_error_set(err, "scribe: %s is not a writable directory", out_dir);
        return -1;
    }
    aorta_argv_push(out, aorta_options_get(options, "wrapper"));
    aorta_argv_push(out, out_dir);
    aorta_argv_push(out, "--");
    aorta_argv_push_all(out, command);
    return 0;
}

typedef struct tally {
    int64_t files;
    double bytes;
    int64_t attempts;
} tally_t;

static int count_file(const char *path, int fd, void *user)
{
    tally_t *tally = user;
    tally->files++;
    char buffer[4096];
    ssize_t got;
    const char *name = strrchr(path, '/');
    int is_attempts = name && strcmp(name + 1, "attempts") == 0;
    while ((got = read(fd, buffer, sizeof buffer)) > 0) {
        tally->bytes += (double)got;
        for (ssize_t i = 0; is_attempts && i < got; i++)
            tally->attempts += buffer[i] == '\n';
    }
    return 0;
}

static void scribe_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options;
    tally_t tally = {0, 0.0, 0};
    if (aorta_walk_files(dir, "", count_file, &tally) != AORTA_WALK_OK)
        return;
    aorta_metrics_set_string(metrics, "scribe_artifact_dir", dir);
    aorta_metrics_set_int(metrics, "scribe_file_count", tally.files);
    aorta_metrics_set_double(metrics, "scribe_bytes", tally.bytes);
    aorta_metrics_set_int(metrics, "scribe_attempts", tally.attempts);
}

AORTA_COLLECTOR_DEFINE(scribe,
    .version = "1.0",
    .description = "a test collector whose wrapper writes artifacts",
    .wrap_rank = 40,
    .options = scribe_options,
    .validate = scribe_validate,
    .wrap = scribe_wrap,
    .parse = scribe_parse)
