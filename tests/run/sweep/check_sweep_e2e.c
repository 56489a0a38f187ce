/* SPDX-License-Identifier: MIT */
/* aorta-run end to end: real commands (true, false, a sleep past its
 * timeout, a missing command, megabytes of output) checked file by file and
 * field by field; SIGINT and SIGTERM during a trial and the resume after;
 * the lock; ranks; -v progress; host_env.json. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sweeputil.h"
#include "record/rank_record.h"
#include "xalloc.h"

static char *dir;

/* Every test runs in its own forked child inside its own directory, so a
 * relative --output stays relative. */
static void setup(void)
{
    dir = tu_tmpdir();
    ck_assert_int_eq(chdir(dir), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct keys {
    char text[2048];
} keys_t;

static int key_of(const char *key, ar_json_t *value, void *user)
{
    (void)value;
    keys_t *keys = user;
    if (keys->text[0])
        strcat(keys->text, " ");
    strcat(keys->text, key);
    return 0;
}

/* The member names of obj, in order, space-separated. */
static const char *keys_of(const ar_json_t *obj, keys_t *keys)
{
    keys->text[0] = '\0';
    ar_json_foreach(obj, key_of, keys);
    return keys->text;
}

/* Every regular file under root, relative, sorted, one per line. */
static char *files_under(const char *root)
{
    char *out = NULL;
    char *cmd = ar_xasprintf("cd '%s' && find . -type f -o -type l | sort", root);
    ck_assert_int_eq(tu_run((char *[]){"sh", "-c", cmd, NULL}, NULL, &out, NULL), 0);
    free(cmd);
    return out;
}

/* The strict TrialResult checks of upstream's reader. */
static void assert_strict_trial(const ar_json_t *trial)
{
    keys_t keys;
    ck_assert_str_eq(keys_of(trial, &keys), "schema_version trial_id workload execution_env "
                                            "mitigations_applied config env result "
                                            "wall_clock_sec exit_status request_fingerprint "
                                            "round started_at node gpu");
    ck_assert_str_eq(su_str(trial, "schema_version", NULL), "0.1");
    ck_assert_str_eq(su_str(trial, "workload", NULL), "_subprocess");
    ar_json_t *result = ar_json_get(trial, "result");
    ck_assert_str_eq(keys_of(result, &keys), "passed failure_count first_failure_iteration "
                                             "failure_details total_iterations step_times_ms "
                                             "elapsed_sec metrics main_work_started "
                                             "executed_iterations configured_iterations");
    const char *status = su_str(trial, "exit_status", NULL);
    ck_assert(!strcmp(status, "ok") || !strcmp(status, "workload_failed")
              || !strcmp(status, "workload_setup_failed") || !strcmp(status, "infrastructure_failed"));
    int passed = ar_json_get_bool(ar_json_get(result, "passed"));
    ck_assert_int_eq(!strcmp(status, "ok"), passed);
    ck_assert(ar_json_get_double(ar_json_get(trial, "wall_clock_sec")) >= 0);
    ck_assert(ar_json_get_double(ar_json_get(result, "elapsed_sec")) >= 0);
    if (passed) {
        ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "failure_count")), 0);
        ck_assert_uint_eq(ar_json_length(ar_json_get(result, "failure_details")), 0);
    } else {
        ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "failure_count")), 1);
        ck_assert_uint_eq(ar_json_length(ar_json_get(result, "failure_details")), 1);
    }
}

START_TEST(warmup_trials_run_first_and_are_left_out_of_everything)
{
    /* The first trial (a cold cache, a JIT) is slow: a warm-up takes it. */
    tu_write("w.yaml", "schema_version: 1\nmode: probe\nticket: W\ntrials: 2\n"
                       "warmup_trials: 1\nmitigation_axis: [none]\ndiagnostic_axis: [none]\n");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--recipe", "w.yaml", "--", "sh", "-c",
                                         "test -e marker && exit 0; touch marker; exit 1", NULL},
                              &out, &err),
                     0);
    /* The warm-up failed (no marker yet); the measured trials passed. */
    ck_assert_ptr_nonnull(strstr(out, "Sweep summary: all 1 cell(s) passed.\n"));
    ar_json_t *warm = su_json("out/W", "none-none/_subprocess/trial_d0_m0_w1.json");
    ck_assert(ar_json_get_bool(ar_json_get(warm, "warmup")));
    ck_assert_str_eq(ar_json_get_string(ar_json_get(warm, "trial_id")),
                     "_subprocess_d0_m0_w1");
    ar_json_t *result = su_json("out/W", "none-none/warmup_1/result.json");
    ck_assert(ar_json_get_bool(ar_json_get(result, "warmup")));
    ck_assert_str_eq(ar_json_get_string(ar_json_get(result, "verdict")), "fail");
    ar_json_t *measured = su_json("out/W", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_ptr_null(ar_json_get(measured, "warmup"));
    ar_json_t *matrix = su_json("out/W", "matrix.json");
    const ar_json_t *cell = su_at(matrix, "cells", "0", NULL);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "trials")), 2);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "passed_count")), 2);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(matrix, "warmup_trials")), 1);
    char *perf = tu_read("out/W/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "**Warm-up trials**: 1 per cell, left out of every "
                                       "statistic and table  \n"));
    free(perf);
    free(out);
    free(err);
    /* --warmup overrides the recipe's, with one line saying so. */
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "W2", "--recipe", "w.yaml",
                                         "--warmup", "2", "--", "true", NULL},
                              &out, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: --warmup 2 overrides the recipe's "
                                      "warmup_trials (1)\n"));
    ar_json_t *second = su_json("out/W2", "none-none/_subprocess/trial_d0_m0_w2.json");
    ck_assert_ptr_nonnull(second);
    ar_json_free(second);
    free(out);
    free(err);
    /* So do --trials and --timeout, one line each. */
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "W3", "--recipe", "w.yaml",
                                         "--trials", "3", "--timeout", "30", "--", "true", NULL},
                              &out, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: --trials 3 overrides the recipe's "
                                      "trials (2)\n"));
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: --timeout 30 overrides the recipe's "
                                      "timeout_per_trial (none)\n"));
    ar_json_t *third = su_json("out/W3", "matrix.json");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(su_at(third, "cells", "0", NULL),
                                                       "trials")),
                     3);
    ar_json_free(third);
    free(out);
    free(err);
    /* Nothing is said where nothing is overridden: --warmup with a recipe
     * that sets no warmup_trials (nothing to override), --warmup and
     * --trials equal to the recipe's. */
    tu_write("nw.yaml", "schema_version: 1\nmode: probe\nticket: W4\ntrials: 2\n"
                        "mitigation_axis: [none]\ndiagnostic_axis: [none]\n");
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--recipe", "nw.yaml", "--warmup", "1",
                                         "--trials", "2", "--", "true", NULL},
                              &out, &err),
                     0);
    ck_assert_ptr_null(strstr(err, "overrides"));
    ar_json_t *fourth = su_json("out/W4", "matrix.json");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(fourth, "warmup_trials")), 1);
    ar_json_free(fourth);
    free(out);
    free(err);
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "W5", "--recipe", "w.yaml",
                                         "--warmup", "1", "--trials", "2", "--", "true", NULL},
                              &out, &err),
                     0);
    ck_assert_ptr_null(strstr(err, "overrides"));
    ar_json_free(warm);
    ar_json_free(result);
    ar_json_free(measured);
    ar_json_free(matrix);
    free(out);
    free(err);
}
END_TEST

