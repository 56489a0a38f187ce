/* SPDX-License-Identifier: MIT */
/* Reading a profiler's output (ABI 1.4): the trial's environment in a
 * parse (aorta_metrics_env), the exporter child (aorta_exporter_run), the
 * CSV reader (aorta_csv_*), grouped numbers and time units; each promise
 * of the header, one test or more. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "aorta/collector.h"
#include "testutil.h"

START_TEST(a_sink_carries_a_copy_of_the_trials_environment)
{
    aorta_metrics_t *metrics = aorta_metrics_new("x_");
    ck_assert_ptr_null(aorta_metrics_env(metrics));
    ck_assert_ptr_null(aorta_metrics_env(NULL));
    aorta_env_t *env = aorta_env_new();
    aorta_env_set(env, "PATH", "/cell/bin");
    ck_assert_int_eq(aorta_metrics_set_env(metrics, env), 0);
    aorta_env_set(env, "PATH", "/changed"); /* a copy was attached */
    ck_assert_str_eq(aorta_env_get(aorta_metrics_env(metrics), "PATH"), "/cell/bin");
    aorta_env_set(env, "PATH", "/second");
    ck_assert_int_eq(aorta_metrics_set_env(metrics, env), 0); /* replaces */
    ck_assert_str_eq(aorta_env_get(aorta_metrics_env(metrics), "PATH"), "/second");
    /* Not a metric: the sink's count does not change. */
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    ck_assert_int_eq(aorta_metrics_set_env(metrics, NULL), 0); /* detaches */
    ck_assert_ptr_null(aorta_metrics_env(metrics));
    ck_assert_int_eq(aorta_metrics_set_env(NULL, env), -1);
    aorta_env_free(env);
    aorta_metrics_free(metrics);
}
END_TEST

/* An environment whose PATH is /bin:/usr/bin and name=value. */
static aorta_env_t *plain_env(const char *name, const char *value)
{
    aorta_env_t *env = aorta_env_new();
    aorta_env_set(env, "PATH", "/bin:/usr/bin");
    if (name)
        aorta_env_set(env, name, value);
    return env;
}

static int run_sh(const char *script, const aorta_env_t *env, double timeout, size_t max,
                  char **out, size_t *len, aorta_error_t *err)
{
    aorta_argv_t *argv = aorta_argv_from((char *[]){"sh", "-c", (char *)script}, 3);
    int status = aorta_exporter_run(argv, env, timeout, max, out, len, err);
    aorta_argv_free(argv);
    return status;
}

START_TEST(the_exporter_runs_with_exactly_the_given_environment)
{
    aorta_env_t *env = plain_env("AORTA_TEST_MARK", "from the trial");
    aorta_error_t *err = aorta_error_new();
    char *out = NULL;
    size_t len = 0;
    ck_assert_int_eq(run_sh("printf '%s|%s' \"$AORTA_TEST_MARK\" \"${HOME-unset}\"", env, 10,
                            1024, &out, &len, err), 0);
    ck_assert_str_eq(out, "from the trial|unset");
    ck_assert_uint_eq(len, strlen(out));
    ck_assert_ptr_null(aorta_error_message(err));
    aorta_free(out);
    /* stdin is /dev/null. */
    ck_assert_int_eq(run_sh("cat; echo done", env, 10, 1024, &out, &len, err), 0);
    ck_assert_str_eq(out, "done\n");
    aorta_free(out);
    aorta_error_free(err);
    aorta_env_free(env);
}
END_TEST

