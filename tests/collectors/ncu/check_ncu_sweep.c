/* SPDX-License-Identifier: MIT */
/* check_ncu_sweep.c - aorta-run with the ncu collector, for real, the
 * stand-in ncu (examples/no-gpu/nvidia/ncu) playing Nsight Compute: an
 * ncu found only through a cell's PATH profiles the trial and is found
 * again at parse; the run's provenance records ncu's own version line; ncu
 * with Proton's CUPTI backends in one run is refused at load; the stand-in
 * refuses what the real tool refuses. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweeptest.h"

static char *work, *standin;

static void setup(void)
{
    work = tu_tmpdir();
    const char *srcdir = getenv("AORTA_TEST_SRCDIR");
    standin = tu_fmt("%s/examples/no-gpu/nvidia", srcdir ? srcdir : ".");
}

static void teardown(void)
{
    tu_rmtree(work);
    free(work);
    free(standin);
}

/* A recipe of one cell, "nvidia", whose variables are vars (YAML flow
 * mapping), collecting ncu with options (a YAML flow mapping); its path. */
static char *recipe(const char *vars, const char *options)
{
    char *path = tu_fmt("%s/recipe.yaml", work);
    char *text = tu_fmt("schema_version: 1\nmode: probe\ntrials: 1\n"
                        "mitigation_axis: [nvidia]\ndiagnostic_axis: [none]\n"
                        "mitigations:\n  nvidia: %s\ncollect:\n  ncu: %s\n",
                        vars, options);
    tu_write(path, text);
    free(text);
    return path;
}

/* aorta-run's own PATH never holds the stand-in. */
#define PLAIN_PATH "PATH=/usr/bin:/bin"

START_TEST(an_ncu_on_the_cells_path_alone_profiles_and_parses)
{
    char *vars = tu_fmt("{PATH: \"%s:/usr/bin:/bin\"}", standin);
    char *file = recipe(vars, "{metrics: \"dram__bytes.sum\"}");
    char *out = tu_fmt("%s/results", work);
    char *env[] = {PLAIN_PATH, "AORTA_FAKE_KERNELS=3:2000:void k<int, 2>(\"a, b\")", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", file, "--output", out, "--", "sh", "-c", "true",
                             NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *trial = tu_fmt("%s/_no_ticket_/nvidia-none/_subprocess/trial_d0_m0_t0.json", out);
    json_object *json = tu_json(trial);
    json_object *metrics = tu_at(json, "result", "metrics", NULL);
    /* The report was read back through `ncu --import` found on the cell's
     * PATH: three launches of 2 us, and the other metric's total. */
    ck_assert_double_eq_tol(json_object_get_double(tu_at(metrics, "ncu_gpu_time_ms", NULL)),
                            0.006, 1e-12);
    ck_assert_int_eq(json_object_get_int64(tu_at(metrics, "ncu_kernel_count", NULL)), 3);
    ck_assert_double_eq(json_object_get_double(tu_at(metrics, "ncu_dram__bytes.sum", NULL)),
                        60000);
    ck_assert_str_eq(tu_str(metrics, "ncu_top_kernels", "0", NULL), "void k<int, 2>(\"a, b\")");
    json_object_put(json);
    /* The provenance's profiler version is ncu's own line, not the first
     * line of `ncu --version` (which names the product). */
    char *matrix_path = tu_fmt("%s/_no_ticket_/matrix.json", out);
    json_object *matrix = tu_json(matrix_path);
    ck_assert_str_eq(tu_str(matrix, "provenance", "profiler", "version", NULL),
                     "2025.1.1.0 (build 35528883) (public-release)");
    ck_assert_ptr_nonnull(strstr(tu_str(matrix, "provenance", "profiler", "program", NULL),
                                 "nvidia/ncu"));
    json_object_put(matrix);
    tu_result_free(&r);
    free(matrix_path);
    free(trial);
    free(out);
    free(file);
    free(vars);
}
END_TEST

START_TEST(the_raw_page_by_log_file_and_a_warning_for_nccl)
{
    char *vars = tu_fmt("{PATH: \"%s:/usr/bin:/bin\", NCCL_DEBUG: \"INFO\"}", standin);
    char *file = recipe(vars, "{output: \"log\", kernel_name: \"regex:gemm\", launch_skip: \"1\"}");
    char *out = tu_fmt("%s/results", work);
    char *env[] = {PLAIN_PATH, "AORTA_FAKE_KERNELS=1:5000:gemm_a\n4:200000:gemm_b\n2:7:fill",
                   NULL};
    tu_result_t r = tu_aorta(env, "--recipe", file, "--output", out, "--", "sh", "-c", "true",
                             NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.err, "the payload looks like it uses NCCL (NCCL_DEBUG)") != NULL, "%s",
                  r.err);
    char *trial = tu_fmt("%s/_no_ticket_/nvidia-none/_subprocess/trial_d0_m0_t0.json", out);
    json_object *json = tu_json(trial);
    json_object *metrics = tu_at(json, "result", "metrics", NULL);
    /* gemm_a skipped, four gemm_b of 200 us (in usecond), no fill. */
    ck_assert_double_eq_tol(json_object_get_double(tu_at(metrics, "ncu_gpu_time_ms", NULL)),
                            0.8, 1e-12);
    ck_assert_int_eq(json_object_get_int64(tu_at(metrics, "ncu_kernel_count", NULL)), 4);
    json_object_put(json);
    char *log = tu_fmt("%s/_no_ticket_/nvidia-none/_subprocess/trial_d0_m0_t0/ncu/ncu.csv", out);
    ck_assert(tu_exists(log));
    tu_result_free(&r);
    free(log);
    free(trial);
    free(out);
    free(file);
    free(vars);
}
END_TEST

