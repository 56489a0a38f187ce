/* SPDX-License-Identifier: MIT */
/* child.h - a function run in a forked child under a deadline.  What the
 * child writes to its reply descriptor comes back; a crash, a hang or an
 * exit() in it ends only the child.  Used to call collector code that must
 * not take aorta-run down (parse after a trial, --check-collector). */
#ifndef AORTA_CHILD_H
#define AORTA_CHILD_H

#include <stddef.h>

/* Runs in the child, stdout already sent to stderr; writes its reply to
 * reply_fd.  Returning ends the child with status 0. */
typedef void (*aorta_child_fn)(void *user, int reply_fd);

typedef struct aorta_child_result {
    char *reply;          /* what the child wrote, NUL-terminated, even after a
                           * problem (free it); NULL when it could not start */
    size_t len;
    const char *problem;  /* NULL, or "could not start", "timed out", "sent too
                           * much", "crashed", "failed" (exit status not 0),
                           * "interrupted" */
    int signal;           /* the signal that ended the child on its own, else 0 */
    int exit_code;        /* its exit status when it exited, else -1 */
} aorta_child_result_t;

/* Stop waiting (and kill the child) when SIGINT or SIGTERM is pending for
 * aorta-run; the signal stays pending for the caller. */
#define AORTA_CHILD_STOP_ON_INTERRUPT 1

/* Call fn(user, fd) in a child; after timeout_sec, or more than reply_limit
 * bytes of reply, the child is killed (SIGKILL). */
void aorta_child_run(aorta_child_fn fn, void *user, double timeout_sec, size_t reply_limit,
                     int flags, aorta_child_result_t *result);

#endif
