/* SPDX-License-Identifier: MIT */
/* What the header promises about failure: out of memory aborts with
 * "libaorta: out of memory" (never a -1 or NULL), and each -1 is one of the
 * cases the header lists, with nothing changed. */
#include "config.h"

#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "testutil.h"

#define BIG (16u << 20)

static char *big;

/* Each runs in a child whose address space has no room left for a copy of
 * big. */
static void oom_options_set(void)
{
    aorta_options_set(aorta_options_new(), big, "v");
}
static void oom_env_set(void)
{
    aorta_env_set(aorta_env_new(), "A", big);
}
static void oom_argv_push(void)
{
    aorta_argv_push(aorta_argv_new(), big);
}
static void oom_metrics_set_string(void)
{
    aorta_metrics_set_string(aorta_metrics_new(NULL), "k", big);
}
static void oom_path_join(void)
{
    aorta_path_join(big, "leaf");
}
static void oom_text_repr(void)
{
    aorta_text_repr(big, BIG);
}
static void oom_kernels_add(void)
{
    aorta_kernels_add(aorta_kernels_new(0), big, BIG, 1.0, 1);
}
static void oom_warn(void)
{
    aorta_warning_set_handler(NULL, NULL);
    aorta_warn("x", "%s", big);
}
/* A result that could not fit in memory is out of memory too. */
static void oom_repr_too_large(void)
{
    aorta_text_repr("", SIZE_MAX / 2);
}

typedef void (*action_fn)(void);

static void limit_address_space(void)
{
    FILE *statm = fopen("/proc/self/statm", "r");
    ck_assert_ptr_nonnull(statm);
    unsigned long pages = 0;
    ck_assert_int_eq(fscanf(statm, "%lu", &pages), 1);
    fclose(statm);
    rlim_t now = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
    struct rlimit limit = {now + (BIG / 4), now + (BIG / 4)};
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &limit), 0);
}

/* Run @p action in a child: it must abort after writing exactly the line. */
static void expect_out_of_memory(action_fn action, int limited)
{
    int pipe_fds[2];
    ck_assert_int_eq(pipe(pipe_fds), 0);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(pipe_fds[1], 2);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        big = malloc(BIG + 1);
        memset(big, 'a', BIG);
        big[BIG] = '\0';
        if (limited)
            limit_address_space();
        action();
        _exit(0);
    }
    close(pipe_fds[1]);
    char text[256] = "";
    size_t got = 0;
    ssize_t n;
    while ((n = read(pipe_fds[0], text + got, sizeof text - 1 - got)) > 0)
        got += (size_t)n;
    close(pipe_fds[0]);
    text[got] = '\0';
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
                  "no abort (status %d), stderr '%s'", status, text);
    ck_assert_str_eq(text, "libaorta: out of memory\n");
}

START_TEST(out_of_memory_aborts_with_one_line)
{
    /* ASan's own allocator answers an address-space limit with its own
     * report and exit, before libaorta could see a NULL: nothing to check. */
    if (TU_UNDER_ASAN)
        return;
    const action_fn limited[] = {oom_options_set,       oom_env_set,   oom_argv_push,
                                 oom_metrics_set_string, oom_path_join, oom_text_repr,
                                 oom_kernels_add,        oom_warn};
    for (size_t i = 0; i < sizeof limited / sizeof *limited; i++)
        expect_out_of_memory(limited[i], 1);
    expect_out_of_memory(oom_repr_too_large, 0);
}
END_TEST

