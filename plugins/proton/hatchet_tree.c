/* SPDX-License-Identifier: MIT */
/* hatchet_tree.c - a Proton tree's leaves, as the walk of the whole value
 * counts them (hatchet_walk.c), from a reader that walks the file once and
 * tells this sink of it (json_stream.c for .hatchet, hatchet_msgpack.c for
 * .hatchet_msgpack), holding only the path to the node being read.
 *
 * The walk visits a node (an object at the top, in the top-level list, or
 * in a visited node's "children" list) and counts it when its "children"
 * is not a non-empty list and it has a "frame" object with a name and a
 * "metrics" object with a usable time.  Here each node on the path keeps
 * what its members said so far: its name, its time and count, whether its
 * children list had elements; a node is counted when it closes, which is
 * the walk's order (leaves in file order).  A member repeated takes the
 * last value in the first one's place, as json-c and Python's dict do.
 *
 * One thing a single pass cannot undo: leaves counted inside a "children"
 * list that a second "children" of the same node then replaces.  That, and
 * more than TIME_KEYS_MAX distinct time keys in one metrics object, is
 * PROTON_STOP_UNSURE: a .hatchet is then checked to its end and handed to
 * the json-c reader (hatchet_count.c). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "hatchet.h"
#include "json_stream.h"
#include "proton.h"

/* Roles (hatchet.h) of the containers the tree gives a meaning to. */
enum role {
    R_TOP_LIST = PROTON_ROLE_DOCUMENT + 1, /* the top-level list: its objects are nodes */
    R_NODE,
    R_CHILDREN, /* a node's "children" list: its objects are nodes */
    R_FRAME,
    R_METRICS,
};

/* Slots of a node, a frame and a metrics object. */
enum slot {
    S_CHILDREN = 1,
    S_FRAME,
    S_METRICS,
    S_NAME = 1,
    S_COUNT = 1,
    S_TIME,
};

/* A node's "children" as last seen. */
enum children {
    C_NONE,      /* no "children", or not a list */
    C_EMPTY,     /* an empty list so far */
    C_NON_EMPTY, /* a list with elements: an interior node */
};

typedef struct text {
    char *data;
    size_t len, cap;
} text_t;

/* A node on the path. */
typedef struct node {
    unsigned char children;  /* enum children */
    unsigned char seen;      /* a "children" member was read */
    unsigned char committed; /* its children list counted leaves */
    unsigned char frame_ok;  /* "frame" is an object */
    unsigned char metrics_ok;
    unsigned char has_time;
    size_t mark; /* leaves counted when its children list opened */
    double ms;
    int64_t count;
    text_t name; /* the frame's name, before stripping */
} node_t;

#define TIME_KEYS_MAX 32

/* A "time (<unit>)" member of the metrics object being read. */
typedef struct time_key {
    size_t at, len; /* its key in keys */
    double factor;
    int usable;
    double ms;
} time_key_t;

struct proton_tree {
    aorta_kernels_t *kernels;
    size_t counted; /* leaves added so far */
    node_t *nodes;
    size_t depth, cap;
    /* The frame being read: its name. */
    text_t name;
    /* The metrics object being read. */
    int64_t count;
    time_key_t times[TIME_KEYS_MAX];
    size_t ntimes, current;
    text_t keys; /* the time keys' bytes */
};

typedef struct proton_tree tree_t;

/* Room for need bytes in text, what it holds kept. */
static int text_room(text_t *text, size_t need)
{
    if (need <= text->cap)
        return 0;
    size_t cap = text->cap ? text->cap : 64;
    while (cap < need)
        cap = cap <= SIZE_MAX / 2 ? cap * 2 : need;
    char *more = realloc(text->data, cap);
    if (!more)
        return PROTON_STOP_NO_MEMORY;
    text->data = more;
    text->cap = cap;
    return 0;
}

static int text_set(text_t *text, const char *data, size_t len)
{
    if (text_room(text, len + 1) != 0)
        return PROTON_STOP_NO_MEMORY;
    memcpy(text->data, data, len);
    text->len = len;
    return 0;
}

