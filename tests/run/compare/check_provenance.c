/* SPDX-License-Identifier: MIT */
/* Comparable or not, end to end: a run records its provenance in
 * matrix.json; --compare lists what differs between two runs, judges runs
 * of different commands (two builds are what people compare), calls the
 * measures of a cell whose variables differ, or of other chosen ranks,
 * incomparable and does not gate them unless --allow-mismatch; a third
 * party's declared metrics (ABI 1.2,
 * tests/fake-collectors/declared.c) are judged by their direction and
 * gated, an undirected one compared only; report.html shows them (headless
 * Chromium, 77 without it). */
#include "config.h"

#include <check.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeptest.h"
#include "testutil.h"

static char *dir, *plugins;

static void setup(void)
{
    dir = tu_tmpdir();
    ck_assert_int_eq(chdir(dir), 0);
    plugins = tu_builddir("tests/fake-collectors/declared");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(plugins);
}

/* The payload writes the collector's numbers: RATE (from the cell, else
 * aorta-run's environment) give or take a little per trial. */
#define PAYLOAD "echo \"$((RATE + $$ % 5)) $((1000 + $$ % 7)) $(($$ % 3))\" > \"$DECLARED_OUT/numbers\""

/* A run of six trials a cell into out/TICKET; tail is appended to the
 * payload's script (another command when it differs). */
static void run(const char *ticket, const char *rate, const char *tail, const char *cells)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: %s\ntrials: 6\n%s"
                          "diagnostic_axis: [none]\ncollect: {declared: {}}\n",
                          ticket, cells);
    tu_write("r.yaml", recipe);
    char *env_rate = tu_fmt("RATE=%s", rate);
    char *script = tu_fmt("%s%s", PAYLOAD, tail);
    char *env[] = {env_rate, NULL};
    tu_result_t r = tu_aorta(env, "--plugin-dir", plugins, "--recipe", "r.yaml", "--output",
                             "out", "-q", "--", "sh", "-c", script, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    free(script);
    free(env_rate);
    free(recipe);
}

#define ONE_CELL "mitigation_axis: [none]\n"

START_TEST(a_run_records_what_it_ran_with)
{
    run("A", "100", "", "mitigation_axis: [none, slow]\nmitigations:\n  slow: {RATE: \"80\"}\n");
    json_object *matrix = tu_json("out/A/matrix.json");
    ck_assert_str_eq(tu_str(matrix, "provenance", "command", "0", NULL), "sh");
    ck_assert_str_eq(tu_str(matrix, "provenance", "cells", "slow-none", "RATE", NULL), "80");
    ck_assert_str_eq(tu_str(matrix, "provenance", "collectors", "declared", "version", NULL),
                     "1.0");
    ck_assert_str_eq(tu_str(matrix, "provenance", "collectors", "declared", "metrics",
                            "declared_rate", "better", NULL),
                     "higher");
    ck_assert_str_eq(tu_str(matrix, "provenance", "profiler", "program", NULL), "env");
    /* Versions that cannot be read are unknown, never an error. */
    ck_assert_ptr_null(tu_at(matrix, "provenance", "triton_version", NULL));
    ck_assert_ptr_nonnull(tu_at(matrix, "provenance", "gpu", NULL));
    /* The cell's own verdicts: the declared rate fell 20%. */
    json_object *measures = tu_at(matrix, "cells", "1", "vs_baseline", NULL);
    int rate = 0, colour = 0;
    for (size_t i = 0; i < json_object_array_length(measures); i++) {
        json_object *m = json_object_array_get_idx(measures, i);
        const char *name = json_object_get_string(tu_at(m, "measure", NULL));
        const char *verdict = json_object_get_string(tu_at(m, "verdict", NULL));
        int gated = json_object_get_boolean(tu_at(m, "gated", NULL));
        if (!strcmp(name, "declared_rate")) {
            rate = 1;
            ck_assert_str_eq(verdict, "regressed");
            ck_assert(gated);
        } else if (!strcmp(name, "declared_colour")) {
            colour = 1;
            ck_assert(!gated);
        }
    }
    ck_assert(rate && colour);
    char *perf = tu_read("out/A/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "| slow-none | declared_rate"));
    /* The title names the command; the timestamp is ISO 8601, in UTC. */
    ck_assert_msg(!strncmp(perf, "# Performance Report - `sh ", 27), "%s", perf);
    const char *stamp = strstr(perf, "**Run timestamp**: ");
    ck_assert_ptr_nonnull(stamp);
    stamp += strlen("**Run timestamp**: ");
    ck_assert_msg(stamp[13] == ':' && stamp[16] == ':' && stamp[19] == 'Z', "%.30s", stamp);
    free(perf);
    char *html = tu_read("out/A/report.html");
    ck_assert_ptr_nonnull(strstr(html, "<title>aorta report: sh "));
    /* A collector that reports only metrics is visible: every cell's. */
    const char *table = strstr(html, "<h2>Workload metrics (mean across trials)</h2>");
    ck_assert_ptr_nonnull(table);
    ck_assert_ptr_nonnull(strstr(table, "<th>declared_rate</th>"));
    ck_assert_ptr_nonnull(strstr(table, "<tr><td class=\"name\">none-none (baseline)</td><td>"));
    ck_assert_ptr_nonnull(strstr(table, "<tr><td class=\"name\">slow-none</td><td>"));
    free(html);
    /* --report --baseline labels that cell the baseline throughout perf.md. */
    tu_result_t r = tu_aorta(NULL, "--report", "out/A", "--baseline", "slow-none", NULL);
    ck_assert_msg(r.status == 0, "%d %s", r.status, r.err);
    tu_result_free(&r);
    perf = tu_read("out/A/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "**Baseline cell**: slow-none (chosen with --report "
                                       "--baseline; the run's was none-none)"));
    ck_assert_ptr_nonnull(strstr(perf, "| slow-none (baseline) |"));
    ck_assert_msg(strstr(perf, "none-none (baseline)") == NULL, "%s", perf);
    ck_assert_ptr_nonnull(strstr(perf, "against its baseline none-none"));
    free(perf);
    json_object_put(matrix);
}
END_TEST

START_TEST(a_higher_is_better_metric_that_falls_regressed)
{
    run("A", "100", "", ONE_CELL);
    run("B", "80", "", ONE_CELL);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--fail-above", "5", "--all",
                             NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "  cell none-none: declared_rate regressed -"));
    /* Lower memory is no regression, and a number with no direction is
     * compared and shown (with --all, unchanged as it is), never gated,
     * labelled so rather than inconclusive. */
    ck_assert_ptr_null(strstr(r.out, "cell none-none: declared_rss_kb"));
    ck_assert_ptr_null(strstr(r.out, "cell none-none: declared_colour"));
    ck_assert_ptr_nonnull(strstr(r.out, "  declared_colour: "));
    const char *colour = strstr(r.out, "  declared_colour: ");
    const char *label = strstr(colour, "  not gated ");
    ck_assert_msg(label && label < strchr(colour, '\n'), "%s", colour);
    ck_assert_msg(strstr(r.out, "  exit_code: 0.000 -> 0.000  ") != NULL, "%s", r.out);
    tu_result_free(&r);
    /* Without --all, a row that is not gated and did not change (the exit
     * code, 0 in every trial) is left out. */
    r = tu_aorta(NULL, "--compare", "out/A", "out/B", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.out);
    ck_assert_ptr_null(strstr(r.out, "  exit_code: "));
    ck_assert_ptr_nonnull(strstr(r.out, "not gated and unchanged; --all shows them)\n"));
    tu_result_free(&r);
}
END_TEST

