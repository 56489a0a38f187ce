/* SPDX-License-Identifier: MIT */
/* The per-dispatch trace of the SDK (aorta_dispatches_*, ABI 1.3): each
 * promise of its header comment, one test or more. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "aorta/collector.h"
#include "testutil.h"

static aorta_dispatches_t *fresh(void)
{
    aorta_dispatches_t *d = aorta_dispatches_new();
    ck_assert_ptr_nonnull(d);
    return d;
}

static void add(aorta_dispatches_t *d, const char *track, const char *name, uint64_t start,
                uint64_t end)
{
    ck_assert_int_eq(aorta_dispatches_add(d, track, name, strlen(name), start, end), 0);
}

START_TEST(a_new_trace_is_empty_and_of_the_session_clock)
{
    aorta_dispatches_t *d = fresh();
    ck_assert_uint_eq(aorta_dispatches_count(d), 0);
    ck_assert_uint_eq(aorta_dispatches_dropped(d), 0);
    ck_assert_uint_eq(aorta_dispatches_track_count(d), 0);
    ck_assert_uint_eq(aorta_dispatches_name_count(d), 0);
    ck_assert_int_eq(aorta_dispatches_clock(d), AORTA_CLOCK_SESSION);
    aorta_dispatches_free(d);
    aorta_dispatches_free(NULL);
}
END_TEST

START_TEST(names_and_tracks_are_kept_once_in_first_seen_order)
{
    aorta_dispatches_t *d = fresh();
    add(d, "queue 1", "b", 10, 20);
    add(d, "queue 2", "a", 5, 7);
    add(d, "queue 1", "b", 30, 30);
    add(d, "queue 2", "b", 40, 41);
    ck_assert_uint_eq(aorta_dispatches_count(d), 4);
    ck_assert_uint_eq(aorta_dispatches_track_count(d), 2);
    ck_assert_str_eq(aorta_dispatches_track_name(d, 0), "queue 1");
    ck_assert_str_eq(aorta_dispatches_track_name(d, 1), "queue 2");
    ck_assert_uint_eq(aorta_dispatches_name_count(d), 2);
    size_t len = 99;
    ck_assert_str_eq(aorta_dispatches_name(d, 0, &len), "b");
    ck_assert_uint_eq(len, 1);
    ck_assert_str_eq(aorta_dispatches_name(d, 1, NULL), "a");
    /* Dispatches stay in the order added, with their own numbers. */
    const size_t tracks[] = {0, 1, 0, 1}, names[] = {0, 1, 0, 0};
    const uint64_t starts[] = {10, 5, 30, 40}, ends[] = {20, 7, 30, 41};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_uint_eq(aorta_dispatches_track_at(d, i), tracks[i]);
        ck_assert_uint_eq(aorta_dispatches_name_at(d, i), names[i]);
        ck_assert_uint_eq(aorta_dispatches_start_at(d, i), starts[i]);
        ck_assert_uint_eq(aorta_dispatches_end_at(d, i), ends[i]);
    }
    aorta_dispatches_free(d);
}
END_TEST

START_TEST(names_are_compared_byte_for_byte_and_stay_put)
{
    aorta_dispatches_t *d = fresh();
    ck_assert_int_eq(aorta_dispatches_add(d, "q", "k\0x", 3, 1, 2), 0);
    ck_assert_int_eq(aorta_dispatches_add(d, "q", "k\0y", 3, 1, 2), 0);
    ck_assert_int_eq(aorta_dispatches_add(d, "q", "k", 1, 1, 2), 0);
    ck_assert_int_eq(aorta_dispatches_add(d, "q", NULL, 0, 1, 2), 0); /* "" */
    ck_assert_uint_eq(aorta_dispatches_name_count(d), 4);
    size_t len;
    const char *first = aorta_dispatches_name(d, 0, &len);
    ck_assert_uint_eq(len, 3);
    ck_assert_int_eq(memcmp(first, "k\0x", 4), 0); /* NUL-terminated after its bytes */
    ck_assert_str_eq(aorta_dispatches_name(d, 3, &len), "");
    ck_assert_uint_eq(len, 0);
    /* Later adds do not move a name. */
    char name[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "kernel_%d", i);
        add(d, "q", name, (uint64_t)i, (uint64_t)i + 1);
    }
    ck_assert_ptr_eq(aorta_dispatches_name(d, 0, NULL), first);
    ck_assert_uint_eq(aorta_dispatches_name_count(d), 5004);
    ck_assert_str_eq(aorta_dispatches_name(d, 5003, NULL), "kernel_4999");
    aorta_dispatches_free(d);
}
END_TEST

/* A capture may give each dispatch a track of its own, up to the cap of
 * 500,000: they are interned in n log n (the linear search took 39 s for
 * 80,000 and passed the parse timeout at the cap).  400,000 of them under a
 * CPU limit that the linear search runs far past; the index needs about a
 * second. */