START_TEST(true_is_recorded_in_every_file_and_field)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "T 1/x", "--trials", "2",
                                         "--", "true", NULL}, &out, &err),
                     0);
    tu_assert_summary(out, "Sweep summary: all 1 cell(s) passed.\n"
                          "Wall time: T\n"
                          "Full matrix: out/T_1_x/matrix.json\n"
                          "Performance report: out/T_1_x/perf.md\n"
                          "Wrote run artifacts to out/T_1_x\n");
    ck_assert_str_eq(err, "");
    char *listing = files_under("out/T_1_x");
    ck_assert_str_eq(listing, "./host_env.json\n"
                              "./matrix.json\n"
                              "./none-none/_subprocess/trial_d0_m0_t0.json\n"
                              "./none-none/_subprocess/trial_d0_m0_t1.json\n"
                              "./none-none/trial_0/result.json\n"
                              "./none-none/trial_0/stderr.log\n"
                              "./none-none/trial_0/stdout.log\n"
                              "./none-none/trial_1/result.json\n"
                              "./none-none/trial_1/stderr.log\n"
                              "./none-none/trial_1/stdout.log\n"
                              "./perf.md\n"
                              "./report.html\n");
    free(listing);

    keys_t keys;
    char *run = tu_join(dir, "out/T_1_x");
    ar_json_t *host_env = su_json(run, "host_env.json");
    for (int t = 0; t < 2; t++) {
        char *rel = ar_xasprintf("none-none/trial_%d/result.json", t);
        ar_json_t *result = su_json(run, rel);
        ck_assert_str_eq(keys_of(result, &keys),
                         "verdict exit_code walltime_sec peak_vram_mib argv cell_name trial_index "
                         "failure_detectors_fired error_detectors_fired warn_detectors_fired "
                         "capture tier_durations_ms env_passthrough_mode timed_out env");
        ck_assert_str_eq(su_str(result, "verdict", NULL), "pass");
        ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "exit_code")), 0);
        ck_assert(ar_json_get_double(ar_json_get(result, "walltime_sec")) >= 0);
        ck_assert_ptr_null(ar_json_get(result, "peak_vram_mib"));
        ck_assert_uint_eq(ar_json_length(ar_json_get(result, "argv")), 1);
        ck_assert_str_eq(su_str(result, "argv", "0", NULL), "true");
        ck_assert_str_eq(su_str(result, "cell_name", NULL), "none-none");
        ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "trial_index")), t);
        ck_assert_uint_eq(ar_json_object_count(ar_json_get(result, "capture")), 0);
        ck_assert_str_eq(su_str(result, "env_passthrough_mode", NULL), "inherit");
        ck_assert(!ar_json_get_bool(ar_json_get(result, "timed_out")));
        ck_assert_uint_eq(ar_json_object_count(ar_json_get(result, "env")), 0);
        ar_json_free(result);
        free(rel);

        rel = ar_xasprintf("none-none/_subprocess/trial_d0_m0_t%d.json", t);
        ar_json_t *trial = su_json(run, rel);
        assert_strict_trial(trial);
        char *id = ar_xasprintf("_subprocess_d0_m0_t%d", t);
        ck_assert_str_eq(su_str(trial, "trial_id", NULL), id);
        free(id);
        ck_assert_str_eq(su_str(trial, "execution_env", "name", NULL), "local");
        ck_assert_str_eq(su_str(trial, "mitigations_applied", "0", NULL), "none");
        ck_assert_str_eq(su_str(trial, "exit_status", NULL), "ok");
        ar_json_t *metrics = su_at(trial, "result", "metrics", NULL);
        ck_assert_str_eq(keys_of(metrics, &keys),
                         "verdict exit_code result_json_path failure_detectors_fired "
                         "error_detectors_fired warn_detectors_fired");
        char *record = ar_xasprintf("%s/none-none/trial_%d/result.json", run, t);
        ck_assert_str_eq(su_str(metrics, "result_json_path", NULL), record);
        free(record);
        char *prefix = ar_xasprintf("%s/none-none/_subprocess/trial_d0_m0_t%d", run, t);
        ck_assert_str_eq(su_str(trial, "config", "_aorta_log_prefix", NULL), prefix);
        free(prefix);
        ck_assert_ptr_null(su_at(trial, "config", "_aorta_collect", NULL));
        ck_assert_str_eq(su_str(trial, "config", "_aorta_subprocess_argv", "0", NULL), "true");
        /* The snapshot is the run's one, in every trial. */
        char *a = ar_json_dump(ar_json_get(trial, "env"), 0);
        char *b = ar_json_dump(host_env, 0);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
        ar_json_free(trial);
        free(rel);
    }

    ar_json_t *matrix = su_json(run, "matrix.json");
    ck_assert_str_eq(keys_of(matrix, &keys),
                     "schema_version workload ticket trials_per_cell steps_per_trial "
                     "run_timestamp baseline_cell confound stop_after warnings recipe_source "
                     "cells run_wall_clock_sec order provenance");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(matrix, "schema_version")), 1);
    ck_assert_str_eq(su_str(matrix, "ticket", NULL), "T 1/x");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(matrix, "trials_per_cell")), 2);
    const char *stamp = su_str(matrix, "run_timestamp", NULL);
    ck_assert(strlen(stamp) == 19 && stamp[10] == 'T' && stamp[13] == '-' && stamp[16] == '-');
    ck_assert_ptr_null(ar_json_get(matrix, "recipe_source"));
    ck_assert_ptr_null(ar_json_get(matrix, "stop_after"));
    ar_json_t *cell = su_at(matrix, "cells", "0", NULL);
    ck_assert_str_eq(keys_of(cell, &keys),
                     "name mitigations environment extra_env resolved_env_vars trials "
                     "passed_count failed_count mean_step_time_ms std_step_time_ms "
                     "min_step_time_ms max_step_time_ms p50_step_time_ms p90_step_time_ms "
                     "p99_step_time_ms mean_wall_clock_sec exit_status_counts step_times_ms "
                     "trial_paths error step_time_source failure_hints outcome_counts "
                     "executed_iter_min executed_iter_max configured_iters iters_display "
                     "workload_config top_failure_detector_id top_warn_detector_id "
                     "stop_after_note error_count metrics_summary resumed failure_rate "
                     "error_rate unreliable confound step_time_ratio resolved_environment");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "trials")), 2);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "passed_count")), 2);
    ck_assert_int_eq(ar_json_get_int(su_at(cell, "exit_status_counts", "ok", NULL)), 2);
    ck_assert_str_eq(su_str(cell, "trial_paths", "0", NULL),
                     "out/T_1_x/none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(cell, "trial_paths", "1", NULL),
                     "out/T_1_x/none-none/_subprocess/trial_d0_m0_t1.json");
    ck_assert_uint_eq(ar_json_length(ar_json_get(cell, "step_times_ms")), 2);
    ck_assert_str_eq(su_str(cell, "step_time_source", NULL), "wall_clock_total");
    ck_assert_str_eq(su_str(cell, "iters_display", NULL), "1/1");
    ck_assert(ar_json_get_double(su_at(cell, "metrics_summary", "exit_code", "n", NULL)) == 2.0);
    ck_assert(ar_json_get_double(su_at(cell, "metrics_summary", "exit_code", "mean", NULL))
              == 0.0);
    ck_assert_uint_eq(ar_json_object_count(ar_json_get(cell, "metrics_summary")), 1);
    ck_assert(!ar_json_get_bool(ar_json_get(cell, "resumed")));
    ck_assert_str_eq(su_str(cell, "confound", NULL), "(baseline)");
    double low = ar_json_get_double(ar_json_get(cell, "min_step_time_ms"));
    double high = ar_json_get_double(ar_json_get(cell, "max_step_time_ms"));
    double p50 = ar_json_get_double(ar_json_get(cell, "p50_step_time_ms"));
    ck_assert(low <= p50 && p50 <= high);
    ar_json_free(matrix);

    char *perf = tu_read("out/T_1_x/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "**Ticket**: T 1/x  \n"));
    ck_assert_ptr_nonnull(strstr(perf, "| none-none (baseline) | 2      | 1/1   | "));
    ck_assert_ptr_nonnull(strstr(perf, "| none-none (baseline) | 0         |"));
    free(perf);

    struct utsname uts;
    ck_assert_int_eq(uname(&uts), 0);
    ck_assert_str_eq(su_str(host_env, "schema_version", NULL), "1.6");
    ck_assert_str_eq(su_str(host_env, "host", "kernel_release", NULL), uts.release);
    ck_assert_str_eq(su_str(host_env, "host", "machine", NULL), uts.machine);
    ck_assert_ptr_null(su_at(host_env, "triton", "package_version", NULL));
    ck_assert(ar_json_get_bool(ar_json_get(host_env, "partial")));
    ar_json_free(host_env);
    free(run);
    free(out);
    free(err);
}
END_TEST

static ar_json_t *one_trial(const char *ticket, const char *rel)
{
    char *path = ar_xasprintf("out/%s", ticket);
    ar_json_t *json = su_json(path, rel);
    free(path);
    return json;
}

