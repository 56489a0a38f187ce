/* SPDX-License-Identifier: MIT */
/* The rank view (docs/multi-rank.md): a trial's per-rank tables written
 * (schema 3) and aggregated per rank, the slowest rank and the imbalance,
 * each kernel's share of it (the shares add up to the whole), launch
 * mismatches, the forms in matrix.json, perf.md and report.html, and the
 * per-rank measures --compare judges. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "kernels/kernel_agg.h"
#include "kernels/kernel_names.h"
#include "report/rank_html.h"
#include "report/rank_md.h"
#include "kernels/rank_view.h"
#include "compare/verdicts.h"
#include "record/kernel_file.h"
#include "sys/json.h"
#include "testutil.h"
#include "xalloc.h"

static ar_json_t *parse(const char *text)
{
    ar_json_t *json = ar_json_parse(text, strlen(text), 16);
    ck_assert_ptr_nonnull(json);
    return json;
}

/* A table in ms, as the parse reply's reader makes one. */
static aorta_kernels_t *table_of(const char *const *names, const double *ms,
                                 const int64_t *launches, size_t count)
{
    aorta_kernels_t *k = aorta_kernels_new(0);
    for (size_t i = 0; i < count; i++)
        ck_assert_int_eq(aorta_kernels_add(k, names[i], strlen(names[i]), ms[i], launches[i]), 0);
    return k;
}

/* Three ranks over two trials: rank 2 is late because of "halo", which it
 * launches more often; "gemm" is the same everywhere; "io" runs on rank 0
 * alone (0 ms elsewhere). */
static void three_rank_cell(ar_kagg_cell_t *cell)
{
    static const char *const names[] = {"gemm", "halo", "io"};
    static const double ms[3][3] = {{4.0, 1.0, 0.5}, {4.0, 1.0, 0.0}, {4.0, 5.0, 0.0}};
    static const int64_t launches[3][3] = {{8, 4, 1}, {8, 4, 0}, {8, 10, 0}};
    memset(cell, 0, sizeof *cell);
    cell->name = ar_xstrdup("c");
    for (int trial = 0; trial < 2; trial++) {
        ar_json_t *file = ar_kernel_file_new(trial);
        double whole_ms[3] = {12.0, 7.0, 0.5};
        int64_t whole_launches[3] = {24, 18, 1};
        aorta_kernels_t *whole = table_of(names, whole_ms, whole_launches, 3);
        aorta_metrics_t *holder = aorta_metrics_new("r_");
        aorta_metrics_set_kernels(holder, whole, 1.0);
        ar_kernel_file_add(file, "r", aorta_metrics_kernels(holder));
        for (long r = 0; r < 3; r++) {
            aorta_kernels_t *k = table_of(names, ms[r], launches[r], r == 0 ? 3 : 2);
            aorta_metrics_t *m = aorta_metrics_new("r_");
            aorta_metrics_set_kernels(m, k, 1.0);
            ar_kernel_file_add_rank(file, "r", r, aorta_metrics_kernels(m));
            aorta_metrics_free(m);
            aorta_kernels_free(k);
        }
        /* Through the text, as it is written and read back. */
        char *text = ar_json_dump(file, 0);
        ar_json_t *back = parse(text);
        int schema = 0;
        const ar_json_t *collectors = ar_kernel_file_collectors(back, &schema);
        ck_assert_int_eq(schema, 3);
        ar_kagg_add_trial(cell, collectors, schema);
        ar_json_free(back);
        free(text);
        aorta_metrics_free(holder);
        aorta_kernels_free(whole);
        ar_json_free(file);
    }
    ar_kagg_finish(cell);
}

