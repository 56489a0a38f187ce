/* SPDX-License-Identifier: MIT */
/* Kernel tables: the SDK's table in the sink and the parse reply, the
 * per-cell aggregation (ties, kernels missing in some trials, no NaN),
 * demangling and shortening of names from the fixtures' captures, and the
 * run-to-run comparison (added, removed, changed, the threshold). */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "compare/compare.h"
#include "kernels/demangle.h"
#include "sys/json.h"
#include "kernels/kernel_agg.h"
#include "record/kernel_file.h"
#include "report/kernel_md.h"
#include "record/metrics_json.h"
#include "record/parse_reply.h"
#include "testutil.h"
#include "xalloc.h"

static ar_json_t *parse(const char *text)
{
    ar_json_t *json = ar_json_parse(text, strlen(text), 16);
    ck_assert_ptr_nonnull(json);
    return json;
}

START_TEST(the_report_attaches_the_whole_table_without_new_metrics)
{
    aorta_kernels_t *k = aorta_kernels_new(0);
    for (int i = 0; i < 8; i++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        aorta_kernels_add(k, name, strlen(name), 1e6 * (i + 1), i == 3 ? -1 : 2);
    }
    aorta_metrics_t *m = aorta_metrics_new("c_");
    ck_assert_int_eq(aorta_kernels_report(k, m, "c", 1e6, NULL), 0);
    ck_assert_uint_eq(aorta_metrics_count(m), 3); /* gpu_time, top_kernel_ms, top_kernels */
    const aorta_kernels_t *table = aorta_metrics_kernels(m);
    ck_assert_ptr_nonnull(table);
    ck_assert_uint_eq(aorta_kernels_count(table), 8);
    ck_assert_str_eq(aorta_kernels_name_at(table, 7, NULL), "k7");
    ck_assert(fabs(aorta_kernels_time_at(table, 7) - 8.0) < 1e-12); /* in ms */
    ck_assert_int_eq(aorta_kernels_launches_at(table, 3), -1);
    ck_assert_int_eq(aorta_kernels_launches_at(table, 2), 2);
    ck_assert_int_eq(aorta_metrics_set_kernels(m, k, 0), -1);
    ck_assert_int_eq(aorta_metrics_set_kernels(NULL, k, 1), -1);
    ck_assert_ptr_null(aorta_metrics_kernels(NULL));

    /* Through the parse reply and back. */
    ar_json_t *reply = ar_parse_reply_to_json(m);
    aorta_metrics_t *back = aorta_metrics_new("c_");
    ck_assert_int_eq(ar_parse_reply_from_json(back, reply), 0);
    ck_assert_uint_eq(aorta_metrics_count(back), 3);
    table = aorta_metrics_kernels(back);
    ck_assert_uint_eq(aorta_kernels_count(table), 8);
    ck_assert_int_eq(aorta_kernels_launches_at(table, 3), -1);
    ck_assert(fabs(aorta_kernels_time_at(table, 0) - 1.0) < 1e-12);
    ar_json_free(reply);
    aorta_metrics_free(back);

    /* A reply whose table is not rows of three is unreadable. */
    ar_json_t *bad = parse("{\"metrics\": {}, \"kernels\": [[\"x\", -1, null]]}");
    back = aorta_metrics_new("c_");
    ck_assert_int_eq(ar_parse_reply_from_json(back, bad), -1);
    ar_json_free(bad);
    aorta_metrics_free(back);
    aorta_metrics_free(m);
    aorta_kernels_free(k);
}
END_TEST

/* The child's reply is a head line and a row a line; it reads back to the
 * tree's reply, and anything else in its place is refused. */
static int read_text(const char *text)
{
    aorta_metrics_t *m = aorta_metrics_new("c_");
    int status = ar_parse_reply_read(m, text, strlen(text));
    aorta_metrics_free(m);
    return status;
}

START_TEST(a_reply_past_its_limit_cuts_the_table_and_keeps_the_metrics)
{
    /* 2,000 kernels of long names; a limit that holds a few hundred rows. */
    aorta_kernels_t *k = aorta_kernels_new(0);
    for (int i = 0; i < 2000; i++) {
        char name[96];
        snprintf(name, sizeof name, "kernel_with_a_long_templated_name_%04d<float, 128, 64>", i);
        aorta_kernels_add(k, name, strlen(name), 1000.0 * (i + 1), 1);
    }
    aorta_metrics_t *m = aorta_metrics_new("c_");
    ck_assert_int_eq(aorta_kernels_report(k, m, "c", 1e6, NULL), 0);
    size_t whole_len, len;
    char *whole = ar_parse_reply_text(m, 0, &whole_len);
    char *text = ar_parse_reply_text(m, 32768, &len);
    ck_assert_uint_le(len, 32768);
    ck_assert_uint_lt(len, whole_len);
    int64_t kept = 0;
    ck_assert_int_eq(ar_parse_reply_rows_cut(whole, whole_len, &kept), 0);
    ck_assert_int_eq(ar_parse_reply_rows_cut(text, len, &kept), 2000);
    ck_assert(kept > 100 && kept < 2000);
    /* It reads back: the five metrics whole, the table cut to its rows. */
    aorta_metrics_t *back = aorta_metrics_new("c_");
    ck_assert_int_eq(ar_parse_reply_read(back, text, len), 0);
    ar_json_t *metrics = ar_metrics_to_json(back), *all = ar_metrics_to_json(m);
    char *a = ar_json_dump(metrics, 0), *b = ar_json_dump(all, 0);
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strstr(a, "\"c_kernel_count\":2000"));
    ck_assert_uint_eq(aorta_kernels_count(aorta_metrics_kernels(back)), (size_t)kept);
    free(a);
    free(b);
    ar_json_free(metrics);
    ar_json_free(all);
    aorta_metrics_free(back);
    free(text);
    free(whole);
    aorta_metrics_free(m);
    aorta_kernels_free(k);
}
END_TEST

