/* SPDX-License-Identifier: MIT */
/* yaml_tree.c - libyaml's events built into a node tree with positions,
 * plain scalars resolved the YAML 1.1 way (PyYAML's SafeLoader). */
#include "config.h"

#include "recipe/yaml_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <regex.h>
#include <search.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "sys/files.h"
#include "sys/quote.h"
#include "xalloc.h"

#define TAG_PREFIX "tag:yaml.org,2002:"

/* node->internal: plain scalars that are only meaningful as mapping keys. */
enum { PLAIN_MERGE = 1, PLAIN_VALUE = 2 };

/* PyYAML's implicit resolvers (resolver.py), as POSIX extended regexes. */
enum { RE_BOOL, RE_FLOAT, RE_INT, RE_TIMESTAMP, RE_COUNT };
static const char *const RESOLVER_PATTERNS[RE_COUNT] = {
    [RE_BOOL] = "^(yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$",
    [RE_FLOAT] = "^([-+]?[0-9][0-9_]*\\.[0-9_]*([eE][-+][0-9]+)?"
                 "|\\.[0-9][0-9_]*([eE][-+][0-9]+)?"
                 "|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*"
                 "|[-+]?\\.(inf|Inf|INF)"
                 "|\\.(nan|NaN|NAN))$",
    [RE_INT] = "^([-+]?0b[0-1_]+"
               "|[-+]?0[0-7_]+"
               "|[-+]?(0|[1-9][0-9_]*)"
               "|[-+]?0x[0-9a-fA-F_]+"
               "|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+)$",
    [RE_TIMESTAMP] = "^([0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
                     "|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
                     "([Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](\\.[0-9]*)?"
                     "([ \t]*(Z|[-+][0-9][0-9]?(:[0-9][0-9])?))?)$",
};

/* A key of a mapping being built, for duplicate detection and merging. */
typedef struct key_ref {
    ar_yaml_node_t *key;
    size_t index;
} key_ref_t;

typedef struct anchor {
    char *name;
    ar_yaml_node_t *node;
    int complete;
} anchor_t;

typedef struct frame {
    ar_yaml_node_t *node;
    anchor_t *anchor;                 /* completed when the node ends */
    ar_yaml_node_t *pending_key;   /* mapping: the key awaiting its value */
    unsigned long key_line, key_column; /* where that key was written */
    void *keys;                       /* tsearch tree of key_ref_t */
    ar_yaml_node_t **merges;       /* values of "<<" keys, in order */
    size_t merge_count;
} frame_t;

typedef struct builder {
    ar_yaml_doc_t *doc;
    frame_t *stack;
    size_t depth;
    size_t capacity;
    void *anchors;                    /* tsearch tree of anchor_t */
    regex_t re[RE_COUNT];
    char *error;
} builder_t;

static int fail_at(builder_t *b, unsigned long line, unsigned long column, const char *fmt, ...)
    AORTA_PRINTF(4, 5);

static int fail_at(builder_t *b, unsigned long line, unsigned long column, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *message = ar_xvasprintf(fmt, args);
    va_end(args);
    b->error = ar_xasprintf("%s:%lu:%lu: %s", b->doc->label, line, column, message);
    free(message);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Scalar resolution                                                         */
/* ------------------------------------------------------------------------ */

static int matches(const regex_t *re, const char *text)
{
    return regexec(re, text, 0, NULL, 0) == 0;
}

/* text without '_' (PyYAML drops them before converting). */
static char *without_underscores(const char *text)
{
    char *copy = ar_xstrdup(text), *o = copy;
    for (const char *c = text; *c; c++)
        if (*c != '_')
            *o++ = *c;
    *o = '\0';
    return copy;
}

static int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* Accumulate digits of base into *acc; -1 on overflow past limit or no digit. */
static int accumulate(const char *digits, size_t len, unsigned base, uint64_t limit, uint64_t *acc)
{
    if (len == 0)
        return -1;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned)digit_value(digits[i]);
        if (d >= base || *acc > (limit - d) / base)
            return -1;
        *acc = *acc * base + d;
    }
    return 0;
}