START_TEST(false_and_a_missing_command_are_recorded)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "F", "--", "false", NULL},
                              &out, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(out, "Sweep summary: 1 cell(s) -- 0 clean, 1 with failing "
                                      "trials, 0 with errors.\n"
                                      "  [fail] none-none: 1 failed of 1 trial(s) (exit code 1) "
                                      "-> none-none/\n"));
    ck_assert_ptr_nonnull(strstr(out, "Tip: re-run with -v"));
    ar_json_t *result = one_trial("F", "none-none/trial_0/result.json");
    ck_assert_str_eq(su_str(result, "verdict", NULL), "fail");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "exit_code")), 1);
    ck_assert_str_eq(su_str(result, "failure_detectors_fired", "0", NULL), "tier1:exit_nonzero");
    ar_json_free(result);
    ar_json_t *trial = one_trial("F", "none-none/_subprocess/trial_d0_m0_t0.json");
    assert_strict_trial(trial);
    ck_assert_str_eq(su_str(trial, "exit_status", NULL), "workload_failed");
    ck_assert_str_eq(su_str(trial, "result", "failure_details", "0", "type", NULL),
                     "subprocess_nonzero_exit");
    ar_json_free(trial);
    ar_json_t *matrix = one_trial("F", "matrix.json");
    ar_json_t *cell = su_at(matrix, "cells", "0", NULL);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "failed_count")), 1);
    ck_assert(ar_json_get_double(ar_json_get(cell, "failure_rate")) == 1.0);
    ck_assert_str_eq(su_str(cell, "top_failure_detector_id", NULL), "tier1:exit_nonzero");
    ck_assert_str_eq(su_str(cell, "failure_hints", "0", "0", NULL), "exit code 1");
    /* Only passing trials are summarised. */
    ck_assert_uint_eq(ar_json_object_count(ar_json_get(cell, "metrics_summary")), 0);
    ar_json_free(matrix);
    free(out);
    free(err);

    /* --fail-on-fail: the failing verdict is a gate (exit 3); without it, 0. */
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "G", "--fail-on-fail",
                                         "--", "false", NULL}, &out, &err),
                     3);
    free(out);
    free(err);
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "H", "--fail-on-fail",
                                         "--", "true", NULL}, &out, &err),
                     0);
    free(out);
    free(err);
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--fail-on-fail", "--list-collectors", NULL}, &out,
                                         &err),
                     2);
    ck_assert_ptr_nonnull(strstr(err, "--fail-on-fail applies only to a run"));
    free(out);
    free(err);

    /* No trial's command could start: the summary says why, exit 1 (and 1
     * wins over --fail-on-fail's 3). */
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "M", "--fail-on-fail",
                                         "--", "no-such-command-4f1e", "arg", NULL}, &out, &err),
                     1);
    ck_assert_ptr_nonnull(strstr(out, "Nothing ran: no trial's command could start"));
    ck_assert_ptr_nonnull(strstr(out, "  [error] none-none: 1 errored of 1 trial(s) (cannot "
                                      "execute 'no-such-command-4f1e': No such file or "
                                      "directory) -> none-none/\n"));
    result = one_trial("M", "none-none/trial_0/result.json");
    ck_assert_str_eq(su_str(result, "verdict", NULL), "error");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "exit_code")), 127);
    ck_assert_str_eq(su_str(result, "error_detectors_fired", "0", NULL), "tier1:exec_failed");
    ar_json_free(result);
    char *log = tu_read("out/M/none-none/trial_0/stderr.log");
    ck_assert_ptr_nonnull(strstr(log, "cannot execute 'no-such-command-4f1e'"));
    free(log);
    trial = one_trial("M", "none-none/_subprocess/trial_d0_m0_t0.json");
    assert_strict_trial(trial);
    ck_assert(!ar_json_get_bool(su_at(trial, "result", "main_work_started", NULL)));
    ck_assert_int_eq(ar_json_get_int(su_at(trial, "result", "executed_iterations", NULL)), 0);
    ar_json_free(trial);
    matrix = one_trial("M", "matrix.json");
    cell = su_at(matrix, "cells", "0", NULL);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "error_count")), 1);
    ck_assert(ar_json_get_bool(ar_json_get(cell, "unreliable")));
    ck_assert_str_eq(su_str(cell, "step_time_source", NULL), "missing");
    ck_assert_ptr_null(ar_json_get(cell, "mean_step_time_ms"));
    ck_assert_str_eq(su_str(cell, "iters_display", NULL), "0/1");
    ar_json_free(matrix);
    char *perf = tu_read("out/M/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "| n/a  | n/a | n/a | n/a | n/a | n/a | n/a |"));
    free(perf);
    free(out);
    free(err);
}
END_TEST

/* Run aorta-run in out/ with args, then -- and the command; its status. */
static int run_in_out(char *const *args, char *const *command, char **out, char **err)
{
    char *argv[32];
    size_t n = 0;
    argv[n++] = "--output";
    argv[n++] = "out";
    for (size_t i = 0; args && args[i]; i++)
        argv[n++] = args[i];
    argv[n++] = "--";
    for (size_t i = 0; command[i]; i++)
        argv[n++] = command[i];
    argv[n] = NULL;
    return su_aorta(NULL, argv, out, err);
}

START_TEST(a_rerun_of_another_request_is_refused_and_fresh_starts_over)
{
    char *hello[] = {"sh", "-c", "echo hello", NULL};
    char *fails[] = {"sh", "-c", "exit 1", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_in_out(NULL, hello, &out, &err), 0);
    free(out);
    free(err);
    /* The trial JSON carries the request's fingerprint and its parts. */
    ar_json_t *trial = one_trial("_no_ticket_", "none-none/_subprocess/trial_d0_m0_t0.json");
    assert_strict_trial(trial);
    const char *fingerprint = su_str(trial, "request_fingerprint", NULL);
    ck_assert_ptr_nonnull(fingerprint);
    ck_assert_uint_eq(strlen(fingerprint), 64);
    ck_assert_uint_eq(strspn(fingerprint, "0123456789abcdef"), 64);
    ck_assert_uint_eq(strlen(su_str(trial, "config", "_aorta_request", "command_sha256", NULL)),
                      64);
    ck_assert_str_eq(su_str(trial, "config", "_aorta_request", "aorta_version", NULL),
                     PACKAGE_VERSION);
    ck_assert_ptr_null(su_str(trial, "config", "_aorta_request", "recipe_sha256", NULL));
    char *first = ar_xstrdup(fingerprint);
    ar_json_free(trial);

    /* The dry run says the same request would be resumed. */
    ck_assert_int_eq(run_in_out((char *[]){"--dry-run", NULL}, hello, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"resumed\":true}"));
    free(out);
    free(err);

    /* A resume keeps the first run's timestamp and wall time beside its own. */
    ar_json_t *before = su_json("out/_no_ticket_", "matrix.json");
    char *first_stamp = ar_xstrdup(su_str(before, "run_timestamp", NULL));
    double first_wall = ar_json_get_double(ar_json_get(before, "run_wall_clock_sec"));
    ck_assert_ptr_null(ar_json_get(before, "first_run_timestamp"));
    ar_json_free(before);
    ck_assert_int_eq(run_in_out(NULL, hello, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "1 resumed from a prior run"));
    free(out);
    free(err);
    ar_json_t *after = su_json("out/_no_ticket_", "matrix.json");
    ck_assert_str_eq(su_str(after, "first_run_timestamp", NULL), first_stamp);
    ck_assert(ar_json_get_double(ar_json_get(after, "first_run_wall_clock_sec"))
              == first_wall);
    ar_json_free(after);
    char *perf = tu_read("out/_no_ticket_/perf.md");
    ck_assert_msg(strstr(perf, " (first run); resumed ") != NULL, "%s", perf);
    ck_assert_ptr_nonnull(strstr(perf, " s (first run); "));
    ck_assert_ptr_nonnull(strstr(perf, " s (resume)  \n"));
    free(perf);
    free(first_stamp);

    /* Another command in the same run directory: refused with one line
     * before anything runs (issue 25: it used to serve "hello"). */
    ck_assert_int_eq(run_in_out(NULL, fails, &out, &err), 2);
    ck_assert_str_eq(err, "aorta-run: cannot resume out/_no_ticket_/none-none: the command "
                          "changed; use a new --ticket or --output, or --fresh to empty the run "
                          "directory's cells first\n");
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
    char *log = tu_read("out/_no_ticket_/none-none/trial_0/stdout.log");
    ck_assert_str_eq(log, "hello\n");
    free(log);
    ck_assert(!tu_exists("out/_no_ticket_/.aorta-run.lock"));
    /* --dry-run says so too, and would resume nothing with --fresh. */
    ck_assert_int_eq(run_in_out((char *[]){"--dry-run", NULL}, fails, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(out, "\"resumed\":false}"));
    ck_assert_ptr_nonnull(strstr(err, "the command changed"));
    free(out);
    free(err);
    ck_assert_int_eq(run_in_out((char *[]){"--dry-run", "--fresh", NULL}, fails, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"resumed\":false}"));
    free(out);
    free(err);

    /* --fresh empties the plan's cells and nothing else: not a file of the
     * run directory, not another cell, not what a symlink in a cell points
     * to. */
    tu_write("out/_no_ticket_/notes.txt", "mine\n");
    ck_assert_int_eq(mkdir("out/_no_ticket_/other-none", 0755), 0);
    tu_write("out/_no_ticket_/other-none/keep", "kept\n");
    ck_assert_int_eq(mkdir("precious", 0755), 0);
    tu_write("precious/data", "data\n");
    char *target = tu_join(dir, "precious");
    ck_assert_int_eq(symlink(target, "out/_no_ticket_/none-none/link"), 0);
    free(target);
    ck_assert_int_eq(run_in_out((char *[]){"--fresh", NULL}, fails, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "[fail] none-none"));
    ck_assert_ptr_null(strstr(out, "resumed"));
    free(out);
    free(err);
    log = tu_read("out/_no_ticket_/none-none/trial_0/stdout.log");
    ck_assert_str_eq(log, "");
    free(log);
    ck_assert(!tu_exists("out/_no_ticket_/none-none/link"));
    ck_assert(tu_exists("precious/data"));
    ck_assert(tu_exists("out/_no_ticket_/notes.txt"));
    ck_assert(tu_exists("out/_no_ticket_/other-none/keep"));
    trial = one_trial("_no_ticket_", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_ne(su_str(trial, "request_fingerprint", NULL), first);
    ar_json_free(trial);
    free(first);

    /* The same request again resumes. */
    ck_assert_int_eq(run_in_out(NULL, fails, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "[resumed]"));
    free(out);
    free(err);

    /* A trial JSON without a fingerprint (an older aorta-run's) is never
     * resumed: refused, naming why. */
    trial = one_trial("_no_ticket_", "none-none/_subprocess/trial_d0_m0_t0.json");
    ar_json_set(trial, "request_fingerprint", NULL);
    ck_assert_int_eq(ar_json_write_file("out/_no_ticket_/none-none/_subprocess/"
                                           "trial_d0_m0_t0.json",
                                           trial),
                     0);
    ar_json_free(trial);
    ck_assert_int_eq(run_in_out(NULL, fails, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "cannot resume out/_no_ticket_/none-none: it was recorded "
                                      "without a request fingerprint"));
    ck_assert_uint_eq(tu_count(err, "\n"), 1);
    free(out);
    free(err);

    /* A new --ticket is a new run directory: nothing to resume or refuse
     * (the other parts of a request: check_sweep_units). */
    ck_assert_int_eq(run_in_out((char *[]){"--ticket", "other", NULL}, fails, &out, &err), 0);
    free(out);
    free(err);
}
END_TEST

START_TEST(a_trial_past_its_timeout_is_terminated_then_killed)
{
    /* sleep dies on SIGTERM: well before the default 10 s grace. */
    double started = now();
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "S", "--timeout", "0.3",
                                         "--", "sleep", "30", NULL}, NULL, NULL),
                     0);
    ck_assert(now() - started < 8.0);
    ar_json_t *result = one_trial("S", "none-none/trial_0/result.json");
    ck_assert_str_eq(su_str(result, "verdict", NULL), "error");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "exit_code")), -1);
    ck_assert(ar_json_get_bool(ar_json_get(result, "timed_out")));
    ck_assert_str_eq(su_str(result, "error_detectors_fired", "0", NULL), "tier1:timeout");
    double wall = ar_json_get_double(ar_json_get(result, "walltime_sec"));
    ck_assert(wall >= 0.3 && wall < 8.0);
    ar_json_free(result);

    /* A group that ignores SIGTERM is killed after the grace, whole. */
    char *pidfile = tu_join(dir, "pid");
    char *script = ar_xasprintf("trap '' TERM; sleep 30 & echo $! > '%s'; wait", pidfile);
    started = now();
    ck_assert_int_eq(su_aorta((char *[]){"AORTA_KILL_GRACE=0.5", NULL},
                              (char *[]){"--output", "out", "--ticket", "K", "--timeout", "0.3",
                                         "--", "sh", "-c", script, NULL}, NULL, NULL),
                     0);
    double took = now() - started;
    ck_assert_msg(took >= 0.8 && took < 8.0, "took %.2f s", took);
    result = one_trial("K", "none-none/trial_0/result.json");
    ck_assert(ar_json_get_bool(ar_json_get(result, "timed_out")));
    ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "exit_code")), -1);
    ar_json_free(result);
    char *text = tu_read(pidfile);
    pid_t sleeper = (pid_t)atol(text);
    ck_assert(sleeper > 0);
    int gone = 0;
    for (int i = 0; i < 200 && !gone; i++) {
        gone = kill(sleeper, 0) != 0 && errno == ESRCH;
        if (!gone) {
            waitpid(sleeper, NULL, WNOHANG);
            struct timespec step = {0, 10 * 1000 * 1000};
            nanosleep(&step, NULL);
        }
    }
    ck_assert_msg(gone, "the group's background sleep %d survived", (int)sleeper);
    free(text);
    free(script);
    free(pidfile);
}
END_TEST

