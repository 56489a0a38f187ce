/* SPDX-License-Identifier: MIT */
/* hatchet.h - reading Proton's profiles (hidden): the leaf rule, the
 * streaming readers of the tree and the trace, the msgpack tree, and the
 * json-c reader the streaming one is held to (docs/collectors/proton.md). */
#ifndef AORTA_PROTON_HATCHET_H
#define AORTA_PROTON_HATCHET_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "aorta/collector.h"

/* Nesting json-c accepts: its default of 32 rejects real context: python
 * trees (docs/design.md, Deviation 3).  A value this many levels down (the
 * top value is level 0) is refused, so a container one level up may only
 * be empty. */
#define PROTON_JSON_DEPTH 10000

/* ---- hatchet_leaf.c: what one value means ------------------------------- */

typedef enum proton_kind {
    PROTON_NULL,
    PROTON_BOOL,
    PROTON_INT,
    PROTON_DOUBLE,
    PROTON_STRING,
    PROTON_OTHER, /* a list, an object, bytes: no name, no number */
} proton_kind_t;

/* A scalar of a profile, as the leaf rule reads it. */
typedef struct proton_value {
    proton_kind_t kind;
    int boolean;
    /* PROTON_INT as json-c holds it: get_int64() and get_uint64(); saturated
     * when json-c clamped the literal (or it sits on a clamp value). */
    int64_t i64;
    uint64_t u64;
    int saturated;
    double number;    /* PROTON_DOUBLE */
    const char *text; /* PROTON_STRING: len bytes, NULs allowed */
    size_t len;
} proton_value_t;

/* Milliseconds per unit of a "time (<unit>)" key of len bytes (no NUL), or
 * 0 for any other key. */
double proton_time_factor(const char *key, size_t len);
/* Python's float() of a str: 1 with *out set, or 0. */
int proton_text_double(const char *text, size_t len, double *out);
/* Python's float(value): numbers, booleans and numeric strings. */
int proton_value_double(const proton_value_t *value, double *out);
/* A usable time: float(value) * factor, finite and not negative. */
int proton_value_time(const proton_value_t *value, double factor, double *ms);
/* A launch count, or -1 when unreadable (docs/design.md, Deviation 2). */
int64_t proton_value_count(const proton_value_t *value);
/* str(value or "") for a name, before stripping; *owned (free it) when the
 * text had to be made. */
const char *proton_value_name(const proton_value_t *value, size_t *len, char **owned);

/* ---- what reading one file gave ------------------------------------------ */

typedef enum proton_read {
    PROTON_READ_OK,        /* the leaves are in the table */
    PROTON_READ_REFUSED,   /* not a readable profile (the table may hold part of it) */
    PROTON_READ_UNSURE,    /* valid, but the json-c reader must decide */
    PROTON_READ_NO_MEMORY, /* it did not fit in the memory at hand */
} proton_read_t;

/* ---- hatchet_stream.c: the tree in one pass ------------------------------ */

/* Count the leaves of the .hatchet open at fd into kernels (reads of block
 * bytes), exactly as proton_hatchet_walk() of proton_hatchet_read() would,
 * keeping only the path to the node being read. */
proton_read_t proton_hatchet_stream(int fd, aorta_kernels_t *kernels, size_t block);

/* ---- hatchet_count.c: one .hatchet into the run's totals ----------------- */

/* The streaming read, and the json-c one where it is unsure; the file's
 * sums are added to kernels only when it is readable. */
proton_read_t proton_hatchet_count(int fd, aorta_kernels_t *kernels);

/* ---- hatchet_read.c: the whole value, through json-c --------------------- */

/* The JSON value of the file open at fd, read as Python's json.load reads a
 * UTF-8 text file (NaN, Infinity and -Infinity accepted); NULL when the file
 * is unreadable, not UTF-8, not JSON, nested deeper than PROTON_JSON_DEPTH,
 * or the JSON null (errno ENOMEM when memory ran out).  Free with
 * proton_json_free(). */
struct json_object *proton_hatchet_read(int fd);
/* The same for the len bytes at data. */
struct json_object *proton_hatchet_read_bytes(const unsigned char *data, size_t len);
/* Release a value without recursing over its depth. */
void proton_json_free(struct json_object *root);

/* ---- hatchet_walk.c: the leaf rule over a json-c value ------------------- */

/* Add every counted leaf of a profile's value to kernels (docs/collectors/proton.md):
 * its time in ms, its launch count or -1 when unreadable. */
void proton_hatchet_walk(struct json_object *root, aorta_kernels_t *kernels);

#endif
