/* SPDX-License-Identifier: MIT */
/* The built aorta-run with the proton collector: --dry-run shows the
 * wrapped argv (or the refusal as the cell's "error"), --env prints the
 * bundle, --parse the metrics, recipe options are validated at load, and
 * the core's queue-interceptor check refuses proton's intercepting backends
 * next to a rocprof-like collector (tests/fake-collectors/interceptor_a stands in
 * for rocprof, rank 10) and composes the others inside it. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/json.h"
#include "protontest.h"

static char *work;
static char *run;
static char *modules;
static char *test_plugins;
static char *recipe;

static void setup(void)
{
    work = tu_tmpdir();
    run = tu_aorta_run();
    modules = tu_builddir("plugins");
    test_plugins = tu_builddir("tests/fake-collectors");
    recipe = tu_join(work, "recipe.yaml");
}

static void teardown(void)
{
    tu_rmtree(work);
    free(work);
    free(run);
    free(modules);
    free(test_plugins);
    free(recipe);
}

/* A recipe whose collect block is collect_yaml. */
static void write_recipe(const char *collect_yaml)
{
    char *text = malloc(strlen(collect_yaml) + 256);
    sprintf(text, "schema_version: 1\nmode: probe\nticket: PT\ntrials: 1\n"
                  "mitigation_axis: [none]\ndiagnostic_axis: [none]\n%s",
            collect_yaml);
    tu_write(recipe, text);
    free(text);
}

typedef struct result {
    int status;
    char *out;
    char *err;
} result_t;

static void result_free(result_t *result)
{
    free(result->out);
    free(result->err);
}

/* aorta-run with the module dirs and --output in the scratch directory,
 * then the given arguments (NULL-terminated); env_changes as tu_run's. */
static result_t aorta(char *const *env_changes, ...)
{
    char *argv[64];
    size_t n = 0;
    char *output = tu_join(work, "results");
    argv[n++] = run;
    argv[n++] = "--plugin-dir";
    argv[n++] = modules;
    argv[n++] = "--plugin-dir";
    argv[n++] = test_plugins;
    argv[n++] = "--output";
    argv[n++] = output;
    va_list args;
    va_start(args, env_changes);
    for (char *arg = va_arg(args, char *); arg && n < 63; arg = va_arg(args, char *))
        argv[n++] = arg;
    va_end(args);
    argv[n] = NULL;
    result_t result;
    result.status = tu_run(argv, env_changes, &result.out, &result.err);
    free(output);
    return result;
}

/* The one dry-run line of stdout, parsed. */
static ar_json_t *dry_run_line(const result_t *result)
{
    size_t len = strlen(result->out);
    ck_assert_msg(len > 0 && result->out[len - 1] == '\n' && !strchr(result->out, '\n')[1],
                  "not one line: %s", result->out);
    ar_json_t *line = ar_json_parse(result->out, len, 64);
    ck_assert_ptr_nonnull(line);
    return line;
}

/* The line's argv as an argv handle. */
static aorta_argv_t *line_argv(const ar_json_t *line)
{
    ar_json_t *items = ar_json_get(line, "argv");
    ck_assert_ptr_nonnull(items);
    aorta_argv_t *argv = aorta_argv_new();
    for (size_t i = 0; i < ar_json_length(items); i++)
        aorta_argv_push(argv, ar_json_get_string(ar_json_at(items, i)));
    return argv;
}

