/* SPDX-License-Identifier: MIT */
/* keyindex.h - string keys to positions in a caller's array, in O(log n).
 * For the containers that untrusted input can make large (a sidecar's
 * variables, a payload's artifacts.json, a collector's reply, a resumed
 * trial's metrics): a linear search there makes reading them quadratic. */
#ifndef AORTA_KEYINDEX_H
#define AORTA_KEYINDEX_H

#include <stddef.h>

#include "aorta/collector.h"

typedef struct aorta_keyindex {
    void *tree;   /* tsearch tree; NULL when empty */
} aorta_keyindex_t;

#define AORTA_KEYINDEX_NONE ((size_t)-1)

/* The position of key, or AORTA_KEYINDEX_NONE. */
size_t aorta_keyindex_find(const aorta_keyindex_t *index, const char *key);
/* Map key (borrowed: it must stay valid and unchanged while indexed) to
 * position; a key already there keeps its position. */
void aorta_keyindex_add(aorta_keyindex_t *index, const char *key, size_t position);
/* Forget every key. */
void aorta_keyindex_clear(aorta_keyindex_t *index);

#endif
