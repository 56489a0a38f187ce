/* rank_parse.c - per-rank parses and their merge (rank_parse.h).
 *
 * Each rank directory gets its own parse child (parse_child.c), so a crash
 * or a hang costs that rank's figures only.  The children run concurrently:
 * a few worker threads each start one child at a time and wait for it; the
 * children do the work, the threads only wait.  Results land in the slot of
 * their rank, and the merge reads the slots in rank order, so the order in
 * which children finish never shows. */
#include "config.h"

#include "sweep/rank_parse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "sweep/parse_child.h"
#include "xalloc.h"

size_t aorta_parse_jobs(void)
{
    const char *text = getenv("AORTA_PARSE_JOBS");
    if (text) {
        char *end = NULL;
        errno = 0;
        long value = strtol(text, &end, 10);
        if (!errno && end != text && !*end && value > 0)
            return (size_t)value;
        aorta_diag_warn("AORTA_PARSE_JOBS='%s' is not a positive integer; using the CPU count",
                        text);
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 ? (size_t)cpus : 1;
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

typedef struct pool {
    const aorta_module_t *plugin;
    const aorta_options_t *options;
    const char *dir;
    const long *ranks;
    size_t count;
    aorta_rank_result_t *results;
    pthread_mutex_t lock;
    size_t next;
} pool_t;

static void parse_one(pool_t *pool, size_t index)
{
    const char *name = pool->plugin->collector.name;
    char *path = aorta_xasprintf("%s/rank%ld", pool->dir, pool->ranks[index]);
    aorta_metrics_t *metrics = aorta_parse_in_child(pool->plugin, pool->options, path);
    char *key = aorta_xasprintf("%s_gpu_time_ms", name);
    const aorta_metric_t *gpu = aorta_metrics_find(metrics, key);
    aorta_rank_result_t *result = &pool->results[index];
    result->rank = pool->ranks[index];
    result->has_data = 0;
    result->gpu_ms = 0;
    if (gpu && (gpu->type == AORTA_METRIC_DOUBLE || gpu->type == AORTA_METRIC_INT)) {
        double value = gpu->type == AORTA_METRIC_DOUBLE ? gpu->double_value
                                                        : (double)gpu->int_value;
        if (isfinite(value)) {
            result->has_data = 1;
            result->gpu_ms = value;
        }
    }
    free(key);
    aorta_metrics_free(metrics);
    free(path);
}

static void *worker(void *user)
{
    pool_t *pool = user;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        size_t index = pool->next++;
        pthread_mutex_unlock(&pool->lock);
        if (index >= pool->count)
            return NULL;
        parse_one(pool, index);
    }
}

void aorta_rank_parse_all(const aorta_module_t *plugin, const aorta_options_t *options,
                          const char *dir, const long *ranks, size_t count, size_t jobs,
                          aorta_rank_result_t *results)
{
    pool_t pool = {plugin, options, dir, ranks, count, results, PTHREAD_MUTEX_INITIALIZER, 0};
    if (jobs == 0)
        jobs = aorta_parse_jobs();
    if (jobs > count)
        jobs = count;
    if (jobs <= 1) {
        worker(&pool);
        return;
    }
    /* The calling thread is one of the workers. */
    pthread_t *threads = aorta_xcalloc(jobs - 1, sizeof *threads);
    size_t started = 0;
    for (; started < jobs - 1; started++)
        if (pthread_create(&threads[started], NULL, worker, &pool) != 0)
            break;
    worker(&pool);
    for (size_t i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    pthread_mutex_destroy(&pool.lock);
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
