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

/* ---- hatchet_read.c ------------------------------------------------------ */

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
