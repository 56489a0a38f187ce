/* SPDX-License-Identifier: MIT */
/* The rocprof collector's wrap(): the exact rocprofv3 argv (docs/collectors/rocprof.md,
 * upstream's cases 28-40) and how the profiler binary is found through the
 * environment the command will run with (cases 41-49). */
#include "config.h"

#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rptest.h"

static char *dir;    /* T: holds the fake profilers */
static char *bin;    /* T/rocprofv3 */

static void setup(void)
{
    dir = tu_tmpdir();
    bin = tu_join(dir, "rocprofv3");
    tu_write_mode(bin, "#!/bin/sh\nexit 0\n", 0755);
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(bin);
    free(dir);
}

/* wrap(command, out_dir) with validated options; returns the argv or NULL
 * with *message set (free both). */
static aorta_argv_t *wrap_with(aorta_options_t *options, const char *out_dir,
                               char *const *command, const aorta_env_t *env, char **message)
{
    size_t n = 0;
    while (command[n])
        n++;
    aorta_argv_t *cmd = aorta_argv_from(command, n);
    aorta_argv_t *out = aorta_argv_new();
    aorta_error_t *err = aorta_error_new();
    int status = rp_collector()->wrap(options, out_dir, cmd, env, out, err);
    if (message)
        *message = aorta_error_message(err) ? strdup(aorta_error_message(err)) : NULL;
    ck_assert_uint_eq(aorta_argv_count(cmd), n); /* the command is not touched */
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(aorta_argv_at(cmd, i), command[i]);
    aorta_error_free(err);
    aorta_argv_free(cmd);
    if (status != 0) {
        ck_assert_uint_eq(aorta_argv_count(out), 0);
        aorta_argv_free(out);
        return NULL;
    }
    return out;
}

/* validate(options) then wrap with PATH=T. */
static aorta_argv_t *wrap_options(aorta_options_t *options, const char *out_dir,
                                  char *const *command)
{
    ck_assert_int_eq(rp_validate(options, NULL), 0);
    aorta_env_t *env = tu_env("PATH", dir, NULL);
    char *message = NULL;
    aorta_argv_t *argv = wrap_with(options, out_dir, command, env, &message);
    ck_assert_msg(argv != NULL, "wrap refused: %s", message);
    aorta_env_free(env);
    aorta_options_free(options);
    return argv;
}

/* argv must equal expected (NULL-terminated); "$BIN" stands for T/rocprofv3. */
static void expect_argv(aorta_argv_t *argv, const char *const *expected)
{
    size_t n = 0;
    while (expected[n])
        n++;
    for (size_t i = 0; i < n && i < aorta_argv_count(argv); i++)
        ck_assert_str_eq(aorta_argv_at(argv, i), strcmp(expected[i], "$BIN") == 0 ? bin
                                                                                  : expected[i]);
    ck_assert_uint_eq(aorta_argv_count(argv), n);
    aorta_argv_free(argv);
}

static char *const gemm[] = {"/tmp/gemm", "512", "20", NULL};

/* 28, 31 */
START_TEST(default_argv)
{
    char *out_dir = tu_join(dir, "out");
    const char *expected[] = {"$BIN", "-d", out_dir, "-o", "aorta", "--output-format", "csv",
                              "--kernel-trace", "--stats", "-S", "--summary-output-file",
                              "rocprof_summary", "--", "/tmp/gemm", "512", "20", NULL};
    expect_argv(wrap_options(aorta_options_new(), out_dir, gemm), expected);
    free(out_dir);
}
END_TEST

/* 29, 30 */
START_TEST(trace_flags_in_token_order_and_no_stats)
{
    const char *expected[] = {"$BIN", "-d", "/o", "-o", "aorta", "--output-format", "csv",
                              "--kernel-trace", "--hip-trace", "--memory-copy-trace",
                              "--hip-runtime-trace", "--rccl-trace", "--marker-trace",
                              "--scratch-memory-trace", "-S", "--summary-output-file",
                              "rocprof_summary", "--", "/tmp/gemm", "512", "20", NULL};
    expect_argv(wrap_options(rp_options("trace", "kernel,hip,memory_copy hip_runtime rccl,marker,"
                                                 "scratch,kernel",
                                        "stats", "false", NULL),
                             "/o", gemm),
                expected);
}
END_TEST

