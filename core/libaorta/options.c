/* SPDX-License-Identifier: MIT */
/* options.c - the option map a collector's validate/wrap/env/parse receive. */
#include "config.h"

#include <stdlib.h>

#include "sdk.h"
#include "xalloc.h"

aorta_options_t *aorta_options_new(void)
{
    aorta_options_t *options = ar_xcalloc(1, sizeof *options);
    ar_strmap_init(&options->map);
    return options;
}

aorta_options_t *aorta_options_dup(const aorta_options_t *options)
{
    aorta_options_t *copy = aorta_options_new();
    if (options)
        ar_strmap_copy(&copy->map, &options->map);
    return copy;
}

void aorta_options_free(aorta_options_t *options)
{
    if (!options)
        return;
    ar_strmap_clear(&options->map);
    free(options);
}

size_t aorta_options_count(const aorta_options_t *options)
{
    return options->map.count;
}

const char *aorta_options_key_at(const aorta_options_t *options, size_t index)
{
    return index < options->map.count ? options->map.entries[index].key : NULL;
}

const char *aorta_options_value_at(const aorta_options_t *options, size_t index)
{
    return index < options->map.count ? options->map.entries[index].value : NULL;
}

const char *aorta_options_get(const aorta_options_t *options, const char *key)
{
    return ar_strmap_get(&options->map, key);
}

int aorta_options_set(aorta_options_t *options, const char *key, const char *value)
{
    if (!options || !key || !value)
        return -1;
    ar_strmap_set(&options->map, key, value);
    return 0;
}

void aorta_options_unset(aorta_options_t *options, const char *key)
{
    ar_strmap_unset(&options->map, key);
}

void aorta_options_clear(aorta_options_t *options)
{
    ar_strmap_clear(&options->map);
}
