/* SPDX-License-Identifier: MIT */
/* The runner through its API, with plans built here: collectors (the
 * test-only scribe, whose wrapper writes artifacts, and badparse),
 * retention at each level, a parse that crashes, setup failures,
 * stop_after, cells with variables, env_passthrough_mode file, a launcher,
 * and resume emptying the collector directories. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "commands.h"
#include "sweeputil.h"
#include "sweep/sweep.h"
#include "sys/spawn.h"
#include "xalloc.h"

/* The exit status aorta-run gives a sweep of plan (cmd_run.c). */
static int sweep_status(const ar_plan_t *plan)
{
    ar_sweep_end_t end;
    ar_sweep_run(plan, &end);
    return ar_cmd_sweep_status(&end, 0);
}

static char *dir;
static char *err_path;
static ar_registry_t *registry;

static void setup(void)
{
    dir = tu_tmpdir();
    err_path = tu_join(dir, "stderr.txt");
    registry = tu_registry("tests/fake-collectors");
    ar_spawn_block_signals();
    su_quiet(err_path);
}

static void teardown(void)
{
    ar_registry_free(registry);
    tu_rmtree(dir);
    free(dir);
    free(err_path);
}

static char *stderr_text(void)
{
    fflush(stderr);
    return tu_read(err_path);
}

static ar_plan_t *plan_in(const char *name, char *const *argv)
{
    char *run_dir = tu_join(dir, name);
    ar_plan_t *plan = su_plan(run_dir, argv);
    free(run_dir);
    return plan;
}

static void add_scribe(ar_plan_t *plan, const char *refuse)
{
    char *wrapper = tu_srcdir("tests/fake-collectors/scribe-wrapper");
    char *option = ar_xasprintf("wrapper=%s", wrapper);
    char *refusal = ar_xasprintf("refuse=%s", refuse);
    su_plan_collect(plan, registry, "scribe", (char *[]){option, refusal, NULL});
    free(refusal);
    free(option);
    free(wrapper);
}

static int exists(const ar_plan_t *plan, const char *rel)
{
    char *path = tu_join(plan->run_dir, rel);
    int found = tu_exists(path);
    free(path);
    return found;
}

static off_t size_of(const ar_plan_t *plan, const char *rel)
{
    char *path = tu_join(plan->run_dir, rel);
    struct stat st;
    off_t size = lstat(path, &st) == 0 ? st.st_size : -1;
    free(path);
    return size;
}

static const char *const collected[] = {"attempts", "deep/nested.bin", "stats.summary.json",
                                        "trace.csv"};

#define TRIAL0 "none-none/trial_0/"
#define COLLECT0 "none-none/_subprocess/trial_d0_m0_t0/scribe/"

