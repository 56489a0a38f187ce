/* SPDX-License-Identifier: MIT */
/* yaml_tree.h - a YAML file read into a small tree of nodes that keep
 * their line and column, with plain scalars resolved as YAML 1.1 (PyYAML's
 * SafeLoader) resolves them.  yaml_tree.c is the only core file that
 * includes yaml.h.
 *
 * What is refused, each as one "FILE:LINE:COLUMN: ..." message: syntax
 * errors (libyaml's position), a second document, a duplicate key, a key
 * that is not a scalar, duplicate, undefined or recursive anchors, tags
 * other than the core ones, nesting deeper than AR_YAML_MAX_DEPTH, and a
 * document that expands (aliases counted each time they are used) to more
 * than AR_YAML_MAX_NODES nodes. */
#ifndef AR_YAML_TREE_H
#define AR_YAML_TREE_H

#include <stddef.h>
#include <stdint.h>

#define AR_YAML_MAX_BYTES (1u << 20)
#define AR_YAML_MAX_DEPTH 100
#define AR_YAML_MAX_NODES 50000

typedef enum ar_yaml_kind {
    AR_YAML_SCALAR,
    AR_YAML_SEQUENCE,
    AR_YAML_MAPPING
} ar_yaml_kind_t;

/* What a scalar resolved to.  Quoted scalars are strings; plain ones follow
 * YAML 1.1: ~/null/Null/NULL/empty, yes/no/on/off/true/false (three
 * casings), integers (0b, 0x, 0-octal, underscores, base 60), floats (.inf,
 * .nan, base 60) and timestamps are not strings. */
typedef enum ar_yaml_type {
    AR_YAML_STR,
    AR_YAML_NULL,
    AR_YAML_BOOL,
    AR_YAML_INT,
    AR_YAML_FLOAT,
    AR_YAML_TIMESTAMP
} ar_yaml_type_t;

typedef struct ar_yaml_node ar_yaml_node_t;

struct ar_yaml_node {
    ar_yaml_kind_t kind;
    unsigned long line, column;      /* 1-based start of the node */
    /* scalars */
    ar_yaml_type_t type;
    char *text;                      /* as written (after YAML unescaping) */
    size_t length;                   /* of text; text may hold a NUL ("\0") */
    int boolean;                     /* AR_YAML_BOOL */
    int integer_ok;                  /* AR_YAML_INT: fits in int64 */
    int64_t integer;
    double real;                     /* AR_YAML_FLOAT */
    /* collections: items of a sequence, or values of a mapping whose keys
     * (scalars, unique, merge keys "<<" already applied) are keys[i] */
    ar_yaml_node_t **keys;
    ar_yaml_node_t **items;
    size_t count;
    size_t capacity;
    size_t weight;                   /* nodes below and including this one */
    int internal;                    /* resolution state used while reading */
};

typedef struct ar_yaml_doc {
    char *label;                     /* the file name used in messages */
    ar_yaml_node_t *root;         /* NULL when the stream holds no document */
    ar_yaml_node_t **nodes;       /* every node, for freeing (aliases share) */
    size_t node_count;
    size_t node_capacity;
} ar_yaml_doc_t;

/* Read path (at most AR_YAML_MAX_BYTES).  Returns 0 with *out set, or
 * -1 with *error set to one line "PATH[:LINE:COLUMN]: message" (free it). */
int ar_yaml_load(const char *path, ar_yaml_doc_t **out, char **error);
/* The same for len bytes of text; label names it in messages. */
int ar_yaml_parse(const char *label, const char *text, size_t len, ar_yaml_doc_t **out,
                     char **error);
void ar_yaml_free(ar_yaml_doc_t *doc);

/* The value under the string key of a mapping, or NULL. */
const ar_yaml_node_t *ar_yaml_get(const ar_yaml_node_t *mapping, const char *key);
/* A string scalar without NUL bytes: usable as a C string. */
int ar_yaml_is_string(const ar_yaml_node_t *node);
/* "a string ('x')", "an integer (5)", "a boolean (yes)", "null", "a list",
 * ...: what a node is, for messages (one line).  Free it. */
char *ar_yaml_describe(const ar_yaml_node_t *node);

#endif
