/* SPDX-License-Identifier: MIT */
/* check_abi_compat.c - collectors built against the ABI 1.0, 1.1, 1.2 and
 * 1.3 headers (tests/abi/legacy10.c ... legacy13.c, compiled with
 * tests/abi/1.0/ ... 1.3/ and not include/) load under the current aorta, their callbacks
 * behave as before, their queue interceptor slots are honoured, and a whole
 * sweep through aorta-run records their metrics.  So does a collector built
 * with the current header for 1.0 (tests/abi/target10.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "registry/registry.h"
#include "sweeptest.h"

static char *aorta_bin, *abi_dir, *plugin_dir, *work;

static void setup(void)
{
    aorta_bin = tu_aorta_run();
    abi_dir = tu_builddir("tests/abi");
    plugin_dir = tu_builddir("tests/fake-collectors");
    work = tu_tmpdir();
}

static void teardown(void)
{
    tu_rmtree(work);
    free(work);
    free(plugin_dir);
    free(abi_dir);
    free(aorta_bin);
}

static int run(char **out, char **err, char *const *args)
{
    char *argv[32] = {aorta_bin, "--plugin-dir", abi_dir, "--plugin-dir", plugin_dir};
    size_t n = 5;
    for (size_t i = 0; args[i]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    return tu_run(argv, NULL, out, err);
}

/* c is described as a collector of ABI 1.minor is, the slots later
 * minors took from the padding empty (they read as absent, not garbage). */
static void expect_abi(const struct aorta_collector *c, uint32_t minor)
{
    ck_assert_uint_eq(c->abi_major, 1);
    ck_assert_uint_eq(c->abi_minor, minor);
    for (size_t i = 0; i < sizeof c->reserved / sizeof c->reserved[0]; i++)
        ck_assert_ptr_null(c->reserved[i]);
    ck_assert_uint_eq(aorta_collector_metric_count(c), 0);
}

/* `--describe NAME` succeeds and says line. */
static void expect_description(const char *name, const char *line)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(run(&out, &err, (char *[]){"--describe", (char *)name, NULL}), 0);
    ck_assert_msg(strstr(out, line) != NULL, "--describe %s: %s", name, out);
    free(out);
    free(err);
}

/* One trial of collector name around `sh -c script`, which must succeed:
 * the trial's JSON (put it). */
static json_object *sweep_trial(const char *name, const char *script)
{
    char *results = tu_join(work, "results");
    char *out = NULL, *err = NULL;
    int status = run(&out, &err,
                     (char *[]){"--collect", (char *)name, "--output", results, "--", "sh", "-c",
                                (char *)script, NULL});
    ck_assert_msg(status == 0, "exit %d; stderr: %s", status, err);
    char *trial = tu_join(results, "_no_ticket_/none-none/_subprocess/trial_d0_m0_t0.json");
    json_object *json = tu_json(trial);
    free(trial);
    free(out);
    free(err);
    free(results);
    return json;
}

START_TEST(a_1_0_collector_loads_with_its_own_abi)
{
    ar_registry_t *registry = tu_registry("tests/abi");
    expect_abi(&tu_plugin(registry, "legacy10")->collector, 0);
    ar_registry_free(registry);
    expect_description("legacy10", "legacy10 1.0 (collector ABI 1.0, wrap rank 40)");
}
END_TEST

START_TEST(its_callbacks_work_through_the_current_sdk)
{
    ar_registry_t *registry = tu_registry("tests/abi");
    const struct aorta_collector *c = &tu_plugin(registry, "legacy10")->collector;
    aorta_options_t *options = aorta_options_new();
    ck_assert_int_eq(tu_validate(c, options, NULL), 0);
    ck_assert_str_eq(aorta_options_get(options, "intercept"), "no");
    ck_assert_str_eq(aorta_options_get(options, "tag"), "t0");

    aorta_argv_t *command = tu_argv("./app", "--flag", NULL);
    aorta_env_t *env = tu_env("PATH", "/usr/bin:/bin", NULL);
    aorta_argv_t *out = aorta_argv_new();
    aorta_error_t *err = aorta_error_new();
    ck_assert_int_eq(c->wrap(options, "/o", command, env, out, err), 0);
    ck_assert_uint_eq(aorta_argv_count(out), 4);
    ck_assert_str_eq(aorta_argv_at(out, 1), "LEGACY10_DIR=/o");
    ck_assert_str_eq(aorta_argv_at(out, 3), "--flag");

    aorta_env_t *bundle = aorta_env_new();
    ck_assert_int_eq(c->env(options, "/o", bundle, err), 0);
    ck_assert_str_eq(aorta_env_get(bundle, "LEGACY10_TAG"), "t0");

    char *artifact = tu_join(work, "a/b.legacy");
    tu_write(artifact, "x");
    aorta_metrics_t *metrics = aorta_metrics_new("legacy10_");
    c->parse(options, work, metrics);
    ck_assert_int_eq(aorta_metrics_find(metrics, "legacy10_files")->int_value, 1);
    ck_assert_str_eq(aorta_metrics_find(metrics, "legacy10_artifact_dir")->string_value, work);

    aorta_metrics_free(metrics);
    free(artifact);
    aorta_env_free(bundle);
    aorta_error_free(err);
    aorta_argv_free(out);
    aorta_env_free(env);
    aorta_argv_free(command);
    aorta_options_free(options);
    ar_registry_free(registry);
}
END_TEST

