/* SPDX-License-Identifier: MIT */
/* A sweep in parts (issue 37, decisions.md section 11, "Clusters"):
 * --cells PATTERN and --rounds A-B run a part of the request into its run
 * directory, and each part's matrix.json covers every cell that has records
 * there (no cell is hidden by the part that ran last); a pattern that
 * matches nothing, and rounds past the budget, are refused in one line. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeputil.h"
#include "xalloc.h"

static char *dir;

static void setup(void)
{
    dir = tu_tmpdir();
    ck_assert_int_eq(chdir(dir), 0);
    /* three cells: none-none, a-none, b-none; three trials each */
    tu_write("r.yaml", "schema_version: 1\nmode: probe\nticket: P\ntrials: 3\n"
                       "mitigation_axis: [none, a, b]\ndiagnostic_axis: [none]\n"
                       "mitigations:\n  a: {X: \"a\"}\n  b: {X: \"b\"}\n");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
}

/* Each trial appends "X" (the cell's variable, "-" in none-none) to log. */
#define LOG_X "echo \"${X:--}\" >> \"$0\""

static int run_part(const char *log, char *const *part, char **err)
{
    char *args[16];
    size_t n = 0;
    args[n++] = "--recipe";
    args[n++] = "r.yaml";
    args[n++] = "--output";
    args[n++] = "out";
    for (size_t i = 0; part[i]; i++)
        args[n++] = part[i];
    args[n++] = "--";
    args[n++] = "sh";
    args[n++] = "-c";
    args[n++] = LOG_X;
    args[n++] = (char *)log;
    args[n] = NULL;
    return su_aorta(NULL, args, NULL, err);
}

/* "name:trials,name:trials," of matrix.json's cells, in its order. */
static char *cells_of(const char *run)
{
    ar_json_t *matrix = su_json(run, "matrix.json");
    ar_json_t *cells = su_at(matrix, "cells", NULL);
    tu_text_t text = {0};
    for (size_t i = 0; i < ar_json_length(cells); i++)
        tu_text_add(&text, "%s:%lld,", su_str(ar_json_at(cells, i), "name", NULL),
                    (long long)ar_json_get_int(su_at(ar_json_at(cells, i), "trials", NULL)));
    ar_json_free(matrix);
    return text.data ? text.data : ar_xstrdup("");
}

START_TEST(cell_parts_one_after_another_leave_no_cell_out)
{
    char *log = tu_join(dir, "log");
    ck_assert_int_eq(run_part(log, (char *[]){"--cells", "b-*", NULL}, NULL), 0);
    char *cells = cells_of("out/P");
    ck_assert_str_eq(cells, "b-none:3,");
    free(cells);
    char *ran = tu_read(log);
    ck_assert_str_eq(ran, "b\nb\nb\n");
    free(ran);
    /* The second part's reports hold the first part's cell, read back. */
    ck_assert_int_eq(run_part(log, (char *[]){"--cells", "none-none", NULL}, NULL), 0);
    cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:3,b-none:3,");
    free(cells);
    char *perf = tu_read("out/P/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "b-none"));
    ck_assert_ptr_nonnull(strstr(perf, "none-none"));
    free(perf);
    /* Two patterns; b-none is done, so only a-none runs. */
    ck_assert_int_eq(run_part(log, (char *[]){"--cells", "a-*", "--cells", "b-*", NULL}, NULL),
                     0);
    cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:3,a-none:3,b-none:3,");
    free(cells);
    ran = tu_read(log);
    ck_assert_str_eq(ran, "b\nb\nb\n-\n-\n-\na\na\na\n");
    free(ran);
    /* The whole request after its parts: nothing left to run, nothing hidden. */
    ck_assert_int_eq(run_part(log, (char *[]){NULL}, NULL), 0);
    cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:3,a-none:3,b-none:3,");
    free(cells);
    ran = tu_read(log);
    ck_assert_uint_eq(strlen(ran), 18);
    free(ran);
    free(log);
}
END_TEST

START_TEST(round_parts_merge_into_the_whole_budget)
{
    char *log = tu_join(dir, "log");
    ck_assert_int_eq(run_part(log, (char *[]){"--rounds", "3-3", NULL}, NULL), 0);
    char *cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:1,a-none:1,b-none:1,");
    free(cells);
    ck_assert_int_eq(access("out/P/a-none/trial_2", F_OK), 0);
    ck_assert_int_ne(access("out/P/a-none/trial_0", F_OK), 0);
    ck_assert_int_eq(run_part(log, (char *[]){"--rounds", "1-2", "--cells", "a-*", NULL},
                              NULL),
                     0);
    cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:1,a-none:3,b-none:1,");
    free(cells);
    ck_assert_int_eq(run_part(log, (char *[]){"--rounds", "1-3", NULL}, NULL), 0);
    cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:3,a-none:3,b-none:3,");
    free(cells);
    /* 3 + 2 + 4 trials: nothing on record ran twice. */
    char *ran = tu_read(log);
    size_t lines = 0;
    for (const char *p = ran; *p; p++)
        lines += *p == '\n';
    ck_assert_uint_eq(lines, 9);
    free(ran);
    /* Each trial JSON keeps its round. */
    ar_json_t *trial = su_json("out/P", "b-none/_subprocess/trial_d0_m0_t2.json");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(trial, "round")), 2);
    ar_json_free(trial);
    free(log);
}
END_TEST

