/* SPDX-License-Identifier: MIT */
/* rank_parse.c - per-rank parses and their merge (rank_parse.h).
 *
 * Each rank directory gets its own parse child, as parse_child.c runs one,
 * so a crash or a hang costs that rank's figures only.  Up to
 * AORTA_PARSE_JOBS children run at once, started and watched from this one
 * thread (one poll over their reply pipes, each with the parse timeout).
 * Results land in the slot of their rank and the merge reads the slots in
 * rank order, so the order in which children finish never shows. */
#include "config.h"

#include "sweep/rank_parse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/diag.h"
#include "sys/json.h"
#include "record/metrics_json.h"
#include "sweep/parse_child.h"
#include "sys/spawn.h"
#include "sys/clock.h"
#include "sys/files.h"
#include "sys/knobs.h"
#include "xalloc.h"

/* A reply larger than this is garbage (a few metrics), as for every parse
 * child. */
#define REPLY_LIMIT (1u << 20)

size_t aorta_parse_jobs(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return (size_t)aorta_knob_count("AORTA_PARSE_JOBS", cpus > 0 ? cpus : 1);
}

/* k of "rank<k>", or -1. */
static long rank_of(const char *name)
{
    if (strncmp(name, "rank", 4) != 0)
        return -1;
    const char *digits = name + 4;
    if (!digits[0] || (digits[0] == '0' && digits[1]) || strlen(digits) > 9)
        return -1;
    long value = 0;
    for (const char *p = digits; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        value = value * 10 + (*p - '0');
    }
    return value;
}

static int by_rank(const void *left, const void *right)
{
    long a = *(const long *)left, b = *(const long *)right;
    return (a > b) - (a < b);
}

size_t aorta_rank_dirs(int dir_fd, long **ranks)
{
    *ranks = NULL;
    int fd = dup(dir_fd);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    rewinddir(dir);
    size_t count = 0, cap = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        long rank = rank_of(entry->d_name);
        struct stat st;
        if (rank < 0 || fstatat(dir_fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0
            || !S_ISDIR(st.st_mode))
            continue;
        aorta_xgrow((void **)ranks, &cap, count + 1, sizeof **ranks);
        (*ranks)[count++] = rank;
    }
    closedir(dir);
    if (count)
        qsort(*ranks, count, sizeof **ranks, by_rank);
    return count;
}

/* One rank's parse child. */
typedef struct job {
    size_t index;        /* into ranks and results */
    pid_t pid;
    int fd;              /* the reply pipe; -1 once read to its end */
    char *reply;
    size_t len, cap;
    double deadline;
    const char *problem;
    int status, ended;
} job_t;

static int interrupt_pending(void)
{
    sigset_t pending;
    sigpending(&pending);
    return sigismember(&pending, SIGINT) || sigismember(&pending, SIGTERM);
}

/* In the child: the collector's parse of one rank directory, its metrics
 * as JSON on the pipe. */
static void run_child(pid_t parent, const aorta_module_t *module,
                      const aorta_options_t *options, const char *path, uint64_t limit, int out)
{
    /* As every parse child (parse_child.c): dies with aorta-run, bounded in
     * memory. */
    aorta_spawn_child_guard(parent);
    if (limit) {
        struct rlimit rl = {(rlim_t)limit, (rlim_t)limit};
        setrlimit(RLIMIT_AS, &rl);
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    dup2(2, 1); /* whatever the collector prints must not mix with aorta-run's stdout */
    char *prefix = aorta_xasprintf("%s_", module->collector.name);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    module->collector.parse(options, path, metrics);
    aorta_json_t *json = aorta_metrics_to_json(metrics);
    char *text = aorta_json_dump(json, 0);
    aorta_write_all(out, text, strlen(text));
    _exit(0);
}

/* Start job for rank directory path.  The parent forks from this one
 * thread and closes each write end at once, so no child holds another's
 * pipe open and each reply ends when its own child does. */
static void start(job_t *job, const aorta_module_t *module, const aorta_options_t *options,
                  const char *path, double timeout, uint64_t limit)
{
    int pipefd[2];
    job->deadline = aorta_clock_monotonic() + timeout;
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        job->problem = "could not start";
        return;
    }
    fflush(NULL);
    pid_t parent = getpid();
    job->pid = fork();
    if (job->pid == 0) {
        close(pipefd[0]);
        run_child(parent, module, options, path, limit, pipefd[1]);
    }
    close(pipefd[1]);
    if (job->pid < 0) {
        close(pipefd[0]);
        job->problem = "could not start";
        return;
    }
    job->fd = pipefd[0];
}

