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

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hatchet.h"
#include "proton.h"

static int ascii_equal_nocase(const char *text, size_t len, const char *lower)
{
    if (strlen(lower) != len)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != lower[i])
            return 0;
    }
    return 1;
}

/* Milliseconds per unit of a "time (<unit>)" metric key, or 0 for any other
 * key.  As upstream: the part before the first '(' must be "time", the rest
 * without its trailing ')'s must be a unit, both stripped and compared
 * ignoring case; so "cpu_time (ns)" and "time (ns) (inc)" are not times. */
static double unit_factor(const char *key)
{
    const char *paren = strchr(key, '(');
    if (!paren)
        return 0;
    size_t len;
    const char *head = aorta_text_strip(key, (size_t)(paren - key), &len);
    if (!ascii_equal_nocase(head, len, "time"))
        return 0;
    const char *tail = paren + 1;
    size_t tail_len = strlen(tail);
    while (tail_len > 0 && tail[tail_len - 1] == ')')
        tail_len--;
    const char *unit = aorta_text_strip(tail, tail_len, &len);
    if (ascii_equal_nocase(unit, len, "ns"))
        return 1e-6;
    if (ascii_equal_nocase(unit, len, "us"))
        return 1e-3;
    if (ascii_equal_nocase(unit, len, "ms"))
        return 1.0;
    if (ascii_equal_nocase(unit, len, "s"))
        return 1e3;
    return 0;
}

/* json-c saturates an integer literal beyond 64 bits; treat the saturated
 * values as out of range, as Python's float() of such an int overflows. */
static int int_saturated(struct json_object *value)
{
    return json_object_get_int64(value) == INT64_MIN
        || json_object_get_uint64(value) == UINT64_MAX;
}

/* Python's float(value): numbers, booleans and numeric strings. */
static int as_double(struct json_object *value, double *out)
{
    switch (json_object_get_type(value)) {
    case json_type_boolean:
        *out = json_object_get_boolean(value) ? 1.0 : 0.0;
        return 1;
    case json_type_int:
        if (int_saturated(value))
            return 0;
        if (json_object_get_int64(value) == INT64_MAX)
            *out = (double)json_object_get_uint64(value);
        else
            *out = (double)json_object_get_int64(value);
        return 1;
    case json_type_double:
        *out = json_object_get_double(value);
        return 1;
    case json_type_string:
        return aorta_number_parse_n(json_object_get_string(value),
                                    (size_t)json_object_get_string_len(value), out)
            == 0;
    default:
        return 0;
    }
}

/* The leaf's time: the first usable "time (<unit>)" member, in file order. */
static int leaf_time(struct json_object *metrics, double *ms)
{
    struct json_object_iterator it = json_object_iter_begin(metrics);
    struct json_object_iterator end = json_object_iter_end(metrics);
    for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
        double factor = unit_factor(json_object_iter_peek_name(&it));
        double value;
        if (factor == 0 || !as_double(json_object_iter_peek_value(&it), &value))
            continue;
        double scaled = value * factor;
        /* A NaN or infinity would reach the trial JSON; no kernel runs for a
         * negative time. */
        if (isfinite(scaled) && scaled >= 0) {
            *ms = scaled;
            return 1;
        }
    }
    return 0;
}

/* The leaf's launch count, or -1 when unreadable: missing, not a number, or
 * not a non-negative integer within int64 (not truncated, docs/design.md, Deviation 2). */
static int64_t leaf_count(struct json_object *metrics)
{
    struct json_object *value;
    if (!json_object_object_get_ex(metrics, "count", &value))
        return -1;
    int64_t count;
    if (json_object_is_type(value, json_type_int)) {
        /* Exact, not through a double: every int64 count is representable. */
        count = json_object_get_int64(value);
        if (count == INT64_MAX && json_object_get_uint64(value) != (uint64_t)INT64_MAX)
            return -1;
        return count >= 0 ? count : -1;
    }
    double number;
    if (!as_double(value, &number) || aorta_count_from_double(number, &count) != 0)
        return -1;
    return count;
}

/* str(frame.get("name") or "") for the values a name can take.  Falsy
 * values (missing, null, false, 0, 0.0, "") give no name.  An array or an
 * object is no kernel name either (upstream would print its repr).  Returns
 * the text in *owned when it had to be made. */
static const char *leaf_name(struct json_object *frame, size_t *len, char **owned)
{
    struct json_object *value;
    *owned = NULL;
    *len = 0;
    if (!json_object_object_get_ex(frame, "name", &value) || !value)
        return "";
    switch (json_object_get_type(value)) {
    case json_type_string:
        *len = (size_t)json_object_get_string_len(value);
        return json_object_get_string(value);
    case json_type_boolean:
        *owned = cc_xstrdup(json_object_get_boolean(value) ? "True" : "");
        break;
    case json_type_int:
        if (json_object_get_int64(value) == INT64_MAX)
            *owned = cc_xasprintf("%" PRIu64, json_object_get_uint64(value));
        else if (json_object_get_int64(value) != 0)
            *owned = cc_xasprintf("%" PRId64, json_object_get_int64(value));
        else
            *owned = cc_xstrdup("");
        break;
    case json_type_double:
        *owned = json_object_get_double(value) == 0 ? cc_xstrdup("")
                                                    : proton_float_str(json_object_get_double(value));
        break;
    default:
        return "";
    }
    *len = strlen(*owned);
    return *owned;
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
