/* SPDX-License-Identifier: MIT */
/* kernel_file.c - a trial's kernel tables as JSON: per collector the raw
 * names, totals and launches as three arrays in first-seen order, and in
 * a multi-rank trial each rank's table the same way in "ranks" (schema 3;
 * 2 is 3 without ranks); schema 1, an object of [total, launches] pairs
 * keyed by the raw name, is still read. */
#include "config.h"

#include "record/kernel_file.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sys/files.h"
#include "xalloc.h"

char *ar_kernel_file_path(const char *trial_json_path)
{
    size_t len = strlen(trial_json_path);
    if (len >= 5 && !strcmp(trial_json_path + len - 5, ".json"))
        len -= 5;
    return ar_xasprintf("%.*s.kernels.json", (int)len, trial_json_path);
}

ar_json_t *ar_kernel_file_new(int trial_index)
{
    ar_json_t *file = ar_json_object();
    ar_json_set(file, "schema_version", ar_json_int(AR_KERNEL_FILE_SCHEMA));
    ar_json_set(file, "trial_index", ar_json_int(trial_index));
    ar_json_set(file, "collectors", ar_json_object());
    return file;
}

/* One table's columns from the name-keyed object: json-c has merged the
 * names that are one key (cut at a NUL, U+FFFD for what is not UTF-8), the
 * first one's place with the last one's figures, as schema 1 kept them. */
typedef struct columns {
    ar_json_t *names, *total_ms, *launches;
} columns_t;

static int add_column_row(const char *name, ar_json_t *row, void *user)
{
    columns_t *columns = user;
    ar_json_append(columns->names, ar_json_string(name));
    ar_json_append(columns->total_ms, ar_json_ref(ar_json_at(row, 0)));
    ar_json_append(columns->launches, ar_json_ref(ar_json_at(row, 1)));
    return 0;
}

/* One table as {"names", "total_ms", "launches"}. */
static ar_json_t *table_columns(const aorta_kernels_t *kernels)
{
    ar_json_t *table = ar_json_object();
    for (size_t i = 0; i < aorta_kernels_count(kernels); i++) {
        double ms = aorta_kernels_time_at(kernels, i);
        int64_t count = aorta_kernels_launches_at(kernels, i);
        if (!isfinite(ms))
            continue;
        ar_json_t *row = ar_json_array();
        ar_json_append(row, ar_json_double(ms));
        ar_json_append(row, count >= 0 ? ar_json_int(count) : NULL);
        ar_json_set(table, aorta_kernels_name_at(kernels, i, NULL), row);
    }
    /* Three arrays, not an object of pairs: a run holds millions of rows,
     * and an object of them is what json-c reads slowest (a hash table
     * grown and a pair allocated per row). */
    columns_t columns = {ar_json_array(), ar_json_array(), ar_json_array()};
    ar_json_foreach(table, add_column_row, &columns);
    ar_json_free(table);
    ar_json_t *entry = ar_json_object();
    ar_json_set(entry, "names", columns.names);
    ar_json_set(entry, "total_ms", columns.total_ms);
    ar_json_set(entry, "launches", columns.launches);
    return entry;
}

void ar_kernel_file_add(ar_json_t *file, const char *collector,
                           const aorta_kernels_t *kernels)
{
    if (!kernels)
        return;
    ar_json_set(ar_json_get(file, "collectors"), collector, table_columns(kernels));
}

void ar_kernel_file_add_rank(ar_json_t *file, const char *collector, long rank,
                                const aorta_kernels_t *kernels)
{
    ar_json_t *collectors = ar_json_get(file, "collectors");
    ar_json_t *entry = ar_json_get(collectors, collector);
    if (!entry) {
        entry = ar_json_object();
        ar_json_set(collectors, collector, entry);
    }
    ar_json_t *ranks = ar_json_get(entry, "ranks");
    if (!ranks) {
        ranks = ar_json_array();
        ar_json_set(entry, "ranks", ranks);
    }
    ar_json_t *table = kernels ? table_columns(kernels) : ar_json_object();
    if (!kernels) { /* a rank whose parse found no table: no kernels, not unknown */
        ar_json_set(table, "names", ar_json_array());
        ar_json_set(table, "total_ms", ar_json_array());
        ar_json_set(table, "launches", ar_json_array());
    }
    ar_json_set(table, "rank", ar_json_int(rank));
    ar_json_append(ranks, table);
}

int ar_kernel_file_write_at(int dir_fd, const char *name, const ar_json_t *file,
                               char **error)
{
    if (ar_json_write_line_at(dir_fd, name, file, 0) == 0)
        return 0;
    *error = ar_xstrdup(strerror(errno));
    return -1;
}

const ar_json_t *ar_kernel_file_collectors(const ar_json_t *json, int *schema)
{
    const ar_json_t *version = ar_json_get(json, "schema_version");
    const ar_json_t *collectors = ar_json_get(json, "collectors");
    int64_t number = ar_json_type(version) == AR_JSON_INT ? ar_json_get_int(version) : 0;
    if ((number < 1 || number > AR_KERNEL_FILE_SCHEMA)
        || ar_json_type(collectors) != AR_JSON_OBJECT)
        return NULL;
    *schema = (int)number;
    return collectors;
}