/* Each level on a passing trial; the sizes come from a full-level run. */
START_TEST(retention_applies_each_level_to_both_trees)
{
    char *argv[] = {"sh", "-c", "echo out; echo err >&2", NULL};
    ar_plan_t *full = plan_in("full", argv);
    add_scribe(full, "no");
    su_plan_retain(full, AR_RETAIN_FULL, AR_RETAIN_FULL, AR_RETAIN_FULL);
    ck_assert_int_eq(sweep_status(full), 0);
    ar_json_t *record = su_json(full->run_dir, TRIAL0 "result.json");
    ck_assert_str_eq(su_str(record, "capture", "retention", "level", NULL), "full");
    ck_assert_uint_eq(ar_json_length(su_at(record, "capture", "retention", "deleted", NULL)), 0);
    ck_assert_int_eq(ar_json_get_int(su_at(record, "capture", "retention", "freed_bytes", NULL)),
                     0);
    ar_json_free(record);
    off_t sizes[4], log_bytes = size_of(full, TRIAL0 "stdout.log") + size_of(full, TRIAL0 "stderr.log");
    for (size_t i = 0; i < 4; i++) {
        char *rel = ar_xasprintf(COLLECT0 "%s", collected[i]);
        sizes[i] = size_of(full, rel);
        ck_assert_msg(sizes[i] > 0, "%s missing at level full", rel);
        free(rel);
    }

    static const ar_retain_level_t levels[] = {AR_RETAIN_NONE, AR_RETAIN_LOG,
                                                  AR_RETAIN_SUMMARY};
    static const char *const level_names[] = {"none", "log", "summary"};
    for (size_t l = 0; l < 3; l++) {
        ar_plan_t *plan = plan_in(level_names[l], argv);
        add_scribe(plan, "no");
        su_plan_retain(plan, levels[l], AR_RETAIN_FULL, AR_RETAIN_FULL);
        ck_assert_int_eq(sweep_status(plan), 0);
        ar_json_t *result = su_json(plan->run_dir, TRIAL0 "result.json");
        ar_json_t *retention = su_at(result, "capture", "retention", NULL);
        ck_assert_str_eq(su_str(retention, "level", NULL), level_names[l]);
        ar_json_t *deleted = ar_json_get(retention, "deleted");
        off_t freed = 0;
        size_t at = 0;
        if (levels[l] < AR_RETAIN_LOG) {
            ck_assert_str_eq(ar_json_get_string(ar_json_at(deleted, at++)), "stderr.log");
            ck_assert_str_eq(ar_json_get_string(ar_json_at(deleted, at++)), "stdout.log");
            freed += log_bytes;
            ck_assert(!exists(plan, TRIAL0 "stdout.log"));
        } else {
            ck_assert(exists(plan, TRIAL0 "stdout.log") && exists(plan, TRIAL0 "stderr.log"));
        }
        for (size_t i = 0; i < 4; i++) {
            char *rel = ar_xasprintf(COLLECT0 "%s", collected[i]);
            int is_summary = strcmp(collected[i], "stats.summary.json") == 0;
            if (is_summary && levels[l] >= AR_RETAIN_SUMMARY) {
                ck_assert_msg(exists(plan, rel), "%s kept at %s", rel, level_names[l]);
            } else {
                char *expected = ar_xasprintf("../_subprocess/trial_d0_m0_t0/scribe/%s",
                                                 collected[i]);
                ck_assert_str_eq(ar_json_get_string(ar_json_at(deleted, at++)), expected);
                ck_assert_msg(!exists(plan, rel), "%s deleted at %s", rel, level_names[l]);
                freed += sizes[i];
                free(expected);
            }
            free(rel);
        }
        ck_assert_uint_eq(ar_json_length(deleted), at);
        ck_assert_int_eq(ar_json_get_int(ar_json_get(retention, "freed_bytes")), freed);
        ck_assert(exists(plan, TRIAL0 "result.json"));
        ck_assert(!exists(plan, COLLECT0 "deep")); /* emptied directories removed */
        ck_assert_int_eq(exists(plan, "none-none/_subprocess/trial_d0_m0_t0/scribe"),
                         levels[l] >= AR_RETAIN_SUMMARY);
        ck_assert(exists(plan, "none-none/_subprocess/trial_d0_m0_t0"));
        ar_json_free(result);
        /* The metrics were parsed before the pruning. */
        ar_json_t *trial = su_json(plan->run_dir, "none-none/_subprocess/trial_d0_m0_t0.json");
        ar_json_t *metrics = su_at(trial, "result", "metrics", NULL);
        ck_assert_int_eq(ar_json_get_int(ar_json_get(metrics, "scribe_file_count")), 4);
        ck_assert_str_eq(su_str(trial, "config", "_aorta_probe_extras", "retain", "on_pass", NULL),
                         level_names[l]);
        ar_json_free(trial);
        ar_plan_free(plan);
    }
    ar_plan_free(full);
}
END_TEST

START_TEST(retention_follows_the_verdict_and_never_a_symlink)
{
    char *victim = tu_join(dir, "victim.txt");
    tu_write(victim, "keep me\n");
    ar_plan_t *plan = plan_in("verdicts", (char *[]){"sh", "-c", "exit $0", "1", NULL});
    aorta_env_set(plan->cells[0].env, "SCRIBE_SYMLINK", victim);
    add_scribe(plan, "no");
    su_plan_retain(plan, AR_RETAIN_FULL, AR_RETAIN_NONE, AR_RETAIN_FULL);
    ck_assert_int_eq(sweep_status(plan), 0);
    ar_json_t *result = su_json(plan->run_dir, TRIAL0 "result.json");
    ck_assert_str_eq(su_str(result, "verdict", NULL), "fail");
    ck_assert_str_eq(su_str(result, "capture", "retention", "level", NULL), "none");
    ck_assert(exists(plan, COLLECT0 "outside-link")); /* kept, not followed */
    char *text = tu_read(victim);
    ck_assert_str_eq(text, "keep me\n");
    free(text);
    char *err = stderr_text();
    ck_assert_ptr_nonnull(strstr(err, "kept the symlink"));
    free(err);
    ar_json_free(result);
    ar_plan_free(plan);
    free(victim);
}
END_TEST

