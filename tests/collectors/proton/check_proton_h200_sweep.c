/* SPDX-License-Identifier: MIT */
/* The trial records of a real two-cell Proton sweep on an NVIDIA H200
 * (fixtures/h200_tf32_sweep; FIXTURES.md says how it was taken): cuBLAS's
 * FP32 SGEMM in the baseline cell, TF32 allowed in the other
 * (TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1).  `aorta-run --report` rebuilds the
 * per-cell kernel tables, perf.md's kernel section and report.html from the
 * records alone, and they show the GEMM kernel the mitigation swapped in.
 * And a real two-rank torchrun capture, merged; and the verdicts of real
 * runs (fixtures/h200_verdicts): two runs of one payload are unchanged,
 * the payload with 10% more launches regressed, in the kernel it launches
 * more.  And the rank view of the two-rank capture run through a sweep. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweeptest.h"

#define TF32_GEMM "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x256x32_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas"
#define SGEMM "_ZN7cutlass7Kernel2I43cutlass_80_simt_sgemm_256x128_8x4_nn_align1EEvNT_6ParamsE"

static double number(json_object *obj)
{
    ck_assert_ptr_nonnull(obj);
    return json_object_get_double(obj);
}

START_TEST(the_report_of_a_real_h200_sweep_shows_the_swapped_gemm)
{
    char *work = tu_tmpdir();
    char *run = tu_join(work, "run");
    char *fixture = tu_srcdir("tests/collectors/proton/fixtures/h200_tf32_sweep");
    char *copy[] = {"cp", "-R", fixture, run, NULL};
    ck_assert_int_eq(tu_run(copy, NULL, NULL, NULL), 0);
    char *chmod[] = {"chmod", "-R", "u+w", run, NULL};
    ck_assert_int_eq(tu_run(chmod, NULL, NULL, NULL), 0);

    char *binary = tu_aorta_run();
    char *report[] = {binary, "--report", run, NULL};
    char *out = NULL, *err = NULL;
    ck_assert_msg(tu_run(report, NULL, &out, &err) == 0, "--report: %s", err);

    char *path = tu_join(run, "none-none/kernels.json");
    json_object *base = tu_json(path);
    ck_assert_int_eq(json_object_get_int(tu_at(base, "passing_trials", NULL)), 3);
    ck_assert(fabs(number(tu_at(base, "collectors", "proton", "kernels", SGEMM, "mean_ms", NULL))
                   - 3.406) < 0.001);
    ck_assert_ptr_null(tu_at(base, "collectors", "proton", "kernels", TF32_GEMM, NULL));
    json_object_put(base);
    free(path);

    path = tu_join(run, "tf32-none/kernels.json");
    json_object *tf32 = tu_json(path);
    ck_assert(fabs(number(tu_at(tf32, "collectors", "proton", "kernels", TF32_GEMM, "mean_ms",
                                NULL))
                   - 0.4765) < 0.001);
    ck_assert_int_eq(json_object_get_int(tu_at(tf32, "collectors", "proton", "kernels", TF32_GEMM,
                                               "trials", NULL)),
                     3);
    ck_assert(number(tu_at(tf32, "collectors", "proton", "gpu_time_ms", "mean", NULL)) < 0.6);
    json_object_put(tf32);
    free(path);

    /* perf.md: demangled beside raw, the new kernel flagged against the baseline. */
    path = tu_join(run, "perf.md");
    char *perf = tu_read(path);
    ck_assert_ptr_nonnull(strstr(perf, "## GPU kernels"));
    ck_assert_ptr_nonnull(strstr(perf, "cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>"));
    ck_assert_ptr_nonnull(strstr(perf, "(raw `" SGEMM "`)"));
    ck_assert_ptr_nonnull(strstr(perf, "| new "));
    free(perf);
    free(path);
    path = tu_join(run, "report.html");
    char *html = tu_read(path);
    ck_assert_ptr_nonnull(strstr(html, "tf32-none"));
    ck_assert_ptr_nonnull(strstr(html, "sm90_xmma_gemm_f32f32_tf32f32"));
    free(html);
    free(path);

    free(out);
    free(err);
    free(binary);
    free(fixture);
    tu_rmtree(work);
    free(run);
    free(work);
}
END_TEST

/* Two ranks under torchrun sharing the H200, Proton mode env
 * (fixtures/h200_torchrun_env): one hatchet per rank; the merged metrics
 * are the sum of the ranks', and the spread shows rank 1's double work. */
