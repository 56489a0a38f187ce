/* SPDX-License-Identifier: MIT */
/* bench/timeline_write: the timeline of a large multi-rank trial, written
 * (docs/design.md, Budgets): 64 ranks x 10,000 dispatches each, over 60
 * templated kernel names and two queues a rank, through
 * ar_timeline_write_at() into a temporary directory, five times; prints
 * each time and the median, and exits 1 when the median passes 1 s.
 * Usage: timeline_write [RANKS [DISPATCHES]]. */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "record/timeline.h"

#define RUNS 5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long ranks = argc > 1 ? atol(argv[1]) : 64, per_rank = argc > 2 ? atol(argv[2]) : 10000;
    aorta_dispatches_t **d = calloc((size_t)ranks, sizeof *d);
    ar_timeline_source_t *sources = calloc((size_t)ranks, sizeof *sources);
    for (long r = 0; r < ranks; r++) {
        d[r] = aorta_dispatches_new();
        aorta_dispatches_set_clock(d[r], AORTA_CLOCK_HOST);
        uint64_t t = 1700000000000000000ull + (uint64_t)r * 1337;
        for (long i = 0; i < per_rank; i++) {
            char name[160];
            snprintf(name, sizeof name,
                     "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_%ld"
                     "<at::native::BinaryFunctor<float, float, float>>(at::TensorIteratorBase&)>",
                     i % 60);
            uint64_t dur = 1000 + (uint64_t)(i * 7919 % 50000);
            aorta_dispatches_add(d[r], i % 5 ? "Agent 2 queue 1" : "Agent 2 queue 2", name,
                                 strlen(name), t, t + dur);
            t += dur + 250;
        }
        sources[r] = (ar_timeline_source_t){r, "rocprof", d[r]};
    }
    char dir[] = "/tmp/aorta-bench-timeline-XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    double times[RUNS];
    struct stat st = {0};
    for (int run = 0; run < RUNS; run++) {
        double start = now();
        if (ar_timeline_write_at(fd, "t.timeline.json", sources, (size_t)ranks, 1) != 0) {
            perror("timeline");
            return 2;
        }
        times[run] = now() - start;
        fstatat(fd, "t.timeline.json", &st, 0);
        printf("run %d: %.3f s\n", run + 1, times[run]);
    }
    unlinkat(fd, "t.timeline.json", 0);
    close(fd);
    rmdir(dir);
    qsort(times, RUNS, sizeof times[0], by_value);
    printf("timeline of %ld ranks x %ld dispatches (%.1f MB): median %.3f s (budget 1 s)\n", ranks,
           per_rank, (double)st.st_size / 1e6, times[RUNS / 2]);
    for (long r = 0; r < ranks; r++)
        aorta_dispatches_free(d[r]);
    free(d);
    free(sources);
    return times[RUNS / 2] < 1.0 ? 0 : 1;
}
