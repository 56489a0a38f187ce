/* SPDX-License-Identifier: MIT */
/* hatchet.h - reading Proton's .hatchet profiles (hidden). */
#ifndef AORTA_PROTON_HATCHET_H
#define AORTA_PROTON_HATCHET_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "aorta/collector.h"

/* Nesting json-c accepts: its default of 32 rejects real context: python
 * trees (docs/design.md, Deviation 3). */
#define PROTON_JSON_DEPTH 10000

/* ---- hatchet_count.c: one profile into the run's totals ----------------- */

/* Add the counted leaves of the profile open at fd to kernels, exactly as
 * proton_hatchet_walk() of proton_hatchet_read() would, holding one node of
 * the tree at a time rather than the whole tree; 0, or -1 with nothing added
 * when the file is not a readable profile. */
int proton_hatchet_count(int fd, aorta_kernels_t *kernels);

/* ---- hatchet_split.c: the tree a node at a time -------------------------- */

typedef enum proton_split {
    PROTON_SPLIT_OK,      /* the leaves are in kernels */
    PROTON_SPLIT_REFUSED, /* not a readable profile (kernels may hold part of it) */
    PROTON_SPLIT_UNSURE,  /* read the whole value instead (kernels may hold part) */
} proton_split_t;

/* Count the leaves of the len bytes at data (valid UTF-8) into kernels, each
 * node parsed by json-c on its own with its child nodes left out.  json-c is
 * fed at most feed_max (>= 2) bytes a call. */
proton_split_t proton_hatchet_split(const unsigned char *data, size_t len,
                                    aorta_kernels_t *kernels, size_t feed_max);

/* ---- hatchet_read.c: the whole value ------------------------------------ */

/* The JSON value of the file open at fd, read as Python's json.load reads a
 * UTF-8 text file (NaN, Infinity and -Infinity accepted); NULL when the file
 * is unreadable, not UTF-8, not JSON, nested deeper than PROTON_JSON_DEPTH,
 * or the JSON null.  Free with proton_json_free(). */
struct json_object *proton_hatchet_read(int fd);
/* The same for the len bytes at data. */
struct json_object *proton_hatchet_read_bytes(const unsigned char *data, size_t len);
/* Release a value without recursing over its depth. */
void proton_json_free(struct json_object *root);

/* ---- hatchet_walk.c: the leaf rule --------------------------------------- */

/* Add every counted leaf of a profile's value to kernels (docs/collectors/proton.md):
 * its time in ms, its launch count or -1 when unreadable. */
void proton_hatchet_walk(struct json_object *root, aorta_kernels_t *kernels);

#endif