START_TEST(the_exporter_finds_its_program_on_the_environments_path)
{
    char *dir = tu_tmpdir();
    char *tool = tu_join(dir, "my-exporter");
    tu_write(tool, "#!/bin/sh\necho exported \"$1\"\n");
    chmod(tool, 0755);
    aorta_env_t *env = plain_env(NULL, NULL);
    char *path = tu_join(dir, "");
    char value[4096];
    snprintf(value, sizeof value, "%s:/bin:/usr/bin", dir);
    aorta_env_set(env, "PATH", value);
    aorta_argv_t *argv = aorta_argv_from((char *[]){"my-exporter", "R"}, 2);
    char *out = NULL;
    size_t len = 0;
    aorta_error_t *err = aorta_error_new();
    ck_assert_int_eq(aorta_exporter_run(argv, env, 10, 100, &out, &len, err), 0);
    ck_assert_str_eq(out, "exported R\n");
    aorta_free(out);
    /* Not on PATH: -1, the reason, no output. */
    aorta_env_set(env, "PATH", "/bin:/usr/bin");
    ck_assert_int_eq(aorta_exporter_run(argv, env, 10, 100, &out, &len, err), -1);
    ck_assert_ptr_null(out);
    ck_assert_str_eq(aorta_error_message(err), "my-exporter: not found on the trial's PATH");
    /* A NULL environment is an empty one: no PATH, nothing found. */
    ck_assert_int_eq(aorta_exporter_run(argv, NULL, 10, 100, &out, &len, NULL), -1);
    aorta_error_free(err);
    aorta_argv_free(argv);
    aorta_env_free(env);
    free(path);
    free(tool);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(a_failing_exporter_gives_its_status_and_stderrs_first_line)
{
    aorta_env_t *env = plain_env(NULL, NULL);
    aorta_error_t *err = aorta_error_new();
    char *out = NULL;
    size_t len = 0;
    ck_assert_int_eq(run_sh("echo partial; echo 'ERROR: no such report' >&2; echo more >&2; exit 3",
                            env, 10, 1024, &out, &len, err), 3);
    ck_assert_str_eq(out, "partial\n");
    ck_assert_ptr_nonnull(strstr(aorta_error_message(err), "exited with status 3: ERROR: no such "
                                                           "report"));
    ck_assert_ptr_null(strstr(aorta_error_message(err), "more"));
    aorta_free(out);
    aorta_error_free(err);
    aorta_env_free(env);
}
END_TEST

START_TEST(an_exporter_past_its_time_or_its_bound_is_killed)
{
    aorta_env_t *env = plain_env(NULL, NULL);
    aorta_error_t *err = aorta_error_new();
    char *out = (char *)"x";
    size_t len = 7;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    /* The sleeping grandchild shares the group: it is killed too, so the
     * pipe closes. */
    ck_assert_int_eq(run_sh("sleep 30 & sleep 30", env, 0.3, 1024, &out, &len, err), -1);
    clock_gettime(CLOCK_MONOTONIC, &b);
    ck_assert(b.tv_sec - a.tv_sec < 10);
    ck_assert_ptr_null(out);
    ck_assert_uint_eq(len, 0);
    ck_assert_ptr_nonnull(strstr(aorta_error_message(err), "did not finish within 0.3 s"));
    ck_assert_int_eq(run_sh("yes", env, 10, 4096, &out, &len, err), -1);
    ck_assert_ptr_nonnull(strstr(aorta_error_message(err), "printed more than 4096 bytes"));
    ck_assert_int_eq(run_sh("kill -9 $$", env, 10, 4096, &out, &len, err), -1);
    ck_assert_ptr_nonnull(strstr(aorta_error_message(err), "killed by signal"));
    aorta_error_free(err);
    aorta_env_free(env);
}
END_TEST

/* ASan reserves terabytes of address space: no RLIMIT_AS under it. */
#if defined(__SANITIZE_ADDRESS__)
#define LIMITS_TESTABLE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LIMITS_TESTABLE 0
#endif
#endif
#ifndef LIMITS_TESTABLE
#define LIMITS_TESTABLE 1
#endif

/* The parse's address-space limit (aorta-run sets it on its parse child)
 * reaches the exporter through exec: a space of its own, that large.
 * Check runs each test in a child, so the limit stays in this test. */
START_TEST(the_exporter_runs_under_the_parses_memory_limit)
{
    if (!LIMITS_TESTABLE)
        return;
    struct rlimit limit = {(rlim_t)2 << 30, (rlim_t)2 << 30};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &limit), 0);
    aorta_env_t *env = plain_env(NULL, NULL);
    char *out = NULL;
    size_t len = 0;
    ck_assert_int_eq(run_sh("ulimit -v", env, 10, 100, &out, &len, NULL), 0);
    ck_assert_str_eq(out, "2097152\n"); /* KiB */
    aorta_free(out);
    aorta_env_free(env);
}
END_TEST

