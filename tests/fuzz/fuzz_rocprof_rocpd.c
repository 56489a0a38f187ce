/* SPDX-License-Identifier: MIT */
/* fuzz_rocprof_rocpd.c - the rocprof collector's rocpd reader over one file.
 *
 * The input is written as a rocpd database (aorta_results.db) and parsed
 * through the collector, which must report what it promises (finite,
 * non-negative metrics, at most five top kernels) and leave nothing beside
 * the file: no journal, -wal or -shm, since it opens the database
 * read-only and immutable.  Then the reader runs on the same bytes under a
 * name holding '?', '#' and '%' (opened by that name, not a descriptor):
 * URI escaping must keep the name one path, so both reads agree, unless
 * one of them ran out of time (each read is its own pass, with its own
 * time budget, but a slow machine may cut one and not the other). */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "aorta/collector.h"
#include "rocprof.h"

const struct aorta_collector *aorta_collector_rocprof_get(void);

static int out_of_time; /* a warning said a read was cut for time */

static void quiet(const char *source, const char *message, void *user)
{
    (void)source;
    ++*(int *)user;
    if (strstr(message, "time budget"))
        out_of_time = 1;
}

/* Entries of scratch/rel other than "." and "..". */
static int entries(const char *rel)
{
    char *path = fz_path(rel);
    DIR *dir = opendir(path);
    free(path);
    if (!dir)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(dir);
    return n;
}

/* The kernels of one read, flattened: name, time and launches per kernel. */
static char *summary(const aorta_kernels_t *kernels, int status)
{
    size_t cap = 64, len = 0;
    char *out = malloc(cap);
    len += (size_t)snprintf(out, cap, "%d:", status);
    for (size_t i = 0; i < aorta_kernels_count(kernels); i++) {
        size_t name_len = 0;
        const char *name = aorta_kernels_name_at(kernels, i, &name_len);
        char numbers[64];
        int n = snprintf(numbers, sizeof numbers, "|%.17g|%lld|", aorta_kernels_time_at(kernels, i),
                         (long long)aorta_kernels_launches_at(kernels, i));
        if (len + name_len + (size_t)n + 1 > cap) {
            cap = (len + name_len + (size_t)n + 1) * 2;
            out = realloc(out, cap);
        }
        memcpy(out + len, name, name_len);
        len += name_len;
        memcpy(out + len, numbers, (size_t)n);
        len += (size_t)n;
        out[len] = '\0';
    }
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int warned = 0;
    aorta_warning_set_handler(quiet, &warned);
    static const char *const files[] = {"aorta_results.db", NULL};
    fz_parse_collector(aorta_collector_rocprof_get(), files, data, size);
    if (entries("out") != 1)
        fz_fail("the parse left %d entries in the directory (a journal?)", entries("out"));
    if (warned > 1)
        fz_fail("one file warned %d times", warned);

    /* The reader directly, once by descriptor-free name, once more by the
     * same bytes under a plain name: same kernels, same verdict. */
    fz_remove("odd");
    fz_write("odd/a?b#c%41d&mode=rwc_results.db", data, size);
    fz_write("odd/plain_results.db", data, size);
    aorta_kernels_t *odd = aorta_kernels_new(AORTA_KERNELS_SUM_COMPENSATED);
    aorta_kernels_t *plain = aorta_kernels_new(AORTA_KERNELS_SUM_COMPENSATED);
    char *odd_path = fz_path("odd/a?b#c%41d&mode=rwc_results.db");
    char *plain_path = fz_path("odd/plain_results.db");
    /* One time budget for both reads, as for the databases of one
     * directory: a hostile view (fuzz-long found a five-way cross join)
     * costs the budget once here, not once per read, so the whole input
     * stays well inside libFuzzer's timeout on a loaded machine. */
    out_of_time = 0;
    rocprof_rocpd_pass();
    char *a = summary(odd, rocprof_rocpd_read(odd_path, -1, odd, NULL));
    char *b = summary(plain, rocprof_rocpd_read(plain_path, -1, plain, NULL));
    if (!out_of_time && strcmp(a, b) != 0)
        fz_fail("the file's name changed what was read: %s vs %s", a, b);
    if (entries("odd") != 2)
        fz_fail("reading by name left %d entries", entries("odd"));
    for (size_t i = 0; i < aorta_kernels_count(plain); i++) {
        double t = aorta_kernels_time_at(plain, i);
        if (!(t >= 0) || aorta_kernels_launches_at(plain, i) < 1)
            fz_fail("kernel %zu: time %g, launches %lld", i, t,
                    (long long)aorta_kernels_launches_at(plain, i));
    }
    free(a);
    free(b);
    free(odd_path);
    free(plain_path);
    aorta_kernels_free(odd);
    aorta_kernels_free(plain);
    aorta_warning_set_handler(NULL, NULL);
    return 0;
}
