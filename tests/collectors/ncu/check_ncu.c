/* SPDX-License-Identifier: MIT */
/* check_ncu.c - the ncu collector called directly (plugins/ncu.la through
 * the registry): its options, its argv, its reading of the raw page, its
 * profiler version and the resource it takes.  The stand-in ncu
 * (examples/no-gpu/nvidia/ncu) plays the real one. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "registry/registry.h"
#include "sweeptest.h"

static ar_registry_t *registry;
static const struct aorta_collector *ncu;
static char *work;

static void setup(void)
{
    registry = tu_registry("plugins");
    ncu = &tu_plugin(registry, "ncu")->collector;
    work = tu_tmpdir();
}

static void teardown(void)
{
    tu_rmtree(work);
    free(work);
    ar_registry_free(registry);
}

/* The stand-in's directory (free it). */
static char *standin_dir(void)
{
    const char *srcdir = getenv("AORTA_TEST_SRCDIR");
    return tu_join(srcdir ? srcdir : ".", "examples/no-gpu/nvidia");
}

static void validated(aorta_options_t *options)
{
    char *message = NULL;
    ck_assert_msg(tu_validate(ncu, options, &message) == 0, "%s", message);
}

START_TEST(defaults_are_the_time_metric_and_a_report)
{
    aorta_options_t *options = aorta_options_new();
    validated(options);
    ck_assert_str_eq(aorta_options_get(options, "metrics"), "gpu__time_duration.sum");
    ck_assert_str_eq(aorta_options_get(options, "output"), "report");
    ck_assert_uint_eq(aorta_options_count(options), 2);
    aorta_options_free(options);
}
END_TEST

START_TEST(metrics_and_sections_are_normalised)
{
    aorta_options_t *options = tu_options("metrics", "dram__bytes.sum  sm__x.avg,dram__bytes.sum",
                                          "section", "SpeedOfLight, Occupancy", "launch_skip",
                                          "0", "launch_count", "10", "replay_mode", "application",
                                          NULL);
    validated(options);
    /* The time first, then the others once each, comma-separated. */
    ck_assert_str_eq(aorta_options_get(options, "metrics"),
                     "gpu__time_duration.sum,dram__bytes.sum,sm__x.avg");
    ck_assert_str_eq(aorta_options_get(options, "section"), "SpeedOfLight,Occupancy");
    aorta_options_free(options);
}
END_TEST

/* validate() refuses key=value with message. */
static void refused(const char *key, const char *value, const char *message)
{
    aorta_options_t *options = tu_options(key, value, NULL);
    char *got = NULL;
    ck_assert_int_eq(tu_validate(ncu, options, &got), -1);
    ck_assert_str_eq(got, message);
    free(got);
    aorta_options_free(options);
}

START_TEST(bad_options_are_refused_at_load)
{
    refused("metrics", "dram bytes;rm", "ncu option 'metrics': 'bytes;rm' is not a metric name "
                                        "(letters, digits, '_', '.', ':')");
    refused("launch_count", "0", "ncu option 'launch_count': '0' is not a whole number of at "
                                 "least 1");
    refused("launch_skip", "-1", "ncu option 'launch_skip': '-1' is not a whole number of at "
                                 "least 0");
    refused("replay_mode", "kernels", "ncu option 'replay_mode': 'kernels' is not one of "
                                      "['app-range', 'application', 'kernel', 'range']");
    refused("output", "json", "ncu option 'output': 'json' is not one of ['log', 'report']");
    refused("set", "full set", "ncu option 'set': 'full set' is not a set identifier");
    refused("kernel_name", "regex:", "ncu option 'kernel_name': give a kernel's name or "
                                     "regex:EXPRESSION, on one line");
    refused("metric", "x", "ncu: unknown option(s) ['metric']; valid: ['metrics', 'section', "
                           "'set', 'kernel_name', 'launch_skip', 'launch_count', "
                           "'replay_mode', 'output']");
}
END_TEST

/* wrap() of "app arg" with options and PATH: its argv joined by ' '. */
static char *wrapped(aorta_options_t *options, const char *path, char **message)
{
    validated(options);
    aorta_env_t *env = tu_env("PATH", path, NULL);
    aorta_argv_t *command = tu_argv("app", "arg", NULL), *out = aorta_argv_new();
    aorta_error_t *err = aorta_error_new();
    int status = ncu->wrap(options, "/runs/t/ncu", command, env, out, err);
    char *text = NULL;
    if (status == 0) {
        tu_text_t joined = {0};
        for (size_t i = 0; i < aorta_argv_count(out); i++)
            tu_text_add(&joined, "%s%s", i ? " " : "", aorta_argv_at(out, i));
        text = joined.data;
    } else if (message) {
        *message = strdup(aorta_error_message(err));
    }
    aorta_error_free(err);
    aorta_argv_free(out);
    aorta_argv_free(command);
    aorta_env_free(env);
    aorta_options_free(options);
    return text;
}