/* 32 */
START_TEST(units_and_regex)
{
    const char *expected[] = {"$BIN", "-d", "/o", "-o", "aorta", "--output-format", "csv",
                              "--kernel-trace", "--stats", "-S", "--summary-output-file",
                              "rocprof_summary", "-u", "msec", "--kernel-include-regex",
                              "Cijk|gemm", "--", "/tmp/gemm", "512", "20", NULL};
    expect_argv(wrap_options(rp_options("kernel_include_regex", "Cijk|gemm", "summary_units",
                                        "msec", NULL),
                             "/o", gemm),
                expected);
}
END_TEST

/* 33: --pmc and its counters come last, before "--". */
START_TEST(pmc_last)
{
    const char *expected[] = {"$BIN", "-d", "/o", "-o", "aorta", "--output-format", "csv",
                              "--kernel-trace", "--stats", "-S", "--summary-output-file",
                              "rocprof_summary", "-u", "usec", "--pmc", "SQ_WAVES",
                              "GRBM_COUNT", "--", "/tmp/gemm", "512", "20", NULL};
    expect_argv(wrap_options(rp_options("pmc", "SQ_WAVES,GRBM_COUNT", "summary_units", "usec",
                                        NULL),
                             "/o", gemm),
                expected);
}
END_TEST

