/* SPDX-License-Identifier: MIT */
/* Composition: collectors wrap innermost first (highest wrap_rank), each
 * into its own emptied directory; the launcher goes outside; a dry run
 * writes nothing; a symlink in the way is refused. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep/compose.h"
#include "aorta/collector.h"
#include "registry/registry.h"
#include "testutil.h"
#include "xalloc.h"

static ar_registry_t *registry;
static ar_plan_t plan;
static ar_collect_entry_t entries[2];
static char *run_dir;

static void setup(void)
{
    registry = tu_registry("tests/fake-collectors");
    memset(&plan, 0, sizeof plan);
    /* Sorted by wrap_rank: good (50) outermost, badparse (60) inside it. */
    entries[0].module = tu_plugin(registry, "good");
    entries[1].module = tu_plugin(registry, "badparse");
    entries[0].effective = aorta_options_new();
    entries[1].effective = aorta_options_new();
    plan.collectors = entries;
    plan.collector_count = 2;
    run_dir = tu_tmpdir();
    /* This suite's binary is not aorta-run: point it at the helper. */
    char *libexec = tu_builddir("core");
    setenv("AORTA_LIBEXEC_DIR", libexec, 1);
    free(libexec);
}

static void teardown(void)
{
    aorta_options_free(entries[0].effective);
    aorta_options_free(entries[1].effective);
    aorta_argv_free(plan.launcher);
    tu_rmtree(run_dir);
    free(run_dir);
    ar_registry_free(registry);
}

static aorta_argv_t *command(void)
{
    aorta_argv_t *cmd = aorta_argv_new();
    aorta_argv_push(cmd, "./app");
    aorta_argv_push(cmd, "512");
    return cmd;
}