START_TEST(each_ranks_table_travels_in_the_trial_file_and_aggregates_per_rank)
{
    ar_kagg_cell_t cell;
    three_rank_cell(&cell);
    const ar_kagg_table_t *job = ar_kagg_table(&cell, "r");
    ck_assert_uint_eq(job->trials, 2);
    ck_assert_uint_eq(job->rank_count, 3);
    const ar_kagg_table_t *late = ar_kagg_rank_table(job, 2);
    ck_assert_ptr_nonnull(late);
    ck_assert_uint_eq(late->trials, 2);
    ck_assert(fabs(late->gpu_mean_ms - 9.0) < 1e-9);
    ck_assert(fabs(ar_kagg_kernel(late, "halo")->mean_launches - 10.0) < 1e-9);
    ck_assert_ptr_null(ar_kagg_rank_table(job, 3));
    /* The imbalance per trial: 9 - (5.5 + 5 + 9) / 3 = 2.5 ms. */
    ck_assert_uint_eq(job->imbalance_count, 2);
    ck_assert(fabs(job->imbalance_values[0] - 2.5) < 1e-9);
    /* <cell>/kernels.json: the tree and the writer agree, ranks included. */
    ar_json_t *json = ar_kagg_cell_json(&cell);
    char *tree = ar_json_dump(json, 0);
    ar_json_writer_t *writer = ar_json_writer_new();
    ar_kagg_cell_text(&cell, writer);
    size_t len = 0;
    ck_assert_str_eq(ar_json_writer_text(writer, &len), tree);
    ck_assert_ptr_nonnull(strstr(tree, "\"ranks\":[{\"rank\":0,\"trials\":2,\"gpu_time_ms\":"
                                       "{\"mean\":5.5,"));
    ar_json_writer_free(writer);
    free(tree);
    ar_json_free(json);
    ar_kagg_cell_clear(&cell);
}
END_TEST

START_TEST(the_view_finds_the_slowest_rank_and_the_kernel_that_makes_it)
{
    ar_kagg_cell_t cell;
    three_rank_cell(&cell);
    ar_rank_view_t *view = ar_rank_view_new(ar_kagg_table(&cell, "r"));
    ck_assert_ptr_nonnull(view);
    ck_assert_uint_eq(view->count, 3);
    ck_assert_int_eq(view->ranks[view->slowest], 2);
    ck_assert_int_eq(view->ranks[view->fastest], 1);
    ck_assert(fabs(view->mean_ms - 6.5) < 1e-9);
    ck_assert(fabs(view->imbalance_ms - 2.5) < 1e-9);
    ck_assert(fabs(view->imbalance_pct - 100.0 * 2.5 / 6.5) < 1e-9);
    /* halo: 5 on rank 2 against a mean of 7/3: 2.667 ms, more than the
     * whole imbalance; io: 0 against 1/6: a negative share. */
    ck_assert_str_eq(view->kernels[0].name, "halo");
    ck_assert(fabs(view->kernels[0].excess_ms - (5.0 - 7.0 / 3.0)) < 1e-9);
    ck_assert_str_eq(view->kernels[2].name, "io");
    ck_assert(view->kernels[2].share < 0);
    double shares = 0;
    for (size_t i = 0; i < view->kernel_count; i++)
        shares += view->kernels[i].share;
    ck_assert(fabs(shares - 1.0) < 1e-9); /* the shares are the whole imbalance */
    ck_assert_uint_eq(view->mismatches, 2);   /* halo 10 vs 4, io 1 vs 0 */
    char *text = ar_rank_view_mismatch_text(view, &view->kernels[0]);
    ck_assert_str_eq(text, "rank 2 launched 10, rank 0 launched 4");
    free(text);
    ck_assert(!view->kernels[1].mismatch); /* gemm: 8 everywhere */
    ar_json_t *json = ar_rank_view_json(view);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(json, "slowest_rank")), 2);
    const ar_json_t *top = ar_json_at(ar_json_get(json, "kernels"), 0);
    ck_assert_str_eq(ar_json_get_string(ar_json_get(top, "launch_mismatch")),
                     "rank 2 launched 10, rank 0 launched 4");
    ck_assert_uint_eq(ar_json_length(ar_json_get(top, "ms")), 3);
    ar_json_free(json);
    ar_rank_view_free(view);
    ar_kagg_cell_clear(&cell);
}
END_TEST