/* One kernel name longer than the whole 16 MiB reply (the probe's) cost
 * every metric of the trial: it sat in <c>_top_kernels, so the head line
 * alone passed the limit.  It is cut now (its start, "...#" and its hash,
 * so two such names stay two), everywhere the reply and the records carry
 * it, and the other kernels and metrics stay whole. */
START_TEST(an_over_long_kernel_name_is_cut_with_its_hash_and_the_rest_stays)
{
    size_t huge = (size_t)17 << 20;
    char *name = ar_xmalloc(huge + 1);
    memset(name, 'k', huge);
    name[huge] = '\0';
    aorta_kernels_t *k = aorta_kernels_new(0);
    aorta_kernels_add(k, name, huge, 2e6, 1);
    name[huge - 1] = 'j'; /* another name with the same start */
    aorta_kernels_add(k, name, huge, 1.5e6, 1);
    aorta_kernels_add(k, "small", 5, 1e6, 3);
    aorta_metrics_t *m = aorta_metrics_new("c_");
    ck_assert_int_eq(aorta_kernels_report(k, m, "c", 1e6, NULL), 0);
    size_t len;
    char *text = ar_parse_reply_text(m, (16u << 20) - 1, &len);
    ck_assert_uint_lt(len, (size_t)1 << 20);
    aorta_metrics_t *back = aorta_metrics_new("c_");
    ck_assert_int_eq(ar_parse_reply_read(back, text, len), 0);
    const aorta_kernels_t *table = aorta_metrics_kernels(back);
    ck_assert_uint_eq(aorta_kernels_count(table), 3);
    const char *first = aorta_kernels_name_at(table, 0, NULL);
    const char *second = aorta_kernels_name_at(table, 1, NULL);
    ck_assert_uint_le(strlen(first), AR_METRIC_TEXT_MAX);
    ck_assert_int_eq(strncmp(first, name, 1000), 0);
    ck_assert_ptr_nonnull(strstr(first, "...#"));
    ck_assert_str_ne(first, second);
    ck_assert_str_eq(aorta_kernels_name_at(table, 2, NULL), "small");
    ar_json_t *metrics = ar_metrics_to_json(back);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(metrics, "c_kernel_count")), 5);
    const ar_json_t *top = ar_json_get(metrics, "c_top_kernels");
    ck_assert_uint_eq(ar_json_length(top), 3);
    ck_assert_str_eq(ar_json_get_string(ar_json_at(top, 0)), first);
    ar_json_free(metrics);
    aorta_metrics_free(back);
    free(text);
    aorta_metrics_free(m);
    aorta_kernels_free(k);
    free(name);
}
END_TEST

START_TEST(the_reply_travels_a_row_a_line_and_reads_back_the_same)
{
    aorta_kernels_t *k = aorta_kernels_new(0);
    const char *odd = "a\nb \"q\"";
    aorta_kernels_add(k, odd, strlen(odd), 1e6, 2);
    aorta_kernels_add(k, "k1", 2, 2.5e6, -1);
    aorta_metrics_t *m = aorta_metrics_new("c_");
    ck_assert_int_eq(aorta_kernels_report(k, m, "c", 1e6, NULL), 0);
    size_t len;
    char *text = ar_parse_reply_text(m, 0, &len);
    ck_assert_uint_eq(len, strlen(text));
    /* The head, then two rows: a name's newline is escaped, never raw. */
    const char *second = strchr(text, '\n') + 1;
    ck_assert_str_eq(second, "[\"a\\nb \\\"q\\\"\",1.0,2]\n[\"k1\",2.5,null]\n");
    ck_assert_ptr_nonnull(strstr(text, "\"rows\":2}\n"));
    aorta_metrics_t *back = aorta_metrics_new("c_");
    ck_assert_int_eq(ar_parse_reply_read(back, text, len), 0);
    ar_json_t *tree = ar_parse_reply_to_json(m);
    ar_json_t *again = ar_parse_reply_to_json(back);
    char *a = ar_json_dump(tree, 0), *b = ar_json_dump(again, 0);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    ar_json_free(tree);
    ar_json_free(again);
    aorta_metrics_free(back);

    /* Cut anywhere, it is refused; a row more or less than the head says too. */
    for (size_t cut = 0; cut < len; cut++) {
        back = aorta_metrics_new("c_");
        ck_assert_int_eq(ar_parse_reply_read(back, text, cut), -1);
        aorta_metrics_free(back);
    }
    free(text);
    ck_assert_int_eq(read_text("{\"metrics\":{}}\n"), 0);
    ck_assert_int_eq(read_text("{\"metrics\":{},\"rows\":0}\n"), 0);
    ck_assert_int_eq(read_text("{\"metrics\":{}}\n[\"x\",1.0,1]\n"), -1);
    ck_assert_int_eq(read_text("{\"metrics\":{},\"rows\":1}\n"), -1);
    ck_assert_int_eq(read_text("{\"metrics\":{},\"rows\":1}\n[\"x\",1.0,1]\n[\"y\",1.0,1]\n"),
                     -1);
    ck_assert_int_eq(read_text("{\"metrics\":{},\"rows\":1}\n[\"x\",-1,1]\n"), -1);
    ck_assert_int_eq(read_text("{\"metrics\":{},\"rows\":1}\n[\"x\",1.0,1.5]\n"), -1);
    ck_assert_int_eq(read_text("{\"metrics\":{},\"rows\":-1}\n"), -1);
    ck_assert_int_eq(read_text("{\"metrics\":{},\"rows\":null}\n"), -1);
    ck_assert_int_eq(read_text("{\"metrics\":{},\"rows\":1}\n[\"x\",1.0,1]\n"), 0);
    aorta_metrics_free(m);
    aorta_kernels_free(k);
}
END_TEST

