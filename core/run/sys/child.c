/* SPDX-License-Identifier: MIT */
/* child.c - helpers run in forked children under a deadline (child.h).
 *
 * One loop watches every child it runs: a poll() over their pipes, a
 * signalfd of SIGCHLD (a child's exit wakes it at once, even while a
 * process the child left behind holds its pipes open) and one of SIGINT
 * and SIGTERM (only to wake it: they stay pending for the caller).  A child
 * is done once it is reaped, its pipes read to the end of what they hold;
 * a child past its deadline, its reply limit or an interrupt is killed. */
#include "config.h"

#include "sys/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/clock.h"
#include "sys/files.h"
#include "sys/spawn.h"
#include "xalloc.h"

/* Bytes one read takes from a pipe. */
#define CHUNK 4096
/* The longest poll() (seconds): a lost wake-up costs no more. */
#define ROUND 0.1
/* The poll() while a child that closed its pipes is reaped, when SIGCHLD
 * cannot wake it (a caller that does not block it). */
#define REAP_ROUND 0.005

enum { REPLY, OUT, ERR, CHANNELS };

/* One pipe from the child: what is kept of it, and how much came. */
typedef struct channel {
    int fd;              /* -1 once read to its end */
    char *data;
    size_t len, capacity, keep, total;
} channel_t;

/* A child being run. */
typedef struct running {
    size_t index;
    const ar_child_spec_t *spec;
    ar_child_result_t *result;
    pid_t pid;
    double deadline;
    channel_t channels[CHANNELS];
    int status;          /* its wait status, once reaped */
    int reaped, killed;
    int start_errno;     /* a pipe or the fork failed: why */
    struct rusage usage;
} running_t;

/* ---- the child's side ------------------------------------------------- */

void ar_child_reply(int reply_fd, const char *text, size_t len)
{
    (void)ar_write_all(reply_fd, text, len); /* a reply cut short reads as one */
}

static void child_main(const ar_child_spec_t *spec, pid_t parent, int reply, int out, int err)
{
    ar_spawn_child_guard(parent);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    if (spec->memory_limit) {
        struct rlimit limit = {(rlim_t)spec->memory_limit, (rlim_t)spec->memory_limit};
        setrlimit(RLIMIT_AS, &limit);
    }
    /* Whatever the callee prints must not mix with aorta-run's stdout. */
    if (out >= 0) {
        dup2(out, 1);
        close(out);
        dup2(err, 2);
        close(err);
    } else {
        dup2(2, 1);
    }
    spec->fn(spec->user, reply);
    if (out >= 0) {
        fflush(stdout);
        fflush(stderr);
    }
    _exit(0);
}

/* ---- the parent's side ------------------------------------------------ */

/* One read of what c's pipe holds, without blocking: 1 when more may come
 * now, 0 at its end, on an error or when nothing is there for now. */
static int drain(channel_t *c)
{
    char buffer[CHUNK];
    ssize_t got = read(c->fd, buffer, sizeof buffer);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return errno == EINTR;
    if (got <= 0) {
        close(c->fd);
        c->fd = -1;
        return 0;
    }
    c->total += (size_t)got;
    size_t keep = c->len + (size_t)got > c->keep ? c->keep - c->len : (size_t)got;
    if (keep > 0) {
        ar_xgrow((void **)&c->data, &c->capacity, c->len + keep + 1, 1);
        memcpy(c->data + c->len, buffer, keep);
        c->len += keep;
        c->data[c->len] = '\0';
    }
    return 1;
}

/* Everything c holds now (a flood stops at what is kept). */
static void drain_all(channel_t *c)
{
    while (c->fd >= 0 && c->total <= c->keep && drain(c)) {
    }
}

static void close_pipes(int (*fds)[2], int count)
{
    for (int i = 0; i < count; i++) {
        close(fds[i][0]);
        close(fds[i][1]);
    }
}

/* Fork r's child, with its reply pipe (and its stdout and stderr when
 * captured).  r->pid stays -1 when it could not start. */
static void start(running_t *r)
{
    const ar_child_spec_t *spec = r->spec;
    int capture = (spec->flags & AR_CHILD_CAPTURE_OUTPUT) != 0;
    int count = capture ? CHANNELS : 1, fds[CHANNELS][2];
    for (int i = 0; i < count; i++)
        if (pipe2(fds[i], O_CLOEXEC) != 0) {
            r->start_errno = errno;
            close_pipes(fds, i);
            return;
        }
    fflush(NULL); /* or the child's exit would write the parent's buffers again */
    pid_t parent = getpid();
    r->pid = fork();
    if (r->pid < 0)
        r->start_errno = errno;
    if (r->pid == 0) {
        for (int i = 0; i < count; i++)
            close(fds[i][0]);
        child_main(spec, parent, fds[REPLY][1], capture ? fds[OUT][1] : -1,
                   capture ? fds[ERR][1] : -1);
    }
    for (int i = 0; i < count; i++) {
        close(fds[i][1]);
        if (r->pid < 0) {
            close(fds[i][0]);
            continue;
        }
        r->channels[i].fd = fds[i][0];
        fcntl(fds[i][0], F_SETFL, O_NONBLOCK);
    }
    r->channels[REPLY].keep = spec->reply_limit + 1; /* one byte past it tells */
    r->channels[OUT].keep = capture ? spec->output_keep[0] : 0;
    r->channels[ERR].keep = capture ? spec->output_keep[1] : 0;
    r->deadline = ar_clock_monotonic() + spec->timeout_sec;
}

