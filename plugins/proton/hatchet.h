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
    PROTON_READ_UNSURE,    /* valid, but one pass cannot decide (the table may hold part) */
    PROTON_READ_NO_MEMORY, /* it did not fit in the memory at hand */
} proton_read_t;

/* ---- a sink: what a profile's values mean --------------------------------- */

/* A reader of a format (json_stream.c, hatchet_msgpack.c) walks a file and
 * tells a sink (hatchet_tree.c, trace_stream.c) of the containers and
 * members it cares about: the sink gives each container a role and each
 * member a slot, and hears nothing of a container of role
 * PROTON_ROLE_PLAIN (nor of anything inside it) or of a member of slot 0.
 * The document around the top value has PROTON_ROLE_DOCUMENT, a list's
 * elements and the top value PROTON_SLOT_ELEMENT. */
#define PROTON_ROLE_PLAIN 0
#define PROTON_ROLE_DOCUMENT 1
#define PROTON_SLOT_ELEMENT 1
/* Returned instead of a role or a slot: the sink is unsure (the reader
 * checks the rest and ends PROTON_READ_UNSURE), or out of memory. */
#define PROTON_STOP_UNSURE (-1)
#define PROTON_STOP_NO_MEMORY (-2)

typedef struct proton_sink {
    /* A key of an object of this role (its escapes undone): the member's
     * slot, 0, or a PROTON_STOP_. */
    int (*key)(void *user, int role, const char *key, size_t len);
    /* A container in this slot: its role, or a PROTON_STOP_. */
    int (*open)(void *user, int role, int slot, int object);
    /* A scalar in this slot: 0, or a PROTON_STOP_. */
    int (*scalar)(void *user, int role, int slot, const proton_value_t *value);
    /* A container of this role has closed: 0, or a PROTON_STOP_. */
    int (*close)(void *user, int role);
    void *user;
} proton_sink_t;

/* ---- hatchet_tree.c: the tree's leaves, keeping only the path ------------ */

typedef struct proton_tree proton_tree_t;

/* A sink counting a tree's leaves into kernels, exactly as
 * proton_hatchet_walk() of the same value would; NULL without memory. */
proton_tree_t *proton_tree_new(aorta_kernels_t *kernels);
void proton_tree_sink(proton_tree_t *tree, proton_sink_t *sink);
void proton_tree_free(proton_tree_t *tree);

/* The .hatchet open at fd in one strict pass of reads of block bytes
 * (json_stream.c), its leaves into kernels. */
proton_read_t proton_hatchet_stream(int fd, aorta_kernels_t *kernels, size_t block);

/* ---- hatchet_count.c: one .hatchet into the run's totals ----------------- */

/* The streaming read, and the json-c one where it is unsure; the file's
 * sums are added to kernels only when it is readable. */
proton_read_t proton_hatchet_count(int fd, aorta_kernels_t *kernels);

/* ---- trace_stream.c: the Chrome trace of data: trace ---------------------- */

/* The kernel launches of the .chrome_trace open at fd into kernels (reads of
 * block bytes), and each into dispatches when not NULL (its "ts", "dur",
 * its "tid" as the track "stream <tid>"); PROTON_READ_UNSURE is a file one
 * pass cannot read. */
proton_read_t proton_trace_stream(int fd, aorta_kernels_t *kernels,
                                  aorta_dispatches_t *dispatches, size_t block);

/* ---- hatchet_msgpack.c: the tree as hatchet_msgpack ----------------------- */

/* Whether this build reads hatchet_msgpack (msgpack-c was found). */
int proton_msgpack_available(void);
/* The leaves of the .hatchet_msgpack open at fd into kernels, as Python's
 * msgpack.unpackb() and the walk would count them (PROTON_READ_REFUSED
 * without msgpack-c). */
proton_read_t proton_msgpack_read(int fd, aorta_kernels_t *kernels);

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
