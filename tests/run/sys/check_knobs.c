/* SPDX-License-Identifier: MIT */
/* The AORTA_* knobs, read one way (sys/knobs.h): each kind's good values,
 * its bad ones (the fallback, and one warning naming the variable, the
 * value and the value used), an empty one (as unset, no warning), one
 * warning per bad value however often it is read; then every knob of
 * aorta-run(1)'s ENVIRONMENT section with a bad value, through the function
 * that reads it or through aorta-run itself: exactly one warning a run. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep/parse_child.h"
#include "sweep/rank_parse.h"
#include "record/rank_record.h"
#include "sweep/run.h"
#include "sweeptest.h"
#include "sys/knobs.h"

static char *dir;

static void setup(void)
{
    dir = tu_tmpdir();
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
}


typedef struct seconds_case {
    const char *text;
    int flags;
    double want;
    const char *warning; /* NULL: none */
} seconds_case_t;

static const seconds_case_t *seconds_now;

static void read_seconds(void *user)
{
    *(double *)user = ar_knob_seconds("AORTA_TEST_KNOB", 7, seconds_now->flags);
}

START_TEST(seconds_take_a_number_in_range)
{
    static const seconds_case_t cases[] = {
        {"0.5", 0, 0.5, NULL},
        {"10", 0, 10, NULL},
        {"1e9", 0, 1e9, NULL},
        {"", 0, 7, NULL},
        {"0", AR_KNOB_ZERO_OK, 0, NULL},
        {"0", 0, 7, "AORTA_TEST_KNOB='0' is not a number of seconds > 0; using 7"},
        {"-1", AR_KNOB_ZERO_OK, 7,
         "AORTA_TEST_KNOB='-1' is not a number of seconds >= 0; using 7"},
        {"soon", 0, 7, "AORTA_TEST_KNOB='soon' is not a number of seconds > 0; using 7"},
        {"5 ", 0, 7, "AORTA_TEST_KNOB='5 ' is not a number of seconds > 0; using 7"},
        {"inf", 0, 7, "AORTA_TEST_KNOB='inf' is not a number of seconds > 0; using 7"},
        {"nan", 0, 7, "AORTA_TEST_KNOB='nan' is not a number of seconds > 0; using 7"},
        {"2e9", 0, 7, "AORTA_TEST_KNOB='2e9' is not a number of seconds > 0; using 7"},
        {"a\nb", 0, 7, "AORTA_TEST_KNOB='a\\nb' is not a number of seconds > 0; using 7"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        seconds_now = &cases[i];
        setenv("AORTA_TEST_KNOB", cases[i].text, 1);
        double got = 0;
        char *err = tu_stderr_of(read_seconds, &got);
        ck_assert_msg(got == cases[i].want, "'%s': %g", cases[i].text, got);
        char *want = cases[i].warning ? tu_fmt("aorta-run: warning: %s\n", cases[i].warning)
                                      : strdup("");
        ck_assert_str_eq(err, want);
        free(want);
        free(err);
    }
    unsetenv("AORTA_TEST_KNOB");
    double got = 0;
    char *err = tu_stderr_of(read_seconds, &got);
    ck_assert(got == 7);
    ck_assert_str_eq(err, "");
    free(err);
}
END_TEST

static void read_twice(void *user)
{
    (void)user;
    setenv("AORTA_TEST_TWICE", "x", 1);
    for (int i = 0; i < 3; i++)
        ck_assert(ar_knob_seconds("AORTA_TEST_TWICE", 2, 0) == 2);
    setenv("AORTA_TEST_TWICE", "y", 1);
    ck_assert(ar_knob_seconds("AORTA_TEST_TWICE", 2, 0) == 2);
    ck_assert(ar_knob_seconds("AORTA_TEST_TWICE", 2, 0) == 2);
    setenv("AORTA_TEST_TWICE", "3", 1);
    ck_assert(ar_knob_seconds("AORTA_TEST_TWICE", 2, 0) == 3);
    unsetenv("AORTA_TEST_TWICE");
}

START_TEST(one_warning_per_bad_value)
{
    char *err = tu_stderr_of(read_twice, NULL);
    ck_assert_str_eq(err, "aorta-run: warning: AORTA_TEST_TWICE='x' is not a number of seconds > "
                          "0; using 2\n"
                          "aorta-run: warning: AORTA_TEST_TWICE='y' is not a number of seconds > "
                          "0; using 2\n");
    free(err);
}
END_TEST

typedef struct size_case {
    const char *text;
    uint64_t want;
    int warns;
} size_case_t;

static const size_case_t *size_now;

static void read_size(void *user)
{
    *(uint64_t *)user = ar_knob_size("AORTA_TEST_SIZE", UINT64_C(4) << 30);
}

START_TEST(sizes_take_bytes_or_a_suffix)
{
    static const size_case_t cases[] = {
        {"1000", 1000, 0},
        {"512k", 512u << 10, 0},
        {"256M", 256u << 20, 0},
        {"8G", UINT64_C(8) << 30, 0},
        {"18446744073709551615", UINT64_MAX, 0},
        {"", UINT64_C(4) << 30, 0},
        {"0", UINT64_C(4) << 30, 1},
        {"-1", UINT64_C(4) << 30, 1},
        {" 5", UINT64_C(4) << 30, 1},
        {"12T", UINT64_C(4) << 30, 1},
        {"M", UINT64_C(4) << 30, 1},
        {"1GB", UINT64_C(4) << 30, 1},
        {"18446744073709551616", UINT64_C(4) << 30, 1},
        {"17179869184G", UINT64_C(4) << 30, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_now = &cases[i];
        setenv("AORTA_TEST_SIZE", cases[i].text, 1);
        uint64_t got = 0;
        char *err = tu_stderr_of(read_size, &got);
        ck_assert_msg(got == cases[i].want, "'%s': %llu", cases[i].text,
                      (unsigned long long)got);
        char *want = cases[i].warns
                         ? tu_fmt("aorta-run: warning: AORTA_TEST_SIZE='%s' is not a size in "
                                  "bytes (a whole number > 0, or with K, M or G); using 4G\n",
                                  cases[i].text)
                         : strdup("");
        ck_assert_str_eq(err, want);
        free(want);
        free(err);
    }
    unsetenv("AORTA_TEST_SIZE");
}
END_TEST

static void read_count(void *user)
{
    *(long *)user = ar_knob_count("AORTA_TEST_COUNT", 3);
}

START_TEST(counts_take_a_whole_number)
{
    static const struct {
        const char *text;
        long want;
        int warns;
    } cases[] = {
        {"1", 1, 0},     {"64", 64, 0},  {"", 3, 0},    {"0", 3, 1},
        {"-2", 3, 1},    {"+2", 3, 1},   {"2.5", 3, 1}, {"many", 3, 1},
        {"1024", 1024, 0},
        /* More than the cap, LONG_MAX and past it among them: the cap, said once. */
        {"1025", 1024, 1}, {"9223372036854775807", 1024, 1}, {"99999999999999999999", 1024, 1},
        {"000", 3, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setenv("AORTA_TEST_COUNT", cases[i].text, 1);
        long got = 0;
        char *err = tu_stderr_of(read_count, &got);
        ck_assert_msg(got == cases[i].want, "'%s': %ld", cases[i].text, got);
        char *want = cases[i].warns ? tu_fmt("aorta-run: warning: AORTA_TEST_COUNT='%s' is not "
                                             "a whole number from 1 to 1024; using %ld\n",
                                             cases[i].text, cases[i].want)
                                    : strdup("");
        ck_assert_str_eq(err, want);
        free(want);
        free(err);
    }
    unsetenv("AORTA_TEST_COUNT");
}
END_TEST

/* ---- each knob, where aorta-run reads it ------------------------------- */

static void read_parse_timeout(void *user)
{
    *(double *)user = ar_parse_timeout();
}

static void read_kill_grace(void *user)
{
    *(double *)user = ar_run_kill_grace();
}

static void read_rank_wait(void *user)
{
    *(double *)user = ar_rank_wait_sec(30);
}

static void read_parse_jobs(void *user)
{
    *(double *)user = (double)ar_parse_jobs();
}

static void read_parse_memory(void *user)
{
    *(double *)user = (double)ar_parse_memory_limit();
}

START_TEST(each_knob_read_in_process)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    char *jobs_used = tu_fmt("%ld", cpus > 0 ? cpus : 1);
    struct {
        const char *name;
        void (*read)(void *);
        double fallback;
        const char *what;
        const char *used;
    } knobs[] = {
        {"AORTA_PARSE_TIMEOUT", read_parse_timeout, 600, "a number of seconds > 0", "600"},
        {"AORTA_KILL_GRACE", read_kill_grace, 10, "a number of seconds >= 0", "10"},
        {"AORTA_RANK_WAIT", read_rank_wait, 90, "a number of seconds > 0", "90"},
        {"AORTA_PARSE_JOBS", read_parse_jobs, (double)(cpus > 0 ? cpus : 1),
         "a whole number from 1 to 1024", jobs_used},
        {"AORTA_PARSE_MEMORY", read_parse_memory, TU_UNDER_ASAN ? 0 : (double)(UINT64_C(4) << 30),
         "a size in bytes (a whole number > 0, or with K, M or G)", "4G"},
    };
    for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++) {
        setenv(knobs[i].name, "bogus", 1);
        double got = -1;
        char *err = tu_stderr_of(knobs[i].read, &got);
        ck_assert_msg(got == knobs[i].fallback, "%s: %g", knobs[i].name, got);
        /* Under ASan the parse memory limit is not read at all. */
        char *want = TU_UNDER_ASAN && !strcmp(knobs[i].name, "AORTA_PARSE_MEMORY")
                         ? strdup("")
                         : tu_fmt("aorta-run: warning: %s='bogus' is not %s; using %s\n",
                                  knobs[i].name, knobs[i].what, knobs[i].used);
        ck_assert_str_eq(err, want);
        free(want);
        free(err);
        unsetenv(knobs[i].name);
    }
    free(jobs_used);
}
END_TEST

/* Lines of text holding needle. */
static size_t lines_with(const char *text, const char *needle)
{
    size_t count = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *copy = strndup(line, len);
        count += strstr(copy, needle) != NULL;
        free(copy);
        line = end ? end + 1 : line + len;
    }
    return count;
}

