/* SPDX-License-Identifier: MIT */
/* --against history:FILE end to end under the stand-in rocprofv3 (seeded
 * noise of 3% a capture and a dispatch): the blessed run, @last and
 * @median-of-N rebuilt from the store gate as --compare gates (0 on the
 * same payload, 3 on a planted regression, 4 on too few trials), the
 * refusals are one line, and a store arms a measure only once it holds K
 * records of it ("recording k of K" before, exit 0). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "history/history_baseline.h"
#include "stats/stats.h"
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

/* A run of ticket into N/ticket, trials a cell, whose kernel k3 takes
 * k3_ns; extra options (NULL-terminated, at most 11) go before "--". */
static tu_result_t run(const char *ticket, int trials, long k3_ns, const char *const *extra)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: %s\ntrials: %d\n"
                          "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                          "retain: {on_pass: none}\n"
                          "collect: {rocprof: {trace: \"kernel\"}}\n",
                          ticket, trials);
    tu_write("r.yaml", recipe);
    char *kernels = tu_fmt("AORTA_FAKE_KERNELS=20:100000~3:k1\n20:%ld~3:k3\n", k3_ns);
    char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
    char *args[24];
    size_t n = 0;
    const char *head[] = {"--recipe", "r.yaml", "--output", "N", "-q"};
    for (size_t i = 0; i < 5; i++)
        args[n++] = (char *)head[i];
    for (size_t i = 0; extra && extra[i] && n < 16; i++)
        args[n++] = (char *)extra[i];
    const char *tail[] = {"--", "/bin/sh", "-c", "exit 0"};
    for (size_t i = 0; i < 4; i++)
        args[n++] = (char *)tail[i];
    args[n] = NULL;
    tu_result_t r = tu_aorta_v(env, args);
    free(kernels);
    free(recipe);
    return r;
}


static const char *const BLESS[] = {"--history", "h.db", "--label", "v1", "--bless", NULL};
static const char *const KEEP[] = {"--history", "h.db", NULL};

START_TEST(the_blessed_run_gates_0_3_and_4_as_compare_does)
{
    tu_result_t r = run("A", 8, 300000, BLESS);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    const char *against[] = {"--against", "history:h.db", "--arm-after", "1", NULL};
    r = run("B", 8, 300000, against);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "Gate passed.\n"));
    tu_result_free(&r);
    json_object *cmp = tu_json("N/B/compare.json");
    ck_assert_str_eq(tu_str(cmp, "run_a", NULL), "history:h.db (the blessed run 'v1')");
    json_object_put(cmp);
    r = run("C", 8, 390000, against);
    ck_assert_msg(r.status == 3, "%d %s %s", r.status, r.out, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "rocprof kernel k3 regressed"));
    tu_result_free(&r);
    r = run("D", 2, 300000, against);
    ck_assert_msg(r.status == 4, "%d %s %s", r.status, r.out, r.err);
    tu_result_free(&r);
}
END_TEST

START_TEST(last_and_median_of_n_gate_and_too_few_runs_are_refused)
{
    for (int i = 0; i < 3; i++) {
        char ticket[8];
        snprintf(ticket, sizeof ticket, "A%d", i);
        tu_result_t r = run(ticket, 8, 300000, KEEP);
        ck_assert_msg(r.status == 0, "%s", r.err);
        tu_result_free(&r);
    }
    const char *last[] = {"--against", "history:h.db@last", "--arm-after", "3", NULL};
    tu_result_t r = run("B", 8, 300000, last);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    tu_result_free(&r);
    json_object *cmp = tu_json("N/B/compare.json");
    ck_assert_str_eq(tu_str(cmp, "run_a", NULL), "history:h.db@last (the last run '(no label)')");
    json_object_put(cmp);
    r = run("C", 8, 390000, last);
    ck_assert_msg(r.status == 3, "%d %s %s", r.status, r.out, r.err);
    tu_result_free(&r);
    const char *median[] = {"--against", "history:h.db@median-of-3", "--arm-after", "3", NULL};
    r = run("D", 8, 390000, median);
    ck_assert_msg(r.status == 3, "%d %s %s", r.status, r.out, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "rocprof kernel k3 regressed"));
    tu_result_free(&r);
    cmp = tu_json("N/D/compare.json");
    ck_assert_str_eq(tu_str(cmp, "run_a", NULL),
                     "history:h.db@median-of-3 (the median of the last 3 runs)");
    json_object_put(cmp);
    /* Fewer runs than N, no blessed run, no store: one line, no trial. */
    const char *four[] = {"--against", "history:h.db@median-of-4", "--arm-after", "3", NULL};
    r = run("E", 8, 300000, four);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "it holds 3 runs of these cells, fewer than 4"));
    ck_assert(!tu_exists("N/E"));
    tu_result_free(&r);
    const char *blessed[] = {"--against", "history:h.db", "--arm-after", "3", NULL};
    r = run("E", 8, 300000, blessed);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "no blessed run of these cells"));
    tu_result_free(&r);
    const char *none[] = {"--against", "history:none.db", NULL};
    r = run("E", 8, 300000, none);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "history:none.db: no such history file"));
    ck_assert(!tu_exists("N/E"));
    tu_result_free(&r);
    const char *typo[] = {"--against", "history:h.db@lats", NULL};
    r = run("E", 8, 300000, typo);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "'@lats' is neither @last nor @median-of-N"));
    tu_result_free(&r);
    const char *alone[] = {"--arm-after", "2", NULL};
    r = run("E", 8, 300000, alone);
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "--arm-after applies only to --against history:FILE"));
    ck_assert(!tu_exists("N/E"));
    tu_result_free(&r);
}
END_TEST

