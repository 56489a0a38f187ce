/* SPDX-License-Identifier: MIT */
/* exporter.c - aorta_exporter_run() (ABI 1.4): a profiler's exporter run
 * from a parse (`ncu --import R --csv --page raw`), with a time limit and a
 * bounded reply.  libaorta links nothing of aorta-run, so this is its own
 * small spawn: posix_spawn() into a process group of its own, poll() over
 * its stdout and stderr, SIGKILL to the group past the limits. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "xalloc.h"

typedef struct capture {
    char *data;
    size_t len, cap, max;
    int over; /* more than max arrived */
} capture_t;

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read what fd has into c; 0 at its end, 1 when more may come. */
static int drain(int fd, capture_t *c)
{
    char chunk[65536];
    ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : 0;
    if (got == 0)
        return 0;
    size_t keep = (size_t)got;
    if (c->len + keep > c->max) {
        c->over = 1;
        keep = c->max - c->len;
    }
    if (c->len + keep + 1 > c->cap) {
        size_t cap = c->cap ? c->cap : 4096;
        while (cap < c->len + keep + 1)
            cap *= 2;
        c->data = ar_xrealloc(c->data, cap);
        c->cap = cap;
    }
    memcpy(c->data + c->len, chunk, keep);
    c->len += keep;
    c->data[c->len] = '\0';
    return 1;
}