START_TEST(megabytes_of_output_are_captured_whole)
{
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "B", "--", "sh", "-c",
                                         "head -c 6000000 /dev/zero; head -c 3000000 /dev/zero >&2",
                                         NULL}, NULL, NULL),
                     0);
    struct stat st;
    ck_assert_int_eq(stat("out/B/none-none/trial_0/stdout.log", &st), 0);
    ck_assert_int_eq(st.st_size, 6000000);
    ck_assert_int_eq(stat("out/B/none-none/trial_0/stderr.log", &st), 0);
    ck_assert_int_eq(st.st_size, 3000000);
    ar_json_t *result = one_trial("B", "none-none/trial_0/result.json");
    ck_assert_str_eq(su_str(result, "verdict", NULL), "pass");
    ar_json_free(result);
}
END_TEST

static size_t lines_in(const char *path)
{
    char *text = tu_read(path);
    size_t lines = text ? tu_count(text, "\n") : 0;
    free(text);
    return lines;
}

/* Run a 3-trial sweep whose trial 0 holds until interrupted by sig. */
static void interrupt_during_trial(int sig, const char *ticket)
{
    char *counter = tu_join(dir, "count");
    char *started = tu_join(dir, "started");
    tu_write("hold", "");
    char *script = ar_xasprintf("echo x >> '%s'; if [ -e hold ]; then touch '%s'; exec sleep 30; "
                                   "fi",
                                   counter, started);
    char *out_path = tu_join(dir, "out.txt"), *err_path = tu_join(dir, "err.txt");
    unlink(started);
    pid_t pid = su_aorta_start(NULL,
                               (char *[]){"--output", "out", "--ticket", (char *)ticket,
                                          "--trials", "3", "--", "sh", "-c", script, NULL},
                               out_path, err_path);
    ck_assert(su_wait_for(started, 20));
    double sent = now();
    kill(pid, sig);
    ck_assert_int_eq(tu_wait(pid), 128 + sig);
    ck_assert(now() - sent < 8.0);
    char *out = tu_read(out_path);
    ck_assert_ptr_nonnull(strstr(out, sig == SIGINT ? "Sweep interrupted by SIGINT"
                                                    : "Sweep interrupted by SIGTERM"));
    ck_assert_ptr_nonnull(strstr(out, "Wrote run artifacts to out/"));
    free(out);
    unlink("hold");
    free(out_path);
    free(err_path);
    free(script);
    free(started);
    free(counter);
}

START_TEST(sigint_during_a_trial_records_an_error_and_the_next_run_resumes)
{
    interrupt_during_trial(SIGINT, "I");
    ck_assert(!tu_exists("out/I/.aorta-run.lock"));
    ck_assert(!tu_exists("out/I/none-none/trial_0/result.json"));
    ck_assert(tu_exists("out/I/none-none/trial_0/stdout.log"));
    ck_assert(!tu_exists("out/I/none-none/trial_1"));
    ar_json_t *trial = one_trial("I", "none-none/_subprocess/trial_d0_m0_t0.json");
    assert_strict_trial(trial);
    ck_assert_str_eq(su_str(trial, "result", "metrics", "verdict", NULL), "error");
    ck_assert_str_eq(su_str(trial, "result", "metrics", "error_detectors_fired", "0", NULL),
                     "meta:interrupted");
    ck_assert_str_eq(su_str(trial, "result", "failure_details", "0", "signal", NULL), "SIGINT");
    ar_json_free(trial);
    ar_json_t *matrix = one_trial("I", "matrix.json");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "trials", NULL)), 1);
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "error_count", NULL)), 1);
    ck_assert_ptr_nonnull(strstr(su_str(matrix, "warnings", "1", NULL), "interrupted by SIGINT"));
    ar_json_free(matrix);
    ck_assert(tu_exists("out/I/perf.md"));
    char *counter = tu_join(dir, "count");
    ck_assert_uint_eq(lines_in(counter), 1);

    /* The cell was incomplete: it re-runs from trial 0. */
    char *out = NULL;
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "I", "--trials", "3", "--",
                                         "sh", "-c", "echo x >> \"$0\"", counter, NULL},
                              &out, NULL),
                     0);
    ck_assert_uint_eq(lines_in(counter), 4);
    tu_assert_summary(out, "Sweep summary: all 1 cell(s) passed.\n"
                          "Wall time: T\n"
                          "Full matrix: out/I/matrix.json\n"
                          "Performance report: out/I/perf.md\n"
                          "Wrote run artifacts to out/I\n");
    free(out);
    matrix = one_trial("I", "matrix.json");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "passed_count", NULL)), 3);
    ck_assert(!ar_json_get_bool(su_at(matrix, "cells", "0", "resumed", NULL)));
    ar_json_free(matrix);

    /* Complete: skipped, reported as resumed. */
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "I", "--trials", "3", "--",
                                         "sh", "-c", "echo x >> \"$0\"", counter, NULL},
                              &out, NULL),
                     0);
    ck_assert_uint_eq(lines_in(counter), 4);
    tu_assert_summary(out, "Sweep summary: all 1 cell(s) passed. 1 resumed from a prior run (no "
                          "trials re-executed).\n"
                          "Wall time: T\n"
                          "Full matrix: out/I/matrix.json\n"
                          "Performance report: out/I/perf.md\n"
                          "Note: resumed cells reused cached artifacts under out/I, recorded for "
                          "this same request; use --fresh or a new --ticket/--output to force a "
                          "fresh run.\n"
                          "Wrote run artifacts to out/I\n");
    free(out);
    matrix = one_trial("I", "matrix.json");
    ar_json_t *cell = su_at(matrix, "cells", "0", NULL);
    ck_assert(ar_json_get_bool(ar_json_get(cell, "resumed")));
    ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "passed_count")), 3);
    ck_assert_uint_eq(ar_json_length(ar_json_get(cell, "trial_paths")), 3);
    ck_assert_uint_eq(ar_json_length(ar_json_get(cell, "step_times_ms")), 3);
    ar_json_free(matrix);

    /* A truncated result.json makes the cell incomplete again: in rounds
     * (the default order) it continues from that trial, trials 0 and 1
     * kept. */
    tu_write("out/I/none-none/trial_2/result.json", "{\"verdict\": \"pa");
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "I", "--trials", "3", "--",
                                         "sh", "-c", "echo x >> \"$0\"", counter, NULL},
                              NULL, NULL),
                     0);
    ck_assert_uint_eq(lines_in(counter), 5);

    /* So does a record past 4 MiB: no trial of ours writes one, and parsing
     * it would cost far more memory than the file. */
    char *record = tu_read("out/I/none-none/trial_1/result.json");
    size_t len = strlen(record), padded = (4u << 20) + 1;
    char *huge = malloc(padded + 1);
    memcpy(huge, record, len);
    memset(huge + len, ' ', padded - len);
    huge[padded] = '\0';
    tu_write("out/I/none-none/trial_1/result.json", huge);
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "I", "--trials", "3", "--",
                                         "sh", "-c", "echo x >> \"$0\"", counter, NULL},
                              NULL, NULL),
                     0);
    ck_assert_uint_eq(lines_in(counter), 7); /* trials 1 and 2 again */
    free(huge);
    free(record);
    free(counter);
}
END_TEST

