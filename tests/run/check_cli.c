/* SPDX-License-Identifier: MIT */
/* aorta-run's command line: every flag of docs/design.md "Command line", the "--" rule and
 * the errors that exit 2. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sys/suggest.h"
#include "testutil.h"

static int parse(ar_cli_t *cli, char **error, char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    return ar_cli_parse(argc, argv, cli, error);
}

static void expect_error(char **argv, const char *fragment)
{
    ar_cli_t cli;
    char *error = NULL;
    ck_assert_int_eq(parse(&cli, &error, argv), -1);
    ck_assert_msg(error && strstr(error, fragment), "error '%s' lacks '%s'", error, fragment);
    free(error);
    ar_cli_free(&cli);
}

START_TEST(every_flag_parses)
{
    char *argv[] = {"aorta-run", "--plugin-dir", "a", "--plugin-dir=b", "--recipe", "r.yaml",
                    "--mitigations-file", "m1.json", "--mitigations-file", "m2.json",
                    "--collect", "rocprof,proton", "--output", "out", "--ticket", "T-1",
                    "-v", "-v", "--all-ranks", "--dry-run", "--", "python", "-c", "--", NULL};
    ar_cli_t cli;
    char *error = NULL;
    ck_assert_int_eq(parse(&cli, &error, argv), 0);
    ck_assert_int_eq(cli.mode, AR_MODE_DRY_RUN);
    ck_assert_uint_eq(cli.plugin_dir_count, 2);
    ck_assert_str_eq(cli.plugin_dirs[1], "b");
    ck_assert_str_eq(cli.recipe, "r.yaml");
    ck_assert_uint_eq(cli.mitigation_file_count, 2);
    ck_assert_str_eq(cli.mitigation_files[1], "m2.json");
    ck_assert_str_eq(cli.collect, "rocprof,proton");
    ck_assert_str_eq(cli.output, "out");
    ck_assert_str_eq(cli.ticket, "T-1");
    ck_assert_int_eq(cli.verbose, 2);
    ck_assert_int_eq(cli.all_ranks, 1);
    /* Everything after the first "--" is the command, a later "--" included. */
    ck_assert_uint_eq(cli.command_count, 3);
    ck_assert_str_eq(cli.command[2], "--");
    ck_assert_ptr_null(cli.command[3]);
    ar_cli_free(&cli);
}
END_TEST

START_TEST(quiet_is_a_flag)
{
    char *argv[] = {"aorta-run", "-q", "-v", "--", "true", NULL};
    ar_cli_t cli;
    char *error = NULL;
    ck_assert_int_eq(parse(&cli, &error, argv), 0);
    ck_assert_int_eq(cli.quiet, 1);
    ck_assert_int_eq(cli.verbose, 1);
    ar_cli_free(&cli);
    char *long_form[] = {"aorta-run", "--quiet", "--", "true", NULL};
    ck_assert_int_eq(parse(&cli, &error, long_form), 0);
    ck_assert_int_eq(cli.quiet, 1);
    ar_cli_free(&cli);
}
END_TEST

START_TEST(did_you_mean_only_when_close)
{
    const char *names[] = {"proton", "rocprof", "stats", "trace"};
    ck_assert_str_eq(ar_suggest("rocprog", names, 4), "rocprof");
    ck_assert_str_eq(ar_suggest("rcoprof", names, 4), "rocprof"); /* a swap is one edit */
    ck_assert_str_eq(ar_suggest("protn", names, 4), "proton");
    ck_assert_str_eq(ar_suggest("stat", names, 4), "stats");
    ck_assert_ptr_null(ar_suggest("rocprof", names, 4)); /* itself */
    ck_assert_ptr_null(ar_suggest("nsys", names, 4));
    ck_assert_ptr_null(ar_suggest("ab", (const char *[]){"xy"}, 1));
    ck_assert_ptr_null(ar_suggest("sta", names, 4)); /* 2 edits of 5 letters: too far */
    ck_assert_ptr_null(ar_suggest("", names, 4));
    ck_assert_ptr_null(ar_suggest("x", NULL, 0));
    /* The nearest wins, the first of equals. */
    ck_assert_str_eq(ar_suggest("trac", (const char *[]){"tracer", "trace"}, 2), "trace");
    ck_assert_str_eq(ar_suggest("abcd", (const char *[]){"abce", "abcf"}, 2), "abce");
    char *hint = ar_suggest_hint("rocprog", names, 4);
    ck_assert_str_eq(hint, " (did you mean 'rocprof'?)");
    free(hint);
    hint = ar_suggest_hint("zzz", names, 4);
    ck_assert_str_eq(hint, "");
    free(hint);
}
END_TEST

