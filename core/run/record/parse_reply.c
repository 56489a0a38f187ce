/* SPDX-License-Identifier: MIT */
/* parse_reply.c - the parse child's reply.  The table travels as rows of
 * three, not as an object keyed by name: a name may hold anything, and rows
 * keep the first-seen order without relying on the JSON library's. */
#include "config.h"

#include "record/parse_reply.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/metrics_json.h"

aorta_json_t *aorta_parse_reply_to_json(const aorta_metrics_t *metrics)
{
    aorta_json_t *reply = aorta_json_object();
    aorta_json_set(reply, "metrics", aorta_metrics_to_json(metrics));
    const aorta_kernels_t *kernels = aorta_metrics_kernels(metrics);
    if (!kernels)
        return reply;
    aorta_json_t *rows = aorta_json_array();
    for (size_t i = 0; i < aorta_kernels_count(kernels); i++) {
        double ms = aorta_kernels_time_at(kernels, i);
        int64_t launches = aorta_kernels_launches_at(kernels, i);
        /* JSON has no infinity: an overflowed total is not a number to show. */
        if (!isfinite(ms))
            continue;
        aorta_json_t *row = aorta_json_array();
        aorta_json_append(row, aorta_json_string(aorta_kernels_name_at(kernels, i, NULL)));
        aorta_json_append(row, aorta_json_double(ms));
        aorta_json_append(row, launches >= 0 ? aorta_json_int(launches) : NULL);
        aorta_json_append(rows, row);
    }
    aorta_json_set(reply, "kernels", rows);
    return reply;
}

static int number(const aorta_json_t *value, double *out)
{
    aorta_json_type_t type = aorta_json_type(value);
    if (type != AORTA_JSON_INT && type != AORTA_JSON_DOUBLE)
        return -1;
    *out = aorta_json_get_double(value);
    return isfinite(*out) && *out >= 0 ? 0 : -1;
}

int aorta_parse_reply_from_json(aorta_metrics_t *metrics, const aorta_json_t *reply)
{
    if (aorta_json_type(reply) != AORTA_JSON_OBJECT
        || aorta_metrics_from_json(metrics, aorta_json_get(reply, "metrics")) != 0)
        return -1;
    const aorta_json_t *rows = aorta_json_get(reply, "kernels");
    if (!rows)
        return 0;
    if (aorta_json_type(rows) != AORTA_JSON_ARRAY)
        return -1;
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    int status = 0;
    for (size_t i = 0; i < aorta_json_length(rows) && status == 0; i++) {
        const aorta_json_t *row = aorta_json_at(rows, i);
        const char *name = aorta_json_get_string(aorta_json_at(row, 0));
        const aorta_json_t *count = aorta_json_at(row, 2);
        double ms;
        if (aorta_json_type(row) != AORTA_JSON_ARRAY || aorta_json_length(row) != 3 || !name
            || number(aorta_json_at(row, 1), &ms) != 0
            || (count && aorta_json_type(count) != AORTA_JSON_INT)) {
            status = -1;
            break;
        }
        int64_t launches = count ? aorta_json_get_int(count) : -1;
        /* As it will be written: names that differ only in invalid bytes
         * are one kernel (summed) now, not on a later read. */
        char *fixed = aorta_json_utf8_or_null(name);
        if (fixed)
            name = fixed;
        status = aorta_kernels_add(kernels, name, strlen(name), ms, launches < 0 ? -1 : launches);
        free(fixed);
    }
    if (status == 0)
        aorta_metrics_set_kernels(metrics, kernels, 1.0);
    aorta_kernels_free(kernels);
    return status;
}
