/* SPDX-License-Identifier: MIT */
/* hatchet_count.c - one .hatchet's leaves into the run's totals.
 *
 * The streaming reader (hatchet_stream.c) reads the file in one pass, in
 * fixed-size blocks; where it is unsure (it checked the file to its end as
 * Python's json would), the file is read again, whole, by json-c
 * (hatchet_read.c) and walked (hatchet_walk.c), as every reader of this
 * collector is tested against.  The leaves go to a table of the file's own
 * first, so a file found unreadable half way through adds nothing; its
 * per-kernel sums are then added as one row each, which gives the run the
 * same totals: each file is summed on its own before the run's totals
 * (docs/collectors/proton.md). */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "hatchet.h"
#include "json_stream.h"
#include "proton.h"

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

/* The json-c reader's leaves of the file, read from its start again. */
static proton_read_t read_whole(int fd, aorta_kernels_t *file)
{
    if (lseek(fd, 0, SEEK_SET) != 0)
        return PROTON_READ_REFUSED;
    errno = 0;
    struct json_object *root = proton_hatchet_read(fd);
    if (!root)
        return errno == ENOMEM ? PROTON_READ_NO_MEMORY : PROTON_READ_REFUSED;
    proton_hatchet_walk(root, file);
    proton_json_free(root);
    return PROTON_READ_OK;
}

proton_read_t proton_hatchet_count(int fd, aorta_kernels_t *kernels)
{
    aorta_kernels_t *file = cc_xcheck(aorta_kernels_new(0));
    proton_read_t status = proton_hatchet_stream(fd, file, JSON_STREAM_BLOCK);
    if (status == PROTON_READ_UNSURE) {
        aorta_kernels_free(file);
        file = cc_xcheck(aorta_kernels_new(0));
        status = read_whole(fd, file);
    }
    if (status == PROTON_READ_OK)
        add_file(kernels, file);
    aorta_kernels_free(file);
    return status;
}