/* A trial of n metrics costs n log n look-ups, not n^2 (the probe's 20,000
 * metrics took minutes): 200,000 metrics in two trials, each in its own
 * series, under a CPU limit that the linear search (about 70 s here) runs
 * past and the index (well under a second) never nears. */
#define MANY_METRICS 200000
START_TEST(a_trial_of_many_metrics_is_aggregated_in_near_linear_time)
{
    struct rlimit cpu = {30, 31};
    ck_assert_int_eq(setrlimit(RLIMIT_CPU, &cpu), 0); /* this test's own child */
    ar_json_t *metrics = ar_json_object();
    for (int i = 0; i < MANY_METRICS; i++) {
        char name[32];
        snprintf(name, sizeof name, "x_metric_%d", i);
        ar_json_set(metrics, name, ar_json_int(i));
    }
    ar_kagg_cell_t cell = {.name = strdup("c")};
    ar_kagg_add_passing(&cell, 1.0, metrics);
    ar_kagg_add_passing(&cell, 2.0, metrics);
    ck_assert_uint_eq(cell.metric_count, MANY_METRICS);
    for (int i = 0; i < MANY_METRICS; i += 997) {
        char name[32];
        snprintf(name, sizeof name, "x_metric_%d", i);
        const ar_kagg_series_t *series = ar_kagg_metric(&cell, name);
        ck_assert_ptr_nonnull(series);
        ck_assert_str_eq(series->name, name);
        ck_assert_uint_eq(series->count, 2);
        ck_assert(series->values[0] == i && series->values[1] == i);
    }
    ck_assert_ptr_null(ar_kagg_metric(&cell, "x_metric_-1"));
    ar_kagg_cell_clear(&cell);
    ar_json_free(metrics);
}
END_TEST

START_TEST(aggregation_counts_missing_kernels_as_zero_and_keeps_ties_in_order)
{
    ar_kagg_cell_t cell = {.name = strdup("c")};
    ar_json_t *t0 = parse("{\"r\": {\"kernels\": {\"b\": [2.0, 4], \"a\": [2.0, 2],"
                             " \"only0\": [3.0, null]}}}");
    ar_json_t *t1 = parse("{\"r\": {\"kernels\": {\"a\": [2.0, 2], \"b\": [2.0, 4],"
                             " \"nan\": [\"x\", 1]}}}");
    ar_kagg_add_trial(&cell, t0, 1);
    ar_kagg_add_trial(&cell, t1, 1);
    ar_kagg_finish(&cell);
    const ar_kagg_table_t *table = ar_kagg_table(&cell, "r");
    ck_assert_uint_eq(table->trials, 2);
    ck_assert_uint_eq(table->count, 3); /* the unreadable row is skipped */
    /* only0: 3 ms in one of two trials = 1.5 mean, min 0; b and a tie at 2.0:
     * first-seen order (b first). */
    const ar_kagg_kernel_t *first = &table->kernels[table->order[0]];
    ck_assert_str_eq(first->name, "b");
    ck_assert_str_eq(table->kernels[table->order[1]].name, "a");
    const ar_kagg_kernel_t *only = ar_kagg_kernel(table, "only0");
    ck_assert(fabs(only->mean_ms - 1.5) < 1e-12);
    ck_assert(only->min_ms == 0.0 && only->max_ms == 3.0);
    ck_assert_uint_eq(only->trials, 1);
    ck_assert(only->mean_launches < 0);
    ck_assert(fabs(ar_kagg_kernel(table, "b")->mean_launches - 4.0) < 1e-12);
    ck_assert(fabs(table->gpu_mean_ms - 5.5) < 1e-12);
    ck_assert(table->gpu_min == 4.0 && table->gpu_max == 7.0);
    ck_assert(isfinite(table->gpu_std_ms));
    /* The cell's JSON never holds a NaN (json-c would write "NaN"). */
    ar_json_t *json = ar_kagg_cell_json(&cell);
    char *text = ar_json_dump(json, 0);
    ck_assert_ptr_null(strstr(text, "NaN"));
    ck_assert_ptr_nonnull(strstr(text, "\"schema_version\":1"));
    free(text);
    ar_json_free(json);
    ar_json_free(t0);
    ar_json_free(t1);
    ar_kagg_cell_clear(&cell);
}
END_TEST

/* Names that differ only in invalid UTF-8 bytes are written as one name
 * (U+FFFD for each such byte), so they are one name from the first read on:
 * the parse reply sums them at once, a trial's table keeps its first row,
 * and a second read changes nothing (fuzz finding, kernel_tables). */
START_TEST(names_differing_only_in_invalid_bytes_are_one_name_from_the_first_read)
{
    ar_json_t *reply = parse("{\"metrics\":{},\"kernels\":[[\"\x88\",1,1],[\"\xbd\",2,1]]}");
    ck_assert_ptr_nonnull(reply);
    aorta_metrics_t *metrics = aorta_metrics_new("rocprof_");
    ck_assert_int_eq(ar_parse_reply_from_json(metrics, reply), 0);
    const aorta_kernels_t *kernels = aorta_metrics_kernels(metrics);
    ck_assert_uint_eq(aorta_kernels_count(kernels), 1);
    ck_assert_str_eq(aorta_kernels_name_at(kernels, 0, NULL), "\xef\xbf\xbd");
    ck_assert(aorta_kernels_time_at(kernels, 0) == 3.0);
    ck_assert_int_eq(aorta_kernels_launches_at(kernels, 0), 2);
    aorta_metrics_free(metrics);
    ar_json_free(reply);
    ar_kagg_cell_t cell = {.name = strdup("c")};
    ar_json_t *t0 = parse("{\"r\": {\"names\": [\"a\x88\", \"a\xbd\"], \"total_ms\": [1.0, 2.0],"
                             " \"launches\": [1, 1]}}");
    ar_kagg_add_trial(&cell, t0, 2);
    ar_kagg_finish(&cell);
    const ar_kagg_table_t *table = ar_kagg_table(&cell, "r");
    ck_assert_uint_eq(table->count, 1);
    ck_assert_str_eq(table->kernels[0].name, "a\xef\xbf\xbd");
    ck_assert(table->kernels[0].mean_ms == 1.0);
    ar_json_free(t0);
    ar_kagg_cell_clear(&cell);
}
END_TEST

