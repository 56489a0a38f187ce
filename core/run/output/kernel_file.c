/* SPDX-License-Identifier: MIT */
/* kernel_file.c - a trial's kernel tables as JSON.  Keyed by the raw name
 * (the JSON key), so a reader finds a kernel across trials, cells and runs
 * without caring how it reads. */
#include "config.h"

#include "output/kernel_file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sys/files.h"
#include "xalloc.h"

char *aorta_kernel_file_path(const char *trial_json_path)
{
    size_t len = strlen(trial_json_path);
    if (len >= 5 && !strcmp(trial_json_path + len - 5, ".json"))
        len -= 5;
    return aorta_xasprintf("%.*s.kernels.json", (int)len, trial_json_path);
}

aorta_json_t *aorta_kernel_file_new(int trial_index)
{
    aorta_json_t *file = aorta_json_object();
    aorta_json_set(file, "schema_version", aorta_json_int(AORTA_KERNEL_FILE_SCHEMA));
    aorta_json_set(file, "trial_index", aorta_json_int(trial_index));
    aorta_json_set(file, "collectors", aorta_json_object());
    return file;
}

void aorta_kernel_file_add(aorta_json_t *file, const char *collector,
                           const aorta_kernels_t *kernels)
{
    if (!kernels)
        return;
    /* A pair per kernel, not an object: a run holds millions of rows, and
     * an object per row is what the JSON library reads slowest. */
    aorta_json_t *table = aorta_json_object();
    for (size_t i = 0; i < aorta_kernels_count(kernels); i++) {
        double ms = aorta_kernels_time_at(kernels, i);
        int64_t count = aorta_kernels_launches_at(kernels, i);
        if (!isfinite(ms))
            continue;
        aorta_json_t *row = aorta_json_array();
        aorta_json_append(row, aorta_json_double(ms));
        aorta_json_append(row, count >= 0 ? aorta_json_int(count) : NULL);
        aorta_json_set(table, aorta_kernels_name_at(kernels, i, NULL), row);
    }
    aorta_json_t *entry = aorta_json_object();
    aorta_json_set(entry, "kernels", table);
    aorta_json_set(aorta_json_get(file, "collectors"), collector, entry);
}

int aorta_kernel_file_write_at(int dir_fd, const char *name, const aorta_json_t *file)
{
    return aorta_json_write_line_at(dir_fd, name, file, 0);
}

const aorta_json_t *aorta_kernel_file_collectors(const aorta_json_t *json)
{
    const aorta_json_t *version = aorta_json_get(json, "schema_version");
    const aorta_json_t *collectors = aorta_json_get(json, "collectors");
    if (aorta_json_type(version) != AORTA_JSON_INT
        || aorta_json_get_int(version) != AORTA_KERNEL_FILE_SCHEMA
        || aorta_json_type(collectors) != AORTA_JSON_OBJECT)
        return NULL;
    return collectors;
}