/* Kill r's child for why, and reap it. */
static void stop(running_t *r, ar_child_end_t why)
{
    kill(r->pid, SIGKILL);
    while (wait4(r->pid, &r->status, 0, &r->usage) < 0 && errno == EINTR) {
    }
    r->result->end = why;
    r->killed = 1;
}

/* Whether r's child has ended: reaped now (what it wrote before it exited
 * is all in its pipes: read it), or killed before. */
static int ended(running_t *r)
{
    if (r->killed || r->reaped)
        return 1;
    pid_t got = wait4(r->pid, &r->status, WNOHANG, &r->usage);
    if (got == 0 || (got < 0 && errno == EINTR))
        return 0;
    if (got < 0)
        r->status = 1 << 8; /* reaped by someone else: an exit status of 1, as far as it goes */
    r->reaped = 1;
    for (int i = 0; i < CHANNELS; i++)
        drain_all(&r->channels[i]);
    return 1;
}

/* The end of a child that exited on its own. */
static void settle(running_t *r)
{
    ar_child_result_t *result = r->result;
    if (r->killed)
        return;
    if (r->channels[REPLY].total > r->spec->reply_limit) {
        result->end = AR_CHILD_TOO_MUCH;
    } else if (WIFSIGNALED(r->status)) {
        result->end = AR_CHILD_CRASHED;
        result->signal = WTERMSIG(r->status);
    } else if (WIFEXITED(r->status)) {
        result->exit_code = WEXITSTATUS(r->status);
        result->end = result->exit_code == 0 ? AR_CHILD_REPLIED : AR_CHILD_FAILED;
    } else {
        result->end = AR_CHILD_FAILED;
    }
}

/* r's pipes into its result. */
static void take_output(running_t *r)
{
    ar_child_result_t *result = r->result;
    for (int i = 0; i < CHANNELS; i++)
        if (r->channels[i].fd >= 0)
            close(r->channels[i].fd);
    channel_t *reply = &r->channels[REPLY];
    result->reply = reply->data ? reply->data : ar_xstrdup("");
    result->len = reply->len;
    for (int i = 0; i < 2 && (r->spec->flags & AR_CHILD_CAPTURE_OUTPUT); i++) {
        channel_t *c = &r->channels[OUT + i];
        result->output[i] = c->data ? c->data : ar_xstrdup("");
        result->output_len[i] = c->len;
        result->output_total[i] = c->total;
    }
    result->max_rss_kib = r->usage.ru_maxrss;
}

/* The signalfds that wake the loop: *interrupts for SIGINT and SIGTERM, and
 * *exits for SIGCHLD, -1 when SIGCHLD is not blocked (it would never wake
 * the loop). */
static void open_wake_ups(int *interrupts, int *exits)
{
    sigset_t set, blocked;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP); /* taken as SIGTERM (sys/spawn.c) */
    *interrupts = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    sigprocmask(SIG_BLOCK, NULL, &blocked);
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    *exits = sigismember(&blocked, SIGCHLD) ? signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK) : -1;
}

/* The children past their deadline or reply limit are killed; returns the
 * seconds to the nearest deadline of the others. */
static double enforce_limits(running_t *runs, size_t active)
{
    double now = ar_clock_monotonic(), left = ROUND;
    for (size_t j = 0; j < active; j++) {
        running_t *r = &runs[j];
        if (r->killed || r->reaped)
            continue;
        if (now >= r->deadline)
            stop(r, AR_CHILD_TIMED_OUT);
        else if (r->channels[REPLY].total > r->spec->reply_limit)
            stop(r, AR_CHILD_TOO_MUCH);
        else if (r->deadline - now < left)
            left = r->deadline - now;
    }
    return left;
}

/* One round: limits, a poll() over every pipe and the wake-ups, one read
 * of each pipe that is ready, and the children that ended reaped.  Returns
 * whether an interrupt is pending (every child still running is then
 * killed). */
