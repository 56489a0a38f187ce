/* SPDX-License-Identifier: MIT */
/* metric_table.c - reading a collector's metric table (ABI 1.2): which rows
 * declare something, and the row that declares a metric.  The rules live
 * here so that aorta-run and a collector's own tests hold a table to the
 * same ones. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "xalloc.h"

/* The table, or NULL when the collector has none or is too old to have one:
 * what a collector older than 1.2 has in that place is reserved space. */
static const aorta_metric_spec_t *table_of(const struct aorta_collector *collector)
{
    if (!collector || collector->abi_minor < 2)
        return NULL;
    return collector->metrics;
}

size_t aorta_collector_metric_count(const struct aorta_collector *collector)
{
    const aorta_metric_spec_t *table = table_of(collector);
    size_t count = 0;
    while (table && table[count].key)
        count++;
    return count;
}

const aorta_metric_spec_t *aorta_collector_metric_at(const struct aorta_collector *collector,
                                                     size_t index)
{
    return index < aorta_collector_metric_count(collector) ? &table_of(collector)[index] : NULL;
}

/* UTF-8 without a C0 or C1 control character (NULL is "not set"). */
static int printable(const char *text)
{
    if (!text)
        return 1;
    size_t len = strlen(text);
    if (aorta_utf8_valid_prefix(text, len, NULL, NULL) != len)
        return 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
            return 0;
    return 1;
}

static int has_prefix(const char *key, const char *name)
{
    size_t len = name ? strlen(name) : 0;
    return name && strncmp(key, name, len) == 0 && key[len] == '_' && key[len + 1] != '\0';
}

typedef enum refusal {
    DECLARES = 0,
    OUTSIDE_PREFIX,
    DECLARED_AGAIN,
    UNKNOWN_BETTER,
    BAD_UNIT,
    BAD_HELP
} refusal_t;

/* Why row index declares nothing (with the earlier row of a repeated key
 * in *first), or DECLARES. */
static refusal_t refusal(const struct aorta_collector *collector, size_t index, size_t *first)
{
    const aorta_metric_spec_t *row = &table_of(collector)[index];
    if (!has_prefix(row->key, collector->name))
        return OUTSIDE_PREFIX;
    for (size_t i = 0; i < index; i++)
        if (strcmp(table_of(collector)[i].key, row->key) == 0) {
            *first = i;
            return DECLARED_AGAIN;
        }
    if (row->better != AORTA_BETTER_NONE && row->better != AORTA_BETTER_LOWER
        && row->better != AORTA_BETTER_HIGHER)
        return UNKNOWN_BETTER;
    if (!printable(row->unit))
        return BAD_UNIT;
    if (!printable(row->help))
        return BAD_HELP;
    return DECLARES;
}

static void explain(const struct aorta_collector *collector, size_t index, refusal_t why,
                    size_t first, aorta_error_t *err)
{
    const aorta_metric_spec_t *row = &table_of(collector)[index];
    char *key = ar_xcheck(aorta_text_repr(row->key, strlen(row->key)));
    switch (why) {
    case OUTSIDE_PREFIX:
        aorta_error_set(err, "metric row %zu %s: not named %s_* (a key is the whole metric name)",
                        index, key, collector->name ? collector->name : "<name>");
        break;
    case DECLARED_AGAIN:
        aorta_error_set(err, "metric row %zu %s: declared already in row %zu", index, key, first);
        break;
    case UNKNOWN_BETTER:
        aorta_error_set(err,
                        "metric row %zu %s: better is %d, not AORTA_BETTER_NONE, "
                        "AORTA_BETTER_LOWER or AORTA_BETTER_HIGHER",
                        index, key, (int)row->better);
        break;
    case BAD_UNIT:
    case BAD_HELP:
        aorta_error_set(err, "metric row %zu %s: its %s is not printable UTF-8", index, key,
                        why == BAD_UNIT ? "unit" : "help");
        break;
    case DECLARES:
        break;
    }
    free(key);
}

int aorta_collector_metric_check(const struct aorta_collector *collector, size_t index,
                                 aorta_error_t *err)
{
    if (index >= aorta_collector_metric_count(collector)) {
        if (err)
            aorta_error_set(err, "no metric row %zu", index);
        return -1;
    }
    size_t first = 0;
    refusal_t why = refusal(collector, index, &first);
    if (why == DECLARES)
        return 0;
    if (err)
        explain(collector, index, why, first, err);
    return -1;
}

const aorta_metric_spec_t *aorta_collector_metric_find(const struct aorta_collector *collector,
                                                       const char *key)
{
    size_t count = aorta_collector_metric_count(collector), first = 0;
    for (size_t i = 0; key && i < count; i++)
        if (strcmp(table_of(collector)[i].key, key) == 0)
            return refusal(collector, i, &first) == DECLARES ? &table_of(collector)[i] : NULL;
    return NULL;
}
