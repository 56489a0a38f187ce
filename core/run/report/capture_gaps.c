/* SPDX-License-Identifier: MIT */
/* capture_gaps.c - cells whose collector captured nothing (capture_gaps.h). */
#include "config.h"

#include "report/capture_gaps.h"

#include <stdlib.h>
#include <string.h>

#include "sys/diag.h"
#include "xalloc.h"

static const char SUFFIX[] = "_gpu_time_ms";

/* A cell's mean GPU time of collector: > 0 when it
 * captured something, 0 when it captured nothing or reported no time. */
static double captured(const ar_json_t *cell, const char *collector)
{
    char *key = ar_xasprintf("%s%s", collector, SUFFIX);
    const ar_json_t *stats = ar_json_get(ar_json_get(cell, "metrics_summary"), key);
    free(key);
    const ar_json_t *mean = ar_json_get(stats, "mean");
    return mean ? ar_json_get_double(mean) : 0.0;
}

typedef struct names {
    ar_json_t *list; /* the collectors some cell has a GPU time of */
} names_t;

static int add_collector(const char *key, ar_json_t *value, void *user)
{
    (void)value;
    names_t *names = user;
    size_t len = strlen(key), cut = sizeof SUFFIX - 1;
    if (len <= cut || strcmp(key + len - cut, SUFFIX) != 0)
        return 0;
    char *collector = ar_xstrndup(key, len - cut);
    int seen = 0;
    for (size_t i = 0; i < ar_json_length(names->list); i++)
        seen |= !strcmp(ar_json_get_string(ar_json_at(names->list, i)), collector);
    if (!seen)
        ar_json_append(names->list, ar_json_string(collector));
    free(collector);
    return 0;
}

/* The cells' passing trials, from matrix.json's passed_count. */
static long long passing(const ar_json_t *cell)
{
    return (long long)ar_json_get_int(ar_json_get(cell, "passed_count"));
}

ar_json_t *ar_capture_gaps(const ar_json_t *matrix)
{
    const ar_json_t *cells = ar_json_get(matrix, "cells");
    names_t names = {ar_json_array()};
    for (size_t i = 0; i < ar_json_length(cells); i++)
        ar_json_foreach(ar_json_get(ar_json_at(cells, i), "metrics_summary"), add_collector,
                        &names);
    ar_json_t *lines = ar_json_array();
    for (size_t c = 0; c < ar_json_length(names.list); c++) {
        const char *collector = ar_json_get_string(ar_json_at(names.list, c));
        int some = 0;
        for (size_t i = 0; i < ar_json_length(cells); i++)
            some |= captured(ar_json_at(cells, i), collector) > 0.0;
        for (size_t i = 0; some && i < ar_json_length(cells); i++) {
            const ar_json_t *cell = ar_json_at(cells, i);
            if (passing(cell) <= 0 || captured(cell, collector) > 0.0)
                continue;
            char *line = ar_xasprintf("cell %s: %s captured nothing in any of its %lld passing "
                                      "trial(s), while other cells captured kernels",
                                      ar_json_get_string(ar_json_get(cell, "name")), collector,
                                      passing(cell));
            ar_json_append(lines, ar_json_string(line));
            free(line);
        }
    }
    ar_json_free(names.list);
    return lines;
}

void ar_capture_gaps_warn(const ar_json_t *matrix)
{
    ar_json_t *lines = ar_capture_gaps(matrix);
    for (size_t i = 0; i < ar_json_length(lines); i++)
        ar_diag_warn("%s (its GPU time is no data, not zero)",
                     ar_json_get_string(ar_json_at(lines, i)));
    ar_json_free(lines);
}
