/* SPDX-License-Identifier: MIT */
/* hatchet_walk.c - the kernels of one profile: the leaf frames of its tree
 * (docs/collectors/proton.md, counts per docs/design.md, Deviation 2).
 *
 * A .hatchet file is a list whose first element is the frame tree and whose
 * other elements are device metadata.  Leaves carry the exclusive per-kernel
 * measurements; an interior frame's metrics are inclusive and never used.
 * The walk keeps its own stack: a context: python tree is as deep as the
 * payload's Python stack, and a hostile file as deep as the reader allows. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hatchet.h"
#include "proton.h"

/* A json-c value as the leaf rule sees it (hatchet_leaf.c). */
static void value_of(struct json_object *object, proton_value_t *value)
{
    *value = (proton_value_t){.kind = PROTON_OTHER};
    switch (json_object_get_type(object)) {
    case json_type_null:
        value->kind = PROTON_NULL;
        break;
    case json_type_boolean:
        value->kind = PROTON_BOOL;
        value->boolean = json_object_get_boolean(object);
        break;
    case json_type_int:
        value->kind = PROTON_INT;
        value->i64 = json_object_get_int64(object);
        value->u64 = json_object_get_uint64(object);
        /* json-c saturates a literal beyond 64 bits at these two. */
        value->saturated = value->i64 == INT64_MIN || value->u64 == UINT64_MAX;
        break;
    case json_type_double:
        value->kind = PROTON_DOUBLE;
        value->number = json_object_get_double(object);
        break;
    case json_type_string:
        value->kind = PROTON_STRING;
        value->text = json_object_get_string(object);
        value->len = (size_t)json_object_get_string_len(object);
        break;
    default:
        break;
    }
}

/* The leaf's time: the first usable "time (<unit>)" member, in file order. */
static int leaf_time(struct json_object *metrics, double *ms)
{
    struct json_object_iterator it = json_object_iter_begin(metrics);
    struct json_object_iterator end = json_object_iter_end(metrics);
    for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
        const char *key = json_object_iter_peek_name(&it);
        double factor = proton_time_factor(key, strlen(key));
        proton_value_t value;
        if (factor == 0)
            continue;
        value_of(json_object_iter_peek_value(&it), &value);
        if (proton_value_time(&value, factor, ms))
            return 1;
    }
    return 0;
}

/* The leaf's launch count, or -1 when unreadable. */
static int64_t leaf_count(struct json_object *metrics)
{
    struct json_object *object;
    if (!json_object_object_get_ex(metrics, "count", &object))
        return -1;
    proton_value_t value;
    value_of(object, &value);
    return proton_value_count(&value);
}

/* str(frame.get("name") or "") (hatchet_leaf.c); *owned when it was made. */
static const char *leaf_name(struct json_object *frame, size_t *len, char **owned)
{
    struct json_object *object;
    proton_value_t value = {.kind = PROTON_NULL};
    if (json_object_object_get_ex(frame, "name", &object))
        value_of(object, &value);
    return proton_value_name(&value, len, owned);
}

static void count_leaf(struct json_object *node, aorta_kernels_t *kernels)
{
    struct json_object *frame, *metrics;
    if (!json_object_object_get_ex(node, "frame", &frame)
        || !json_object_is_type(frame, json_type_object)
        || !json_object_object_get_ex(node, "metrics", &metrics)
        || !json_object_is_type(metrics, json_type_object))
        return;
    size_t raw_len, len;
    char *owned;
    const char *raw = leaf_name(frame, &raw_len, &owned);
    const char *name = aorta_text_strip(raw, raw_len, &len);
    double ms;
    if (len > 0 && leaf_time(metrics, &ms))
        aorta_kernels_add(kernels, name, len, ms, leaf_count(metrics));
    free(owned);
}

typedef struct walk_stack {
    struct json_object **items;
    size_t count;
    size_t cap;
} walk_stack_t;

static void push(walk_stack_t *stack, struct json_object *node)
{
    cc_xgrow((void **)&stack->items, &stack->cap, stack->count + 1, sizeof *stack->items);
    stack->items[stack->count++] = node;
}

/* Push an array's elements so that they pop in document order. */
static void push_all(walk_stack_t *stack, struct json_object *array)
{
    for (size_t i = json_object_array_length(array); i-- > 0;)
        push(stack, json_object_array_get_idx(array, i));
}

void proton_hatchet_walk(struct json_object *root, aorta_kernels_t *kernels)
{
    walk_stack_t stack = {0};
    /* A list holds the roots (the tree, then device metadata); anything
     * else is a root of its own. */
    if (json_object_is_type(root, json_type_array))
        push_all(&stack, root);
    else
        push(&stack, root);
    while (stack.count > 0) {
        struct json_object *node = stack.items[--stack.count];
        if (!json_object_is_type(node, json_type_object))
            continue;
        struct json_object *children;
        /* A non-empty children list makes the node interior, whatever the
         * list holds; a non-list counts as no children. */
        if (json_object_object_get_ex(node, "children", &children)
            && json_object_is_type(children, json_type_array)
            && json_object_array_length(children) > 0)
            push_all(&stack, children);
        else
            count_leaf(node, kernels);
    }
    free(stack.items);
}