#define RECIPE_HEAD                                                                        \
    "schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [none]\n"               \
    "diagnostic_axis: [none]\n"

/* A dry run of name (intercept: VALUE) with interceptor_a: its exit
 * status, with stderr in *err (free it). */
static int with_interceptor(const char *name, const char *value, char **err)
{
    char *recipe = tu_join(work, "recipe.yaml");
    char text[512];
    snprintf(text, sizeof text, RECIPE_HEAD "collect:\n  %s: {intercept: \"%s\"}\n  interceptor_a: {}\n",
             name, value);
    tu_write(recipe, text);
    char *out = NULL;
    int status = run(&out, err, (char *[]){"--recipe", recipe, "--dry-run", "--", "true", NULL});
    free(out);
    free(recipe);
    return status;
}

/* name's interceptor refuses interceptor_a with its phrase and remedy, and
 * only when its option says so. */
static void expect_interceptor_honoured(const char *name)
{
    char *err = NULL, phrase[128], remedy[128];
    snprintf(phrase, sizeof phrase, "cannot run together with %s intercept 'yes'", name);
    snprintf(remedy, sizeof remedy, "Set %s's intercept to 'no'.", name);
    ck_assert_int_eq(with_interceptor(name, "yes", &err), 2);
    ck_assert_msg(strstr(err, phrase) != NULL && strstr(err, remedy) != NULL, "stderr: %s", err);
    free(err);
    ck_assert_int_eq(with_interceptor(name, "no", &err), 0);
    free(err);
}

START_TEST(its_old_style_queue_interceptor_is_still_honoured)
{
    /* Its phrase and remedy, from the 1.0 slot's caller-sized buffers. */
    expect_interceptor_honoured("legacy10");
}
END_TEST

START_TEST(a_sweep_records_its_metrics)
{
    json_object *json = sweep_trial("legacy10", ": > \"$LEGACY10_DIR/one.legacy\"");
    json_object *files = tu_at(json, "result", "metrics", "legacy10_files", NULL);
    ck_assert_ptr_nonnull(files);
    ck_assert_int_eq(json_object_get_int64(files), 1);
    ck_assert_str_eq(tu_str(json, "result", "metrics", "legacy10_tag", NULL), "t0");
    json_object_put(json);
}
END_TEST

START_TEST(a_1_1_collector_loads_with_its_own_abi)
{
    ar_registry_t *registry = tu_registry("tests/abi");
    const struct aorta_collector *c = &tu_plugin(registry, "legacy11")->collector;
    expect_abi(c, 1);
    ck_assert_ptr_nonnull(c->queue_interceptor_why);
    /* The slot 1.2 took from the padding reads as absent: no metric table. */
    ck_assert_ptr_null(c->metrics);
    ar_registry_free(registry);
    expect_description("legacy11", "legacy11 1.1 (collector ABI 1.1, wrap rank 41)");
}
END_TEST

