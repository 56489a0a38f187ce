/* SPDX-License-Identifier: MIT */
/* Kernel tables end to end: a two-cell sweep under the stand-in rocprofv3
 * with retain: {on_pass: none}; every trial keeps its .kernels.json, each
 * cell its kernels.json, perf.md gains its kernel section, report.html is
 * written; --report rebuilds them, --compare judges a slower run (exit 3),
 * and report.html renders in headless Chromium (77 without it). */
#include "config.h"

#include <check.h>
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

#define ADD "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEESt5arrayIPcLm3EEEEviT0_T1_"

/* A run into OUTPUT of TRIALS trials a cell whose "slow" cell runs the add
 * kernel for add_ns each. */
static void sweep_n(const char *output, long add_ns, int trials, const char *extra)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: K\ntrials: %d\n%s"
                          "mitigation_axis: [none, slow]\ndiagnostic_axis: [none]\n"
                          "mitigations:\n  slow: {AORTA_FAKE_KERNELS: \"10:%ld:" ADD
                          "\\n2:500:Cijk_gemm\\n\"}\n"
                          "retain: {on_pass: none}\n"
                          "collect: {rocprof: {trace: \"kernel,hip\"}}\n",
                          trials, extra, add_ns);
    tu_write("recipe.yaml", recipe);
    char *env[] = {path_env, "AORTA_FAKE_KERNELS=10:1000:" ADD "\n2:500:Cijk_gemm\n",
                   "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "recipe.yaml", "--output", output, "--", "sh",
                             "-c", "exit 0", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    free(recipe);
}

static void sweep_with(const char *output, long add_ns, const char *extra)
{
    sweep_n(output, add_ns, 2, extra);
}

static void sweep(const char *output, long add_ns)
{
    sweep_with(output, add_ns, "");
}

