/* SPDX-License-Identifier: MIT */
/* spawn.c - running one command: its own session, captured output, a
 * timeout, and the interrupt signals aorta-run receives passed on to it.
 *
 * aorta-run keeps SIGINT, SIGTERM and SIGCHLD blocked and waits for them with
 * sigtimedwait(), so the wait, the timeout and the forwarding are one loop
 * with no handler and no race.  SIGHUP (the terminal closed, an ssh session
 * lost) is blocked with them and taken as SIGTERM: the trial is recorded,
 * matrix.json written, the lock released, exit 143.  Under nohup it stays
 * ignored. */
#include "config.h"

#include "sys/spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys/diag.h"
#include "path_search.h"
#include "sys/clock.h"
#include "sys/envp.h"
#include "sys/files.h"
#include "xalloc.h"

static sigset_t blocked_signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGCHLD);
    return set;
}

/* The interrupt among pending (SIGHUP reads as SIGTERM), else 0; *raw the
 * signal itself, to take it. */
static int interrupt_in(const sigset_t *pending, int *raw)
{
    *raw = sigismember(pending, SIGINT)    ? SIGINT
           : sigismember(pending, SIGTERM) ? SIGTERM
           : sigismember(pending, SIGHUP)  ? SIGHUP
                                           : 0;
    return *raw == SIGHUP ? SIGTERM : *raw;
}

void ar_spawn_block_signals(void)
{
    sigset_t set = blocked_signals();
    sigprocmask(SIG_BLOCK, &set, NULL);
}

int ar_spawn_take_interrupt(void)
{
    sigset_t pending;
    sigpending(&pending);
    int raw;
    int sig = interrupt_in(&pending, &raw);
    if (sig) {
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, raw);
        struct timespec now = {0, 0};
        sigtimedwait(&one, NULL, &now);
    }
    return sig;
}

int ar_spawn_peek_interrupt(void)
{
    sigset_t pending;
    sigpending(&pending);
    int raw;
    return interrupt_in(&pending, &raw);
}

void ar_spawn_become_subreaper(void)
{
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

void ar_spawn_child_guard(pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent) /* it died before the prctl */
        _exit(127);
}

/* A /proc file (its size reads as 0: read to the end), or NULL. */
static char *read_proc_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *text = ar_read_fd(fd, SIZE_MAX - 1, len);
    close(fd);
    return text;
}

/* pid's parent, state and command name from /proc/<pid>/stat; 0 or -1. */
static int proc_stat(pid_t pid, pid_t *ppid, char *state, char *comm, size_t comm_size)
{
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got <= 0)
        return -1;
    text[got] = '\0';
    /* "pid (comm) S ppid ...": comm may hold anything, so its end is the last ')'. */
    char *open_paren = strchr(text, '('), *close_paren = strrchr(text, ')');
    long parent = 0;
    if (!open_paren || !close_paren || close_paren < open_paren
        || sscanf(close_paren + 1, " %c %ld", state, &parent) != 2)
        return -1;
    size_t len = (size_t)(close_paren - open_paren - 1);
    if (len >= comm_size)
        len = comm_size - 1;
    memcpy(comm, open_paren + 1, len);
    comm[len] = '\0';
    *ppid = (pid_t)parent;
    return 0;
}

/* Space-separated pids that may be self's children: the kernel's list of
 * the main thread's children (cheap: one read per trial, within the
 * per-trial budget), else every process (checked by the caller). */
static char *child_pids(pid_t self)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/children", (long)self);
    size_t len = 0;
    char *text = read_proc_file(path, &len);
    if (text)
        return text;
    char *all = ar_xstrdup("");
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while (proc && (entry = readdir(proc)) != NULL) {
        if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
            continue;
        char *more = ar_xasprintf("%s %s", all, entry->d_name);
        free(all);
        all = more;
    }
    if (proc)
        closedir(proc);
    return all;
}

/* How many of self's children are alive (zombies, already ended, not
 * counted). */
static size_t live_children(pid_t self)
{
    size_t live = 0;
    char *candidates = child_pids(self);
    for (const char *cursor = candidates; *cursor;) {
        char *end = NULL;
        long pid = strtol(cursor, &end, 10);
        if (end == cursor)
            break;
        cursor = end;
        pid_t ppid;
        char state, comm[64];
        if (pid > 0 && pid != self
            && proc_stat((pid_t)pid, &ppid, &state, comm, sizeof comm) == 0 && ppid == self
            && state != 'Z')
            live++;
    }
    free(candidates);
    return live;
}

