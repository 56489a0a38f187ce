/* SPDX-License-Identifier: MIT */
/* metrics.c - the sink a collector's parse() reports its metrics into. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sdk.h"
#include "xalloc.h"

/* The keys outside its prefix a sink names in a warning each; past them,
 * one warning says that more were dropped. */
#define DROPS_NAMED 16

/* What a sink with a prefix keeps beyond struct aorta_metrics, whose layout
 * the ABI baseline (tests/abi/libaorta.abi) holds: the prefix's allocation
 * carries the keys dropped so far. */
typedef struct sink_extra {
    ar_strmap_t dropped; /* keys outside the prefix, each warned about once */
    int more;               /* past DROPS_NAMED: warned about once */
    char prefix[];
} sink_extra_t;

static sink_extra_t *extra_of(const aorta_metrics_t *metrics)
{
    return (sink_extra_t *)(metrics->prefix - offsetof(sink_extra_t, prefix));
}

aorta_metrics_t *aorta_metrics_new(const char *prefix)
{
    aorta_metrics_t *metrics = ar_xcalloc(1, sizeof *metrics);
    if (prefix) {
        size_t len = strlen(prefix);
        sink_extra_t *extra = ar_xcalloc(1, sizeof *extra + len + 1);
        memcpy(extra->prefix, prefix, len + 1);
        metrics->prefix = extra->prefix;
    }
    return metrics;
}

static void metric_release_value(aorta_metric_t *metric)
{
    free(metric->string_value);
    for (size_t i = 0; i < metric->string_count; i++)
        free(metric->strings[i]);
    free(metric->strings);
    free(metric->string_lengths);
    metric->string_value = NULL;
    metric->strings = NULL;
    metric->string_lengths = NULL;
    metric->string_count = 0;
}

void aorta_metrics_free(aorta_metrics_t *metrics)
{
    if (!metrics)
        return;
    for (size_t i = 0; i < metrics->count; i++) {
        metric_release_value(&metrics->items[i]);
        free(metrics->items[i].key);
    }
    free(metrics->items);
    ar_keyindex_clear(&metrics->index);
    aorta_kernels_free(metrics->kernels);
    aorta_dispatches_free(metrics->dispatches);
    aorta_env_free(metrics->env);
    if (metrics->prefix) {
        sink_extra_t *extra = extra_of(metrics);
        ar_strmap_clear(&extra->dropped);
        free(extra);
    }
    free(metrics);
}

size_t aorta_metrics_count(const aorta_metrics_t *metrics)
{
    return metrics->count;
}

const aorta_metric_t *aorta_metrics_at(const aorta_metrics_t *metrics, size_t index)
{
    return index < metrics->count ? &metrics->items[index] : NULL;
}

const aorta_metric_t *aorta_metrics_find(const aorta_metrics_t *metrics, const char *key)
{
    size_t position = ar_keyindex_find(&metrics->index, key);
    return position == AR_KEYINDEX_NONE ? NULL : &metrics->items[position];
}

/* A key outside the prefix is a collector's mistake that would otherwise
 * go unseen: one warning per key and sink (one parse), from the collector
 * the prefix names ("<name>_"), the first DROPS_NAMED keys by name, then
 * one for the rest. */
static void warn_dropped(aorta_metrics_t *metrics, const char *key)
{
    const char *prefix = metrics->prefix;
    if (!prefix || !prefix[0])
        return;
    sink_extra_t *extra = extra_of(metrics);
    if (extra->more || ar_strmap_find(&extra->dropped, key) != (size_t)-1)
        return;
    size_t name_len = strlen(prefix);
    if (prefix[name_len - 1] == '_')
        name_len--;
    char *source = ar_xstrndup(prefix, name_len);
    if (extra->dropped.count < DROPS_NAMED) {
        ar_strmap_set(&extra->dropped, key, "");
        char *shown = aorta_text_repr(key, strlen(key));
        aorta_warn(source, "dropped the metric %s: outside the prefix '%s'", shown, prefix);
        free(shown);
    } else {
        extra->more = 1;
        aorta_warn(source, "dropped more metrics outside the prefix '%s' (the first %d are "
                           "named above)", prefix, DROPS_NAMED);
    }
    free(source);
}