START_TEST(modes_without_a_command)
{
    ar_cli_t cli;
    char *error = NULL;
    char *list[] = {"aorta-run", "--list-collectors", NULL};
    ck_assert_int_eq(parse(&cli, &error, list), 0);
    ck_assert_int_eq(cli.mode, AR_MODE_LIST);
    ar_cli_free(&cli);
    char *describe[] = {"aorta-run", "--describe", "rocprof", NULL};
    ck_assert_int_eq(parse(&cli, &error, describe), 0);
    ck_assert_int_eq(cli.mode, AR_MODE_DESCRIBE);
    ck_assert_str_eq(cli.collector, "rocprof");
    ar_cli_free(&cli);
    char *parse_args[] = {"aorta-run", "--parse", "proton", "/tmp/x", NULL};
    ck_assert_int_eq(parse(&cli, &error, parse_args), 0);
    ck_assert_int_eq(cli.mode, AR_MODE_PARSE);
    ck_assert_str_eq(cli.dir, "/tmp/x");
    ar_cli_free(&cli);
    char *env_args[] = {"aorta-run", "--recipe", "r.yaml", "--env", "proton", "d", NULL};
    ck_assert_int_eq(parse(&cli, &error, env_args), 0);
    ck_assert_int_eq(cli.mode, AR_MODE_ENV);
    ar_cli_free(&cli);
    /* --check-collector's DIR is optional: the next word unless it is an option. */
    char *check_only[] = {"aorta-run", "--check-collector", "mine", "-v", NULL};
    ck_assert_int_eq(parse(&cli, &error, check_only), 0);
    ck_assert_int_eq(cli.mode, AR_MODE_CHECK);
    ck_assert_str_eq(cli.collector, "mine");
    ck_assert_ptr_null(cli.dir);
    ck_assert_int_eq(cli.verbose, 1);
    ar_cli_free(&cli);
    char *check_dir[] = {"aorta-run", "--check-collector=mine", "caps", "--plugin-dir", "p",
                         NULL};
    ck_assert_int_eq(parse(&cli, &error, check_dir), 0);
    ck_assert_int_eq(cli.mode, AR_MODE_CHECK);
    ck_assert_str_eq(cli.collector, "mine");
    ck_assert_str_eq(cli.dir, "caps");
    ck_assert_uint_eq(cli.plugin_dir_count, 1);
    ar_cli_free(&cli);
    char *help[] = {"aorta-run", "--bogus-later-is-not-seen", NULL};
    ck_assert_int_eq(parse(&cli, &error, help), -1);
    free(error);
    ar_cli_free(&cli);
    char *help_ok[] = {"aorta-run", "--help", "--", NULL};
    ck_assert_int_eq(parse(&cli, &error, help_ok), 0);
    ck_assert_int_eq(cli.mode, AR_MODE_HELP);
    ar_cli_free(&cli);
    char *version[] = {"aorta-run", "--version", NULL};
    ck_assert_int_eq(parse(&cli, &error, version), 0);
    ck_assert_int_eq(cli.mode, AR_MODE_VERSION);
    ar_cli_free(&cli);
}
END_TEST

START_TEST(trials_and_timeout)
{
    ar_cli_t cli;
    char *error = NULL;
    char *ok[] = {"aorta-run", "--trials", "3", "--timeout=1.5", "--", "true", NULL};
    ck_assert_int_eq(parse(&cli, &error, ok), 0);
    ck_assert_int_eq(cli.trials, 3);
    ck_assert(cli.timeout == 1.5);
    ar_cli_free(&cli);
    expect_error((char *[]){"aorta-run", "--trials", "0", "--", "true", NULL}, "--trials");
    expect_error((char *[]){"aorta-run", "--trials", "2x", "--", "true", NULL}, "'2x'");
    expect_error((char *[]){"aorta-run", "--timeout", "-1", "--", "true", NULL}, "--timeout");
    expect_error((char *[]){"aorta-run", "--timeout", "0x10", "--", "true", NULL}, "--timeout");
    /* With a recipe they override its values (the plan says so). */
    char *over[] = {"aorta-run", "--recipe", "r", "--trials", "2", "--timeout", "2", "--",
                    "true", NULL};
    ck_assert_int_eq(parse(&cli, &error, over), 0);
    ck_assert_int_eq(cli.trials, 2);
    ar_cli_free(&cli);
}
END_TEST