START_TEST(many_tracks_are_interned_in_near_linear_time)
{
    struct rlimit cpu = {30, 31};
    ck_assert_int_eq(setrlimit(RLIMIT_CPU, &cpu), 0); /* this test's own child */
    aorta_dispatches_t *d = fresh();
    enum { TRACKS = 400000 }; /* and room below the cap for the second look */
    char track[32];
    for (int i = 0; i < TRACKS; i++) {
        snprintf(track, sizeof track, "stream %d", i);
        add(d, track, "k", (uint64_t)i, (uint64_t)i + 1);
    }
    /* Each seen again, out of order: the same track, nothing new. */
    for (int i = TRACKS - 1; i >= 0; i -= 4999) {
        snprintf(track, sizeof track, "stream %d", i);
        add(d, track, "k", 0, 1);
        ck_assert_uint_eq(aorta_dispatches_track_at(d, aorta_dispatches_count(d) - 1),
                          (size_t)i);
    }
    ck_assert_uint_eq(aorta_dispatches_track_count(d), TRACKS);
    ck_assert_str_eq(aorta_dispatches_track_name(d, 12345), "stream 12345");
    aorta_dispatches_free(d);
}
END_TEST

START_TEST(bad_adds_are_refused_with_einval)
{
    aorta_dispatches_t *d = fresh();
    errno = 0;
    ck_assert_int_eq(aorta_dispatches_add(NULL, "q", "k", 1, 1, 2), -1);
    ck_assert_int_eq(errno, EINVAL);
    errno = 0;
    ck_assert_int_eq(aorta_dispatches_add(d, NULL, "k", 1, 1, 2), -1);
    ck_assert_int_eq(errno, EINVAL);
    errno = 0;
    ck_assert_int_eq(aorta_dispatches_add(d, "q", NULL, 1, 1, 2), -1);
    ck_assert_int_eq(errno, EINVAL);
    errno = 0;
    ck_assert_int_eq(aorta_dispatches_add(d, "q", "k", 1, 3, 2), -1);
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_uint_eq(aorta_dispatches_count(d), 0);
    ck_assert_uint_eq(aorta_dispatches_track_count(d), 0);
    ck_assert_uint_eq(aorta_dispatches_name_count(d), 0);
    aorta_dispatches_free(d);
}
END_TEST

START_TEST(the_clock_is_one_of_two)
{
    aorta_dispatches_t *d = fresh();
    ck_assert_int_eq(aorta_dispatches_set_clock(d, AORTA_CLOCK_HOST), 0);
    ck_assert_int_eq(aorta_dispatches_clock(d), AORTA_CLOCK_HOST);
    errno = 0;
    ck_assert_int_eq(aorta_dispatches_set_clock(d, 3), -1);
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_int_eq(aorta_dispatches_clock(d), AORTA_CLOCK_HOST);
    ck_assert_int_eq(aorta_dispatches_set_clock(d, AORTA_CLOCK_SESSION), 0);
    ck_assert_int_eq(aorta_dispatches_clock(d), AORTA_CLOCK_SESSION);
    errno = 0;
    ck_assert_int_eq(aorta_dispatches_set_clock(NULL, AORTA_CLOCK_HOST), -1);
    ck_assert_int_eq(errno, EINVAL);
    aorta_dispatches_free(d);
}
END_TEST