START_TEST(a_crashing_parse_leaves_only_its_artifact_dir_and_the_sweep_goes_on)
{
    ar_plan_t *plan = plan_in("crash", (char *[]){"true", NULL});
    plan->trials = 2;
    add_scribe(plan, "no");
    su_plan_collect(plan, registry, "badparse", (char *[]){"behaviour=crash", NULL});
    ck_assert_str_eq(plan->collectors[0].module->collector.name, "scribe");
    ck_assert_int_eq(sweep_status(plan), 0);
    for (int t = 0; t < 2; t++) {
        char *rel = ar_xasprintf("none-none/_subprocess/trial_d0_m0_t%d.json", t);
        ar_json_t *trial = su_json(plan->run_dir, rel);
        ar_json_t *metrics = su_at(trial, "result", "metrics", NULL);
        const char *badparse_dir = su_str(metrics, "badparse_artifact_dir", NULL);
        ck_assert_ptr_nonnull(badparse_dir);
        ck_assert_ptr_nonnull(strstr(badparse_dir, "/badparse"));
        ck_assert(badparse_dir[0] == '/');
        ck_assert(!ar_json_has(metrics, "badparse_kernel_count"));
        ck_assert_int_eq(ar_json_get_int(ar_json_get(metrics, "scribe_file_count")), 4);
        ck_assert_str_eq(su_str(metrics, "verdict", NULL), "pass");
        /* Collector keys first (plan order), then the platform's. */
        char *text = ar_json_dump(metrics, 0);
        ck_assert(strstr(text, "\"scribe_artifact_dir\"") < strstr(text, "\"badparse_artifact_dir\""));
        ck_assert(strstr(text, "\"badparse_artifact_dir\"") < strstr(text, "\"verdict\""));
        free(text);
        ck_assert_str_eq(su_str(trial, "config", "_aorta_collect", "0", NULL), "scribe");
        ck_assert_str_eq(su_str(trial, "config", "_aorta_collect", "1", NULL), "badparse");
        ck_assert_str_eq(su_str(trial, "config", "_aorta_collect_options", "badparse", "behaviour",
                                NULL),
                         "crash");
        ar_json_free(trial);
        free(rel);
    }
    char *err = stderr_text();
    /* Under ASan the crash is reported as an exit: "failed". */
    ck_assert_uint_eq(tu_count(err, "badparse summary parsing crashed")
                          + tu_count(err, "badparse summary parsing failed"),
                      2);
    free(err);
    ar_json_t *matrix = su_json(plan->run_dir, "matrix.json");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "passed_count", NULL)), 2);
    ar_json_t *summary = su_at(matrix, "cells", "0", "metrics_summary", NULL);
    ck_assert_ptr_nonnull(ar_json_get(summary, "scribe_file_count"));
    ck_assert_ptr_null(ar_json_get(summary, "scribe_artifact_dir"));
    ar_json_free(matrix);
    ar_plan_free(plan);
}
END_TEST

