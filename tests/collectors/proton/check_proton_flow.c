/* SPDX-License-Identifier: MIT */
/* wrap -> run -> parse: the argv the collector builds, executed for real
 * against the stand-ins of tests/collectors/proton/standins (a python3 that parses
 * Proton's CLI like Triton 3.6 and leaves a real-format profile, a pytest
 * console script, a mode: env payload) and the system's env(1), then the
 * artifact directory parsed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protontest.h"

static char *work;      /* scratch directory */
static char *out_dir;   /* <work>/collect/proton, as the core prepares it */
static char *standins;  /* tests/collectors/proton/standins */
static char *path;      /* PATH for the command: the stand-ins, then the system */
static char *log_path;  /* what the stand-ins record */

static void setup(void)
{
    pt_load();
    work = tu_tmpdir();
    out_dir = tu_join(work, "collect/proton");
    char *keep = tu_join(out_dir, ".keep");
    tu_write(keep, "");
    remove(keep);
    free(keep);
    standins = tu_srcdir("tests/collectors/proton/standins");
    path = malloc(strlen(standins) + 32);
    sprintf(path, "%s:/usr/bin:/bin", standins);
    log_path = tu_join(work, "standin.log");
}

static void teardown(void)
{
    tu_rmtree(work);
    free(work);
    free(out_dir);
    free(standins);
    free(path);
    free(log_path);
    pt_unload();
}

/* Wrap command (consumed) with options (consumed) for the environment
 * "PATH=path" plus extra "K=V" settings, run the result with the same
 * environment, and return its exit status. */
static int wrap_and_run(aorta_options_t *options, aorta_argv_t *command, char *const *extra)
{
    aorta_env_t *environ = pt_env("PATH", path, NULL);
    for (size_t i = 0; extra && extra[i]; i++) {
        char *eq = strchr(extra[i], '=');
        char *name = strndup(extra[i], (size_t)(eq - extra[i]));
        aorta_env_set(environ, name, eq + 1);
        free(name);
    }
    aorta_argv_t *out;
    char *error;
    ck_assert_msg(pt_wrap(options, out_dir, command, environ, &out, &error, NULL) == 0,
                  "wrap refused: %s", error);
    char *changes[8];
    size_t n = 0;
    char *path_change = malloc(strlen(path) + 6);
    sprintf(path_change, "PATH=%s", path);
    changes[n++] = path_change;
    char *log_change = malloc(strlen(log_path) + 20);
    sprintf(log_change, "AORTA_STANDIN_LOG=%s", log_path);
    changes[n++] = log_change;
    for (size_t i = 0; extra && extra[i] && n < 7; i++)
        changes[n++] = extra[i];
    changes[n] = NULL;
    char *err = NULL;
    int status = tu_run(aorta_argv_items(out), changes, NULL, &err);
    ck_assert_msg(status == 0, "the wrapped command failed (%d): %s", status, err);
    free(err);
    free(path_change);
    free(log_change);
    aorta_argv_free(out);
    aorta_options_free(options);
    aorta_argv_free(command);
    aorta_env_free(environ);
    return status;
}

/* The parse of out_dir found the stand-ins' copy of the real capture. */
static void expect_the_capture(void)
{
    aorta_metrics_t *metrics = aorta_metrics_new("proton_");
    pt_collector()->parse(NULL, out_dir, metrics);
    const aorta_metric_t *count = aorta_metrics_find(metrics, "proton_kernel_count");
    ck_assert_ptr_nonnull(count);
    ck_assert_int_eq(count->int_value, 12);
    const aorta_metric_t *top = aorta_metrics_find(metrics, "proton_top_kernels");
    ck_assert_ptr_nonnull(top);
    ck_assert_str_eq(top->strings[0], "add_kernel");
    aorta_metrics_free(metrics);
}

static char *standin_log(void)
{
    char *text = tu_read(log_path);
    ck_assert_ptr_nonnull(text);
    return text;
}

START_TEST(a_script_under_mode_cli_leaves_a_profile_the_parse_reads)
{
    char *script = tu_join(work, "vecadd.py");
    tu_write(script, "print('payload')\n");
    wrap_and_run(pt_options("hook", "triton", NULL),
                 pt_argv("python3", "-u", script, "--size", "8", NULL), NULL);
    char *log = standin_log();
    pt_contains(log, "flag: -u");
    pt_contains(log, "proton: name=");
    pt_contains(log, "/collect/proton/proton backend=auto context=shadow data=tree hook=triton");
    pt_contains(log, "run_path: ");
    pt_contains(log, "vecadd.py --size 8");
    free(log);
    free(script);
    expect_the_capture();
}
END_TEST

START_TEST(a_device_pin_reaches_proton_as_rocr)
{
    char *script = tu_join(work, "vecadd.py");
    tu_write(script, "print('payload')\n");
    char *extra[] = {"HIP_VISIBLE_DEVICES=1", NULL};
    wrap_and_run(pt_options(NULL), pt_argv("python3", script, NULL), extra);
    char *log = standin_log();
    pt_contains(log, "env: ROCR_VISIBLE_DEVICES=1");
    ck_assert_ptr_null(strstr(log, "env: HIP_VISIBLE_DEVICES"));
    free(log);
    free(script);
    expect_the_capture();
}
END_TEST

START_TEST(bare_pytest_runs_in_process_under_its_shebang_python)
{
    wrap_and_run(pt_options(NULL), pt_argv("pytest", "-q", "-k", "gemm", NULL), NULL);
    char *log = standin_log();
    pt_contains(log, "pytest.main: -q -k gemm");
    free(log);
    expect_the_capture();
}
END_TEST

START_TEST(a_payload_under_mode_env_reads_the_bundle)
{
    char *payload = tu_join(standins, "env_payload");
    wrap_and_run(pt_options("mode", "env", "backend", "rocprofiler", "hook", "triton", NULL),
                 pt_argv(payload, "--iters", "2", NULL), NULL);
    char *log = standin_log();
    pt_contains(log, "bundle: AORTA_PROTON_BACKEND=rocprofiler");
    pt_contains(log, "bundle: AORTA_PROTON_HOOK=triton");
    pt_contains(log, "/collect/proton/proton\n");
    pt_contains(log, "args: --iters 2");
    free(log);
    free(payload);
    expect_the_capture();
}
END_TEST

START_TEST(mode_env_moves_a_cuda_pin_the_backend_would_refuse)
{
    /* The stand-in refuses CUDA_VISIBLE_DEVICES for roctracer, as Proton's
     * _check_env() does; the translation is what lets it run. */
    char *payload = tu_join(standins, "env_payload");
    char *extra[] = {"CUDA_VISIBLE_DEVICES=0", NULL};
    wrap_and_run(pt_options("mode", "env", "backend", "roctracer", NULL), pt_argv(payload, NULL),
                 extra);
    free(payload);
    expect_the_capture();
}
END_TEST

static Suite *proton_flow_suite(void)
{
    Suite *suite = suite_create("proton_flow");
    TCase *tc = tcase_create("flow");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_script_under_mode_cli_leaves_a_profile_the_parse_reads);
    tcase_add_test(tc, a_device_pin_reaches_proton_as_rocr);
    tcase_add_test(tc, bare_pytest_runs_in_process_under_its_shebang_python);
    tcase_add_test(tc, a_payload_under_mode_env_reads_the_bundle);
    tcase_add_test(tc, mode_env_moves_a_cuda_pin_the_backend_would_refuse);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(proton_flow_suite)
