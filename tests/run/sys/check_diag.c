/* SPDX-License-Identifier: MIT */
/* aorta-run's diagnostics (sys/diag.h): an error and a warning are one line
 * each on stderr, and aorta-run's handler of the SDK's warning channel
 * writes a collector's aorta_warn() as "aorta-run: warning: SOURCE: ...". */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "sys/diag.h"
#include "testutil.h"


static void error_and_warning(void *user)
{
    (void)user;
    ar_diag_error("cannot write %s: %s", "/r/matrix.json", "No space left on device");
    ar_diag_warn("skipping %s: %d", "x.so", 3);
}

START_TEST(one_line_each)
{
    char *text = tu_stderr_of(error_and_warning, NULL);
    ck_assert_str_eq(text, "aorta-run: cannot write /r/matrix.json: No space left on device\n"
                           "aorta-run: warning: skipping x.so: 3\n");
    free(text);
}
END_TEST

static void warn_as_aorta_run(void *user)
{
    (void)user;
    aorta_warning_set_handler(ar_diag_collector_warning, NULL);
    aorta_warn("proton", "could not read an interpreter from %s", "'pytest'");
    aorta_warning_set_handler(NULL, NULL);
}

static void warn_with_a_hostile_name(void *user)
{
    (void)user;
    ar_diag_warn("kernel '%s' skipped", "a\x1b[2J\r\nb\xe2\x80\xae\xff");
}

/* A name in a message cannot break the line or reach the terminal as a
 * control: the escapes of sys/text_escape.h. */
START_TEST(a_name_shows_its_controls_visibly)
{
    char *text = tu_stderr_of(warn_with_a_hostile_name, NULL);
    ck_assert_str_eq(text, "aorta-run: warning: kernel 'a\\x1b[2J\\r\\nb\\u202e\\xff' skipped\n");
    free(text);
}
END_TEST

START_TEST(aorta_run_prefixes_its_name)
{
    char *text = tu_stderr_of(warn_as_aorta_run, NULL);
    ck_assert_str_eq(text,
                     "aorta-run: warning: proton: could not read an interpreter from 'pytest'\n");
    free(text);
}
END_TEST

static Suite *diag_suite(void)
{
    Suite *suite = suite_create("diag");
    TCase *tc = tcase_create("diag");
    tcase_add_test(tc, one_line_each);
    tcase_add_test(tc, aorta_run_prefixes_its_name);
    tcase_add_test(tc, a_name_shows_its_controls_visibly);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(diag_suite)
