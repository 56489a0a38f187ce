/* SPDX-License-Identifier: MIT */
/* keyindex.h - string keys to positions in a caller's array, in O(log n).
 * For the containers that untrusted input can make large (a sidecar's
 * variables, a payload's artifacts.json, a collector's reply, a resumed
 * trial's metrics): a linear search there makes reading them quadratic. */
#ifndef AR_KEYINDEX_H
#define AR_KEYINDEX_H

#include <stddef.h>

#include "aorta/collector.h"

typedef struct ar_keyindex {
    void *tree;   /* tsearch tree; NULL when empty */
} ar_keyindex_t;

#define AR_KEYINDEX_NONE ((size_t)-1)

/* The position of key, or AR_KEYINDEX_NONE. */
size_t ar_keyindex_find(const ar_keyindex_t *index, const char *key);
/* Map key (borrowed: it must stay valid and unchanged while indexed) to
 * position; a key already there keeps its position. */
void ar_keyindex_add(ar_keyindex_t *index, const char *key, size_t position);
/* Forget every key. */
void ar_keyindex_clear(ar_keyindex_t *index);

#endif
