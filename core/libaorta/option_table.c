/* SPDX-License-Identifier: MIT */
/* option_table.c - the whole validate() of a collector whose options are
 * exactly what its option table says: known keys, allowed values, defaults.
 * Worded as upstream's collectors word their messages. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "xalloc.h"

static int by_bytes(const void *left, const void *right)
{
    return strcmp(*(const char *const *)left, *(const char *const *)right);
}

static int allowed(const aorta_option_spec_t *spec, const char *value)
{
    for (const char *const *v = spec->values; *v; v++)
        if (strcmp(*v, value) == 0)
            return 1;
    return 0;
}

/* "NAME option 'KEY': 'VALUE' is not one of ['a', 'b']", values sorted. */
static void refuse_value(const aorta_option_spec_t *spec, const char *value, const char *name,
                         aorta_error_t *err)
{
    size_t count = 0;
    while (spec->values[count])
        count++;
    const char **sorted = ar_xcalloc(count + 1, sizeof *sorted);
    memcpy(sorted, spec->values, count * sizeof *sorted);
    qsort(sorted, count, sizeof *sorted, by_bytes);
    char *key = aorta_text_repr(spec->key, strlen(spec->key));
    char *given = aorta_text_repr(value, strlen(value));
    char *list = aorta_text_repr_list(sorted, count);
    aorta_error_set(err, "%s option %s: %s is not one of %s", name, key, given, list);
    free(list);
    free(given);
    free(key);
    free(sorted);
}

int aorta_options_apply_table(aorta_options_t *options, const aorta_option_spec_t *table,
                              const char *name, aorta_error_t *err)
{
    if (!options || !table || !name)
        return -1;
    if (aorta_options_check_keys(options, table, name, err) != 0)
        return -1;
    for (const aorta_option_spec_t *spec = table; spec->key; spec++) {
        const char *value = aorta_options_get(options, spec->key);
        if (value && spec->values && !allowed(spec, value)) {
            refuse_value(spec, value, name, err);
            return -1;
        }
    }
    for (const aorta_option_spec_t *spec = table; spec->key; spec++)
        if (spec->default_value && !aorta_options_get(options, spec->key))
            aorta_options_set(options, spec->key, spec->default_value);
    return 0;
}
