/* SPDX-License-Identifier: MIT */
/* rank_parse.c - per-rank parses and their merge (rank_parse.h).
 *
 * Each rank directory gets its own parse child (sys/child.c), so a crash
 * or a hang costs that rank's figures only.  Up to AORTA_PARSE_JOBS
 * children run at once, each with the parse timeout and memory limit.
 * Results land in the slot of their rank and the merge reads the slots in
 * rank order, so the order in which children finish never shows. */
#include "config.h"

#include "sweep/rank_parse.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/parse_reply.h"
#include "sweep/parse_child.h"
#include "sys/child.h"
#include "sys/diag.h"
#include "sys/json.h"
#include "sys/knobs.h"
#include "sys/rank_list.h"
#include "sys/spawn.h"
#include "xalloc.h"

/* A rank's reply is a parse reply (record/parse_reply.c): its metrics and
 * its kernel table, cut past this as the whole directory's is. */
#define REPLY_LIMIT (16u << 20)

size_t ar_parse_jobs(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return (size_t)ar_knob_count("AORTA_PARSE_JOBS", cpus > 0 ? cpus : 1);
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

size_t ar_rank_dirs(int dir_fd, long **ranks)
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
        ar_xgrow((void **)ranks, &cap, count + 1, sizeof **ranks);
        (*ranks)[count++] = rank;
    }
    closedir(dir);
    if (count)
        qsort(*ranks, count, sizeof **ranks, by_rank);
    return count;
}

/* In the child: the collector's parse of one rank directory, its metrics
 * and kernel table the reply. */
typedef struct rank_call {
    const ar_module_t *module;
    const aorta_options_t *options;
    const char *path;
} rank_call_t;

static void parse_rank(void *user, int reply_fd)
{
    const rank_call_t *call = user;
    char *prefix = ar_xasprintf("%s_", call->module->collector.name);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    ar_parse_attach_env(metrics, NULL);
    call->module->collector.parse(call->options, call->path, metrics);
    size_t len;
    char *text = ar_parse_reply_text(metrics, REPLY_LIMIT - 1, &len);
    ar_child_reply(reply_fd, text, len);
}

typedef struct ranks_run {
    const rank_call_t *calls;
    ar_rank_result_t *results;
} ranks_run_t;

/* A rank's parse ended: its figures into its result slot, or one warning. */
static void rank_done(size_t index, const ar_child_result_t *child, void *user)
{
    const ranks_run_t *run = user;
    const char *name = run->calls[index].module->collector.name;
    const char *problem = ar_child_problem(child);
    char *prefix = ar_xasprintf("%s_", name);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    if (!problem && ar_parse_reply_read(metrics, child->reply, child->len) != 0)
        problem = "sent an unreadable reply";
    int64_t kept = 0;
    int64_t total = problem ? 0 : ar_parse_reply_rows_cut(child->reply, child->len, &kept);
    if (total)
        ar_diag_warn("collect: %s's kernel table of %s cut to %lld of its %lld kernels: the "
                        "parse reply holds at most %u MiB (its metrics are whole)",
                        name, run->calls[index].path, (long long)kept, (long long)total,
                        REPLY_LIMIT >> 20);
    if (problem) {
        ar_diag_warn("collect: %s summary parsing %s; skipping its metrics for %s.", name,
                        problem, run->calls[index].path);
    } else {
        char *key = ar_xasprintf("%s_gpu_time_ms", name);
        const aorta_metric_t *gpu = aorta_metrics_find(metrics, key);
        free(key);
        if (gpu && (gpu->type == AORTA_METRIC_DOUBLE || gpu->type == AORTA_METRIC_INT)) {
            double value = gpu->type == AORTA_METRIC_DOUBLE ? gpu->double_value
                                                            : (double)gpu->int_value;
            if (isfinite(value)) {
                run->results[index].has_data = 1;
                run->results[index].gpu_ms = value;
            }
        }
        run->results[index].metrics = metrics;
        metrics = NULL;
    }
    aorta_metrics_free(metrics);
    free(prefix);
}