START_TEST(wraps_in_rank_order_into_emptied_directories)
{
    const char *rel = "none-none/_subprocess/trial_d0_m0_t0";
    char *stale = ar_xasprintf("%s/%s/good/old_kernel_stats.csv", run_dir, rel);
    tu_write(stale, "stale capture");
    aorta_argv_t *cmd = command(), *out = NULL;
    aorta_env_t *env = aorta_env_new();
    char *error = NULL;
    ck_assert_int_eq(ar_compose(&plan, cmd, run_dir, rel, env, 1, -1, &out, &error), 0);
    ck_assert_ptr_null(error);
    char *wrapper = ar_xasprintf("%s/%s/good/good-wrapper", run_dir, rel);
    ck_assert_uint_eq(aorta_argv_count(out), 4);
    ck_assert_str_eq(aorta_argv_at(out, 0), wrapper);
    ck_assert_str_eq(aorta_argv_at(out, 1), "--");
    ck_assert_str_eq(aorta_argv_at(out, 2), "./app");
    ck_assert(!tu_exists(stale));
    char *bad_dir = ar_xasprintf("%s/%s/badparse", run_dir, rel);
    struct stat st;
    ck_assert_int_eq(stat(bad_dir, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    /* The input command is untouched. */
    ck_assert_uint_eq(aorta_argv_count(cmd), 2);
    free(bad_dir);
    free(wrapper);
    free(stale);
    aorta_argv_free(out);
    aorta_argv_free(cmd);
    aorta_env_free(env);
}
END_TEST

START_TEST(launcher_goes_outside_every_collector)
{
    plan.launcher = aorta_argv_new();
    aorta_argv_push(plan.launcher, "mpirun");
    aorta_argv_push(plan.launcher, "-np");
    aorta_argv_push(plan.launcher, "2");
    aorta_argv_t *cmd = command(), *out = NULL;
    aorta_env_t *env = aorta_env_new();
    char *error = NULL;
    ck_assert_int_eq(
        ar_compose(&plan, cmd, run_dir, "c/_subprocess/t", env, 0, -1, &out, &error), 0);
    ck_assert_str_eq(aorta_argv_at(out, 0), "mpirun");
    /* Just inside the launcher, the per-rank step: where each rank notes
     * its node, then one --mkdir per collector, each collector writing
     * into its rank%AORTA_RANK%/. */
    char *helper = tu_builddir("core/aorta-rank-exec");
    ck_assert_str_eq(aorta_argv_at(out, 3), helper);
    free(helper);
    ck_assert_str_eq(aorta_argv_at(out, 4), "--node-file");
    ck_assert_ptr_nonnull(strstr(aorta_argv_at(out, 5), "/c/_subprocess/t/rank%AORTA_RANK%.node"));
    ck_assert_str_eq(aorta_argv_at(out, 6), "--mkdir");
    ck_assert_ptr_nonnull(strstr(aorta_argv_at(out, 7), "/c/_subprocess/t/badparse/rank%AORTA_RANK%"));
    ck_assert_str_eq(aorta_argv_at(out, 8), "--mkdir");
    ck_assert_ptr_nonnull(strstr(aorta_argv_at(out, 9), "/c/_subprocess/t/good/rank%AORTA_RANK%"));
    /* Then each rank holds the run directory while it lives (record/lock.c). */
    ck_assert_str_eq(aorta_argv_at(out, 10), "--hold");
    ck_assert_str_eq(aorta_argv_at(out, 11), run_dir);
    ck_assert_str_eq(aorta_argv_at(out, 12), "--");
    ck_assert_ptr_nonnull(
        strstr(aorta_argv_at(out, 13), "/c/_subprocess/t/good/rank%AORTA_RANK%/good-wrapper"));
    /* A dry run creates nothing. */
    char *collect = tu_join(run_dir, "c");
    ck_assert(!tu_exists(collect));
    free(collect);
    aorta_argv_free(out);
    aorta_argv_free(cmd);
    aorta_env_free(env);
}
END_TEST

/* Chosen ranks under the launcher: aorta-rank-exec is told the list and
 * where the bare command starts (the collectors put it last). */
START_TEST(chosen_ranks_tell_the_helper_where_the_bare_command_is)
{
    plan.launcher = aorta_argv_new();
    aorta_argv_push(plan.launcher, "mpirun");
    long ranks[] = {0, 2, 3, 4};
    plan.ranks = ranks;
    plan.rank_count = 4;
    aorta_argv_t *cmd = command(), *out = NULL;
    aorta_env_t *env = aorta_env_new();
    char *error = NULL;
    ck_assert_int_eq(
        ar_compose(&plan, cmd, run_dir, "c/_subprocess/t", env, 0, -1, &out, &error), 0);
    size_t count = aorta_argv_count(out), dash = 0, ranks_at = 0;
    for (size_t i = 2; i < count && !dash; i++) {
        if (!strcmp(aorta_argv_at(out, i), "--ranks"))
            ranks_at = i;
        if (!strcmp(aorta_argv_at(out, i), "--"))
            dash = i;
    }
    ck_assert_uint_gt(ranks_at, 0);
    ck_assert_str_eq(aorta_argv_at(out, ranks_at + 1), "0,2-4");
    ck_assert_str_eq(aorta_argv_at(out, ranks_at + 2), "--bare-at");
    long at = strtol(aorta_argv_at(out, ranks_at + 3), NULL, 10);
    /* words `at` on of the argv after "--" are the command, alone */
    ck_assert_uint_eq(dash + 1 + (size_t)at + 2, count);
    ck_assert_str_eq(aorta_argv_at(out, dash + 1 + (size_t)at), "./app");
    ck_assert_str_eq(aorta_argv_at(out, dash + 2 + (size_t)at), "512");
    ck_assert_str_ne(aorta_argv_at(out, ranks_at + 4), "--wrapped-end");
    plan.ranks = NULL;
    plan.rank_count = 0;
    aorta_argv_free(out);
    aorta_argv_free(cmd);
    aorta_env_free(env);
}
END_TEST

/* aorta-run as a rank that is not chosen: the command bare, and the
 * rank<k>/ an earlier attempt left removed so that it is not counted. */
START_TEST(an_unchosen_self_rank_runs_bare_and_loses_its_stale_folder)
{
    long ranks[] = {1};
    plan.ranks = ranks;
    plan.rank_count = 1;
    const char *rel = "none-none/_subprocess/trial_d0_m0_t0";
    char *stale = ar_xasprintf("%s/%s/good/rank0/capture", run_dir, rel);
    tu_write(stale, "an earlier attempt's");
    char *other = ar_xasprintf("%s/%s/good/rank1/capture", run_dir, rel);
    tu_write(other, "rank 1's");
    aorta_argv_t *cmd = command(), *out = NULL;
    aorta_env_t *env = aorta_env_new();
    char *error = NULL;
    ck_assert_int_eq(ar_compose(&plan, cmd, run_dir, rel, env, 0, 0, &out, &error), 0);
    ck_assert(tu_exists(stale)); /* a dry run removes nothing */
    aorta_argv_free(out);
    ck_assert_int_eq(ar_compose(&plan, cmd, run_dir, rel, env, 1, 0, &out, &error), 0);
    ck_assert_ptr_null(error);
    ck_assert_uint_eq(aorta_argv_count(out), 2);
    ck_assert_str_eq(aorta_argv_at(out, 0), "./app");
    ck_assert(!tu_exists(stale));
    ck_assert(tu_exists(other));
    aorta_argv_free(out);
    /* The chosen rank wraps as every rank of --all-ranks does. */
    ck_assert_int_eq(ar_compose(&plan, cmd, run_dir, rel, env, 1, 1, &out, &error), 0);
    ck_assert_ptr_nonnull(strstr(aorta_argv_at(out, 0), "/good/rank1/good-wrapper"));
    plan.ranks = NULL;
    plan.rank_count = 0;
    free(other);
    free(stale);
    aorta_argv_free(out);
    aorta_argv_free(cmd);
    aorta_env_free(env);
}
END_TEST

/* Under a launcher, wrap() still gets a directory that exists and is empty
 * (the ABI's promise; scribe refuses one that is not writable), and that
 * placeholder is gone once the argv is composed: every rank writes into
 * the rank<k>/ aorta-rank-exec makes. */
START_TEST(under_a_launcher_wrap_sees_an_existing_directory_and_none_is_left)
{
    ar_collect_entry_t scribe = {.module = tu_plugin(registry, "scribe")};
    scribe.effective = aorta_options_new();
    aorta_options_set(scribe.effective, "wrapper", "/bin/true");
    plan.collectors = &scribe;
    plan.collector_count = 1;
    plan.launcher = aorta_argv_new();
    aorta_argv_push(plan.launcher, "mpirun");
    const char *rel = "c/_subprocess/t";
    aorta_argv_t *cmd = command(), *out = NULL;
    aorta_env_t *env = aorta_env_new();
    char *error = NULL;
    ck_assert_int_eq(ar_compose(&plan, cmd, run_dir, rel, env, 1, -1, &out, &error), 0);
    ck_assert_ptr_null(error);
    char *dir = ar_xasprintf("%s/%s/scribe", run_dir, rel);
    char *placeholder = ar_xasprintf("%s/rank%%AORTA_RANK%%", dir);
    ck_assert(tu_exists(dir));
    ck_assert(!tu_exists(placeholder));
    free(placeholder);
    free(dir);
    aorta_argv_free(out);
    aorta_argv_free(cmd);
    aorta_env_free(env);
    aorta_options_free(scribe.effective);
    plan.collectors = entries;
    plan.collector_count = 2;
}
END_TEST

START_TEST(a_symlink_in_the_way_is_refused_and_its_target_untouched)
{
    char *outside = tu_tmpdir();
    char *keep = tu_join(outside, "keep.txt");
    tu_write(keep, "precious");
    char *trial = tu_join(run_dir, "cell/_subprocess/trial_d0_m0_t0");
    char *parent = tu_join(run_dir, "cell/_subprocess");
    char *placeholder = tu_join(parent, "placeholder");
    tu_write(placeholder, "");
    free(placeholder);
    char *link = tu_join(trial, "good");
    mkdir(trial, 0755);
    ck_assert_int_eq(symlink(outside, link), 0);
    aorta_argv_t *cmd = command(), *out = NULL;
    aorta_env_t *env = aorta_env_new();
    char *error = NULL;
    ck_assert_int_eq(ar_compose(&plan, cmd, run_dir, "cell/_subprocess/trial_d0_m0_t0", env, 1,
                                   -1, &out, &error),
                     -1);
    ck_assert_ptr_null(out);
    ck_assert_ptr_nonnull(strstr(error, "collect: cannot prepare the good artifact directory"));
    ck_assert_ptr_nonnull(strstr(error, "symbolic link"));
    ck_assert(tu_exists(keep));
    free(error);

    /* A symlinked ancestor of the collector directory is refused as well. */
    unlink(link);
    char *moved = tu_join(run_dir, "cell/_subprocess/trial_d0_m0_t1");
    ck_assert_int_eq(symlink(outside, moved), 0);
    ck_assert_int_eq(ar_compose(&plan, cmd, run_dir, "cell/_subprocess/trial_d0_m0_t1", env, 1,
                                   -1, &out, &error),
                     -1);
    ck_assert_ptr_nonnull(strstr(error, "symbolic link"));
    ck_assert(tu_exists(keep));
    free(error);
    free(moved);
    aorta_argv_free(cmd);
    aorta_env_free(env);
    tu_rmtree(outside);
    free(outside);
    free(keep);
    free(trial);
    free(parent);
    free(link);
}
END_TEST

static Suite *compose_suite(void)
{
    Suite *suite = suite_create("compose");
    TCase *tc = tcase_create("compose");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, wraps_in_rank_order_into_emptied_directories);
    tcase_add_test(tc, launcher_goes_outside_every_collector);
    tcase_add_test(tc, chosen_ranks_tell_the_helper_where_the_bare_command_is);
    tcase_add_test(tc, an_unchosen_self_rank_runs_bare_and_loses_its_stale_folder);
    tcase_add_test(tc, under_a_launcher_wrap_sees_an_existing_directory_and_none_is_left);
    tcase_add_test(tc, a_symlink_in_the_way_is_refused_and_its_target_untouched);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(compose_suite)
