/* SPDX-License-Identifier: MIT */
/* The opaque handles of the collector ABI: option map, argv builder,
 * environment, metrics sink, error context. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "testutil.h"

START_TEST(options_keep_insertion_order_and_replace_in_place)
{
    aorta_options_t *options = aorta_options_new();
    aorta_options_set(options, "trace", "kernel");
    aorta_options_set(options, "stats", "1");
    aorta_options_set(options, "trace", "hip");
    ck_assert_uint_eq(aorta_options_count(options), 2);
    ck_assert_str_eq(aorta_options_key_at(options, 0), "trace");
    ck_assert_str_eq(aorta_options_value_at(options, 0), "hip");
    ck_assert_str_eq(aorta_options_get(options, "stats"), "1");
    ck_assert_ptr_null(aorta_options_get(options, "pmc"));
    ck_assert_ptr_null(aorta_options_key_at(options, 2));
    aorta_options_unset(options, "trace");
    ck_assert_uint_eq(aorta_options_count(options), 1);
    ck_assert_str_eq(aorta_options_key_at(options, 0), "stats");
    aorta_options_t *copy = aorta_options_dup(options);
    aorta_options_clear(options);
    ck_assert_uint_eq(aorta_options_count(options), 0);
    ck_assert_str_eq(aorta_options_get(copy, "stats"), "1");
    aorta_options_free(copy);
    aorta_options_free(options);
}
END_TEST

START_TEST(argv_is_null_terminated_and_copies)
{
    char first[] = "python";
    aorta_argv_t *argv = aorta_argv_new();
    ck_assert_ptr_null(aorta_argv_items(argv)[0]);
    aorta_argv_push(argv, first);
    first[0] = 'X';
    aorta_argv_push(argv, "x.py");
    ck_assert_str_eq(aorta_argv_at(argv, 0), "python");
    ck_assert_ptr_null(aorta_argv_items(argv)[2]);
    aorta_argv_t *wrapped = aorta_argv_new();
    aorta_argv_push(wrapped, "env");
    aorta_argv_push_all(wrapped, argv);
    aorta_argv_push_from(wrapped, argv, 1);
    ck_assert_uint_eq(aorta_argv_count(wrapped), 4);
    ck_assert_str_eq(aorta_argv_at(wrapped, 3), "x.py");
    ck_assert_ptr_null(aorta_argv_at(wrapped, 4));
    aorta_argv_free(wrapped);
    aorta_argv_free(argv);
}
END_TEST

START_TEST(env_from_environ_keeps_empty_values)
{
    char *envp[] = {"HIP_VISIBLE_DEVICES=", "A=1=2", "NOEQUALS", "=bad", "A=second", NULL};
    aorta_env_t *env = aorta_env_from_environ(envp);
    ck_assert_str_eq(aorta_env_get(env, "HIP_VISIBLE_DEVICES"), "");
    ck_assert_str_eq(aorta_env_get(env, "A"), "1=2");
    ck_assert_ptr_null(aorta_env_get(env, "NOEQUALS"));
    ck_assert_uint_eq(aorta_env_count(env), 2);
    aorta_env_set(env, "B", "x");
    aorta_env_unset(env, "A");
    char **back = aorta_env_to_envp(env);
    ck_assert_str_eq(back[0], "HIP_VISIBLE_DEVICES=");
    ck_assert_str_eq(back[1], "B=x");
    ck_assert_ptr_null(back[2]);
    aorta_env_free_envp(back);
    aorta_env_free(env);
}
END_TEST

START_TEST(metrics_stay_in_their_namespace)
{
    aorta_metrics_t *metrics = aorta_metrics_new("rocprof_");
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "rocprof_kernel_count", 23), 0);
    ck_assert_int_eq(aorta_metrics_set_double(metrics, "rocprof_gpu_time_ms", 0.5), 0);
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "verdict", 1), -1);
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "rocprof_", 1), -1);
    ck_assert_int_eq(aorta_metrics_set_double(metrics, "rocprof_nan", NAN), -1);
    ck_assert_int_eq(aorta_metrics_set_double(metrics, "rocprof_inf", INFINITY), -1);
    const char *names[] = {"a", "b"};
    ck_assert_int_eq(aorta_metrics_set_strings(metrics, "rocprof_top_kernels", names, 2), 0);
    /* A second set replaces the value but keeps the position. */
    ck_assert_int_eq(aorta_metrics_set_string(metrics, "rocprof_kernel_count", "x"), 0);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 3);
    const aorta_metric_t *first = aorta_metrics_at(metrics, 0);
    ck_assert_str_eq(first->key, "rocprof_kernel_count");
    ck_assert_int_eq(first->type, AORTA_METRIC_STRING);
    ck_assert_str_eq(first->string_value, "x");
    const aorta_metric_t *top = aorta_metrics_find(metrics, "rocprof_top_kernels");
    ck_assert_uint_eq(top->string_count, 2);
    ck_assert_str_eq(top->strings[1], "b");
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(error_keeps_the_last_message)
{
    aorta_error_t *err = aorta_error_new();
    ck_assert_ptr_null(aorta_error_message(err));
    aorta_error_set(err, "rocprof option '%s': bad", "trace");
    aorta_error_set(err, "second %d", 2);
    ck_assert_str_eq(aorta_error_message(err), "second 2");
    aorta_error_clear(err);
    ck_assert_ptr_null(aorta_error_message(err));
    aorta_error_free(err);
}
END_TEST

static Suite *handles_suite(void)
{
    Suite *suite = suite_create("handles");
    TCase *tc = tcase_create("handles");
    tcase_add_test(tc, options_keep_insertion_order_and_replace_in_place);
    tcase_add_test(tc, argv_is_null_terminated_and_copies);
    tcase_add_test(tc, env_from_environ_keeps_empty_values);
    tcase_add_test(tc, metrics_stay_in_their_namespace);
    tcase_add_test(tc, error_keeps_the_last_message);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(handles_suite)