/* The slot for key (emptied, keeping its position), or NULL when the key is
 * outside the sink's namespace (with a warning, key given). */
static aorta_metric_t *metric_slot(aorta_metrics_t *metrics, const char *key)
{
    size_t prefix_len = metrics->prefix ? strlen(metrics->prefix) : 0;
    if (!key)
        return NULL;
    if (strncmp(key, metrics->prefix ? metrics->prefix : "", prefix_len) != 0
        || key[prefix_len] == '\0') {
        warn_dropped(metrics, key);
        return NULL;
    }
    aorta_metric_t *metric = (aorta_metric_t *)aorta_metrics_find(metrics, key);
    if (metric) {
        metric_release_value(metric);
        return metric;
    }
    ar_xgrow((void **)&metrics->items, &metrics->capacity, metrics->count + 1,
                sizeof *metrics->items);
    metric = &metrics->items[metrics->count++];
    memset(metric, 0, sizeof *metric);
    metric->key = ar_xstrdup(key);
    ar_keyindex_add(&metrics->index, metric->key, metrics->count - 1);
    return metric;
}

int aorta_metrics_set_int(aorta_metrics_t *metrics, const char *key, int64_t value)
{
    aorta_metric_t *metric = metric_slot(metrics, key);
    if (!metric)
        return -1;
    metric->type = AORTA_METRIC_INT;
    metric->int_value = value;
    return 0;
}

int aorta_metrics_set_double(aorta_metrics_t *metrics, const char *key, double value)
{
    if (!isfinite(value))
        return -1;
    aorta_metric_t *metric = metric_slot(metrics, key);
    if (!metric)
        return -1;
    metric->type = AORTA_METRIC_DOUBLE;
    metric->double_value = value;
    return 0;
}

int aorta_metrics_set_string(aorta_metrics_t *metrics, const char *key, const char *value)
{
    if (!value)
        return -1;
    aorta_metric_t *metric = metric_slot(metrics, key);
    if (!metric)
        return -1;
    metric->type = AORTA_METRIC_STRING;
    metric->string_value = ar_xstrdup(value);
    return 0;
}

int aorta_metrics_set_strings_n(aorta_metrics_t *metrics, const char *key,
                                const char *const *values, const size_t *lengths, size_t count)
{
    if (count && (!values || !lengths))
        return -1;
    for (size_t i = 0; i < count; i++)
        if (!values[i])
            return -1;
    aorta_metric_t *metric = metric_slot(metrics, key);
    if (!metric)
        return -1;
    metric->type = AORTA_METRIC_STRINGS;
    metric->strings = ar_xcalloc(count ? count : 1, sizeof *metric->strings);
    metric->string_lengths = ar_xcalloc(count ? count : 1, sizeof *metric->string_lengths);
    for (size_t i = 0; i < count; i++) {
        metric->strings[i] = ar_xstrndup(values[i], lengths[i]);
        metric->string_lengths[i] = lengths[i];
    }
    metric->string_count = count;
    return 0;
}

int aorta_metrics_set_strings(aorta_metrics_t *metrics, const char *key,
                              const char *const *values, size_t count)
{
    if (count && !values)
        return -1;
    size_t *lengths = ar_xcalloc(count ? count : 1, sizeof *lengths);
    for (size_t i = 0; i < count; i++)
        lengths[i] = values[i] ? strlen(values[i]) : 0;
    int status = aorta_metrics_set_strings_n(metrics, key, values, lengths, count);
    free(lengths);
    return status;
}

const aorta_env_t *aorta_metrics_env(const aorta_metrics_t *metrics)
{
    return metrics ? metrics->env : NULL;
}

int aorta_metrics_set_env(aorta_metrics_t *metrics, const aorta_env_t *env)
{
    if (!metrics)
        return -1;
    aorta_env_t *copy = env ? aorta_env_dup(env) : NULL;
    aorta_env_free(metrics->env);
    metrics->env = copy;
    return 0;
}