/* The value of an integer the int resolver matched, as PyYAML computes it. */
static int integer_value(const char *text, int64_t *out)
{
    char *copy = without_underscores(text);
    const char *p = copy;
    int negative = 0;
    if (*p == '-' || *p == '+')
        negative = *p++ == '-';
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, acc = 0;
    int status;
    if (strcmp(p, "0") == 0) {
        status = 0;
    } else if (strncmp(p, "0b", 2) == 0) {
        status = accumulate(p + 2, strlen(p + 2), 2, limit, &acc);
    } else if (strncmp(p, "0x", 2) == 0) {
        status = accumulate(p + 2, strlen(p + 2), 16, limit, &acc);
    } else if (p[0] == '0') {
        status = accumulate(p, strlen(p), 8, limit, &acc);
    } else if (strchr(p, ':')) {
        /* Base 60: the first part is free, the others are 0..59. */
        const char *colon = strchr(p, ':');
        status = accumulate(p, (size_t)(colon - p), 10, limit, &acc);
        while (status == 0 && colon) {
            const char *part = colon + 1;
            colon = strchr(part, ':');
            uint64_t digit = 0;
            status = accumulate(part, colon ? (size_t)(colon - part) : strlen(part), 10, 59,
                                &digit);
            if (status == 0 && acc > (limit - digit) / 60)
                status = -1;
            if (status == 0)
                acc = acc * 60 + digit;
        }
    } else {
        status = accumulate(p, strlen(p), 10, limit, &acc);
    }
    free(copy);
    if (status != 0)
        return -1;
    *out = negative ? (int64_t)(0 - acc) : (int64_t)acc;
    return 0;
}

/* The value of a float the float resolver matched, as PyYAML computes it. */
static double real_value(const char *text)
{
    char *copy = without_underscores(text);
    for (char *c = copy; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    const char *p = copy;
    double sign = 1.0;
    if (*p == '-' || *p == '+')
        sign = *p++ == '-' ? -1.0 : 1.0;
    double value;
    if (strcmp(p, ".inf") == 0) {
        value = INFINITY;
    } else if (strcmp(p, ".nan") == 0) {
        value = NAN;
    } else if (strchr(p, ':')) {
        value = 0.0;
        for (const char *part = p; part;) {
            value = value * 60.0 + strtod(part, NULL);
            part = strchr(part, ':');
            part = part ? part + 1 : NULL;
        }
    } else {
        value = strtod(p, NULL);
    }
    free(copy);
    return sign * value;
}

/* Resolve a plain scalar's text as PyYAML's implicit resolvers do. */
static void resolve_plain(builder_t *b, ar_yaml_node_t *node)
{
    const char *t = node->text;
    node->type = AR_YAML_STR;
    if (node->length != strlen(t))
        return; /* plain scalars cannot hold NUL; be safe anyway */
    if (!t[0] || !strcmp(t, "~") || !strcmp(t, "null") || !strcmp(t, "Null")
        || !strcmp(t, "NULL")) {
        node->type = AR_YAML_NULL;
    } else if (matches(&b->re[RE_BOOL], t)) {
        node->type = AR_YAML_BOOL;
        node->boolean = t[0] == 'y' || t[0] == 'Y' || t[0] == 't' || t[0] == 'T'
                        || !strcmp(t, "on") || !strcmp(t, "On") || !strcmp(t, "ON");
    } else if (matches(&b->re[RE_FLOAT], t)) {
        node->type = AR_YAML_FLOAT;
        node->real = real_value(t);
    } else if (matches(&b->re[RE_INT], t)) {
        node->type = AR_YAML_INT;
        node->integer_ok = integer_value(t, &node->integer) == 0;
    } else if (matches(&b->re[RE_TIMESTAMP], t)) {
        node->type = AR_YAML_TIMESTAMP;
    } else if (!strcmp(t, "<<")) {
        node->internal = PLAIN_MERGE;
    } else if (!strcmp(t, "=")) {
        node->internal = PLAIN_VALUE;
    }
}

/* An explicit core tag on a scalar: the text must read as that type. */
static int resolve_tagged(builder_t *b, ar_yaml_node_t *node, const char *tag)
{
    static const struct {
        const char *name;
        ar_yaml_type_t type;
    } TAGS[] = {
        {"null", AR_YAML_NULL}, {"bool", AR_YAML_BOOL}, {"int", AR_YAML_INT},
        {"float", AR_YAML_FLOAT}, {"timestamp", AR_YAML_TIMESTAMP},
    };
    if (strcmp(tag, TAG_PREFIX "str") == 0) {
        node->type = AR_YAML_STR;
        return 0;
    }
    for (size_t i = 0; i < sizeof TAGS / sizeof TAGS[0]; i++) {
        if (strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)) != 0
            || strcmp(tag + strlen(TAG_PREFIX), TAGS[i].name) != 0)
            continue;
        resolve_plain(b, node);
        node->internal = 0;
        if (TAGS[i].type == AR_YAML_FLOAT && node->type == AR_YAML_INT) {
            node->type = AR_YAML_FLOAT;
            node->real = real_value(node->text);
        }
        if (node->type != TAGS[i].type) {
            char *text = ar_repr(node->text, node->length);
            fail_at(b, node->line, node->column, "%s cannot be read as !!%s", text,
                    TAGS[i].name);
            free(text);
            return -1;
        }
        return 0;
    }
    char *text = ar_repr_str(tag);
    fail_at(b, node->line, node->column, "unsupported tag %s (a recipe uses plain YAML values)",
            text);
    free(text);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Nodes and keys                                                            */