/* A demangler bomb: parameter k is B<P, P> of parameter k - 1 through a
 * back-reference, so levels levels demangle to about 13 * 2^levels
 * characters. */
static char *bomb_name(int levels)
{
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    char *name = ar_xstrdup("_Z1f1A");
    for (int k = 1; k <= levels; k++) {
        int id = 2 * k - 2;
        char ref[16];
        if (id == 0)
            snprintf(ref, sizeof ref, "S_");
        else if (id - 1 < 36)
            snprintf(ref, sizeof ref, "S%c_", digits[id - 1]);
        else
            snprintf(ref, sizeof ref, "S%c%c_", digits[(id - 1) / 36], digits[(id - 1) % 36]);
        char *next = ar_xasprintf("%s1BI%s%sE", name, ref, ref);
        free(name);
        name = next;
    }
    return name;
}

typedef struct {
    const char *name;
    char *shown;
} display_t;

static void display(void *user)
{
    display_t *d = user;
    d->shown = ar_kernel_display(d->name);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(a_demangler_bomb_is_shown_raw_quickly_with_one_note)
{
    /* A few levels demangle as ever, in process. */
    char *small = bomb_name(2);
    char *text = ar_kernel_display(small);
    ck_assert_str_eq(text, "f(A, B<A, A>, B<B<A, A>, B<A, A> >)");
    free(text);
    free(small);
    /* Eleven: more back-references than the in-process bound takes, so in
     * a child; 26,571 characters, under the limit: demangled. */
    char *twelve = bomb_name(11);
    text = ar_kernel_display(twelve);
    ck_assert_uint_eq(strlen(text), 26571);
    free(text);
    free(twelve);
    /* Thirty levels, about 300 bytes: 14 GB once demangled. */
    char *bomb = bomb_name(30);
    ck_assert_uint_lt(strlen(bomb), 400);
    display_t d = {bomb, NULL};
    double started = seconds();
    char *err = tu_stderr_of(display, &d);
    ck_assert_msg(seconds() - started < 5, "%.1f s", seconds() - started);
    ck_assert_str_eq(d.shown, bomb);
    ck_assert_msg(strstr(err, "aorta-run: warning: a kernel name of ")
                      && strstr(err, "is shown mangled"),
                  "%s", err);
    free(err);
    free(d.shown);
    /* Said once. */
    d.shown = NULL;
    err = tu_stderr_of(display, &d);
    ck_assert_str_eq(d.shown, bomb);
    ck_assert_str_eq(err, "");
    free(d.shown);
    free(err);
    free(bomb);
}
END_TEST

/* Names from tests/rocprof/fixtures and tests/proton/fixtures. */
START_TEST(fixture_names_demangle_and_unreadable_ones_stay_raw)
{
    char *add = ar_demangle("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_"
                               "addIfEESt5arrayIPcLm3EEEEviT0_T1_");
    ck_assert_ptr_nonnull(add);
    ck_assert_str_eq(add, "void at::native::vectorized_elementwise_kernel<4, "
                          "at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, "
                          "at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)");
    char *brief = ar_kernel_short(add, AR_KERNEL_NAME_WIDTH);
    ck_assert_str_eq(brief, "vectorized_elementwise_kernel<4, CUDAFunctor_add<...>, array<...> >(...)");
    free(brief);
    /* Narrower: every template argument list goes, then the cut. */
    brief = ar_kernel_short(add, 40);
    ck_assert_str_eq(brief, "vectorized_elementwise_kernel<...>(...)");
    free(brief);
    brief = ar_kernel_short(add, 20);
    ck_assert_str_eq(brief, "vectorized_elemen...");
    free(brief);
    free(add);
    char *reduce = ar_demangle("_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_14"
                                  "func_wrapper_tIfNS0_13MaxNanFunctorIfEEEEjfLi4ELi4EEEEEvT1_");
    ck_assert_ptr_nonnull(reduce);
    ck_assert_ptr_nonnull(strstr(reduce, "at::native::reduce_kernel<512, 1,"));
    char *short_reduce = ar_kernel_short(reduce, AR_KERNEL_NAME_WIDTH);
    ck_assert_str_eq(short_reduce, "reduce_kernel<512, 1, ReduceOp<...> >(...)");
    free(short_reduce);
    free(reduce);
    /* The Proton capture's lambda-laden kernel (tests/collectors/proton/fixtures/h200_cli). */
    char *dist = ar_kernel_display(
        "_ZN2at6native55_GLOBAL__N__11f7a751_22_DistributionUniform_cu_67fa25cf43distribution_"
        "elementwise_grid_stride_kernelIfLi4EZNS0_9templates4cuda21uniform_and_transformIffPNS_"
        "17CUDAGeneratorImplEZZZNS4_14uniform_kernelIS7_EEvRNS_18TensorIteratorBaseEddT_ENKUlvE_"
        "clEvENKUlvE0_clEvEUlfE_EEvSA_T1_T2_EUlP24curandStatePhilox4_32_10E0_ZNS1_27distribution_"
        "nullary_kernelIff6float4S7_SJ_SE_EEvSA_SG_RKT3_T4_EUlifE_EEvlNS_15PhiloxCudaStateESF_SG_");
    ck_assert_ptr_nonnull(strstr(dist, "at::native::(anonymous namespace)::distribution_"));
    char *dist_short = ar_kernel_short(dist, AR_KERNEL_NAME_WIDTH);
    ck_assert_str_eq(dist_short, "distribution_elementwise_grid_stride_kernel<...>(...)");
    free(dist_short);
    free(dist);
    /* Not mangled, or mangled past what the demangler reads: raw. */
    ck_assert_ptr_null(ar_demangle("_Z"));
    ck_assert_ptr_null(ar_demangle("_Zbogus_kernel"));
    ck_assert_ptr_null(ar_demangle("Cijk_Alik_Bljk_SB_MT128x128x16"));
    char *shown = ar_kernel_display("triton_poi_fused_add_0");
    ck_assert_str_eq(shown, "triton_poi_fused_add_0");
    free(shown);
    /* Unbalanced brackets (operator<) are only cut. */
    char *cut = ar_kernel_short("bool operator<(A const&, B const&) with a long tail of words here", 20);
    ck_assert_str_eq(cut, "bool operator<(A ...");
    free(cut);
    char *same = ar_kernel_short("short", 20);
    ck_assert_str_eq(same, "short");
    free(same);
}
END_TEST

/* tables: {"collector": {"kernel": ms, ...}, ...}, launches 1 each. */
static int as_row(const char *name, ar_json_t *ms, void *user)
{
    ar_json_t *row = ar_json_array();
    ar_json_append(row, ar_json_ref(ms));
    ar_json_append(row, ar_json_int(1));
    ar_json_set(user, name, row);
    return 0;
}

static int wrap_collector(const char *collector, ar_json_t *times, void *user)
{
    ar_json_t *entry = ar_json_object(), *kernels = ar_json_object();
    ar_json_foreach(times, as_row, kernels);
    ar_json_set(entry, "kernels", kernels);
    ar_json_set(user, collector, entry);
    return 0;
}

static void one_cell(ar_kagg_run_t *run, const char *cell_name, const char *tables)
{
    run->cells = realloc(run->cells, (run->count + 1) * sizeof *run->cells);
    ar_kagg_cell_t *cell = &run->cells[run->count++];
    memset(cell, 0, sizeof *cell);
    cell->name = strdup(cell_name);
    ar_json_t *spec = parse(tables), *json = ar_json_object();
    ar_json_foreach(spec, wrap_collector, json);
    ar_json_free(spec);
    ar_kagg_add_trial(cell, json, 1);
    ar_kagg_finish(cell);
    ar_json_free(json);
}

typedef struct trial_pick {
    size_t at;
    ar_json_t *into;
} trial_pick_t;

/* into[collector] = the collector's trial at (an empty table past its end). */
static int pick_trial(const char *collector, ar_json_t *trials, void *user)
{
    trial_pick_t *pick = user;
    ar_json_t *one = ar_json_at(trials, pick->at);
    ar_json_set(pick->into, collector, one ? ar_json_ref(one) : ar_json_object());
    return 0;
}

static int most_trials(const char *collector, ar_json_t *trials, void *user)
{
    (void)collector;
    size_t *most = user;
    if (ar_json_length(trials) > *most)
        *most = ar_json_length(trials);
    return 0;
}

/* cell_name's cell in run, with each table's trials given as times:
 * {"collector": [{"kernel": ms, ...}, ...one object per trial]}. */
static void trials_cell(ar_kagg_run_t *run, const char *cell_name, const char *tables)
{
    run->cells = realloc(run->cells, (run->count + 1) * sizeof *run->cells);
    ar_kagg_cell_t *cell = &run->cells[run->count++];
    memset(cell, 0, sizeof *cell);
    cell->name = strdup(cell_name);
    ar_json_t *spec = parse(tables);
    size_t trials = 0;
    ar_json_foreach(spec, most_trials, &trials);
    for (size_t t = 0; t < trials; t++) {
        ar_json_t *one = ar_json_object(), *json = ar_json_object();
        trial_pick_t pick = {t, one};
        ar_json_foreach(spec, pick_trial, &pick);
        ar_json_foreach(one, wrap_collector, json);
        ar_kagg_add_trial(cell, json, 1);
        cell->trials++;
        cell->passing++;
        ar_json_free(one);
        ar_json_free(json);
    }
    ar_json_free(spec);
    ar_kagg_finish(cell);
}

static ar_compare_request_t gate_request(double threshold, int allow_missing)
{
    ar_compare_request_t request = {.verdicts = AR_VERDICT_REQUEST_INIT};
    request.verdicts.stats.threshold_pct = threshold;
    request.allow_missing = allow_missing;
    return request;
}

START_TEST(compare_lists_added_removed_and_judges_each_kernel)
{
    ar_kagg_run_t a = {0}, b = {0};
    /* Six trials a side: k1 grows by about 20%, q stays, "gone" and "fresh"
     * leave and arrive; collector p is missing from B. */
    trials_cell(&a, "x", "{\"r\": [{\"k1\": 10.0, \"gone\": 1.0}, {\"k1\": 10.2, \"gone\": 1.0},"
                         " {\"k1\": 9.9, \"gone\": 1.1}, {\"k1\": 10.1, \"gone\": 1.0},"
                         " {\"k1\": 10.05, \"gone\": 0.9}, {\"k1\": 9.95, \"gone\": 1.0}],"
                         " \"p\": [{\"q\": 1}, {\"q\": 1}, {\"q\": 1}, {\"q\": 1}, {\"q\": 1},"
                         " {\"q\": 1}]}");
    trials_cell(&a, "old", "{\"r\": [{\"k1\": 1.0}]}");
    trials_cell(&b, "x", "{\"r\": [{\"k1\": 12.0, \"fresh\": 0.5}, {\"k1\": 12.1, \"fresh\": 0.5},"
                         " {\"k1\": 11.9, \"fresh\": 0.5}, {\"k1\": 12.2, \"fresh\": 0.5},"
                         " {\"k1\": 12.05, \"fresh\": 0.5}, {\"k1\": 11.95, \"fresh\": 0.5}]}");
    trials_cell(&b, "new", "{\"r\": [{\"k1\": 1.0}]}");
    ar_compare_request_t request = gate_request(10.0, 0);
    char *error = NULL;
    ar_json_t *cmp = ar_compare("A", &a, "B", &b, &request, &error);
    ck_assert_ptr_nonnull(cmp);
    char *text = ar_json_dump(cmp, 0);
    ck_assert_ptr_nonnull(strstr(text, "\"schema_version\":3"));
    ck_assert_ptr_nonnull(strstr(text, "\"collectors_only_in_a\":[\"p\"]"));
    ck_assert_ptr_nonnull(strstr(text, "\"cells_added\":[\"new\"]"));
    ck_assert_ptr_nonnull(strstr(text, "\"cells_removed\":[\"old\"]"));
    ck_assert_ptr_nonnull(strstr(text, "\"cell old is missing from B\""));
    ck_assert_ptr_nonnull(strstr(text, "\"cell x: collector p is missing from B\""));
    free(text);
    ar_json_t *m = ar_json_at(ar_json_get(ar_json_at(ar_json_get(cmp, "cells"), 0),
                                                   "measures"), 0);
    ck_assert_str_eq(ar_json_get_string(ar_json_get(m, "verdict")), "regressed");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(m, "n_a")), 6);
    ck_assert(ar_json_get_double(ar_json_get(m, "ci_low_pct")) > 10.0);
    ar_json_t *k = ar_json_get(m, "kernels");
    /* The significant kernels first: k1 grew, fresh arrived, gone left. */
    ck_assert_str_eq(ar_json_get_string(ar_json_get(ar_json_at(k, 0), "kernel")), "k1");
    ck_assert_str_eq(ar_json_get_string(ar_json_get(ar_json_at(k, 0), "status")),
                     "common");
    int fresh = 0, gone = 0;
    for (size_t i = 0; i < ar_json_length(k); i++) {
        const char *name = ar_json_get_string(ar_json_get(ar_json_at(k, i), "kernel"));
        const char *status = ar_json_get_string(ar_json_get(ar_json_at(k, i), "status"));
        fresh += !strcmp(name, "fresh") && !strcmp(status, "added");
        gone += !strcmp(name, "gone") && !strcmp(status, "removed");
    }
    ck_assert(fresh && gone);
    ck_assert_int_eq(ar_compare_exit_status(cmp), 3);
    ar_json_free(cmp);
    /* --allow-missing: the missing cell and collector pass (noted); k1's
     * 20% is within 30%; a kernel that arrived or left is shown, never
     * gated. */
    request = gate_request(30.0, 1);
    cmp = ar_compare("A", &a, "B", &b, &request, &error);
    const ar_json_t *gate = ar_json_get(cmp, "gate");
    ck_assert_msg(ar_json_length(ar_json_get(gate, "reasons")) == 0, "%s",
                  ar_json_get_string(ar_json_at(ar_json_get(gate, "reasons"), 0)));
    ck_assert_uint_eq(ar_json_length(ar_json_get(gate, "notes")), 2);
    ck_assert_str_eq(ar_json_get_string(ar_json_get(gate, "outcome")), "passed");
    ck_assert_int_eq(ar_compare_exit_status(cmp), 0);
    text = ar_json_dump(cmp, 0);
    ck_assert_ptr_nonnull(strstr(text, "\"kernel\":\"fresh\""));
    ck_assert_ptr_nonnull(strstr(text, "\"verdict\":\"added\""));
    ck_assert_ptr_nonnull(strstr(text, "\"verdict\":\"removed\""));
    free(text);
    ar_json_free(cmp);
    ar_kagg_run_clear(&a);
    ar_kagg_run_clear(&b);
}
END_TEST