/* A run of two trials parsed by the fake collector "good", read twice per
 * trial or more: one warning for each bad knob of the run. */
START_TEST(each_knob_of_a_run_warns_once)
{
    ck_assert_int_eq(chdir(dir), 0);
    /* A Python payload: host_env.json's probe asks it for Triton's version. */
    char *standin = tu_srcdir("tests/run/sweep/python-standin");
    char *text = tu_read(standin);
    ck_assert_ptr_nonnull(text);
    char *python = tu_join(dir, "bin/python3");
    tu_write_mode(python, text, 0755);
    const char *path = getenv("PATH");
    char *path_var = tu_fmt("PATH=%s/bin:%s", dir, path ? path : "/usr/bin:/bin");
    char *fakes = tu_builddir("tests/fake-collectors");
    char *env[] = {"AORTA_PARSE_TIMEOUT=later", "AORTA_PARSE_MEMORY=lots", "AORTA_KILL_GRACE=-3",
                   "AORTA_PROBE_TIMEOUT=0", path_var, NULL};
    tu_result_t result = tu_aorta(env, "--plugin-dir", fakes, "--collect", "good", "--trials",
                                  "2", "--output", "out", "--", "python3", "payload.py", NULL);
    /* good's wrapper is never a program: no trial's command starts (exit 1),
     * yet every trial is parsed and recorded. */
    ck_assert_int_eq(result.status, 1);
    ck_assert_uint_eq(lines_with(result.err, "warning: AORTA_"), TU_UNDER_ASAN ? 3 : 4);
    ck_assert_uint_eq(lines_with(result.err, "aorta-run: warning: AORTA_PARSE_TIMEOUT='later' is "
                                             "not a number of seconds > 0; using 600"),
                      1);
    ck_assert_uint_eq(lines_with(result.err, "aorta-run: warning: AORTA_PARSE_MEMORY='lots' is "
                                             "not a size in bytes"),
                      TU_UNDER_ASAN ? 0 : 1);
    ck_assert_uint_eq(lines_with(result.err, "aorta-run: warning: AORTA_KILL_GRACE='-3' is not a "
                                             "number of seconds >= 0; using 10"),
                      1);
    ck_assert_uint_eq(lines_with(result.err, "aorta-run: warning: AORTA_PROBE_TIMEOUT='0' is not "
                                             "a number of seconds > 0; using 10"),
                      1);
    tu_result_free(&result);
    free(fakes);
    free(path_var);
    free(python);
    free(text);
    free(standin);
}
END_TEST

