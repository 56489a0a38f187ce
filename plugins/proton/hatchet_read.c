/* SPDX-License-Identifier: MIT */
/* hatchet_read.c - one .hatchet file into a json-c value, fed in chunks so
 * the file itself is never held whole next to the tree json-c builds: the
 * reference the streaming reader is tested against, and its fallback
 * (hatchet_count.c).  The bytes come from a descriptor, or from memory for
 * the tests (the same chunks, so the same value). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hatchet.h"
#include "proton.h"

#define READ_CHUNK (256 * 1024)

/* JSON's whitespace, the only thing allowed after the value. */
static int only_space(const unsigned char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            return 0;
    return 1;
}

/* Where the bytes come from: fd, or the len bytes at data. */
typedef struct source {
    int fd;
    int in_memory;
    const unsigned char *data;
    size_t len;
    size_t pos;
} source_t;

/* Up to cap bytes into buf, as read(2) returns them. */
static ssize_t source_read(source_t *source, unsigned char *buf, size_t cap)
{
    if (!source->in_memory)
        return read(source->fd, buf, cap);
    size_t n = source->len - source->pos < cap ? source->len - source->pos : cap;
    if (n > 0)
        memcpy(buf, source->data + source->pos, n);
    source->pos += n;
    return (ssize_t)n;
}

static struct json_object *read_value(source_t *source)
{
    struct json_tokener *tok = json_tokener_new_ex(PROTON_JSON_DEPTH);
    /* Room for the bytes held back from the last read (at most three of a
     * cut character, or one digit) and a closing NUL. */
    unsigned char *chunk = malloc(READ_CHUNK + 8);
    if (!tok || !chunk) {
        if (tok)
            json_tokener_free(tok);
        free(chunk);
        return NULL;
    }
    /* Strict is closest to Python's reader (no comments, single quotes,
     * trailing commas or leading zeros) and still takes NaN and Infinity.
     * json-c's own UTF-8 check loses characters split between two chunks, so
     * the bytes are checked here instead, as Python's strict decoder would. */
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    struct json_object *root = NULL;
    int done = 0, ok = 1;
    /* Bytes at the end of a read that are not fed to json-c yet, but open
     * the next chunk: a character the read cut (so it is checked whole), or
     * a digit or '.', because json-c forgets between two calls that a number
     * has begun and takes a '-' opening the next chunk as a new sign ("1"
     * then "-2]" would read as [1]). */
    size_t held = 0;
    for (;;) {
        ssize_t n = source_read(source, chunk + held, READ_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ok = n == 0;
            break;
        }
        size_t have = held + (size_t)n;
        int truncated;
        size_t valid = aorta_utf8_valid_prefix(chunk, have, &truncated, NULL);
        if (valid < have && !truncated) {
            ok = 0;
            break;
        }
        if (done) {
            held = 0;
            if (!only_space(chunk, have)) {
                ok = 0; /* Python's "Extra data" */
                break;
            }
            continue;
        }
        if (valid < have) {
            held = have - valid; /* a character the read cut */
        } else {
            unsigned char last = chunk[have - 1];
            held = (last >= '0' && last <= '9') || last == '.';
        }
        size_t fed = have - held;
        root = json_tokener_parse_ex(tok, (const char *)chunk, (int)fed);
        enum json_tokener_error error = json_tokener_get_error(tok);
        if (error == json_tokener_success && root) {
            done = 1;
            size_t rest = json_tokener_get_parse_end(tok);
            if (!only_space(chunk + rest, have - rest)) {
                ok = 0; /* Python's "Extra data" */
                break;
            }
            held = 0;
        } else if (error != json_tokener_continue) {
            ok = 0; /* a syntax error, too deep, or a top-level null */
            break;
        }
        memmove(chunk, chunk + fed, held);
    }
    if (ok && !done) {
        /* End of input: what was held back must be whole characters, and a
         * NUL completes a top-level number or NaN. */
        int truncated;
        ok = aorta_utf8_valid_prefix(chunk, held, &truncated, NULL) == held;
        if (ok) {
            chunk[held] = '\0';
            root = json_tokener_parse_ex(tok, (const char *)chunk, (int)held + 1);
            ok = root != NULL;
        }
    }
    json_tokener_free(tok);
    free(chunk);
    if (!ok) {
        proton_json_free(root);
        return NULL;
    }
    return root;
}

struct json_object *proton_hatchet_read(int fd)
{
    source_t source = {.fd = fd};
    return read_value(&source);
}

struct json_object *proton_hatchet_read_bytes(const unsigned char *data, size_t len)
{
    source_t source = {.fd = -1, .in_memory = 1, .data = data, .len = len};
    return read_value(&source);
}

typedef struct node_stack {
    struct json_object **items;
    size_t count;
    size_t cap;
} node_stack_t;

/* Keep a container child alive past its parent's release, to free later. */
static void hold_child(node_stack_t *stack, struct json_object *child)
{
    if (!child || (!json_object_is_type(child, json_type_array)
                   && !json_object_is_type(child, json_type_object)))
        return;
    cc_xgrow((void **)&stack->items, &stack->cap, stack->count + 1, sizeof *stack->items);
    stack->items[stack->count++] = json_object_get(child);
}

void proton_json_free(struct json_object *root)
{
    /* json_object_put() recurses once per level; instead each container's
     * container children get a reference of their own, so releasing the
     * parent leaves them alive, and are released from an explicit stack. */
    if (!root)
        return;
    node_stack_t stack = {0};
    hold_child(&stack, root);
    json_object_put(root); /* the stack holds it now */
    while (stack.count > 0) {
        struct json_object *node = stack.items[--stack.count];
        if (json_object_is_type(node, json_type_array)) {
            size_t len = json_object_array_length(node);
            for (size_t i = 0; i < len; i++)
                hold_child(&stack, json_object_array_get_idx(node, i));
        } else {
            struct json_object_iterator it = json_object_iter_begin(node);
            struct json_object_iterator end = json_object_iter_end(node);
            for (; !json_object_iter_equal(&it, &end); json_object_iter_next(&it))
                hold_child(&stack, json_object_iter_peek_value(&it));
        }
        json_object_put(node);
    }
    free(stack.items);
}
