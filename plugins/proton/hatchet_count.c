/* SPDX-License-Identifier: MIT */
/* hatchet_count.c - one profile's leaves into the run's totals.
 *
 * The file is read whole (its bytes, about its size in memory) and split a
 * node at a time (hatchet_split.c); where the split is unsure, the whole
 * value is read from the same bytes as before (hatchet_read.c).  The
 * leaves go to a table of the file's own first, so a file found unreadable
 * half way through adds nothing; its per-kernel sums are then added as one
 * row each, which gives the run the same totals: each file is summed on its
 * own before the run's totals (docs/collectors/proton.md). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hatchet.h"
#include "proton.h"

/* json_tokener_parse_ex() takes an int length. */
#define FEED_MAX ((size_t)1 << 30)

/* The file's bytes, or NULL when it cannot be read (or held). */
static unsigned char *read_whole(int fd, size_t *len)
{
    struct stat st;
    size_t cap = 64 * 1024;
    /* One byte more than the size, so the read that sees the end needs no
     * room of its own. */
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0
        && (uintmax_t)st.st_size < SIZE_MAX / 2)
        cap = (size_t)st.st_size + 1;
    unsigned char *data = malloc(cap);
    size_t have = 0;
    while (data) {
        if (have == cap) {
            unsigned char *more = cap < SIZE_MAX / 2 ? realloc(data, cap * 2) : NULL;
            if (!more)
                break;
            data = more;
            cap *= 2;
        }
        ssize_t n = read(fd, data + have, cap - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            *len = have;
            return data;
        }
        if (n < 0)
            break;
        have += (size_t)n;
    }
    free(data);
    return NULL;
}

/* Add a file's sums to the run's, in the order the file first saw them. */
static void add_file(aorta_kernels_t *kernels, const aorta_kernels_t *file)
{
    for (size_t i = 0; i < aorta_kernels_count(file); i++) {
        size_t len;
        const char *name = aorta_kernels_name_at(file, i, &len);
        aorta_kernels_add(kernels, name, len, aorta_kernels_time_at(file, i),
                          aorta_kernels_launches_at(file, i));
    }
}

int proton_hatchet_count(int fd, aorta_kernels_t *kernels)
{
    size_t len;
    unsigned char *data = read_whole(fd, &len);
    if (!data)
        return -1;
    /* As Python's strict decoder (and the whole read) would. */
    int truncated;
    if (aorta_utf8_valid_prefix(data, len, &truncated, NULL) != len) {
        free(data);
        return -1;
    }
    aorta_kernels_t *file = aorta_kernels_new(0);
    proton_split_t split = proton_hatchet_split(data, len, file, FEED_MAX);
    if (split == PROTON_SPLIT_UNSURE) {
        aorta_kernels_free(file);
        file = aorta_kernels_new(0);
        struct json_object *root = proton_hatchet_read_bytes(data, len);
        free(data);
        data = NULL;
        split = root ? PROTON_SPLIT_OK : PROTON_SPLIT_REFUSED;
        if (root) {
            proton_hatchet_walk(root, file);
            proton_json_free(root);
        }
    }
    free(data);
    if (split == PROTON_SPLIT_OK)
        add_file(kernels, file);
    aorta_kernels_free(file);
    return split == PROTON_SPLIT_OK ? 0 : -1;
}
