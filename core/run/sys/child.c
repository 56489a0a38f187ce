/* SPDX-License-Identifier: MIT */
/* child.c - a function run in a forked child under a deadline.
 * The parent reads the reply pipe until EOF, polling in short slices so it
 * also notices a child that exited while something it started still holds
 * the pipe open, and a child that closed the pipe but does not exit. */
#include "config.h"

#include "sys/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/clock.h"
#include "xalloc.h"

/* How often the parent looks at the child between reads (seconds). */
#define SLICE 0.05

static int interrupt_pending(void)
{
    sigset_t pending;
    sigpending(&pending);
    return sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM);
}

static void run_child(aorta_child_fn fn, void *user, int out)
{
    /* aorta-run blocks these for its own loop; collector code expects
     * the default. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    /* Whatever the callee prints must not mix with aorta-run's output. */
    dup2(2, 1);
    fn(user, out);
    _exit(0);
}

/* Non-blocking look at the child: 1 when it has ended (*status set). */
static int reaped(pid_t pid, int *status)
{
    for (;;) {
        pid_t done = waitpid(pid, status, WNOHANG);
        if (done < 0 && errno == EINTR)
            continue;
        return done == pid;
    }
}

static void sleep_slice(double seconds)
{
    struct timespec ts = {0, (long)(seconds * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Read what is there; 1 at EOF or on an error, 0 when more may come. */
static int read_some(int fd, aorta_child_result_t *result, size_t *capacity, size_t limit)
{
    if (result->len + 4096 > *capacity) {
        *capacity *= 2;
        result->reply = aorta_xrealloc(result->reply, *capacity);
    }
    size_t room = *capacity - result->len - 1;
    if (room > limit + 1 - result->len)
        room = limit + 1 - result->len; /* one byte past the limit is enough to know */
    ssize_t got = read(fd, result->reply + result->len, room);
    if (got < 0 && errno == EINTR)
        return 0;
    if (got <= 0)
        return 1;
    result->len += (size_t)got;
    result->reply[result->len] = '\0';
    return 0;
}

void aorta_child_run(aorta_child_fn fn, void *user, double timeout_sec, size_t reply_limit,
                     int flags, aorta_child_result_t *result)
{
    *result = (aorta_child_result_t){.reply = NULL, .len = 0, .problem = NULL, .signal = 0,
                                     .exit_code = -1};
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        result->problem = "could not start";
        return;
    }
    fflush(NULL); /* or the child's exit would write the parent's buffers again */
    pid_t pid = fork();
    if (pid == 0) {
        close(pipefd[0]);
        run_child(fn, user, pipefd[1]);
    }
    close(pipefd[1]);
    if (pid < 0) {
        close(pipefd[0]);
        result->problem = "could not start";
        return;
    }
    size_t capacity = 4096;
    result->reply = aorta_xmalloc(capacity);
    result->reply[0] = '\0';
    double deadline = aorta_clock_monotonic() + timeout_sec;
    int status = 0, ended = 0, eof = 0;
    while (!result->problem && !(eof && ended)) {
        double left = deadline - aorta_clock_monotonic();
        if (left <= 0) {
            result->problem = "timed out";
        } else if ((flags & AORTA_CHILD_STOP_ON_INTERRUPT) && interrupt_pending()) {
            result->problem = "interrupted";
        } else if (eof) {
            ended = reaped(pid, &status);
            if (!ended)
                sleep_slice(left < 0.005 ? left : 0.005);
        } else {
            double slice = left < SLICE ? left : SLICE;
            struct pollfd pfd = {pipefd[0], POLLIN, 0};
            int ready = poll(&pfd, 1, (int)(slice * 1000) + 1);
            if (ready > 0)
                eof = read_some(pipefd[0], result, &capacity, reply_limit);
            else if (!ended && reaped(pid, &status))
                ended = 1; /* what is still in the pipe is read next */
            else if (ended && ready == 0)
                eof = 1; /* a process it left behind holds the pipe open */
            else if (ready < 0 && errno != EINTR)
                eof = 1;
            if (result->len > reply_limit)
                result->problem = "sent too much";
        }
    }
    close(pipefd[0]);
    if (!ended) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return;
    }
    if (result->problem)
        return;
    if (WIFSIGNALED(status)) {
        result->problem = "crashed";
        result->signal = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        result->exit_code = WEXITSTATUS(status);
        if (result->exit_code != 0)
            result->problem = "failed";
    } else {
        result->problem = "failed";
    }
}