START_TEST(a_sweep_keeps_every_table_past_retention_and_reports_it)
{
    sweep("A", 1000);
    /* The capture is pruned; its table is not. */
    ck_assert(!tu_exists("A/K/slow-none/_subprocess/trial_d0_m0_t0/rocprof/aorta_kernel_stats.csv"));
    json_object *trial = tu_json("A/K/slow-none/_subprocess/trial_d0_m0_t1.kernels.json");
    ck_assert_int_eq(json_object_get_int(tu_at(trial, "schema_version", NULL)), 3);
    /* Schema 3 (here without ranks): the names, totals and launches as three arrays. */
    json_object *names = tu_at(trial, "collectors", "rocprof", "names", NULL);
    size_t count = json_object_array_length(names), add = count;
    for (size_t i = 0; i < count; i++)
        if (!strcmp(json_object_get_string(json_object_array_get_idx(names, i)), ADD))
            add = i;
    ck_assert_uint_lt(add, count);
    ck_assert_uint_eq(json_object_array_length(tu_at(trial, "collectors", "rocprof", "total_ms",
                                                     NULL)), count);
    json_object *launches = tu_at(trial, "collectors", "rocprof", "launches", NULL);
    ck_assert_int_eq(json_object_get_int(json_object_array_get_idx(launches, add)), 10);
    json_object_put(trial);
    json_object *cell = tu_json("A/K/none-none/kernels.json");
    ck_assert_int_eq(json_object_get_int(tu_at(cell, "passing_trials", NULL)), 2);
    ck_assert_int_eq(json_object_get_int(tu_at(cell, "collectors", "rocprof", "kernels", ADD,
                                               "trials", NULL)), 2);
    json_object_put(cell);
    char *perf = tu_read("A/K/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "## GPU kernels (mean across passing trials)"));
    ck_assert_ptr_nonnull(strstr(perf, "vectorized_elementwise_kernel&lt;4, CUDAFunctor_add&lt;...&gt;, array&lt;...&gt; &gt;(...)"));
    ck_assert_ptr_nonnull(strstr(perf, "(raw `" ADD "`)"));
    char *html = tu_read("A/K/report.html");
    ck_assert_ptr_nonnull(strstr(html, "<!DOCTYPE html>"));
    ck_assert_ptr_null(strstr(html, "<script"));
    ck_assert_ptr_null(strstr(html, "http"));

    /* --report writes the same again from the records alone. */
    ck_assert_int_eq(unlink("A/K/report.html"), 0);
    ck_assert_int_eq(unlink("A/K/none-none/kernels.json"), 0);
    tu_write("A/K/perf.md", "stale\n");
    tu_result_t r = tu_aorta(NULL, "--report", "A/K", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    char *again = tu_read("A/K/perf.md");
    /* Only the timestamps of the runs differ: none, since matrix.json is read. */
    ck_assert_str_eq(again, perf);
    ck_assert(tu_exists("A/K/none-none/kernels.json"));
    char *html_again = tu_read("A/K/report.html");
    ck_assert_str_eq(html_again, html);
    free(html_again);
    free(again);
    free(html);
    free(perf);

    /* A live aorta-run's lock refuses --report with one line. */
    char *lock = tu_fmt("{\"pid\": %ld, \"host\": \"\", \"started_at\": \"now\"}", (long)getppid());
    tu_write("A/K/.aorta-run.lock", lock);
    free(lock);
    r = tu_aorta(NULL, "--report", "A/K", NULL);
    ck_assert_int_ne(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.err, "aorta-run: "));
    ck_assert_ptr_null(strchr(strchr(r.err, '\n') + 1, '\n'));
    tu_result_free(&r);
    unlink("A/K/.aorta-run.lock");
    r = tu_aorta(NULL, "--report", "nowhere", NULL);
    ck_assert_int_eq(r.status, 1);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--report", "A/K", "--baseline", "nope", NULL);
    ck_assert_int_eq(r.status, 2);
    tu_result_free(&r);
}
END_TEST

START_TEST(compare_names_the_kernel_that_grew_and_exits_3_past_the_threshold)
{
    /* Six trials a side.  The slow cell's kernel time is its variable, so
     * the runs differ in it: judged with --allow-mismatch. */
    sweep_n("A", 1000, 6, "");
    sweep_n("B", 3000, 6, "");
    tu_result_t r = tu_aorta(NULL, "--compare", "A/K", "B/K", "--fail-above", "50",
                             "--allow-mismatch", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "slow-none\n  trials passed: A 6 of 6, B 6 of 6\n"
                                        "  rocprof GPU time: 0.011 -> 0.031 ms  regressed +"));
    ck_assert_ptr_nonnull(strstr(r.out, "Gate FAILED:\n  cell slow-none: rocprof GPU time "
                                        "regressed"));
    ck_assert_ptr_nonnull(strstr(r.out, "vectorized_elementwise_kernel<4, CUDAFunctor_add<...>"));
    /* The kernel that grew is named, the one that did not is not. */
    ck_assert_ptr_nonnull(strstr(r.out, "cell slow-none: rocprof kernel void at::native::"
                                        "vectorized_elementwise_kernel"));
    ck_assert_ptr_null(strstr(r.out, "rocprof kernel Cijk_gemm regressed"));
    ck_assert_ptr_null(strstr(r.out, "cell none-none: rocprof GPU time regressed"));
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", "A/K", "B/K", "--json", "--allow-mismatch", NULL);
    ck_assert_int_eq(r.status, 3); /* --json gates as the text does */
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    ck_assert_int_eq(json_object_get_int(tu_at(cmp, "schema_version", NULL)), 3);
    ck_assert_str_eq(tu_str(cmp, "cells", "1", "measures", "0", "kernels", "0", "kernel", NULL),
                     ADD);
    ck_assert_str_eq(tu_str(cmp, "cells", "1", "measures", "0", "verdict", NULL), "regressed");
    ck_assert_int_eq(json_object_get_int(tu_at(cmp, "cells", "1", "measures", "0", "n_b", NULL)),
                     6);
    ck_assert_int_eq(json_object_get_int(tu_at(cmp, "cells", "1", "b", "passed", NULL)), 6);
    ck_assert(json_object_get_boolean(tu_at(cmp, "gate", "failed", NULL)));
    ck_assert_str_eq(tu_str(cmp, "gate", "outcome", NULL), "failed");
    json_object_put(cmp);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", "A/K", "missing", NULL);
    ck_assert_int_eq(r.status, 1);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", "A/K", "B/K", "--fail-above", "-1", NULL);
    ck_assert_int_eq(r.status, 2);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", "A/K", "B/K", "--alpha", "1", NULL);
    ck_assert_int_eq(r.status, 2);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--report", "A/K", "--json", NULL);
    ck_assert_int_eq(r.status, 2);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--report", "A/K", "--strict", NULL);
    ck_assert_int_eq(r.status, 2);
    tu_result_free(&r);
}
END_TEST

