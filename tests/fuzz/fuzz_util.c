/* SPDX-License-Identifier: MIT */
/* fuzz_util.c - scratch files and chunked reads for the fuzz harnesses. */
#include "config.h"

#include "fuzz_util.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/nofollow.h"
#include "aorta/collector.h"
#include "xalloc.h"

/* Pieces sent through a socket: all of them must fit in its buffer. */
#define SOCKET_BYTES (64u << 10)

static char *scratch;

void fz_fail(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("fuzz check failed: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    abort();
}

/* path and everything below it, never following a symlink. */
static void remove_tree(const char *path)
{
    char *why = NULL;
    ar_nofollow_remove_tree_at(AT_FDCWD, path, &why);
    free(why);
}

static void remove_scratch(void)
{
    if (scratch)
        remove_tree(scratch);
}

const char *fz_scratch(void)
{
    if (!scratch) {
        const char *tmp = getenv("TMPDIR");
        size_t len = strlen(tmp && *tmp ? tmp : "/tmp") + sizeof "/aorta-fuzz-XXXXXX";
        scratch = malloc(len);
        snprintf(scratch, len, "%s/aorta-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(scratch))
            fz_fail("mkdtemp %s: %s", scratch, strerror(errno));
        atexit(remove_scratch);
    }
    return scratch;
}

char *fz_path(const char *rel)
{
    const char *base = fz_scratch();
    size_t len = strlen(base) + strlen(rel) + 2;
    char *path = malloc(len);
    snprintf(path, len, "%s/%s", base, rel);
    return path;
}

static void make_parents(char *path)
{
    size_t base = strlen(fz_scratch());
    for (char *slash = strchr(path + base + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            fz_fail("mkdir %s: %s", path, strerror(errno));
        *slash = '/';
    }
}

void fz_write(const char *rel, const void *data, size_t len)
{
    char *path = fz_path(rel);
    make_parents(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        fz_fail("open %s: %s", path, strerror(errno));
    const char *p = data;
    while (len > 0) {
        ssize_t done = write(fd, p, len);
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            fz_fail("write %s: %s", path, strerror(errno));
        p += done;
        len -= (size_t)done;
    }
    close(fd);
    free(path);
}

void fz_remove(const char *rel)
{
    if (!*rel) {
        /* Keep the directory itself: empty it. */
        remove_tree(fz_scratch());
        if (mkdir(fz_scratch(), 0700) != 0)
            fz_fail("mkdir %s: %s", fz_scratch(), strerror(errno));
        return;
    }
    char *path = fz_path(rel);
    remove_tree(path);
    free(path);
}

uint32_t fz_hash(const void *data, size_t len)
{
    uint32_t hash = 2166136261u; /* FNV-1a */
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ p[i]) * 16777619u;
    return hash;
}

static uint32_t next_random(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

static int compare_size(const void *left, const void *right)
{
    size_t a = *(const size_t *)left, b = *(const size_t *)right;
    return a < b ? -1 : a > b;
}

/* A memory file holding data: reads as large as the reader asks. */
static int memory_fd(const void *data, size_t len)
{
    int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
    if (fd < 0)
        fz_fail("memfd_create: %s", strerror(errno));
    const char *p = data;
    for (size_t left = len; left > 0;) {
        ssize_t done = write(fd, p, left);
        if (done <= 0)
            fz_fail("write memfd: %s", strerror(errno));
        p += done;
        left -= (size_t)done;
    }
    lseek(fd, 0, SEEK_SET);
    return fd;
}

int fz_chunked_fd(const void *data, size_t len, unsigned max_pieces, uint32_t seed)
{
    if (len == 0 || len > SOCKET_BYTES || max_pieces < 2)
        return memory_fd(data, len);
    /* A sequenced-packet socket keeps message boundaries: each read returns
     * exactly one piece. */
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
        fz_fail("socketpair: %s", strerror(errno));
    int size = 4 << 20;
    setsockopt(pair[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    uint32_t state = seed | 1u;
    size_t cuts[64];
    size_t count = 1 + next_random(&state) % (max_pieces > 64 ? 64 : max_pieces);
    for (size_t i = 0; i + 1 < count; i++)
        cuts[i] = next_random(&state) % len;
    cuts[count - 1] = len;
    qsort(cuts, count, sizeof *cuts, compare_size);
    const char *p = data;
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        if (cuts[i] == at)
            continue; /* an empty message would read as end of file */
        if (send(pair[1], p + at, cuts[i] - at, MSG_DONTWAIT) != (ssize_t)(cuts[i] - at)) {
            /* The socket buffer is smaller than this system allows here. */
            close(pair[0]);
            close(pair[1]);
            return memory_fd(data, len);
        }
        at = cuts[i];
    }
    close(pair[1]);
    return pair[0];
}

static void check_metrics(const char *name, const aorta_metrics_t *metrics)
{
    for (size_t i = 0; i < aorta_metrics_count(metrics); i++) {
        const aorta_metric_t *m = aorta_metrics_at(metrics, i);
        if (m->type == AORTA_METRIC_DOUBLE && (!isfinite(m->double_value) || m->double_value < 0))
            fz_fail("%s = %g", m->key, m->double_value);
        if (m->type == AORTA_METRIC_INT && m->int_value < 0)
            fz_fail("%s = %lld", m->key, (long long)m->int_value);
        if (m->type == AORTA_METRIC_STRINGS && m->string_count > 5)
            fz_fail("%s has %zu names", m->key, m->string_count);
    }
    char top_key[64], total_key[64];
    snprintf(top_key, sizeof top_key, "%s_top_kernel_ms", name);
    snprintf(total_key, sizeof total_key, "%s_gpu_time_ms", name);
    if ((aorta_metrics_find(metrics, top_key) == NULL)
        != (aorta_metrics_find(metrics, total_key) == NULL))
        fz_fail("%s and %s come together", top_key, total_key);
}

void fz_parse_collector(const struct aorta_collector *collector, const char *const *paths,
                        const uint8_t *data, size_t size)
{
    fz_remove("");
    for (size_t i = 0; paths[i]; i++) {
        char *rel = ar_xasprintf("out/%s", paths[i]);
        fz_write(rel, data, size);
        free(rel);
    }
    char *dir = fz_path("out");
    char *prefix = ar_xasprintf("%s_", collector->name);
    char *artifact_key = ar_xasprintf("%s_artifact_dir", collector->name);
    aorta_options_t *options = aorta_options_new();
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    collector->parse(options, dir, metrics);
    if (!aorta_metrics_find(metrics, artifact_key))
        fz_fail("no %s for an existing directory", artifact_key);
    check_metrics(collector->name, metrics);
    aorta_metrics_free(metrics);
    aorta_options_free(options);
    free(artifact_key);
    free(prefix);
    free(dir);
}