START_TEST(the_exporter_refuses_null_arguments)
{
    char *out = NULL;
    size_t len = 0;
    aorta_argv_t *empty = aorta_argv_new();
    ck_assert_int_eq(aorta_exporter_run(NULL, NULL, 1, 1, &out, &len, NULL), -1);
    ck_assert_int_eq(aorta_exporter_run(empty, NULL, 1, 1, &out, &len, NULL), -1);
    aorta_error_t *err = aorta_error_new();
    ck_assert_int_eq(aorta_exporter_run(empty, NULL, 1, 1, NULL, &len, err), -1);
    ck_assert_ptr_nonnull(aorta_error_message(err));
    aorta_error_free(err);
    aorta_argv_free(empty);
}
END_TEST

/* The fields of the next row, joined with '|'; "<end>" or "<bad>|...". */
static char *row(aorta_csv_t *csv)
{
    static char text[1024];
    int status = aorta_csv_next(csv);
    if (status == 0)
        return strcpy(text, "<end>");
    text[0] = '\0';
    if (status < 0)
        strcat(text, "<bad>");
    for (size_t i = 0; i < aorta_csv_field_count(csv); i++) {
        size_t len = 0;
        const char *field = aorta_csv_field(csv, i, &len);
        ck_assert_uint_eq(len, strlen(field));
        if (i || status < 0)
            strcat(text, "|");
        strcat(text, field);
    }
    return text;
}

START_TEST(csv_reads_quoted_fields_with_commas_quotes_and_newlines)
{
    const char data[] = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\r\n"
                        "\"\",\"\",\"nsecond\"\n"
                        "\"0\",\"void k<int, 2>(\"\"a\"\")\",\"1,234.5\"\n"
                        "1,\"two\nlines\",3\n"
                        "\n"
                        "last,,";
    aorta_csv_t *csv = aorta_csv_new(data, sizeof data - 1);
    ck_assert_uint_eq(aorta_csv_field_count(csv), 0);
    ck_assert_uint_eq(aorta_csv_line(csv), 0);
    ck_assert_str_eq(row(csv), "ID|Kernel Name|gpu__time_duration.sum");
    ck_assert_uint_eq(aorta_csv_line(csv), 1);
    ck_assert_str_eq(row(csv), "||nsecond"); /* the units row */
    ck_assert_str_eq(row(csv), "0|void k<int, 2>(\"a\")|1,234.5");
    ck_assert_uint_eq(aorta_csv_line(csv), 3);
    ck_assert_str_eq(row(csv), "1|two\nlines|3");
    ck_assert_uint_eq(aorta_csv_line(csv), 4);
    ck_assert_str_eq(row(csv), ""); /* an empty line: no fields */
    ck_assert_uint_eq(aorta_csv_field_count(csv), 0);
    ck_assert_uint_eq(aorta_csv_line(csv), 6);
    ck_assert_str_eq(row(csv), "last||");
    ck_assert_uint_eq(aorta_csv_field_count(csv), 3);
    ck_assert_str_eq(row(csv), "<end>");
    ck_assert_str_eq(row(csv), "<end>");
    size_t len = 9;
    ck_assert_ptr_null(aorta_csv_field(csv, 3, &len));
    ck_assert_uint_eq(len, 0);
    aorta_csv_free(csv);
}
END_TEST

START_TEST(csv_marks_malformed_rows_and_goes_on)
{
    const char data[] = "\"a\"b,c\nok,1\n\"open";
    aorta_csv_t *csv = aorta_csv_new(data, sizeof data - 1);
    ck_assert_str_eq(row(csv), "<bad>|ab|c"); /* text after a closing quote */
    ck_assert_str_eq(row(csv), "ok|1");
    ck_assert_str_eq(row(csv), "<bad>|open"); /* a quote open at the end */
    ck_assert_str_eq(row(csv), "<end>");
    aorta_csv_free(csv);
    /* A field may hold NUL bytes. */
    const char nul[] = "a\0b,c";
    csv = aorta_csv_new(nul, sizeof nul - 1);
    ck_assert_int_eq(aorta_csv_next(csv), 1);
    size_t len = 0;
    ck_assert_mem_eq(aorta_csv_field(csv, 0, &len), "a\0b", 4);
    ck_assert_uint_eq(len, 3);
    ck_assert_ptr_nonnull(aorta_csv_field(csv, 0, NULL));
    aorta_csv_free(csv);
    /* Empty data, NULL. */
    csv = aorta_csv_new(NULL, 0);
    ck_assert_int_eq(aorta_csv_next(csv), 0);
    aorta_csv_free(csv);
    ck_assert_ptr_null(aorta_csv_new(NULL, 1));
    ck_assert_int_eq(aorta_csv_next(NULL), 0);
    ck_assert_uint_eq(aorta_csv_field_count(NULL), 0);
    ck_assert_uint_eq(aorta_csv_line(NULL), 0);
    aorta_csv_free(NULL);
}
END_TEST