static int reap(job_t *job, int block)
{
    for (;;) {
        pid_t done = waitpid(job->pid, &job->status, block ? 0 : WNOHANG);
        if (done < 0 && errno == EINTR)
            continue;
        job->ended = done == job->pid || done < 0;
        return job->ended;
    }
}

/* Read what job's pipe holds; at its end, fd becomes -1. */
static void read_reply(job_t *job)
{
    if (job->len + 4096 + 1 > job->cap) {
        job->cap = job->cap ? job->cap * 2 : 8192;
        job->reply = aorta_xrealloc(job->reply, job->cap);
    }
    ssize_t got = read(job->fd, job->reply + job->len, job->cap - job->len - 1);
    if (got < 0 && errno == EINTR)
        return;
    if (got <= 0) {
        close(job->fd);
        job->fd = -1;
        /* The reply's end is the child's exit, a few microseconds later:
         * wait for it here (briefly) rather than a whole poll round. */
        for (int spin = 0; spin < 100 && !reap(job, 0); spin++) {
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
        return;
    }
    job->len += (size_t)got;
    job->reply[job->len] = '\0';
    if (job->len > REPLY_LIMIT)
        job->problem = "sent too much";
}

/* The job's figures into its result slot, or one warning. */
static void finish(job_t *job, const aorta_module_t *module, const char *path,
                   aorta_rank_result_t *result)
{
    const char *name = module->collector.name;
    const char *problem = job->problem;
    if (!problem && WIFSIGNALED(job->status))
        problem = "crashed";
    else if (!problem && (!WIFEXITED(job->status) || WEXITSTATUS(job->status) != 0))
        problem = "failed";
    char *prefix = aorta_xasprintf("%s_", name);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    if (!problem) {
        aorta_json_t *json = job->reply ? aorta_json_parse(job->reply, job->len, 64) : NULL;
        if (!json || aorta_metrics_from_json(metrics, json) != 0)
            problem = "sent an unreadable reply";
        aorta_json_free(json);
    }
    if (problem) {
        aorta_diag_warn("collect: %s summary parsing %s; skipping its metrics for %s.", name,
                        problem, path);
    } else {
        char *key = aorta_xasprintf("%s_gpu_time_ms", name);
        const aorta_metric_t *gpu = aorta_metrics_find(metrics, key);
        free(key);
        if (gpu && (gpu->type == AORTA_METRIC_DOUBLE || gpu->type == AORTA_METRIC_INT)) {
            double value = gpu->type == AORTA_METRIC_DOUBLE ? gpu->double_value
                                                            : (double)gpu->int_value;
            if (isfinite(value)) {
                result->has_data = 1;
                result->gpu_ms = value;
            }
        }
    }
    aorta_metrics_free(metrics);
    free(prefix);
}

void aorta_rank_parse_all(const aorta_module_t *module, const aorta_options_t *options,
                          const char *dir, const long *ranks, size_t count, size_t jobs,
                          aorta_rank_result_t *results)
{
    if (jobs == 0)
        jobs = aorta_parse_jobs();
    if (jobs > count)
        jobs = count;
    double timeout = aorta_parse_timeout();
    uint64_t limit = aorta_parse_memory_limit(); /* read here: a warning is the parent's */
    job_t *running = aorta_xcalloc(jobs ? jobs : 1, sizeof *running);
    char **paths = aorta_xcalloc(count ? count : 1, sizeof *paths);
    struct pollfd *fds = aorta_xcalloc(jobs ? jobs : 1, sizeof *fds);
    size_t next = 0, active = 0;
    int stop = 0;
    for (size_t i = 0; i < count; i++) {
        results[i] = (aorta_rank_result_t){.rank = ranks[i], .has_data = 0, .gpu_ms = 0};
        paths[i] = aorta_xasprintf("%s/rank%ld", dir, ranks[i]);
    }
    while (next < count || active > 0) {
        while (!stop && next < count && active < jobs) {
            job_t *job = &running[active++];
            *job = (job_t){.index = next, .pid = -1, .fd = -1};
            start(job, module, options, paths[next], timeout, limit);
            next++;
        }
        if (stop && next < count)
            next = count; /* interrupted: the rest are not started */
        double now = aorta_clock_monotonic(), wait = 0.05;
        size_t polled = 0;
        for (size_t j = 0; j < active; j++) {
            job_t *job = &running[j];
            if (job->deadline - now < wait)
                wait = job->deadline - now > 0 ? job->deadline - now : 0;
            if (job->fd >= 0)
                fds[polled++] = (struct pollfd){job->fd, POLLIN, 0};
        }
        if (polled < active)
            wait = wait < 0.001 ? wait : 0.001; /* a child that closed its pipe is exiting */
        if (poll(fds, polled, (int)(wait * 1000) + (wait > 0)) > 0) {
            for (size_t f = 0; f < polled; f++) {
                if (!fds[f].revents)
                    continue;
                for (size_t j = 0; j < active; j++)
                    if (running[j].fd == fds[f].fd && !running[j].problem)
                        read_reply(&running[j]);
            }
        }
        now = aorta_clock_monotonic();
        stop = stop || interrupt_pending();
        for (size_t j = 0; j < active;) {
            job_t *job = &running[j];
            int over = job->pid > 0 && !job->ended && (now >= job->deadline || stop);
            if (!job->problem && job->pid > 0 && job->fd < 0 && !job->ended)
                reap(job, 0);
            if (over && !job->problem)
                job->problem = stop ? "interrupted" : "timed out";
            int done = job->pid <= 0 || job->ended || job->problem;
            if (!done) {
                j++;
                continue;
            }
            if (job->pid > 0 && !job->ended) {
                kill(job->pid, SIGKILL);
                reap(job, 1);
            }
            if (job->fd >= 0)
                close(job->fd);
            finish(job, module, paths[job->index], &results[job->index]);
            free(job->reply);
            running[j] = running[--active];
        }
    }
    for (size_t i = 0; i < count; i++)
        free(paths[i]);
    free(paths);
    free(fds);
    free(running);
    char *what = aorta_xasprintf("collect: %s's per-rank parses", module->collector.name);
    aorta_spawn_kill_strays(what);
    free(what);
}

void aorta_rank_merge(const char *name, const aorta_rank_result_t *results, size_t count,
                      aorta_metrics_t *metrics)
{
    char *key = aorta_xasprintf("%s_rank_count", name);
    aorta_metrics_set_int(metrics, key, (int64_t)count);
    free(key);
    int64_t with_data = 0;
    double low = INFINITY, high = -INFINITY;
    for (size_t i = 0; i < count; i++) {
        with_data += results[i].has_data;
        double value = results[i].has_data ? results[i].gpu_ms : 0.0;
        low = value < low ? value : low;
        high = value > high ? value : high;
    }
    key = aorta_xasprintf("%s_ranks_with_data", name);
    aorta_metrics_set_int(metrics, key, with_data);
    free(key);
    if (count == 0)
        return;
    key = aorta_xasprintf("%s_gpu_time_ms_rank_min", name);
    aorta_metrics_set_double(metrics, key, low);
    free(key);
    key = aorta_xasprintf("%s_gpu_time_ms_rank_max", name);
    aorta_metrics_set_double(metrics, key, high);
    free(key);
}

void aorta_rank_metrics(const aorta_module_t *plugin, const aorta_options_t *options,
                        int dir_fd, const char *dir, aorta_metrics_t *metrics)
{
    long *ranks = NULL;
    size_t count = aorta_rank_dirs(dir_fd, &ranks);
    if (count == 0)
        return;
    aorta_rank_result_t *results = aorta_xcalloc(count, sizeof *results);
    aorta_rank_parse_all(plugin, options, dir, ranks, count, 0, results);
    aorta_rank_merge(plugin->collector.name, results, count, metrics);
    free(results);
    free(ranks);
}
