/* SPDX-License-Identifier: MIT */
/* metrics_json.c - a metrics sink to and from JSON. */
#include "config.h"

#include "record/metrics_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "sys/sha256.h"
#include "xalloc.h"

char *ar_metric_text_cut(const char *text, size_t len, size_t *out_len)
{
    if (len <= AR_METRIC_TEXT_MAX)
        return NULL;
    char digest[65];
    ar_sha256_t sha;
    ar_sha256_init(&sha);
    ar_sha256_update(&sha, text, len);
    ar_sha256_hex(&sha, digest);
    size_t keep = AR_METRIC_TEXT_MAX - 32;
    while (keep > 0 && ((unsigned char)text[keep] & 0xC0) == 0x80)
        keep--; /* not inside a character */
    char *cut = ar_xmalloc(keep + 22);
    memcpy(cut, text, keep);
    int tail = snprintf(cut + keep, 22, "...#%.16s", digest);
    *out_len = keep + (size_t)tail;
    return cut;
}

/* A list of strings, each cut to fit. */
static ar_json_t *strings_json(const aorta_metric_t *metric)
{
    size_t count = metric->string_count;
    char **items = ar_xcalloc(count ? count : 1, sizeof *items);
    size_t *lengths = ar_xcalloc(count ? count : 1, sizeof *lengths);
    char **cuts = ar_xcalloc(count ? count : 1, sizeof *cuts);
    for (size_t i = 0; i < count; i++) {
        lengths[i] = metric->string_lengths ? metric->string_lengths[i]
                                            : strlen(metric->strings[i]);
        cuts[i] = ar_metric_text_cut(metric->strings[i], lengths[i], &lengths[i]);
        items[i] = cuts[i] ? cuts[i] : (char *)metric->strings[i];
    }
    ar_json_t *list = ar_json_strings_n(items, lengths, count);
    for (size_t i = 0; i < count; i++)
        free(cuts[i]);
    free(cuts);
    free(lengths);
    free(items);
    return list;
}

ar_json_t *ar_metrics_to_json(const aorta_metrics_t *metrics)
{
    ar_json_t *obj = ar_json_object();
    for (size_t i = 0; i < aorta_metrics_count(metrics); i++) {
        const aorta_metric_t *metric = aorta_metrics_at(metrics, i);
        ar_json_t *value = NULL;
        switch (metric->type) {
        case AORTA_METRIC_INT:
            value = ar_json_int(metric->int_value);
            break;
        case AORTA_METRIC_DOUBLE:
            value = ar_json_double(metric->double_value);
            break;
        case AORTA_METRIC_STRING: {
            size_t len = strlen(metric->string_value);
            char *cut = ar_metric_text_cut(metric->string_value, len, &len);
            value = ar_json_string(cut ? cut : metric->string_value);
            free(cut);
            break;
        }
        case AORTA_METRIC_STRINGS:
            value = strings_json(metric);
            break;
        }
        ar_json_set(obj, metric->key, value);
    }
    return obj;
}

typedef struct from_json {
    aorta_metrics_t *metrics;
    int failed;
} from_json_t;

static int add_member(const char *key, ar_json_t *value, void *user)
{
    from_json_t *state = user;
    int status = -1;
    switch (ar_json_type(value)) {
    case AR_JSON_INT:
        status = aorta_metrics_set_int(state->metrics, key, ar_json_get_int(value));
        break;
    case AR_JSON_DOUBLE:
        status = aorta_metrics_set_double(state->metrics, key, ar_json_get_double(value));
        break;
    case AR_JSON_STRING:
        status = aorta_metrics_set_string(state->metrics, key, ar_json_get_string(value));
        break;
    case AR_JSON_ARRAY: {
        size_t count = ar_json_length(value);
        const char **items = ar_xcalloc(count ? count : 1, sizeof *items);
        size_t *lengths = ar_xcalloc(count ? count : 1, sizeof *lengths);
        status = 0;
        for (size_t i = 0; i < count && status == 0; i++) {
            items[i] = ar_json_get_string_len(ar_json_at(value, i), &lengths[i]);
            if (!items[i])
                status = -1;
        }
        /* Lengths kept: a kernel name may hold a NUL. */
        if (status == 0)
            status = aorta_metrics_set_strings_n(state->metrics, key, items, lengths, count);
        free(lengths);
        free(items);
        break;
    }
    default:
        break;
    }
    if (status != 0)
        state->failed = 1;
    return state->failed;
}

int ar_metrics_from_json(aorta_metrics_t *metrics, const ar_json_t *obj)
{
    if (ar_json_type(obj) != AR_JSON_OBJECT)
        return -1;
    from_json_t state = {metrics, 0};
    ar_json_foreach(obj, add_member, &state);
    return state.failed ? -1 : 0;
}