START_TEST(a_candidate_whose_trials_all_failed_fails_the_gate)
{
    ar_kagg_run_t a = {0}, b = {0};
    trials_cell(&a, "x", "{\"r\": [{\"k1\": 10.0}, {\"k1\": 10.0}, {\"k1\": 10.0}]}");
    b.cells = calloc(1, sizeof *b.cells);
    b.count = 1;
    b.cells[0].name = strdup("x");
    b.cells[0].trials = 3;
    b.cells[0].failed = 3;
    ar_compare_request_t request = gate_request(5.0, 1);
    char *error = NULL;
    ar_json_t *cmp = ar_compare("A", &a, "B", &b, &request, &error);
    ck_assert_int_eq(ar_compare_exit_status(cmp), 3);
    char *text = ar_json_dump(cmp, 0);
    ck_assert_ptr_nonnull(strstr(text, "cell x: no trial passed in B (3 failed, 0 errored of 3)"));
    /* Never read as faster: B has no sample, so no effect at all. */
    ck_assert_ptr_nonnull(strstr(text, "\"n_b\":0"));
    ck_assert_ptr_null(strstr(text, "\"verdict\":\"improved\""));
    free(text);
    ar_json_free(cmp);
    ar_kagg_run_clear(&a);
    ar_kagg_run_clear(&b);
}
END_TEST

