/* SPDX-License-Identifier: MIT */
/* hatchet_split.c - a .hatchet tree one node at a time.
 *
 * json-c builds a hash table for every object (some 700 bytes), so the
 * whole tree of a compact profile takes over 20 times the file.  Here a
 * small scanner reads the structure only: strings and their escapes,
 * brackets, and in a node its keys, colons and commas; json-c still parses
 * every value.  A node (the top-level object, an object in the top-level
 * list, an object in a node's "children" list) goes to json-c when its
 * closing brace is reached, each child node (already counted) replaced by
 * null; it is walked with the leaf rule and released.  The walk sees what
 * it sees in the whole tree: a list of nulls is still a non-empty children
 * list, so the node is interior, and leaves come in file order.  So json-c
 * holds one node at a time, the scanner a stack of open brackets and the
 * positions of the child nodes of the nodes still open.
 *
 * Whatever the scanner is not sure of is PROTON_SPLIT_UNSURE, and the
 * caller reads the whole value as before: a ' (json-c takes it around a
 * key), a key with an escape or a NUL (json-c may read it as "children"), a
 * second "children" key, a byte out of place in a node or a list of nodes,
 * a container at json-c's depth limit that is not empty, or a piece json-c
 * refuses or ends elsewhere.  PROTON_SPLIT_REFUSED is only what the whole
 * read refuses for certain: a file that ends inside its value, or holds
 * more than whitespace after it. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hatchet.h"
#include "proton.h"

enum kind {
    K_ARRAY,    /* a list that holds no nodes */
    K_OBJECT,   /* an object that is no node */
    K_NODE,     /* a node: its members are scanned */
    K_CHILDREN, /* a node's "children" list: its objects are nodes */
    K_TOP,      /* the top-level list: its objects are nodes */
};

/* Where a node or a list of nodes is between its members. */
enum state {
    S_FIRST, /* after the opening bracket */
    S_NEXT,  /* after a comma */
    S_COLON, /* a node, after a key */
    S_VALUE, /* a node, after the colon */
    S_AFTER, /* after a member */
};

/* A node's flags. */
#define F_CHILDREN_SEEN 1u /* a "children" key was read */
#define F_CHILDREN_KEY 2u  /* the member being read is the first "children" */
#define F_ODD_KEY 4u       /* a key held an escape or a NUL */
#define F_SPLIT 8u         /* its "children" list is being split */

/* Byte classes. */
#define C_WS 1u   /* json-c's whitespace (only these four) */
#define C_MARK 2u /* what matters inside a container that holds no nodes */
#define C_END 4u  /* what ends a number or a literal */

static const unsigned char classes[256] = {
    [' '] = C_WS | C_END, ['\t'] = C_WS | C_END, ['\n'] = C_WS | C_END,
    ['\r'] = C_WS | C_END, ['"'] = C_MARK | C_END, ['\''] = C_MARK | C_END,
    ['['] = C_MARK | C_END, [']'] = C_MARK | C_END, ['{'] = C_MARK | C_END,
    ['}'] = C_MARK | C_END, [','] = C_END, [':'] = C_END,
};

/* The scan goes on (the results are proton_split_t's). */
#define GO (-1)
#define NONE ((size_t)-1)

typedef struct frame {
    size_t start; /* the opening bracket */
    size_t spans; /* K_NODE, K_TOP: where its child nodes start in spans */
    unsigned char kind;
    unsigned char state;
    unsigned char flags;
} frame_t;

typedef struct span {
    size_t start, end; /* a child node's bytes, end exclusive */
} span_t;

typedef struct scan {
    const unsigned char *data;
    size_t len;
    size_t feed_max;
    aorta_kernels_t *kernels;
    struct json_tokener *tok;
    frame_t *frames;
    size_t depth;
    size_t frames_cap;
    span_t *spans;
    size_t nspans;
    size_t spans_cap;
    unsigned char *buf; /* a piece with its child nodes replaced */
    size_t buf_cap;
} scan_t;

static size_t skip_ws(const scan_t *s, size_t i)
{
    while (i < s->len && (classes[s->data[i]] & C_WS))
        i++;
    return i;
}