START_TEST(sigterm_during_a_trial_exits_143_with_the_reports_written)
{
    interrupt_during_trial(SIGTERM, "TERM");
    ar_json_t *matrix = one_trial("TERM", "matrix.json");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "error_count", NULL)), 1);
    ar_json_free(matrix);
    ar_json_t *trial = one_trial("TERM", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "result", "failure_details", "0", "signal", NULL), "SIGTERM");
    ck_assert_str_eq(su_str(trial, "exit_status", NULL), "infrastructure_failed");
    ar_json_free(trial);
    ck_assert(!tu_exists("out/TERM/.aorta-run.lock"));
}
END_TEST

START_TEST(a_locked_run_directory_is_refused_and_a_stale_lock_taken_over)
{
    char host[256];
    ck_assert_int_eq(gethostname(host, sizeof host), 0);
    char *run = tu_join(dir, "out/L");
    char *lock = tu_join(run, ".aorta-run.lock");
    char *held = ar_xasprintf("{\"pid\": %ld, \"host\": \"%s\", \"started_at\": \"x\"}",
                                 (long)getpid(), host);
    tu_write(lock, held);
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "L", "--", "true", NULL},
                              &out, &err),
                     1);
    char *expected = ar_xasprintf("aorta-run: the run directory is in use by aorta-run pid %ld",
                                     (long)getpid());
    ck_assert_ptr_nonnull(strstr(err, expected));
    ck_assert_uint_eq(tu_count(err, "\n"), 1);
    ck_assert_str_eq(out, "");
    ck_assert(!tu_exists("out/L/matrix.json") && !tu_exists("out/L/none-none"));
    char *text = tu_read(lock);
    ck_assert_str_eq(text, held);
    free(text);
    free(expected);
    free(out);
    free(err);

    pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    free(held);
    held = ar_xasprintf("{\"pid\": %ld, \"host\": \"%s\", \"started_at\": \"x\"}", (long)child,
                           host);
    tu_write(lock, held);
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "L", "--", "true", NULL},
                              &out, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: taking over the stale lock"));
    ck_assert(tu_exists("out/L/matrix.json"));
    ck_assert(!tu_exists(lock));
    free(out);
    free(err);

    /* Output that cannot be created. */
    tu_write("file", "x");
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--output", "file/sub", "--", "true", NULL}, &out,
                              &err),
                     1);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: cannot create the run directory file/sub/"));
    free(out);
    free(err);
    free(held);
    free(lock);
    free(run);
}
END_TEST

START_TEST(a_nonzero_rank_runs_the_command_bare_and_writes_nothing)
{
    char *counter = tu_join(dir, "count");
    char *script = ar_xasprintf("echo \"bare $0\"; echo x >> '%s'", counter);
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta((char *[]){"RANK=1", NULL},
                              (char *[]){"--output", "out", "--trials", "2", "--", "sh", "-c",
                                         script, NULL}, &out, &err),
                     0);
    ck_assert_str_eq(out, "bare sh\nbare sh\n");
    /* Said once, naming the rank, so a user who expected it profiled knows. */
    ck_assert_str_eq(err, "aorta-run: warning: rank 1 runs the command without collectors and "
                          "records nothing; rank 0 records the run (pass --all-ranks, or "
                          "all_ranks: true in the recipe, to profile every rank)\n");
    ck_assert(!tu_exists("out"));
    ck_assert_uint_eq(lines_in(counter), 2);
    free(out);
    free(err);
    ck_assert_int_eq(su_aorta((char *[]){"RANK", "OMPI_COMM_WORLD_RANK=3", NULL},
                              (char *[]){"--output", "out", "--", "sh", "-c", script, NULL},
                              &out, &err),
                     0);
    ck_assert_str_eq(out, "bare sh\n");
    ck_assert(!tu_exists("out"));
    free(out);
    free(err);
    /* RANK is read first: rank 0 records. */
    ck_assert_int_eq(su_aorta((char *[]){"RANK=0", "SLURM_PROCID=2", NULL},
                              (char *[]){"--output", "out", "--", "sh", "-c", script, NULL},
                              &out, &err),
                     0);
    ck_assert(tu_exists("out/_no_ticket_/matrix.json"));
    free(out);
    free(err);
    free(script);
    free(counter);
}
END_TEST

/* perf.md and report.html show the command shell-quoted: pasting it runs
 * what ran (one argument stays one argument). */
START_TEST(the_command_is_shown_as_it_pastes)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "Q", "--", "sh", "-c",
                                         "echo hello from a trial", "it's", NULL},
                              &out, &err),
                     0);
    char *perf = tu_read("out/Q/perf.md");
    ck_assert_msg(strstr(perf, "**Command**: `sh -c 'echo hello from a trial' 'it'\"'\"'s'`  \n")
                      != NULL,
                  "%s", perf);
    char *html = tu_read("out/Q/report.html");
    ck_assert_ptr_nonnull(strstr(html, "Command: <code>sh -c &#39;echo hello from a trial&#39; "
                                       "&#39;it&#39;&quot;&#39;&quot;&#39;s&#39;</code>"));
    free(html);
    free(perf);
    free(out);
    free(err);
}
END_TEST

/* A command that does not exist, run under a collector: no profiler starts
 * (the scribe wrapper never runs: no attempts file), every trial is
 * recorded as a run without collectors records it (cannot execute, exit
 * 127), the summary names the command, and the run exits 1. */
START_TEST(a_missing_command_starts_no_profiler)
{
    char *plugins = tu_builddir("tests/fake-collectors");
    char *wrapper = tu_srcdir("tests/fake-collectors/scribe-wrapper");
    char *recipe = ar_xasprintf("schema_version: 1\nmode: probe\ntrials: 2\n"
                                   "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                   "collect:\n  scribe: {wrapper: \"%s\"}\n",
                                   wrapper);
    tu_write("r.yaml", recipe);
    static const char *const commands[] = {"./nonexistent_gemm", "nonexistent-gemm-7d2c"};
    for (size_t i = 0; i < 2; i++) {
        char *ticket = ar_xasprintf("T%zu", i);
        char *args[] = {"--plugin-dir", plugins, "--recipe", "r.yaml", "--output", "out",
                        "--ticket", ticket, "--", (char *)commands[i], NULL};
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 1);
        ck_assert_ptr_nonnull(strstr(out, "Nothing ran: no trial's command could start"));
        char *named = ar_xasprintf("(cannot execute '%s': No such file or directory)",
                                      commands[i]);
        ck_assert_msg(strstr(out, named) != NULL, "%s", out);
        for (int t = 0; t < 2; t++) {
            char *attempts = ar_xasprintf("out/%s/none-none/_subprocess/trial_d0_m0_t%d/scribe/"
                                             "attempts", ticket, t);
            ck_assert(!tu_exists(attempts));
            free(attempts);
            char *rel = ar_xasprintf("none-none/trial_%d/result.json", t);
            char *run = ar_xasprintf("out/%s", ticket);
            ar_json_t *result = su_json(run, rel);
            ck_assert_str_eq(su_str(result, "verdict", NULL), "error");
            ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "exit_code")), 127);
            ar_json_free(result);
            free(run);
            free(rel);
        }
        free(named);
        free(out);
        free(err);
        free(ticket);
    }
    /* A command that exists runs under the profiler as before. */
    char *args[] = {"--plugin-dir", plugins, "--recipe", "r.yaml", "--output", "out",
                    "--ticket", "ok", "--", "true", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    ck_assert(tu_exists("out/ok/none-none/_subprocess/trial_d0_m0_t0/scribe/attempts"));
    free(out);
    free(err);
    free(recipe);
    free(wrapper);
    free(plugins);
}
END_TEST

/* A world past the most ranks aorta-run supports is the launcher's mistake:
 * every rank of --all-ranks refuses it in one line naming the variable and
 * the maximum, exit 2, before anything is written (rank 0 would otherwise
 * wait for 65,535 followers). */
START_TEST(a_world_past_the_maximum_is_refused)
{
    char *args[] = {"--all-ranks", "--output", "out", "--", "true", NULL};
    static const char *const worlds[][2] = {
        {"WORLD_SIZE", "9223372036854775807"}, {"OMPI_COMM_WORLD_SIZE", "65537"},
        {"SLURM_NTASKS", "99999999999999999999999"}, {"PMI_SIZE", "70000"}};
    for (size_t i = 0; i < sizeof worlds / sizeof worlds[0]; i++)
        for (int rank = 0; rank < 2; rank++) {
            char *size = ar_xasprintf("%s=%s", worlds[i][0], worlds[i][1]);
            char *rank_var = ar_xasprintf("RANK=%d", rank);
            char *env[] = {rank_var, size, "WORLD_SIZE", "OMPI_COMM_WORLD_RANK",
                           "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", NULL};
            /* The variable under test stays set (it comes first). */
            for (size_t k = 2; env[k]; k++)
                if (!strcmp(env[k], worlds[i][0]))
                    env[k] = "AORTA_UNUSED";
            char *out = NULL, *err = NULL;
            ck_assert_int_eq(su_aorta(env, args, &out, &err), 2);
            char *want = ar_xasprintf("aorta-run: %s='%s' is more ranks than aorta-run supports "
                                         "(at most 65536)\n",
                                         worlds[i][0], worlds[i][1]);
            ck_assert_str_eq(err, want);
            ck_assert(!tu_exists("out"));
            free(want);
            free(out);
            free(err);
            free(rank_var);
            free(size);
        }
    /* The maximum itself is a world aorta-run takes (rank 0 then waits,
     * bounded; here for a moment). */
    char *at_max[] = {"RANK=0", "WORLD_SIZE=65536", "AORTA_RANK_WAIT=0.2", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(at_max, args, &out, &err), 0);
    ck_assert_ptr_null(strstr(err, "more ranks"));
    free(out);
    free(err);
}
END_TEST