/* Five kernels with seeded noise (3% a capture, 3% a dispatch), eight
 * trials a side; B runs k3 10% longer.  The stand-in's noise is drawn per
 * ticket, cell, trial and name, as real trials differ. */
static void noisy_run(const char *ticket, long k3_ns)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: %s\ntrials: 8\n"
                          "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                          "retain: {on_pass: none}\n"
                          "collect: {rocprof: {trace: \"kernel\"}}\n",
                          ticket);
    tu_write("noisy.yaml", recipe);
    char *kernels = tu_fmt("AORTA_FAKE_KERNELS=20:100000~3:k1\n20:200000~3:k2\n"
                           "20:%ld~3:k3\n20:50000~3:k4\n20:400000~3:k5\n",
                           k3_ns);
    char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "noisy.yaml", "--output", "N", "-q", "--",
                             "/bin/sh", "-c", "exit 0", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    free(kernels);
    free(recipe);
}

START_TEST(a_shift_in_one_kernel_of_five_is_that_kernel_s_alone)
{
    noisy_run("A", 300000);
    noisy_run("B", 330000);
    noisy_run("C", 300000);
    tu_result_t r = tu_aorta(NULL, "--compare", "N/A", "N/B", "--json", "--fail-above", "5",
                             NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.err);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    json_object *kernels = tu_at(cmp, "cells", "0", "measures", "0", "kernels", NULL);
    ck_assert_uint_eq(json_object_array_length(kernels), 5);
    for (size_t i = 0; i < 5; i++) {
        json_object *k = json_object_array_get_idx(kernels, i);
        const char *name = json_object_get_string(tu_at(k, "kernel", NULL));
        const char *verdict = json_object_get_string(tu_at(k, "verdict", NULL));
        if (!strcmp(name, "k3")) {
            ck_assert_str_eq(verdict, "regressed");
            double effect = json_object_get_double(tu_at(k, "effect_pct", NULL));
            ck_assert_msg(effect > 7 && effect < 13, "k3 %+.2f%%", effect);
        } else {
            ck_assert_msg(strcmp(verdict, "regressed") && strcmp(verdict, "improved"),
                          "%s %s", name, verdict);
        }
    }
    json_object *reasons = tu_at(cmp, "gate", "reasons", NULL);
    ck_assert_uint_eq(json_object_array_length(reasons), 1);
    ck_assert_ptr_nonnull(strstr(json_object_get_string(json_object_array_get_idx(reasons, 0)),
                                 "rocprof kernel k3 regressed"));
    json_object_put(cmp);
    tu_result_free(&r);
    /* Two runs of the same payload: nothing changed, the gate passes. */
    r = tu_aorta(NULL, "--compare", "N/A", "N/C", "--fail-above", "5", NULL);
    ck_assert_msg(r.status == 0, "%d %s", r.status, r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "Gate passed.\n"));
    /* The GPU time and the kernels: never regressed (the step time, the
     * machine's load, may move; it is not gated). */
    const char *gpu = strstr(r.out, "  rocprof GPU time: ");
    ck_assert_ptr_nonnull(gpu);
    char *line = strndup(gpu, (size_t)(strstr(gpu, "  step time: ") - gpu));
    ck_assert_ptr_null(strstr(line, "regressed"));
    ck_assert_ptr_null(strstr(line, "improved"));
    free(line);
    tu_result_free(&r);
}
END_TEST

START_TEST(a_candidate_whose_trials_all_failed_fails_the_gate_end_to_end)
{
    sweep_n("A", 1000, 2, "");
    /* B's payload fails every trial: its step time is no sample, never
     * read as faster. */
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: K\ntrials: 2\n"
                          "mitigation_axis: [none, slow]\ndiagnostic_axis: [none]\n"
                          "mitigations:\n  slow: {X: \"1\"}\n"
                          "collect: {rocprof: {trace: \"kernel,hip\"}}\n");
    tu_write("broken.yaml", recipe);
    char *env[] = {path_env, "AORTA_FAKE_KERNELS=10:1000:" ADD "\n", "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "broken.yaml", "--output", "B", "--", "sh", "-c",
                             "exit 1", NULL);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", "A/K", "B/K", "--fail-above", "5", "--allow-mismatch", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "  cell none-none: no trial passed in B (2 failed, 0 "
                                        "errored of 2)\n"));
    ck_assert_ptr_null(strstr(r.out, "improved"));
    tu_result_free(&r);
    free(recipe);
}
END_TEST

