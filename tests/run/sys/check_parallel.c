/* SPDX-License-Identifier: MIT */
/* The loop over independent items (sys/parallel.h): every item done once,
 * each worker's state made and freed on its own thread, a small loop on
 * the calling thread alone. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sys/parallel.h"
#include "testutil.h"

typedef struct tally {
    unsigned *visits;      /* per item: how many times it was done */
    int *owner_ok;         /* per item: done with its worker's own state */
    pthread_mutex_t lock;
    size_t begun, ended;
    pthread_t caller;
    size_t off_caller;     /* items done on another thread */
} tally_t;

typedef struct state {
    tally_t *tally;
    pthread_t thread;
} state_t;

static void *begin(void *user)
{
    tally_t *tally = user;
    state_t *state = malloc(sizeof *state);
    *state = (state_t){tally, pthread_self()};
    pthread_mutex_lock(&tally->lock);
    tally->begun++;
    pthread_mutex_unlock(&tally->lock);
    return state;
}

static void end(void *user)
{
    state_t *state = user;
    ck_assert(pthread_equal(state->thread, pthread_self()));
    pthread_mutex_lock(&state->tally->lock);
    state->tally->ended++;
    pthread_mutex_unlock(&state->tally->lock);
    free(state);
}

static void item(size_t index, void *state_ptr, void *user)
{
    tally_t *tally = user;
    state_t *state = state_ptr;
    tally->visits[index]++; /* its own slot: no other thread writes it */
    tally->owner_ok[index] = state->tally == tally && pthread_equal(state->thread, pthread_self());
    if (!pthread_equal(pthread_self(), tally->caller)) {
        pthread_mutex_lock(&tally->lock);
        tally->off_caller++;
        pthread_mutex_unlock(&tally->lock);
    }
}

static void run(size_t count, size_t per_worker, tally_t *tally)
{
    memset(tally, 0, sizeof *tally);
    tally->visits = calloc(count + 1, sizeof *tally->visits);
    tally->owner_ok = calloc(count + 1, sizeof *tally->owner_ok);
    pthread_mutex_init(&tally->lock, NULL);
    tally->caller = pthread_self();
    ar_parallel_t loop = {.count = count, .per_worker = per_worker, .begin = begin,
                             .end = end, .item = item, .user = tally};
    ar_parallel_run(&loop);
    for (size_t i = 0; i < count; i++) {
        ck_assert_msg(tally->visits[i] == 1, "item %zu done %u times", i, tally->visits[i]);
        ck_assert_msg(tally->owner_ok[i], "item %zu saw another worker's state", i);
    }
    ck_assert_uint_eq(tally->begun, tally->ended);
    ck_assert_uint_ge(tally->begun, 1);
    free(tally->visits);
    free(tally->owner_ok);
    pthread_mutex_destroy(&tally->lock);
}

START_TEST(every_item_is_done_once_with_its_workers_state)
{
    tally_t tally;
    run(100003, 16, &tally);
    ck_assert_uint_le(tally.begun, 8);
    run(0, 16, &tally);
    run(1, 16, &tally);
}
END_TEST

START_TEST(a_small_loop_stays_on_the_calling_thread)
{
    tally_t tally;
    run(50, 64, &tally); /* fewer than one worker's worth */
    ck_assert_uint_eq(tally.begun, 1);
    ck_assert_uint_eq(tally.off_caller, 0);
}
END_TEST

static Suite *parallel_suite(void)
{
    Suite *suite = suite_create("parallel");
    TCase *tc = tcase_create("parallel");
    tcase_add_test(tc, every_item_is_done_once_with_its_workers_state);
    tcase_add_test(tc, a_small_loop_stays_on_the_calling_thread);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(parallel_suite)