START_TEST(a_setup_failure_is_an_error_without_result_json_and_the_sweep_goes_on)
{
    char *marker = tu_join(dir, "ran");
    ar_plan_t *plan = plan_in("setup", (char *[]){"touch", marker, NULL});
    plan->trials = 2;
    add_scribe(plan, "yes");
    su_plan_cell(plan, "other", "none", NULL);
    /* A stale result.json of an earlier attempt must not survive. */
    char *stale = tu_join(plan->run_dir, TRIAL0 "result.json");
    tu_write(stale, "{\"verdict\": \"pass\"}");
    /* Every trial failed its setup: the reports are written, the exit is 1. */
    ck_assert_int_eq(sweep_status(plan), 1);
    ck_assert(!tu_exists(marker));
    ck_assert(!tu_exists(stale));
    const char *cells[] = {"none-none", "other-none"};
    for (size_t c = 0; c < 2; c++)
        for (int t = 0; t < 2; t++) {
            char *rel = ar_xasprintf("%s/_subprocess/trial_d0_m0_t%d.json", cells[c], t);
            ar_json_t *trial = su_json(plan->run_dir, rel);
            ck_assert_str_eq(su_str(trial, "exit_status", NULL), "workload_setup_failed");
            ck_assert(!ar_json_get_bool(su_at(trial, "result", "passed", NULL)));
            ck_assert(!ar_json_get_bool(su_at(trial, "result", "main_work_started", NULL)));
            ck_assert_str_eq(su_str(trial, "result", "failure_details", "0", "phase", NULL), "setup");
            ck_assert_ptr_nonnull(strstr(su_str(trial, "result", "failure_details", "0", "error",
                                                NULL),
                                         "scribe: refusing 'touch'"));
            ck_assert_uint_eq(ar_json_object_count(su_at(trial, "result", "metrics", NULL)), 0);
            char *record = ar_xasprintf("%s/trial_%d/result.json", cells[c], t);
            ck_assert(!exists(plan, record));
            free(record);
            ar_json_free(trial);
            free(rel);
        }
    ar_json_t *matrix = su_json(plan->run_dir, "matrix.json");
    ar_json_t *cell = su_at(matrix, "cells", "1", NULL);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "error_count")), 2);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "trials")), 2);
    ck_assert_int_eq(ar_json_get_int(su_at(cell, "exit_status_counts", "workload_setup_failed",
                                              NULL)),
                     2);
    ck_assert_str_eq(su_str(cell, "step_time_source", NULL), "missing");
    ck_assert_int_eq(ar_json_get_int(su_at(cell, "outcome_counts", "did_not_run", NULL)), 2);
    ck_assert_ptr_nonnull(strstr(su_str(cell, "failure_hints", "0", "0", NULL), "setup failed:"));
    ck_assert_str_eq(su_str(cell, "confound", NULL), "did_not_run");
    ar_json_free(matrix);
    char *err = stderr_text();
    ck_assert_uint_eq(tu_count(err, "setup failed: scribe: refusing"), 4);
    free(err);
    ar_plan_free(plan);

    /* An unpreparable collector directory (a symlink in its place). */
    plan = plan_in("blocked", (char *[]){"touch", marker, NULL});
    add_scribe(plan, "no");
    char *parent = tu_join(plan->run_dir, "none-none/_subprocess/trial_d0_m0_t0");
    char *cmd_mkdir[] = {"mkdir", "-p", parent, NULL};
    ck_assert_int_eq(tu_run(cmd_mkdir, NULL, NULL, NULL), 0);
    char *link = tu_join(parent, "scribe");
    ck_assert_int_eq(symlink(dir, link), 0);
    ck_assert_int_eq(sweep_status(plan), 1);
    ar_json_t *trial = su_json(plan->run_dir, "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "exit_status", NULL), "workload_setup_failed");
    ck_assert_ptr_nonnull(strstr(su_str(trial, "result", "failure_details", "0", "error", NULL),
                                 "cannot prepare the scribe artifact directory"));
    ck_assert(!tu_exists(marker));
    ar_json_free(trial);
    ar_plan_free(plan);

    /* The collector's parent directory is a file: the same setup failure,
     * and the file is left as it was (upstream's case of a collect dir that
     * is a file). */
    plan = plan_in("filed", (char *[]){"touch", marker, NULL});
    add_scribe(plan, "no");
    char *filed = tu_join(plan->run_dir, "none-none/_subprocess/trial_d0_m0_t0");
    tu_write(filed, "keep me\n");
    ck_assert_int_eq(sweep_status(plan), 1);
    trial = su_json(plan->run_dir, "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "exit_status", NULL), "workload_setup_failed");
    ck_assert_ptr_nonnull(strstr(su_str(trial, "result", "failure_details", "0", "error", NULL),
                                 "collect: cannot prepare the scribe artifact directory "));
    char *kept = tu_read(filed);
    ck_assert_str_eq(kept, "keep me\n");
    free(kept);
    ck_assert(!tu_exists(marker));
    ar_json_free(trial);
    ar_plan_free(plan);

    /* A regular file exactly at the collector's artifact path: the same
     * setup failure, and the file is left as it was (issue 25). */
    plan = plan_in("filed-leaf", (char *[]){"touch", marker, NULL});
    add_scribe(plan, "no");
    char *leaf_parent = tu_join(plan->run_dir, "none-none/_subprocess/trial_d0_m0_t0");
    char *cmd_leaf[] = {"mkdir", "-p", leaf_parent, NULL};
    ck_assert_int_eq(tu_run(cmd_leaf, NULL, NULL, NULL), 0);
    char *leaf = tu_join(leaf_parent, "scribe");
    tu_write(leaf, "keep me too\n");
    ck_assert_int_eq(sweep_status(plan), 1);
    trial = su_json(plan->run_dir, "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "exit_status", NULL), "workload_setup_failed");
    ck_assert_ptr_nonnull(strstr(su_str(trial, "result", "failure_details", "0", "error", NULL),
                                 "collect: cannot prepare the scribe artifact directory "));
    kept = tu_read(leaf);
    ck_assert_str_eq(kept, "keep me too\n");
    free(kept);
    ck_assert(!tu_exists(marker));
    ar_json_free(trial);
    ar_plan_free(plan);
    free(leaf);
    free(leaf_parent);
    free(filed);
    free(link);
    free(parent);
    free(stale);
    free(marker);
}
END_TEST

START_TEST(stop_after_ends_a_cell_and_resume_honours_it)
{
    char *counter = tu_join(dir, "count");
    char *argv[] = {"sh", "-c", "echo x >> \"$0\"; exit 1", counter, NULL};
    ar_plan_t *plan = plan_in("stop", argv);
    plan->has_stop_after = 1;
    plan->stop_events = 2;
    plan->stop_max_trials = 5;
    plan->trials = 5;
    plan->stop_event_verdict = ar_xstrdup("fail");
    ck_assert_int_eq(sweep_status(plan), 0);
    char *text = tu_read(counter);
    ck_assert_uint_eq(tu_count(text, "x"), 2);
    free(text);
    ar_json_t *matrix = su_json(plan->run_dir, "matrix.json");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(matrix, "trials_per_cell")), 5);
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "stop_after", "events", NULL)), 2);
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "stop_after", "max_trials", NULL)), 5);
    ck_assert_str_eq(su_str(matrix, "stop_after", "event_verdict", NULL), "fail");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "trials", NULL)), 2);
    ck_assert_ptr_nonnull(strstr(su_str(matrix, "cells", "0", "stop_after_note", NULL),
                                 "2 'fail' event(s) in 2 trial(s)"));
    ar_json_free(matrix);
    ck_assert(!exists(plan, "none-none/trial_2"));

    /* The complete prefix reached the events: nothing re-runs. */
    ck_assert_int_eq(sweep_status(plan), 0);
    text = tu_read(counter);
    ck_assert_uint_eq(tu_count(text, "x"), 2);
    free(text);
    matrix = su_json(plan->run_dir, "matrix.json");
    ck_assert(ar_json_get_bool(su_at(matrix, "cells", "0", "resumed", NULL)));
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "failed_count", NULL)), 2);
    ck_assert_ptr_nonnull(su_str(matrix, "cells", "0", "stop_after_note", NULL));
    ar_json_free(matrix);

    /* Events that never come: the cap bounds the cell. */
    free(plan->stop_event_verdict);
    plan->stop_event_verdict = ar_xstrdup("pass");
    plan->stop_max_trials = plan->trials = 3;
    free(plan->run_dir);
    plan->run_dir = tu_join(dir, "stop-cap");
    ck_assert_int_eq(sweep_status(plan), 0);
    matrix = su_json(plan->run_dir, "matrix.json");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "trials", NULL)), 3);
    ck_assert_ptr_null(su_at(matrix, "cells", "0", "stop_after_note", NULL));
    ar_json_free(matrix);
    ar_plan_free(plan);
    free(counter);
}
END_TEST