/* --all-ranks without a launcher around it, one rank at a time: rank 1
 * writes its captures' folder and its record only; rank 0 of a world of 2
 * waits (bounded) for rank 1's record, finds this job's, and without it
 * records the trial as an error naming the missing rank. */
START_TEST(all_ranks_records_per_rank_and_a_missing_rank_is_an_error)
{
    char *plugins = tu_builddir("tests/fake-collectors");
    char *wrapper = tu_srcdir("tests/fake-collectors/scribe-wrapper");
    char *recipe = ar_xasprintf("schema_version: 1\nmode: probe\nticket: R\ntrials: 1\n"
                                   "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                   "all_ranks: true\ncollect:\n  scribe: {wrapper: \"%s\"}\n",
                                   wrapper);
    tu_write("r.yaml", recipe);
    char *args[] = {"--plugin-dir", plugins, "--recipe", "r.yaml", "--output", "out", "--", "true",
                    NULL};
    char *rank1[] = {"RANK", "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2", "PMIX_NAMESPACE=j1",
                     NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(rank1, args, &out, &err), 0);
    ck_assert(tu_exists("out/R/none-none/_subprocess/trial_d0_m0_t0/scribe/rank1/attempts"));
    ck_assert(!tu_exists("out/R/matrix.json"));
    ck_assert(!tu_exists("out/R/host_env.json"));
    ar_json_t *record = su_json("out/R", "none-none/_subprocess/trial_d0_m0_t0.rank1.json");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(record, "schema_version")), 1);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(record, "rank")), 1);
    ck_assert_str_eq(su_str(record, "verdict", NULL), "pass");
    ck_assert_str_eq(su_str(record, "job", NULL), "j1");
    ar_json_free(record);
    free(out);
    free(err);
    /* Rank 0 of the same job: takes rank 1's record, merges both ranks. */
    char *rank0[] = {"RANK", "OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=2", "PMIX_NAMESPACE=j1",
                     "AORTA_RANK_WAIT=5", NULL};
    ck_assert_int_eq(su_aorta(rank0, args, &out, &err), 0);
    ar_json_t *trial = su_json("out/R", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "result", "metrics", "verdict", NULL), "pass");
    ck_assert_int_eq(ar_json_get_int(su_at(trial, "result", "metrics", "scribe_rank_count",
                                              NULL)),
                     2);
    ar_json_free(trial);
    free(out);
    free(err);
    /* A complete cell: rank 1 skips it, unless --fresh has every rank run
     * every cell (rank 0 empties them). */
    const char *attempts = "out/R/none-none/_subprocess/trial_d0_m0_t0/scribe/rank1/attempts";
    ck_assert_int_eq(unlink(attempts), 0);
    ck_assert_int_eq(su_aorta(rank1, args, &out, &err), 0);
    ck_assert(!tu_exists(attempts));
    free(out);
    free(err);
    char *fresh[] = {"--fresh", "--plugin-dir", plugins, "--recipe", "r.yaml", "--output", "out",
                     "--", "true", NULL};
    ck_assert_int_eq(su_aorta(rank1, fresh, &out, &err), 0);
    ck_assert(tu_exists(attempts));
    free(out);
    free(err);
    /* Another job: rank 1's record is a former job's, so rank 1 is missing. */
    tu_rmtree("out/R/none-none/trial_0");
    char *other[] = {"RANK", "OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=2",
                     "PMIX_NAMESPACE=j2", "AORTA_RANK_WAIT=0.5", NULL};
    ck_assert_int_eq(su_aorta(other, args, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "no record from rank(s) 1"));
    trial = su_json("out/R", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "result", "metrics", "verdict", NULL), "error");
    ar_json_free(trial);
    ar_json_t *matrix = su_json("out/R", "matrix.json");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "error_count", NULL)), 1);
    ar_json_free(matrix);
    free(out);
    free(err);
    free(recipe);
    free(wrapper);
    free(plugins);
}
END_TEST

/* Chosen ranks with aorta-run started per rank, one rank at a time (the
 * suites of tests/ranks/ run them under mpirun and srun): rank 1, listed,
 * profiles itself and writes its record; rank 0, not listed, runs the
 * command bare but records the trial, its own verdict and rank 1's, and
 * the figures cover rank 1 alone (a rank0/ an earlier attempt left is
 * removed).  Neither says "runs the command without collectors". */
START_TEST(chosen_ranks_started_per_rank_profile_only_the_listed_ones)
{
    char *plugins = tu_builddir("tests/fake-collectors");
    char *wrapper = tu_srcdir("tests/fake-collectors/scribe-wrapper");
    char *recipe = ar_xasprintf("schema_version: 1\nmode: probe\nticket: C\ntrials: 1\n"
                                   "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                   "ranks: [1]\ncollect:\n  scribe: {wrapper: \"%s\"}\n",
                                   wrapper);
    tu_write("r.yaml", recipe);
    char *args[] = {"--plugin-dir", plugins, "--recipe", "r.yaml", "--output", "out", "--", "true",
                    NULL};
    char *rank1[] = {"RANK", "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2",
                     "PMIX_NAMESPACE=c1", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(rank1, args, &out, &err), 0);
    ck_assert_str_eq(err, "");
    const char *scribe = "out/C/none-none/_subprocess/trial_d0_m0_t0/scribe";
    char *own = ar_xasprintf("%s/rank1/attempts", scribe);
    ck_assert(tu_exists(own));
    ar_json_t *record = su_json("out/C", "none-none/_subprocess/trial_d0_m0_t0.rank1.json");
    ck_assert_str_eq(su_str(record, "verdict", NULL), "pass");
    ar_json_free(record);
    free(out);
    free(err);
    char *stale = ar_xasprintf("%s/rank0/attempts", scribe);
    tu_write(stale, "an earlier attempt's\n");
    char *rank0[] = {"RANK", "OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=2",
                     "PMIX_NAMESPACE=c1", "AORTA_RANK_WAIT=5", NULL};
    ck_assert_int_eq(su_aorta(rank0, args, &out, &err), 0);
    ck_assert_ptr_null(strstr(err, "without collectors"));
    ck_assert(!tu_exists(stale));
    ar_json_t *trial = su_json("out/C", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "result", "metrics", "verdict", NULL), "pass");
    ck_assert_int_eq(ar_json_get_int(su_at(trial, "result", "metrics", "scribe_rank_count",
                                              NULL)),
                     1);
    ck_assert_str_eq(su_str(trial, "result", "metrics", "scribe_ranks_profiled", NULL), "1");
    ar_json_free(trial);
    /* Rank 0 ran the command itself, bare. */
    ar_json_t *result = su_json("out/C", "none-none/trial_0/result.json");
    ck_assert_str_eq(su_str(result, "argv", "0", NULL), "true");
    ar_json_free(result);
    ar_json_t *matrix = su_json("out/C", "matrix.json");
    ck_assert_ptr_nonnull(su_at(matrix, "provenance", "ranks_profiled", "0", NULL));
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "provenance", "ranks_profiled", "0", NULL)),
                     1);
    ar_json_free(matrix);
    free(out);
    free(err);
    free(stale);
    free(own);
    free(recipe);
    free(wrapper);
    free(plugins);
}
END_TEST

/* What the plan says of chosen ranks: --ranks over the recipe's with one
 * warning, no effect without a launcher (one warning), and no stop_after
 * when aorta-run would be started per rank. */
START_TEST(chosen_ranks_warnings_and_refusals)
{
    tu_write("r.yaml", "schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [none]\n"
                       "diagnostic_axis: [none]\nranks: [0, 2, 3, 4]\n");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta((char *[]){"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                         "SLURM_PROCID", NULL},
                              (char *[]){"--dry-run", "--ranks", "1", "--recipe", "r.yaml", "--",
                                         "true", NULL},
                              &out, &err),
                     0);
    ck_assert_str_eq(err, "aorta-run: warning: --ranks 1 overrides the recipe's ranks (0, 2-4)\n"
                          "aorta-run: warning: ranks have no effect here: the recipe has no "
                          "launcher and no launcher started aorta-run (none of RANK, "
                          "OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID is set); this one "
                          "process profiles itself\n");
    ck_assert_ptr_nonnull(strstr(out, "\"ranks_profiled\":\"1\""));
    free(out);
    free(err);
    /* The same list: no override to speak of. */
    ck_assert_int_eq(su_aorta((char *[]){"RANK=0", NULL},
                              (char *[]){"--dry-run", "--ranks", "4,0,2-3", "--recipe", "r.yaml",
                                         "--", "true", NULL},
                              &out, &err),
                     0);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    tu_write("s.yaml", "schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [none]\n"
                       "diagnostic_axis: [none]\nstop_after: {events: 1, max_trials: 2}\n");
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--dry-run", "--ranks", "1", "--recipe", "s.yaml", "--",
                                         "true", NULL},
                              &out, &err),
                     2);
    ck_assert_str_eq(err, "aorta-run: --ranks: without the recipe's launcher, cannot be combined "
                          "with the recipe's stop_after: aorta-run started once per rank keeps "
                          "every rank's record, and each rank would stop after its own "
                          "verdicts\n");
    free(out);
    free(err);
}
END_TEST