/* ------------------------------------------------------------------------ */

static ar_yaml_node_t *new_node(builder_t *b, ar_yaml_kind_t kind, const yaml_mark_t *mark)
{
    ar_yaml_doc_t *doc = b->doc;
    ar_yaml_node_t *node = ar_xcalloc(1, sizeof *node);
    node->kind = kind;
    node->line = (unsigned long)mark->line + 1;
    node->column = (unsigned long)mark->column + 1;
    node->weight = 1;
    ar_xgrow((void **)&doc->nodes, &doc->node_capacity, doc->node_count + 1,
                sizeof *doc->nodes);
    doc->nodes[doc->node_count++] = node;
    return node;
}

static void push_pair(ar_yaml_node_t *map, ar_yaml_node_t *key, ar_yaml_node_t *value)
{
    size_t capacity = map->capacity;
    ar_xgrow((void **)&map->items, &capacity, map->count + 1, sizeof *map->items);
    if (map->kind == AR_YAML_MAPPING)
        map->keys = ar_xrealloc(map->keys, capacity * sizeof *map->keys);
    map->capacity = capacity;
    if (map->kind == AR_YAML_MAPPING)
        map->keys[map->count] = key;
    map->items[map->count++] = value;
}

/* Keys are equal when they resolve to the same value of the same type. */
static int key_compare(const void *a, const void *b)
{
    const ar_yaml_node_t *x = ((const key_ref_t *)a)->key, *y = ((const key_ref_t *)b)->key;
    if (x->type != y->type)
        return (int)x->type - (int)y->type;
    switch (x->type) {
    case AR_YAML_NULL:
        return 0;
    case AR_YAML_BOOL:
        return x->boolean - y->boolean;
    case AR_YAML_INT:
        if (x->integer_ok && y->integer_ok)
            return (x->integer > y->integer) - (x->integer < y->integer);
        break;
    default:
        break;
    }
    if (x->length != y->length)
        return x->length < y->length ? -1 : 1;
    return memcmp(x->text, y->text, x->length);
}

/* The index of key in tree, or (size_t)-1 after inserting it at index. */
static size_t key_find_or_add(void **tree, ar_yaml_node_t *key, size_t index)
{
    key_ref_t *ref = ar_xmalloc(sizeof *ref);
    ref->key = key;
    ref->index = index;
    key_ref_t **found = tsearch(ref, tree, key_compare);
    ar_xcheck(found); /* NULL only when out of memory */
    if (*found != ref) {
        free(ref);
        return (*found)->index;
    }
    return (size_t)-1;
}

static void free_key_tree(void **tree)
{
    tdestroy(*tree, free);
    *tree = NULL;
}

static char *where(const ar_yaml_node_t *node)
{
    return ar_xasprintf("line %lu, column %lu", node->line, node->column);
}

/* Apply "<<" merges: merged pairs first (the first source of a list wins),
 * then the mapping's own pairs override them, as PyYAML's flatten_mapping. */