START_TEST(two_trials_a_side_give_no_verdict_and_exit_4)
{
    sweep("A", 1000);
    sweep("B", 3000);
    tu_result_t r = tu_aorta(NULL, "--compare", "A/K", "B/K", "--fail-above", "50",
                             "--allow-mismatch", NULL);
    ck_assert_msg(r.status == 4, "%d %s", r.status, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "  rocprof GPU time: 0.011 -> 0.031 ms  inconclusive "
                                        "(n 2 vs 2)"));
    ck_assert_ptr_nonnull(strstr(r.out, "No verdict:\n  cell none-none: 1 headline measure(s) "
                                        "undecided at 2 vs 2 passing trials"));
    ck_assert_ptr_nonnull(strstr(r.out, "; 3 per side would settle them"));
    ck_assert_ptr_null(strstr(r.out, "Gate passed."));
    tu_result_free(&r);
    /* --strict is a spelling of the default; --allow-inconclusive lets it
     * pass with one line. */
    r = tu_aorta(NULL, "--compare", "A/K", "B/K", "--strict", "--allow-mismatch", NULL);
    ck_assert_msg(r.status == 4, "%d %s", r.status, r.err);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", "A/K", "B/K", "--allow-inconclusive", "--allow-mismatch",
                 NULL);
    ck_assert_msg(r.status == 0, "%d %s", r.status, r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "accepted undecided (--allow-inconclusive): "));
    ck_assert_ptr_nonnull(strstr(r.out, "Gate passed.\n"));
    tu_result_free(&r);
}
END_TEST

START_TEST(the_recipe_and_the_command_line_name_the_baseline)
{
    sweep_with("A", 3000, "baseline: slow-none\n");
    char *perf = tu_read("A/K/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "### slow-none (baseline)"));
    free(perf);
    tu_result_t r = tu_aorta(NULL, "--report", "A/K", "--baseline", "none-none", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    perf = tu_read("A/K/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "### none-none (baseline)"));
    ck_assert_ptr_nonnull(strstr(perf, "\xce\x94 against the baseline cell `none-none`"));
    free(perf);
}
END_TEST

START_TEST(report_html_renders_in_a_real_browser)
{
    char *argv0[] = {"sh", "-c", "command -v chromium", NULL};
    char *found = NULL;
    if (tu_run(argv0, NULL, &found, NULL) != 0) {
        free(found);
        exit(77);
    }
    free(found);
    sweep("A", 3000);
    char *url = tu_fmt("file://%s/A/K/report.html", dir);
    char *dump[] = {"chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--dump-dom", url, NULL};
    char *dom = NULL;
    ck_assert_int_eq(tu_run(dump, NULL, &dom, NULL), 0);
    ck_assert_ptr_nonnull(strstr(dom, "none-none"));
    ck_assert_ptr_nonnull(strstr(dom, "slow-none"));
    ck_assert_ptr_nonnull(strstr(dom, "Cijk_gemm"));
    ck_assert_ptr_nonnull(strstr(dom, "vectorized_elementwise_kernel"));
    ck_assert_ptr_nonnull(strstr(dom, "GPU time per cell"));
    char *shot = tu_fmt("--screenshot=%s/shot.png", dir);
    char *screenshot[] = {"chromium", "--headless", "--no-sandbox", "--disable-gpu",
                          shot, "--window-size=1200,900", url, NULL};
    ck_assert_int_eq(tu_run(screenshot, NULL, NULL, NULL), 0);
    char *png = tu_read("shot.png");
    ck_assert_ptr_nonnull(png);
    ck_assert(memcmp(png, "\x89PNG", 4) == 0);
    free(png);
    free(shot);
    free(dom);
    free(url);
}
END_TEST

static Suite *kreport_suite(void)
{
    Suite *suite = suite_create("rocprof_kreport");
    TCase *tc = tcase_create("kreport");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_sweep_keeps_every_table_past_retention_and_reports_it);
    tcase_add_test(tc, compare_names_the_kernel_that_grew_and_exits_3_past_the_threshold);
    tcase_add_test(tc, two_trials_a_side_give_no_verdict_and_exit_4);
    tcase_add_test(tc, a_shift_in_one_kernel_of_five_is_that_kernel_s_alone);
    tcase_add_test(tc, a_candidate_whose_trials_all_failed_fails_the_gate_end_to_end);
    tcase_add_test(tc, the_recipe_and_the_command_line_name_the_baseline);
    tcase_add_test(tc, report_html_renders_in_a_real_browser);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(kreport_suite)
