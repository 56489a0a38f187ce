/* SPDX-License-Identifier: MIT */
/* The fourth reliability probe's failures (docs/design.md, Reliability),
 * each run through aorta-run for real: records a payload overwrote, run
 * directories whose matrix.json lies, a rank view the tables no longer
 * hold, ranks that outlive their run. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweeputil.h"
#include "xalloc.h"

static char *dir;

static void setup(void)
{
    dir = tu_tmpdir();
    ck_assert_int_eq(chdir(dir), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
}

static size_t error_lines(const char *err)
{
    return tu_count(err, "aorta-run: ") - tu_count(err, "aorta-run: warning: ");
}

/* ------------------------------------------------------------------------ */
/* A trial JSON without the keys a record needs                              */
/* ------------------------------------------------------------------------ */

#define EMPTIED "out/T/none-none/_subprocess/trial_d0_m0_t0.json"
#define NOT_A_RECORD "none-none/_subprocess/trial_d0_m0_t0.json: not a trial record"

/* Trial 1's payload writes {} over trial 0's record (the probe's attack):
 * the report phase, --report and --compare each read it as an error trial
 * with one warning, write their reports and leave no lock. */
START_TEST(a_trial_json_of_braces_is_an_error_record_never_a_crash)
{
    char *args[] = {"--output", "out", "--ticket", "T", "--trials", "3", "--", "sh", "-c",
                    "f=" EMPTIED "; [ -f $f ] && printf '{}' > $f; exit 0", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    ck_assert_msg(tu_count(err, NOT_A_RECORD) == 1, "%s", err);
    ck_assert_uint_eq(error_lines(err), 0);
    ck_assert(tu_exists("out/T/perf.md"));
    ck_assert(tu_exists("out/T/report.html"));
    ck_assert(!tu_exists("out/T/.aorta-run.lock"));
    char *text = tu_read(EMPTIED);
    ck_assert_str_eq(text, "{}");
    free(text);
    free(out);
    free(err);

    /* Missing keys, not only none: an exit_status without a result. */
    tu_write("out/T/none-none/_subprocess/trial_d0_m0_t1.json", "{\"exit_status\": \"ok\"}");
    char *report[] = {"--report", "out/T", NULL};
    ck_assert_int_eq(su_aorta(NULL, report, &out, &err), 0);
    ck_assert_msg(tu_count(err, NOT_A_RECORD) == 1, "%s", err);
    ck_assert_msg(tu_count(err, "trial_d0_m0_t1.json: not a trial record") == 1, "%s", err);
    ck_assert_uint_eq(error_lines(err), 0);
    ck_assert(!tu_exists("out/T/.aorta-run.lock"));
    free(out);
    free(err);

    char *compare[] = {"--compare", "out/T", "out/T", NULL};
    su_aorta(NULL, compare, &out, &err);
    ck_assert_msg(tu_count(err, "out/T/" NOT_A_RECORD) == 2, "%s", err);
    ck_assert_msg(strstr(out, "none-none") != NULL, "%s", out);
    free(out);
    free(err);
}
END_TEST

/* ------------------------------------------------------------------------ */

static Suite *probe4_suite(void)
{
    Suite *suite = suite_create("probe round four");
    TCase *tc = tcase_create("probe4");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_trial_json_of_braces_is_an_error_record_never_a_crash);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(probe4_suite)