START_TEST(a_pattern_that_matches_nothing_is_refused_naming_the_cells)
{
    char *log = tu_join(dir, "log");
    char *err = NULL;
    ck_assert_int_eq(run_part(log, (char *[]){"--cells", "a-*", "--cells", "zz*", NULL}, &err),
                     2);
    ck_assert_ptr_nonnull(strstr(err, "'zz*'"));
    ck_assert_ptr_nonnull(strstr(err, "none-none, a-none, b-none"));
    ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1); /* one line */
    free(err);
    ck_assert_int_ne(access(log, F_OK), 0);
    ck_assert_int_eq(run_part(log, (char *[]){"--rounds", "2-4", NULL}, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "3 round(s)"));
    free(err);
    static const char *const bad[] = {"0-1", "3-2", "x", "1-", "-2", "1-2-3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(run_part(log, (char *[]){"--rounds", (char *)bad[i], NULL}, &err), 2);
        ck_assert_ptr_nonnull(strstr(err, "--rounds"));
        free(err);
    }
    ck_assert_int_ne(access(log, F_OK), 0);
    free(log);
}
END_TEST

/* Two parts of one request at once into one run directory: each holds
 * only its own cells (a lock per cell directory), both run at the same time
 * (each trial waits for the other part's first trial to have started), and
 * the reports written last hold both parts' cells. */