int ar_spawn_settle(double wait_sec)
{
    pid_t self = getpid();
    double deadline = ar_clock_monotonic() + wait_sec;
    for (;;) {
        if (!live_children(self))
            return 1;
        if (ar_spawn_peek_interrupt() || ar_clock_monotonic() >= deadline)
            return 0;
        struct timespec nap = {0, 20 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
}

size_t ar_spawn_kill_strays(const char *what)
{
    pid_t self = getpid();
    size_t killed = 0;
    char *names = ar_xstrdup("");
    /* A killed stray's own children come back to aorta-run: a few rounds. */
    for (int round = 0; round < 8; round++) {
        pid_t *found = NULL;
        size_t count = 0, capacity = 0;
        /* All of them first: killing one group may kill another stray
         * before it is seen, and it would go unnamed. */
        char *candidates = child_pids(self);
        const char *cursor = candidates;
        while (*cursor) {
            char *end = NULL;
            long pid = strtol(cursor, &end, 10);
            if (end == cursor)
                break;
            cursor = end;
            pid_t ppid;
            char state, comm[64];
            if (pid <= 0 || pid == self
                || proc_stat((pid_t)pid, &ppid, &state, comm, sizeof comm) != 0 || ppid != self)
                continue;
            ar_xgrow((void **)&found, &capacity, count + 1, sizeof *found);
            found[count++] = (pid_t)pid;
            if (state != 'Z') {
                char *more = ar_xasprintf("%s%s%ld (%s)", names, killed ? ", " : "", pid,
                                             comm);
                free(names);
                names = more;
                killed++;
            }
        }
        free(candidates);
        for (size_t i = 0; i < count; i++) {
            pid_t group = getpgid(found[i]);
            if (group > 1 && group != getpgrp())
                kill(-group, SIGKILL);
            kill(found[i], SIGKILL);
        }
        for (size_t i = 0; i < count; i++)
            while (waitpid(found[i], NULL, 0) < 0 && errno == EINTR) {
            }
        free(found);
        if (!count)
            break;
    }
    if (killed)
        ar_diag_warn("%s left %zu process(es) running; killed with their process groups: %s",
                        what, killed, names);
    free(names);
    return killed;
}

static int exit_code_for_errno(int error)
{
    if (error == ENOENT || error == ENOTDIR)
        return 127;
    if (error == EACCES || error == ENOEXEC || error == EPERM || error == EISDIR)
        return 126;
    return 1;
}

/* Kill the command's whole process group: SIGTERM, then SIGKILL after grace.
 * Returns the wait status once the leader is reaped. */
static int terminate_group(pid_t pid, double grace_sec, const sigset_t *set)
{
    int status = 0;
    kill(-pid, SIGTERM);
    double deadline = ar_clock_monotonic() + grace_sec;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            kill(-pid, SIGKILL); /* stragglers of the group */
            return status;
        }
        double left = deadline - ar_clock_monotonic();
        if (left <= 0)
            break;
        struct timespec wait = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
        sigtimedwait(set, NULL, &wait); /* SIGCHLD or a second interrupt: re-check */
    }
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
    return status;
}

int ar_spawn_start_fds(char *const *argv, char *const *envp, int out, int err,
                          ar_spawn_child_t *child, ar_spawn_result_t *result)
{
    memset(result, 0, sizeof *result);
    child->pid = -1;
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0)
        return -1;
    sigset_t set = blocked_signals();
    double started = ar_clock_monotonic();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        /* Child: dies with aorta-run, own session, default signals, captured output. */
        ar_spawn_child_guard(parent);
        setsid();
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGXFSZ, SIG_DFL);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        int null_in = open("/dev/null", O_RDONLY);
        if (null_in >= 0 && null_in != 0) {
            dup2(null_in, 0);
            close(null_in);
        }
        if (out >= 0)
            dup2(out, 1);
        if (err >= 0)
            dup2(err, 2);
        int error = ar_path_execve(argv, envp, ar_envp_get(envp, "PATH"));
        ssize_t ignored = write(report[1], &error, sizeof error);
        (void)ignored;
        _exit(exit_code_for_errno(error));
    }
    close(report[1]);
    if (pid < 0) {
        int saved = errno;
        close(report[0]);
        errno = saved;
        return -1;
    }
    /* The report pipe closes on a successful exec; an errno arrives otherwise. */
    int exec_error = 0;
    ssize_t got;
    do {
        got = read(report[0], &exec_error, sizeof exec_error);
    } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof exec_error && exec_error != 0) {
        int status;
        waitpid(pid, &status, 0);
        result->exec_errno = exec_error;
        result->exit_code = exit_code_for_errno(exec_error);
        dprintf(err >= 0 ? err : 2, "aorta-run: cannot execute '%s': %s\n", argv[0],
                strerror(exec_error));
        result->walltime_sec = ar_clock_monotonic() - started;
        return 0;
    }
    result->launched = 1;
    child->pid = pid;
    child->started = started;
    return 0;
}

void ar_spawn_wait(const ar_spawn_child_t *child, double timeout_sec, double grace_sec,
                      ar_spawn_result_t *result)
{
    if (child->pid < 0)
        return; /* never launched: the result says why */
    sigset_t set = blocked_signals();
    pid_t pid = child->pid;
    double started = child->started;
    int status = 0;
    double deadline = timeout_sec > 0 ? started + timeout_sec : 0;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        struct timespec wait = {1, 0};
        if (deadline > 0) {
            double left = deadline - ar_clock_monotonic();
            if (left <= 0) {
                result->timed_out = 1;
                status = terminate_group(pid, grace_sec, &set);
                break;
            }
            if (left < 1) {
                wait.tv_sec = 0;
                wait.tv_nsec = (long)(left * 1e9);
            }
        }
        int sig = sigtimedwait(&set, NULL, &wait);
        if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
            result->interrupted = sig == SIGHUP ? SIGTERM : sig;
            status = terminate_group(pid, grace_sec, &set);
            break;
        }
    }
    result->walltime_sec = ar_clock_monotonic() - started;
    if (result->timed_out)
        result->exit_code = -1;
    else if (WIFEXITED(status))
        result->exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        result->exit_code = -WTERMSIG(status);
}

void ar_spawn_stop(const ar_spawn_child_t *child, double grace_sec,
                      ar_spawn_result_t *result)
{
    if (child->pid < 0)
        return;
    sigset_t set = blocked_signals();
    terminate_group(child->pid, grace_sec, &set);
    result->walltime_sec = ar_clock_monotonic() - child->started;
    result->exit_code = -SIGKILL;
}

int ar_spawn_run_fds(char *const *argv, char *const *envp, int out, int err,
                        double timeout_sec, double grace_sec, ar_spawn_result_t *result)
{
    ar_spawn_child_t child;
    if (ar_spawn_start_fds(argv, envp, out, err, &child, result) != 0)
        return -1;
    ar_spawn_wait(&child, timeout_sec, grace_sec, result);
    return 0;
}
