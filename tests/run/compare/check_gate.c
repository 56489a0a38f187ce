/* SPDX-License-Identifier: MIT */
/* The gate end to end, as a CI runs it: real sweeps under the stand-in
 * rocprofv3 (examples/no-gpu/rocm/rocprofv3, whose kernel times carry
 * seeded noise of a chosen spread: "CALLS:NS~PCT:NAME", a per-capture
 * factor of spread PCT/2 and a per-dispatch jitter of PCT, as a real
 * capture's times scatter from trial to trial), then `aorta-run --compare`
 * and its exit status.  An empty capture is no data and fails the gate,
 * naming the cell; 6 cells x 5 trials with +10% fail it; the same A/A at a
 * CV of about 1% passes; a +4% at 6 trials and a CV of about 3% is never
 * "unchanged" unless its interval is inside +-5%; two builds at two paths
 * are judged, their difference shown; a comparison in which nothing is
 * comparable has no verdict; --dry-run states what the design can detect. */
#include "config.h"

#include <check.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeptest.h"
#include "testutil.h"

static char *dir, *path_env;

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
    char *source = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    char *text = tu_read(source);
    char *standin = tu_join(dir, "bin/rocprofv3");
    tu_write_mode(standin, text, 0755);
    free(standin);
    free(text);
    free(source);
    const char *path = getenv("PATH");
    path_env = tu_fmt("PATH=%s/bin:%s", dir, path ? path : "/usr/bin:/bin");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(path_env);
}

/* The six cells of a sweep, c0..c5, each with a variable of its own. */
#define SIX_CELLS                                                                            \
    "mitigation_axis: [c0, c1, c2, c3, c4, c5]\nmitigations:\n  c0: {CELL: \"0\"}\n"         \
    "  c1: {CELL: \"1\"}\n  c2: {CELL: \"2\"}\n  c3: {CELL: \"3\"}\n  c4: {CELL: \"4\"}\n"    \
    "  c5: {CELL: \"5\"}\n"

/* A sweep into out/TICKET of trials per cell, the stand-in's kernels given
 * by kernels (the payload's environment, so the cells' variables stay the
 * same between runs), extra recipe lines, argv the command. */
static int sweep(const char *ticket, int trials, const char *kernels, const char *cells,
                 const char *extra, char **argv_tail)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: %s\ntrials: %d\n%s"
                          "diagnostic_axis: [none]\nretain: {on_pass: none}\n"
                          "collect: {rocprof: {trace: \"kernel,hip\"}}\n%s",
                          ticket, trials, cells, extra);
    char *name = tu_fmt("%s.yaml", ticket);
    tu_write(name, recipe);
    char *fake = tu_fmt("AORTA_FAKE_KERNELS=%s", kernels);
    char *env[] = {path_env, fake, "ROCPROF_BIN", NULL};
    char *argv[16] = {"--recipe", name, "--output", "out", "-q", "--"};
    size_t n = 6;
    for (size_t i = 0; argv_tail[i] && n < 15; i++)
        argv[n++] = argv_tail[i];
    argv[n] = NULL;
    tu_result_t r = tu_aorta_v(env, argv);
    int status = r.status;
    ck_assert_msg(status == 0, "%s", r.err);
    tu_result_free(&r);
    free(fake);
    free(name);
    free(recipe);
    return status;
}

static char *TRUE_CMD[] = {"sh", "-c", "exit 0", NULL};

/* The GPU time's verdict of cell in a --compare --json of A and B. */
static json_object *gpu_measure(json_object *cmp, const char *cell)
{
    json_object *cells = tu_at(cmp, "cells", NULL);
    for (size_t c = 0; c < json_object_array_length(cells); c++) {
        json_object *entry = json_object_array_get_idx(cells, c);
        if (strcmp(tu_str(entry, "name", NULL), cell) != 0)
            continue;
        json_object *measures = tu_at(entry, "measures", NULL);
        for (size_t m = 0; m < json_object_array_length(measures); m++) {
            json_object *measure = json_object_array_get_idx(measures, m);
            if (!strcmp(tu_str(measure, "measure", NULL), "gpu_time_ms"))
                return measure;
        }
    }
    return NULL;
}

START_TEST(an_empty_capture_is_no_data_and_fails_the_gate_naming_the_cell)
{
    sweep("A", 3, "4:100000~1:gemm_kernel\n", "mitigation_axis: [none]\n", "", TRUE_CMD);
    /* B's profiler captured nothing: the application did no GPU work the
     * stand-in saw (an export broken by a tool upgrade reads the same). */
    sweep("B", 3, "", "mitigation_axis: [none]\n", "", TRUE_CMD);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--fail-above", "5", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.out);
    ck_assert_msg(strstr(r.out, " -> - ms  no data (n 3 vs 0)\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "Gate FAILED:\n  cell none-none: rocprof captured "
                                        "nothing in B (no data") != NULL, "%s", r.out);
    /* The GPU time is no data, never an improvement of -100% (the step
     * time, the machine's load, may move either way: it is not gated). */
    const char *gpu = strstr(r.out, "  rocprof GPU time: ");
    ck_assert_ptr_nonnull(gpu);
    char *line = strndup(gpu, (size_t)(strchr(gpu, '\n') - gpu));
    ck_assert_msg(!strstr(line, "improved") && !strstr(line, "-100"), "%s", line);
    free(line);
    ck_assert_ptr_null(strstr(r.out, "-100"));
    tu_result_free(&r);
    /* --allow-missing accepts it, and then nothing was judged: no verdict. */
    r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--allow-missing", NULL);
    ck_assert_msg(r.status == 4, "%d %s", r.status, r.out);
    ck_assert_msg(strstr(r.out, "(accepted: --allow-missing)") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "No verdict:\n  nothing was judged") != NULL, "%s", r.out);
    tu_result_free(&r);
}
END_TEST

