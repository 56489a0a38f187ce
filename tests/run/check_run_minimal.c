/* SPDX-License-Identifier: MIT */
/* aorta-run end to end: --list-collectors over the test modules, --describe,
 * --version/--help, usage errors, the one-trial run, and the warning for a
 * metric outside a collector's prefix. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sys/json.h"
#include "xalloc.h"
#include "testutil.h"

/* The ABI this build speaks (and its test collectors are built against). */
#define ABI_STR_(x) #x
#define ABI_STR(x) ABI_STR_(x)
#define ABI_TEXT ABI_STR(AORTA_COLLECTOR_ABI_MAJOR) "." ABI_STR(AORTA_COLLECTOR_ABI_MINOR)

static int aorta(char **out, char **err, char **args)
{
    char *binary = tu_aorta_run();
    char *argv[32] = {binary};
    size_t n = 1;
    for (size_t i = 0; args[i]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    int status = tu_run(argv, NULL, out, err);
    free(binary);
    return status;
}

/* The line of `--list-collectors` output for the candidate at path suffix. */
static char *line_for(const char *out, const char *path_suffix)
{
    const char *line = out;
    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *copy = strndup(line, len);
        size_t suffix = strlen(path_suffix);
        if (len >= suffix && strcmp(copy + len - suffix, path_suffix) == 0)
            return copy;
        free(copy);
        line = end ? end + 1 : NULL;
    }
    ck_abort_msg("no line ends with %s in:\n%s", path_suffix, out);
    return NULL;
}

START_TEST(list_collectors_shows_each_status_and_reason)
{
    char *modules = tu_builddir("tests/fake-collectors");
    char *shadow = tu_builddir("tests/fake-collectors/shadow");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err,
                           (char *[]){"--plugin-dir", modules, "--plugin-dir", shadow,
                                      "--list-collectors", NULL}),
                     0);
    /* A header names the columns. */
    ck_assert_msg(!strncmp(out, "NAME VERSION ABI STATUS PATH\n", 29), "%s", out);
    struct {
        const char *path;
        const char *line_start;
    } expected[] = {
        {"tests/fake-collectors/good.la", "good 1.0 " ABI_TEXT " ok "},
        {"tests/fake-collectors/shadow/good.la", "good shadow " ABI_TEXT " shadowed "},
        {"tests/fake-collectors/badmajor.la", "badmajor - - failed: collector ABI 2.0"},
        {"tests/fake-collectors/newminor.la", "newminor - - failed: collector ABI 1.5 is newer"},
        {"tests/fake-collectors/nosymbol.la", "nosymbol - - failed: no symbol aorta_collector_nosymbol_get"},
        {"tests/fake-collectors/wrongname.la", "wrongname - - failed: collector calls itself 'othername'"},
        {"tests/fake-collectors/noparse.la", "noparse - - failed: missing mandatory callback 'parse'"},
        {"tests/fake-collectors/notalib.so", "notalib - - failed: cannot load module"},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        char *line = line_for(out, expected[i].path);
        ck_assert_msg(strncmp(line, expected[i].line_start, strlen(expected[i].line_start)) == 0,
                      "line '%s' should start with '%s'", line, expected[i].line_start);
        free(line);
    }
    /* Listing is the report: no separate warnings. */
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    free(modules);
    free(shadow);
}
END_TEST

START_TEST(other_modes_open_only_what_they_need_and_warn_once_per_broken_module)
{
    char *modules = tu_builddir("tests/fake-collectors");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--plugin-dir", modules, "--describe", "good",
                                                  NULL}),
                     0);
    ck_assert_ptr_nonnull(strstr(out, "good 1.0 (collector ABI " ABI_TEXT ", wrap rank 50)"));
    ck_assert_ptr_nonnull(strstr(out, "values: low, high"));
    ck_assert_ptr_nonnull(strstr(out, "default: low"));
    /* Only 'good' was opened: the broken modules beside it say nothing. */
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    /* Listing what is available opens every candidate: one line per broken
     * one (six of them), then the error. */
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--plugin-dir", modules, "--describe",
                                                  "nosuch", NULL}),
                     2);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: skipping "));
    ck_assert_ptr_nonnull(strstr(err, "badmajor.la: collector ABI 2.0"));
    size_t lines = 0;
    for (const char *c = err; *c; c++)
        lines += *c == '\n';
    ck_assert_uint_eq(lines, 7);
    free(out);
    free(err);

    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--plugin-dir", modules, "--describe", "nope",
                                                  NULL}),
                     2);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: --describe: unknown collector 'nope'; "
                                      "available: badparse, good, interceptor_a, "
                                      "interceptor_b, scribe"));
    free(out);
    free(err);
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--plugin-dir", modules, "--describe",
                                                  "badmajor", NULL}),
                     2);
    ck_assert_ptr_nonnull(strstr(err, "collector 'badmajor' is broken"));
    free(out);
    free(err);
    free(modules);
}
END_TEST