static int text_append(text_t *text, const char *data, size_t len)
{
    if (text_room(text, text->len + len + 1) != 0)
        return PROTON_STOP_NO_MEMORY;
    memcpy(text->data + text->len, data, len);
    text->len += len;
    return 0;
}

static node_t *top_node(tree_t *tree)
{
    return &tree->nodes[tree->depth - 1];
}

static int push_node(tree_t *tree)
{
    if (tree->depth == tree->cap) {
        size_t cap = tree->cap ? tree->cap * 2 : 64;
        node_t *more = realloc(tree->nodes, cap * sizeof *more);
        if (!more)
            return PROTON_STOP_NO_MEMORY;
        memset(more + tree->cap, 0, (cap - tree->cap) * sizeof *more);
        tree->nodes = more;
        tree->cap = cap;
    }
    node_t *node = &tree->nodes[tree->depth++];
    text_t name = node->name; /* the level's buffer, kept for reuse */
    *node = (node_t){.count = -1, .name = name};
    node->name.len = 0;
    return R_NODE;
}

static int same(const char *text, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(text, word, len) == 0;
}

/* A time key of the metrics object: its place among the ones seen. */
static int time_key(tree_t *tree, const char *text, size_t len, double factor)
{
    for (size_t i = 0; i < tree->ntimes; i++) {
        time_key_t *seen = &tree->times[i];
        if (seen->len == len && memcmp(tree->keys.data + seen->at, text, len) == 0) {
            tree->current = i; /* a repeated key: its value replaces the first's */
            return S_TIME;
        }
    }
    if (tree->ntimes == TIME_KEYS_MAX)
        return PROTON_STOP_UNSURE;
    size_t at = tree->keys.len;
    if (text_append(&tree->keys, text, len) != 0)
        return PROTON_STOP_NO_MEMORY;
    tree->times[tree->ntimes] = (time_key_t){.at = at, .len = len, .factor = factor};
    tree->current = tree->ntimes++;
    return S_TIME;
}

static int on_key(void *user, int role, const char *text, size_t len)
{
    tree_t *tree = user;
    switch (role) {
    case R_NODE:
        if (same(text, len, "children"))
            return S_CHILDREN;
        if (same(text, len, "frame"))
            return S_FRAME;
        return same(text, len, "metrics") ? S_METRICS : 0;
    case R_FRAME:
        return same(text, len, "name") ? S_NAME : 0;
    case R_METRICS: {
        if (same(text, len, "count"))
            return S_COUNT;
        double factor = proton_time_factor(text, len);
        return factor == 0 ? 0 : time_key(tree, text, len, factor);
    }
    default:
        return 0;
    }
}

/* A node's "children" member again: fine unless leaves were counted in the
 * list it replaces. */
static int children_again(node_t *node)
{
    if (node->seen && node->committed)
        return PROTON_STOP_UNSURE;
    node->seen = 1;
    node->committed = 0;
    return 0;
}

static int on_open(void *user, int role, int slot, int object)
{
    tree_t *tree = user;
    switch (role) {
    case PROTON_ROLE_DOCUMENT:
        return object ? push_node(tree) : R_TOP_LIST;
    case R_TOP_LIST:
        return object ? push_node(tree) : PROTON_ROLE_PLAIN;
    case R_CHILDREN:
        top_node(tree)->children = C_NON_EMPTY;
        return object ? push_node(tree) : PROTON_ROLE_PLAIN;
    case R_NODE: {
        node_t *node = top_node(tree);
        if (slot == S_CHILDREN) {
            if (children_again(node) != 0)
                return PROTON_STOP_UNSURE;
            node->children = object ? C_NONE : C_EMPTY;
            node->mark = tree->counted;
            return object ? PROTON_ROLE_PLAIN : R_CHILDREN;
        }
        if (slot == S_FRAME) {
            node->frame_ok = 0;
            tree->name.len = 0; /* no "name": "" */
            return object ? R_FRAME : PROTON_ROLE_PLAIN;
        }
        node->metrics_ok = 0;
        tree->count = -1;
        tree->ntimes = 0;
        tree->keys.len = 0;
        return object ? R_METRICS : PROTON_ROLE_PLAIN;
    }
    case R_FRAME:
        tree->name.len = 0; /* a list or an object names no kernel */
        return PROTON_ROLE_PLAIN;
    case R_METRICS:
        if (slot == S_COUNT)
            tree->count = -1;
        else
            tree->times[tree->current].usable = 0;
        return PROTON_ROLE_PLAIN;
    default:
        return PROTON_ROLE_PLAIN;
    }
}

