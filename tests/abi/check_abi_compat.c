/* SPDX-License-Identifier: MIT */
/* check_abi_compat.c - a collector built against the ABI 1.0 header
 * (tests/abi/legacy10.c, compiled with tests/abi/1.0/ and not include/)
 * loads under the current aorta, its callbacks behave as under 1.0, its
 * old-style queue_interceptor is still honoured, and a whole sweep through
 * aorta-run records its metrics. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

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

START_TEST(a_1_0_collector_loads_with_its_own_abi)
{
    aorta_registry_t *registry = tu_registry("tests/abi");
    const aorta_module_t *legacy = tu_plugin(registry, "legacy10");
    ck_assert_uint_eq(legacy->collector.abi_major, 1);
    ck_assert_uint_eq(legacy->collector.abi_minor, 0);
    /* The slots 1.1 took from the padding read as absent, not as garbage. */
    for (size_t i = 0; i < sizeof legacy->collector.reserved / sizeof legacy->collector.reserved[0];
         i++)
        ck_assert_ptr_null(legacy->collector.reserved[i]);
    aorta_registry_free(registry);

    char *out = NULL, *err = NULL;
    ck_assert_int_eq(run(&out, &err, (char *[]){"--describe", "legacy10", NULL}), 0);
    ck_assert_ptr_nonnull(strstr(out, "legacy10 1.0 (collector ABI 1.0, wrap rank 40)"));
    free(out);
    free(err);
}
END_TEST

START_TEST(its_callbacks_work_through_the_current_sdk)
{
    aorta_registry_t *registry = tu_registry("tests/abi");
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
    aorta_registry_free(registry);
}
END_TEST

#define RECIPE_HEAD                                                                        \
    "schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [none]\n"               \
    "diagnostic_axis: [none]\n"

START_TEST(its_old_style_queue_interceptor_is_still_honoured)
{
    char *recipe = tu_join(work, "recipe.yaml");
    tu_write(recipe, RECIPE_HEAD "collect:\n  legacy10: {intercept: \"yes\"}\n  interceptor_a: {}\n");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(run(&out, &err, (char *[]){"--recipe", recipe, "--dry-run", "--", "true",
                                                NULL}),
                     2);
    /* Its phrase and remedy, from the 1.0 slot's caller-sized buffers. */
    ck_assert_msg(strstr(err, "cannot run together with legacy10 intercept 'yes'") != NULL,
                  "stderr: %s", err);
    ck_assert_ptr_nonnull(strstr(err, "Set legacy10's intercept to 'no'."));
    free(out);
    free(err);
    tu_write(recipe, RECIPE_HEAD "collect:\n  legacy10: {intercept: \"no\"}\n  interceptor_a: {}\n");
    ck_assert_int_eq(run(&out, &err, (char *[]){"--recipe", recipe, "--dry-run", "--", "true",
                                                NULL}),
                     0);
    free(out);
    free(err);
    free(recipe);
}
END_TEST

START_TEST(a_sweep_records_its_metrics)
{
    char *results = tu_join(work, "results");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(run(&out, &err,
                         (char *[]){"--collect", "legacy10", "--output", results, "--", "sh",
                                    "-c", ": > \"$LEGACY10_DIR/one.legacy\"", NULL}),
                     0);
    char *trial = tu_join(results, "_no_ticket_/none-none/_subprocess/trial_d0_m0_t0.json");
    json_object *json = tu_json(trial);
    json_object *files = tu_at(json, "result", "metrics", "legacy10_files", NULL);
    ck_assert_msg(files != NULL, "no legacy10_files in %s; stderr: %s", trial, err);
    ck_assert_int_eq(json_object_get_int64(files), 1);
    ck_assert_str_eq(tu_str(json, "result", "metrics", "legacy10_tag", NULL), "t0");
    json_object_put(json);
    free(trial);
    free(out);
    free(err);
    free(results);
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
    return suite;
}

AORTA_CHECK_MAIN(abi_compat_suite)
