/* SPDX-License-Identifier: MIT */
/* parse() in a child process: normal replies come back with their types; a
 * crash, a hang, an exit or a key outside the namespace costs only that. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "record/metrics_json.h"
#include "registry/registry.h"
#include "sweep/parse_child.h"
#include "testutil.h"

static ar_registry_t *registry;
static const ar_module_t *badparse;
static char *dir;

static void setup(void)
{
    registry = tu_registry("tests/fake-collectors");
    badparse = tu_plugin(registry, "badparse");
    dir = tu_tmpdir();
    setenv("AORTA_PARSE_TIMEOUT", "2", 1);
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
    ar_registry_free(registry);
}

static aorta_metrics_t *parse_with(const char *behaviour, const char *where)
{
    aorta_options_t *options = aorta_options_new();
    aorta_options_set(options, "behaviour", behaviour);
    aorta_metrics_t *metrics = ar_parse_in_child(badparse, options, where);
    aorta_options_free(options);
    return metrics;
}

START_TEST(a_normal_reply_keeps_types_and_drops_foreign_keys)
{
    aorta_metrics_t *metrics = parse_with("normal", dir);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 4);
    ck_assert_str_eq(aorta_metrics_find(metrics, "badparse_artifact_dir")->string_value, dir);
    const aorta_metric_t *count = aorta_metrics_find(metrics, "badparse_kernel_count");
    ck_assert_int_eq(count->type, AORTA_METRIC_INT);
    ck_assert_int_eq(count->int_value, 7);
    const aorta_metric_t *time = aorta_metrics_find(metrics, "badparse_gpu_time_ms");
    ck_assert_int_eq(time->type, AORTA_METRIC_DOUBLE);
    ck_assert(time->double_value == 1.5);
    const aorta_metric_t *top = aorta_metrics_find(metrics, "badparse_top_kernels");
    ck_assert_int_eq(top->type, AORTA_METRIC_STRINGS);
    ck_assert_str_eq(top->strings[1], "k2");
    ck_assert_ptr_null(aorta_metrics_find(metrics, "verdict"));
    aorta_metrics_free(metrics);
}
END_TEST

static void expect_only_artifact_dir(const char *behaviour)
{
    aorta_metrics_t *metrics = parse_with(behaviour, dir);
    ck_assert_msg(aorta_metrics_count(metrics) == 1, "%s: %zu metrics", behaviour,
                  aorta_metrics_count(metrics));
    ck_assert_str_eq(aorta_metrics_find(metrics, "badparse_artifact_dir")->string_value, dir);
    aorta_metrics_free(metrics);
}

START_TEST(crash_hang_and_exit_leave_only_the_artifact_dir)
{
    expect_only_artifact_dir("crash");
    expect_only_artifact_dir("hang");
    expect_only_artifact_dir("exit");
}
END_TEST

/* One string of 17 MiB, more than the whole reply holds, cost every metric
 * (the reply past 16 MiB was garbage): it is cut now, to its start, "...#"
 * and its hash, and the other metrics stay (record/metrics_json.h). */
START_TEST(a_string_past_the_reply_is_cut_and_the_other_metrics_stay)
{
    aorta_metrics_t *metrics = parse_with("huge", dir);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 5);
    ck_assert_int_eq(aorta_metrics_find(metrics, "badparse_kernel_count")->int_value, 7);
    const char *huge = aorta_metrics_find(metrics, "badparse_huge")->string_value;
    ck_assert_uint_le(strlen(huge), AR_METRIC_TEXT_MAX);
    ck_assert_int_eq(strncmp(huge, "kkkkkkkk", 8), 0);
    ck_assert_ptr_nonnull(strstr(huge, "...#"));
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(stdout_noise_does_not_corrupt_the_reply)
{
    aorta_metrics_t *metrics = parse_with("noise", dir);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 4);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(no_artifact_dir_when_the_dir_is_missing)
{
    char *missing = tu_join(dir, "missing");
    aorta_options_t *options = aorta_options_new();
    aorta_options_set(options, "behaviour", "crash");
    aorta_metrics_t *metrics = ar_parse_in_child(badparse, options, missing);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    aorta_metrics_free(metrics);
    aorta_options_free(options);
    free(missing);
}
END_TEST

/* A parse that cannot start for lack of descriptors says why: "could not
 * start" alone leaves a user nothing to do. */
START_TEST(a_parse_without_descriptors_names_the_reason)
{
    char *log = tu_join(dir, "stderr.log");
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 2) < 0)
            _exit(2);
        close(fd);
        struct rlimit limit = {64, 64};
        setrlimit(RLIMIT_NOFILE, &limit);
        int n = 0;
        while (n < 4096 && open("/dev/null", O_RDONLY) >= 0)
            n++;
        if (errno != EMFILE)
            _exit(77); /* not out of descriptors the way the kernel runs out */
        aorta_metrics_t *metrics = parse_with("normal", dir);
        _exit(aorta_metrics_count(metrics) == 1 ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status));
    char *err = tu_read(log);
    if (WEXITSTATUS(status) == 77) {
        /* only valgrind, which keeps descriptors of its own, gets here */
        char *maps = tu_read("/proc/self/maps");
        ck_assert_msg(maps && strstr(maps, "vgpreload"), "could not run out of descriptors");
        free(maps);
    } else {
        ck_assert_int_eq(WEXITSTATUS(status), 0);
        ck_assert_msg(strstr(err, "collect: badparse summary parsing could not start (too many "
                                  "open files: aorta-run is at its limit of descriptors, EMFILE; "
                                  "raise ulimit -n); skipping its metrics for "),
                      "%s", err);
    }
    free(err);
    free(log);
}
END_TEST

static Suite *parse_child_suite(void)
{
    Suite *suite = suite_create("parse_child");
    TCase *tc = tcase_create("parse_child");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_normal_reply_keeps_types_and_drops_foreign_keys);
    tcase_add_test(tc, crash_hang_and_exit_leave_only_the_artifact_dir);
    tcase_add_test(tc, a_string_past_the_reply_is_cut_and_the_other_metrics_stay);
    tcase_add_test(tc, stdout_noise_does_not_corrupt_the_reply);
    tcase_add_test(tc, no_artifact_dir_when_the_dir_is_missing);
    tcase_add_test(tc, a_parse_without_descriptors_names_the_reason);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(parse_child_suite)