START_TEST(dry_run_shows_the_wrapped_argv)
{
    result_t r = aorta(NULL, "--collect", "proton", "--dry-run", "--", "python3", "-u", "x.py",
                       "--n", "1", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ar_json_t *line = dry_run_line(&r);
    const char *collect_dir = ar_json_get_string(ar_json_get(line, "collect_dir"));
    char *name = malloc(strlen(collect_dir) + 32);
    sprintf(name, "%s/proton/proton", collect_dir);
    aorta_argv_t *argv = line_argv(line);
    pt_expect_argv(argv, "python3", "-u", "-m", PT_MOD, "-n", name, "--context", "shadow",
                   "--data", "tree", "x.py", "--n", "1", NULL);
    ck_assert_ptr_null(ar_json_get(line, "error"));
    aorta_argv_free(argv);
    free(name);
    ar_json_free(line);
    result_free(&r);
}
END_TEST

START_TEST(dry_run_reports_an_unwrappable_command_as_the_cells_error)
{
    result_t r = aorta(NULL, "--collect", "proton", "--dry-run", "--", "torchrun",
                       "--nproc_per_node=8", "train.py", NULL);
    ck_assert_int_eq(r.status, 1);
    ar_json_t *line = dry_run_line(&r);
    ck_assert_ptr_null(ar_json_get(line, "argv"));
    const char *error = ar_json_get_string(ar_json_get(line, "error"));
    pt_contains(error, "needs a Python script launch, got 'torchrun'");
    pt_contains(error, "mode: env");
    pt_contains(r.err, "aorta-run: --dry-run: cell 'none-none': proton mode 'cli'");
    ar_json_free(line);
    result_free(&r);
    /* The roctracer pin, from the recipe. */
    write_recipe("collect:\n  proton: {backend: roctracer}\n");
    r = aorta(NULL, "--recipe", recipe, "--dry-run", "--", "python3", "x.py", NULL);
    ck_assert_int_eq(r.status, 1);
    line = dry_run_line(&r);
    pt_contains(ar_json_get_string(ar_json_get(line, "error")),
                "proton mode 'cli' cannot pin backend 'roctracer'.");
    ar_json_free(line);
    result_free(&r);
}
END_TEST

START_TEST(dry_run_in_mode_env_puts_the_bundle_and_the_device_pin_in_an_env_prefix)
{
    write_recipe("collect:\n  proton: {mode: env, backend: roctracer, hook: triton}\n");
    char *changes[] = {"HIP_VISIBLE_DEVICES=3", "ROCR_VISIBLE_DEVICES", NULL};
    result_t r = aorta(changes, "--recipe", recipe, "--dry-run", "--", "./payload", "--steps",
                       "2", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ar_json_t *line = dry_run_line(&r);
    const char *collect_dir = ar_json_get_string(ar_json_get(line, "collect_dir"));
    aorta_argv_t *argv = line_argv(line);
    const char *slash = strrchr(aorta_argv_at(argv, 0), '/');
    ck_assert_str_eq(slash ? slash + 1 : aorta_argv_at(argv, 0), "env");
    char *dir = malloc(strlen(collect_dir) + 64);
    char *name = malloc(strlen(collect_dir) + 64);
    sprintf(dir, "AORTA_PROTON_DIR=%s/proton", collect_dir);
    sprintf(name, "AORTA_PROTON_NAME=%s/proton/proton", collect_dir);
    pt_expect_argv(argv, aorta_argv_at(argv, 0), "-u", "HIP_VISIBLE_DEVICES",
                   "AORTA_PROTON_BACKEND=roctracer", "AORTA_PROTON_CONTEXT=shadow",
                   "AORTA_PROTON_DATA=tree", dir, "AORTA_PROTON_HOOK=triton", name,
                   "ROCR_VISIBLE_DEVICES=3", "./payload", "--steps", "2", NULL);
    pt_contains(r.err, "aorta-run: warning: proton: HIP_VISIBLE_DEVICES='3' not honoured by "
                       "Proton's roctracer backend; running with ROCR_VISIBLE_DEVICES='3' "
                       "instead.");
    free(dir);
    free(name);
    aorta_argv_free(argv);
    ar_json_free(line);
    result_free(&r);
}
END_TEST

START_TEST(env_prints_the_bundle_with_the_recipe_options)
{
    result_t r = aorta(NULL, "--env", "proton", "/tmp//o/", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "AORTA_PROTON_CONTEXT=shadow\nAORTA_PROTON_DATA=tree\n"
                            "AORTA_PROTON_DIR=/tmp/o\nAORTA_PROTON_NAME=/tmp/o/proton\n");
    result_free(&r);
    write_recipe("collect:\n  proton:\n    mode: env\n    backend: ' RocProfiler'\n"
                 "    backend_mode: pcsampling\n    context: python\n");
    r = aorta(NULL, "--recipe", recipe, "--env", "proton", "out", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_str_eq(r.out, "AORTA_PROTON_BACKEND=rocprofiler\nAORTA_PROTON_CONTEXT=python\n"
                            "AORTA_PROTON_DATA=tree\nAORTA_PROTON_DIR=out\n"
                            "AORTA_PROTON_MODE=pcsampling\nAORTA_PROTON_NAME=out/proton\n");
    result_free(&r);
}
END_TEST

START_TEST(parse_prints_the_metrics_of_a_capture)
{
    char *fixture = tu_srcdir("examples/no-gpu/triton");
    result_t r = aorta(NULL, "--parse", "proton", fixture, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ar_json_t *metrics = ar_json_parse(r.out, strlen(r.out), 64);
    ck_assert_ptr_nonnull(metrics);
    ck_assert_str_eq(ar_json_get_string(ar_json_get(metrics, "proton_artifact_dir")),
                     fixture);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(metrics, "proton_kernel_count")), 12);
    ck_assert_double_eq_tol(ar_json_get_double(ar_json_get(metrics, "proton_gpu_time_ms")),
                            0.054402, 1e-9);
    ar_json_t *top = ar_json_get(metrics, "proton_top_kernels");
    ck_assert_uint_eq(ar_json_length(top), 5);
    ck_assert_str_eq(ar_json_get_string(ar_json_at(top, 0)), "add_kernel");
    ar_json_free(metrics);
    result_free(&r);
    /* No directory: {} and exit 0. */
    char *missing = tu_join(work, "nope");
    r = aorta(NULL, "--parse", "proton", missing, NULL);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "{}\n");
    result_free(&r);
    free(missing);
    free(fixture);
}
END_TEST

START_TEST(bad_options_are_refused_at_recipe_load)
{
    write_recipe("collect:\n  proton: {backend: rocprof}\n");
    result_t r = aorta(NULL, "--recipe", recipe, "--dry-run", "--", "python3", "x.py", NULL);
    ck_assert_int_eq(r.status, 2);
    pt_contains(r.err, "proton option 'backend': 'rocprof' is not one of ['auto', 'cupti', "
                       "'instrumentation', 'rocprofiler', 'roctracer']");
    ck_assert_str_eq(r.out, "");
    result_free(&r);
    write_recipe("collect:\n  proton: {backends: auto}\n");
    r = aorta(NULL, "--recipe", recipe, "--env", "proton", "out", NULL);
    ck_assert_int_eq(r.status, 2);
    pt_contains(r.err, "proton: unknown option(s) ['backends']");
    result_free(&r);
}
END_TEST

START_TEST(intercepting_backends_are_refused_beside_a_rocprof_like_collector)
{
    /* docs/collectors/proton.mdI cases 173-177, interceptor_a in rocprof's place. */
    result_t r = aorta(NULL, "--collect", "interceptor_a,proton", "--dry-run", "--", "python3",
                       "x.py", NULL);
    ck_assert_int_eq(r.status, 2);
    pt_contains(r.err, "'interceptor_a' and 'proton' cannot run together with proton backend "
                       "'auto' (which resolves to rocprofiler or roctracer on AMD) -- both "
                       "install an HSA queue interceptor");
    pt_contains(r.err, "Use 'proton: {backend: instrumentation}' (intra-kernel measurement, no "
                       "queue interception) to combine them, or run interceptor_a and proton as "
                       "two separate runs (--collect interceptor_a, then --collect proton).");
    result_free(&r);
    const char *backends[] = {"roctracer", "rocprofiler"};
    for (size_t i = 0; i < 2; i++) {
        char collect[128];
        snprintf(collect, sizeof collect, "collect:\n  proton: {backend: %s}\n  interceptor_a:\n",
                 backends[i]);
        write_recipe(collect);
        r = aorta(NULL, "--recipe", recipe, "--dry-run", "--", "python3", "x.py", NULL);
        ck_assert_int_eq(r.status, 2);
        char phrase[64];
        snprintf(phrase, sizeof phrase, "with proton backend '%s' -- ", backends[i]);
        pt_contains(r.err, phrase);
        pt_contains(r.err, "queue interceptor");
        result_free(&r);
    }
}
END_TEST

START_TEST(instrumentation_and_cupti_compose_inside_a_rocprof_like_collector)
{
    /* Cases 176, 178, 181: the rank-10 collector wraps outside proton. */
    const char *backends[] = {"instrumentation", "cupti"};
    for (size_t i = 0; i < 2; i++) {
        char collect[128];
        snprintf(collect, sizeof collect, "collect:\n  proton: {backend: %s}\n  interceptor_a:\n",
                 backends[i]);
        write_recipe(collect);
        result_t r = aorta(NULL, "--recipe", recipe, "--dry-run", "--", "python", "train.py",
                           "--steps", "10", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ar_json_t *line = dry_run_line(&r);
        const char *collect_dir = ar_json_get_string(ar_json_get(line, "collect_dir"));
        char *wrapper = malloc(strlen(collect_dir) + 32);
        char *name = malloc(strlen(collect_dir) + 32);
        sprintf(wrapper, "%s/interceptor_a/a-wrapper", collect_dir);
        sprintf(name, "%s/proton/proton", collect_dir);
        aorta_argv_t *argv = line_argv(line);
        pt_expect_argv(argv, wrapper, "--", "python", "-m", PT_MOD, "-n", name, "-b",
                       backends[i], "--context", "shadow", "--data", "tree", "train.py",
                       "--steps", "10", NULL);
        aorta_argv_free(argv);
        free(wrapper);
        free(name);
        ar_json_free(line);
        result_free(&r);
    }
}
END_TEST

START_TEST(the_example_recipes_load_and_wrap_as_documented)
{
    char *cli = tu_srcdir("examples/profiling/proton/triton-vecadd/recipe.yaml");
    result_t r = aorta(NULL, "--recipe", cli, "--dry-run", "--", "python3", "vecadd.py", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ar_json_t *line = dry_run_line(&r);
    aorta_argv_t *argv = line_argv(line);
    ck_assert_str_eq(aorta_argv_at(argv, 1), "-m");
    ck_assert_str_eq(aorta_argv_at(argv, 2), PT_MOD);
    ck_assert_str_eq(aorta_argv_at(argv, aorta_argv_count(argv) - 1), "vecadd.py");
    aorta_argv_free(argv);
    ar_json_free(line);
    result_free(&r);
    free(cli);
    char *env = tu_srcdir("examples/profiling/proton/env-bundle/recipe.yaml");
    r = aorta(NULL, "--recipe", env, "--dry-run", "--", "python3", "pipeline.py", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    line = dry_run_line(&r);
    argv = line_argv(line);
    ck_assert_int_ge(pt_index(argv, "AORTA_PROTON_CONTEXT=shadow"), 1);
    ck_assert_int_eq(pt_index(argv, PT_MOD), -1);
    ck_assert_str_eq(aorta_argv_at(argv, aorta_argv_count(argv) - 1), "pipeline.py");
    aorta_argv_free(argv);
    ar_json_free(line);
    result_free(&r);
    free(env);
}
END_TEST

static Suite *proton_commands_suite(void)
{
    Suite *suite = suite_create("proton_commands");
    TCase *tc = tcase_create("commands");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, dry_run_shows_the_wrapped_argv);
    tcase_add_test(tc, dry_run_reports_an_unwrappable_command_as_the_cells_error);
    tcase_add_test(tc, dry_run_in_mode_env_puts_the_bundle_and_the_device_pin_in_an_env_prefix);
    tcase_add_test(tc, env_prints_the_bundle_with_the_recipe_options);
    tcase_add_test(tc, parse_prints_the_metrics_of_a_capture);
    tcase_add_test(tc, bad_options_are_refused_at_recipe_load);
    tcase_add_test(tc, intercepting_backends_are_refused_beside_a_rocprof_like_collector);
    tcase_add_test(tc, instrumentation_and_cupti_compose_inside_a_rocprof_like_collector);
    tcase_add_test(tc, the_example_recipes_load_and_wrap_as_documented);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(proton_commands_suite)