/* A dry run of --collect ncu,proton with proton's backend (NULL: its
 * default): its exit status, stderr in *err. */
static int with_proton(const char *backend, char **err)
{
    char *text = backend ? tu_fmt("proton.backend=%s", backend) : NULL;
    char *args[16] = {"--collect", "ncu,proton", "--dry-run"};
    size_t n = 3;
    if (text) {
        args[n++] = "--option";
        args[n++] = text;
    }
    args[n++] = "--";
    args[n++] = "python3";
    args[n++] = "x.py";
    args[n] = NULL;
    tu_result_t r = tu_aorta_v((char *[]){PLAIN_PATH, NULL}, args);
    *err = r.err;
    r.err = NULL;
    int status = r.status;
    tu_result_free(&r);
    free(text);
    return status;
}

START_TEST(ncu_with_protons_cupti_backends_is_refused_at_load)
{
    char *err = NULL;
    ck_assert_int_eq(with_proton(NULL, &err), 2);
    ck_assert_msg(strstr(err, "'ncu' and 'proton' cannot run together with proton backend "
                              "'auto' (which resolves to cupti on NVIDIA) -- both subscribe to "
                              "CUPTI, which takes one subscriber per process, and the second one "
                              "to attach will fail or report nothing. Use 'proton: {backend: "
                              "instrumentation}' (intra-kernel measurement, no CUPTI "
                              "subscriber) to combine them, or run ncu and proton as two "
                              "separate runs (--collect ncu, then --collect proton).")
                      != NULL,
                  "%s", err);
    free(err);
    ck_assert_int_eq(with_proton("cupti", &err), 2);
    ck_assert_msg(strstr(err, "with proton backend 'cupti' -- both subscribe to CUPTI") != NULL,
                  "%s", err);
    free(err);
    /* Instrumentation takes no subscriber: no refusal for the pair (the
     * dry run still says 1: ncu is not on aorta-run's PATH). */
    ck_assert_int_ne(with_proton("instrumentation", &err), 2);
    ck_assert_ptr_null(strstr(err, "cannot run together"));
    free(err);
}
END_TEST

/* The stand-in's own command line: "ncu ARGS" run with aorta-run's
 * environment; its exit status, stderr in *err. */
static int standin_run(char **err, char *const *args)
{
    char *argv[16];
    argv[0] = tu_fmt("%s/ncu", standin);
    size_t n = 1;
    for (; args[n - 1]; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    int status = tu_run(argv, NULL, NULL, err);
    free(argv[0]);
    return status;
}

START_TEST(the_standin_refuses_what_ncu_refuses)
{
    char *err = NULL;
    ck_assert_int_eq(standin_run(&err, (char *[]){"--clock-control", "off", "true", NULL}), 1);
    ck_assert_str_eq(err, "==ERROR== Invalid value 'off' for option --clock-control.\n");
    free(err);
    ck_assert_int_eq(standin_run(&err, (char *[]){"--metric", "x", "true", NULL}), 1);
    ck_assert_str_eq(err, "==ERROR== unrecognised option '--metric'. Use --help for further "
                          "details.\n");
    free(err);
    ck_assert_int_eq(standin_run(&err, (char *[]){"--set", "everything", "true", NULL}), 1);
    ck_assert_str_eq(err, "==ERROR== Could not find section set 'everything'.\n");
    free(err);
    ck_assert_int_eq(standin_run(&err, (char *[]){"--target-processes", "all", NULL}), 1);
    ck_assert_str_eq(err, "==ERROR== No application specified.\n");
    free(err);
}
END_TEST

START_TEST(describe_says_the_resource_and_the_version)
{
    tu_result_t r = tu_aorta(NULL, "--describe", "ncu", NULL);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "ncu " PACKAGE_VERSION " (collector ABI 1.4, wrap rank 15)\n") != NULL, "%s",
                  r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "\nexclusive resources (two collectors of a run that "
                                        "take one are refused):\n  cupti-subscriber: always\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "\nprofiler version: the collector's own word"));
    ck_assert_ptr_nonnull(strstr(r.out, "  ncu_gpu_time_ms (ms): lower is better\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "  replay_mode\n"));
    tu_result_free(&r);
    r = tu_aorta(NULL, "--describe", "proton", NULL);
    ck_assert_ptr_nonnull(strstr(r.out, "  hsa-queue-interceptor: with some options\n"
                                        "  cupti-subscriber: with some options\n"));
    tu_result_free(&r);
}
END_TEST

static Suite *ncu_sweep_suite(void)
{
    Suite *suite = suite_create("ncu_sweep");
    TCase *tc = tcase_create("sweep");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, an_ncu_on_the_cells_path_alone_profiles_and_parses);
    tcase_add_test(tc, the_raw_page_by_log_file_and_a_warning_for_nccl);
    tcase_add_test(tc, ncu_with_protons_cupti_backends_is_refused_at_load);
    tcase_add_test(tc, the_standin_refuses_what_ncu_refuses);
    tcase_add_test(tc, describe_says_the_resource_and_the_version);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(ncu_sweep_suite)