START_TEST(null_arguments_are_refused_and_change_nothing)
{
    aorta_options_t *options = aorta_options_new();
    ck_assert_int_eq(aorta_options_set(options, "k", "v"), 0);
    ck_assert_int_eq(aorta_options_set(options, NULL, "v"), -1);
    ck_assert_int_eq(aorta_options_set(options, "k", NULL), -1);
    ck_assert_int_eq(aorta_options_set(NULL, "k", "v"), -1);
    ck_assert_uint_eq(aorta_options_count(options), 1);
    ck_assert_str_eq(aorta_options_get(options, "k"), "v");
    aorta_options_free(options);

    aorta_env_t *env = aorta_env_new();
    ck_assert_int_eq(aorta_env_set(env, "A", "1"), 0);
    ck_assert_int_eq(aorta_env_set(env, "B", "2"), 0);
    ck_assert_int_eq(aorta_env_set(env, "A", "3"), 0);
    ck_assert_str_eq(aorta_env_name_at(env, 0), "A"); /* keeps its position */
    ck_assert_str_eq(aorta_env_value_at(env, 0), "3");
    ck_assert_int_eq(aorta_env_set(env, NULL, "1"), -1);
    ck_assert_int_eq(aorta_env_set(env, "A", NULL), -1);
    ck_assert_int_eq(aorta_env_set(NULL, "A", "1"), -1);
    ck_assert_uint_eq(aorta_env_count(env), 2);
    aorta_env_free(env);
    env = aorta_env_from_environ(NULL);
    ck_assert_uint_eq(aorta_env_count(env), 0);
    aorta_env_free(env);

    aorta_argv_t *argv = aorta_argv_new();
    ck_assert_int_eq(aorta_argv_push(argv, "a"), 0);
    ck_assert_int_eq(aorta_argv_push(argv, NULL), -1);
    ck_assert_int_eq(aorta_argv_push(NULL, "a"), -1);
    ck_assert_int_eq(aorta_argv_push_all(argv, NULL), -1);
    ck_assert_int_eq(aorta_argv_push_from(NULL, argv, 0), -1);
    ck_assert_uint_eq(aorta_argv_count(argv), 1);
    /* A start past the end appends nothing. */
    ck_assert_int_eq(aorta_argv_push_from(argv, argv, 5), 0);
    ck_assert_uint_eq(aorta_argv_count(argv), 1);
    aorta_argv_free(argv);
    char *items[] = {"a", NULL, "b"};
    argv = aorta_argv_from(items, 3);
    ck_assert_uint_eq(aorta_argv_count(argv), 2);
    ck_assert_str_eq(aorta_argv_at(argv, 1), "b");
    aorta_argv_free(argv);
    argv = aorta_argv_from(NULL, 3);
    ck_assert_uint_eq(aorta_argv_count(argv), 0);
    aorta_argv_free(argv);
}
END_TEST

START_TEST(argv_may_push_itself)
{
    aorta_argv_t *argv = aorta_argv_new();
    for (int i = 0; i < 20; i++)
        aorta_argv_push(argv, i % 2 ? "odd" : "even");
    ck_assert_int_eq(aorta_argv_push_all(argv, argv), 0);
    ck_assert_uint_eq(aorta_argv_count(argv), 40);
    ck_assert_str_eq(aorta_argv_at(argv, 39), "odd");
    ck_assert_ptr_null(aorta_argv_items(argv)[40]);
    aorta_argv_free(argv);
}
END_TEST

START_TEST(a_refused_metric_leaves_the_sink_unchanged)
{
    aorta_metrics_t *metrics = aorta_metrics_new("k_");
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "k_a", 1), 0);
    const char *items[] = {"x", NULL};
    ck_assert_int_eq(aorta_metrics_set_double(metrics, "k_a", NAN), -1);
    ck_assert_int_eq(aorta_metrics_set_string(metrics, "k_a", NULL), -1);
    ck_assert_int_eq(aorta_metrics_set_strings(metrics, "k_a", items, 2), -1);
    ck_assert_int_eq(aorta_metrics_set_strings(metrics, "k_a", NULL, 1), -1);
    ck_assert_int_eq(aorta_metrics_set_int(metrics, NULL, 1), -1);
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "other_a", 1), -1);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 1);
    const aorta_metric_t *a = aorta_metrics_find(metrics, "k_a");
    ck_assert_int_eq(a->type, AORTA_METRIC_INT);
    ck_assert_int_eq(a->int_value, 1);
    /* An empty list is a value; a second set replaces the type too. */
    ck_assert_int_eq(aorta_metrics_set_strings(metrics, "k_a", NULL, 0), 0);
    ck_assert_int_eq(aorta_metrics_find(metrics, "k_a")->type, AORTA_METRIC_STRINGS);
    ck_assert_uint_eq(aorta_metrics_find(metrics, "k_a")->string_count, 0);
    aorta_metrics_free(metrics);
    /* Without a prefix any non-empty key goes. */
    metrics = aorta_metrics_new(NULL);
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "anything", 1), 0);
    ck_assert_int_eq(aorta_metrics_set_int(metrics, "", 1), -1);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 1);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(join_and_repr_never_return_null)
{
    char *joined = aorta_path_join(NULL, "x/./y/");
    ck_assert_str_eq(joined, "x/y");
    aorta_free(joined);
    joined = aorta_path_join(NULL, NULL);
    ck_assert_str_eq(joined, ".");
    aorta_free(joined);
    char *quoted = aorta_text_repr("", 0);
    ck_assert_str_eq(quoted, "''");
    aorta_free(quoted);
}
END_TEST

static Suite *promises_suite(void)
{
    Suite *suite = suite_create("sdk_promises");
    TCase *tc = tcase_create("promises");
    tcase_add_test(tc, out_of_memory_aborts_with_one_line);
    tcase_add_test(tc, null_arguments_are_refused_and_change_nothing);
    tcase_add_test(tc, argv_may_push_itself);
    tcase_add_test(tc, a_refused_metric_leaves_the_sink_unchanged);
    tcase_add_test(tc, join_and_repr_never_return_null);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(promises_suite)