START_TEST(wrap_runs_the_command_under_ncu_for_every_process)
{
    char *dir = standin_dir();
    char *text = wrapped(aorta_options_new(), dir, NULL);
    char expected[4096];
    snprintf(expected, sizeof expected,
             "%s/ncu --target-processes all --clock-control none --metrics "
             "gpu__time_duration.sum --export /runs/t/ncu/ncu --force-overwrite -- app arg",
             dir);
    ck_assert_str_eq(text, expected);
    free(text);
    text = wrapped(tu_options("output", "log", "metrics", "dram__bytes.sum", "section",
                              "SpeedOfLight Occupancy", "set", "basic", "kernel_name",
                              "regex:gemm", "launch_skip", "2", "launch_count", "5",
                              "replay_mode", "application", NULL),
                   dir, NULL);
    snprintf(expected, sizeof expected,
             "%s/ncu --target-processes all --clock-control none --metrics "
             "gpu__time_duration.sum,dram__bytes.sum --section SpeedOfLight --section Occupancy "
             "--set basic --kernel-name regex:gemm --launch-skip 2 --launch-count 5 "
             "--replay-mode application --csv --page raw --log-file /runs/t/ncu/ncu.csv -- app "
             "arg",
             dir);
    ck_assert_str_eq(text, expected);
    free(text);
    free(dir);
}
END_TEST

START_TEST(wrap_refuses_when_ncu_is_not_on_path)
{
    char *message = NULL;
    ck_assert_ptr_null(wrapped(aorta_options_new(), "/nonexistent", &message));
    ck_assert_str_eq(message, "ncu is not on the command's PATH: install NVIDIA Nsight Compute "
                              "(it comes with the CUDA toolkit) or put its directory on PATH, "
                              "in aorta-run's environment or the cell's variables");
    free(message);
}
END_TEST

/* parse() of dir, with env attached as aorta-run attaches the trial's. */
static aorta_metrics_t *parsed(const char *dir, const aorta_env_t *env)
{
    aorta_metrics_t *metrics = aorta_metrics_new("ncu_");
    if (env)
        aorta_metrics_set_env(metrics, env);
    aorta_options_t *options = aorta_options_new();
    validated(options);
    ncu->parse(options, dir, metrics);
    aorta_options_free(options);
    return metrics;
}

static const aorta_metric_t *metric(const aorta_metrics_t *metrics, const char *key)
{
    const aorta_metric_t *m = aorta_metrics_find(metrics, key);
    ck_assert_msg(m != NULL, "no %s", key);
    return m;
}

#define GEMM "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_" \
             "execute_segment_k_off_kernel__5x_cublas"

/* The fixture's raw page as ncu.csv (output: log). */
START_TEST(the_raw_page_gives_the_five_the_table_and_every_metric)
{
    char *fixture = tu_join(getenv("AORTA_TEST_SRCDIR"), "tests/collectors/ncu/fixtures/raw_page/ncu.csv");
    char *text = tu_read(fixture);
    char *log = tu_join(work, "ncu.csv");
    tu_write(log, text);
    aorta_metrics_t *metrics = parsed(work, NULL);
    ck_assert_str_eq(metric(metrics, "ncu_artifact_dir")->string_value, work);
    /* usecond, grouped: 2.5 + 1234.5 + 0.5 + 1000 us; the n/a time is no launch. */
    ck_assert_double_eq_tol(metric(metrics, "ncu_gpu_time_ms")->double_value, 2.2375, 1e-12);
    ck_assert_double_eq_tol(metric(metrics, "ncu_top_kernel_ms")->double_value, 2.2345, 1e-12);
    ck_assert_int_eq(metric(metrics, "ncu_kernel_count")->int_value, 4);
    ck_assert_int_eq(metric(metrics, "ncu_profiled_launches")->int_value, 5);
    const aorta_metric_t *top = metric(metrics, "ncu_top_kernels");
    ck_assert_uint_eq(top->string_count, 3);
    ck_assert_str_eq(top->strings[0], GEMM);
    ck_assert_str_eq(top->strings[2], "kernel with \"quotes\", and commas");
    /* Every other metric: its total over the launches, and its unit. */
    ck_assert_double_eq(metric(metrics, "ncu_dram__bytes.sum")->double_value,
                        4194304.0 + 2 * 25165824.0 + 128);
    ck_assert_double_eq(metric(metrics, "ncu_launch__registers_per_thread")->double_value,
                        16 + 2 * 168);
    const aorta_metric_t *units = metric(metrics, "ncu_metric_units");
    ck_assert_uint_eq(units->string_count, 2);
    ck_assert_str_eq(units->strings[0], "dram__bytes.sum=byte");
    ck_assert_str_eq(units->strings[1], "launch__registers_per_thread=register/thread");
    /* The whole kernel table, in ms. */
    const aorta_kernels_t *table = aorta_metrics_kernels(metrics);
    ck_assert_uint_eq(aorta_kernels_count(table), 3);
    ck_assert_int_eq(aorta_kernels_launches_at(table, 1), 2);
    ck_assert_double_eq_tol(aorta_kernels_time_at(table, 1), 2.2345, 1e-12);
    aorta_metrics_free(metrics);
    free(log);
    free(text);
    free(fixture);
}
END_TEST