START_TEST(version_help_and_usage_errors)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--version", NULL}), 0);
    ck_assert_ptr_nonnull(strstr(out, "aorta-run (aorta) "));
    free(out);
    free(err);
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--help", NULL}), 0);
    ck_assert_ptr_nonnull(strstr(out, "Usage: aorta-run [OPTIONS] -- COMMAND [ARG...]"));
    free(out);
    free(err);
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"true", NULL}), 2);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: missing '--' separator"));
    ck_assert_ptr_null(strchr(strchr(err, '\n') + 1, '\n')); /* one line */
    free(out);
    free(err);
}
END_TEST

START_TEST(one_trial_is_run_and_recorded)
{
    char *dir = tu_tmpdir();
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--output", dir, "--", "sh", "-c",
                                                  "echo to-out; echo to-err >&2; exit 3",
                                                  NULL}),
                     0);
    char *trial = tu_join(dir, "_no_ticket_/none-none/trial_0");
    char *stdout_log = tu_join(trial, "stdout.log");
    char *stderr_log = tu_join(trial, "stderr.log");
    char *result_path = tu_join(trial, "result.json");
    char *text = tu_read(stdout_log);
    ck_assert_str_eq(text, "to-out\n");
    free(text);
    text = tu_read(stderr_log);
    ck_assert_str_eq(text, "to-err\n");
    free(text);
    ar_json_t *result = ar_json_read_file(result_path, 1 << 20, 32);
    ck_assert_ptr_nonnull(result);
    ck_assert_str_eq(ar_json_get_string(ar_json_get(result, "verdict")), "fail");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "exit_code")), 3);
    ck_assert(ar_json_get_double(ar_json_get(result, "walltime_sec")) >= 0);
    ar_json_t *argv = ar_json_get(result, "argv");
    ck_assert_uint_eq(ar_json_length(argv), 3);
    ck_assert_str_eq(ar_json_get_string(ar_json_at(argv, 0)), "sh");
    ck_assert_str_eq(ar_json_get_string(ar_json_get(result, "cell_name")), "none-none");
    ck_assert_str_eq(ar_json_get_string(ar_json_at(
                         ar_json_get(result, "failure_detectors_fired"), 0)),
                     "tier1:exit_nonzero");
    ar_json_free(result);
    /* The summary shows the failing trial's stderr and where it is. */
    char *shown = ar_xasprintf("First failing trial: the end of %s/_no_ticket_/none-none/"
                                  "trial_0/stderr.log:\n    | to-err\n",
                                  dir);
    ck_assert_msg(strstr(out, shown) != NULL, "stdout: %s", out);
    free(shown);
    free(out);
    free(err);

    /* At most the last 10 lines, control characters escaped. */
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--output", dir, "--ticket", "L", "--", "sh",
                                                  "-c",
                                                  "for i in 1 2 3 4 5 6 7 8 9 10 11; do echo "
                                                  "line$i >&2; done; printf 'a\\033[31mb\\r\\n'"
                                                  " >&2; exit 1",
                                                  NULL}),
                     0);
    ck_assert_msg(strstr(out, "stderr.log:\n    | line3\n    | line4\n") != NULL, "stdout: %s",
                  out);
    ck_assert_msg(strstr(out, "    | line11\n    | a\\x1b[31mb\\x0d\n") != NULL, "stdout: %s",
                  out);
    ck_assert(strstr(out, "line2\n") == NULL);
    free(out);
    free(err);

    /* A command that does not exist is recorded as an error (127); as no
     * trial's command could start, the run exits 1 and says why. */
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--output", dir, "--ticket", "M", "--",
                                                  "definitely-not-a-command-9f8d7", NULL}),
                     1);
    ck_assert_ptr_nonnull(strstr(out, "cannot execute 'definitely-not-a-command-9f8d7': No such "
                                      "file or directory"));
    char *missing = tu_join(dir, "M/none-none/trial_0/result.json");
    result = ar_json_read_file(missing, 1 << 20, 32);
    ck_assert_ptr_nonnull(result);
    ck_assert_str_eq(ar_json_get_string(ar_json_get(result, "verdict")), "error");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(result, "exit_code")), 127);
    ar_json_free(result);
    char *missing_err = tu_join(dir, "M/none-none/trial_0/stderr.log");
    text = tu_read(missing_err);
    ck_assert_ptr_nonnull(strstr(text, "cannot execute 'definitely-not-a-command-9f8d7'"));
    free(text);
    free(missing_err);
    free(missing);
    free(out);
    free(err);

    /* A run refuses what the plan refuses, before writing anything. */
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--output", dir, "--ticket", "C", "--collect",
                                                  "x", "--", "true", NULL}),
                     2);
    ck_assert_ptr_nonnull(strstr(err, "--collect: unknown collector recipe(s) ['x']"));
    char *refused = tu_join(dir, "C");
    ck_assert(!tu_exists(refused));
    free(out);
    free(err);
    /* No collector anywhere: the message says so and names where it looked. */
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--plugin-dir", "/nonexistent-aorta-dir",
                                                  "--output", dir, "--ticket", "C", "--collect",
                                                  "rocprof", "--", "true", NULL}),
                     2);
    ck_assert_str_eq(err, "aorta-run: --collect: unknown collector recipe(s) ['rocprof']: no "
                          "collector was found; searched ['/nonexistent-aorta-dir'] (add a "
                          "directory with --plugin-dir or AORTA_PLUGIN_PATH)\n");
    ck_assert(!tu_exists(refused));
    free(refused);
    free(out);
    free(err);

    tu_rmtree(dir);
    free(result_path);
    free(stdout_log);
    free(stderr_log);
    free(trial);
    free(dir);
}
END_TEST

