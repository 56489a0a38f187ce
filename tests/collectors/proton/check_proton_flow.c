/* SPDX-License-Identifier: MIT */
/* wrap -> run -> parse: the argv the collector builds, executed for real
 * against the stand-ins of examples/no-gpu/triton (a python3 that parses
 * Proton's CLI like Triton 3.6 and leaves a real-format profile, a pytest
 * console script) and tests/collectors/proton/standins (a mode: env payload) and the system's env(1), then the
 * artifact directory parsed. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protontest.h"

static char *work;      /* scratch directory */
static char *out_dir;   /* <work>/collect/proton, as the core prepares it */
static char *standins;  /* tests/collectors/proton/standins (env_payload) */
static char *triton;    /* examples/no-gpu/triton (python3, pytest) */
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
    triton = tu_srcdir("examples/no-gpu/triton");
    path = malloc(strlen(triton) + 32);
    sprintf(path, "%s:/usr/bin:/bin", triton);
    log_path = tu_join(work, "standin.log");
}

static void teardown(void)
{
    tu_rmtree(work);
    free(work);
    free(out_dir);
    free(standins);
    free(triton);
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

/* The parse of out_dir: proton_kernel_count, proton_gpu_time_ms, and the
 * first top kernel's name into *top (free it). */
static void parse_profile(int64_t *count, double *gpu_ms, char **top)
{
    aorta_metrics_t *metrics = aorta_metrics_new("proton_");
    pt_collector()->parse(NULL, out_dir, metrics);
    const aorta_metric_t *c = aorta_metrics_find(metrics, "proton_kernel_count");
    const aorta_metric_t *g = aorta_metrics_find(metrics, "proton_gpu_time_ms");
    const aorta_metric_t *t = aorta_metrics_find(metrics, "proton_top_kernels");
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_nonnull(g);
    ck_assert_ptr_nonnull(t);
    *count = c->int_value;
    *gpu_ms = g->double_value;
    *top = strdup(t->strings[0]);
    aorta_metrics_free(metrics);
}

START_TEST(the_profile_holds_the_kernels_aorta_fake_kernels_names)
{
    /* examples/no-gpu/triton/python3: a tree of the kernel lines, names
     * kept whole (a quote and a backslash), exact without ~PCT */
    char *script = tu_join(work, "vecadd.py");
    tu_write(script, "print('payload')\n");
    char *exact[] = {"AORTA_FAKE_KERNELS=6:2920:add_kernel\n2:100:void k<\"a\\b\">(int)", NULL};
    wrap_and_run(pt_options(NULL), pt_argv("python3", script, NULL), exact);
    int64_t count;
    double gpu;
    char *top;
    parse_profile(&count, &gpu, &top);
    ck_assert_int_eq(count, 8);
    ck_assert_msg(fabs(gpu - 0.01772) < 1e-12, "%.17g", gpu);
    ck_assert_str_eq(top, "add_kernel");
    free(top);
    /* ~PCT: seeded noise, the same for the same profile name and seed */
    char *noisy[] = {"AORTA_FAKE_KERNELS=20:1000~5:add_kernel", NULL};
    double first, again, seeded;
    wrap_and_run(pt_options(NULL), pt_argv("python3", script, NULL), noisy);
    parse_profile(&count, &first, &top);
    free(top);
    wrap_and_run(pt_options(NULL), pt_argv("python3", script, NULL), noisy);
    parse_profile(&count, &again, &top);
    free(top);
    char *reseeded[] = {"AORTA_FAKE_KERNELS=20:1000~5:add_kernel", "AORTA_FAKE_SEED=7", NULL};
    wrap_and_run(pt_options(NULL), pt_argv("python3", script, NULL), reseeded);
    parse_profile(&count, &seeded, &top);
    free(top);
    ck_assert_int_eq(count, 20);
    ck_assert(first == again);
    ck_assert(first != seeded);
    ck_assert(first != 0.02);
    /* within the factor's and the jitter's three spreads */
    ck_assert_msg(first > 0.02 * 0.925 * 0.85 && first < 0.02 * 1.075 * 1.15, "%g", first);
    free(script);
}
END_TEST

START_TEST(the_python_stand_in_says_what_it_is)
{
    char *python = tu_join(triton, "python3");
    char *argv[] = {python, "--help", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(tu_run(argv, NULL, &out, &err), 0);
    pt_contains(out, "A stand-in for python3 with Triton's Proton");
    pt_contains(out, "AORTA_FAKE_KERNELS");
    free(out);
    free(err);
    /* a kernel line it cannot read: exit 1, the line named, no profile */
    char *script = tu_join(work, "s.py");
    tu_write(script, "");
    char *name = tu_join(out_dir, "proton");
    char *run[] = {python, "-m", "triton.profiler.proton", "-n", name, script, NULL};
    char *env[] = {"AORTA_FAKE_KERNELS=6:fast:add_kernel", NULL};
    ck_assert_int_eq(tu_run(run, env, &out, &err), 1);
    pt_contains(err, "AORTA_FAKE_KERNELS line 1: \"6:fast:add_kernel\" is not CALLS:NS[~PCT]:NAME");
    char *profile = tu_join(out_dir, "proton.hatchet");
    ck_assert(!tu_exists(profile));
    free(profile);
    free(out);
    free(err);
    free(name);
    free(script);
    free(python);
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
    tcase_add_test(tc, the_profile_holds_the_kernels_aorta_fake_kernels_names);
    tcase_add_test(tc, the_python_stand_in_says_what_it_is);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(proton_flow_suite)