static int grouped(const char *text, double *out)
{
    return aorta_number_parse_grouped(text, strlen(text), out);
}

START_TEST(grouped_numbers_take_thousands_separators_and_na)
{
    double v = -1;
    ck_assert_int_eq(grouped("1,234.5", &v), 0);
    ck_assert_double_eq(v, 1234.5);
    ck_assert_int_eq(grouped(" -12,345,678 ", &v), 0);
    ck_assert_double_eq(v, -12345678);
    ck_assert_int_eq(grouped("999", &v), 0);
    ck_assert_double_eq(v, 999);
    ck_assert_int_eq(grouped("1e3", &v), 0);
    ck_assert_double_eq(v, 1000);
    v = 7;
    ck_assert_int_eq(grouped("n/a", &v), 1);
    ck_assert_int_eq(grouped("N/A", &v), 1);
    ck_assert_int_eq(grouped("  ", &v), 1);
    ck_assert_double_eq(v, 7); /* untouched */
    const char *bad[] = {"1,23", "1,2345", "1234,567", ",123", "1,,234", "1,234,", "12.5,3",
                         "nan", "inf", "0x10", "1,234x", "abc", "1.234,5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(grouped(bad[i], &v) == -1, "%s", bad[i]);
    ck_assert_int_eq(aorta_number_parse_grouped(NULL, 0, &v), -1);
    ck_assert_int_eq(aorta_number_parse_grouped("1,234", 3, &v), -1); /* "1,2" */
}
END_TEST

START_TEST(time_units_become_milliseconds)
{
    const struct {
        const char *unit;
        double ms;
    } rows[] = {{"nsecond", 1e-6}, {"ns", 1e-6}, {"usecond", 1e-3}, {"us", 1e-3},
                {"msecond", 1},    {"ms", 1},    {"second", 1e3},   {"s", 1e3}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double ms = 0;
        ck_assert_int_eq(aorta_unit_to_ms(rows[i].unit, &ms), 0);
        ck_assert_double_eq(ms, rows[i].ms);
    }
    double ms = 5;
    ck_assert_int_eq(aorta_unit_to_ms("cycle", &ms), -1);
    ck_assert_int_eq(aorta_unit_to_ms("NS", &ms), -1);
    ck_assert_int_eq(aorta_unit_to_ms("", &ms), -1);
    ck_assert_int_eq(aorta_unit_to_ms(NULL, &ms), -1);
    ck_assert_double_eq(ms, 5);
}
END_TEST

static Suite *reading_suite(void)
{
    Suite *suite = suite_create("sdk_reading");
    TCase *tc = tcase_create("reading");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_sink_carries_a_copy_of_the_trials_environment);
    tcase_add_test(tc, the_exporter_runs_with_exactly_the_given_environment);
    tcase_add_test(tc, the_exporter_finds_its_program_on_the_environments_path);
    tcase_add_test(tc, a_failing_exporter_gives_its_status_and_stderrs_first_line);
    tcase_add_test(tc, an_exporter_past_its_time_or_its_bound_is_killed);
    tcase_add_test(tc, the_exporter_runs_under_the_parses_memory_limit);
    tcase_add_test(tc, the_exporter_refuses_null_arguments);
    tcase_add_test(tc, csv_reads_quoted_fields_with_commas_quotes_and_newlines);
    tcase_add_test(tc, csv_marks_malformed_rows_and_goes_on);
    tcase_add_test(tc, grouped_numbers_take_thousands_separators_and_na);
    tcase_add_test(tc, time_units_become_milliseconds);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(reading_suite)
