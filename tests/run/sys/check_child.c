/* SPDX-License-Identifier: MIT */
/* The one helper child (sys/child.h): the reply comes back whole, every
 * other end is named (a status, a signal, the deadline, the reply limit),
 * the captured output is kept and counted, the address-space limit holds,
 * several children run at once with their results in their slots, a
 * process the child leaves behind does not hold the parent up, and an
 * interrupt kills what runs, starts nothing more and stays pending. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/child.h"
#include "sys/clock.h"
#include "testutil.h"

static void reply_hello(void *user, int fd)
{
    (void)user;
    ar_child_reply(fd, "hello\n", 6);
}

static void exit_three(void *user, int fd)
{
    (void)user, (void)fd;
    exit(3);
}

static void crash(void *user, int fd)
{
    (void)user, (void)fd;
    signal(SIGTERM, SIG_DFL);
    raise(SIGTERM);
}

static void hang(void *user, int fd)
{
    (void)user, (void)fd;
    for (;;)
        pause();
}

static void flood(void *user, int fd)
{
    (void)user;
    char block[4096];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 64; i++)
        ar_child_reply(fd, block, sizeof block);
}

static void chatter(void *user, int fd)
{
    (void)user;
    printf("out line\n");
    fprintf(stderr, "a longer line on stderr\n");
    ar_child_reply(fd, "ok", 2);
}

static ar_child_spec_t spec_of(ar_child_fn fn, void *user)
{
    return (ar_child_spec_t){.fn = fn, .user = user, .timeout_sec = 10, .reply_limit = 1024};
}

START_TEST(each_end_is_named)
{
    ar_child_result_t result;
    ar_child_spec_t spec = spec_of(reply_hello, NULL);
    ar_child_run(&spec, &result);
    ck_assert_int_eq(result.end, AR_CHILD_REPLIED);
    ck_assert_ptr_null(ar_child_problem(&result));
    ck_assert_uint_eq(result.len, 6);
    ck_assert_str_eq(result.reply, "hello\n");
    ck_assert_int_eq(result.exit_code, 0);
    ar_child_result_free(&result);

    spec = spec_of(exit_three, NULL);
    ar_child_run(&spec, &result);
    ck_assert_int_eq(result.end, AR_CHILD_FAILED);
    ck_assert_int_eq(result.exit_code, 3);
    ck_assert_str_eq(ar_child_problem(&result), "failed");
    ar_child_result_free(&result);

    spec = spec_of(crash, NULL);
    ar_child_run(&spec, &result);
    ck_assert_int_eq(result.end, AR_CHILD_CRASHED);
    ck_assert_int_eq(result.signal, SIGTERM);
    ck_assert_str_eq(ar_child_problem(&result), "crashed");
    ar_child_result_free(&result);

    spec = spec_of(hang, NULL);
    spec.timeout_sec = 0.3;
    double started = ar_clock_monotonic();
    ar_child_run(&spec, &result);
    double took = ar_clock_monotonic() - started;
    ck_assert_int_eq(result.end, AR_CHILD_TIMED_OUT);
    ck_assert_str_eq(ar_child_problem(&result), "timed out");
    ck_assert_msg(took >= 0.3 && took < 5, "a 0.3 s deadline took %g s", took);
    ar_child_result_free(&result);

    spec = spec_of(flood, NULL);
    ar_child_run(&spec, &result);
    ck_assert_int_eq(result.end, AR_CHILD_TOO_MUCH);
    ck_assert_str_eq(ar_child_problem(&result), "sent too much");
    ck_assert_uint_le(result.len, 1025); /* one byte past the limit tells */
    ar_child_result_free(&result);
}
END_TEST

START_TEST(captured_output_is_kept_and_counted)
{
    ar_child_spec_t spec = spec_of(chatter, NULL);
    spec.flags = AR_CHILD_CAPTURE_OUTPUT;
    spec.output_keep[0] = 100;
    spec.output_keep[1] = 8;
    ar_child_result_t result;
    ar_child_run(&spec, &result);
    ck_assert_int_eq(result.end, AR_CHILD_REPLIED);
    ck_assert_str_eq(result.reply, "ok");
    ck_assert_str_eq(result.output[0], "out line\n");
    ck_assert_uint_eq(result.output_total[0], 9);
    ck_assert_str_eq(result.output[1], "a longer"); /* 8 kept */
    ck_assert_uint_eq(result.output_len[1], 8);
    ck_assert_uint_eq(result.output_total[1], 24);
    ar_child_result_free(&result);
}
END_TEST

static void allocate(void *user, int fd)
{
    size_t size = *(const size_t *)user;
    char *block = malloc(size);
    ar_child_reply(fd, block ? "got it" : "refused", block ? 6 : 7);
}

