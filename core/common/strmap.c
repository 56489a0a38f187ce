/* SPDX-License-Identifier: MIT */
/* strmap.c - a small ordered string -> string map (options, environments).
 * Entries keep insertion order in an array; keys are looked up through an
 * index, since input can make a map large (a sidecar's variables, a
 * payload's artifacts.json) and a linear search would make filling it
 * quadratic. */
#include "config.h"

#include "strmap.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void ar_strmap_init(ar_strmap_t *map)
{
    memset(map, 0, sizeof *map);
}

void ar_strmap_clear(ar_strmap_t *map)
{
    for (size_t i = 0; i < map->count; i++) {
        free(map->entries[i].key);
        free(map->entries[i].value);
    }
    free(map->entries);
    ar_keyindex_clear(&map->index);
    ar_strmap_init(map);
}

/* Index every entry again, after entries moved. */
static void reindex(ar_strmap_t *map)
{
    ar_keyindex_clear(&map->index);
    for (size_t i = 0; i < map->count; i++)
        ar_keyindex_add(&map->index, map->entries[i].key, i);
}

size_t ar_strmap_find(const ar_strmap_t *map, const char *key)
{
    return ar_keyindex_find(&map->index, key);
}

const char *ar_strmap_get(const ar_strmap_t *map, const char *key)
{
    size_t index = ar_strmap_find(map, key);
    return index == (size_t)-1 ? NULL : map->entries[index].value;
}

void ar_strmap_set(ar_strmap_t *map, const char *key, const char *value)
{
    char *copy = ar_xstrdup(value);
    size_t index = ar_strmap_find(map, key);
    if (index != (size_t)-1) {
        free(map->entries[index].value);
        map->entries[index].value = copy;
        return;
    }
    ar_xgrow((void **)&map->entries, &map->capacity, map->count + 1, sizeof *map->entries);
    map->entries[map->count].key = ar_xstrdup(key);
    map->entries[map->count].value = copy;
    ar_keyindex_add(&map->index, map->entries[map->count].key, map->count);
    map->count++;
}

void ar_strmap_unset(ar_strmap_t *map, const char *key)
{
    size_t index = ar_strmap_find(map, key);
    if (index == (size_t)-1)
        return;
    free(map->entries[index].key);
    free(map->entries[index].value);
    memmove(&map->entries[index], &map->entries[index + 1],
            (map->count - index - 1) * sizeof *map->entries);
    map->count--;
    reindex(map);
}

void ar_strmap_copy(ar_strmap_t *dst, const ar_strmap_t *src)
{
    ar_strmap_clear(dst);
    for (size_t i = 0; i < src->count; i++)
        ar_strmap_set(dst, src->entries[i].key, src->entries[i].value);
}

static int compare_entries(const void *left, const void *right)
{
    const ar_strmap_entry_t *a = left, *b = right;
    return strcmp(a->key, b->key);
}

void ar_strmap_sort(ar_strmap_t *map)
{
    if (map->count > 1) {
        qsort(map->entries, map->count, sizeof *map->entries, compare_entries);
        reindex(map);
    }
}
