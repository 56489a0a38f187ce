/* parse_child.c - a collector's parse() run in a child process.
 * The child serialises its metrics through the core's JSON layer onto a
 * pipe; the parent reads them with a deadline and checks every member. */
#include "config.h"

#include "diag.h"
#include "sweep/parse_child.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "output/json.h"
#include "output/metrics_json.h"
#include "xalloc.h"

/* A reply larger than this is garbage (five metrics and a short list). */
#define REPLY_LIMIT (1u << 20)

static double parse_timeout(void)
{
    const char *text = getenv("AORTA_PARSE_TIMEOUT");
    char *end = NULL;
    double value = text ? strtod(text, &end) : 0;
    return text && end && !*end && isfinite(value) && value > 0 ? value
                                                                : AORTA_PARSE_TIMEOUT_DEFAULT;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t done = write(fd, data, len);
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            return;
        data += done;
        len -= (size_t)done;
    }
}

static void run_child(const aorta_module_t *plugin, const aorta_options_t *options,
                      const char *dir, const char *prefix, int out)
{
    sigset_t all;
    sigemptyset(&all);
    sigaddset(&all, SIGINT);
    sigaddset(&all, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &all, NULL);
    /* Whatever the collector prints must not mix with aorta-run's output. */
    dup2(2, 1);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    plugin->collector.parse(options, dir, metrics);
    aorta_json_t *json = aorta_metrics_to_json(metrics);
    char *text = aorta_json_dump(json, 0);
    write_all(out, text, strlen(text));
    _exit(0);
}

/* Read the child's whole reply before the deadline; NULL on timeout or
 * oversize (the child is then killed). */
static char *read_reply(int fd, pid_t pid, double deadline, size_t *len, const char **problem)
{
    size_t capacity = 4096;
    char *reply = aorta_xmalloc(capacity);
    *len = 0;
    for (;;) {
        double left = deadline - now();
        if (left <= 0) {
            *problem = "timed out";
            break;
        }
        struct pollfd pfd = {fd, POLLIN, 0};
        int ready = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            continue;
        if (*len + 4096 > capacity) {
            if (capacity >= REPLY_LIMIT) {
                *problem = "sent too much";
                break;
            }
            capacity *= 2;
            reply = aorta_xrealloc(reply, capacity);
        }
        ssize_t got = read(fd, reply + *len, capacity - *len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            reply[*len] = '\0';
            return reply; /* EOF: the child closed its end */
        }
        *len += (size_t)got;
    }
    kill(pid, SIGKILL);
    free(reply);
    return NULL;
}

static int is_directory(const char *dir)
{
    struct stat st;
    return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

aorta_metrics_t *aorta_parse_in_child(const aorta_module_t *plugin,
                                      const aorta_options_t *options, const char *dir)
{
    const char *name = plugin->collector.name;
    char *prefix = aorta_xasprintf("%s_", name);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    const char *problem = NULL;
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        problem = "could not start";
    } else {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            close(pipefd[0]);
            run_child(plugin, options, dir, prefix, pipefd[1]);
        }
        close(pipefd[1]);
        if (pid < 0) {
            problem = "could not start";
            close(pipefd[0]);
        } else {
            size_t len = 0;
            char *reply = read_reply(pipefd[0], pid, now() + parse_timeout(), &len, &problem);
            close(pipefd[0]);
            int status = 0;
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            if (!problem && WIFSIGNALED(status))
                problem = "crashed";
            else if (!problem && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
                problem = "failed";
            if (!problem) {
                aorta_json_t *json = aorta_json_parse(reply, len, 64);
                if (!json || aorta_metrics_from_json(metrics, json) != 0)
                    problem = "sent an unreadable reply";
                aorta_json_free(json);
            }
            free(reply);
        }
    }
    if (problem) {
        aorta_diag_warn("collect: %s summary parsing %s; skipping its "
                        "metrics for %s.",
                name, problem, dir);
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