START_TEST(two_parts_run_at_the_same_time_and_the_last_reports_hold_both)
{
    /* Each trial marks its cell as started, then waits (up to 20 s) for the
     * other part's mark: only two parts running at once get past it. */
    tu_write("wait.sh", "touch \"$1/started-${X:-none}\"\n"
                        "case \"${X:-none}\" in a) other=none;; *) other=a;; esac\n"
                        "i=0; while [ ! -e \"$1/started-$other\" ] && [ $i -lt 200 ]; do "
                        "sleep 0.1; i=$((i+1)); done\n"
                        "[ -e \"$1/started-$other\" ]\n");
    char *args_a[] = {"--recipe", "r.yaml", "--output", "out", "--cells", "a-*", "--",
                      "sh", "wait.sh", dir, NULL};
    char *args_n[] = {"--recipe", "r.yaml", "--output", "out", "--cells", "none-*", "--",
                      "sh", "wait.sh", dir, NULL};
    pid_t a = su_aorta_start(NULL, args_a, "a.out", "a.err");
    pid_t n = su_aorta_start(NULL, args_n, "n.out", "n.err");
    int status_a = tu_wait(a), status_n = tu_wait(n);
    char *err_a = tu_read("a.err"), *err_n = tu_read("n.err");
    ck_assert_msg(status_a == 0 && status_n == 0, "exit %d (%s) and %d (%s)", status_a, err_a,
                  status_n, err_n);
    free(err_a);
    free(err_n);
    char *cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:3,a-none:3,");
    free(cells);
    ar_json_t *trial = su_json("out/P", "a-none/trial_0/result.json");
    ck_assert_str_eq(su_str(trial, "verdict", NULL), "pass");
    ar_json_free(trial);
    /* A third part on a cell another part holds is refused in one line. */
    tu_write("out/P/a-none/.aorta-part-1.lock", "{\"pid\": 1, \"host\": \"elsewhere\", "
                                             "\"started_at\": \"2026-12-07T00:00:00Z\"}");
    char *err = NULL;
    ck_assert_int_eq(run_part("log", (char *[]){"--cells", "a-*", "--fresh", NULL}, &err), 1);
    ck_assert_ptr_nonnull(strstr(err, "a-none/.aorta-part-1.lock"));
    free(err);
    ck_assert_int_eq(access("out/P/a-none/trial_0/result.json", F_OK), 0);
    /* ...and the other cells are not its: it may run them. */
    char *args_b[] = {"--recipe", "r.yaml", "--output", "out", "--cells", "b-*", "--",
                      "sh", "wait.sh", dir, NULL};
    ck_assert_int_eq(su_aorta(NULL, args_b, NULL, NULL), 0);
    cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:3,a-none:3,b-none:3,");
    free(cells);
}
END_TEST

/* Two parts that share every cell but no round run at the same time
 * (the locks are per trial); PART tells the trials which part they are. */
START_TEST(two_round_parts_of_the_same_cells_run_at_the_same_time)
{
    tu_write("wait.sh", "touch \"$1/started-$PART\"\n"
                        "i=0; while [ ! -e \"$1/started-$((3 - PART))\" ] && [ $i -lt 200 ]; do "
                        "sleep 0.1; i=$((i+1)); done\n"
                        "[ -e \"$1/started-$((3 - PART))\" ]\n");
    char *args_1[] = {"--recipe", "r.yaml", "--output", "out", "--rounds", "1", "--",
                      "sh", "wait.sh", dir, NULL};
    char *args_2[] = {"--recipe", "r.yaml", "--output", "out", "--rounds", "2-3", "--",
                      "sh", "wait.sh", dir, NULL};
    pid_t one = su_aorta_start((char *[]){"PART=1", NULL}, args_1, "1.out", "1.err");
    pid_t two = su_aorta_start((char *[]){"PART=2", NULL}, args_2, "2.out", "2.err");
    int status_1 = tu_wait(one), status_2 = tu_wait(two);
    char *err_1 = tu_read("1.err"), *err_2 = tu_read("2.err");
    ck_assert_msg(status_1 == 0 && status_2 == 0, "exit %d (%s) and %d (%s)", status_1, err_1,
                  status_2, err_2);
    free(err_1);
    free(err_2);
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--merge", "out/P", NULL}, &out, &err), 0);
    char *cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:3,a-none:3,b-none:3,");
    free(cells);
    for (int t = 0; t < 3; t++) {
        char *rel = ar_xasprintf("a-none/trial_%d/result.json", t);
        ar_json_t *trial = su_json("out/P", rel);
        ck_assert_str_eq(su_str(trial, "verdict", NULL), "pass");
        ar_json_free(trial);
        free(rel);
    }
    /* No lock is left behind. */
    ck_assert_int_ne(access("out/P/a-none/.aorta-part-0.lock", F_OK), 0);
    ck_assert_int_ne(access("out/P/.aorta-run.lock", F_OK), 0);
    free(out);
    free(err);
}
END_TEST

/* A run into a ticket that holds cells of another request (other axes) is
 * refused in one line naming them: its matrix.json would hide them. */
