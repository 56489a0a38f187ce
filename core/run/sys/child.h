/* SPDX-License-Identifier: MIT */
/* child.h - the one place aorta-run forks a helper: a function run in a
 * child process under a deadline, its reply read back on a pipe.  A crash,
 * a hang, an exit() or garbage in it ends only the child.  What runs there
 * is collector code aorta-run must not trust with its own process: a
 * collector's parse (sweep/parse_child.c, and one per rank at once,
 * sweep/rank_parse.c), the load check of a module (registry/registry.c)
 * and each step of --check-collector (cmd_check.c).
 *
 * The framing is the runner's, the same for all of them: the child writes
 * its reply (ar_child_reply()) and returns; the parent reads the reply
 * pipe to its end and has it, NUL-terminated, once the child has exited
 * with status 0.  What a reply says is each user's own small format.
 *
 * Every child is set up the same way: it dies with aorta-run
 * (PR_SET_PDEATHSIG), has SIGINT, SIGTERM and SIGCHLD unblocked (aorta-run
 * keeps them blocked for its own loop; collector code expects the
 * default), runs under an address-space limit when one is given, and
 * cannot write into aorta-run's stdout.  The parent sleeps in poll(): a
 * child's exit wakes it at once (SIGCHLD through a signalfd), and so does a
 * SIGINT or SIGTERM for aorta-run, which kills every child still running
 * and is left pending for the caller. */
#ifndef AR_CHILD_H
#define AR_CHILD_H

#include <stddef.h>
#include <stdint.h>

/* Runs in the child; writes its reply to reply_fd.  Returning ends the
 * child with status 0. */
typedef void (*ar_child_fn)(void *user, int reply_fd);

/* The child's stdout and stderr come back on pipes of their own (else its
 * stdout goes to aorta-run's stderr, and its stderr is aorta-run's). */
#define AR_CHILD_CAPTURE_OUTPUT 1

typedef struct ar_child_spec {
    ar_child_fn fn;
    void *user;
    double timeout_sec;     /* from its start; then it is killed (SIGKILL) */
    size_t reply_limit;     /* a longer reply kills it: AR_CHILD_TOO_MUCH */
    uint64_t memory_limit;  /* RLIMIT_AS in bytes; 0: none */
    int flags;              /* AORTA_CHILD_* */
    size_t output_keep[2];  /* with AR_CHILD_CAPTURE_OUTPUT: bytes of stdout and of
                             * stderr kept (what comes after is counted, not kept) */
} ar_child_spec_t;

typedef enum ar_child_end {
    AR_CHILD_REPLIED,      /* exited with status 0: the reply is complete */
    AR_CHILD_NOT_STARTED,  /* no pipe or no fork */
    AR_CHILD_SKIPPED,      /* not started: an interrupt came first (ar_child_run_all) */
    AR_CHILD_TIMED_OUT,
    AR_CHILD_TOO_MUCH,     /* a reply longer than reply_limit */
    AR_CHILD_CRASHED,      /* ended by a signal of its own */
    AR_CHILD_FAILED,       /* exited with a status other than 0 */
    AR_CHILD_INTERRUPTED   /* killed: SIGINT or SIGTERM reached aorta-run */
} ar_child_end_t;

typedef struct ar_child_result {
    ar_child_end_t end;
    char *reply;            /* what it wrote, NUL-terminated, whatever the end (free
                             * with ar_child_result_free()); NULL when not started */
    size_t len;
    char *output[2];        /* with AR_CHILD_CAPTURE_OUTPUT: stdout and stderr, kept */
    size_t output_len[2];   /* bytes kept */
    size_t output_total[2]; /* bytes read */
    int signal;             /* AR_CHILD_CRASHED: the signal */
    int exit_code;          /* its exit status when it exited, else -1 */
    long max_rss_kib;       /* its peak resident size, when it ran */
    int start_errno;        /* AR_CHILD_NOT_STARTED: why (a pipe's or fork()'s errno) */
} ar_child_result_t;

/* Run spec's child and wait for it. */
void ar_child_run(const ar_child_spec_t *spec, ar_child_result_t *result);

/* Run count children, at most parallel of them at once (0: all), started
 * in order from this one thread; results[i] is specs[i]'s.  on_end (may be
 * NULL) is called as each one ends, in the order they end.  Once an
 * interrupt has been seen, no further child is started (AR_CHILD_SKIPPED,
 * without a call to on_end). */
void ar_child_run_all(const ar_child_spec_t *specs, size_t count, size_t parallel,
                         ar_child_result_t *results,
                         void (*on_end)(size_t index, const ar_child_result_t *result,
                                        void *user),
                         void *user);

/* The end in words: NULL for AR_CHILD_REPLIED, else "could not start"
 * with its reason ("could not start (too many open files: ...)"), "was not
 * started", "timed out", "sent too much", "crashed", "failed" or
 * "interrupted". */
const char *ar_child_problem(const ar_child_result_t *result);

void ar_child_result_free(ar_child_result_t *result);

/* In the child: write the reply (all of it, or as much as the pipe takes). */
void ar_child_reply(int reply_fd, const char *text, size_t len);

#endif
