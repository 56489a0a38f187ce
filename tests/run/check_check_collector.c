/* SPDX-License-Identifier: MIT */
/* aorta-run --check-collector end to end: the in-tree collectors pass, the
 * test collector tests/fake-collectors/contract/breaker.la is caught breaking each
 * rule $BREAKER names (exit 1), a wrong request exits 2, and the scratch
 * directory under $TMPDIR is gone afterwards. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweeptest.h" /* tu_count */

/* a and b, one after the other; free it. */
static char *cat(const char *a, const char *b)
{
    char *out = NULL;
    ck_assert_int_gt(asprintf(&out, "%s%s", a, b), 0);
    return out;
}

static char *tmp;      /* $TMPDIR of every run: must be left empty */
static char *tmp_env;  /* "TMPDIR=<tmp>" */

static void setup(void)
{
    tmp = tu_tmpdir();
    tmp_env = cat("TMPDIR=", tmp);
}

static void teardown(void)
{
    tu_rmtree(tmp);
    free(tmp);
    free(tmp_env);
}

static int entries(const char *path)
{
    DIR *dir = opendir(path);
    ck_assert_ptr_nonnull(dir);
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL)
        count += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
    closedir(dir);
    return count;
}

/* aorta-run --plugin-dir <build>/rel --check-collector NAME [DIR] with
 * extra environment changes (NULL-terminated, may be NULL). */
static int check(const char *rel, const char *name, const char *dir, char *const *env,
                 char **out, char **err)
{
    char *binary = tu_aorta_run();
    char *modules = tu_builddir(rel);
    char *argv[] = {binary, "--plugin-dir", modules, "--check-collector", (char *)name,
                    (char *)dir, NULL};
    /* Under ASan a collector's SIGSEGV must stay a signal, as it is for
     * users, not ASan's report and exit 1. */
    char *changes[16] = {tmp_env, "BREAKER", "ROCPROF_BIN",
                         TU_UNDER_ASAN ? "ASAN_OPTIONS=handle_segv=0" : "ASAN_OPTIONS", NULL};
    size_t n = 4;
    for (size_t i = 0; env && env[i]; i++) {
        ck_assert_uint_lt(n, 15);
        changes[n++] = env[i];
    }
    changes[n] = NULL;
    int status = tu_run(argv, changes, out, err);
    ck_assert_msg(entries(tmp) == 0, "the scratch directory was left in %s", tmp);
    free(modules);
    free(binary);
    return status;
}

static void expect_in(const char *text, const char *fragment)
{
    ck_assert_msg(strstr(text, fragment), "'%s' not in:\n%s", fragment, text);
}

/* breaker with $BREAKER=how: exit 1, the summary on stderr, and fragment
 * on a FAIL line. */