static int apply_merges(builder_t *b, frame_t *frame)
{
    ar_yaml_node_t *map = frame->node;
    ar_yaml_node_t **keys = map->keys, **values = map->items;
    size_t own = map->count;
    map->keys = NULL;
    map->items = NULL;
    map->count = map->capacity = 0;
    void *tree = NULL;
    int status = 0;
    for (size_t m = 0; m < frame->merge_count && status == 0; m++) {
        ar_yaml_node_t *source = frame->merges[m];
        size_t sources = source->kind == AR_YAML_SEQUENCE ? source->count : 1;
        for (size_t s = sources; s-- > 0 && status == 0;) {
            ar_yaml_node_t *one = source->kind == AR_YAML_SEQUENCE ? source->items[s]
                                                                         : source;
            if (one->kind != AR_YAML_MAPPING) {
                char *what = ar_yaml_describe(one);
                status = fail_at(b, one->line, one->column,
                                 "a merge key '<<' takes a mapping or a list of mappings, got %s",
                                 what);
                free(what);
                break;
            }
            for (size_t i = 0; i < one->count; i++) {
                size_t at = key_find_or_add(&tree, one->keys[i], map->count);
                if (at == (size_t)-1)
                    push_pair(map, one->keys[i], one->items[i]);
                else
                    map->items[at] = one->items[i];
            }
        }
    }
    for (size_t i = 0; i < own && status == 0; i++) {
        size_t at = key_find_or_add(&tree, keys[i], map->count);
        if (at == (size_t)-1)
            push_pair(map, keys[i], values[i]);
        else
            map->items[at] = values[i];
    }
    free_key_tree(&tree);
    free(keys);
    free(values);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Events                                                                    */
/* ------------------------------------------------------------------------ */

static int refuse_key_only(builder_t *b, const ar_yaml_node_t *node, unsigned long line,
                           unsigned long column)
{
    return fail_at(b, line, column, "a plain '%s' is only meaningful as a mapping key; quote it",
                   node->internal == PLAIN_MERGE ? "<<" : "=");
}

/* Attach a finished node, or an alias of one, written at line:column. */
static int add_child(builder_t *b, ar_yaml_node_t *node, unsigned long line,
                     unsigned long column)
{
    if (b->depth == 0) {
        if (node->internal)
            return refuse_key_only(b, node, line, column);
        b->doc->root = node;
        return 0;
    }
    frame_t *frame = &b->stack[b->depth - 1];
    ar_yaml_node_t *parent = frame->node;
    parent->weight += node->weight;
    if (parent->weight > AR_YAML_MAX_NODES)
        return fail_at(b, line, column,
                       "the document expands to more than %d nodes (aliases counted each time "
                       "they are used); a recipe is far smaller",
                       AR_YAML_MAX_NODES);
    if (parent->kind == AR_YAML_SEQUENCE) {
        if (node->internal)
            return refuse_key_only(b, node, line, column);
        push_pair(parent, NULL, node);
        return 0;
    }
    if (!frame->pending_key) {
        if (node->kind != AR_YAML_SCALAR) {
            char *what = ar_yaml_describe(node);
            int status = fail_at(b, line, column, "a mapping key must be a scalar, got %s", what);
            free(what);
            return status;
        }
        if (node->internal == PLAIN_VALUE) {
            node->internal = 0; /* '=' as a key is the string "=" (PyYAML) */
            node->type = AR_YAML_STR;
        }
        frame->pending_key = node;
        frame->key_line = line;
        frame->key_column = column;
        return 0;
    }
    ar_yaml_node_t *key = frame->pending_key;
    frame->pending_key = NULL;
    if (node->internal)
        return refuse_key_only(b, node, line, column);
    if (key->internal == PLAIN_MERGE) {
        frame->merges = ar_xrealloc(frame->merges,
                                       (frame->merge_count + 1) * sizeof *frame->merges);
        frame->merges[frame->merge_count++] = node;
        return 0;
    }
    size_t first = key_find_or_add(&frame->keys, key, parent->count);
    if (first != (size_t)-1) {
        char *name = ar_repr(key->text, key->length);
        char *at = where(parent->keys[first]);
        int status = fail_at(b, frame->key_line, frame->key_column,
                             "duplicate key %s (first at %s)", name, at);
        free(at);
        free(name);
        return status;
    }
    push_pair(parent, key, node);
    return 0;
}

static int anchor_compare(const void *a, const void *b)
{
    return strcmp(((const anchor_t *)a)->name, ((const anchor_t *)b)->name);
}

static int register_anchor(builder_t *b, const yaml_char_t *name, ar_yaml_node_t *node,
                           anchor_t **out)
{
    *out = NULL;
    if (!name)
        return 0;
    anchor_t probe = {(char *)name, NULL, 0};
    anchor_t **found = tfind(&probe, &b->anchors, anchor_compare);
    if (found) {
        char *at = where((*found)->node);
        int status = fail_at(b, node->line, node->column, "duplicate anchor '&%s' (first at %s)",
                             (const char *)name, at);
        free(at);
        return status;
    }
    anchor_t *anchor = ar_xcalloc(1, sizeof *anchor);
    anchor->name = ar_xstrdup((const char *)name);
    anchor->node = node;
    ar_xcheck(tsearch(anchor, &b->anchors, anchor_compare)); /* NULL: out of memory */
    *out = anchor;
    return 0;
}

static int on_alias(builder_t *b, const yaml_event_t *event)
{
    const char *name = (const char *)event->data.alias.anchor;
    anchor_t probe = {(char *)name, NULL, 0};
    anchor_t **found = tfind(&probe, &b->anchors, anchor_compare);
    unsigned long line = (unsigned long)event->start_mark.line + 1;
    unsigned long column = (unsigned long)event->start_mark.column + 1;
    if (!found)
        return fail_at(b, line, column, "undefined alias '*%s'", name);
    if (!(*found)->complete)
        return fail_at(b, line, column, "recursive alias '*%s' (it is used inside its own anchor)",
                       name);
    return add_child(b, (*found)->node, line, column);
}

static int on_scalar(builder_t *b, const yaml_event_t *event)
{
    ar_yaml_node_t *node = new_node(b, AR_YAML_SCALAR, &event->start_mark);
    node->length = event->data.scalar.length;
    /* Every byte: a double-quoted "\0" puts a NUL inside. */
    node->text = ar_xmalloc(node->length + 1);
    memcpy(node->text, event->data.scalar.value, node->length);
    node->text[node->length] = '\0';
    const char *tag = (const char *)event->data.scalar.tag;
    anchor_t *anchor = NULL;
    if (register_anchor(b, event->data.scalar.anchor, node, &anchor) != 0)
        return -1;
    if (!tag || strcmp(tag, "!") == 0) {
        /* Like PyYAML, a '!' tag still resolves implicitly (libyaml sets
         * plain_implicit for it). */
        if (event->data.scalar.plain_implicit)
            resolve_plain(b, node);
        else
            node->type = AR_YAML_STR;
    } else if (resolve_tagged(b, node, tag) != 0) {
        return -1;
    }
    if (anchor)
        anchor->complete = 1;
    return add_child(b, node, node->line, node->column);
}

static int on_start(builder_t *b, const yaml_event_t *event)
{
    int mapping = event->type == YAML_MAPPING_START_EVENT;
    const yaml_char_t *tag = mapping ? event->data.mapping_start.tag
                                     : event->data.sequence_start.tag;
    const yaml_char_t *anchor_name = mapping ? event->data.mapping_start.anchor
                                             : event->data.sequence_start.anchor;
    unsigned long line = (unsigned long)event->start_mark.line + 1;
    unsigned long column = (unsigned long)event->start_mark.column + 1;
    if (b->depth >= AR_YAML_MAX_DEPTH)
        return fail_at(b, line, column, "nested deeper than %d levels", AR_YAML_MAX_DEPTH);
    const char *expected = mapping ? TAG_PREFIX "map" : TAG_PREFIX "seq";
    if (tag && strcmp((const char *)tag, "!") != 0 && strcmp((const char *)tag, expected) != 0) {
        char *text = ar_repr_str((const char *)tag);
        int status = fail_at(b, line, column,
                             "unsupported tag %s (a recipe uses plain YAML values)", text);
        free(text);
        return status;
    }
    ar_yaml_node_t *node = new_node(b, mapping ? AR_YAML_MAPPING : AR_YAML_SEQUENCE,
                                       &event->start_mark);
    anchor_t *anchor = NULL;
    if (register_anchor(b, anchor_name, node, &anchor) != 0)
        return -1;
    ar_xgrow((void **)&b->stack, &b->capacity, b->depth + 1, sizeof *b->stack);
    frame_t *frame = &b->stack[b->depth++];
    memset(frame, 0, sizeof *frame);
    frame->node = node;
    frame->anchor = anchor;
    return 0;
}

static void drop_frame(frame_t *frame)
{
    free_key_tree(&frame->keys);
    free(frame->merges);
    frame->merges = NULL;
    frame->merge_count = 0;
}

static int on_end(builder_t *b)
{
    frame_t *frame = &b->stack[b->depth - 1];
    int status = frame->merge_count ? apply_merges(b, frame) : 0;
    ar_yaml_node_t *node = frame->node;
    if (frame->anchor)
        frame->anchor->complete = 1;
    drop_frame(frame);
    b->depth--;
    return status == 0 ? add_child(b, node, node->line, node->column) : -1;
}

/* libyaml's reader reports a byte offset: turn it into a line and column. */
static void offset_position(const char *text, size_t len, size_t offset, unsigned long *line,
                            unsigned long *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset && i < len; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *column = 1;
        } else if (((unsigned char)text[i] & 0xc0) != 0x80) {
            (*column)++;
        }
    }
}