static size_t skip_to(const scan_t *s, size_t i, unsigned char class)
{
    while (i < s->len && !(classes[s->data[i]] & class))
        i++;
    return i;
}

/* The end (past the closing quote) of the string opening at i, or NONE when
 * the file ends first.  A quote is escaped when an odd run of backslashes
 * leads to it, as json-c reads every string it accepts. */
static size_t string_end(const scan_t *s, size_t i)
{
    size_t from = i + 1;
    for (;;) {
        const unsigned char *quote = memchr(s->data + from, '"', s->len - from);
        if (!quote)
            return NONE;
        size_t at = (size_t)(quote - s->data);
        size_t run = 0;
        while (at - run > i + 1 && s->data[at - run - 1] == '\\')
            run++;
        if (run % 2 == 0)
            return at + 1;
        from = at + 1;
    }
}

/* Room for need items of size bytes; -1 when there is no memory. */
static int grow(void **items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t want = *cap ? *cap : 64;
    while (want < need)
        want = want <= SIZE_MAX / 2 ? want * 2 : need;
    if (want > SIZE_MAX / size)
        return -1;
    void *more = realloc(*items, want * size);
    if (!more)
        return -1;
    *items = more;
    *cap = want;
    return 0;
}

/* Open the container at i.  json-c refuses a value PROTON_JSON_DEPTH levels
 * down (the top value is level 0), so a container one level up may only be
 * empty; beyond that the whole read refuses the file as json-c counts.  A
 * piece starts at its node's level, so json-c's own count in it stays
 * below the scanner's. */
static int open_container(scan_t *s, size_t i, enum kind kind)
{
    if (s->depth >= PROTON_JSON_DEPTH - 1) {
        size_t next = skip_ws(s, i + 1);
        unsigned char close = kind == K_OBJECT || kind == K_NODE ? '}' : ']';
        if (next >= s->len || s->data[next] != close)
            return PROTON_SPLIT_UNSURE;
    }
    if (grow((void **)&s->frames, &s->frames_cap, s->depth + 1, sizeof *s->frames) != 0)
        return PROTON_SPLIT_UNSURE;
    s->frames[s->depth++] = (frame_t){.start = i, .spans = s->nspans, .kind = (unsigned char)kind};
    return GO;
}

/* A member of the container now on top has ended. */
static void member_done(scan_t *s)
{
    frame_t *f = &s->frames[s->depth - 1];
    if (f->kind != K_ARRAY && f->kind != K_OBJECT)
        f->state = S_AFTER;
}

/* json-c's value of the len bytes at p, which must end with them.  Reads
 * are at most feed_max bytes and never end on a digit or '.', which json-c
 * would forget began a number (see hatchet_read.c). */
static struct json_object *feed(scan_t *s, const unsigned char *p, size_t len)
{
    json_tokener_reset(s->tok);
    while (len > 0) {
        size_t n = len;
        if (n > s->feed_max) {
            n = s->feed_max;
            if ((p[n - 1] >= '0' && p[n - 1] <= '9') || p[n - 1] == '.')
                n--;
        }
        struct json_object *value = json_tokener_parse_ex(s->tok, (const char *)p, (int)n);
        enum json_tokener_error error = json_tokener_get_error(s->tok);
        p += n;
        len -= n;
        if (error == json_tokener_continue && len > 0)
            continue;
        if (error == json_tokener_success && len == 0 && value
            && json_tokener_get_parse_end(s->tok) == n)
            return value;
        /* Refused, or ended elsewhere than the scanner found. */
        json_object_put(value);
        return NULL;
    }
    return NULL;
}

/* json-c's value of [from, to) with the child nodes in spans[first..]
 * replaced by null, walked and released.  The piece is put together in
 * one buffer: json-c sets up its locale on every call. */