START_TEST(its_1_1_callbacks_work_through_the_current_sdk)
{
    ar_registry_t *registry = tu_registry("tests/abi");
    const struct aorta_collector *c = &tu_plugin(registry, "legacy11")->collector;
    aorta_options_t *options = aorta_options_new();
    ck_assert_int_eq(tu_validate(c, options, NULL), 0);
    ck_assert_str_eq(aorta_options_get(options, "intercept"), "no");
    ck_assert_str_eq(aorta_options_get(options, "tag"), "t1");
    aorta_options_t *loud = tu_options("intercept", "maybe", NULL);
    char *message = NULL;
    ck_assert_int_eq(tu_validate(c, loud, &message), -1);
    ck_assert_str_eq(message, "legacy11 option 'intercept': 'maybe' is not one of ['no', 'yes']");
    free(message);
    aorta_options_free(loud);

    char *first = tu_join(work, "b/one.k11"), *second = tu_join(work, "a.k11");
    tu_write(first, "gemm\t3000000\nrelu\t1000000\n");
    tu_write(second, "gemm\t1000000\n");
    aorta_metrics_t *metrics = aorta_metrics_new("legacy11_");
    c->parse(options, work, metrics);
    ck_assert_str_eq(aorta_metrics_find(metrics, "legacy11_artifact_dir")->string_value, work);
    ck_assert_double_eq(aorta_metrics_find(metrics, "legacy11_gpu_time_ms")->double_value, 5.0);
    ck_assert_double_eq(aorta_metrics_find(metrics, "legacy11_top_kernel_ms")->double_value, 4.0);
    ck_assert_int_eq(aorta_metrics_find(metrics, "legacy11_kernel_count")->int_value, 3);
    const aorta_metric_t *tags = aorta_metrics_find(metrics, "legacy11_tags");
    ck_assert_uint_eq(tags->string_count, 2);
    ck_assert_uint_eq(tags->string_lengths[1], 8);
    ck_assert_mem_eq(tags->strings[1], "with\0nul", 8);
    ck_assert_uint_eq(aorta_kernels_count(aorta_metrics_kernels(metrics)), 2);

    aorta_metrics_free(metrics);
    free(second);
    free(first);
    aorta_options_free(options);
    ar_registry_free(registry);
}
END_TEST

START_TEST(its_queue_interceptor_why_is_honoured)
{
    expect_interceptor_honoured("legacy11");
}
END_TEST

START_TEST(a_1_1_sweep_records_its_metrics)
{
    json_object *json = sweep_trial("legacy11", "printf 'k\\t2000000\\n' > \"$LEGACY11_DIR/one.k11\"");
    json_object *gpu = tu_at(json, "result", "metrics", "legacy11_gpu_time_ms", NULL);
    ck_assert_ptr_nonnull(gpu);
    ck_assert_double_eq(json_object_get_double(gpu), 2.0);
    json_object_put(json);
}
END_TEST

START_TEST(a_1_2_collector_loads_with_its_table)
{
    ar_registry_t *registry = tu_registry("tests/abi");
    const struct aorta_collector *c = &tu_plugin(registry, "legacy12")->collector;
    ck_assert_uint_eq(c->abi_major, 1);
    ck_assert_uint_eq(c->abi_minor, 2);
    ck_assert_uint_eq(aorta_collector_metric_count(c), 2);
    const aorta_metric_spec_t *row = aorta_collector_metric_find(c, "legacy12_gpu_time_ms");
    ck_assert_ptr_nonnull(row);
    ck_assert_str_eq(row->unit, "ms");
    ck_assert_int_eq(row->better, AORTA_BETTER_LOWER);
    ar_registry_free(registry);
    expect_description("legacy12", "legacy12 1.2 (collector ABI 1.2, wrap rank 43)");
}
END_TEST

/* Its sweep records its metrics; it records no dispatch (1.3), so its trial
 * has no timeline. */
START_TEST(a_1_2_sweep_records_its_metrics_and_no_timeline)
{
    json_object *json = sweep_trial("legacy12", "printf 'k\\t3000000\\n' > \"$LEGACY12_DIR/one.k12\"");
    json_object *gpu = tu_at(json, "result", "metrics", "legacy12_gpu_time_ms", NULL);
    ck_assert_ptr_nonnull(gpu);
    ck_assert_double_eq(json_object_get_double(gpu), 3.0);
    ck_assert_int_eq(json_object_get_int64(tu_at(json, "result", "metrics", "legacy12_files", NULL)),
                     1);
    json_object_put(json);
    char *timeline = tu_join(work, "results/_no_ticket_/none-none/_subprocess/"
                                   "trial_d0_m0_t0.timeline.json");
    ck_assert_int_ne(access(timeline, F_OK), 0);
    free(timeline);
}
END_TEST