static int syntax_error(builder_t *b, const yaml_parser_t *parser, const char *text, size_t len)
{
    const char *problem = parser->problem ? parser->problem : "unreadable YAML";
    if (parser->error == YAML_MEMORY_ERROR)
        ar_xcheck(NULL); /* out of memory stops aorta-run, as everywhere else */
    if (parser->error == YAML_READER_ERROR) {
        unsigned long line, column;
        offset_position(text, len, parser->problem_offset, &line, &column);
        if (parser->problem_value >= 0)
            return fail_at(b, line, column, "YAML syntax error: %s (byte 0x%02x)", problem,
                           (unsigned)parser->problem_value & 0xffu);
        return fail_at(b, line, column, "YAML syntax error: %s", problem);
    }
    unsigned long line = (unsigned long)parser->problem_mark.line + 1;
    unsigned long column = (unsigned long)parser->problem_mark.column + 1;
    if (parser->context)
        return fail_at(b, line, column, "YAML syntax error: %s (%s at line %lu, column %lu)",
                       problem, parser->context, (unsigned long)parser->context_mark.line + 1,
                       (unsigned long)parser->context_mark.column + 1);
    return fail_at(b, line, column, "YAML syntax error: %s", problem);
}

static int run_events(builder_t *b, yaml_parser_t *parser, const char *text, size_t len)
{
    int documents = 0;
    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(parser, &event))
            return syntax_error(b, parser, text, len);
        int status = 0, done = 0;
        switch (event.type) {
        case YAML_STREAM_END_EVENT:
            done = 1;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (documents++ > 0)
                status = fail_at(b, (unsigned long)event.start_mark.line + 1,
                                 (unsigned long)event.start_mark.column + 1,
                                 "a second YAML document; a recipe is one document");
            break;
        case YAML_ALIAS_EVENT:
            status = on_alias(b, &event);
            break;
        case YAML_SCALAR_EVENT:
            status = on_scalar(b, &event);
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            status = on_start(b, &event);
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
            status = on_end(b);
            break;
        default:
            break;
        }
        yaml_event_delete(&event);
        if (status != 0)
            return -1;
        if (done)
            return 0;
    }
}