START_TEST(out_of_range_and_null_read_as_nothing)
{
    aorta_dispatches_t *d = fresh();
    add(d, "q", "k", 1, 2);
    size_t len = 99;
    ck_assert_ptr_null(aorta_dispatches_name(d, 1, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_ptr_null(aorta_dispatches_name(d, 1, NULL));
    ck_assert_ptr_null(aorta_dispatches_track_name(d, 1));
    ck_assert_uint_eq(aorta_dispatches_track_at(d, 1), (size_t)-1);
    ck_assert_uint_eq(aorta_dispatches_name_at(d, 1), (size_t)-1);
    ck_assert_uint_eq(aorta_dispatches_start_at(d, 1), 0);
    ck_assert_uint_eq(aorta_dispatches_end_at(d, 1), 0);
    ck_assert_uint_eq(aorta_dispatches_count(NULL), 0);
    ck_assert_uint_eq(aorta_dispatches_dropped(NULL), 0);
    ck_assert_uint_eq(aorta_dispatches_track_count(NULL), 0);
    ck_assert_uint_eq(aorta_dispatches_name_count(NULL), 0);
    ck_assert_int_eq(aorta_dispatches_clock(NULL), 0);
    ck_assert_ptr_null(aorta_dispatches_name(NULL, 0, &len));
    ck_assert_ptr_null(aorta_dispatches_track_name(NULL, 0));
    ck_assert_uint_eq(aorta_dispatches_track_at(NULL, 0), (size_t)-1);
    ck_assert_uint_eq(aorta_dispatches_name_at(NULL, 0), (size_t)-1);
    ck_assert_uint_eq(aorta_dispatches_start_at(NULL, 0), 0);
    ck_assert_uint_eq(aorta_dispatches_end_at(NULL, 0), 0);
    aorta_dispatches_free(d);
}
END_TEST

static int warnings;
static char last_warning[256];

static void count_warning(const char *source, const char *message, void *user)
{
    (void)user;
    warnings++;
    snprintf(last_warning, sizeof last_warning, "%s: %s", source, message);
}

START_TEST(past_the_cap_dispatches_are_dropped_counted_and_warned_once)
{
    aorta_warning_set_handler(count_warning, NULL);
    warnings = 0;
    aorta_dispatches_t *d = fresh();
    for (uint64_t i = 0; i < AORTA_DISPATCHES_MAX + 3u; i++)
        ck_assert_int_eq(aorta_dispatches_add(d, "q", "k", 1, i, i), 0);
    aorta_warning_set_handler(NULL, NULL);
    ck_assert_uint_eq(aorta_dispatches_count(d), AORTA_DISPATCHES_MAX);
    ck_assert_uint_eq(aorta_dispatches_dropped(d), 3);
    ck_assert_uint_eq(aorta_dispatches_start_at(d, AORTA_DISPATCHES_MAX - 1),
                      AORTA_DISPATCHES_MAX - 1);
    ck_assert_int_eq(warnings, 1);
    ck_assert_str_eq(last_warning, "libaorta: more than 500000 kernel dispatches: the timeline "
                                   "keeps the first 500000 and drops the rest");
    aorta_dispatches_free(d);
}
END_TEST

START_TEST(the_sink_holds_a_copy_that_is_not_a_metric)
{
    aorta_metrics_t *metrics = aorta_metrics_new("x_");
    ck_assert_ptr_null(aorta_metrics_dispatches(metrics));
    ck_assert_ptr_null(aorta_metrics_dispatches(NULL));
    aorta_dispatches_t *d = fresh();
    add(d, "q", "k", 1, 2);
    aorta_dispatches_set_clock(d, AORTA_CLOCK_HOST);
    ck_assert_int_eq(aorta_metrics_set_dispatches(metrics, d), 0);
    add(d, "r", "other", 3, 4); /* the copy does not follow */
    const aorta_dispatches_t *held = aorta_metrics_dispatches(metrics);
    ck_assert_ptr_nonnull(held);
    ck_assert_ptr_ne(held, d);
    ck_assert_uint_eq(aorta_dispatches_count(held), 1);
    ck_assert_int_eq(aorta_dispatches_clock(held), AORTA_CLOCK_HOST);
    ck_assert_str_eq(aorta_dispatches_name(held, 0, NULL), "k");
    ck_assert_str_eq(aorta_dispatches_track_name(held, 0), "q");
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    /* A second one replaces the first. */
    ck_assert_int_eq(aorta_metrics_set_dispatches(metrics, d), 0);
    ck_assert_uint_eq(aorta_dispatches_count(aorta_metrics_dispatches(metrics)), 2);
    errno = 0;
    ck_assert_int_eq(aorta_metrics_set_dispatches(NULL, d), -1);
    ck_assert_int_eq(errno, EINVAL);
    errno = 0;
    ck_assert_int_eq(aorta_metrics_set_dispatches(metrics, NULL), -1);
    ck_assert_int_eq(errno, EINVAL);
    ck_assert_uint_eq(aorta_dispatches_count(aorta_metrics_dispatches(metrics)), 2);
    aorta_dispatches_free(d);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(the_copy_keeps_the_dropped_count)
{
    aorta_warning_set_handler(count_warning, NULL);
    aorta_dispatches_t *d = fresh();
    for (uint64_t i = 0; i <= AORTA_DISPATCHES_MAX; i++)
        aorta_dispatches_add(d, "q", "k", 1, i, i);
    aorta_warning_set_handler(NULL, NULL);
    aorta_metrics_t *metrics = aorta_metrics_new(NULL);
    aorta_metrics_set_dispatches(metrics, d);
    ck_assert_uint_eq(aorta_dispatches_dropped(aorta_metrics_dispatches(metrics)), 1);
    ck_assert_uint_eq(aorta_dispatches_count(aorta_metrics_dispatches(metrics)),
                      AORTA_DISPATCHES_MAX);
    aorta_metrics_free(metrics);
    aorta_dispatches_free(d);
}
END_TEST

static Suite *dispatches_suite(void)
{
    Suite *suite = suite_create("sdk_dispatches");
    TCase *tc = tcase_create("dispatches");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_new_trace_is_empty_and_of_the_session_clock);
    tcase_add_test(tc, names_and_tracks_are_kept_once_in_first_seen_order);
    tcase_add_test(tc, names_are_compared_byte_for_byte_and_stay_put);
    tcase_add_test(tc, many_tracks_are_interned_in_near_linear_time);
    tcase_add_test(tc, bad_adds_are_refused_with_einval);
    tcase_add_test(tc, the_clock_is_one_of_two);
    tcase_add_test(tc, out_of_range_and_null_read_as_nothing);
    tcase_add_test(tc, past_the_cap_dispatches_are_dropped_counted_and_warned_once);
    tcase_add_test(tc, the_sink_holds_a_copy_that_is_not_a_metric);
    tcase_add_test(tc, the_copy_keeps_the_dropped_count);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(dispatches_suite)