START_TEST(nanoseconds_a_page_without_units_and_nothing_at_all)
{
    char *log = tu_join(work, "ncu.csv");
    tu_write(log, "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
                  "\"\",\"\",\"nsecond\"\n\"0\",\"k\",\"1,500\"\n");
    aorta_metrics_t *metrics = parsed(work, NULL);
    ck_assert_double_eq_tol(metric(metrics, "ncu_gpu_time_ms")->double_value, 0.0015, 1e-15);
    aorta_metrics_free(metrics);
    /* No units row: ncu's base unit, ns. */
    tu_write(log, "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"2000\"\n");
    metrics = parsed(work, NULL);
    ck_assert_double_eq_tol(metric(metrics, "ncu_gpu_time_ms")->double_value, 0.002, 1e-15);
    aorta_metrics_free(metrics);
    /* Not a page: only the directory. */
    tu_write(log, "==WARNING== No kernels were profiled.\n");
    metrics = parsed(work, NULL);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 1);
    ck_assert_str_eq(metric(metrics, "ncu_artifact_dir")->string_value, work);
    aorta_metrics_free(metrics);
    /* A missing directory: nothing. */
    char *missing = tu_join(work, "missing");
    metrics = parsed(missing, NULL);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    aorta_metrics_free(metrics);
    free(missing);
    free(log);
}
END_TEST

/* A report is read through `ncu --import`, found on the trial's PATH. */
START_TEST(a_report_is_exported_with_the_trials_environment)
{
    char *dir = standin_dir();
    char *ncu_path = tu_join(dir, "ncu"), *out = tu_join(work, "ncu");
    char *argv[] = {ncu_path, "--target-processes", "all", "--metrics",
                    "gpu__time_duration.sum", "--export", out, "--", "true", NULL};
    char *changes[] = {"AORTA_FAKE_KERNELS=4:3000:k", NULL};
    ck_assert_int_eq(tu_run(argv, changes, NULL, NULL), 0);
    /* The stand-in is Python: /usr/bin for its interpreter. */
    char *path = tu_fmt("%s:/usr/bin:/bin", dir);
    aorta_env_t *env = tu_env("PATH", path, NULL);
    free(path);
    aorta_metrics_t *metrics = parsed(work, env);
    ck_assert_double_eq_tol(metric(metrics, "ncu_gpu_time_ms")->double_value, 0.012, 1e-15);
    ck_assert_int_eq(metric(metrics, "ncu_kernel_count")->int_value, 4);
    aorta_metrics_free(metrics);
    /* Without ncu on the trial's PATH: only the directory. */
    aorta_env_set(env, "PATH", "/nonexistent");
    metrics = parsed(work, env);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 1);
    aorta_metrics_free(metrics);
    aorta_env_free(env);
    free(out);
    free(ncu_path);
    free(dir);
}
END_TEST

START_TEST(the_profiler_version_is_ncus_version_line)
{
    char *dir = standin_dir();
    char *path = tu_fmt("%s:/usr/bin:/bin", dir);
    aorta_env_t *env = tu_env("PATH", path, NULL);
    free(path);
    aorta_error_t *version = aorta_error_new();
    aorta_options_t *options = aorta_options_new();
    ck_assert_int_eq(ncu->profiler_version(options, env, version), 0);
    ck_assert_str_eq(aorta_error_message(version), "2025.1.1.0 (build 35528883) (public-release)");
    aorta_error_clear(version);
    aorta_env_set(env, "PATH", "/nonexistent");
    ck_assert_int_eq(ncu->profiler_version(options, env, version), -1);
    ck_assert_ptr_null(aorta_error_message(version));
    aorta_options_free(options);
    aorta_error_free(version);
    aorta_env_free(env);
    free(dir);
}
END_TEST

START_TEST(ncu_takes_the_cupti_subscriber_always)
{
    ck_assert_ptr_nonnull(ncu->resources);
    ck_assert_str_eq(ncu->resources[0], "cupti-subscriber");
    ck_assert_ptr_null(ncu->resources[1]);
    ck_assert_ptr_null(ncu->takes); /* whatever the options */
    ck_assert_uint_eq(ncu->abi_minor, 4);
}
END_TEST

static Suite *ncu_suite(void)
{
    Suite *suite = suite_create("ncu");
    TCase *tc = tcase_create("ncu");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, defaults_are_the_time_metric_and_a_report);
    tcase_add_test(tc, metrics_and_sections_are_normalised);
    tcase_add_test(tc, bad_options_are_refused_at_load);
    tcase_add_test(tc, wrap_runs_the_command_under_ncu_for_every_process);
    tcase_add_test(tc, wrap_refuses_when_ncu_is_not_on_path);
    tcase_add_test(tc, the_raw_page_gives_the_five_the_table_and_every_metric);
    tcase_add_test(tc, nanoseconds_a_page_without_units_and_nothing_at_all);
    tcase_add_test(tc, a_report_is_exported_with_the_trials_environment);
    tcase_add_test(tc, the_profiler_version_is_ncus_version_line);
    tcase_add_test(tc, ncu_takes_the_cupti_subscriber_always);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(ncu_suite)
