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

static Suite *warning_suite(void)
{
    Suite *suite = suite_create("sdk_warning");
    TCase *tc = tcase_create("warning");
    tcase_add_test(tc, the_default_line_names_no_host);
    tcase_add_test(tc, a_handler_gets_source_message_and_user);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(warning_suite)
