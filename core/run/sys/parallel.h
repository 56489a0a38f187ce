/* SPDX-License-Identifier: MIT */
/* parallel.h - a loop over independent items on the CPUs there are: each
 * worker thread takes the next item until none is left. */
#ifndef AR_PARALLEL_H
#define AR_PARALLEL_H

#include <stddef.h>

typedef struct ar_parallel {
    size_t count;    /* the items, 0 to count - 1 */
    size_t per_worker; /* the fewest items worth a thread of their own */
    /* A worker's own state (its readers, its buffers), made and freed on
     * its thread; either may be NULL. */
    void *(*begin)(void *user);
    void (*end)(void *state);
    /* Item index, on whichever thread takes it: it touches nothing another
     * item does but what it only reads. */
    void (*item)(size_t index, void *state, void *user);
    void *user;
} ar_parallel_t;

/* Every item done, on at most one thread per CPU (8 at most); on the
 * calling thread alone where threads are not worth it or cannot start. */
void ar_parallel_run(const ar_parallel_t *loop);

#endif
