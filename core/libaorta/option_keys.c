/* SPDX-License-Identifier: MIT */
/* option_keys.c - the unknown-option check a collector's validate() starts
 * with, worded as upstream's collectors word it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "xalloc.h"

static int compare_keys(const void *left, const void *right)
{
    return strcmp(*(const char *const *)left, *(const char *const *)right);
}

static int in_table(const aorta_option_spec_t *table, const char *key)
{
    for (const aorta_option_spec_t *spec = table; spec->key; spec++)
        if (strcmp(spec->key, key) == 0)
            return 1;
    return 0;
}

int aorta_options_check_keys(const aorta_options_t *options, const aorta_option_spec_t *table,
                             const char *name, aorta_error_t *err)
{
    size_t count = aorta_options_count(options), unknown_count = 0, valid_count = 0;
    const char **unknown = ar_xcalloc(count + 1, sizeof *unknown);
    for (size_t i = 0; i < count; i++) {
        const char *key = aorta_options_key_at(options, i);
        if (!in_table(table, key))
            unknown[unknown_count++] = key;
    }
    if (unknown_count == 0) {
        free(unknown);
        return 0;
    }
    /* sorted(): byte order of UTF-8 is code point order.  The map's keys
     * are unique already, so this is sorted(set()) too. */
    qsort(unknown, unknown_count, sizeof *unknown, compare_keys);
    while (table[valid_count].key)
        valid_count++;
    const char **valid = ar_xcalloc(valid_count + 1, sizeof *valid);
    for (size_t i = 0; i < valid_count; i++)
        valid[i] = table[i].key;
    char *unknown_text = ar_xcheck(aorta_text_repr_list(unknown, unknown_count));
    char *valid_text = ar_xcheck(aorta_text_repr_list(valid, valid_count));
    aorta_error_set(err, "%s: unknown option(s) %s; valid: %s", name, unknown_text, valid_text);
    free(valid_text);
    free(unknown_text);
    free(valid);
    free(unknown);
    return -1;
}
