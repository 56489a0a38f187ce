/* SPDX-License-Identifier: MIT */
/* The per-kernel accumulator of the SDK (aorta_kernels_*): each promise of
 * its header comment, one test or more. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "testutil.h"

static aorta_kernels_t *fresh(unsigned flags)
{
    aorta_kernels_t *kernels = aorta_kernels_new(flags);
    ck_assert_ptr_nonnull(kernels);
    return kernels;
}

static void add(aorta_kernels_t *kernels, const char *name, double time, int64_t count)
{
    ck_assert_int_eq(aorta_kernels_add(kernels, name, strlen(name), time, count), 0);
}

static aorta_metrics_t *report(const aorta_kernels_t *kernels, double units)
{
    aorta_metrics_t *metrics = aorta_metrics_new("k_");
    ck_assert_int_eq(aorta_kernels_report(kernels, metrics, "k", units, "/out"), 0);
    return metrics;
}

static void expect_keys(const aorta_metrics_t *metrics, const char *const *keys)
{
    size_t n = 0;
    for (; keys[n]; n++) {
        ck_assert_ptr_nonnull(aorta_metrics_at(metrics, n));
        ck_assert_str_eq(aorta_metrics_at(metrics, n)->key, keys[n]);
    }
    ck_assert_uint_eq(aorta_metrics_count(metrics), n);
}

static const char *const all_five[] = {"k_artifact_dir", "k_kernel_count", "k_gpu_time_ms",
                                       "k_top_kernel_ms", "k_top_kernels", NULL};
static const char *const no_count[] = {"k_artifact_dir", "k_gpu_time_ms", "k_top_kernel_ms",
                                       "k_top_kernels", NULL};
static const char *const dir_only[] = {"k_artifact_dir", NULL};

START_TEST(the_table_is_in_first_seen_order)
{
    aorta_kernels_t *kernels = fresh(0);
    add(kernels, "b", 1.0, 2);
    add(kernels, "a", 5.0, 1);
    add(kernels, "b", 2.0, 3);
    ck_assert_uint_eq(aorta_kernels_count(kernels), 2);
    size_t len = 99;
    ck_assert_str_eq(aorta_kernels_name_at(kernels, 0, &len), "b");
    ck_assert_uint_eq(len, 1);
    ck_assert_str_eq(aorta_kernels_name_at(kernels, 1, NULL), "a");
    ck_assert(aorta_kernels_time_at(kernels, 0) == 3.0);
    ck_assert(aorta_kernels_time_at(kernels, 1) == 5.0);
    ck_assert_int_eq(aorta_kernels_launches_at(kernels, 0), 5);
    ck_assert_int_eq(aorta_kernels_launches_at(kernels, 1), 1);
    /* Out of range. */
    ck_assert_ptr_null(aorta_kernels_name_at(kernels, 2, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert(isnan(aorta_kernels_time_at(kernels, 2)));
    ck_assert_int_eq(aorta_kernels_launches_at(kernels, 2), -1);
    ck_assert_uint_eq(aorta_kernels_count(NULL), 0);
    aorta_kernels_free(kernels);
    aorta_kernels_free(NULL);
}
END_TEST

START_TEST(the_five_metrics_in_their_order)
{
    aorta_kernels_t *kernels = fresh(0);
    add(kernels, "gemm", 3e6, 2);
    add(kernels, "copy", 1e6, 1);
    aorta_metrics_t *metrics = report(kernels, 1e6);
    expect_keys(metrics, all_five);
    ck_assert_str_eq(aorta_metrics_find(metrics, "k_artifact_dir")->string_value, "/out");
    ck_assert_int_eq(aorta_metrics_find(metrics, "k_kernel_count")->int_value, 3);
    ck_assert(aorta_metrics_find(metrics, "k_gpu_time_ms")->double_value == 4.0);
    ck_assert(aorta_metrics_find(metrics, "k_top_kernel_ms")->double_value == 3.0);
    const aorta_metric_t *top = aorta_metrics_find(metrics, "k_top_kernels");
    ck_assert_uint_eq(top->string_count, 2);
    ck_assert_str_eq(top->strings[0], "gemm");
    ck_assert_str_eq(top->strings[1], "copy");
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
}
END_TEST

START_TEST(top_five_largest_first_ties_in_first_seen_order)
{
    aorta_kernels_t *kernels = fresh(0);
    const char *names[] = {"t1", "big", "t2", "small", "t3", "t4", "t5"};
    const double times[] = {2, 9, 2, 1, 2, 2, 2};
    for (size_t i = 0; i < 7; i++)
        add(kernels, names[i], times[i], 1);
    aorta_metrics_t *metrics = report(kernels, 1);
    const aorta_metric_t *top = aorta_metrics_find(metrics, "k_top_kernels");
    ck_assert_uint_eq(top->string_count, 5);
    const char *expected[] = {"big", "t1", "t2", "t3", "t4"};
    for (size_t i = 0; i < 5; i++)
        ck_assert_str_eq(top->strings[i], expected[i]);
    ck_assert(aorta_metrics_find(metrics, "k_top_kernel_ms")->double_value == 9.0);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
}
END_TEST

START_TEST(a_name_holding_nul_is_its_own_kernel)
{
    aorta_kernels_t *kernels = fresh(0);
    ck_assert_int_eq(aorta_kernels_add(kernels, "a\0b", 3, 1.0, 1), 0);
    ck_assert_int_eq(aorta_kernels_add(kernels, "a\0c", 3, 2.0, 1), 0);
    ck_assert_int_eq(aorta_kernels_add(kernels, "a", 1, 4.0, 1), 0);
    ck_assert_uint_eq(aorta_kernels_count(kernels), 3);
    size_t len;
    const char *name = aorta_kernels_name_at(kernels, 1, &len);
    ck_assert_uint_eq(len, 3);
    ck_assert_mem_eq(name, "a\0c", 4);
    /* In the metric the name ends at its NUL. */
    aorta_metrics_t *metrics = report(kernels, 1);
    const aorta_metric_t *top = aorta_metrics_find(metrics, "k_top_kernels");
    ck_assert_uint_eq(top->string_count, 3);
    ck_assert_str_eq(top->strings[1], "a");
    ck_assert_str_eq(top->strings[2], "a");
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
}
END_TEST

START_TEST(an_unknown_count_drops_only_the_kernel_count)
{
    aorta_kernels_t *kernels = fresh(0);
    add(kernels, "a", 1.0, 4);
    add(kernels, "b", 2.0, -1);
    add(kernels, "b", 2.0, 7);
    ck_assert_int_eq(aorta_kernels_launches_at(kernels, 0), 4);
    ck_assert_int_eq(aorta_kernels_launches_at(kernels, 1), -1);
    aorta_metrics_t *metrics = report(kernels, 1);
    expect_keys(metrics, no_count);
    ck_assert(aorta_metrics_find(metrics, "k_gpu_time_ms")->double_value == 5.0);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
}
END_TEST

START_TEST(a_count_sum_past_int64_is_dropped)
{
    /* Within one kernel ... */
    aorta_kernels_t *kernels = fresh(0);
    add(kernels, "a", 1.0, INT64_MAX);
    add(kernels, "a", 1.0, 1);
    ck_assert_int_eq(aorta_kernels_launches_at(kernels, 0), -1);
    aorta_metrics_t *metrics = report(kernels, 1);
    expect_keys(metrics, no_count);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
    /* ... and across kernels, each fine on its own. */
    kernels = fresh(0);
    add(kernels, "a", 1.0, INT64_MAX);
    add(kernels, "b", 1.0, 1);
    ck_assert_int_eq(aorta_kernels_launches_at(kernels, 0), INT64_MAX);
    metrics = report(kernels, 1);
    expect_keys(metrics, no_count);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
    /* INT64_MAX itself is a count. */
    kernels = fresh(0);
    add(kernels, "a", 1.0, INT64_MAX - 1);
    add(kernels, "b", 1.0, 1);
    metrics = report(kernels, 1);
    ck_assert_int_eq(aorta_metrics_find(metrics, "k_kernel_count")->int_value, INT64_MAX);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
}
END_TEST

START_TEST(a_total_that_is_not_finite_reports_only_the_directory)
{
    /* Finite rows whose sum overflows ... */
    aorta_kernels_t *kernels = fresh(0);
    add(kernels, "a", 1.5e308, 1);
    add(kernels, "b", 1.5e308, 1);
    ck_assert(isfinite(aorta_kernels_time_at(kernels, 0)));
    aorta_metrics_t *metrics = report(kernels, 1);
    expect_keys(metrics, dir_only);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
    /* ... within one kernel, and an infinite row. */
    kernels = fresh(AORTA_KERNELS_SUM_COMPENSATED);
    add(kernels, "a", 1.5e308, 1);
    add(kernels, "a", 1.5e308, 1);
    ck_assert(isinf(aorta_kernels_time_at(kernels, 0)));
    metrics = report(kernels, 1);
    expect_keys(metrics, dir_only);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
    kernels = fresh(0);
    add(kernels, "a", INFINITY, 1);
    metrics = report(kernels, 1e6);
    expect_keys(metrics, dir_only);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
}
END_TEST

START_TEST(no_kernel_reports_only_the_directory)
{
    aorta_kernels_t *kernels = fresh(0);
    aorta_metrics_t *metrics = report(kernels, 1);
    expect_keys(metrics, dir_only);
    aorta_metrics_free(metrics);
    metrics = aorta_metrics_new("k_");
    ck_assert_int_eq(aorta_kernels_report(kernels, metrics, "k", 1, NULL), 0);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
}
END_TEST

START_TEST(end_file_sums_each_group_first)
{
    /* 1e16 + 1 rounds back to 1e16, but 1 + 1 in a group of its own is 2. */
    aorta_kernels_t *grouped = fresh(0), *direct = fresh(0);
    add(grouped, "a", 1e16, 1);
    aorta_kernels_end_file(grouped);
    add(grouped, "a", 1.0, 1);
    add(grouped, "a", 1.0, 1);
    aorta_kernels_end_file(grouped);
    aorta_kernels_end_file(grouped); /* an empty group changes nothing */
    add(direct, "a", 1e16, 1);
    add(direct, "a", 1.0, 1);
    add(direct, "a", 1.0, 1);
    ck_assert(aorta_kernels_time_at(grouped, 0) == 1e16 + 2);
    ck_assert(aorta_kernels_time_at(direct, 0) == 1e16);
    ck_assert_int_eq(aorta_kernels_launches_at(grouped, 0), 3);
    aorta_metrics_t *metrics = report(grouped, 1);
    ck_assert(aorta_metrics_find(metrics, "k_gpu_time_ms")->double_value == 1e16 + 2);
    aorta_metrics_free(metrics);
    /* The open group counts too, in the table and in the report. */
    add(grouped, "b", 1.0, 1);
    add(grouped, "a", 2.0, 1);
    ck_assert(aorta_kernels_time_at(grouped, 0) == 1e16 + 4);
    ck_assert_int_eq(aorta_kernels_launches_at(grouped, 0), 4);
    ck_assert_str_eq(aorta_kernels_name_at(grouped, 1, NULL), "b");
    metrics = report(grouped, 1);
    ck_assert_int_eq(aorta_metrics_find(metrics, "k_kernel_count")->int_value, 5);
    aorta_metrics_free(metrics);
    aorta_kernels_free(grouped);
    aorta_kernels_free(direct);
}
END_TEST

START_TEST(the_compensated_sum_is_pythons)
{
    /* sum([1e16, 1.0, 1.0]) on CPython >= 3.12 is 1.0000000000000002e16;
     * a += loop gives 1e16. */
    aorta_kernels_t *plain = fresh(0), *compensated = fresh(AORTA_KERNELS_SUM_COMPENSATED);
    const char *names[] = {"a", "b", "c"};
    const double times[] = {1e16, 1.0, 1.0};
    for (size_t i = 0; i < 3; i++) {
        add(plain, names[i], times[i], 1);
        add(compensated, names[i], times[i], 1);
    }
    aorta_metrics_t *metrics = report(plain, 1);
    ck_assert(aorta_metrics_find(metrics, "k_gpu_time_ms")->double_value == 1e16);
    aorta_metrics_free(metrics);
    metrics = report(compensated, 1);
    ck_assert(aorta_metrics_find(metrics, "k_gpu_time_ms")->double_value == 1e16 + 2);
    aorta_metrics_free(metrics);
    aorta_kernels_free(plain);
    aorta_kernels_free(compensated);
}
END_TEST

START_TEST(refused_rows_and_arguments)
{
    ck_assert_ptr_null(aorta_kernels_new(2));
    aorta_kernels_t *kernels = fresh(0);
    ck_assert_int_eq(aorta_kernels_add(kernels, "a", 1, NAN, 1), -1);
    ck_assert_int_eq(aorta_kernels_add(kernels, "a", 1, -1.0, 1), -1);
    ck_assert_int_eq(aorta_kernels_add(kernels, NULL, 1, 1.0, 1), -1);
    ck_assert_int_eq(aorta_kernels_add(NULL, "a", 1, 1.0, 1), -1);
    ck_assert_uint_eq(aorta_kernels_count(kernels), 0);
    ck_assert_int_eq(aorta_kernels_add(kernels, NULL, 0, 1.0, 1), 0);
    ck_assert_int_eq(aorta_kernels_add(kernels, "", 0, 1.0, 1), 0);
    ck_assert_uint_eq(aorta_kernels_count(kernels), 1);
    aorta_kernels_end_file(NULL);
    aorta_metrics_t *metrics = aorta_metrics_new("k_");
    ck_assert_int_eq(aorta_kernels_report(kernels, metrics, NULL, 1, "/d"), -1);
    ck_assert_int_eq(aorta_kernels_report(kernels, metrics, "k", 0, "/d"), -1);
    ck_assert_int_eq(aorta_kernels_report(kernels, metrics, "k", NAN, "/d"), -1);
    ck_assert_int_eq(aorta_kernels_report(kernels, metrics, "k", INFINITY, "/d"), -1);
    ck_assert_int_eq(aorta_kernels_report(NULL, metrics, "k", 1, "/d"), -1);
    ck_assert_int_eq(aorta_kernels_report(kernels, NULL, "k", 1, "/d"), -1);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    /* A sink of another collector refuses the keys. */
    ck_assert_int_eq(aorta_kernels_report(kernels, metrics, "other", 1, "/d"), -1);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    aorta_metrics_free(metrics);
    aorta_kernels_free(kernels);
}
END_TEST

START_TEST(many_kernels_stay_apart)
{
    /* Past several table growths, every name finds its own row. */
    aorta_kernels_t *kernels = fresh(0);
    add(kernels, "void kernel_0<float, 0>(float*)", 0.0, 0);
    const char *first = aorta_kernels_name_at(kernels, 0, NULL);
    char name[64];
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 5000; i++) {
            int n = snprintf(name, sizeof name, "void kernel_%d<float, %d>(float*)", i, i % 7);
            ck_assert_int_eq(aorta_kernels_add(kernels, name, (size_t)n, (double)i, 1), 0);
        }
    ck_assert_uint_eq(aorta_kernels_count(kernels), 5000);
    /* A borrowed name stays put while the table grows. */
    ck_assert_ptr_eq(aorta_kernels_name_at(kernels, 0, NULL), first);
    for (int i = 0; i < 5000; i += 499) {
        snprintf(name, sizeof name, "void kernel_%d<float, %d>(float*)", i, i % 7);
        ck_assert_str_eq(aorta_kernels_name_at(kernels, (size_t)i, NULL), name);
        ck_assert(aorta_kernels_time_at(kernels, (size_t)i) == 2.0 * i);
        ck_assert_int_eq(aorta_kernels_launches_at(kernels, (size_t)i), 2);
    }
    aorta_kernels_free(kernels);
}
END_TEST

static Suite *kernels_suite(void)
{
    Suite *suite = suite_create("sdk_kernels");
    TCase *tc = tcase_create("kernels");
    tcase_add_test(tc, the_table_is_in_first_seen_order);
    tcase_add_test(tc, the_five_metrics_in_their_order);
    tcase_add_test(tc, top_five_largest_first_ties_in_first_seen_order);
    tcase_add_test(tc, a_name_holding_nul_is_its_own_kernel);
    tcase_add_test(tc, an_unknown_count_drops_only_the_kernel_count);
    tcase_add_test(tc, a_count_sum_past_int64_is_dropped);
    tcase_add_test(tc, a_total_that_is_not_finite_reports_only_the_directory);
    tcase_add_test(tc, no_kernel_reports_only_the_directory);
    tcase_add_test(tc, end_file_sums_each_group_first);
    tcase_add_test(tc, the_compensated_sum_is_pythons);
    tcase_add_test(tc, refused_rows_and_arguments);
    tcase_add_test(tc, many_kernels_stay_apart);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(kernels_suite)
