/* SPDX-License-Identifier: MIT */
/* The warning channel (aorta_warn, aorta_warning_set_handler): the default
 * line names no host, and a handler gets source and message.  aorta-run's
 * own handler is tested with aorta-run (tests/run/sys/check_diag.c). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "testutil.h"


static void warn_default(void *user)
{
    (void)user;
    aorta_warning_set_handler(NULL, NULL);
    aorta_warn("rocprof", "%s is a symbolic link; %d", "/d", 7);
    aorta_warn(NULL, "no source");
    aorta_warn("x", NULL);
}

START_TEST(the_default_line_names_no_host)
{
    char *text = tu_stderr_of(warn_default, NULL);
    ck_assert_str_eq(text, "warning: rocprof: /d is a symbolic link; 7\nwarning: no source\n");
    ck_assert_ptr_null(strstr(text, "aorta-run"));
    free(text);
}
END_TEST

typedef struct seen {
    int calls;
    char source[64];
    char message[128];
} seen_t;

static void record(const char *source, const char *message, void *user)
{
    seen_t *seen = user;
    seen->calls++;
    snprintf(seen->source, sizeof seen->source, "%s", source);
    snprintf(seen->message, sizeof seen->message, "%s", message);
}

static seen_t seen;

static void warn_to_handler(void *user)
{
    (void)user;
    aorta_warning_set_handler(record, &seen);
    aorta_warn("proton", "HIP_VISIBLE_DEVICES=%s", "'1'");
}

START_TEST(a_handler_gets_source_message_and_user)
{
    memset(&seen, 0, sizeof seen);
    char *text = tu_stderr_of(warn_to_handler, NULL);
    ck_assert_str_eq(text, "");
    ck_assert_int_eq(seen.calls, 1);
    ck_assert_str_eq(seen.source, "proton");
    ck_assert_str_eq(seen.message, "HIP_VISIBLE_DEVICES='1'");
    aorta_warn(NULL, "plain");
    ck_assert_int_eq(seen.calls, 2);
    ck_assert_str_eq(seen.source, "");
    aorta_warn("x", NULL);
    ck_assert_int_eq(seen.calls, 2);
    free(text);
    /* NULL restores the default. */
    text = tu_stderr_of(warn_default, NULL);
    ck_assert_int_eq(seen.calls, 2);
    ck_assert_ptr_nonnull(strstr(text, "warning: rocprof: "));
    free(text);
}
END_TEST

/* A metric outside the sink's prefix is dropped and said once per key,
 * from the collector the prefix names. */
START_TEST(a_metric_outside_the_prefix_is_one_warning_per_key)
{
    memset(&seen, 0, sizeof seen);
    aorta_warning_set_handler(record, &seen);
    aorta_metrics_t *metrics = aorta_metrics_new("perf_");
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "cycles", 1), -1);
    ck_assert_int_eq(seen.calls, 1);
    ck_assert_str_eq(seen.source, "perf");
    ck_assert_str_eq(seen.message, "dropped the metric 'cycles': outside the prefix 'perf_'");
    /* The same key again, with any setter: no second warning. */
    ck_assert_int_eq(aorta_metrics_set_double(metrics, "cycles", 2.0), -1);
    ck_assert_int_eq(aorta_metrics_set_string(metrics, "cycles", "x"), -1);
    ck_assert_int_eq(seen.calls, 1);
    /* The bare prefix is outside it too; a NULL key names nothing. */
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "perf_", 1), -1);
    ck_assert_int_eq(seen.calls, 2);
    ck_assert_str_eq(seen.message, "dropped the metric 'perf_': outside the prefix 'perf_'");
    ck_assert_int_eq(aorta_metrics_set_int(metrics, NULL, 1), -1);
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "perf_cycles", 1), 0);
    ck_assert_int_eq(seen.calls, 2);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 1);
    aorta_metrics_free(metrics);
    /* A new sink is a new parse: the key is said again. */
    metrics = aorta_metrics_new("perf_");
    aorta_metrics_set_int(metrics, "cycles", 1);
    ck_assert_int_eq(seen.calls, 3);
    aorta_metrics_free(metrics);
    /* A sink without a prefix takes any name: nothing to say. */
    metrics = aorta_metrics_new(NULL);
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "", 1), -1);
    ck_assert_int_eq(seen.calls, 3);
    aorta_metrics_free(metrics);
    aorta_warning_set_handler(NULL, NULL);
}
END_TEST

/* A runaway of distinct keys: the first 16 named, then one line. */
START_TEST(many_metrics_outside_the_prefix_are_bounded)
{
    memset(&seen, 0, sizeof seen);
    aorta_warning_set_handler(record, &seen);
    aorta_metrics_t *metrics = aorta_metrics_new("perf_");
    for (int i = 0; i < 100; i++) {
        char key[32];
        snprintf(key, sizeof key, "kernel_%d", i);
        ck_assert_int_eq(aorta_metrics_set_int(metrics, key, i), -1);
    }
    ck_assert_int_eq(seen.calls, 17);
    ck_assert_str_eq(seen.message, "dropped more metrics outside the prefix 'perf_' (the first "
                                   "16 are named above)");
    aorta_metrics_free(metrics);
    aorta_warning_set_handler(NULL, NULL);
}
END_TEST

static Suite *warning_suite(void)
{
    Suite *suite = suite_create("sdk_warning");
    TCase *tc = tcase_create("warning");
    tcase_add_test(tc, the_default_line_names_no_host);
    tcase_add_test(tc, a_handler_gets_source_message_and_user);
    tcase_add_test(tc, a_metric_outside_the_prefix_is_one_warning_per_key);
    tcase_add_test(tc, many_metrics_outside_the_prefix_are_bounded);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(warning_suite)