START_TEST(a_1_3_collector_loads_without_the_1_4_slots)
{
    ar_registry_t *registry = tu_registry("tests/abi");
    const struct aorta_collector *c = &tu_plugin(registry, "legacy13")->collector;
    expect_abi(c, 3);
    ck_assert_ptr_nonnull(c->queue_interceptor_why);
    /* What 1.4 took from the padding reads as absent. */
    ck_assert_ptr_null(c->resources);
    ck_assert_ptr_null(c->takes);
    ck_assert_ptr_null(c->profiler_version);
    ar_registry_free(registry);
    expect_description("legacy13", "legacy13 1.3 (collector ABI 1.3, wrap rank 44)");
}
END_TEST

/* 1.4's named resources honour a 1.3 queue_interceptor_why as the
 * "hsa-queue-interceptor" resource, with the same message. */
START_TEST(its_1_3_queue_interceptor_is_the_hsa_resource)
{
    expect_interceptor_honoured("legacy13");
}
END_TEST

/* Its sweep records its metrics and its dispatches' timeline. */
START_TEST(a_1_3_sweep_records_its_metrics_and_timeline)
{
    json_object *json =
        sweep_trial("legacy13", "printf 'k\\t1000\\t4001000\\n' > \"$LEGACY13_DIR/one.k13\"");
    json_object *gpu = tu_at(json, "result", "metrics", "legacy13_gpu_time_ms", NULL);
    ck_assert_ptr_nonnull(gpu);
    ck_assert_double_eq(json_object_get_double(gpu), 4.0);
    json_object_put(json);
    char *timeline = tu_join(work, "results/_no_ticket_/none-none/_subprocess/"
                                   "trial_d0_m0_t0.timeline.json");
    ck_assert_int_eq(access(timeline, F_OK), 0);
    free(timeline);
}
END_TEST

START_TEST(a_collector_built_for_1_0_is_stamped_1_0)
{
    ar_registry_t *registry = tu_registry("tests/abi");
    const struct aorta_collector *c = &tu_plugin(registry, "target10")->collector;
    expect_abi(c, 0);
    ck_assert_ptr_null(c->queue_interceptor_why);
    ar_registry_free(registry);
    expect_description("target10", "target10 1.0 (collector ABI 1.0, wrap rank 42)");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(run(&out, &err, (char *[]){"--check-collector", "target10", NULL}), 0);
    ck_assert_msg(strstr(out, "\ntarget10: 0 violations, ") != NULL, "%s%s", out, err);
    free(out);
    free(err);
}
END_TEST

START_TEST(a_collector_built_for_1_0_runs_in_todays_aorta)
{
    json_object *json = sweep_trial("target10", ": > \"$TARGET10_DIR/one.t10\"");
    json_object *files = tu_at(json, "result", "metrics", "target10_files", NULL);
    ck_assert_ptr_nonnull(files);
    ck_assert_int_eq(json_object_get_int64(files), 1);
    ck_assert_str_eq(tu_str(json, "result", "metrics", "target10_tag", NULL), "t0");
    json_object_put(json);
}
END_TEST

static Suite *abi_compat_suite(void)
{
    Suite *suite = suite_create("abi-compat");
    TCase *tc = tcase_create("legacy10");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_1_0_collector_loads_with_its_own_abi);
    tcase_add_test(tc, its_callbacks_work_through_the_current_sdk);
    tcase_add_test(tc, its_old_style_queue_interceptor_is_still_honoured);
    tcase_add_test(tc, a_sweep_records_its_metrics);
    suite_add_tcase(suite, tc);
    tc = tcase_create("legacy11");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_1_1_collector_loads_with_its_own_abi);
    tcase_add_test(tc, its_1_1_callbacks_work_through_the_current_sdk);
    tcase_add_test(tc, its_queue_interceptor_why_is_honoured);
    tcase_add_test(tc, a_1_1_sweep_records_its_metrics);
    suite_add_tcase(suite, tc);
    tc = tcase_create("legacy12");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_1_2_collector_loads_with_its_table);
    tcase_add_test(tc, a_1_2_sweep_records_its_metrics_and_no_timeline);
    suite_add_tcase(suite, tc);
    tc = tcase_create("legacy13");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_1_3_collector_loads_without_the_1_4_slots);
    tcase_add_test(tc, its_1_3_queue_interceptor_is_the_hsa_resource);
    tcase_add_test(tc, a_1_3_sweep_records_its_metrics_and_timeline);
    suite_add_tcase(suite, tc);
    tc = tcase_create("target10");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_collector_built_for_1_0_is_stamped_1_0);
    tcase_add_test(tc, a_collector_built_for_1_0_runs_in_todays_aorta);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(abi_compat_suite)