START_TEST(a_measure_is_recorded_until_it_has_k_records)
{
    const char *nightly[] = {"--history", "h.db", "--against", "history:h.db@last",
                             "--arm-after", "2", NULL};
    tu_result_t r = run("A0", 8, 300000, nightly);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "recording 0 of 2 ("));
    ck_assert(!tu_exists("N/A0/compare.json"));
    tu_result_free(&r);
    /* A regression while recording is not gated: nothing is armed. */
    r = run("A1", 8, 390000, nightly);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "recording 1 of 2 ("));
    tu_result_free(&r);
    /* Two records of every measure: armed, gated like --compare. */
    r = run("A2", 8, 300000, nightly);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    ck_assert_ptr_null(strstr(r.out, "recording"));
    ck_assert_msg(strstr(r.out, "improved") && strstr(r.out, "Gate passed.\n"), "%s", r.out);
    tu_result_free(&r);
}
END_TEST

/* The logs' mean and variance of n values, against the stored ones. */
static void assert_moments(const double *values, size_t n, double mean_log, double var_log)
{
    ar_stats_moments_t m;
    ar_stats_moments(values, n, 1, &m);
    ck_assert_int_eq(m.log_scale, 1);
    ck_assert_msg(fabs(m.mean - mean_log) < 1e-12 && fabs(m.var - var_log) < 1e-12,
                  "%.17g %.17g vs %.17g %.17g", m.mean, m.var, mean_log, var_log);
}

static void store_run(ar_history_t *h, const char *key, const char *scope, double gpu_log)
{
    ar_history_record_t records[] = {
        {.cell = "c", .collector = "rocprof", .measure = "gpu_time_ms", .kernel = "", .n = 7,
         .log_scale = 1, .mean_log = gpu_log, .var_log = 0.004, .headline = 1, .gated = 1},
        {.cell = "c", .collector = "rocprof", .measure = "kernel_time_ms", .kernel = "k",
         .n = 7, .log_scale = 1, .mean_log = 1.1, .var_log = 0.009, .gated = 1},
        {.cell = "c", .collector = "", .measure = "step_time_ms", .kernel = "", .n = 7,
         .log_scale = 1, .mean_log = 4.0, .var_log = 0.0001},
        {.cell = "c", .collector = "", .measure = "m", .kernel = "", .n = 7, .log_scale = 1,
         .mean_log = 0.5, .var_log = 0.02},
    };
    ar_history_run_t run = {.key = key, .scope = scope, .provenance = "{}", .cells = 1};
    char *error = NULL;
    ck_assert_msg(ar_history_append(h, &run, records, 4, !strcmp(key, "r1"), &error) == 0, "%s",
                  error);
}

START_TEST(the_rebuilt_samples_have_the_stored_moments)
{
    const char *names[] = {"c"};
    char *scope = ar_history_scope(names, 1), *error = NULL;
    ar_history_t *h = ar_history_open("u.db", 1, &error);
    ck_assert_ptr_nonnull(h);
    store_run(h, "r1", scope, 1.3);
    ar_history_target_t blessed = {.file = "u.db"};
    ar_history_baseline_t base;
    ck_assert_int_eq(ar_history_baseline(h, scope, &blessed, 1, &base, &error), 0);
    const ar_kagg_cell_t *cell = ar_kagg_cell(&base.run, "c");
    const ar_kagg_table_t *table = ar_kagg_table(cell, "rocprof");
    ck_assert_uint_eq(table->trials, 7);
    assert_moments(table->gpu_values, 7, 1.3, 0.004);
    assert_moments(ar_kagg_kernel(table, "k")->values, 7, 1.1, 0.009);
    assert_moments(cell->step_ms.values, cell->step_ms.count, 4.0, 0.0001);
    assert_moments(ar_kagg_metric(cell, "m")->values, 7, 0.5, 0.02);
    ar_history_baseline_clear(&base);
    /* @median-of-3: one sample a run, its log-mean. */
    store_run(h, "r2", scope, 1.2);
    store_run(h, "r3", scope, 1.4);
    ar_history_target_t median = {.file = "u.db", .median_of = 3};
    ck_assert_int_eq(ar_history_baseline(h, scope, &median, 3, &base, &error), 0);
    table = ar_kagg_table(ar_kagg_cell(&base.run, "c"), "rocprof");
    ck_assert_uint_eq(table->trials, 3);
    assert_moments(table->gpu_values, 3, 1.3, 0.01);
    ar_history_baseline_clear(&base);
    /* Three records a measure: not armed at four. */
    ck_assert_int_eq(ar_history_baseline(h, scope, &median, 4, &base, &error), 1);
    ck_assert_uint_eq(base.fewest, 3);
    ck_assert_uint_eq(base.unarmed, 4);
    ar_history_baseline_clear(&base);
    ar_history_close(h);
    free(scope);
}
END_TEST

static Suite *against_history_suite(void)
{
    Suite *suite = suite_create("rocprof_against_history");
    TCase *tc = tcase_create("against_history");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, the_blessed_run_gates_0_3_and_4_as_compare_does);
    tcase_add_test(tc, last_and_median_of_n_gate_and_too_few_runs_are_refused);
    tcase_add_test(tc, a_measure_is_recorded_until_it_has_k_records);
    tcase_add_test(tc, the_rebuilt_samples_have_the_stored_moments);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(against_history_suite)
