/* SPDX-License-Identifier: MIT */
/* The sweep's progress display: a live line on a terminal (a
 * pseudo-terminal here), one plain line per finished trial elsewhere (at
 * most one a second, the first and the last always), nothing under -q; and
 * the summary's wall time. */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/live.h"
#include "testutil.h"

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

static size_t count(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
        n++;
    return n;
}

/* aorta-run with args (after the program) on a pseudo-terminal: everything
 * it wrote there, stdout and stderr together. */
static char *on_terminal(char *const *args, int *status)
{
    char *argv[32] = {tu_aorta_run()};
    size_t n = 1;
    for (; args[n - 1]; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    int master = -1;
    pid_t pid = forkpty(&master, NULL, NULL, NULL);
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        execv(argv[0], argv);
        _exit(127);
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    for (;;) {
        if (len + 1024 > cap)
            text = realloc(text, cap *= 2);
        ssize_t got = read(master, text + len, cap - len - 1);
        if (got > 0)
            len += (size_t)got;
        else if (got < 0 && errno == EINTR)
            continue;
        else
            break; /* EIO: the child closed the terminal */
    }
    text[len] = '\0';
    close(master);
    int raw = 0;
    ck_assert_int_eq(waitpid(pid, &raw, 0), pid);
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
    free(argv[0]);
    return text;
}

START_TEST(a_terminal_gets_one_line_that_rewrites_itself)
{
    int status = -1;
    char *text = on_terminal((char *[]){"--output", "D", "--trials", "3", "--", "sh", "-c",
                                        "exit 0", NULL},
                             &status);
    ck_assert_int_eq(status, 0);
    /* Each update goes back to the line's start and erases it. */
    ck_assert_msg(count(text, "\r\033[Kaorta-run: cell 1/1 none-none, trial ") >= 6, "%s", text);
    ck_assert_ptr_nonnull(strstr(text, "trial 1/3 running | elapsed "));
    ck_assert_ptr_nonnull(strstr(text, "trial 2/3 done (pass) | elapsed "));
    ck_assert_ptr_nonnull(strstr(text, "| 3 pass, 0 fail, 0 error"));
    ck_assert_ptr_nonnull(strstr(text, ", ETA "));
    /* The last state stays, ended by a newline (the terminal turns it into
     * "\r\n"), before the summary. */
    const char *last = strstr(text, "trial 3/3 done (pass)");
    ck_assert_ptr_nonnull(last);
    ck_assert_ptr_nonnull(strstr(last, "error\r\n"));
    ck_assert_ptr_nonnull(strstr(text, "Wall time: "));
    free(text);
}
END_TEST

START_TEST(a_terminal_under_q_shows_no_progress)
{
    int status = -1;
    char *text = on_terminal((char *[]){"-q", "--output", "D", "--", "true", NULL}, &status);
    ck_assert_int_eq(status, 0);
    ck_assert_ptr_null(strstr(text, "\033"));
    ck_assert_ptr_null(strstr(text, "trial 1/1"));
    ck_assert_ptr_nonnull(strstr(text, "Sweep summary: all 1 cell(s) passed."));
    free(text);
}
END_TEST

/* stderr without a terminal: the lines, asserted free of control bytes. */
static char *piped(char *const *args, char **out)
{
    char *argv[32] = {tu_aorta_run()};
    size_t n = 1;
    for (; args[n - 1]; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    char *err = NULL;
    ck_assert_int_eq(tu_run(argv, NULL, out, &err), 0);
    for (const unsigned char *c = (const unsigned char *)err; *c; c++)
        ck_assert_msg(*c == '\n' || (*c >= 0x20 && *c != 0x7f), "control byte %#x in %s", *c, err);
    free(argv[0]);
    return err;
}

START_TEST(without_a_terminal_fast_trials_print_the_first_and_the_last)
{
    char *out = NULL;
    char *err = piped((char *[]){"--output", "D", "--trials", "5", "--", "true", NULL}, &out);
    /* Five trials well within a second: the first and the last line. */
    ck_assert_msg(count(err, "\n") == 2, "%s", err);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: cell 1/1 none-none, trial 1/5 done (pass) | "
                                      "elapsed "));
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: cell 1/1 none-none, trial 5/5 done (pass) | "
                                      "elapsed "));
    ck_assert_ptr_nonnull(strstr(err, "| 5 pass, 0 fail, 0 error\n"));
    ck_assert_ptr_nonnull(strstr(out, "\nWall time: "));
    free(out);
    free(err);
}
END_TEST