static void expect_caught(const char *how, const char *fragment)
{
    char *breaker = cat("BREAKER=", how);
    char *env[] = {breaker, "AORTA_CHECK_TIMEOUT=1", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(check("tests/fake-collectors/contract", "breaker", NULL, env, &out, &err), 1);
    char *line = cat("FAIL ", fragment);
    if (strncmp(out, line, strlen(line)) != 0) { /* or on a later line */
        char *later = cat("\n", line);
        expect_in(out, later);
        free(later);
    }
    expect_in(err, "aorta-run: --check-collector: breaker breaks the collector contract (");
    free(line);
    free(out);
    free(err);
    free(breaker);
}

START_TEST(rocprof_passes_with_and_without_rocprofv3)
{
    char *out = NULL, *err = NULL;
    char *bare[] = {"PATH=/usr/bin:/bin", NULL};
    ck_assert_int_eq(check("plugins", "rocprof", NULL, bare, &out, &err), 0);
    /* The --describe part first. */
    ck_assert_int_eq(strncmp(out, "rocprof ", 8), 0);
    expect_in(out, "\noptions:\n  trace\n");
    expect_in(out, "\nok   validate: no options accepted; effective options: trace=kernel");
    /* No profiler: a refusal with a message is a note, not a violation. */
    expect_in(out, "\nnote wrap: refused the sample command ['./app', '--flag']: rocprofv3 "
                   "not found");
    expect_in(out, "\nok   parse: an empty directory: 1 metric: rocprof_artifact_dir\n");
    expect_in(out, "\nok   parse: a directory while no file descriptor is left: 1 metric: "
                   "rocprof_artifact_dir\n");
    expect_in(out, "\nrocprof: 0 violations, 3 notes\n");
    ck_assert_ptr_null(strstr(err, "aorta-run: --check-collector"));
    free(out);
    free(err);

    char *standin = tu_srcdir("examples/no-gpu/rocm");
    char *path = cat("PATH=", standin);
    char *full = cat(path, ":/usr/bin:/bin");
    char *fixture = tu_srcdir("tests/collectors/rocprof/fixtures/flat_with_o");
    char *with[] = {full, NULL};
    ck_assert_int_eq(check("plugins", "rocprof", fixture, with, &out, &err), 0);
    expect_in(out, "\nok   wrap: ['./app', '--flag'] -> ['");
    expect_in(out, "/examples/no-gpu/rocm/rocprofv3', '-d', '");
    expect_in(out, "\nok   wrap: passes an output directory of 4090 bytes whole\n");
    ck_assert_ptr_null(strstr(out, "\nnote "));
    char *dir_line = NULL;
    ck_assert_int_gt(asprintf(&dir_line, "\nok   parse: DIR '%s': 5 metrics: rocprof_artifact_dir, "
                                         "rocprof_kernel_count",
                              fixture),
                     0);
    expect_in(out, dir_line);
    expect_in(out, "\nrocprof: 0 violations, 0 notes\n");
    free(dir_line);
    free(out);
    free(err);
    free(fixture);
    free(full);
    free(path);
    free(standin);
}
END_TEST

START_TEST(proton_passes)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(check("plugins", "proton", NULL, NULL, &out, &err), 0);
    expect_in(out, "\nok   validate: no options accepted; effective options: mode=cli");
    /* Mode cli wraps Python scripts only. */
    expect_in(out, "\nnote wrap: refused the sample command ['./app', '--flag']: proton mode "
                   "'cli' needs a Python script launch");
    expect_in(out, "\nok   env: 4 variables: AORTA_PROTON_");
    expect_in(out, "\nok   parse: an empty directory: 1 metric: proton_artifact_dir\n");
    expect_in(out, "\nok   wrap: passes an output directory of 4090 bytes whole\n");
    expect_in(out, "\nok   parse: a directory while no file descriptor is left: 1 metric: "
                   "proton_artifact_dir\n");
    expect_in(out, "\nproton: 0 violations, ");
    free(out);
    free(err);
}
END_TEST

START_TEST(a_collector_that_keeps_the_contract_passes)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(check("tests/fake-collectors/contract", "breaker", NULL, NULL, &out, &err), 0);
    expect_in(out, "\nchecks (each step in a child process, at most 30 s):\n");
    expect_in(out, "\nok   options: 1 option, defaults among their values\n");
    expect_in(out, "\nok   validate: refuses an unknown option: breaker: unknown option(s) "
                   "['aorta_check_no_such_option']");
    expect_in(out, "\nok   wrap: ['python3', 'script.py', '--flag'] -> ['");
    expect_in(out, "\nok   env: 1 variable: BREAKER_DIR\n");
    expect_in(out, "\nok   parse: a missing directory: 0 metrics\n");
    expect_in(out, "\nok   parse: a file in place of the directory: 0 metrics\n");
    expect_in(out, "\nbreaker: 0 violations, 0 notes\n");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
}
END_TEST