START_TEST(a_real_two_rank_capture_merges_to_the_sum_of_its_ranks)
{
    char *binary = tu_aorta_run();
    char *plugins = tu_builddir("plugins");
    char *dir = tu_srcdir("tests/collectors/proton/fixtures/h200_torchrun_env");
    char *rank0 = tu_join(dir, "rank0"), *rank1 = tu_join(dir, "rank1");
    int64_t counts[2];
    double times[2];
    char *ranks[] = {rank0, rank1};
    for (int r = 0; r < 2; r++) {
        char *argv[] = {binary, "--plugin-dir", plugins, "--parse", "proton", ranks[r], NULL};
        char *out = NULL;
        ck_assert_int_eq(tu_run(argv, NULL, &out, NULL), 0);
        json_object *m = json_tokener_parse(out);
        ck_assert_ptr_nonnull(m);
        counts[r] = json_object_get_int64(tu_at(m, "proton_kernel_count", NULL));
        times[r] = json_object_get_double(tu_at(m, "proton_gpu_time_ms", NULL));
        json_object_put(m);
        free(out);
    }
    ck_assert_int_eq(counts[0], 10);
    ck_assert_int_eq(counts[1], 20);
    char *argv[] = {binary, "--plugin-dir", plugins, "--parse", "proton", dir, NULL};
    char *out = NULL;
    ck_assert_int_eq(tu_run(argv, NULL, &out, NULL), 0);
    json_object *m = json_tokener_parse(out);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(json_object_get_int64(tu_at(m, "proton_kernel_count", NULL)),
                     counts[0] + counts[1]);
    ck_assert(fabs(json_object_get_double(tu_at(m, "proton_gpu_time_ms", NULL))
                   - (times[0] + times[1])) < 1e-9);
    ck_assert_int_eq(json_object_get_int64(tu_at(m, "proton_rank_count", NULL)), 2);
    ck_assert_int_eq(json_object_get_int64(tu_at(m, "proton_ranks_with_data", NULL)), 2);
    ck_assert_double_eq(json_object_get_double(tu_at(m, "proton_gpu_time_ms_rank_min", NULL)),
                        times[0]);
    ck_assert_double_eq(json_object_get_double(tu_at(m, "proton_gpu_time_ms_rank_max", NULL)),
                        times[1]);
    json_object_put(m);
    free(out);
    free(rank0);
    free(rank1);
    free(dir);
    free(plugins);
    free(binary);
}
END_TEST

/* The same real capture through a whole sweep: the torchrun stand-in
 * (standins/torchrun) starts two ranks as torchrun --no-python does, and
 * each rank's mode env payload (standins/env_payload) leaves its own real
 * hatchet where Proton's finalize() would.  Rank 1 did twice rank 0's work
 * in add_kernel: the rank view names it the straggler, add_kernel the
 * cause, and the launches differ. */
START_TEST(a_real_torchrun_capture_shows_rank_1_late_in_add_kernel)
{
    char *work = tu_tmpdir();
    char *launcher = tu_srcdir("tests/collectors/proton/standins/torchrun");
    char *payload = tu_srcdir("tests/collectors/proton/standins/env_payload");
    char *fixture = tu_srcdir("tests/collectors/proton/fixtures/h200_torchrun_env");
    char *recipe = tu_join(work, "r.yaml");
    char *text = tu_fmt("schema_version: 1\nmode: probe\nticket: H200-RANKS\ntrials: 2\n"
                        "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                        "launcher: [\"%s\", --nproc_per_node=2, --no-python]\n"
                        "collect:\n  proton: {mode: env}\n",
                        launcher);
    tu_write(recipe, text);
    char *out_dir = tu_join(work, "out");
    char *hatchet = tu_fmt("AORTA_STANDIN_HATCHET=%s/rank%%AORTA_RANK%%/proton.hatchet", fixture);
    char *env[] = {hatchet, NULL};
    tu_result_t r = tu_aorta(env, "--recipe", recipe, "--output", out_dir, "--", payload, NULL);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    tu_result_free(&r);
    char *perf_path = tu_join(out_dir, "H200-RANKS/perf.md");
    char *perf = tu_read(perf_path);
    ck_assert_ptr_nonnull(strstr(perf, "#### Ranks of none-none \xe2\x80\x94 proton"));
    ck_assert_msg(strstr(perf, "Slowest rank **1**: 0.046 ms of GPU time against a mean of "
                               "0.035 ms over 2 ranks (fastest: rank 0, 0.023 ms)"),
                  "%s", perf);
    ck_assert_ptr_nonnull(strstr(perf, "Most of it: `add_kernel` (100.0% of the imbalance"));
    ck_assert_ptr_nonnull(strstr(perf, "- `add_kernel`: rank 1 launched 20, rank 0 launched 10"));
    char *html_path = tu_join(out_dir, "H200-RANKS/report.html");
    char *html = tu_read(html_path);
    ck_assert_ptr_nonnull(strstr(html, "rank 1 (slowest)"));
    ck_assert_ptr_nonnull(strstr(html, "<tr class=\"slowest\"><td class=\"name\">1</td>"));
    ck_assert_ptr_nonnull(strstr(html, "rank 1 launched 20, rank 0 launched 10"));
    char *matrix_path = tu_join(out_dir, "H200-RANKS/matrix.json");
    json_object *matrix = tu_json(matrix_path);
    ck_assert_int_eq(json_object_get_int(tu_at(matrix, "cells", "0", "ranks", "proton",
                                               "slowest_rank", NULL)),
                     1);
    ck_assert_str_eq(json_object_get_string(tu_at(matrix, "cells", "0", "ranks", "proton",
                                                  "kernels", "0", "name", NULL)),
                     "add_kernel");
    json_object_put(matrix);
    /* Against a run in which both ranks did rank 1's work: --compare judges
     * each rank's GPU time and the imbalance. */
    char *even_dir = tu_join(work, "even");
    char *even = tu_fmt("AORTA_STANDIN_HATCHET=%s/rank1/proton.hatchet", fixture);
    char *even_env[] = {even, NULL};
    r = tu_aorta(even_env, "--recipe", recipe, "--output", even_dir, "--", payload, NULL);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    tu_result_free(&r);
    char *run_a = tu_join(out_dir, "H200-RANKS"), *run_b = tu_join(even_dir, "H200-RANKS");
    r = tu_aorta(NULL, "--compare", run_a, run_b, "--allow-mismatch", "--all", NULL);
    ck_assert_msg(strstr(r.out, "      rank 0: 0.023 -> 0.046 ms  ")
                      && strstr(r.out, "      rank 1: 0.046 -> 0.046 ms  ")
                      && strstr(r.out, "  proton imbalance (slowest rank - mean): 0.011 -> 0.000 ms  "),
                  "%s", r.out);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", run_a, run_b, "--json", NULL);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    ck_assert_str_eq(json_object_get_string(tu_at(cmp, "cells", "0", "measures", "0", "ranks", "1",
                                                  "measure", NULL)),
                     "rank_gpu_time_ms");
    ck_assert_int_eq(json_object_get_int(tu_at(cmp, "cells", "0", "measures", "0", "ranks", "1",
                                               "rank", NULL)),
                     1);
    json_object_put(cmp);
    tu_result_free(&r);
    free(run_a);
    free(run_b);
    free(even);
    free(even_dir);
    free(matrix_path);
    free(html);
    free(html_path);
    free(perf);
    free(perf_path);
    free(hatchet);
    free(out_dir);
    free(text);
    free(recipe);
    free(fixture);
    free(payload);
    free(launcher);
    tu_rmtree(work);
    free(work);
}
END_TEST

