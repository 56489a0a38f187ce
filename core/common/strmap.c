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

void aorta_strmap_init(aorta_strmap_t *map)
{
    memset(map, 0, sizeof *map);
}

void aorta_strmap_clear(aorta_strmap_t *map)
{
    for (size_t i = 0; i < map->count; i++) {
        free(map->entries[i].key);
        free(map->entries[i].value);
    }
    free(map->entries);
    aorta_keyindex_clear(&map->index);
    aorta_strmap_init(map);
}

/* Index every entry again, after entries moved. */
static void reindex(aorta_strmap_t *map)
{
    aorta_keyindex_clear(&map->index);
    for (size_t i = 0; i < map->count; i++)
        aorta_keyindex_add(&map->index, map->entries[i].key, i);
}

size_t aorta_strmap_find(const aorta_strmap_t *map, const char *key)
{
    return aorta_keyindex_find(&map->index, key);
}

const char *aorta_strmap_get(const aorta_strmap_t *map, const char *key)
{
    size_t index = aorta_strmap_find(map, key);
    return index == (size_t)-1 ? NULL : map->entries[index].value;
}

void aorta_strmap_set(aorta_strmap_t *map, const char *key, const char *value)
{
    char *copy = aorta_xstrdup(value);
    size_t index = aorta_strmap_find(map, key);
    if (index != (size_t)-1) {
        free(map->entries[index].value);
        map->entries[index].value = copy;
        return;
    }
    aorta_xgrow((void **)&map->entries, &map->capacity, map->count + 1, sizeof *map->entries);
    map->entries[map->count].key = aorta_xstrdup(key);
    map->entries[map->count].value = copy;
    aorta_keyindex_add(&map->index, map->entries[map->count].key, map->count);
    map->count++;
}

void aorta_strmap_unset(aorta_strmap_t *map, const char *key)
{
    size_t index = aorta_strmap_find(map, key);
    if (index == (size_t)-1)
        return;
    free(map->entries[index].key);
    free(map->entries[index].value);
    memmove(&map->entries[index], &map->entries[index + 1],
            (map->count - index - 1) * sizeof *map->entries);
    map->count--;
    reindex(map);
}

void aorta_strmap_copy(aorta_strmap_t *dst, const aorta_strmap_t *src)
{
    aorta_strmap_clear(dst);
    for (size_t i = 0; i < src->count; i++)
        aorta_strmap_set(dst, src->entries[i].key, src->entries[i].value);
}

static int compare_entries(const void *left, const void *right)
{
    const aorta_strmap_entry_t *a = left, *b = right;
    return strcmp(a->key, b->key);
}

void aorta_strmap_sort(aorta_strmap_t *map)
{
    if (map->count > 1) {
        qsort(map->entries, map->count, sizeof *map->entries, compare_entries);
        reindex(map);
    }
}