static void free_anchor(void *item)
{
    anchor_t *anchor = item;
    free(anchor->name);
    free(anchor);
}

int ar_yaml_parse(const char *label, const char *text, size_t len, ar_yaml_doc_t **out,
                     char **error)
{
    *out = NULL;
    *error = NULL;
    builder_t b;
    memset(&b, 0, sizeof b);
    b.doc = ar_xcalloc(1, sizeof *b.doc);
    b.doc->label = ar_xstrdup(label);
    for (int i = 0; i < RE_COUNT; i++)
        if (regcomp(&b.re[i], RESOLVER_PATTERNS[i], REG_EXTENDED | REG_NOSUB) != 0)
            abort(); /* the patterns are constants */
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        ar_xcheck(NULL); /* libyaml fails here only when out of memory */
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    int status = run_events(&b, &parser, text, len);
    yaml_parser_delete(&parser);
    while (b.depth > 0)
        drop_frame(&b.stack[--b.depth]);
    free(b.stack);
    tdestroy(b.anchors, free_anchor);
    for (int i = 0; i < RE_COUNT; i++)
        regfree(&b.re[i]);
    if (status != 0) {
        ar_yaml_free(b.doc);
        *error = b.error;
        return -1;
    }
    *out = b.doc;
    return 0;
}