/* torchrun without --rdzv-id or --standalone sets TORCHELASTIC_RUN_ID=none
 * in every run: that id names no job, so a record of it counts only when
 * written since rank 0 began this run.  An earlier run's record of a rank
 * that never ran now is not taken for a pass. */
START_TEST(torchruns_default_run_id_takes_only_this_runs_records)
{
    tu_write("r.yaml", "schema_version: 1\nmode: probe\nticket: N\ntrials: 1\n"
                       "mitigation_axis: [none]\ndiagnostic_axis: [none]\nall_ranks: true\n");
    char *args[] = {"--recipe", "r.yaml", "--output", "out", "--", "true", NULL};
    /* An earlier run's record of rank 1, with the same default id. */
    tu_write("out/N/none-none/_subprocess/trial_d0_m0_t0.rank1.json",
             "{\"schema_version\": 1, \"rank\": 1, \"world_size\": 2, \"job\": \"none\", "
             "\"cell\": \"none-none\", \"trial\": 0, \"verdict\": \"pass\", \"launched\": true, "
             "\"exit_code\": 0, \"timed_out\": false, \"elapsed_sec\": 0.1, "
             "\"written_at\": 1000000000.0}\n");
    char *rank0[] = {"RANK=0", "WORLD_SIZE=2", "TORCHELASTIC_RUN_ID=none", "AORTA_RANK_WAIT=0.5",
                     NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(rank0, args, &out, &err), 0);
    ck_assert_msg(strstr(err, "no record from rank(s) 1 after"), "%s", err);
    ar_json_t *trial = su_json("out/N", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "result", "metrics", "verdict", NULL), "error");
    ar_json_free(trial);
    free(out);
    free(err);
    /* Both ranks of one run, started together: rank 1's record counts. */
    tu_rmtree("out");
    char *waiting[] = {"RANK=0", "WORLD_SIZE=2", "TORCHELASTIC_RUN_ID=none", "AORTA_RANK_WAIT=30",
                       NULL};
    pid_t pid = su_aorta_start(waiting, args, "out0.log", "err0.log");
    ck_assert(su_wait_for("out/N/.aorta-run.lock", 20));
    char *rank1[] = {"RANK=1", "WORLD_SIZE=2", "TORCHELASTIC_RUN_ID=none", NULL};
    ck_assert_int_eq(su_aorta(rank1, args, &out, &err), 0);
    ck_assert_int_eq(tu_wait(pid), 0);
    trial = su_json("out/N", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "result", "metrics", "verdict", NULL), "pass");
    ar_json_free(trial);
    free(out);
    free(err);
}
END_TEST

/* Two processes of one job that both claim rank 1 (a launcher that set the
 * same rank variables twice): the one whose trial ends second finds the
 * other's record where its own trial began by removing it, and says so
 * once; with a rank of its own each, neither says a word. */
START_TEST(two_processes_claiming_one_rank_are_reported_once)
{
    tu_write("r.yaml", "schema_version: 1\nmode: probe\nticket: T\ntrials: 2\n"
                       "mitigation_axis: [none]\ndiagnostic_axis: [none]\nall_ranks: true\n");
    /* Trials long enough that the two overlap even when one starts late on
     * a loaded machine (or under a sanitizer). */
    char *args[] = {"--recipe", "r.yaml", "--output", "out", "--", "sleep", "3", NULL};
    char *rank1[] = {"RANK=1", "WORLD_SIZE=3", "PMIX_NAMESPACE=t1", NULL};
    pid_t first = su_aorta_start(rank1, args, "out1.log", "err1.log");
    pid_t second = su_aorta_start(rank1, args, "out2.log", "err2.log");
    ck_assert_int_eq(tu_wait(first), 0);
    ck_assert_int_eq(tu_wait(second), 0);
    char *err1 = tu_read("err1.log"), *err2 = tu_read("err2.log");
    char *both = ar_xasprintf("%s\n%s", err1, err2);
    const char *line = ".rank1.json already exists: another process of this job has rank 1 too";
    ck_assert_msg(strstr(both, line), "%s", both);
    /* Once per process (either may end a trial second). */
    const char *said = strstr(err1, line);
    ck_assert_msg(!said || !strstr(said + 1, line), "said twice: %s", err1);
    said = strstr(err2, line);
    ck_assert_msg(!said || !strstr(said + 1, line), "said twice: %s", err2);
    ck_assert(tu_exists("out/T/none-none/_subprocess/trial_d0_m0_t1.rank1.json"));
    free(both);
    free(err1);
    free(err2);
    /* Ranks 1 and 2, each once: nothing to say. */
    char *fresh[] = {"--fresh", "--recipe", "r.yaml", "--output", "out", "--", "sleep", "1",
                     NULL};
    char *rank2[] = {"RANK=2", "WORLD_SIZE=3", "PMIX_NAMESPACE=t1", NULL};
    first = su_aorta_start(rank1, fresh, "out1.log", "err1.log");
    second = su_aorta_start(rank2, fresh, "out2.log", "err2.log");
    ck_assert_int_eq(tu_wait(first), 0);
    ck_assert_int_eq(tu_wait(second), 0);
    err1 = tu_read("err1.log");
    err2 = tu_read("err2.log");
    both = ar_xasprintf("%s\n%s", err1, err2);
    ck_assert_msg(!strstr(both, "another process"), "%s", both);
    free(both);
    free(err1);
    free(err2);
}
END_TEST

/* The largest world aorta-run takes (65536; past it is refused, see
 * a_world_past_the_maximum_is_refused): the missing ranks listed as ranges
 * in linear time, and the wait for them bounded by AORTA_RANK_WAIT and by
 * SIGTERM. */
START_TEST(the_largest_world_s_wait_stays_bounded)
{
    tu_write("r.yaml", "schema_version: 1\nmode: probe\nticket: W\ntrials: 1\n"
                       "mitigation_axis: [none]\ndiagnostic_axis: [none]\nall_ranks: true\n");
    char *args[] = {"--recipe", "r.yaml", "--output", "out", "--", "touch", "started", NULL};
    char *env[] = {"RANK=0", "WORLD_SIZE=65536", "PMIX_NAMESPACE=w1", "AORTA_RANK_WAIT=1",
                   NULL};
    char *out = NULL, *err = NULL;
    double started = now();
    ck_assert_int_eq(su_aorta(env, args, &out, &err), 0);
    ck_assert_msg(now() - started < 30, "%.1f s", now() - started);
    ck_assert_msg(strstr(err, "no record from rank(s) 1-65535 after 1 s"), "%s", err);
    ar_json_t *trial = su_json("out/W", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "result", "metrics", "verdict", NULL), "error");
    ck_assert_str_eq(su_str(trial, "result", "failure_details", "0", "ranks_missing", NULL),
                     "1-65535");
    ar_json_free(trial);
    free(out);
    free(err);
    /* A wait of 600 s over the most ranks ends at SIGTERM. */
    tu_rmtree("out");
    char *waiting[] = {"RANK=0", "WORLD_SIZE=65536", "PMIX_NAMESPACE=w2", "AORTA_RANK_WAIT=600",
                       NULL};
    unlink("started");
    pid_t pid = su_aorta_start(waiting, args, "out.log", "err.log");
    ck_assert(su_wait_for("started", 20));
    sleep(1); /* rank 0 is waiting for the other ranks' records */
    started = now();
    kill(pid, SIGTERM);
    ck_assert_int_eq(tu_wait(pid), 143);
    ck_assert_msg(now() - started < 10, "%.1f s after SIGTERM", now() - started);
}
END_TEST

/* Ranks in the missing list: one, two, then a run as a range. */
START_TEST(missing_ranks_are_listed_with_ranges)
{
    ar_json_t *some = ar_json_object();
    ar_json_t *records[10] = {NULL};
    records[3] = records[5] = records[9] = some;
    char *list = ar_rank_missing_list(records, 10);
    ck_assert_str_eq(list, "1, 2, 4, 6-8");
    free(list);
    list = ar_rank_missing_list(records, 1);
    ck_assert_str_eq(list, "");
    free(list);
    ar_json_free(some);
}
END_TEST

static int is_progress_line(const char *line)
{
    return strlen(line) > 11 && line[0] == '[' && line[3] == ':' && line[6] == ':'
        && line[9] == ']' && line[10] == ' ';
}