/* Two builds at two paths, or other arguments, are what people compare:
 * the command's difference is shown, and the measures judged. */
START_TEST(runs_of_different_commands_are_shown_and_judged)
{
    run("A", "100", "", ONE_CELL);
    run("B", "80", "; true", ONE_CELL);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--fail-above", "5", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "Not the same request (provenance):\n  command: A "));
    ck_assert_ptr_null(strstr(r.out, "incomparable"));
    ck_assert_ptr_nonnull(strstr(r.out, "cell none-none: declared_rate regressed"));
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--json", NULL);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    ck_assert_str_eq(tu_str(cmp, "mismatches", "0", "what", NULL), "command");
    ck_assert(!json_object_get_boolean(tu_at(cmp, "mismatches", "0", "incomparable", NULL)));
    json_object_put(cmp);
    tu_result_free(&r);
}
END_TEST

/* A cell whose variables differ between the runs measures something else:
 * its measures are incomparable unless --allow-mismatch; the other cells
 * are judged. */
START_TEST(a_cell_of_other_variables_is_incomparable_unless_allowed)
{
    run("A", "100", "", "mitigation_axis: [none, slow]\nmitigations:\n  slow: {RATE: \"80\"}\n");
    run("B", "100", "", "mitigation_axis: [none, slow]\nmitigations:\n  slow: {RATE: \"60\"}\n");
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--json", NULL);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    ck_assert_str_eq(tu_str(cmp, "mismatches", "0", "what", NULL), "cell slow-none variables");
    ck_assert_str_eq(tu_str(cmp, "mismatches", "0", "cell", NULL), "slow-none");
    for (size_t c = 0; c < 2; c++) {
        json_object *cell = json_object_array_get_idx(tu_at(cmp, "cells", NULL), c);
        const char *name = tu_str(cell, "name", NULL);
        json_object *measures = tu_at(cell, "measures", NULL);
        for (size_t m = 0; m < json_object_array_length(measures); m++) {
            const char *verdict = tu_str(json_object_array_get_idx(measures, m), "verdict", NULL);
            ck_assert_msg(!strcmp(name, "slow-none") == !strcmp(verdict, "incomparable"),
                          "%s: %s", name, verdict);
        }
    }
    json_object_put(cmp);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--compare", "out/A", "out/B", "--allow-mismatch", NULL);
    ck_assert_msg(r.status == 3, "%d %s", r.status, r.out);
    ck_assert_ptr_nonnull(strstr(r.out, "(compared anyway: --allow-mismatch)"));
    ck_assert_ptr_nonnull(strstr(r.out, "cell slow-none: declared_rate regressed"));
    tu_result_free(&r);
}
END_TEST