static int watch(running_t *runs, size_t active, int interrupts, int exits, struct pollfd *fds,
                 channel_t **owners)
{
    double left = enforce_limits(runs, active);
    size_t n = 0, live = 0;
    int reaping = 0;
    for (size_t j = 0; j < active; j++) {
        int open = 0;
        live += !runs[j].killed && !runs[j].reaped;
        for (int i = 0; i < CHANNELS && !runs[j].killed && !runs[j].reaped; i++)
            if (runs[j].channels[i].fd >= 0) {
                owners[n] = &runs[j].channels[i];
                fds[n++] = (struct pollfd){runs[j].channels[i].fd, POLLIN, 0};
                open = 1;
            }
        reaping |= !open && !runs[j].killed && !runs[j].reaped;
    }
    if (live == 0) /* every one killed at its limit */
        return ar_spawn_peek_interrupt() != 0;
    if (reaping && exits < 0 && left > REAP_ROUND)
        left = REAP_ROUND;
    fds[n] = (struct pollfd){interrupts, POLLIN, 0};
    fds[n + 1] = (struct pollfd){exits, POLLIN, 0};
    poll(fds, n + 2, left < ROUND ? (int)(left * 1000) + 1 : (int)(ROUND * 1000));
    struct signalfd_siginfo info;
    while (exits >= 0 && read(exits, &info, sizeof info) == (ssize_t)sizeof info) {
    }
    int interrupted = ar_spawn_peek_interrupt() != 0;
    for (size_t f = 0; f < n && !interrupted; f++)
        if (owners[f]->fd >= 0 && (fds[f].revents & (POLLIN | POLLHUP | POLLERR)))
            drain(owners[f]);
    for (size_t j = 0; j < active; j++) {
        if (interrupted && !runs[j].killed && !runs[j].reaped)
            stop(&runs[j], AR_CHILD_INTERRUPTED);
        else
            ended(&runs[j]);
    }
    return interrupted;
}

/* A child that is done: its result, the caller told. */
static void finish(running_t *r, void (*on_end)(size_t, const ar_child_result_t *, void *),
                   void *user)
{
    if (r->pid < 0) {
        r->result->end = AR_CHILD_NOT_STARTED;
        r->result->start_errno = r->start_errno;
    } else {
        settle(r);
        take_output(r);
    }
    if (on_end)
        on_end(r->index, r->result, user);
}

void ar_child_run_all(const ar_child_spec_t *specs, size_t count, size_t parallel,
                         ar_child_result_t *results,
                         void (*on_end)(size_t, const ar_child_result_t *, void *),
                         void *user)
{
    for (size_t i = 0; i < count; i++)
        results[i] = (ar_child_result_t){.end = AR_CHILD_SKIPPED, .exit_code = -1};
    if (parallel == 0 || parallel > count)
        parallel = count;
    if (count == 0)
        return;
    int interrupts, exits;
    open_wake_ups(&interrupts, &exits);
    running_t *runs = ar_xcalloc(parallel, sizeof *runs);
    struct pollfd *fds = ar_xcalloc(parallel * CHANNELS + 2, sizeof *fds);
    channel_t **owners = ar_xcalloc(parallel * CHANNELS + 2, sizeof *owners);
    size_t next = 0, active = 0;
    int stopped = 0;
    while (next < count || active > 0) {
        while (!stopped && next < count && active < parallel) {
            running_t *r = &runs[active];
            *r = (running_t){.index = next, .spec = &specs[next], .result = &results[next],
                             .pid = -1, .channels = {{.fd = -1}, {.fd = -1}, {.fd = -1}}};
            next++;
            start(r);
            if (r->pid < 0)
                finish(r, on_end, user);
            else
                active++;
        }
        if (stopped)
            next = count; /* interrupted: the rest are not started */
        if (active == 0)
            continue;
        stopped |= watch(runs, active, interrupts, exits, fds, owners);
        for (size_t j = 0; j < active;) {
            if (!runs[j].killed && !runs[j].reaped) {
                j++;
                continue;
            }
            finish(&runs[j], on_end, user);
            runs[j] = runs[--active];
        }
    }
    if (interrupts >= 0)
        close(interrupts);
    if (exits >= 0)
        close(exits);
    free(owners);
    free(fds);
    free(runs);
}

void ar_child_run(const ar_child_spec_t *spec, ar_child_result_t *result)
{
    ar_child_run_all(spec, 1, 1, result, NULL, NULL);
}

/* Why no child started, in words a user can act on: without its reason a
 * parse that "could not start" leaves nothing to do. */
static const char *not_started(int error)
{
    switch (error) {
    case EMFILE:
        return "could not start (too many open files: aorta-run is at its limit of "
               "descriptors, EMFILE; raise ulimit -n)";
    case ENFILE:
        return "could not start (too many open files in the system, ENFILE)";
    case EAGAIN:
        return "could not start (no process to spare: fork() failed with EAGAIN; see ulimit "
               "-u)";
    case ENOMEM:
        return "could not start (out of memory: fork() failed with ENOMEM)";
    default:
        return "could not start";
    }
}

const char *ar_child_problem(const ar_child_result_t *result)
{
    switch (result->end) {
    case AR_CHILD_REPLIED:
        return NULL;
    case AR_CHILD_NOT_STARTED:
        return not_started(result->start_errno);
    case AR_CHILD_SKIPPED:
        return "was not started";
    case AR_CHILD_TIMED_OUT:
        return "timed out";
    case AR_CHILD_TOO_MUCH:
        return "sent too much";
    case AR_CHILD_CRASHED:
        return "crashed";
    case AR_CHILD_FAILED:
        return "failed";
    case AR_CHILD_INTERRUPTED:
        break;
    }
    return "interrupted";
}

void ar_child_result_free(ar_child_result_t *result)
{
    free(result->reply);
    free(result->output[0]);
    free(result->output[1]);
    result->reply = result->output[0] = result->output[1] = NULL;
}