static int piece(scan_t *s, size_t from, size_t to, size_t first)
{
    const unsigned char *text = s->data + from;
    size_t len = to - from;
    if (first < s->nspans) {
        size_t need = len;
        for (size_t k = first; k < s->nspans; k++)
            need = need - (s->spans[k].end - s->spans[k].start) + 4;
        if (grow((void **)&s->buf, &s->buf_cap, need, 1) != 0)
            return PROTON_SPLIT_UNSURE;
        size_t pos = from, at = 0;
        for (size_t k = first; k < s->nspans; k++) {
            memcpy(s->buf + at, s->data + pos, s->spans[k].start - pos);
            at += s->spans[k].start - pos;
            memcpy(s->buf + at, "null", 4);
            at += 4;
            pos = s->spans[k].end;
        }
        memcpy(s->buf + at, s->data + pos, to - pos);
        text = s->buf;
        len = need;
    }
    struct json_object *value = feed(s, text, len);
    if (!value)
        return PROTON_SPLIT_UNSURE;
    proton_hatchet_walk(value, s->kernels);
    proton_json_free(value);
    s->nspans = first; /* its child nodes are done with */
    return GO;
}

/* After the top-level value, which ends before end: whitespace only, as the
 * whole read wants. */
static int finish(const scan_t *s, size_t end)
{
    return skip_ws(s, end) == s->len ? PROTON_SPLIT_OK : PROTON_SPLIT_REFUSED;
}

/* The node on top closes at i. */
static int close_node(scan_t *s, size_t i)
{
    frame_t node = s->frames[--s->depth];
    int status = piece(s, node.start, i + 1, node.spans);
    if (status != GO)
        return status;
    if (s->depth == 0)
        return finish(s, i + 1);
    /* A child node: null in its parent's piece. */
    if (grow((void **)&s->spans, &s->spans_cap, s->nspans + 1, sizeof *s->spans) != 0)
        return PROTON_SPLIT_UNSURE;
    s->spans[s->nspans++] = (span_t){node.start, i + 1};
    member_done(s);
    return GO;
}

/* The list of nodes on top closes at i. */
static int close_list(scan_t *s, size_t i)
{
    frame_t list = s->frames[--s->depth];
    if (list.kind == K_CHILDREN) {
        member_done(s);
        return GO;
    }
    int status = piece(s, list.start, i + 1, list.spans);
    return status == GO ? finish(s, i + 1) : status;
}

/* A string or a bare number or literal at i, a member of the node or list
 * on top; *i moves past it. */
static int scalar(scan_t *s, size_t *i)
{
    unsigned char c = s->data[*i];
    if (c == '"') {
        *i = string_end(s, *i);
        if (*i == NONE)
            return PROTON_SPLIT_REFUSED;
    } else if (classes[c] & C_END) {
        return PROTON_SPLIT_UNSURE; /* a bracket, quote or separator out of place */
    } else {
        *i = skip_to(s, *i, C_END);
    }
    member_done(s);
    return GO;
}

/* A key at i in the node on top. */
static int key(scan_t *s, frame_t *node, size_t *i)
{
    size_t end = string_end(s, *i);
    if (end == NONE)
        return PROTON_SPLIT_REFUSED;
    const unsigned char *text = s->data + *i + 1;
    size_t len = end - *i - 2;
    node->flags &= (unsigned char)~F_CHILDREN_KEY;
    if (memchr(text, '\\', len) || memchr(text, '\0', len)) {
        if (node->flags & F_SPLIT)
            return PROTON_SPLIT_UNSURE;
        node->flags |= F_ODD_KEY;
    } else if (len == 8 && memcmp(text, "children", 8) == 0) {
        /* json-c keeps the last value of a key: a second list would
         * replace the one split. */
        if (node->flags & F_SPLIT)
            return PROTON_SPLIT_UNSURE;
        if (!(node->flags & F_CHILDREN_SEEN))
            node->flags |= F_CHILDREN_KEY;
        node->flags |= F_CHILDREN_SEEN;
    }
    node->state = S_COLON;
    *i = end;
    return GO;
}