static pid_t start(const char *path, char *const *argv, char *const *envp, int out_fd,
                   int err_fd, int *error)
{
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
    posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK
                                        | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    *error = posix_spawn(&pid, path, &actions, &attr, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    return *error ? -1 : pid;
}

/* Read both pipes until they end, the time is up or stdout passes its
 * bound.  1 when the child had to be killed for time, 2 for size. */
static int collect(pid_t pid, int fds[2], capture_t *out, capture_t *err, double timeout_sec)
{
    int limited = timeout_sec > 0 && isfinite(timeout_sec);
    double deadline = now_sec() + (limited ? timeout_sec : 0);
    struct pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
    int open_count = 2;
    while (open_count) {
        int wait_ms = -1;
        if (limited) {
            double left = deadline - now_sec();
            if (left <= 0) {
                kill(-pid, SIGKILL);
                return 1;
            }
            wait_ms = left > 3600 ? 3600000 : (int)(left * 1000) + 1;
        }
        if (poll(p, 2, wait_ms) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++)
            if (p[i].fd >= 0 && p[i].revents && !drain(p[i].fd, i ? err : out)) {
                p[i].fd = -1;
                open_count--;
            }
        if (out->over) {
            kill(-pid, SIGKILL);
            return 2;
        }
    }
    return 0;
}

/* An error context to write to when the caller passed none. */
static aorta_error_t *or_scratch(aorta_error_t *err, aorta_error_t **scratch)
{
    if (err)
        return err;
    *scratch = aorta_error_new();
    return *scratch;
}

/* The stderr's first line, at most 200 bytes. */
static char *first_line(const capture_t *c)
{
    size_t n = 0;
    while (n < c->len && n < 200 && c->data[n] != '\n' && c->data[n] != '\0')
        n++;
    char *line = ar_xmalloc(n + 1);
    memcpy(line, c->data ? c->data : "", n);
    line[n] = '\0';
    return line;
}

static int run(const aorta_argv_t *argv, const aorta_env_t *env, double timeout_sec,
               size_t max_output, char **output, size_t *output_len, aorta_error_t *err);

int aorta_exporter_run(const aorta_argv_t *argv, const aorta_env_t *env, double timeout_sec,
                       size_t max_output, char **output, size_t *output_len, aorta_error_t *err)
{
    aorta_error_t *scratch = NULL;
    int status = run(argv, env, timeout_sec, max_output, output, output_len,
                     or_scratch(err, &scratch));
    aorta_error_free(scratch);
    return status;
}

/* Pipes for stdout and stderr ([0] read, [1] write), both close-on-exec.
 * 0, or -1 with err set. */
static int make_pipes(int out_pipe[2], int err_pipe[2], const char *name, aorta_error_t *err)
{
    if (pipe2(out_pipe, O_CLOEXEC) != 0) {
        aorta_error_set(err, "%s: cannot make a pipe: %s", name, strerror(errno));
        return -1;
    }
    if (pipe2(err_pipe, O_CLOEXEC) != 0) {
        aorta_error_set(err, "%s: cannot make a pipe: %s", name, strerror(errno));
        close(out_pipe[0]);
        close(out_pipe[1]);
        return -1;
    }
    return 0;
}

/* How it ended, into err and the result; takes out's data on success. */
static int finish(const char *path, pid_t pid, int spawn_error, int killed, int status,
                  capture_t *out, const capture_t *errs, double timeout_sec, size_t max_output,
                  char **output, size_t *output_len, aorta_error_t *err)
{
    if (pid <= 0) {
        aorta_error_set(err, "%s: cannot start: %s", path, strerror(spawn_error));
    } else if (killed == 1) {
        aorta_error_set(err, "%s: did not finish within %g s (killed)", path, timeout_sec);
    } else if (killed == 2) {
        aorta_error_set(err, "%s: printed more than %zu bytes on stdout (killed)", path,
                        max_output);
    } else if (WIFSIGNALED(status)) {
        aorta_error_set(err, "%s: killed by signal %s", path, strsignal(WTERMSIG(status)));
    } else {
        int result = WEXITSTATUS(status);
        if (result != 0) {
            char *line = first_line(errs);
            aorta_error_set(err, "%s exited with status %d: %s", path, result, line);
            free(line);
        }
        *output = out->data ? out->data : ar_xstrdup("");
        *output_len = out->len;
        out->data = NULL;
        return result;
    }
    return -1;
}

/* aorta_exporter_run() with an error context always there. */
static int run(const aorta_argv_t *argv, const aorta_env_t *env, double timeout_sec,
               size_t max_output, char **output, size_t *output_len, aorta_error_t *err)
{
    if (output)
        *output = NULL;
    if (output_len)
        *output_len = 0;
    if (!argv || !output || !output_len || aorta_argv_count(argv) == 0) {
        aorta_error_set(err, "aorta_exporter_run: no program to run");
        return -1;
    }
    const char *name = aorta_argv_at(argv, 0);
    char *path = aorta_which(name, env ? aorta_env_get(env, "PATH") : "");
    if (!path) {
        aorta_error_set(err, "%s: not found on the trial's PATH", name);
        return -1;
    }
    int out_pipe[2], err_pipe[2];
    if (make_pipes(out_pipe, err_pipe, name, err) != 0) {
        aorta_free(path);
        return -1;
    }
    aorta_env_t *empty = env ? NULL : aorta_env_new();
    char **envp = aorta_env_to_envp(env ? env : empty);
    int spawn_error = 0, killed = 0, status = 0;
    pid_t pid = start(path, aorta_argv_items(argv), envp, out_pipe[1], err_pipe[1], &spawn_error);
    aorta_env_free_envp(envp);
    aorta_env_free(empty);
    close(out_pipe[1]);
    close(err_pipe[1]);
    capture_t out = {NULL, 0, 0, max_output, 0}, errs = {NULL, 0, 0, AORTA_EXPORTER_STDERR_MAX, 0};
    if (pid > 0) {
        int fds[2] = {out_pipe[0], err_pipe[0]};
        killed = collect(pid, fds, &out, &errs, timeout_sec);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    close(out_pipe[0]);
    close(err_pipe[0]);
    int result = finish(path, pid, spawn_error, killed, status, &out, &errs, timeout_sec,
                        max_output, output, output_len, err);
    free(out.data);
    free(errs.data);
    aorta_free(path);
    return result;
}