START_TEST(one_rank_or_none_has_no_view_and_unknown_launches_are_no_mismatch)
{
    ar_kagg_cell_t cell = {.name = ar_xstrdup("c")};
    ar_json_t *one = parse("{\"r\": {\"names\": [\"k\"], \"total_ms\": [1.0], \"launches\": "
                              "[1], \"ranks\": [{\"rank\": 0, \"names\": [\"k\"], \"total_ms\": "
                              "[1.0], \"launches\": [1]}]}}");
    ar_kagg_add_trial(&cell, one, 3);
    ar_kagg_finish(&cell);
    ck_assert_ptr_null(ar_rank_view_new(ar_kagg_table(&cell, "r")));
    ck_assert_ptr_null(ar_rank_views_json(&cell));
    ck_assert_ptr_null(ar_rank_view_new(NULL));
    ar_kagg_cell_clear(&cell);
    ar_json_free(one);
    /* A rank whose collector did not know its launches; a hand-edited
     * entry (no rank) and a rank listed twice are left out. */
    cell = (ar_kagg_cell_t){.name = ar_xstrdup("c")};
    ar_json_t *two = parse(
        "{\"r\": {\"names\": [\"k\"], \"total_ms\": [3.0], \"launches\": [null],"
        " \"ranks\": [{\"rank\": 0, \"names\": [\"k\"], \"total_ms\": [1.0], \"launches\": [1]},"
        " {\"names\": [\"k\"], \"total_ms\": [50.0]},"
        " {\"rank\": 1, \"names\": [\"k\"], \"total_ms\": [2.0], \"launches\": [null]},"
        " {\"rank\": 1, \"names\": [\"k\"], \"total_ms\": [70.0], \"launches\": [9]}]}}");
    ar_kagg_add_trial(&cell, two, 3);
    ar_kagg_finish(&cell);
    ar_rank_view_t *view = ar_rank_view_new(ar_kagg_table(&cell, "r"));
    ck_assert_ptr_nonnull(view);
    ck_assert_uint_eq(view->count, 2);
    ck_assert(fabs(view->gpu_ms[1] - 2.0) < 1e-9);
    ck_assert_uint_eq(view->mismatches, 0);
    ar_rank_view_free(view);
    ar_kagg_cell_clear(&cell);
    ar_json_free(two);
}
END_TEST

static char *render(void (*fn)(FILE *, const ar_kagg_cell_t *, ar_kagg_run_t *,
                               ar_kernel_names_t *),
                    ar_kagg_cell_t *cell)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ar_kagg_run_t run = {.cells = cell, .count = 1};
    ar_kernel_names_t *names = ar_kernel_names_new();
    fn(out, cell, &run, names);
    ar_kernel_names_free(names);
    fclose(out);
    return text;
}

static void md_of(FILE *out, const ar_kagg_cell_t *cell, ar_kagg_run_t *run,
                  ar_kernel_names_t *names)
{
    (void)run;
    ar_rank_md(out, cell, &cell->tables[0], names);
}

static void html_of(FILE *out, const ar_kagg_cell_t *cell, ar_kagg_run_t *run,
                    ar_kernel_names_t *names)
{
    (void)cell;
    ar_rank_html(out, run, "r", names);
}

START_TEST(perf_md_and_report_html_say_who_is_late_and_why)
{
    ar_kagg_cell_t cell;
    three_rank_cell(&cell);
    char *md = render(md_of, &cell);
    ck_assert_ptr_nonnull(strstr(md, "#### Ranks of c \xe2\x80\x94 r\n"));
    ck_assert_ptr_nonnull(strstr(md, "Slowest rank **2**: 9.000 ms of GPU time against a mean "
                                     "of 6.500 ms over 3 ranks (fastest: rank 1, 5.000 ms); "
                                     "imbalance 2.500 ms (38.5%)."));
    ck_assert_ptr_nonnull(strstr(md, "Most of it: `halo` (106.7% of the imbalance"));
    ck_assert_ptr_nonnull(strstr(md, "| 2 (slowest) |"));
    ck_assert_ptr_nonnull(strstr(md, "4\xe2\x80\x93" "10 (differ)"));
    ck_assert_ptr_nonnull(strstr(md, "- `halo`: rank 2 launched 10, rank 0 launched 4\n"));
    char *html = render(html_of, &cell);
    ck_assert_ptr_nonnull(strstr(html, "<h2 class=\"ranks\" id=\"ranks-r\">Ranks: r</h2>"));
    ck_assert_ptr_nonnull(strstr(html, "rank 2 (slowest)"));
    ck_assert_ptr_nonnull(strstr(html, "<tr class=\"slowest\"><td class=\"name\">2</td>"));
    ck_assert_ptr_nonnull(strstr(html, "rank 2 launched 10, rank 0 launched 4"));
    free(md);
    free(html);
    ar_kagg_cell_clear(&cell);
}
END_TEST