START_TEST(cells_carry_their_variables_to_the_command_only)
{
    unsetenv("AORTA_TEST_TF32");
    ar_plan_t *plan = plan_in("cells", (char *[]){"sh", "-c", "echo \"v=${AORTA_TEST_TF32-unset}\"",
                                                     NULL});
    su_plan_cell(plan, "tf32_off", "dbg", (char *[]){"AORTA_TEST_TF32=0", "OTHER=x y", NULL});
    ck_assert_int_eq(sweep_status(plan), 0);
    ck_assert_ptr_null(getenv("AORTA_TEST_TF32"));
    char *base = tu_join(plan->run_dir, "none-none/trial_0/stdout.log");
    char *cell = tu_join(plan->run_dir, "tf32_off-dbg/trial_0/stdout.log");
    char *text = tu_read(base);
    ck_assert_str_eq(text, "v=unset\n");
    free(text);
    text = tu_read(cell);
    ck_assert_str_eq(text, "v=0\n");
    free(text);
    ar_json_t *result = su_json(plan->run_dir, "tf32_off-dbg/trial_0/result.json");
    ck_assert_str_eq(su_str(result, "env", "AORTA_TEST_TF32", NULL), "0");
    ck_assert_str_eq(su_str(result, "cell_name", NULL), "tf32_off-dbg");
    ar_json_free(result);
    ar_json_t *trial = su_json(plan->run_dir, "tf32_off-dbg/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "mitigations_applied", "0", NULL), "tf32_off");
    ck_assert_str_eq(su_str(trial, "mitigations_applied", "1", NULL), "dbg");
    ck_assert_str_eq(su_str(trial, "config", "_aorta_trial_env", "OTHER", NULL), "x y");
    ck_assert_str_eq(su_str(trial, "config", "_aorta_probe_extras", "cell_env_vars",
                            "AORTA_TEST_TF32", NULL),
                     "0");
    ar_json_free(trial);
    ar_json_t *matrix = su_json(plan->run_dir, "matrix.json");
    ck_assert_str_eq(su_str(matrix, "baseline_cell", NULL), "none-none");
    ck_assert_str_eq(su_str(matrix, "cells", "0", "confound", NULL), "(baseline)");
    ck_assert_str_eq(su_str(matrix, "cells", "1", "name", NULL), "tf32_off-dbg");
    ck_assert_str_eq(su_str(matrix, "cells", "1", "confound", NULL), "n/a");
    ck_assert_str_eq(su_str(matrix, "cells", "1", "resolved_env_vars", "OTHER", NULL), "x y");
    ar_json_free(matrix);
    free(base);
    free(cell);
    ar_plan_free(plan);
}
END_TEST

START_TEST(env_passthrough_file_writes_a_private_sorted_probe_env)
{
    ar_plan_t *plan = plan_in("envfile", (char *[]){"sh", "-c", "printf %s \"$AORTA_ENV_FILE\"",
                                                       NULL});
    free(plan->env_passthrough_mode);
    plan->env_passthrough_mode = ar_xstrdup("file");
    aorta_env_set(plan->cells[0].env, "ZED", "last");
    aorta_env_set(plan->cells[0].env, "ALPHA", "first value");
    ck_assert_int_eq(sweep_status(plan), 0);
    char *env_file = tu_join(plan->run_dir, TRIAL0 "probe.env");
    char *text = tu_read(env_file);
    ck_assert_str_eq(text, "ALPHA=first value\nZED=last\n");
    free(text);
    struct stat st;
    ck_assert_int_eq(lstat(env_file, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    char *out = tu_join(plan->run_dir, TRIAL0 "stdout.log");
    text = tu_read(out);
    ck_assert(text[0] == '/');
    ck_assert_ptr_nonnull(strstr(text, "/envfile/none-none/trial_0/probe.env"));
    free(text);
    ar_json_t *result = su_json(plan->run_dir, TRIAL0 "result.json");
    ck_assert_str_eq(su_str(result, "env_passthrough_mode", NULL), "file");
    ar_json_free(result);

    /* Back to inherit: the stale probe.env goes. */
    free(plan->env_passthrough_mode);
    plan->env_passthrough_mode = ar_xstrdup("inherit");
    char *record = tu_join(plan->run_dir, TRIAL0 "result.json");
    unlink(record);
    ck_assert_int_eq(sweep_status(plan), 0);
    ck_assert(!tu_exists(env_file));
    text = tu_read(out);
    ck_assert_str_eq(text, "");
    free(text);

    /* A value a line cannot carry: refused, exit 2, an error, not run; as
     * no trial's command started, the run exits 1. */
    free(plan->env_passthrough_mode);
    plan->env_passthrough_mode = ar_xstrdup("file");
    aorta_env_set(plan->cells[0].env, "BAD", "two\nlines");
    unlink(record);
    ck_assert_int_eq(sweep_status(plan), 1);
    result = su_json(plan->run_dir, TRIAL0 "result.json");
    ck_assert_str_eq(su_str(result, "verdict", NULL), "error");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "exit_code")), 2);
    ck_assert_str_eq(su_str(result, "failure_type", NULL), "env_file_validation_failed");
    ck_assert_ptr_nonnull(strstr(su_str(result, "error_message", NULL), "'BAD'"));
    ck_assert_str_eq(su_str(result, "error_detectors_fired", "0", NULL),
                     "meta:env_file_validation_failed");
    ar_json_free(result);
    ck_assert_int_eq(size_of(plan, TRIAL0 "stdout.log"), -1);
    free(record);
    free(out);
    free(env_file);
    ar_plan_free(plan);
}
END_TEST

