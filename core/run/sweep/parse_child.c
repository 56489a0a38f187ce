/* SPDX-License-Identifier: MIT */
/* parse_child.c - a collector's parse() run in a child process.
 * The child serialises its metrics through the core's JSON layer onto a
 * pipe; the parent reads them with a deadline and checks every member. */
#include "config.h"

#include "sys/diag.h"
#include "sweep/parse_child.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "sys/json.h"
#include "record/parse_reply.h"
#include "sys/spawn.h"
#include "sys/clock.h"
#include "sys/files.h"
#include "sys/knobs.h"
#include "sys/quote.h"
#include "xalloc.h"

/* A reply larger than this is garbage: five metrics, a short list and the
 * kernel table (tens of thousands of long template names fit). */
#define REPLY_LIMIT (16u << 20)

double aorta_parse_timeout(void)
{
    return aorta_knob_seconds("AORTA_PARSE_TIMEOUT", AORTA_PARSE_TIMEOUT_DEFAULT, 0);
}

/* ASan reserves terabytes of address space: RLIMIT_AS would stop it at once. */
#if defined(__SANITIZE_ADDRESS__)
#define AORTA_PARSE_MEMORY_LIMITED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AORTA_PARSE_MEMORY_LIMITED 0
#endif
#endif
#ifndef AORTA_PARSE_MEMORY_LIMITED
#define AORTA_PARSE_MEMORY_LIMITED 1
#endif

uint64_t aorta_parse_memory_limit(void)
{
    if (!AORTA_PARSE_MEMORY_LIMITED)
        return 0;
    return aorta_knob_size("AORTA_PARSE_MEMORY", AORTA_PARSE_MEMORY_DEFAULT);
}

static void run_child(pid_t parent, const aorta_module_t *module, const aorta_options_t *options,
                      const char *dir, const char *prefix, int out, int module_out,
                      int module_err)
{
    aorta_spawn_child_guard(parent);
    sigset_t all;
    sigemptyset(&all);
    sigaddset(&all, SIGINT);
    sigaddset(&all, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &all, NULL);
    uint64_t limit = aorta_parse_memory_limit();
    if (limit) {
        struct rlimit rl = {(rlim_t)limit, (rlim_t)limit};
        setrlimit(RLIMIT_AS, &rl);
    }
    /* Whatever the collector prints goes to the parent on pipes of its own,
     * never into aorta-run's stdout or the reply. */
    dup2(module_out, 1);
    close(module_out);
    dup2(module_err, 2);
    close(module_err);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    module->collector.parse(options, dir, metrics);
    fflush(stdout);
    fflush(stderr);
    aorta_json_t *json = aorta_parse_reply_to_json(metrics);
    char *text = aorta_json_dump(json, 0);
    aorta_write_all(out, text, strlen(text));
    _exit(0);
}

typedef struct channel {
    int fd;
    char *data;
    size_t len, capacity, limit, total;
    int open;
} channel_t;

/* Read what is there on c (non-blocking): 1 when more may come, 0 at EOF or
 * when nothing is there for now (*empty). */
static int drain(channel_t *c, int *empty)
{
    char buffer[4096];
    *empty = 0;
    ssize_t got = read(c->fd, buffer, sizeof buffer);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) {
        *empty = errno == EAGAIN;
        return 1;
    }
    if (got <= 0) {
        c->open = 0;
        return 0;
    }
    c->total += (size_t)got;
    size_t keep = c->len + (size_t)got > c->limit ? c->limit - c->len : (size_t)got;
    if (keep > 0) {
        aorta_xgrow((void **)&c->data, &c->capacity, c->len + keep + 1, 1);
        memcpy(c->data + c->len, buffer, keep);
        c->len += keep;
        c->data[c->len] = '\0';
    }
    return 1;
}

/* Everything there is on c now. */
static void drain_all(channel_t *c)
{
    int empty = 0;
    while (c->open && c->total <= c->limit && drain(c, &empty) && !empty) {
    }
}

/* The child's reply and its stdout until it exits (or the deadline, or an
 * interrupt: it is then killed).  Returns its wait status. */