START_TEST(the_memory_limit_holds)
{
    if (TU_UNDER_ASAN)
        return; /* ASan reserves terabytes of address space */
    size_t size = (size_t)256 << 20;
    ar_child_spec_t spec = spec_of(allocate, &size);
    spec.memory_limit = (uint64_t)64 << 20;
    ar_child_result_t result;
    ar_child_run(&spec, &result);
    ck_assert_int_eq(result.end, AR_CHILD_REPLIED);
    ck_assert_str_eq(result.reply, "refused");
    ar_child_result_free(&result);
    spec.memory_limit = 0;
    ar_child_run(&spec, &result);
    ck_assert_str_eq(result.reply, "got it");
    ar_child_result_free(&result);
}
END_TEST

static void leave_a_sleeper(void *user, int fd)
{
    (void)user;
    if (fork() == 0) { /* holds the reply pipe open */
        sleep(5);
        _exit(0);
    }
    ar_child_reply(fd, "done", 4);
}

START_TEST(what_the_child_leaves_behind_does_not_hold_the_parent)
{
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, &old); /* as aorta-run keeps it */
    ar_child_spec_t spec = spec_of(leave_a_sleeper, NULL);
    ar_child_result_t result;
    double started = ar_clock_monotonic();
    ar_child_run(&spec, &result);
    double took = ar_clock_monotonic() - started;
    sigprocmask(SIG_SETMASK, &old, NULL);
    ck_assert_int_eq(result.end, AR_CHILD_REPLIED);
    ck_assert_str_eq(result.reply, "done");
    ck_assert_msg(took < 2, "waited %g s for what the child left behind", took);
    ar_child_result_free(&result);
}
END_TEST

static void reply_index(void *user, int fd)
{
    char text[16];
    int len = snprintf(text, sizeof text, "%d", *(const int *)user);
    usleep((useconds_t)(5 - *(const int *)user) * 20000); /* the last started ends first */
    ar_child_reply(fd, text, (size_t)len);
}

typedef struct ends {
    size_t order[8];
    size_t count;
} ends_t;

static void note_end(size_t index, const ar_child_result_t *result, void *user)
{
    ends_t *ends = user;
    ck_assert_int_eq(result->end, AR_CHILD_REPLIED);
    ends->order[ends->count++] = index;
}

START_TEST(several_at_once_land_in_their_slots)
{
    int numbers[5] = {0, 1, 2, 3, 4};
    ar_child_spec_t specs[5];
    for (int i = 0; i < 5; i++)
        specs[i] = spec_of(reply_index, &numbers[i]);
    ar_child_result_t results[5];
    ends_t ends = {{0}, 0};
    ar_child_run_all(specs, 5, 2, results, note_end, &ends);
    ck_assert_uint_eq(ends.count, 5);
    for (int i = 0; i < 5; i++) {
        char want[4];
        snprintf(want, sizeof want, "%d", i);
        ck_assert_str_eq(results[i].reply, want);
        ar_child_result_free(&results[i]);
    }
}
END_TEST

START_TEST(an_interrupt_stops_them_and_stays_pending)
{
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, &old);
    raise(SIGTERM); /* pending: the first children start, are killed at once */
    ar_child_spec_t specs[4];
    for (int i = 0; i < 4; i++)
        specs[i] = spec_of(hang, NULL);
    ar_child_result_t results[4];
    double started = ar_clock_monotonic();
    ar_child_run_all(specs, 4, 2, results, NULL, NULL);
    double took = ar_clock_monotonic() - started;
    ck_assert_msg(took < 2, "an interrupt took %g s to stop the children", took);
    ck_assert_int_eq(results[0].end, AR_CHILD_INTERRUPTED);
    ck_assert_int_eq(results[1].end, AR_CHILD_INTERRUPTED);
    ck_assert_str_eq(ar_child_problem(&results[0]), "interrupted");
    ck_assert_int_eq(results[2].end, AR_CHILD_SKIPPED);
    ck_assert_int_eq(results[3].end, AR_CHILD_SKIPPED);
    ck_assert_ptr_null(results[3].reply);
    for (int i = 0; i < 4; i++)
        ar_child_result_free(&results[i]);
    sigset_t pending;
    sigpending(&pending);
    ck_assert(sigismember(&pending, SIGTERM));
    int sig = 0;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigwait(&set, &sig); /* taken, before the mask is restored */
    sigprocmask(SIG_SETMASK, &old, NULL);
}
END_TEST

static Suite *child_suite(void)
{
    Suite *suite = suite_create("child");
    TCase *tc = tcase_create("child");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, each_end_is_named);
    tcase_add_test(tc, captured_output_is_kept_and_counted);
    tcase_add_test(tc, the_memory_limit_holds);
    tcase_add_test(tc, what_the_child_leaves_behind_does_not_hold_the_parent);
    tcase_add_test(tc, several_at_once_land_in_their_slots);
    tcase_add_test(tc, an_interrupt_stops_them_and_stays_pending);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(child_suite)