/* Other ranks profiled: the merged figures sum other processes, so the
 * measures are incomparable too (ranks_profiled is in the provenance only
 * when ranks were chosen). */
START_TEST(runs_of_other_chosen_ranks_are_incomparable)
{
    run("A", "100", "", ONE_CELL);
    run("C", "100", "", ONE_CELL "ranks: [0, 1]\n");
    json_object *matrix = tu_json("out/C/matrix.json");
    ck_assert_int_eq(json_object_get_int(tu_at(matrix, "provenance", "ranks_profiled", "1",
                                               NULL)),
                     1);
    json_object_put(matrix);
    tu_result_t r = tu_aorta(NULL, "--compare", "out/A", "out/C", "--json", NULL);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    ck_assert_str_eq(tu_str(cmp, "mismatches", "0", "what", NULL), "ranks profiled");
    ck_assert(json_object_get_boolean(tu_at(cmp, "mismatches", "0", "incomparable", NULL)));
    ck_assert_ptr_null(tu_at(cmp, "mismatches", "1", NULL));
    json_object_put(cmp);
    tu_result_free(&r);
}
END_TEST

START_TEST(report_html_shows_third_party_metrics_in_a_real_browser)
{
    char *argv0[] = {"sh", "-c", "command -v chromium", NULL};
    char *found = NULL;
    if (tu_run(argv0, NULL, &found, NULL) != 0) {
        free(found);
        exit(77);
    }
    free(found);
    run("A", "100", "", "mitigation_axis: [none, slow]\nmitigations:\n  slow: {RATE: \"80\"}\n");
    char *url = tu_fmt("file://%s/out/A/report.html", dir);
    char *dump[] = {"chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--dump-dom", url, NULL};
    char *dom = NULL;
    ck_assert_int_eq(tu_run(dump, NULL, &dom, NULL), 0);
    ck_assert_ptr_nonnull(strstr(dom, "Against the baseline"));
    ck_assert_ptr_nonnull(strstr(dom, "Workload metrics (mean across trials)"));
    ck_assert_ptr_nonnull(strstr(dom, "<th>declared_rss_kb</th>"));
    ck_assert_ptr_nonnull(strstr(dom, "<td class=\"name\">declared_rate</td>"));
    ck_assert_ptr_nonnull(strstr(dom, "class=\"v-regressed\""));
    ck_assert_ptr_nonnull(strstr(dom, "declared_colour <small>(not gated)</small>"));
    free(dom);
    free(url);
}
END_TEST

START_TEST(describe_lists_the_declared_metrics_and_a_row_that_declares_nothing)
{
    tu_result_t r = tu_aorta(NULL, "--plugin-dir", plugins, "--describe", "declared", NULL);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "  declared_rate (items/s): higher is better\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "  declared_colour: none: compared and shown, never gated"));
    tu_result_free(&r);
    char *bad = tu_builddir("tests/fake-collectors/badrow");
    r = tu_aorta(NULL, "--plugin-dir", bad, "--describe", "declared", NULL);
    ck_assert_ptr_nonnull(strstr(r.out, "  row 3: declares nothing: "));
    /* Opening it warns once for the row; the checker fails it. */
    ck_assert_ptr_nonnull(strstr(r.err, "aorta-run: warning: declared: metric row 3 "));
    ck_assert_ptr_nonnull(strstr(r.err, "that metric is compared and shown, never gated\n"));
    tu_result_free(&r);
    r = tu_aorta(NULL, "--plugin-dir", bad, "--check-collector", "declared", NULL);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.out, "FAIL metrics: metric row 3 "));
    tu_result_free(&r);
    free(bad);
}
END_TEST

static Suite *provenance_suite(void)
{
    Suite *s = suite_create("provenance");
    TCase *tc = tcase_create("provenance");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_run_records_what_it_ran_with);
    tcase_add_test(tc, a_higher_is_better_metric_that_falls_regressed);
    tcase_add_test(tc, runs_of_different_commands_are_shown_and_judged);
    tcase_add_test(tc, a_cell_of_other_variables_is_incomparable_unless_allowed);
    tcase_add_test(tc, runs_of_other_chosen_ranks_are_incomparable);
    tcase_add_test(tc, report_html_shows_third_party_metrics_in_a_real_browser);
    tcase_add_test(tc, describe_lists_the_declared_metrics_and_a_row_that_declares_nothing);
    suite_add_tcase(s, tc);
    return s;
}

AORTA_CHECK_MAIN(provenance_suite)
