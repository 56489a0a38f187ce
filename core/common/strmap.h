/* SPDX-License-Identifier: MIT */
/* strmap.h - a small ordered string -> string map (options, environments). */
#ifndef AR_STRMAP_H
#define AR_STRMAP_H

#include <stddef.h>

#include "aorta/collector.h"
#include "keyindex.h"

typedef struct ar_strmap_entry {
    char *key;
    char *value;
} ar_strmap_entry_t;

typedef struct ar_strmap {
    ar_strmap_entry_t *entries;
    size_t count;
    size_t capacity;
    ar_keyindex_t index;   /* key -> position in entries */
} ar_strmap_t;

void ar_strmap_init(ar_strmap_t *map);
void ar_strmap_clear(ar_strmap_t *map);
/* Index of key, or (size_t)-1. */
size_t ar_strmap_find(const ar_strmap_t *map, const char *key);
const char *ar_strmap_get(const ar_strmap_t *map, const char *key);
/* Replaces the value in place when key exists, else appends. */
void ar_strmap_set(ar_strmap_t *map, const char *key, const char *value);
void ar_strmap_unset(ar_strmap_t *map, const char *key);
void ar_strmap_copy(ar_strmap_t *dst, const ar_strmap_t *src);
/* Sort entries by key, byte-wise. */
void ar_strmap_sort(ar_strmap_t *map);

#endif
