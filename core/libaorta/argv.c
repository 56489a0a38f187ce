/* SPDX-License-Identifier: MIT */
/* argv.c - argument vectors, always NULL-terminated so they can be exec'd. */
#include "config.h"

#include <stdlib.h>

#include "sdk.h"
#include "xalloc.h"

aorta_argv_t *aorta_argv_new(void)
{
    aorta_argv_t *argv = ar_xcalloc(1, sizeof *argv);
    ar_xgrow((void **)&argv->items, &argv->capacity, 1, sizeof *argv->items);
    argv->items[0] = NULL;
    return argv;
}

aorta_argv_t *aorta_argv_from(char *const *items, size_t count)
{
    aorta_argv_t *argv = aorta_argv_new();
    for (size_t i = 0; items && i < count; i++)
        aorta_argv_push(argv, items[i]);
    return argv;
}

aorta_argv_t *aorta_argv_dup(const aorta_argv_t *argv)
{
    return aorta_argv_from(argv->items, argv->count);
}

void aorta_argv_free(aorta_argv_t *argv)
{
    if (!argv)
        return;
    for (size_t i = 0; i < argv->count; i++)
        free(argv->items[i]);
    free(argv->items);
    free(argv);
}

char *const *aorta_argv_items(const aorta_argv_t *argv)
{
    return argv->items;
}

size_t aorta_argv_count(const aorta_argv_t *argv)
{
    return argv->count;
}

const char *aorta_argv_at(const aorta_argv_t *argv, size_t index)
{
    return index < argv->count ? argv->items[index] : NULL;
}

int aorta_argv_push(aorta_argv_t *argv, const char *arg)
{
    if (!argv || !arg)
        return -1;
    ar_xgrow((void **)&argv->items, &argv->capacity, argv->count + 2, sizeof *argv->items);
    argv->items[argv->count++] = ar_xstrdup(arg);
    argv->items[argv->count] = NULL;
    return 0;
}

int aorta_argv_push_from(aorta_argv_t *argv, const aorta_argv_t *from, size_t start)
{
    if (!argv || !from)
        return -1;
    /* from may be argv itself: its count is read once, before it grows. */
    size_t end = from->count;
    for (size_t i = start; i < end; i++)
        aorta_argv_push(argv, from->items[i]);
    return 0;
}

int aorta_argv_push_all(aorta_argv_t *argv, const aorta_argv_t *from)
{
    return aorta_argv_push_from(argv, from, 0);
}