START_TEST(within_a_sweep_a_cell_that_captured_nothing_is_said_once)
{
    /* The slow cell's payload runs with no kernels at all. */
    char *recipe = tu_fmt("mitigation_axis: [none, empty]\nmitigations:\n"
                          "  empty: {AORTA_FAKE_KERNELS: \"\"}\n");
    char *kernels = "AORTA_FAKE_KERNELS=2:50000~1:k\n";
    tu_write("S.yaml", "");
    char *full = tu_fmt("schema_version: 1\nmode: probe\nticket: S\ntrials: 2\n%s"
                        "diagnostic_axis: [none]\ncollect: {rocprof: {trace: \"kernel,hip\"}}\n",
                        recipe);
    tu_write("S.yaml", full);
    char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "S.yaml", "--output", "out", "-q", "--", "sh",
                             "-c", "exit 0", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *warning = "aorta-run: warning: cell empty-none: rocprof captured nothing in any "
                          "of its 2 passing trial(s), while other cells captured kernels (its "
                          "GPU time is no data, not zero)\n";
    ck_assert_ptr_nonnull(strstr(r.err, warning));
    ck_assert_msg(strstr(strstr(r.err, warning) + strlen(warning), "captured nothing") == NULL, "%s", r.err);
    tu_result_free(&r);
    char *perf = tu_read("out/S/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "> **Warning**: cell empty-none: rocprof captured nothing"));
    free(perf);
    free(full);
    free(recipe);
}
END_TEST

START_TEST(six_cells_of_five_trials_with_ten_percent_more_fail_the_gate)
{
    sweep("A", 5, "1:1000000~0.9:gemm_kernel\n", SIX_CELLS, "", TRUE_CMD);
    sweep("B", 5, "1:1100000~0.9:gemm_kernel\n", SIX_CELLS, "", TRUE_CMD);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--json", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.out);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    ck_assert_str_eq(tu_str(cmp, "gate", "outcome", NULL), "failed");
    for (int c = 0; c < 6; c++) {
        char *cell = tu_fmt("c%d-none", c);
        json_object *m = gpu_measure(cmp, cell);
        ck_assert_msg(m && !strcmp(tu_str(m, "verdict", NULL), "regressed"), "%s", cell);
        free(cell);
    }
    json_object_put(cmp);
    tu_result_free(&r);
}
END_TEST

START_TEST(the_same_six_cells_at_one_percent_pass_the_gate)
{
    sweep("A", 5, "1:1000000~0.9:gemm_kernel\n", SIX_CELLS, "", TRUE_CMD);
    sweep("B", 5, "1:1000000~0.9:gemm_kernel\n", SIX_CELLS, "", TRUE_CMD);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", NULL);
    ck_assert_msg(r.status == 0, "%d %s", r.status, r.out);
    ck_assert_msg(strstr(r.out, "Gate passed.\n") != NULL, "%s", r.out);
    tu_result_free(&r);
    /* Every cell's GPU time unchanged: its interval inside +-5%.  (The step
     * time, the machine's load, may move; it is shown, never gated.) */
    r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--json", NULL);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    for (int c = 0; c < 6; c++) {
        char *cell = tu_fmt("c%d-none", c);
        json_object *m = gpu_measure(cmp, cell);
        ck_assert_msg(m && !strcmp(tu_str(m, "verdict", NULL), "unchanged"), "%s", cell);
        free(cell);
    }
    json_object_put(cmp);
    tu_result_free(&r);
}
END_TEST

START_TEST(four_percent_at_six_trials_is_unchanged_only_inside_delta)
{
    sweep("A", 6, "1:1000000~2.7:gemm_kernel\n", "mitigation_axis: [none]\n", "", TRUE_CMD);
    sweep("B", 6, "1:1040000~2.7:gemm_kernel\n", "mitigation_axis: [none]\n", "", TRUE_CMD);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--json", NULL);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    json_object *m = gpu_measure(cmp, "none-none");
    ck_assert_ptr_nonnull(m);
    const char *verdict = tu_str(m, "verdict", NULL);
    double low = json_object_get_double(tu_at(m, "ci_low_pct", NULL));
    double high = json_object_get_double(tu_at(m, "ci_high_pct", NULL));
    ck_assert_msg(strcmp(verdict, "unchanged") != 0 || (low >= -5.0 && high <= 5.0),
                  "%s [%g, %g]", verdict, low, high);
    /* Its interval reaches past 5%: never unchanged, and the gate never
     * passes (no verdict, or failed when the estimate itself is past 5%). */
    if (high >= 5.0) {
        ck_assert_str_ne(verdict, "unchanged");
        ck_assert_msg(r.status == 3 || r.status == 4, "%d", r.status);
    }
    json_object_put(cmp);
    tu_result_free(&r);
}
END_TEST

