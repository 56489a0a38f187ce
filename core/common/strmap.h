/* SPDX-License-Identifier: MIT */
/* strmap.h - a small ordered string -> string map (options, environments). */
#ifndef AORTA_STRMAP_H
#define AORTA_STRMAP_H

#include <stddef.h>

#include "aorta/collector.h"
#include "keyindex.h"

typedef struct aorta_strmap_entry {
    char *key;
    char *value;
} aorta_strmap_entry_t;

typedef struct aorta_strmap {
    aorta_strmap_entry_t *entries;
    size_t count;
    size_t capacity;
    aorta_keyindex_t index;   /* key -> position in entries */
} aorta_strmap_t;

void aorta_strmap_init(aorta_strmap_t *map);
void aorta_strmap_clear(aorta_strmap_t *map);
/* Index of key, or (size_t)-1. */
size_t aorta_strmap_find(const aorta_strmap_t *map, const char *key);
const char *aorta_strmap_get(const aorta_strmap_t *map, const char *key);
/* Replaces the value in place when key exists, else appends. */
void aorta_strmap_set(aorta_strmap_t *map, const char *key, const char *value);
void aorta_strmap_unset(aorta_strmap_t *map, const char *key);
void aorta_strmap_copy(aorta_strmap_t *dst, const aorta_strmap_t *src);
/* Sort entries by key, byte-wise. */
void aorta_strmap_sort(aorta_strmap_t *map);

#endif