START_TEST(without_a_terminal_slow_trials_print_one_line_each)
{
    char *out = NULL;
    char *err = piped((char *[]){"--output", "D", "--trials", "3", "--", "sh", "-c",
                                 "sleep 1.05; exit 1", NULL},
                      &out);
    ck_assert_msg(count(err, "\n") == 3, "%s", err);
    for (int t = 1; t <= 3; t++) {
        char want[96];
        snprintf(want, sizeof want, "trial %d/3 done (fail) | elapsed ", t);
        ck_assert_msg(strstr(err, want), "no '%s' in %s", want, err);
    }
    ck_assert_ptr_nonnull(strstr(err, "| 0 pass, 3 fail, 0 error\n"));
    /* After one trial the ETA is its time for each trial left. */
    ck_assert_ptr_null(strstr(err, "ETA --"));
    free(out);
    free(err);
}
END_TEST

START_TEST(q_silences_the_lines_and_v_keeps_its_own)
{
    char *out = NULL;
    char *err = piped((char *[]){"-q", "--output", "D", "--trials", "2", "--", "true", NULL}, &out);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    err = piped((char *[]){"-q", "-v", "--output", "E", "--trials", "2", "--", "true", NULL}, &out);
    ck_assert_ptr_nonnull(strstr(err, "] trial 2/2: passed in "));
    ck_assert_ptr_null(strstr(err, "aorta-run: cell"));
    free(out);
    free(err);
    err = piped((char *[]){"--quiet", "--output", "F", "--", "true", NULL}, &out);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
}
END_TEST

/* Issue 25: the live line is cut to the terminal's width, never inside a
 * UTF-8 character; wide characters count two columns. */
START_TEST(the_live_line_is_cut_at_a_character)
{
    char text[64];
    strcpy(text, "abcdef");
    ck_assert_uint_eq(ar_live_fit(text, 4), 4);
    ck_assert_str_eq(text, "abcd");
    strcpy(text, "abc");
    ck_assert_uint_eq(ar_live_fit(text, 80), 3);
    ck_assert_str_eq(text, "abc");
    strcpy(text, "ab\xc3\xa9\xc3\xa9"); /* abéé: 4 columns, 6 bytes */
    ck_assert_uint_eq(ar_live_fit(text, 3), 3);
    ck_assert_str_eq(text, "ab\xc3\xa9");
    strcpy(text, "a\xe6\x97\xa5\xe6\x9c\xac"); /* a and two wide CJK characters */
    ck_assert_uint_eq(ar_live_fit(text, 4), 3);
    ck_assert_str_eq(text, "a\xe6\x97\xa5");
    strcpy(text, "\xf0\x9f\x9a\x80x"); /* an emoji takes two */
    ck_assert_uint_eq(ar_live_fit(text, 1), 0);
    ck_assert_str_eq(text, "");
    strcpy(text, "abc");
    ck_assert_uint_eq(ar_live_fit(text, 0), 0);
    ck_assert_str_eq(text, "");
}
END_TEST

/* On a terminal 40 columns wide (COLUMNS, as the pseudo-terminal here has
 * no size), a long cell name cannot make the live line wrap. */
START_TEST(a_terminal_line_fits_its_width)
{
    tu_write("r.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                       "mitigations:\n  a_very_long_mitigation_name_that_goes_on_and_on: {X: \"1\"}\n"
                       "mitigation_axis: [a_very_long_mitigation_name_that_goes_on_and_on]\n"
                       "diagnostic_axis: [none]\n");
    ck_assert_int_eq(setenv("COLUMNS", "40", 1), 0);
    int status = -1;
    char *text = on_terminal((char *[]){"--recipe", "r.yaml", "--output", "D", "--", "true", NULL},
                             &status);
    unsetenv("COLUMNS");
    ck_assert_int_eq(status, 0);
    size_t lines = 0;
    for (const char *at = strstr(text, "\r\033[K"); at; at = strstr(at + 1, "\r\033[K")) {
        const char *line = at + 4;
        size_t len = strcspn(line, "\r\n");
        if (len == 0)
            continue;
        lines++;
        ck_assert_msg(len <= 39, "wider than 39: %.*s", (int)len, line);
    }
    ck_assert_uint_gt(lines, 0);
    ck_assert_ptr_nonnull(strstr(text, "\r\033[Kaorta-run: cell 1/1 a_very_long_mitigat\r"));
    free(text);
}
END_TEST

static Suite *progress_suite(void)
{
    Suite *suite = suite_create("progress");
    TCase *tc = tcase_create("progress");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_terminal_gets_one_line_that_rewrites_itself);
    tcase_add_test(tc, a_terminal_under_q_shows_no_progress);
    tcase_add_test(tc, without_a_terminal_fast_trials_print_the_first_and_the_last);
    tcase_add_test(tc, without_a_terminal_slow_trials_print_one_line_each);
    tcase_add_test(tc, q_silences_the_lines_and_v_keeps_its_own);
    tcase_add_test(tc, the_live_line_is_cut_at_a_character);
    tcase_add_test(tc, a_terminal_line_fits_its_width);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(progress_suite)