/* The knobs that take any text (a path list, a directory, a program): they
 * have no bad value to warn about. */
static const char *const text_knobs[] = {"AORTA_PLUGIN_PATH", "AORTA_PLUGIN_SYSTEM_PATH",
                                         "AORTA_LIBEXEC_DIR", "AORTA_PROTON_PYTHON", NULL};

static int is_text_knob(const char *name)
{
    for (size_t i = 0; text_knobs[i]; i++)
        if (!strcmp(text_knobs[i], name))
            return 1;
    return 0;
}

/* Every AORTA_* name of aorta-run(1)'s ENVIRONMENT section, once each, in
 * the order written; *count of them. */
static char **manual_knobs(size_t *count)
{
    char *manual_path = tu_srcdir("docs/aorta-run.1");
    char *manual = tu_read(manual_path);
    ck_assert_ptr_nonnull(manual);
    char *section = strstr(manual, "\n.SH ENVIRONMENT\n");
    ck_assert_ptr_nonnull(section);
    char *next = strstr(section + 1, "\n.SH ");
    if (next)
        *next = '\0';
    char **names = NULL;
    *count = 0;
    for (char *at = strstr(section, "AORTA_"); at; at = strstr(at + 1, "AORTA_")) {
        size_t len = 6 + strspn(at + 6, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (len == 6 || (at > section && at[-1] == '\\'))
            continue; /* "AORTA_*", or an escaped word */
        char *name = strndup(at, len);
        int seen = 0;
        for (size_t i = 0; i < *count; i++)
            seen |= !strcmp(names[i], name);
        if (seen) {
            free(name);
            continue;
        }
        names = realloc(names, (*count + 1) * sizeof *names);
        names[(*count)++] = name;
    }
    free(manual);
    free(manual_path);
    return names;
}

/* Every knob the manual lists, set to a bad value in a plain run (and a dry
 * run) that would not otherwise use it (no collector, no Python, no
 * --all-ranks, no --check-collector): exactly one warning naming it, so no
 * knob takes a bad value silently. */
START_TEST(every_knob_of_the_manual_warns_in_any_run)
{
    ck_assert_int_eq(chdir(dir), 0);
    size_t count = 0;
    char **names = manual_knobs(&count);
    size_t numbers = 0;
    for (size_t i = 0; text_knobs[i]; i++) {
        int listed = 0;
        for (size_t k = 0; k < count; k++)
            listed |= !strcmp(names[k], text_knobs[i]);
        ck_assert_msg(listed, "%s is not in aorta-run(1) any more", text_knobs[i]);
    }
    for (size_t k = 0; k < count; k++) {
        if (is_text_knob(names[k]))
            continue;
        numbers++;
        char *bad = tu_fmt("%s=bogus", names[k]);
        char *env[] = {bad, NULL};
        char *needle = tu_fmt("aorta-run: warning: %s='bogus' is not ", names[k]);
        size_t want = TU_UNDER_ASAN && !strcmp(names[k], "AORTA_PARSE_MEMORY") ? 0 : 1;
        tu_result_t run = tu_aorta(env, "--trials", "1", "--output", "out", "--", "true", NULL);
        ck_assert_int_eq(run.status, 0);
        ck_assert_msg(lines_with(run.err, needle) == want, "%s in a run: %s", names[k], run.err);
        ck_assert_uint_eq(lines_with(run.err, "warning: AORTA_"), want);
        tu_result_free(&run);
        tu_result_t dry = tu_aorta(env, "--dry-run", "--output", "out", "--", "true", NULL);
        ck_assert_int_eq(dry.status, 0);
        ck_assert_msg(lines_with(dry.err, needle) == want, "%s in a dry run: %s", names[k],
                      dry.err);
        tu_result_free(&dry);
        free(needle);
        free(bad);
    }
    /* Not vacuous: the manual's number knobs are found. */
    ck_assert_uint_ge(numbers, 8);
    for (size_t k = 0; k < count; k++)
        free(names[k]);
    free(names);
}
END_TEST

/* --list-collectors checks every candidate in a child, each under
 * AORTA_LOAD_TIMEOUT. */
START_TEST(load_timeout_warns_once)
{
    char *fakes = tu_builddir("tests/fake-collectors");
    char *env[] = {"AORTA_LOAD_TIMEOUT=never", NULL};
    tu_result_t result = tu_aorta(env, "--plugin-dir", fakes, "--list-collectors", NULL);
    ck_assert_int_eq(result.status, 0);
    ck_assert_uint_eq(lines_with(result.err, "warning: AORTA_"), 1);
    ck_assert_uint_eq(lines_with(result.err, "aorta-run: warning: AORTA_LOAD_TIMEOUT='never' is "
                                             "not a number of seconds > 0; using 10"),
                      1);
    ck_assert_ptr_nonnull(strstr(result.out, "\ngood "));
    tu_result_free(&result);
    free(fakes);
}
END_TEST

static Suite *knobs_suite(void)
{
    Suite *suite = suite_create("knobs");
    TCase *reader = tcase_create("reader");
    tcase_add_checked_fixture(reader, setup, teardown);
    tcase_add_test(reader, seconds_take_a_number_in_range);
    tcase_add_test(reader, one_warning_per_bad_value);
    tcase_add_test(reader, sizes_take_bytes_or_a_suffix);
    tcase_add_test(reader, counts_take_a_whole_number);
    suite_add_tcase(suite, reader);
    TCase *each = tcase_create("each knob");
    tcase_add_checked_fixture(each, setup, teardown);
    tcase_set_timeout(each, 60);
    tcase_add_test(each, each_knob_read_in_process);
    tcase_add_test(each, each_knob_of_a_run_warns_once);
    tcase_add_test(each, load_timeout_warns_once);
    tcase_add_test(each, every_knob_of_the_manual_warns_in_any_run);
    suite_add_tcase(suite, each);
    return suite;
}

AORTA_CHECK_MAIN(knobs_suite)
