/* SPDX-License-Identifier: MIT */
/* keyindex.c - string keys to positions, over tsearch(3). */
#include "config.h"

#include "keyindex.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

typedef struct index_entry {
    const char *key;
    size_t position;
} index_entry_t;

static int compare(const void *left, const void *right)
{
    return strcmp(((const index_entry_t *)left)->key, ((const index_entry_t *)right)->key);
}

size_t ar_keyindex_find(const ar_keyindex_t *index, const char *key)
{
    index_entry_t probe = {key, 0};
    index_entry_t **found = tfind(&probe, (void *const *)&index->tree, compare);
    return found ? (*found)->position : AR_KEYINDEX_NONE;
}

void ar_keyindex_add(ar_keyindex_t *index, const char *key, size_t position)
{
    index_entry_t *entry = ar_xmalloc(sizeof *entry);
    entry->key = key;
    entry->position = position;
    index_entry_t **found = tsearch(entry, &index->tree, compare);
    if (!found)
        abort(); /* out of memory, as everywhere else */
    if (*found != entry)
        free(entry);
}

void ar_keyindex_clear(ar_keyindex_t *index)
{
    tdestroy(index->tree, free);
    index->tree = NULL;
}