START_TEST(two_builds_at_two_paths_are_judged_and_their_difference_shown)
{
    tu_write_mode("build_a/app", "#!/bin/sh\nexit 0\n", 0755);
    tu_write_mode("build_b/app", "#!/bin/sh\nexit 0\n", 0755);
    char *a[] = {"./build_a/app", NULL}, *b[] = {"./build_b/app", NULL};
    sweep("A", 4, "1:1000000~0.9:gemm_kernel\n", "mitigation_axis: [none]\n", "", a);
    sweep("B", 4, "1:1300000~0.9:gemm_kernel\n", "mitigation_axis: [none]\n", "", b);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.out);
    ck_assert_msg(strstr(r.out, "  command: A [\"./build_a/app\"], B [\"./build_b/app\"]\n") != NULL, "%s", r.out);
    ck_assert_ptr_null(strstr(r.out, "incomparable"));
    ck_assert_msg(strstr(r.out, " ms  regressed +") != NULL, "%s", r.out);
    tu_result_free(&r);
}
END_TEST

START_TEST(nothing_comparable_has_no_verdict)
{
    /* Other ranks profiled make every measure incomparable. */
    sweep("A", 3, "1:1000000~0.9:gemm_kernel\n", "mitigation_axis: [none]\n", "", TRUE_CMD);
    sweep("B", 3, "1:1000000~0.9:gemm_kernel\n", "mitigation_axis: [none]\n", "ranks: [0]\n",
          TRUE_CMD);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", NULL);
    ck_assert_msg(r.status == 4, "%d %s", r.status, r.out);
    ck_assert_msg(strstr(r.out, "ranks profiled: A unknown, B [0] -> incomparable\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "No verdict:\n  nothing was judged: every headline "
                                        "measure is incomparable, missing or without data\n") != NULL, "%s", r.out);
    tu_result_free(&r);
    /* --allow-inconclusive does not pass what was never judged. */
    r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--allow-inconclusive", NULL);
    ck_assert_int_eq(r.status, 4);
    tu_result_free(&r);
}
END_TEST

START_TEST(dry_run_states_what_the_design_detects)
{
    tu_write("D.yaml", "schema_version: 1\nmode: probe\nticket: D\ntrials: 5\n" SIX_CELLS
                       "diagnostic_axis: [none]\ncollect: {rocprof: {}}\n");
    char *env[] = {path_env, "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "D.yaml", "--output", "out", "--dry-run", "--",
                             "sh", "-c", "exit 0", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.err, "aorta-run: design: 6 cell(s) x 5 trial(s), alpha 0.01, "
                                        "threshold 5%: against a run of the same design it "
                                        "detects a GPU-time regression of +"));
    ck_assert_ptr_null(strstr(r.err, "fewer than 3"));
    /* stdout keeps one JSON object per cell. */
    size_t lines = 0;
    for (const char *c = r.out; *c; c++)
        lines += *c == '\n';
    ck_assert_uint_eq(lines, 6);
    ck_assert_ptr_null(strstr(r.out, "design"));
    tu_result_free(&r);
    r = tu_aorta(env, "--recipe", "D.yaml", "--trials", "2", "--output", "out", "--dry-run",
                 "--", "sh", "-c", "exit 0", NULL);
    ck_assert_ptr_nonnull(strstr(r.err, "regression of none at CV 1%, none at CV 3% (80% of the "
                                        "time); fewer than 3 passing trials a side give no "
                                        "verdict\n"));
    tu_result_free(&r);
}
END_TEST

static Suite *gate_suite(void)
{
    Suite *s = suite_create("gate");
    TCase *tc = tcase_create("gate");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, an_empty_capture_is_no_data_and_fails_the_gate_naming_the_cell);
    tcase_add_test(tc, within_a_sweep_a_cell_that_captured_nothing_is_said_once);
    tcase_add_test(tc, six_cells_of_five_trials_with_ten_percent_more_fail_the_gate);
    tcase_add_test(tc, the_same_six_cells_at_one_percent_pass_the_gate);
    tcase_add_test(tc, four_percent_at_six_trials_is_unchanged_only_inside_delta);
    tcase_add_test(tc, two_builds_at_two_paths_are_judged_and_their_difference_shown);
    tcase_add_test(tc, nothing_comparable_has_no_verdict);
    tcase_add_test(tc, dry_run_states_what_the_design_detects);
    suite_add_tcase(s, tc);
    return s;
}

AORTA_CHECK_MAIN(gate_suite)