START_TEST(real_h200_runs_are_unchanged_or_regressed_in_the_kernel_that_grew)
{
    char *a = tu_srcdir("tests/collectors/proton/fixtures/h200_verdicts/a");
    char *a2 = tu_srcdir("tests/collectors/proton/fixtures/h200_verdicts/a2");
    char *b = tu_srcdir("tests/collectors/proton/fixtures/h200_verdicts/b");
    tu_result_t r = tu_aorta(NULL, "--compare", a, a2, "--fail-above", "5", NULL);
    ck_assert_msg(r.status == 0, "%d %s", r.status, r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "  proton GPU time: 0.068 -> 0.068 ms  unchanged "));
    ck_assert_ptr_nonnull(strstr(r.out, "Gate passed.\n"));
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", a, b, "--fail-above", "5", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "  proton GPU time: 0.068 -> 0.073 ms  regressed +"));
    ck_assert_ptr_nonnull(strstr(r.out, "  cell none-none: proton kernel add_kernel regressed +"));
    /* Only the kernel launched more often is named. */
    const char *gate = strstr(r.out, "Gate FAILED:\n");
    ck_assert_ptr_nonnull(gate);
    ck_assert_ptr_null(strstr(gate, "vectorized_elementwise"));
    ck_assert_ptr_null(strstr(gate, "reduce_kernel"));
    tu_result_free(&r);
    /* The same Triton and GPU on both sides: nothing makes them incomparable. */
    r = tu_aorta(NULL, "--compare", a, b, "--json", NULL);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    ck_assert_uint_eq(json_object_array_length(tu_at(cmp, "mismatches", NULL)), 0);
    ck_assert_int_eq(json_object_get_int(tu_at(cmp, "cells", "0", "measures", "0", "n_a", NULL)),
                     8);
    json_object_put(cmp);
    tu_result_free(&r);
    free(a);
    free(a2);
    free(b);
}
END_TEST

static Suite *h200_suite(void)
{
    Suite *suite = suite_create("proton-h200-sweep");
    TCase *tc = tcase_create("report");
    tcase_add_test(tc, the_report_of_a_real_h200_sweep_shows_the_swapped_gemm);
    tcase_add_test(tc, a_real_two_rank_capture_merges_to_the_sum_of_its_ranks);
    tcase_add_test(tc, real_h200_runs_are_unchanged_or_regressed_in_the_kernel_that_grew);
    tcase_add_test(tc, a_real_torchrun_capture_shows_rank_1_late_in_add_kernel);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(h200_suite)