START_TEST(many_ranks_show_the_slowest_and_fastest_and_stay_linear)
{
    /* 1,024 ranks, rank 700 late: perf.md lists 12 of them, and the
     * view keeps every rank's figures. */
    ar_kagg_cell_t cell = {.name = ar_xstrdup("big")};
    ar_json_t *entry = ar_json_object();
    ar_json_set(entry, "names", parse("[\"k\"]"));
    ar_json_set(entry, "total_ms", parse("[1.0]"));
    ar_json_set(entry, "launches", parse("[1]"));
    ar_json_t *ranks = ar_json_array();
    for (int r = 0; r < 1024; r++) {
        char text[160];
        snprintf(text, sizeof text,
                 "{\"rank\": %d, \"names\": [\"k\"], \"total_ms\": [%s], \"launches\": [1]}", r,
                 r == 700 ? "4.0" : "1.0");
        ar_json_append(ranks, parse(text));
    }
    ar_json_set(entry, "ranks", ranks);
    ar_json_t *collectors = ar_json_object();
    ar_json_set(collectors, "r", entry);
    ar_kagg_add_trial(&cell, collectors, 3);
    ar_kagg_finish(&cell);
    ar_rank_view_t *view = ar_rank_view_new(ar_kagg_table(&cell, "r"));
    ck_assert_uint_eq(view->count, 1024);
    ck_assert_int_eq(view->ranks[view->slowest], 700);
    ar_rank_view_free(view);
    char *md = render(md_of, &cell);
    ck_assert_ptr_nonnull(strstr(md, "| 700 (slowest) |"));
    ck_assert_ptr_nonnull(strstr(md, "(1012 more)"));
    free(md);
    ar_json_free(collectors);
    ar_kagg_cell_clear(&cell);
}
END_TEST

START_TEST(compare_judges_each_ranks_time_and_the_imbalance_ungated)
{
    ar_kagg_cell_t a, b;
    three_rank_cell(&a);
    three_rank_cell(&b);
    ar_measures_t set = {0};
    ar_measures_add_ranks(&set, "c", ar_kagg_table(&a, "r"), ar_kagg_table(&b, "r"));
    ck_assert_uint_eq(set.count, 4); /* the imbalance, then ranks 0, 1, 2 */
    ck_assert_str_eq(set.items[0].measure, "rank_imbalance_ms");
    ck_assert_int_eq(set.items[0].rank, -1);
    ck_assert_str_eq(set.items[3].measure, "rank_gpu_time_ms");
    ck_assert_int_eq(set.items[3].rank, 2);
    ck_assert_str_eq(set.items[3].family, "ranks:c/r");
    for (size_t i = 0; i < set.count; i++)
        ck_assert(!set.items[i].gated);
    ar_stats_options_t options = AR_STATS_OPTIONS_INIT;
    char *error = NULL;
    ck_assert_int_eq(ar_measures_judge(&set, &options, &error), 0);
    ar_json_t *json = ar_measure_json(&set.items[3]);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(json, "rank")), 2);
    ar_json_free(json);
    json = ar_measure_json(&set.items[0]);
    ck_assert(!ar_json_has(json, "rank"));
    ar_json_free(json);
    ar_measures_clear(&set);
    ar_kagg_cell_clear(&a);
    ar_kagg_cell_clear(&b);
}
END_TEST

static Suite *rank_view_suite(void)
{
    Suite *suite = suite_create("rank_view");
    TCase *tc = tcase_create("rank_view");
    tcase_add_test(tc, each_ranks_table_travels_in_the_trial_file_and_aggregates_per_rank);
    tcase_add_test(tc, the_view_finds_the_slowest_rank_and_the_kernel_that_makes_it);
    tcase_add_test(tc, one_rank_or_none_has_no_view_and_unknown_launches_are_no_mismatch);
    tcase_add_test(tc, perf_md_and_report_html_say_who_is_late_and_why);
    tcase_add_test(tc, many_ranks_show_the_slowest_and_fastest_and_stay_linear);
    tcase_add_test(tc, compare_judges_each_ranks_time_and_the_imbalance_ungated);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(rank_view_suite)