static size_t count_of(const char *text, const char *needle)
{
    size_t count = 0;
    for (const char *at = text; (at = strstr(at, needle)) != NULL; at += strlen(needle))
        count++;
    return count;
}

#define DROPPED_CYCLES "aorta-run: warning: offprefix: dropped the metric 'cycles': outside " \
                       "the prefix 'offprefix_'\n"
#define DROPPED_OTHER "aorta-run: warning: offprefix: dropped the metric 'other_ms': outside " \
                      "the prefix 'offprefix_'\n"

/* A metric outside the collector's prefix is dropped and said: one warning
 * per name and parse, in a run (each trial's parse) and in --parse. */
START_TEST(a_metric_outside_the_prefix_is_one_warning_per_parse)
{
    char *dir = tu_tmpdir();
    char *modules = tu_builddir("tests/fake-collectors/prefix");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--plugin-dir", modules, "--output", dir,
                                                  "--ticket", "P", "--collect", "offprefix",
                                                  "--trials", "2", "-q", "--", "true", NULL}),
                     0);
    ck_assert_uint_eq(count_of(err, DROPPED_CYCLES), 2);
    ck_assert_uint_eq(count_of(err, DROPPED_OTHER), 2);
    ck_assert_uint_eq(count_of(err, "aorta-run: "), 4);
    char *trial_json = tu_join(dir, "P/none-none/_subprocess/trial_d0_m0_t1.json");
    char *text = tu_read(trial_json);
    ck_assert_ptr_nonnull(strstr(text, "\"offprefix_launches\""));
    ck_assert_ptr_null(strstr(text, "cycles"));
    free(text);
    free(trial_json);
    free(out);
    free(err);

    ck_assert_int_eq(aorta(&out, &err, (char *[]){"--plugin-dir", modules, "--parse",
                                                  "offprefix", dir, NULL}),
                     0);
    ck_assert_str_eq(err, DROPPED_CYCLES DROPPED_OTHER);
    ck_assert_ptr_nonnull(strstr(out, "\"offprefix_launches\":3"));
    ck_assert_ptr_null(strstr(out, "cycles"));
    free(out);
    free(err);
    tu_rmtree(dir);
    free(modules);
    free(dir);
}
END_TEST

static Suite *run_suite(void)
{
    Suite *suite = suite_create("aorta-run");
    TCase *tc = tcase_create("aorta-run");
    tcase_add_test(tc, list_collectors_shows_each_status_and_reason);
    tcase_add_test(tc, other_modes_open_only_what_they_need_and_warn_once_per_broken_module);
    tcase_add_test(tc, version_help_and_usage_errors);
    tcase_add_test(tc, one_trial_is_run_and_recorded);
    tcase_add_test(tc, a_metric_outside_the_prefix_is_one_warning_per_parse);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(run_suite)