static int frame_name(tree_t *tree, const proton_value_t *value)
{
    char *owned;
    size_t len;
    const char *text = proton_value_name(value, &len, &owned);
    int status = text_set(&tree->name, text, len);
    free(owned);
    return status;
}

static int on_scalar(void *user, int role, int slot, const proton_value_t *value)
{
    tree_t *tree = user;
    switch (role) {
    case R_CHILDREN:
        top_node(tree)->children = C_NON_EMPTY;
        return 0;
    case R_NODE: {
        node_t *node = top_node(tree);
        if (slot == S_CHILDREN) {
            if (children_again(node) != 0)
                return PROTON_STOP_UNSURE;
            node->children = C_NONE;
        } else if (slot == S_FRAME) {
            node->frame_ok = 0;
        } else {
            node->metrics_ok = 0;
        }
        return 0;
    }
    case R_FRAME:
        return frame_name(tree, value);
    case R_METRICS:
        if (slot == S_COUNT) {
            tree->count = proton_value_count(value);
        } else {
            time_key_t *time = &tree->times[tree->current];
            time->usable = proton_value_time(value, time->factor, &time->ms);
        }
        return 0;
    default:
        return 0;
    }
}

/* The node on top closes: a leaf is counted. */
static int close_node(tree_t *tree)
{
    node_t *node = top_node(tree);
    tree->depth--;
    if (node->children == C_NON_EMPTY || !node->frame_ok || !node->metrics_ok || !node->has_time)
        return 0;
    size_t len;
    const char *name = aorta_text_strip(node->name.data ? node->name.data : "", node->name.len,
                                        &len);
    if (len == 0)
        return 0;
    aorta_kernels_add(tree->kernels, name, len, node->ms, node->count);
    tree->counted++;
    return 0;
}

static int on_close(void *user, int role)
{
    tree_t *tree = user;
    node_t *node;
    switch (role) {
    case R_NODE:
        return close_node(tree);
    case R_CHILDREN:
        node = top_node(tree);
        node->committed = tree->counted != node->mark;
        return 0;
    case R_FRAME: {
        node = top_node(tree);
        node->frame_ok = 1;
        text_t name = node->name; /* the frame's name becomes the node's */
        node->name = tree->name;
        tree->name = name;
        return 0;
    }
    case R_METRICS:
        node = top_node(tree);
        node->metrics_ok = 1;
        node->has_time = 0;
        node->count = tree->count;
        for (size_t i = 0; i < tree->ntimes; i++) {
            if (tree->times[i].usable) {
                node->has_time = 1;
                node->ms = tree->times[i].ms;
                break;
            }
        }
        return 0;
    default:
        return 0;
    }
}

proton_tree_t *proton_tree_new(aorta_kernels_t *kernels)
{
    tree_t *tree = calloc(1, sizeof *tree);
    if (tree)
        tree->kernels = kernels;
    return tree;
}

void proton_tree_sink(proton_tree_t *tree, proton_sink_t *sink)
{
    *sink = (proton_sink_t){on_key, on_open, on_scalar, on_close, tree};
}

void proton_tree_free(proton_tree_t *tree)
{
    if (!tree)
        return;
    for (size_t i = 0; i < tree->cap; i++)
        free(tree->nodes[i].name.data);
    free(tree->nodes);
    free(tree->name.data);
    free(tree->keys.data);
    free(tree);
}

proton_read_t proton_hatchet_stream(int fd, aorta_kernels_t *kernels, size_t block)
{
    proton_tree_t *tree = proton_tree_new(kernels);
    if (!tree)
        return PROTON_READ_NO_MEMORY;
    proton_sink_t sink;
    proton_tree_sink(tree, &sink);
    proton_read_t status = json_stream_profile(fd, &sink, block, 0);
    proton_tree_free(tree);
    return status;
}