static int collect(pid_t pid, channel_t *reply, channel_t *noise, channel_t *errs, int signals,
                   int exits, double deadline, const char **problem, int *interrupted,
                   struct rusage *usage)
{
    int status = 0, exited = 0;
    while (!exited) {
        double left = deadline - aorta_clock_monotonic();
        if (left <= 0) {
            *problem = "timed out";
            break;
        }
        if (reply->total > REPLY_LIMIT) {
            *problem = "sent too much";
            break;
        }
        struct pollfd fds[5] = {{reply->open ? reply->fd : -1, POLLIN, 0},
                                {noise->open ? noise->fd : -1, POLLIN, 0},
                                {errs->open ? errs->fd : -1, POLLIN, 0},
                                {signals, POLLIN, 0},
                                {exits, POLLIN, 0}};
        /* A short wait: a daemon the parse forked may hold the pipes open
         * after the child is gone.  The child's exit wakes it at once (its
         * pipes reach EOF a moment before it can be reaped). */
        poll(fds, 5, left < 0.1 ? (int)(left * 1000) + 1 : 100);
        if (fds[4].revents & POLLIN) {
            struct signalfd_siginfo info;
            while (read(exits, &info, sizeof info) == (ssize_t)sizeof info) {
            }
        }
        if (aorta_spawn_peek_interrupt()) {
            *interrupted = aorta_spawn_take_interrupt();
            *problem = "was interrupted";
            break;
        }
        int empty;
        if (reply->open && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
            drain(reply, &empty);
        if (noise->open && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            drain(noise, &empty);
        if (errs->open && (fds[2].revents & (POLLIN | POLLHUP | POLLERR)))
            drain(errs, &empty);
        if (wait4(pid, &status, WNOHANG, usage) == pid) {
            exited = 1;
            drain_all(reply); /* what it wrote before it exited is all there */
            drain_all(noise);
            drain_all(errs);
        }
    }
    if (!exited) {
        kill(pid, SIGKILL);
        while (wait4(pid, &status, 0, usage) < 0 && errno == EINTR) {
        }
    }
    if (!*problem && reply->total > REPLY_LIMIT)
        *problem = "sent too much";
    return status;
}

static int is_directory(const char *dir)
{
    struct stat st;
    return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static void warn_noise(const char *name, const char *dir, const channel_t *noise)
{
    if (noise->total == 0)
        return;
    size_t shown = 0;
    while (shown < noise->len && shown < 120 && noise->data[shown] != '\n')
        shown++;
    int cut = 0;
    shown = aorta_utf8_valid_prefix(noise->data, shown, &cut, NULL);
    char *text = aorta_repr(noise->data, shown);
    aorta_diag_warn("collect: %s printed %zu byte(s) on stdout while parsing %s (not used): %s%s",
                    name, noise->total, dir, text, shown < noise->total ? "..." : "");
    free(text);
}

/* The collector's stderr: its own "aorta-run: " lines (warnings) as they
 * are, anything else summed up in one warning. */
static void relay_errors(const char *name, const char *dir, const channel_t *errs)
{
    size_t other = 0;
    const char *first = NULL;
    size_t first_len = 0;
    const char *cursor = errs->data ? errs->data : "";
    const char *end = cursor + errs->len;
    while (cursor < end) {
        const char *newline = memchr(cursor, '\n', (size_t)(end - cursor));
        size_t len = newline ? (size_t)(newline - cursor) : (size_t)(end - cursor);
        if (newline && len >= 11 && !memcmp(cursor, "aorta-run: ", 11)
            && aorta_utf8_valid_prefix(cursor, len, NULL, NULL) == len && !memchr(cursor, 0, len)) {
            fprintf(stderr, "%.*s\n", (int)len, cursor);
        } else {
            if (!first) {
                first = cursor;
                first_len = len;
            }
            other += len + (newline != NULL);
        }
        cursor += len + (newline != NULL);
    }
    other += errs->total - errs->len;
    fflush(stderr);
    if (!other)
        return;
    size_t shown = first_len > 120 ? 120 : first_len;
    int cut = 0;
    shown = aorta_utf8_valid_prefix(first ? first : "", shown, &cut, NULL);
    char *text = aorta_repr(first ? first : "", shown);
    aorta_diag_warn("collect: %s printed %zu byte(s) on stderr while parsing %s (not used): %s%s",
                    name, other, dir, text, shown < other ? "..." : "");
    free(text);
}

aorta_metrics_t *aorta_parse_in_child(const aorta_module_t *module,
                                      const aorta_options_t *options, const char *dir)
{
    return aorta_parse_in_child_ex(module, options, dir, NULL);
}

aorta_metrics_t *aorta_parse_in_child_ex(const aorta_module_t *module,
                                         const aorta_options_t *options, const char *dir,
                                         int *interrupted)
{
    const char *name = module->collector.name;
    char *prefix = aorta_xasprintf("%s_", name);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    const char *problem = NULL;
    int signal_taken = 0, near_limit = 0;
    uint64_t limit = aorta_parse_memory_limit();
    int pipefd[2], noisefd[2], errfd[2];
    channel_t reply = {.fd = -1, .limit = REPLY_LIMIT + 1, .open = 1};
    channel_t noise = {.fd = -1, .limit = 4096, .open = 1};
    channel_t errs = {.fd = -1, .limit = 64u << 10, .open = 1};
    /* Only to wake the poll: SIGINT and SIGTERM stay blocked and pending. */
    sigset_t interrupts;
    sigemptyset(&interrupts);
    sigaddset(&interrupts, SIGINT);
    sigaddset(&interrupts, SIGTERM);
    int signals = signalfd(-1, &interrupts, SFD_CLOEXEC | SFD_NONBLOCK);
    /* SIGCHLD is read from this one (it is nobody else's to keep). */
    sigset_t children;
    sigemptyset(&children);
    sigaddset(&children, SIGCHLD);
    int exits = signalfd(-1, &children, SFD_CLOEXEC | SFD_NONBLOCK);
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        problem = "could not start";
    } else if (pipe2(noisefd, O_CLOEXEC) != 0) {
        problem = "could not start";
        close(pipefd[0]);
        close(pipefd[1]);
    } else if (pipe2(errfd, O_CLOEXEC) != 0) {
        problem = "could not start";
        close(pipefd[0]);
        close(pipefd[1]);
        close(noisefd[0]);
        close(noisefd[1]);
    } else {
        fflush(NULL);
        pid_t parent = getpid();
        pid_t pid = fork();
        if (pid == 0) {
            close(pipefd[0]);
            close(noisefd[0]);
            close(errfd[0]);
            run_child(parent, module, options, dir, prefix, pipefd[1], noisefd[1], errfd[1]);
        }
        close(pipefd[1]);
        close(noisefd[1]);
        close(errfd[1]);
        reply.fd = pipefd[0];
        noise.fd = noisefd[0];
        errs.fd = errfd[0];
        fcntl(reply.fd, F_SETFL, O_NONBLOCK);
        fcntl(noise.fd, F_SETFL, O_NONBLOCK);
        fcntl(errs.fd, F_SETFL, O_NONBLOCK);
        if (pid < 0) {
            problem = "could not start";
        } else {
            struct rusage usage;
            memset(&usage, 0, sizeof usage);
            int status = collect(pid, &reply, &noise, &errs, signals, exits,
                                 aorta_clock_monotonic() + aorta_parse_timeout(), &problem, &signal_taken, &usage);
            /* A parse that ran out of the limit dies one way or another;
             * say why when it had used most of it. */
            near_limit = limit && (uint64_t)usage.ru_maxrss * 1024 >= limit / 2;
            if (!problem && WIFSIGNALED(status))
                problem = "crashed";
            else if (!problem && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
                problem = "failed";
            if (!problem) {
                aorta_json_t *json = aorta_json_parse(reply.data ? reply.data : "", reply.len, 64);
                if (!json || aorta_parse_reply_from_json(metrics, json) != 0)
                    problem = "sent an unreadable reply";
                aorta_json_free(json);
            }
            char *what = aorta_xasprintf("collect: %s's parse of %s", name, dir);
            aorta_spawn_kill_strays(what);
            free(what);
        }
        close(reply.fd);
        close(noise.fd);
        close(errs.fd);
    }
    if (signals >= 0)
        close(signals);
    if (exits >= 0)
        close(exits);
    relay_errors(name, dir, &errs);
    warn_noise(name, dir, &noise);
    free(reply.data);
    free(noise.data);
    free(errs.data);
    if (interrupted)
        *interrupted = signal_taken;
    else if (signal_taken)
        raise(signal_taken); /* blocked: pending again for the caller */
    if (problem) {
        char *memory = near_limit && (!strcmp(problem, "crashed") || !strcmp(problem, "failed"))
                         ? aorta_xasprintf(" (perhaps past its memory limit, AORTA_PARSE_MEMORY "
                                           "= %llu bytes)",
                                           (unsigned long long)limit)
                         : aorta_xstrdup("");
        aorta_diag_warn("collect: %s summary parsing %s%s; skipping its metrics for %s.", name,
                        problem, memory, dir);
        free(memory);
        aorta_metrics_free(metrics);
        metrics = aorta_metrics_new(prefix);
        if (is_directory(dir)) {
            char *key = aorta_xasprintf("%s_artifact_dir", name);
            aorta_metrics_set_string(metrics, key, dir);
            free(key);
        }
    }
    free(prefix);
    return metrics;
}