START_TEST(verbose_progress_goes_to_stderr_line_by_line)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"-v", "--output", "out", "--ticket", "V", "--trials", "2",
                                         "--", "sh", "-c", "exit 3", NULL}, &out, &err),
                     0);
    static const char *const expected[] = {
        "matrix run started: workload=_subprocess ticket=V cells=1 trials/cell=2 steps/trial=1 "
        "output=out/V",
        "cell 1/1: none-none (mitigations=['none', 'none'] environment=local) -- starting 2 "
        "trial(s)",
        "trial 1/2: starting",
        "trial 1/2: FAILED in ",
        "(exit_status=workload_failed)",
        "trial 2/2: starting",
        "cell 1/1: none-none -- done in ",
        "[outcome: 2/2 completed | iters: 1/1]",
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        ck_assert_msg(strstr(err, expected[i]), "missing '%s' in:\n%s", expected[i], err);
    char *copy = strdup(err);
    size_t lines = 0;
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n"), lines++)
        ck_assert_msg(is_progress_line(line), "not a progress line: %s", line);
    ck_assert_uint_ge(lines, 8);
    free(copy);
    ck_assert_ptr_null(strstr(out, "Tip:")); /* -v was given */
    ck_assert_ptr_nonnull(strstr(out, "[fail] none-none: 2 failed of 2 trial(s) (exit code 3)"));
    free(out);
    free(err);
}
END_TEST

static void make_python(void)
{
    char *standin = tu_srcdir("tests/run/sweep/python-standin");
    ck_assert_int_eq(mkdir("bin", 0755), 0);
    ck_assert_int_eq(symlink(standin, "bin/python3"), 0);
    free(standin);
}

START_TEST(host_env_reads_rocm_and_asks_the_payloads_python_for_triton_once)
{
    make_python();
    tu_write("rocm/.info/version", "6.3.0-42\n");
    char *path_var = ar_xasprintf("PATH=%s/bin:%s", dir, getenv("PATH"));
    char *rocm_var = ar_xasprintf("ROCM_PATH=%s/rocm", dir);
    char *log_var = ar_xasprintf("STANDIN_LOG=%s/probes", dir);
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta((char *[]){path_var, rocm_var, log_var, "STANDIN_TRITON=3.2.0",
                                         "HIP_VISIBLE_DEVICES=1", NULL},
                              (char *[]){"--output", "out", "--ticket", "P", "--trials", "3", "--",
                                         "python3", "payload.py", NULL},
                              &out, &err),
                     0);
    ar_json_t *env = one_trial("P", "host_env.json");
    ck_assert_str_eq(su_str(env, "rocm", "version", NULL), "6.3.0-42");
    ck_assert_str_eq(su_str(env, "triton", "package_version", NULL), "3.2.0");
    ck_assert_str_eq(su_str(env, "runtime_context", "python_env", NULL), "python3");
    ck_assert_str_eq(su_str(env, "env_vars", "HIP_VISIBLE_DEVICES", NULL), "1");
    ck_assert_str_eq(su_str(env, "env_vars", "ROCM_PATH", NULL), rocm_var + strlen("ROCM_PATH="));
    ck_assert_ptr_null(su_at(env, "env_vars", "ROCR_VISIBLE_DEVICES", NULL));
    ck_assert(!ar_json_get_bool(ar_json_get(env, "partial")));
    ck_assert_uint_eq(ar_json_length(ar_json_get(env, "partial_reasons")), 0);
    ar_json_free(env);
    char *probes = tu_join(dir, "probes");
    ck_assert_uint_eq(lines_in(probes), 1); /* once per run, not per trial */
    char *log = tu_read("out/P/none-none/trial_2/stdout.log");
    ck_assert_str_eq(log, "payload: payload.py\n");
    free(log);
    ar_json_t *matrix = one_trial("P", "matrix.json");
    ck_assert_uint_eq(ar_json_length(ar_json_get(matrix, "warnings")), 0);
    ar_json_free(matrix);
    free(out);
    free(err);

    /* Without Triton, and with a probe that never answers. */
    ck_assert_int_eq(su_aorta((char *[]){path_var, "STANDIN_TRITON", "ROCM_PATH=/nonexistent",
                                         NULL},
                              (char *[]){"--output", "out", "--ticket", "Q", "--", "python3",
                                         "payload.py", NULL},
                              &out, &err),
                     0);
    env = one_trial("Q", "host_env.json");
    ck_assert_ptr_null(su_at(env, "triton", "package_version", NULL));
    ck_assert_ptr_null(su_at(env, "rocm", "version", NULL));
    ck_assert_ptr_nonnull(strstr(su_str(env, "partial_reasons", "1", NULL),
                                 "python3 cannot import triton (exit 1)"));
    ar_json_free(env);
    matrix = one_trial("Q", "matrix.json");
    ck_assert_ptr_nonnull(strstr(su_str(matrix, "warnings", "0", NULL),
                                 "env probe for scope 'host' is partial: rocm:"));
    ar_json_free(matrix);
    free(out);
    free(err);
    double started = now();
    ck_assert_int_eq(su_aorta((char *[]){path_var, "STANDIN_HANG=1", "AORTA_PROBE_TIMEOUT=0.5",
                                         NULL},
                              (char *[]){"--output", "out", "--ticket", "H", "--", "python3",
                                         "payload.py", NULL},
                              &out, &err),
                     0);
    ck_assert(now() - started < 8.0);
    env = one_trial("H", "host_env.json");
    ck_assert_ptr_nonnull(strstr(su_str(env, "partial_reasons", "1", NULL),
                                 "python3 did not answer within 0.5 s"));
    ar_json_free(env);
    free(out);
    free(err);
    free(probes);
    free(log_var);
    free(rocm_var);
    free(path_var);
}
END_TEST

START_TEST(the_triton_probe_runs_beside_the_first_trial)
{
    /* This probe answers only once a trial has started while it runs, and
     * outlives that trial: asked before the sweep (as aorta-run once did),
     * it would time out; reaped as a stray of the trial, it would be lost. */
    make_python();
    char *path_var = ar_xasprintf("PATH=%s/bin:%s", dir, getenv("PATH"));
    char *await_var = ar_xasprintf("STANDIN_PROBE_AWAITS=%s/started", dir);
    char *touch_var = ar_xasprintf("STANDIN_PAYLOAD_TOUCH=%s/started", dir);
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta((char *[]){path_var, await_var, touch_var, "STANDIN_TRITON=3.6.0",
                                         "AORTA_PROBE_TIMEOUT=8", NULL},
                              (char *[]){"--output", "out", "--ticket", "C", "--trials", "2", "--",
                                         "python3", "payload.py", NULL},
                              &out, &err),
                     0);
    ck_assert_msg(!strstr(err, "left 1 process(es) running"), "stderr: %s", err);
    ar_json_t *env = one_trial("C", "host_env.json");
    ck_assert_str_eq(su_str(env, "triton", "package_version", NULL), "3.6.0");
    ar_json_t *reasons = ar_json_get(env, "partial_reasons");
    for (size_t i = 0; i < ar_json_length(reasons); i++)
        ck_assert_msg(strncmp(ar_json_get_string(ar_json_at(reasons, i)), "triton:", 7) != 0,
                      "%s", ar_json_get_string(ar_json_at(reasons, i)));
    ar_json_free(env);
    /* The first trial's record carries the completed snapshot. */
    ar_json_t *trial = one_trial("C", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "env", "triton", "package_version", NULL), "3.6.0");
    ar_json_free(trial);
    free(out);
    free(err);
    free(touch_var);
    free(await_var);
    free(path_var);
}
END_TEST

static Suite *e2e_suite(void)
{
    Suite *suite = suite_create("platform end to end");
    TCase *tc = tcase_create("e2e");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, true_is_recorded_in_every_file_and_field);
    tcase_add_test(tc, warmup_trials_run_first_and_are_left_out_of_everything);
    tcase_add_test(tc, false_and_a_missing_command_are_recorded);
    tcase_add_test(tc, a_rerun_of_another_request_is_refused_and_fresh_starts_over);
    tcase_add_test(tc, a_trial_past_its_timeout_is_terminated_then_killed);
    tcase_add_test(tc, megabytes_of_output_are_captured_whole);
    tcase_add_test(tc, sigint_during_a_trial_records_an_error_and_the_next_run_resumes);
    tcase_add_test(tc, sigterm_during_a_trial_exits_143_with_the_reports_written);
    tcase_add_test(tc, a_locked_run_directory_is_refused_and_a_stale_lock_taken_over);
    tcase_add_test(tc, a_nonzero_rank_runs_the_command_bare_and_writes_nothing);
    tcase_add_test(tc, all_ranks_records_per_rank_and_a_missing_rank_is_an_error);
    tcase_add_test(tc, two_processes_claiming_one_rank_are_reported_once);
    tcase_add_test(tc, the_largest_world_s_wait_stays_bounded);
    tcase_add_test(tc, torchruns_default_run_id_takes_only_this_runs_records);
    tcase_add_test(tc, chosen_ranks_started_per_rank_profile_only_the_listed_ones);
    tcase_add_test(tc, chosen_ranks_warnings_and_refusals);
    tcase_add_test(tc, a_world_past_the_maximum_is_refused);
    tcase_add_test(tc, a_missing_command_starts_no_profiler);
    tcase_add_test(tc, the_command_is_shown_as_it_pastes);
    tcase_add_test(tc, missing_ranks_are_listed_with_ranges);
    tcase_add_test(tc, verbose_progress_goes_to_stderr_line_by_line);
    tcase_add_test(tc, host_env_reads_rocm_and_asks_the_payloads_python_for_triton_once);
    tcase_add_test(tc, the_triton_probe_runs_beside_the_first_trial);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(e2e_suite)
