/* SPDX-License-Identifier: MIT */
/* parallel.c - the worker threads of a loop over independent items
 * (parallel.h): --compare reads two runs of thousands of cells, each a
 * few files, and builds each cell's comparison. */
#include "config.h"

#include "sys/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#define MAX_WORKERS 8
/* Items taken at once: the counter is touched once per batch. */
#define BATCH 8

typedef struct shared {
    const ar_parallel_t *loop;
    atomic_size_t next;
} shared_t;

static void *worker(void *user)
{
    shared_t *shared = user;
    const ar_parallel_t *loop = shared->loop;
    void *state = loop->begin ? loop->begin(loop->user) : NULL;
    for (;;) {
        size_t from = atomic_fetch_add(&shared->next, BATCH);
        if (from >= loop->count)
            break;
        size_t to = loop->count - from < BATCH ? loop->count : from + BATCH;
        for (size_t i = from; i < to; i++)
            loop->item(i, state, loop->user);
    }
    if (loop->end)
        loop->end(state);
    return NULL;
}

void ar_parallel_run(const ar_parallel_t *loop)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t workers = cpus > 1 ? (size_t)cpus : 1;
    size_t worth = loop->count / (loop->per_worker ? loop->per_worker : 1);
    if (workers > worth)
        workers = worth ? worth : 1;
    if (workers > MAX_WORKERS)
        workers = MAX_WORKERS;
    shared_t shared = {.loop = loop};
    atomic_init(&shared.next, 0);
    pthread_t threads[MAX_WORKERS];
    size_t started = 0;
    for (size_t i = 1; i < workers; i++)
        if (pthread_create(&threads[started], NULL, worker, &shared) == 0)
            started++;
    worker(&shared);
    for (size_t i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
}