START_TEST(each_broken_rule_is_caught)
{
    expect_caught("table", "options: the default 'medium' of 'level' is not one of its values");
    expect_caught("defaults", "validate: refuses its own defaults (level=high): breaker option");
    expect_caught("silent", "wrap: refused the sample command ['./app', '--flag'] without a "
                            "message");
    expect_caught("silent", "env: refused without a message");
    expect_caught("unchanged", "wrap: returned the sample command ['python3', 'script.py', "
                               "'--flag'] unchanged");
    expect_caught("empty", "wrap: returned an empty argv for ['./app', '--flag']");
    expect_caught("exit", "wrap: ended the process (exit status 0) on ['./app', '--flag']");
    expect_caught("stray", "wrap: on ['./app', '--flag'] it wrote 'stray.txt' into its current "
                           "directory");
    expect_caught("unprefixed", "parse: on an empty directory it reports the metric "
                                "'kernel_count', not prefixed by 'breaker_'");
    expect_caught("unprefixed", "parse: on an empty directory it reports no "
                                "'breaker_artifact_dir'");
    expect_caught("nodir", "parse: on a missing directory it reports breaker_kernel_count "
                           "(nothing at all is reported when the directory is not one)\n");
    expect_caught("nodir", "parse: on a file in place of the directory it reports "
                           "breaker_artifact_dir, breaker_kernel_count (nothing at all is "
                           "reported when the directory is not one)\n");
    expect_caught("crash", "parse: crashed with signal 11 (Segmentation fault) on an empty "
                           "directory\n");
    expect_caught("hang", "parse: did not return within 1 s on an empty directory (killed; "
                          "AORTA_CHECK_TIMEOUT sets the limit)\n");
    expect_caught("load", "load: ");
    /* The registry checked it in a child: aorta-run survived to say why. */
    char *env[] = {"BREAKER=load", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(check("tests/fake-collectors/contract", "breaker", NULL, env, &out, &err), 1);
    expect_in(out, "contract/breaker.la: crashed while loading (signal 11)\n");
    free(out);
    free(err);
}
END_TEST

/* The collector template's old slips, one test collector each
 * (tests/fake-collectors/slips/): each is one violation, and nothing else
 * is. */
START_TEST(each_slip_of_the_old_template_is_caught)
{
    static const struct {
        const char *name;
        const char *line;
    } slips[] = {
        {"noartifact", "FAIL parse: on a directory while no file descriptor is left it reports "
                       "no 'noartifact_artifact_dir' (required whenever the directory exists)\n"},
        {"leaky", "FAIL parse: on an empty directory it leaves 1 file descriptor open (close "
                  "what it opens, on every path)\n"},
        {"cutpath", "FAIL wrap: the argv it made for an output directory of 4090 bytes holds it "
                    "cut short (refuse, with a message, a path it cannot hold)\n"},
    };
    for (size_t i = 0; i < sizeof slips / sizeof slips[0]; i++) {
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(check("tests/fake-collectors/slips", slips[i].name, NULL, NULL, &out,
                               &err),
                         1);
        expect_in(out, slips[i].line);
        ck_assert_uint_eq(tu_count(out, "\nFAIL "), 1);
        char *summary = NULL;
        ck_assert_int_gt(asprintf(&summary, "\n%s: 1 violation, 0 notes\n", slips[i].name), 0);
        expect_in(out, summary);
        free(summary);
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(a_broken_module_is_a_violation)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(check("tests/fake-collectors", "noparse", NULL, NULL, &out, &err), 1);
    expect_in(out, "FAIL load: ");
    expect_in(out, "noparse.la: missing mandatory callback 'parse'\n");
    free(out);
    free(err);
}
END_TEST

START_TEST(a_wrong_request_exits_2)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(check("tests/fake-collectors/contract", "nope", NULL, NULL, &out, &err), 2);
    expect_in(err, "aorta-run: --check-collector: unknown collector 'nope'; available: "
                   "breaker\n");
    free(out);
    free(err);
    ck_assert_int_eq(check("tests/fake-collectors/contract", "breaker", "/nonexistent/dir", NULL, &out,
                           &err),
                     2);
    expect_in(err, "aorta-run: --check-collector: DIR '/nonexistent/dir': No such file or "
                   "directory\n");
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
    /* A bad knob is a warning, as every AORTA_* knob's: the check runs
     * with the default. */
    char *timeout[] = {"AORTA_CHECK_TIMEOUT=soon", NULL};
    ck_assert_int_eq(check("tests/fake-collectors/contract", "breaker", NULL, timeout, &out, &err), 0);
    ck_assert_str_eq(err, "aorta-run: warning: AORTA_CHECK_TIMEOUT='soon' is not a number of "
                          "seconds > 0; using 30\n");
    expect_in(out, "checks (each step in a child process, at most 30 s):\n");
    free(out);
    free(err);

    char *binary = tu_aorta_run();
    char *help[] = {binary, "--help", NULL};
    ck_assert_int_eq(tu_run(help, NULL, &out, &err), 0);
    expect_in(out, "aorta-run [OPTIONS] --check-collector NAME [DIR]\n");
    free(out);
    free(err);
    char *with_command[] = {binary, "--check-collector", "breaker", "--", "ls", NULL};
    ck_assert_int_eq(tu_run(with_command, NULL, &out, &err), 2);
    expect_in(err, "aorta-run: a command after '--' makes no sense with");
    free(out);
    free(err);
    free(binary);
}
END_TEST

static Suite *check_collector_suite(void)
{
    Suite *suite = suite_create("check_collector");
    TCase *tc = tcase_create("check_collector");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, rocprof_passes_with_and_without_rocprofv3);
    tcase_add_test(tc, proton_passes);
    tcase_add_test(tc, a_collector_that_keeps_the_contract_passes);
    tcase_add_test(tc, each_broken_rule_is_caught);
    tcase_add_test(tc, each_slip_of_the_old_template_is_caught);
    tcase_add_test(tc, a_broken_module_is_a_violation);
    tcase_add_test(tc, a_wrong_request_exits_2);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(check_collector_suite)