START_TEST(the_launcher_goes_outside_the_collectors)
{
    ar_plan_t *plan = plan_in("launcher", (char *[]){"sh", "-c", "echo \"$LAUNCHED\"", NULL});
    plan->launcher = aorta_argv_new();
    aorta_argv_push(plan->launcher, "env");
    aorta_argv_push(plan->launcher, "LAUNCHED=yes");
    add_scribe(plan, "no");
    /* The sweep runs in this suite, not in aorta-run: name the helper. */
    char *libexec = tu_builddir("core");
    setenv("AORTA_LIBEXEC_DIR", libexec, 1);
    free(libexec);
    ck_assert_int_eq(sweep_status(plan), 0);
    unsetenv("AORTA_LIBEXEC_DIR");
    char *out = tu_join(plan->run_dir, TRIAL0 "stdout.log");
    char *text = tu_read(out);
    ck_assert_str_eq(text, "yes\n");
    free(text);
    free(out);
    ar_json_t *result = su_json(plan->run_dir, TRIAL0 "result.json");
    ck_assert_str_eq(su_str(result, "argv", "0", NULL), "env");
    /* Just inside the launcher, the per-rank step; a launcher that sets no
     * rank variable runs one process: rank 0. */
    ck_assert_ptr_nonnull(strstr(su_str(result, "argv", "2", NULL), "aorta-rank-exec"));
    ck_assert_str_eq(su_str(result, "argv", "3", NULL), "--node-file");
    ck_assert_ptr_nonnull(strstr(su_str(result, "argv", "6", NULL), "/scribe/rank%AORTA_RANK%"));
    ck_assert_str_eq(su_str(result, "argv", "7", NULL), "--hold");
    ck_assert_str_eq(su_str(result, "argv", "8", NULL), plan->run_dir);
    ck_assert_ptr_nonnull(strstr(su_str(result, "argv", "10", NULL), "scribe-wrapper"));
    ck_assert_str_eq(su_str(result, "argv", "13", NULL), "sh");
    char *rank0 = tu_join(plan->run_dir, "none-none/_subprocess/trial_d0_m0_t0/scribe/rank0");
    ck_assert(tu_exists(rank0));
    free(rank0);
    ar_json_free(result);
    ar_json_t *trial = su_json(plan->run_dir, "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "config", "_aorta_subprocess_argv", "0", NULL), "sh");
    ck_assert_str_eq(su_str(trial, "config", "_aorta_probe_extras", "launcher", "0", NULL), "env");
    ar_json_free(trial);
    ar_plan_free(plan);
}
END_TEST

START_TEST(an_incomplete_cell_reruns_from_trial_zero_into_emptied_collector_dirs)
{
    char *counter = tu_join(dir, "count");
    ar_plan_t *plan = plan_in("rerun", (char *[]){"sh", "-c", "echo x >> \"$0\"", counter, NULL});
    plan->trials = 2;
    plan->order = AR_ORDER_SEQUENTIAL; /* in rounds it continues (below) */
    add_scribe(plan, "no");
    ck_assert_int_eq(sweep_status(plan), 0);
    char *record = tu_join(plan->run_dir, "none-none/trial_1/result.json");
    tu_write(record, "{\"verdict\": \"\"}"); /* no verdict: incomplete */
    ck_assert_int_eq(sweep_status(plan), 0);
    char *text = tu_read(counter);
    ck_assert_uint_eq(tu_count(text, "x"), 4);
    free(text);
    for (int t = 0; t < 2; t++) {
        char *rel = ar_xasprintf("none-none/_subprocess/trial_d0_m0_t%d.json", t);
        ar_json_t *trial = su_json(plan->run_dir, rel);
        ck_assert_int_eq(ar_json_get_int(su_at(trial, "result", "metrics", "scribe_attempts",
                                                  NULL)),
                         1);
        ar_json_free(trial);
        free(rel);
    }
    ar_json_t *matrix = su_json(plan->run_dir, "matrix.json");
    ck_assert(!ar_json_get_bool(su_at(matrix, "cells", "0", "resumed", NULL)));
    ar_json_free(matrix);
    /* Complete now: skipped, aggregated from the files (metrics too). */
    ck_assert_int_eq(sweep_status(plan), 0);
    text = tu_read(counter);
    ck_assert_uint_eq(tu_count(text, "x"), 4);
    free(text);
    matrix = su_json(plan->run_dir, "matrix.json");
    ck_assert(ar_json_get_bool(su_at(matrix, "cells", "0", "resumed", NULL)));
    ck_assert(ar_json_get_double(su_at(matrix, "cells", "0", "metrics_summary",
                                          "scribe_file_count", "n", NULL))
              == 2.0);
    ar_json_free(matrix);
    free(record);
    free(counter);
    ar_plan_free(plan);
}
END_TEST

/* In rounds (the default, interleaved order) an incomplete cell keeps its
 * complete prefix and runs only from its first incomplete trial on: the
 * trial that had no verdict runs again, trial 0 does not. */
START_TEST(an_incomplete_cell_in_rounds_continues_from_its_first_incomplete_trial)
{
    char *counter = tu_join(dir, "count");
    ar_plan_t *plan = plan_in("rounds", (char *[]){"sh", "-c", "echo x >> \"$0\"", counter,
                                                  NULL});
    plan->trials = 3;
    ck_assert_int_eq(plan->order, AR_ORDER_INTERLEAVED);
    ck_assert_int_eq(sweep_status(plan), 0);
    char *record = tu_join(plan->run_dir, "none-none/trial_1/result.json");
    tu_write(record, "{\"verdict\": \"\"}"); /* no verdict: incomplete */
    ck_assert_int_eq(sweep_status(plan), 0);
    char *text = tu_read(counter);
    ck_assert_uint_eq(tu_count(text, "x"), 5); /* 3, then trials 1 and 2 */
    free(text);
    ar_json_t *matrix = su_json(plan->run_dir, "matrix.json");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "passed_count", NULL)), 3);
    ck_assert(!ar_json_get_bool(su_at(matrix, "cells", "0", "resumed", NULL)));
    /* The first run's timestamp is kept, as for a resumed cell. */
    ck_assert_ptr_nonnull(ar_json_get(matrix, "first_run_timestamp"));
    ar_json_free(matrix);
    free(record);
    free(counter);
    ar_plan_free(plan);
}
END_TEST

static Suite *runner_suite(void)
{
    Suite *suite = suite_create("platform runner");
    TCase *tc = tcase_create("runner");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, retention_applies_each_level_to_both_trees);
    tcase_add_test(tc, retention_follows_the_verdict_and_never_a_symlink);
    tcase_add_test(tc, a_crashing_parse_leaves_only_its_artifact_dir_and_the_sweep_goes_on);
    tcase_add_test(tc, a_setup_failure_is_an_error_without_result_json_and_the_sweep_goes_on);
    tcase_add_test(tc, stop_after_ends_a_cell_and_resume_honours_it);
    tcase_add_test(tc, cells_carry_their_variables_to_the_command_only);
    tcase_add_test(tc, env_passthrough_file_writes_a_private_sorted_probe_env);
    tcase_add_test(tc, the_launcher_goes_outside_the_collectors);
    tcase_add_test(tc, an_incomplete_cell_reruns_from_trial_zero_into_emptied_collector_dirs);
    tcase_add_test(tc, an_incomplete_cell_in_rounds_continues_from_its_first_incomplete_trial);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(runner_suite)