START_TEST(the_perf_section_sorts_regressions_first_and_adds_other)
{
    ar_kagg_run_t run = {0};
    char tables[4096] = "{\"r\": {";
    for (int i = 0; i < 12; i++)
        snprintf(tables + strlen(tables), sizeof tables - strlen(tables),
                 "%s\"k%d\": %d.0", i ? "," : "", i, 20 - i);
    strcat(tables, "}}");
    one_cell(&run, "base", tables);
    one_cell(&run, "slow", "{\"r\": {\"k0\": 20.0, \"k5\": 40.0}}");
    run.baseline = strdup("base");
    char *md = ar_kernel_md(&run);
    ck_assert_ptr_nonnull(strstr(md, "### base (baseline) \xe2\x80\x94 r\n"));
    ck_assert_ptr_nonnull(strstr(md, "other (2 kernels)"));
    const char *slow = strstr(md, "### slow");
    ck_assert_ptr_nonnull(slow);
    /* k5 grew by 25 ms: the first row of slow's table. */
    ck_assert_ptr_nonnull(strstr(slow, "| 1 | k5 "));
    ck_assert_ptr_nonnull(strstr(slow, "+25.000"));
    free(md);
    ar_kagg_run_clear(&run);
}
END_TEST

/* A trial's table as both schemas spell it, in a run directory of two
 * cells, one of each: --report reads runs written before schema 2. */