void ar_rank_parse_all(const ar_module_t *module, const aorta_options_t *options,
                          const char *dir, const long *ranks, size_t count, size_t jobs,
                          ar_rank_result_t *results)
{
    if (jobs == 0)
        jobs = ar_parse_jobs();
    double timeout = ar_parse_timeout();
    uint64_t limit = ar_parse_memory_limit(); /* read here: a warning is the parent's */
    char **paths = ar_xcalloc(count ? count : 1, sizeof *paths);
    rank_call_t *calls = ar_xcalloc(count ? count : 1, sizeof *calls);
    ar_child_spec_t *specs = ar_xcalloc(count ? count : 1, sizeof *specs);
    ar_child_result_t *children = ar_xcalloc(count ? count : 1, sizeof *children);
    for (size_t i = 0; i < count; i++) {
        results[i] = (ar_rank_result_t){.rank = ranks[i], .has_data = 0, .gpu_ms = 0,
                                           .metrics = NULL};
        paths[i] = ar_xasprintf("%s/rank%ld", dir, ranks[i]);
        calls[i] = (rank_call_t){module, options, paths[i]};
        specs[i] = (ar_child_spec_t){.fn = parse_rank, .user = &calls[i],
                                        .timeout_sec = timeout, .reply_limit = REPLY_LIMIT,
                                        .memory_limit = limit};
    }
    ranks_run_t run = {calls, results};
    ar_child_run_all(specs, count, jobs, children, rank_done, &run);
    for (size_t i = 0; i < count; i++) {
        ar_child_result_free(&children[i]);
        free(paths[i]);
    }
    free(children);
    free(specs);
    free(calls);
    free(paths);
    char *what = ar_xasprintf("collect: %s's per-rank parses", module->collector.name);
    ar_spawn_kill_strays(what);
    free(what);
}

void ar_rank_merge(const char *name, const ar_rank_result_t *results, size_t count,
                      aorta_metrics_t *metrics)
{
    char *key = ar_xasprintf("%s_rank_count", name);
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
    key = ar_xasprintf("%s_ranks_with_data", name);
    aorta_metrics_set_int(metrics, key, with_data);
    free(key);
    if (count == 0)
        return;
    key = ar_xasprintf("%s_gpu_time_ms_rank_min", name);
    aorta_metrics_set_double(metrics, key, low);
    free(key);
    key = ar_xasprintf("%s_gpu_time_ms_rank_max", name);
    aorta_metrics_set_double(metrics, key, high);
    free(key);
}

void ar_rank_set_clear(ar_rank_set_t *set)
{
    for (size_t i = 0; i < set->count; i++)
        aorta_metrics_free(set->results[i].metrics);
    free(set->results);
    set->results = NULL;
    set->count = 0;
}

/* Keep the ranks that are listed (all of them without a list), in place;
 * the count kept.  A rank<k>/ of a rank not chosen is not this attempt's. */
static size_t keep_listed(long *ranks, size_t count, const long *listed, size_t listed_count)
{
    if (!listed_count)
        return count;
    size_t kept = 0;
    for (size_t i = 0; i < count; i++)
        if (ar_rank_list_has(listed, listed_count, ranks[i]))
            ranks[kept++] = ranks[i];
    return kept;
}

void ar_rank_metrics(const ar_module_t *plugin, const aorta_options_t *options,
                        int dir_fd, const char *dir, const long *listed, size_t listed_count,
                        aorta_metrics_t *metrics, ar_rank_set_t *ranks)
{
    if (listed_count) {
        char *key = ar_xasprintf("%s_ranks_profiled", plugin->collector.name);
        char *list = ar_rank_list_format(listed, listed_count, ", ");
        aorta_metrics_set_string(metrics, key, list);
        free(list);
        free(key);
    }
    long *numbers = NULL;
    size_t count = ar_rank_dirs(dir_fd, &numbers);
    count = keep_listed(numbers, count, listed, listed_count);
    if (count == 0) {
        free(numbers);
        return;
    }
    ar_rank_set_t set = {ar_xcalloc(count, sizeof *set.results), count};
    ar_rank_parse_all(plugin, options, dir, numbers, count, 0, set.results);
    ar_rank_merge(plugin->collector.name, set.results, count, metrics);
    if (ranks)
        *ranks = set;
    else
        ar_rank_set_clear(&set);
    free(numbers);
}