START_TEST(ranks_list)
{
    ar_cli_t cli;
    char *error = NULL;
    char *ok[] = {"aorta-run", "--ranks", "8,0-2", "--ranks=3,0", "--", "true", NULL};
    ck_assert_int_eq(parse(&cli, &error, ok), 0);
    /* the last one wins, sorted */
    ck_assert_uint_eq(cli.rank_count, 2);
    ck_assert_int_eq(cli.ranks[0], 0);
    ck_assert_int_eq(cli.ranks[1], 3);
    ar_cli_free(&cli);
    expect_error((char *[]){"aorta-run", "--ranks", "", "--", "true", NULL},
                 "--ranks: no rank given; expected ranks such as 0,3 or 0-3,8");
    expect_error((char *[]){"aorta-run", "--ranks", "0,,1", "--", "true", NULL},
                 "--ranks: an empty item");
    expect_error((char *[]){"aorta-run", "--ranks", "a", "--", "true", NULL},
                 "--ranks: 'a' is not a rank (an integer from 0 to 65535)");
    expect_error((char *[]){"aorta-run", "--ranks", "70000", "--", "true", NULL},
                 "--ranks: '70000' is not a rank");
    expect_error((char *[]){"aorta-run", "--ranks", "3-1", "--", "true", NULL},
                 "--ranks: '3-1' is not a range: it ends before it starts");
    expect_error((char *[]){"aorta-run", "--ranks", "1,0-2", "--", "true", NULL},
                 "--ranks: rank 1 is listed twice");
    expect_error((char *[]){"aorta-run", "--ranks", NULL}, "--ranks");
}
END_TEST

START_TEST(usage_errors)
{
    expect_error((char *[]){"aorta-run", "--compare", "only-one", NULL},
                 "--compare needs RUN_A RUN_B");
    expect_error((char *[]){"aorta-run", "true", NULL}, "missing '--' separator");
    expect_error((char *[]){"aorta-run", "--output", "o", "./app", NULL}, "'./app'");
    expect_error((char *[]){"aorta-run", NULL}, "missing command");
    expect_error((char *[]){"aorta-run", "--", NULL}, "empty command after '--'");
    expect_error((char *[]){"aorta-run", "--", "-c", "x", NULL}, "starts with '-'");
    expect_error((char *[]){"aorta-run", "--frobnicate", "--", "true", NULL},
                 "unknown option '--frobnicate' (see aorta-run --help)");
    expect_error((char *[]){"aorta-run", "--recipie", "r.yaml", "--", "true", NULL},
                 "unknown option '--recipie'; did you mean '--recipe'? (see aorta-run --help)");
    expect_error((char *[]){"aorta-run", "--dryrun", "--", "true", NULL},
                 "did you mean '--dry-run'?");
    expect_error((char *[]){"aorta-run", "--colect=rocprof", "--", "true", NULL},
                 "unknown option '--colect'; did you mean '--collect'?");
    expect_error((char *[]){"aorta-run", "--output", NULL}, "needs a value");
    expect_error((char *[]){"aorta-run", "--output", "--", "true", NULL}, "needs a value");
    expect_error((char *[]){"aorta-run", "--parse", "proton", NULL}, "NAME and DIR");
    expect_error((char *[]){"aorta-run", "--dry-run=yes", "--", "true", NULL},
                 "does not take '=VALUE'");
    expect_error((char *[]){"aorta-run", "--list-collectors", "--", "true", NULL},
                 "makes no sense");
    expect_error((char *[]){"aorta-run", "--list-collectors", "--describe", "x", NULL},
                 "cannot be combined");
    expect_error((char *[]){"aorta-run", "--output=", "--", "true", NULL}, "--output");
    expect_error((char *[]){"aorta-run", "--check-collector", NULL}, "needs a value");
    expect_error((char *[]){"aorta-run", "--check-collector", "x", "--parse", "x", "d", NULL},
                 "cannot be combined");
    expect_error((char *[]){"aorta-run", "--order", "shuffled", "--", "true", NULL},
                 "--order: expected interleaved, sequential or random, got 'shuffled'");
    expect_error((char *[]){"aorta-run", "--order", "random", "--report", "d", NULL},
                 "--order applies only to a run and --dry-run");
}
END_TEST

static Suite *cli_suite(void)
{
    Suite *suite = suite_create("cli");
    TCase *tc = tcase_create("cli");
    tcase_add_test(tc, every_flag_parses);
    tcase_add_test(tc, quiet_is_a_flag);
    tcase_add_test(tc, did_you_mean_only_when_close);
    tcase_add_test(tc, modes_without_a_command);
    tcase_add_test(tc, trials_and_timeout);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, ranks_list);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(cli_suite)