static void write_trials(const char *dir, const char *cell, const char *table)
{
    for (int t = 0; t < 2; t++) {
        char *path = ar_xasprintf("%s/%s/_subprocess/trial_d0_m0_t%d.json", dir, cell, t);
        tu_write(path, "{\"exit_status\": \"ok\","
                       " \"result\": {\"metrics\": {\"verdict\": \"pass\"}}}");
        free(path);
        path = ar_xasprintf("%s/%s/_subprocess/trial_d0_m0_t%d.kernels.json", dir, cell, t);
        tu_write(path, table);
        free(path);
    }
}

START_TEST(both_schemas_of_a_trial_file_aggregate_the_same)
{
    char *dir = tu_tmpdir();
    write_trials(dir, "one", "{\"schema_version\": 1, \"trial_index\": 0, \"collectors\": "
                             "{\"r\": {\"kernels\": {\"b\": [2.5, 4], \"a\": [1.0, null],"
                             " \"bad\": [\"x\", 1]}}, \"p\": {\"kernels\": {\"q\": [0.5, 2]}}}}");
    write_trials(dir, "two", "{\"schema_version\": 2, \"trial_index\": 0, \"collectors\": "
                             "{\"r\": {\"names\": [\"b\", \"a\", \"bad\"], \"total_ms\": "
                             "[2.5, 1.0, \"x\"], \"launches\": [4, null, 1]}, \"p\": {\"names\": "
                             "[\"q\"], \"total_ms\": [0.5], \"launches\": [2]}}}");
    /* A schema this build does not know is no table. */
    write_trials(dir, "three", "{\"schema_version\": 4, \"collectors\": {\"r\": "
                               "{\"names\": [\"b\"], \"total_ms\": [1.0], \"launches\": [1]}}}");
    ar_json_t *matrix = parse("{\"cells\": [{\"name\": \"one\", \"trials\": 2},"
                                 " {\"name\": \"two\", \"trials\": 2},"
                                 " {\"name\": \"three\", \"trials\": 2}]}");
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(fd, 0);
    ar_kagg_run_t run;
    ar_kagg_load(fd, dir, matrix, NULL, &run);
    close(fd);
    ck_assert_uint_eq(run.count, 3);
    ar_json_t *one = ar_kagg_cell_json(&run.cells[0]);
    ar_json_t *two = ar_kagg_cell_json(&run.cells[1]);
    char *one_text = ar_json_dump(ar_json_get(one, "collectors"), 0);
    char *two_text = ar_json_dump(ar_json_get(two, "collectors"), 0);
    ck_assert_str_eq(one_text, two_text);
    ck_assert_ptr_nonnull(strstr(one_text, "\"b\":{\"mean_ms\":2.5,"));
    ck_assert_uint_eq(run.cells[1].count, 2);
    ck_assert_uint_eq(ar_kagg_table(&run.cells[1], "r")->count, 2); /* "bad" skipped */
    ck_assert_uint_eq(run.cells[2].passing, 2);
    ck_assert_uint_eq(run.cells[2].count, 0);
    free(one_text);
    free(two_text);
    ar_json_free(one);
    ar_json_free(two);
    ar_json_free(matrix);
    ar_kagg_run_clear(&run);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

/* What a sweep writes: schema 2's arrays, names json-c would make one key
 * merged as schema 1's object merged them (the first one's place, the last
 * one's figures); and a name twice in schema 2's arrays counts once. */
START_TEST(the_trial_file_is_written_as_arrays_and_read_back)
{
    aorta_kernels_t *k = aorta_kernels_new(0);
    aorta_kernels_add(k, "z\xff", 2, 1e6, 1);
    aorta_kernels_add(k, "y", 1, 2e6, -1);
    aorta_kernels_add(k, "z\xfe", 2, 3e6, 5);
    aorta_metrics_t *m = aorta_metrics_new("c_");
    ck_assert_int_eq(aorta_kernels_report(k, m, "c", 1e6, NULL), 0);
    ar_json_t *file = ar_kernel_file_new(3);
    ar_kernel_file_add(file, "r", aorta_metrics_kernels(m));
    char *text = ar_json_dump(file, 0);
    ck_assert_str_eq(text, "{\"schema_version\":3,\"trial_index\":3,\"collectors\":{\"r\":{"
                           "\"names\":[\"z\xef\xbf\xbd\",\"y\"],\"total_ms\":[3.0,2.0],"
                           "\"launches\":[5,null]}}}");
    free(text);
    int schema = 0;
    const ar_json_t *collectors = ar_kernel_file_collectors(file, &schema);
    ck_assert_int_eq(schema, 3);
    ar_kagg_cell_t cell = {.name = strdup("c")};
    ar_kagg_add_trial(&cell, collectors, schema);
    ar_json_t *twice = parse("{\"r\": {\"names\": [\"y\", \"y\"], \"total_ms\": [1.0, 7.0],"
                                " \"launches\": [1, 1]}}");
    ar_kagg_add_trial(&cell, twice, 2);
    ar_kagg_finish(&cell);
    const ar_kagg_kernel_t *y = ar_kagg_kernel(ar_kagg_table(&cell, "r"), "y");
    ck_assert_uint_eq(y->trials, 2);
    ck_assert(fabs(y->sum_ms - 3.0) < 1e-12);
    ck_assert(y->mean_launches < 0); /* unknown in the first trial */
    ar_json_free(twice);
    ar_kagg_cell_clear(&cell);
    ar_json_free(file);
    aorta_metrics_free(m);
    aorta_kernels_free(k);
}
END_TEST

/* <cell>/kernels.json is written member by member; its text is the
 * tree's, whatever the names hold.  Names that are not UTF-8 can become
 * one key: that cell is written through the tree. */
START_TEST(a_cell_written_without_the_tree_is_the_trees_text)
{
    ar_kagg_cell_t cell = {.name = strdup("c\"ell/\xc3\xa9")};
    ar_json_t *t0 = parse("{\"r\": {\"kernels\": {\"q\\\"uote\": [1.25, 2], \"back\\\\sl/ash\": "
                             "[0.000001, null], \"ctl\\u0001\\t\\n\": [3, 1], \"\\u00e9\\u540d\": "
                             "[1e-9, 4], \"big\": [123456789.123456789, 9223372036854775807]},"
                             " \"p\": {\"kernels\": {\"plain_name_long_enough_for_words\":"
                             " [2, 2]}}}}");
    ar_json_t *t1 = parse("{\"r\": {\"kernels\": {\"q\\\"uote\": [1.0, 3]}}}");
    ar_kagg_add_trial(&cell, t0, 1);
    ar_kagg_add_trial(&cell, t1, 1);
    ar_kagg_finish(&cell);
    ar_json_t *json = ar_kagg_cell_json(&cell);
    char *tree = ar_json_dump(json, 0);
    ar_json_writer_t *writer = ar_json_writer_new();
    ar_json_writer_string(writer, "left over from another document");
    ar_kagg_cell_text(&cell, writer);
    size_t len;
    const char *streamed = ar_json_writer_text(writer, &len);
    ck_assert_str_eq(streamed, tree);
    ck_assert_uint_eq(len, strlen(tree));

    char *dir = tu_tmpdir();
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    ck_assert_int_eq(ar_kagg_cell_write_at(fd, "kernels.json", &cell, writer, NULL), 0);
    char *path = tu_join(dir, "kernels.json");
    char *written = tu_read(path);
    char *line = ar_xasprintf("%s\n", tree);
    ck_assert_str_eq(written, line);
    free(line);
    free(written);

    /* Two names that are one key once made UTF-8: one from the first read
     * on (the first row counts), as the tree writes them. */
    ar_kagg_cell_t odd = {.name = strdup("odd")};
    ar_json_t *bad = parse("{\"r\": {\"kernels\": {\"n\xff\": [1, 1], \"n\xfe\": [2, 2]}}}");
    ar_kagg_add_trial(&odd, bad, 1);
    ar_kagg_finish(&odd);
    ck_assert_uint_eq(ar_kagg_table(&odd, "r")->count, 1);
    ck_assert_int_eq(ar_kagg_cell_write_at(fd, "kernels.json", &odd, writer, NULL), 0);
    ar_json_t *odd_json = ar_kagg_cell_json(&odd);
    char *odd_tree = ar_json_dump(odd_json, 0);
    line = ar_xasprintf("%s\n", odd_tree);
    written = tu_read(path);
    ck_assert_str_eq(written, line);
    ck_assert_uint_eq(ar_json_object_count(ar_json_get(
                          ar_json_get(ar_json_get(odd_json, "collectors"), "r"), "kernels")),
                      1);
    free(written);
    free(line);
    free(odd_tree);
    ar_json_free(odd_json);
    ar_json_free(bad);
    ar_kagg_cell_clear(&odd);
    close(fd);
    free(path);
    tu_rmtree(dir);
    free(dir);
    ar_json_writer_free(writer);
    free(tree);
    ar_json_free(json);
    ar_json_free(t0);
    ar_json_free(t1);
    ar_kagg_cell_clear(&cell);
}
END_TEST

static Suite *kreport_suite(void)
{
    Suite *suite = suite_create("kreport");
    TCase *tc = tcase_create("kreport");
    tcase_add_test(tc, the_report_attaches_the_whole_table_without_new_metrics);
    tcase_add_test(tc, the_reply_travels_a_row_a_line_and_reads_back_the_same);
    tcase_add_test(tc, a_reply_past_its_limit_cuts_the_table_and_keeps_the_metrics);
    tcase_add_test(tc, an_over_long_kernel_name_is_cut_with_its_hash_and_the_rest_stays);
    tcase_add_test(tc, aggregation_counts_missing_kernels_as_zero_and_keeps_ties_in_order);
    tcase_add_test(tc, a_trial_of_many_metrics_is_aggregated_in_near_linear_time);
    tcase_add_test(tc, names_differing_only_in_invalid_bytes_are_one_name_from_the_first_read);
    tcase_add_test(tc, fixture_names_demangle_and_unreadable_ones_stay_raw);
    tcase_add_test(tc, a_demangler_bomb_is_shown_raw_quickly_with_one_note);
    tcase_add_test(tc, compare_lists_added_removed_and_judges_each_kernel);
    tcase_add_test(tc, a_candidate_whose_trials_all_failed_fails_the_gate);
    tcase_add_test(tc, the_perf_section_sorts_regressions_first_and_adds_other);
    tcase_add_test(tc, both_schemas_of_a_trial_file_aggregate_the_same);
    tcase_add_test(tc, the_trial_file_is_written_as_arrays_and_read_back);
    tcase_add_test(tc, a_cell_written_without_the_tree_is_the_trees_text);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(kreport_suite)