int ar_yaml_load(const char *path, ar_yaml_doc_t **out, char **error)
{
    *out = NULL;
    *error = NULL;
    size_t len = 0;
    char *text = ar_read_user_file(path, AR_YAML_MAX_BYTES, &len);
    if (!text) {
        if (errno == EFBIG)
            *error = ar_xasprintf("%s: the recipe is larger than %u bytes", path,
                                     AR_YAML_MAX_BYTES);
        else if (errno == EINVAL)
            *error = ar_xasprintf("%s: cannot read the recipe: it is %s, not a regular file",
                                     path, ar_path_kind(path));
        else
            *error = ar_xasprintf("%s: cannot read the recipe: %s", path, strerror(errno));
        return -1;
    }
    int status = ar_yaml_parse(path, text, len, out, error);
    free(text);
    return status;
}

void ar_yaml_free(ar_yaml_doc_t *doc)
{
    if (!doc)
        return;
    for (size_t i = 0; i < doc->node_count; i++) {
        free(doc->nodes[i]->text);
        free(doc->nodes[i]->keys);
        free(doc->nodes[i]->items);
        free(doc->nodes[i]);
    }
    free(doc->nodes);
    free(doc->label);
    free(doc);
}

int ar_yaml_is_string(const ar_yaml_node_t *node)
{
    return node && node->kind == AR_YAML_SCALAR && node->type == AR_YAML_STR
           && strlen(node->text) == node->length;
}

const ar_yaml_node_t *ar_yaml_get(const ar_yaml_node_t *mapping, const char *key)
{
    if (!mapping || mapping->kind != AR_YAML_MAPPING)
        return NULL;
    for (size_t i = 0; i < mapping->count; i++)
        if (ar_yaml_is_string(mapping->keys[i]) && strcmp(mapping->keys[i]->text, key) == 0)
            return mapping->items[i];
    return NULL;
}

char *ar_yaml_describe(const ar_yaml_node_t *node)
{
    if (node->kind == AR_YAML_SEQUENCE)
        return ar_xstrdup("a list");
    if (node->kind == AR_YAML_MAPPING)
        return ar_xstrdup("a mapping");
    static const char *const WHAT[] = {
        [AR_YAML_STR] = "a string",     [AR_YAML_NULL] = "null",
        [AR_YAML_BOOL] = "a boolean",   [AR_YAML_INT] = "an integer",
        [AR_YAML_FLOAT] = "a float",    [AR_YAML_TIMESTAMP] = "a timestamp",
    };
    if (node->type == AR_YAML_NULL && node->length == 0)
        return ar_xstrdup("null");
    /* Long texts are cut, between two characters: the message stays readable. */
    size_t shown = node->length > 60 ? 60 : node->length;
    int cut_inside = 0;
    size_t whole = aorta_utf8_valid_prefix(node->text, shown, &cut_inside, NULL);
    if (cut_inside)
        shown = whole;
    char *text;
    if (node->type == AR_YAML_STR) {
        text = ar_repr(node->text, shown);
    } else {
        char *quoted = ar_repr(node->text, shown);
        size_t qlen = strlen(quoted);
        text = ar_xstrndup(quoted + 1, qlen - 2); /* as written, unquoted */
        free(quoted);
    }
    char *out = ar_xasprintf("%s (%s%s)", WHAT[node->type], text,
                                shown < node->length ? "..." : "");
    free(text);
    return out;
}
