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

static aorta_registry_t *registry;
static aorta_plan_t plan;
static aorta_collect_entry_t entries[2];
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
    aorta_registry_free(registry);
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
    char *stale = aorta_xasprintf("%s/%s/good/old_kernel_stats.csv", run_dir, rel);
    tu_write(stale, "stale capture");
    aorta_argv_t *cmd = command(), *out = NULL;
    aorta_env_t *env = aorta_env_new();
    char *error = NULL;
    ck_assert_int_eq(aorta_compose(&plan, cmd, run_dir, rel, env, 1, -1, &out, &error), 0);
    ck_assert_ptr_null(error);
    char *wrapper = aorta_xasprintf("%s/%s/good/good-wrapper", run_dir, rel);
    ck_assert_uint_eq(aorta_argv_count(out), 4);
    ck_assert_str_eq(aorta_argv_at(out, 0), wrapper);
    ck_assert_str_eq(aorta_argv_at(out, 1), "--");
    ck_assert_str_eq(aorta_argv_at(out, 2), "./app");
    ck_assert(!tu_exists(stale));
    char *bad_dir = aorta_xasprintf("%s/%s/badparse", run_dir, rel);
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
        aorta_compose(&plan, cmd, run_dir, "c/_subprocess/t", env, 0, -1, &out, &error), 0);
    ck_assert_str_eq(aorta_argv_at(out, 0), "mpirun");
    /* Just inside the launcher, the per-rank step: one --mkdir per
     * collector, each collector writing into its rank%AORTA_RANK%/. */
    char *helper = tu_builddir("core/aorta-rank-exec");
    ck_assert_str_eq(aorta_argv_at(out, 3), helper);
    free(helper);
    ck_assert_str_eq(aorta_argv_at(out, 4), "--mkdir");
    ck_assert_ptr_nonnull(strstr(aorta_argv_at(out, 5), "/c/_subprocess/t/badparse/rank%AORTA_RANK%"));
    ck_assert_str_eq(aorta_argv_at(out, 6), "--mkdir");
    ck_assert_ptr_nonnull(strstr(aorta_argv_at(out, 7), "/c/_subprocess/t/good/rank%AORTA_RANK%"));
    ck_assert_str_eq(aorta_argv_at(out, 8), "--");
    ck_assert_ptr_nonnull(
        strstr(aorta_argv_at(out, 9), "/c/_subprocess/t/good/rank%AORTA_RANK%/good-wrapper"));
    /* A dry run creates nothing. */
    char *collect = tu_join(run_dir, "c");
    ck_assert(!tu_exists(collect));
    free(collect);
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
    aorta_collect_entry_t scribe = {.module = tu_plugin(registry, "scribe")};
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
    ck_assert_int_eq(aorta_compose(&plan, cmd, run_dir, rel, env, 1, -1, &out, &error), 0);
    ck_assert_ptr_null(error);
    char *dir = aorta_xasprintf("%s/%s/scribe", run_dir, rel);
    char *placeholder = aorta_xasprintf("%s/rank%%AORTA_RANK%%", dir);
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
    ck_assert_int_eq(aorta_compose(&plan, cmd, run_dir, "cell/_subprocess/trial_d0_m0_t0", env, 1,
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
    ck_assert_int_eq(aorta_compose(&plan, cmd, run_dir, "cell/_subprocess/trial_d0_m0_t1", env, 1,
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
    tcase_add_test(tc, under_a_launcher_wrap_sees_an_existing_directory_and_none_is_left);
    tcase_add_test(tc, a_symlink_in_the_way_is_refused_and_its_target_untouched);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(compose_suite)