START_TEST(a_ticket_holding_another_requests_cells_is_refused)
{
    char *log = tu_join(dir, "log");
    ck_assert_int_eq(run_part(log, (char *[]){"--cells", "b-*", NULL}, NULL), 0);
    tu_write("other.yaml", "schema_version: 1\nmode: probe\nticket: P\ntrials: 3\n"
                           "mitigation_axis: [none, c]\ndiagnostic_axis: [none]\n"
                           "mitigations:\n  c: {X: \"c\"}\n");
    char *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--recipe", "other.yaml", "--output", "out", "--",
                                               "sh", "-c", LOG_X, log, NULL},
                              NULL, &err),
                     2);
    ck_assert_ptr_nonnull(strstr(err, "another request (b-none)"));
    ck_assert_ptr_nonnull(strstr(err, "--ticket"));
    ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1);
    free(err);
    char *ran = tu_read(log);
    ck_assert_str_eq(ran, "b\nb\nb\n"); /* nothing more ran */
    free(ran);
    char *cells = cells_of("out/P");
    ck_assert_str_eq(cells, "b-none:3,");
    free(cells);
    free(log);
}
END_TEST

/* The lines of text that contain needle. */
static size_t lines_with(const char *text, const char *needle)
{
    size_t count = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
        count++;
    return count;
}

START_TEST(merge_rebuilds_the_reports_and_names_each_cell_with_rounds_missing)
{
    char *log = tu_join(dir, "log");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(run_part(log, (char *[]){"--cells", "a-*", "--rounds", "1-2", NULL},
                              NULL),
                     0);
    ck_assert_int_eq(unlink("out/P/perf.md"), 0);
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--merge", "out/P", NULL}, &out, &err), 1);
    /* The reports again, through --report's writers. */
    ck_assert_int_eq(access("out/P/perf.md", F_OK), 0);
    ck_assert_ptr_nonnull(strstr(err, "cell 'a-none' is incomplete: round(s) 3 of 3 have no "
                                      "record"));
    ck_assert_ptr_nonnull(strstr(err, "cell 'none-none' is incomplete: round(s) 1-3 of 3"));
    ck_assert_ptr_nonnull(strstr(err, "cell 'b-none' is incomplete: round(s) 1-3 of 3"));
    ck_assert_uint_eq(lines_with(err, "is incomplete"), 3);
    free(out);
    free(err);
    /* The rest in two more parts: the merge is whole. */
    ck_assert_int_eq(run_part(log, (char *[]){"--rounds", "3", NULL}, NULL), 0);
    ck_assert_int_eq(run_part(log, (char *[]){"--cells", "[nb]*", "--rounds", "1-2", NULL},
                              NULL),
                     0);
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--merge", "out/P", NULL}, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "every round of the 3 cell(s) is on record"));
    ck_assert_ptr_null(strstr(err, "incomplete"));
    char *cells = cells_of("out/P");
    ck_assert_str_eq(cells, "none-none:3,a-none:3,b-none:3,");
    free(cells);
    free(out);
    free(err);
    /* --merge of what is not a run directory: one line, exit 1. */
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--merge", "nowhere", NULL}, NULL, &err), 1);
    ck_assert_ptr_nonnull(strstr(err, "not a run directory"));
    free(err);
    free(log);
}
END_TEST

static Suite *parts_suite(void)
{
    Suite *suite = suite_create("sweep parts");
    TCase *tc = tcase_create("parts");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, cell_parts_one_after_another_leave_no_cell_out);
    tcase_add_test(tc, round_parts_merge_into_the_whole_budget);
    tcase_add_test(tc, a_pattern_that_matches_nothing_is_refused_naming_the_cells);
    tcase_add_test(tc, two_parts_run_at_the_same_time_and_the_last_reports_hold_both);
    tcase_add_test(tc, two_round_parts_of_the_same_cells_run_at_the_same_time);
    tcase_add_test(tc, a_ticket_holding_another_requests_cells_is_refused);
    tcase_add_test(tc, merge_rebuilds_the_reports_and_names_each_cell_with_rounds_missing);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(parts_suite)