/* 34: -d is rendered like str(Path(dir)). */
START_TEST(out_dir_rendering)
{
    const char *cases[][2] = {{"relative/out", "relative/out"}, {"./rel//out/", "rel/out"},
                              {"/a/./b/", "/a/b"}, {"a/../b", "a/../b"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        aorta_argv_t *argv = wrap_options(aorta_options_new(), cases[i][0], gemm);
        ck_assert_str_eq(aorta_argv_at(argv, 1), "-d");
        ck_assert_str_eq(aorta_argv_at(argv, 2), cases[i][1]);
        aorta_argv_free(argv);
    }
}
END_TEST

/* 35, 101: wrap checks the options itself, before looking for rocprofv3. */
START_TEST(bad_options_refused_before_the_binary)
{
    aorta_env_t *env = tu_env("PATH", "", NULL);
    char *message = NULL;
    aorta_options_t *options = rp_options("nope", "1", NULL);
    ck_assert_ptr_null(wrap_with(options, "/o", gemm, env, &message));
    ck_assert_msg(strstr(message, "rocprof: unknown option(s) ['nope']") == message, "%s", message);
    free(message);
    aorta_options_free(options);
    options = rp_options("trace", "nope", NULL);
    ck_assert_ptr_null(wrap_with(options, "/o", gemm, env, &message));
    ck_assert_msg(strstr(message, "unknown domain") != NULL, "%s", message);
    free(message);
    aorta_options_free(options);
    aorta_env_free(env);
}
END_TEST

/* 36, 37: the rest of the environment does not matter. */
START_TEST(environment_does_not_change_the_argv)
{
    char *const one[] = {"/tmp/gemm", NULL};
    aorta_options_t *options = aorta_options_new();
    aorta_env_t *plain = tu_env("PATH", dir, NULL);
    aorta_env_t *more = tu_env("PATH", dir, "HIP_VISIBLE_DEVICES", "1", "ROCPROF_BIN", "", NULL);
    aorta_argv_t *a = wrap_with(options, "/o", one, plain, NULL);
    aorta_argv_t *b = wrap_with(options, "/o", one, more, NULL);
    ck_assert_uint_eq(aorta_argv_count(a), aorta_argv_count(b));
    for (size_t i = 0; i < aorta_argv_count(a); i++)
        ck_assert_str_eq(aorta_argv_at(a, i), aorta_argv_at(b, i));
    ck_assert_str_eq(aorta_argv_at(a, aorta_argv_count(a) - 2), "--");
    ck_assert_str_eq(aorta_argv_at(a, aorta_argv_count(a) - 1), "/tmp/gemm");
    aorta_argv_free(a);
    aorta_argv_free(b);
    aorta_env_free(plain);
    aorta_env_free(more);
    aorta_options_free(options);
}
END_TEST

/* 38: the hip-gemm example's options */
START_TEST(hip_gemm_example)
{
    char *const cmd[] = {"/tmp/hip_gemm", "512", "20", NULL};
    const char *expected[] = {"$BIN", "-d", "/D", "-o", "aorta", "--output-format", "csv",
                              "--kernel-trace", "--stats", "-S", "--summary-output-file",
                              "rocprof_summary", "-u", "msec", "--", "/tmp/hip_gemm", "512", "20",
                              NULL};
    expect_argv(wrap_options(rp_options("trace", "kernel", "output_format", "csv", "stats", "1",
                                        "summary_units", "msec", NULL),
                             "/D", cmd),
                expected);
}
END_TEST

/* Several formats: each is its own value of --output-format. */
START_TEST(several_output_formats)
{
    char *const cmd[] = {"/tmp/hip_gemm", NULL};
    const char *expected[] = {"$BIN", "-d", "/D", "-o", "aorta", "--output-format", "csv",
                              "rocpd", "--kernel-trace", "--stats", "-S", "--summary-output-file",
                              "rocprof_summary", "--", "/tmp/hip_gemm", NULL};
    expect_argv(wrap_options(rp_options("output_format", "CSV  rocpd", NULL), "/D", cmd),
                expected);
}
END_TEST

/* 39: the torch-matmul example's options */
START_TEST(torch_matmul_example)
{
    char *const cmd[] = {"python3", "matmul.py", "--", "x", NULL};
    const char *expected[] = {"$BIN", "-d", "/D", "-o", "aorta", "--output-format", "csv",
                              "--kernel-trace", "--hip-trace", "--stats", "-S",
                              "--summary-output-file", "rocprof_summary", "-u", "msec",
                              "--kernel-include-regex", "Cijk|gemm|matmul", "--", "python3",
                              "matmul.py", "--", "x", NULL};
    expect_argv(wrap_options(rp_options("trace", "kernel,hip", "output_format", "csv", "stats",
                                        "1", "kernel_include_regex", "Cijk|gemm|matmul",
                                        "summary_units", "msec", NULL),
                             "/D", cmd),
                expected);
}
END_TEST

/* 40: duplicates and case of counters kept; stats off; another format */
START_TEST(counters_kept_verbatim)
{
    const char *expected[] = {"$BIN", "-d", "/D", "-o", "aorta", "--output-format", "rocpd",
                              "--hip-trace", "--kernel-trace", "-S", "--summary-output-file",
                              "rocprof_summary", "--pmc", "A", "B", "A", "b", "--", "/tmp/gemm",
                              "512", "20", NULL};
    expect_argv(wrap_options(rp_options("trace", "hip,kernel", "pmc", "A B A,b", "stats", "off",
                                        "output_format", "ROCPD", NULL),
                             "/D", gemm),
                expected);
}
END_TEST

/* The binary wrap resolves for env (NULL with *message when refused). */
static char *resolve(aorta_env_t *env, char **message)
{
    char *const cmd[] = {"/tmp/gemm", NULL};
    aorta_options_t *options = aorta_options_new();
    aorta_argv_t *argv = wrap_with(options, "/o", cmd, env, message);
    aorta_options_free(options);
    aorta_env_free(env);
    if (!argv)
        return NULL;
    char *found = strdup(aorta_argv_at(argv, 0));
    aorta_argv_free(argv);
    return found;
}

static void expect_binary(aorta_env_t *env, const char *expected)
{
    char *message = NULL;
    char *found = resolve(env, &message);
    ck_assert_msg(found != NULL, "refused: %s", message);
    ck_assert_str_eq(found, expected);
    free(found);
}

static void expect_refusal(aorta_env_t *env, const char *expected)
{
    char *message = NULL;
    ck_assert_ptr_null(resolve(env, &message));
    ck_assert_str_eq(message, expected);
    free(message);
}

/* 41, 49 */
START_TEST(rocprofv3_on_path)
{
    expect_binary(tu_env("PATH", dir, NULL), bin);
    expect_binary(tu_env("PATH", dir, "ROCPROF_BIN", "", NULL), bin);
    char *path = NULL;
    ck_assert_int_gt(asprintf(&path, "/nonexistent-aorta:%s", dir), 0);
    expect_binary(tu_env("PATH", path, NULL), bin);
    free(path);
}
END_TEST

/* 42, 43, 44 and $VAR expansion */
START_TEST(rocprof_bin_paths_and_names)
{
    char *custom = tu_join(dir, "my-rocprof");
    tu_write_mode(custom, "#!/bin/sh\n", 0755);
    char *named = tu_join(dir, "rocprof-custom");
    tu_write_mode(named, "#!/bin/sh\n", 0755);
    expect_binary(tu_env("ROCPROF_BIN", custom, "PATH", "", NULL), custom);
    expect_binary(tu_env("HOME", dir, "ROCPROF_BIN", "~/my-rocprof", NULL), custom);
    char *home_slash = tu_join(dir, "");
    expect_binary(tu_env("HOME", home_slash, "ROCPROF_BIN", "~/my-rocprof", NULL), custom);
    expect_binary(tu_env("PATH", dir, "ROCPROF_BIN", "rocprof-custom", NULL), named);
    expect_binary(tu_env("TOOLS", dir, "ROCPROF_BIN", "$TOOLS/my-rocprof", NULL), custom);
    expect_binary(tu_env("TOOLS", dir, "ROCPROF_BIN", "${TOOLS}/my-rocprof", NULL), custom);
    expect_binary(tu_env("T", "my-rocprof", "D", dir, "ROCPROF_BIN", "${D}/./x/../$T", NULL),
                  custom);
    expect_binary(tu_env("PATH", dir, "N", "rocprof-custom", "ROCPROF_BIN", "$N", NULL), named);
    free(home_slash);
    free(named);
    free(custom);
}
END_TEST

/* A path is made absolute against the working directory. */
START_TEST(rocprof_bin_relative_path)
{
    char cwd[PATH_MAX];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    char *sub = tu_join(dir, "bin");
    mkdir(sub, 0755);
    char *tool = tu_join(sub, "rp");
    tu_write_mode(tool, "#!/bin/sh\n", 0755);
    ck_assert_int_eq(chdir(dir), 0);
    expect_binary(tu_env("ROCPROF_BIN", "bin/rp", NULL), tool);
    expect_binary(tu_env("ROCPROF_BIN", "./bin/../bin/rp", NULL), tool);
    ck_assert_int_eq(chdir(cwd), 0);
    free(tool);
    free(sub);
}
END_TEST

/* 45, a directory, and names that stay unexpanded */
START_TEST(rocprof_bin_not_an_executable_file)
{
    char *plain = tu_join(dir, "not-executable");
    tu_write_mode(plain, "", 0644);
    char *expected = NULL;
    /* 0644: no execute bit for anyone, root included */
    ck_assert_int_gt(asprintf(&expected, "ROCPROF_BIN='%s' looks like a path but does not point "
                                         "to an executable file.", plain), 0);
    expect_refusal(tu_env("ROCPROF_BIN", plain, NULL), expected);
    free(expected);
    ck_assert_int_gt(asprintf(&expected, "ROCPROF_BIN='%s' looks like a path but does not point "
                                         "to an executable file.", dir), 0);
    expect_refusal(tu_env("ROCPROF_BIN", dir, NULL), expected);
    free(expected);
    expect_refusal(tu_env("ROCPROF_BIN", "$NOT_SET_AORTA/rp", NULL),
                   "ROCPROF_BIN='$NOT_SET_AORTA/rp' looks like a path but does not point to an "
                   "executable file.");
    expect_refusal(tu_env("ROCPROF_BIN", "~no-such-user-aorta/rp", NULL),
                   "ROCPROF_BIN='~no-such-user-aorta/rp' looks like a path but does not point "
                   "to an executable file.");
    free(plain);
}
END_TEST

/* ~ without HOME in the environment is the user's home from the password
 * database. */
START_TEST(tilde_without_home)
{
    struct passwd *entry = getpwuid(getuid());
    ck_assert_ptr_nonnull(entry);
    char *expected = NULL;
    const char *home = strcmp(entry->pw_dir, "/") == 0 ? "" : entry->pw_dir;
    ck_assert_int_gt(asprintf(&expected, "ROCPROF_BIN='%s/aorta-missing-9f8d7/rp' looks like a "
                                         "path but does not point to an executable file.", home), 0);
    expect_refusal(tu_env("ROCPROF_BIN", "~/aorta-missing-9f8d7/rp", NULL), expected);
    free(expected);
}
END_TEST

/* 46, 47, 48 and a name that needs double quotes in its repr */
START_TEST(not_found)
{
    expect_refusal(tu_env("PATH", dir, "ROCPROF_BIN", "definitely-not-a-profiler-9f8d7", NULL),
                   "ROCPROF_BIN='definitely-not-a-profiler-9f8d7' was not found on $PATH.");
    expect_refusal(tu_env("PATH", "", "ROCPROF_BIN", "it's-missing", NULL),
                   "ROCPROF_BIN=\"it's-missing\" was not found on $PATH.");
    const char *none = "rocprofv3 not found: set $ROCPROF_BIN to the profiler binary, or put "
                       "'rocprofv3' on $PATH (it ships with ROCm). Required by "
                       "'--collect rocprof'.";
    char *empty = tu_tmpdir();
    expect_refusal(tu_env("PATH", empty, NULL), none);
    expect_refusal(tu_env("PATH", "", NULL), none);
    tu_rmtree(empty);
    free(empty);
}
END_TEST

/* PATH unset in the environment: Python's default path, not aorta-run's. */
START_TEST(path_unset_is_not_aorta_runs_path)
{
    char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", dir, 1); /* aorta-run's own PATH would find T/rocprofv3 */
    char *message = NULL;
    char *found = resolve(aorta_env_new(), &message);
    if (found)
        ck_assert_str_ne(found, bin); /* a real /usr/bin/rocprofv3 */
    else
        ck_assert_msg(strncmp(message, "rocprofv3 not found", 19) == 0, "%s", message);
    free(found);
    free(message);
    if (saved)
        setenv("PATH", saved, 1);
    free(saved);
}
END_TEST

static Suite *wrap_suite(void)
{
    Suite *suite = suite_create("rocprof_wrap");
    TCase *tc = tcase_create("wrap");
    tcase_add_unchecked_fixture(tc, rp_setup, rp_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, default_argv);
    tcase_add_test(tc, several_output_formats);
    tcase_add_test(tc, trace_flags_in_token_order_and_no_stats);
    tcase_add_test(tc, units_and_regex);
    tcase_add_test(tc, pmc_last);
    tcase_add_test(tc, out_dir_rendering);
    tcase_add_test(tc, bad_options_refused_before_the_binary);
    tcase_add_test(tc, environment_does_not_change_the_argv);
    tcase_add_test(tc, hip_gemm_example);
    tcase_add_test(tc, torch_matmul_example);
    tcase_add_test(tc, counters_kept_verbatim);
    tcase_add_test(tc, rocprofv3_on_path);
    tcase_add_test(tc, rocprof_bin_paths_and_names);
    tcase_add_test(tc, rocprof_bin_relative_path);
    tcase_add_test(tc, rocprof_bin_not_an_executable_file);
    tcase_add_test(tc, tilde_without_home);
    tcase_add_test(tc, not_found);
    tcase_add_test(tc, path_unset_is_not_aorta_runs_path);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(wrap_suite)
