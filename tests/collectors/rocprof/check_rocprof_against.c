/* SPDX-License-Identifier: MIT */
/* --against RUN_DIR end to end under the stand-in rocprofv3 (seeded noise
 * of 3% a capture and a dispatch, as real captures differ): the run gates
 * every cell against the same cell of RUN_DIR as --compare does, prints the
 * text even with -q, writes compare.json beside the run, and exits 3 on a
 * planted regression, 0 on the same payload, 4 on too few trials. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "sweeptest.h"
#include "testutil.h"

static char *dir, *path_env;

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
    char *source = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    char *text = tu_read(source);
    char *standin = tu_join(dir, "bin/rocprofv3");
    tu_write_mode(standin, text, 0755);
    free(standin);
    free(text);
    free(source);
    const char *path = getenv("PATH");
    path_env = tu_fmt("PATH=%s/bin:%s", dir, path ? path : "/usr/bin:/bin");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(path_env);
}

/* A run of ticket into N/ticket, trials a cell, whose kernel k3 takes
 * k3_ns; extra options (NULL-terminated, at most 11) go before "--". */
static tu_result_t run(const char *ticket, int trials, long k3_ns, const char *const *extra)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: %s\ntrials: %d\n"
                          "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                          "retain: {on_pass: none}\n"
                          "collect: {rocprof: {trace: \"kernel\"}}\n",
                          ticket, trials);
    tu_write("r.yaml", recipe);
    char *kernels = tu_fmt("AORTA_FAKE_KERNELS=20:100000~3:k1\n20:%ld~3:k3\n", k3_ns);
    char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
    char *args[24];
    size_t n = 0;
    const char *head[] = {"--recipe", "r.yaml", "--output", "N", "-q"};
    for (size_t i = 0; i < 5; i++)
        args[n++] = (char *)head[i];
    for (size_t i = 0; extra && extra[i] && n < 16; i++)
        args[n++] = (char *)extra[i];
    const char *tail[] = {"--", "/bin/sh", "-c", "exit 0"};
    for (size_t i = 0; i < 4; i++)
        args[n++] = (char *)tail[i];
    args[n] = NULL;
    tu_result_t r = tu_aorta_v(env, args);
    free(kernels);
    free(recipe);
    return r;
}

START_TEST(a_planted_regression_exits_3_and_writes_compare_json)
{
    tu_result_t r = run("A", 8, 300000, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    const char *against[] = {"--against", "N/A", NULL};
    r = run("B", 8, 390000, against);
    ck_assert_msg(r.status == 3, "%d %s %s", r.status, r.out, r.err);
    /* The text on stdout although -q, as --compare prints it. */
    ck_assert_ptr_nonnull(strstr(r.out, "Gate FAILED:\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "rocprof kernel k3 regressed"));
    tu_result_free(&r);
    json_object *cmp = tu_json("N/B/compare.json");
    ck_assert_int_eq(json_object_get_int(tu_at(cmp, "schema_version", NULL)), 3);
    ck_assert_str_eq(tu_str(cmp, "run_a", NULL), "N/A");
    ck_assert_str_eq(tu_str(cmp, "gate", "outcome", NULL), "failed");
    ck_assert_int_eq(json_object_get_int(tu_at(cmp, "gate", "exit_status", NULL)), 3);
    json_object_put(cmp);
    /* --compare of the same two runs says the same. */
    r = tu_aorta(NULL, "--compare", "N/A", "N/B", NULL);
    ck_assert_int_eq(r.status, 3);
    tu_result_free(&r);
}
END_TEST

START_TEST(the_same_payload_exits_0_and_too_few_trials_exit_4)
{
    tu_result_t r = run("A", 8, 300000, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    const char *against[] = {"--against", "N/A", NULL};
    r = run("C", 8, 300000, against);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "Gate passed.\n"));
    tu_result_free(&r);
    ck_assert(tu_exists("N/C/compare.json"));
    /* Two trials: no verdict (4); --allow-inconclusive turns it into 0. */
    r = run("D", 2, 300000, against);
    ck_assert_msg(r.status == 4, "%d %s %s", r.status, r.out, r.err);
    tu_result_free(&r);
    const char *lenient[] = {"--against", "N/A", "--allow-inconclusive", NULL};
    r = run("E", 2, 300000, lenient);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    tu_result_free(&r);
    /* --json prints the comparison's JSON instead of the text, alone on
     * stdout (the sweep's summary goes to stderr). */
    const char *json[] = {"--against", "N/A", "--json", NULL};
    r = run("F", 2, 300000, json);
    ck_assert_int_eq(r.status, 4);
    json_object *cmp = json_tokener_parse(r.out);
    ck_assert_ptr_nonnull(cmp);
    ck_assert_str_eq(tu_str(cmp, "gate", "outcome", NULL), "no verdict");
    json_object_put(cmp);
    tu_result_free(&r);
}
END_TEST

START_TEST(a_baseline_that_is_not_a_run_is_refused_before_any_trial)
{
    const char *against[] = {"--against", "nowhere", NULL};
    tu_result_t r = run("B", 2, 300000, against);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "nowhere is not a run directory"));
    ck_assert(!tu_exists("N/B"));
    tu_result_free(&r);
    /* The dry run says what it will compare against. */
    r = run("A", 8, 300000, NULL);
    tu_result_free(&r);
    const char *dry[] = {"--against", "N/A", "--dry-run", NULL};
    r = run("B", 8, 300000, dry);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.err, "--against: every cell will be gated against the same "
                                        "cell of N/A (1 of the plan's 1 cells are there)"));
    tu_result_free(&r);
    /* Options of the gate without a gate are refused. */
    char *env[] = {path_env, NULL};
    r = tu_aorta(env, "--json", "--", "true", NULL);
    ck_assert_int_eq(r.status, 2);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--against", "N/A", "--report", "N/A", NULL);
    ck_assert_int_eq(r.status, 2);
    tu_result_free(&r);
}
END_TEST

START_TEST(the_worse_status_wins_in_the_decided_order)
{
    /* 2 > 1 > 130/143 > 3 > 4 > 0 (docs/design.md, Exit status). */
    ck_assert_int_eq(ar_cmd_exit_worst(0, 4), 4);
    ck_assert_int_eq(ar_cmd_exit_worst(4, 3), 3);
    ck_assert_int_eq(ar_cmd_exit_worst(3, 130), 130);
    ck_assert_int_eq(ar_cmd_exit_worst(143, 1), 1);
    ck_assert_int_eq(ar_cmd_exit_worst(1, 2), 2);
    ck_assert_int_eq(ar_cmd_exit_worst(2, 3), 2);
    ck_assert_int_eq(ar_cmd_exit_worst(3, 0), 3);
}
END_TEST

static Suite *against_suite(void)
{
    Suite *suite = suite_create("rocprof_against");
    TCase *tc = tcase_create("against");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, a_planted_regression_exits_3_and_writes_compare_json);
    tcase_add_test(tc, the_same_payload_exits_0_and_too_few_trials_exit_4);
    tcase_add_test(tc, a_baseline_that_is_not_a_run_is_refused_before_any_trial);
    tcase_add_test(tc, the_worse_status_wins_in_the_decided_order);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(against_suite)