static int node_step(scan_t *s, frame_t *node, size_t *i)
{
    unsigned char c = s->data[*i];
    switch (node->state) {
    case S_FIRST:
        if (c == '}')
            break;
        /* fall through */
    case S_NEXT:
        return c == '"' ? key(s, node, i) : PROTON_SPLIT_UNSURE;
    case S_COLON:
        if (c != ':')
            return PROTON_SPLIT_UNSURE;
        node->state = S_VALUE;
        (*i)++;
        return GO;
    case S_VALUE:
        if (c == '[' && (node->flags & (F_CHILDREN_KEY | F_ODD_KEY)) == F_CHILDREN_KEY) {
            node->flags |= F_SPLIT;
            return open_container(s, (*i)++, K_CHILDREN);
        }
        if (c == '[' || c == '{')
            return open_container(s, (*i)++, c == '[' ? K_ARRAY : K_OBJECT);
        return scalar(s, i);
    default: /* S_AFTER */
        if (c == ',') {
            node->state = S_NEXT;
            (*i)++;
            return GO;
        }
        if (c != '}')
            return PROTON_SPLIT_UNSURE;
        break;
    }
    int status = close_node(s, *i);
    (*i)++;
    return status;
}

static int list_step(scan_t *s, frame_t *list, size_t *i)
{
    unsigned char c = s->data[*i];
    if (list->state == S_AFTER) {
        if (c == ',') {
            list->state = S_NEXT;
            (*i)++;
            return GO;
        }
        if (c != ']')
            return PROTON_SPLIT_UNSURE;
    }
    if (list->state == S_AFTER || (list->state == S_FIRST && c == ']')) {
        int status = close_list(s, *i);
        (*i)++;
        return status;
    }
    if (c == '{')
        return open_container(s, (*i)++, K_NODE);
    if (c == '[')
        return open_container(s, (*i)++, K_ARRAY);
    return scalar(s, i);
}

/* Inside a container that holds no nodes: only strings and brackets. */
static int plain_step(scan_t *s, frame_t *f, size_t *i)
{
    unsigned char c = s->data[*i];
    switch (c) {
    case '"':
        *i = string_end(s, *i);
        return *i == NONE ? PROTON_SPLIT_REFUSED : GO;
    case '[':
        return open_container(s, (*i)++, K_ARRAY);
    case '{':
        return open_container(s, (*i)++, K_OBJECT);
    case ']':
    case '}':
        if ((c == ']') != (f->kind == K_ARRAY))
            return PROTON_SPLIT_UNSURE;
        s->depth--;
        (*i)++;
        member_done(s);
        return GO;
    default: /* ' */
        return PROTON_SPLIT_UNSURE;
    }
}

static int scan(scan_t *s)
{
    size_t i = skip_ws(s, 0);
    /* A scalar, or nothing: the whole read has it. */
    if (i >= s->len || (s->data[i] != '[' && s->data[i] != '{'))
        return PROTON_SPLIT_UNSURE;
    int status = open_container(s, i, s->data[i] == '[' ? K_TOP : K_NODE);
    i++;
    while (status == GO) {
        frame_t *f = &s->frames[s->depth - 1];
        int plain = f->kind == K_ARRAY || f->kind == K_OBJECT;
        i = plain ? skip_to(s, i, C_MARK) : skip_ws(s, i);
        if (i >= s->len)
            return PROTON_SPLIT_REFUSED; /* the file ends inside the value */
        if (plain)
            status = plain_step(s, f, &i);
        else if (f->kind == K_NODE)
            status = node_step(s, f, &i);
        else
            status = list_step(s, f, &i);
    }
    return status;
}

proton_split_t proton_hatchet_split(const unsigned char *data, size_t len,
                                    aorta_kernels_t *kernels, size_t feed_max)
{
    scan_t s = {.data = data, .len = len, .feed_max = feed_max < 2 ? 2 : feed_max,
                .kernels = kernels};
    s.tok = json_tokener_new_ex(PROTON_JSON_DEPTH);
    if (!s.tok)
        return PROTON_SPLIT_UNSURE;
    /* As the whole read (hatchet_read.c). */
    json_tokener_set_flags(s.tok, JSON_TOKENER_STRICT);
    int status = scan(&s);
    json_tokener_free(s.tok);
    free(s.frames);
    free(s.spans);
    free(s.buf);
    return (proton_split_t)status;
}
