/* SPDX-License-Identifier: MIT */
/* hatchet_msgpack.c - the tree as Proton's hatchet_msgpack writes it
 * (<name>.hatchet_msgpack: the JSON tree's lists and maps in MessagePack),
 * its leaves counted by the tree's own sink (hatchet_tree.c).
 *
 * msgpack-c decodes every scalar; this file follows the maps and arrays
 * around them, a header at a time, so that only the path to the current
 * node is held (msgpack-c's own unpacker would build the whole tree, and
 * stops at 32 levels, where a context: python tree is deeper).  What
 * Python's msgpack.unpackb() refuses is refused: a string that is not
 * UTF-8, a map key that is neither a string nor bytes, nesting past 1,024
 * containers, bytes after the value, a cut file, a byte no type has, a
 * timestamp (extension -1) that is none.
 * Reads are of a fixed block size; a scalar longer than the buffer is held
 * whole.  A bytes key never names a member, a bytes or ext value is
 * neither name nor number (docs/collectors/proton.md). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if HAVE_MSGPACK
#include <msgpack.h>
#endif

#include "hatchet.h"
#include "proton.h"

#if HAVE_MSGPACK

/* Python's unpacker nests at most this many containers. */
#define MSGPACK_DEPTH 1024
#define BLOCK ((size_t)256 << 10)

typedef struct level {
    unsigned char object;
    unsigned char role;
    unsigned char slot;  /* of the member or element being read */
    unsigned char value; /* an object: its member's key was read, its value is next */
    uint32_t left;       /* elements, or members, still to come */
} level_t;

typedef struct reader {
    int fd;
    unsigned char *buf;
    size_t cap, have, at;
    int eof;
    const proton_sink_t *sink;
    int mute;
    proton_read_t status;
    level_t levels[MSGPACK_DEPTH];
    size_t depth;
    msgpack_unpacked unpacked;
} reader_t;

static int fail(reader_t *r, proton_read_t status)
{
    r->status = status;
    return 1;
}

/* What a callback returned when it is not a role or slot. */
static int stopped(reader_t *r, int result)
{
    if (result == PROTON_STOP_UNSURE) {
        r->mute = 1;
        return 0;
    }
    return fail(r, PROTON_READ_NO_MEMORY);
}

/* At least n bytes from at, reading on (and growing) as needed; 0 when the
 * file ends first. */
static int ensure(reader_t *r, size_t n)
{
    while (r->have - r->at < n) {
        if (r->eof)
            return 0;
        if (r->at > 0) {
            memmove(r->buf, r->buf + r->at, r->have - r->at);
            r->have -= r->at;
            r->at = 0;
        }
        if (r->cap - r->have < BLOCK || r->cap < n) {
            size_t cap = r->cap ? r->cap : BLOCK;
            while (cap - r->have < BLOCK || cap < n)
                cap = cap <= SIZE_MAX / 2 ? cap * 2 : SIZE_MAX;
            unsigned char *buf = realloc(r->buf, cap);
            if (!buf) {
                fail(r, PROTON_READ_NO_MEMORY);
                return 0;
            }
            r->buf = buf;
            r->cap = cap;
        }
        ssize_t got = read(r->fd, r->buf + r->have, BLOCK);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            r->eof = 1;
            if (got < 0)
                fail(r, PROTON_READ_REFUSED);
        } else {
            r->have += (size_t)got;
        }
    }
    return 1;
}

static uint32_t big_endian(const unsigned char *p, size_t n)
{
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* A map or array header at at: 1 with *count and *object, 0 for another
 * type, -1 when the file ends inside it. */
static int container_header(reader_t *r, uint32_t *count, int *object)
{
    unsigned char b = r->buf[r->at];
    size_t size = 0;
    if (b >= 0x80 && b <= 0x9f) {
        *object = b < 0x90;
        *count = b & 0x0f;
        r->at++;
        return 1;
    }
    if (b == 0xde || b == 0xdc)
        size = 2;
    else if (b == 0xdf || b == 0xdd)
        size = 4;
    else
        return 0;
    if (!ensure(r, 1 + size))
        return -1;
    *object = b == 0xde || b == 0xdf;
    *count = big_endian(r->buf + r->at + 1, size);
    r->at += 1 + size;
    return 1;
}

/* Extension type -1, msgpack's timestamp, as Python's reads it: 4, 8 or
 * 12 bytes, the nanoseconds below 10^9. */
static int timestamp_valid(const char *data, uint32_t size)
{
    const unsigned char *p = (const unsigned char *)data;
    if (size == 4)
        return 1;
    if (size == 8)
        return big_endian(p, 4) >> 2 < 1000000000u;
    if (size == 12)
        return big_endian(p, 4) < 1000000000u;
    return 0;
}

/* The scalar at at, through msgpack-c, as Python reads it: *value set (its
 * text, if any, borrowed until the next read), at moved past it. */
static int scalar(reader_t *r, proton_value_t *value, msgpack_object_type *type)
{
    for (;;) {
        size_t off = 0;
        msgpack_unpack_return got = msgpack_unpack_next(
            &r->unpacked, (const char *)r->buf + r->at, r->have - r->at, &off);
        if (got == MSGPACK_UNPACK_NOMEM_ERROR)
            return fail(r, PROTON_READ_NO_MEMORY);
        if (got == MSGPACK_UNPACK_PARSE_ERROR)
            return fail(r, PROTON_READ_REFUSED);
        if (got == MSGPACK_UNPACK_CONTINUE) {
            /* Cut short here: read on, or the file is cut. */
            if (!ensure(r, r->have - r->at + 1))
                return r->status != PROTON_READ_OK ? 1 : fail(r, PROTON_READ_REFUSED);
            continue;
        }
        const msgpack_object *o = &r->unpacked.data;
        *type = o->type;
        *value = (proton_value_t){.kind = PROTON_OTHER};
        switch (o->type) {
        case MSGPACK_OBJECT_NIL:
            value->kind = PROTON_NULL;
            break;
        case MSGPACK_OBJECT_BOOLEAN:
            value->kind = PROTON_BOOL;
            value->boolean = o->via.boolean;
            break;
        case MSGPACK_OBJECT_POSITIVE_INTEGER:
            value->kind = PROTON_INT;
            value->u64 = o->via.u64;
            value->i64 = o->via.u64 > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)o->via.u64;
            break;
        case MSGPACK_OBJECT_NEGATIVE_INTEGER:
            value->kind = PROTON_INT;
            value->i64 = o->via.i64;
            break;
        case MSGPACK_OBJECT_FLOAT32:
        case MSGPACK_OBJECT_FLOAT64:
            value->kind = PROTON_DOUBLE;
            value->number = o->via.f64;
            break;
        case MSGPACK_OBJECT_STR:
            /* Python decodes every str as strict UTF-8. */
            if (aorta_utf8_valid_prefix(o->via.str.ptr, o->via.str.size, NULL, NULL)
                != o->via.str.size)
                return fail(r, PROTON_READ_REFUSED);
            value->kind = PROTON_STRING;
            /* msgpack-c leaves an empty str's pointer NULL, which memchr()
             * and memcmp() may not be given even for 0 bytes (a fuzz
             * finding: an empty key among the metrics). */
            value->text = o->via.str.size ? o->via.str.ptr : "";
            value->len = o->via.str.size;
            break;
        case MSGPACK_OBJECT_EXT:
            if (o->via.ext.type == -1 && !timestamp_valid(o->via.ext.ptr, o->via.ext.size))
                return fail(r, PROTON_READ_REFUSED);
            break;
        default:
            break; /* bytes */
        }
        r->at += off;
        return 0;
    }
}

static int parent_wanted(const reader_t *r, int *role, int *slot)
{
    *role = r->depth ? r->levels[r->depth - 1].role : PROTON_ROLE_DOCUMENT;
    *slot = r->depth ? r->levels[r->depth - 1].slot : PROTON_SLOT_ELEMENT;
    return !r->mute && *role != PROTON_ROLE_PLAIN && *slot != 0;
}

/* The value at at: a container opens a level, a scalar goes to the sink. */
static int value(reader_t *r)
{
    if (!ensure(r, 1))
        return r->status != PROTON_READ_OK ? 1 : fail(r, PROTON_READ_REFUSED);
    int role, slot, wanted = parent_wanted(r, &role, &slot);
    uint32_t count;
    int object;
    int header = container_header(r, &count, &object);
    if (header < 0)
        return r->status != PROTON_READ_OK ? 1 : fail(r, PROTON_READ_REFUSED);
    if (header) {
        if (r->depth >= MSGPACK_DEPTH)
            return fail(r, PROTON_READ_REFUSED);
        int child = PROTON_ROLE_PLAIN;
        if (wanted) {
            int result = r->sink->open(r->sink->user, role, slot, object);
            if (result >= 0)
                child = result;
            else if (stopped(r, result))
                return 1;
        }
        r->levels[r->depth++] = (level_t){.object = (unsigned char)object,
                                          .role = (unsigned char)child,
                                          .slot = object ? 0 : PROTON_SLOT_ELEMENT,
                                          .left = count};
        return 0;
    }
    proton_value_t v;
    msgpack_object_type type;
    if (scalar(r, &v, &type))
        return 1;
    if (wanted) {
        int result = r->sink->scalar(r->sink->user, role, slot, &v);
        if (result < 0 && stopped(r, result))
            return 1;
    }
    return 0;
}

/* A key of the object on top: a string (its slot asked of the sink) or
 * bytes (no member of the sink's); anything else Python refuses. */
static int key(reader_t *r, level_t *top)
{
    if (!ensure(r, 1))
        return r->status != PROTON_READ_OK ? 1 : fail(r, PROTON_READ_REFUSED);
    unsigned char b = r->buf[r->at];
    if ((b >= 0x80 && b <= 0x9f) || (b >= 0xdc && b <= 0xdf))
        return fail(r, PROTON_READ_REFUSED); /* a list or a map as a key */
    proton_value_t v;
    msgpack_object_type type;
    if (scalar(r, &v, &type))
        return 1;
    if (type != MSGPACK_OBJECT_STR && type != MSGPACK_OBJECT_BIN)
        return fail(r, PROTON_READ_REFUSED);
    top->slot = 0;
    if (type == MSGPACK_OBJECT_STR && !r->mute && top->role != PROTON_ROLE_PLAIN) {
        int result = r->sink->key(r->sink->user, top->role, v.text, v.len);
        if (result >= 0)
            top->slot = (unsigned char)result;
        else if (stopped(r, result))
            return 1;
    }
    top->value = 1;
    return 0;
}

static int walk(reader_t *r)
{
    if (value(r))
        return 1;
    while (r->depth > 0) {
        level_t *top = &r->levels[r->depth - 1];
        if (top->object && top->value) {
            top->value = 0;
            if (value(r))
                return 1;
            continue;
        }
        if (top->left == 0) {
            int role = top->role;
            r->depth--;
            if (!r->mute && role != PROTON_ROLE_PLAIN) {
                int result = r->sink->close(r->sink->user, role);
                if (result < 0 && stopped(r, result))
                    return 1;
            }
            continue;
        }
        top->left--;
        if (top->object ? key(r, top) : value(r))
            return 1;
    }
    /* Python's ExtraData: nothing may follow the value. */
    if (ensure(r, 1))
        return fail(r, PROTON_READ_REFUSED);
    if (r->status == PROTON_READ_OK && r->mute)
        r->status = PROTON_READ_UNSURE;
    return 0;
}

int proton_msgpack_available(void)
{
    return 1;
}

proton_read_t proton_msgpack_read(int fd, aorta_kernels_t *kernels)
{
    reader_t *r = calloc(1, sizeof *r);
    proton_tree_t *tree = proton_tree_new(kernels);
    proton_read_t status = PROTON_READ_NO_MEMORY;
    if (r && tree) {
        proton_sink_t sink;
        proton_tree_sink(tree, &sink);
        r->fd = fd;
        r->sink = &sink;
        r->status = PROTON_READ_OK;
        msgpack_unpacked_init(&r->unpacked);
        walk(r);
        msgpack_unpacked_destroy(&r->unpacked);
        status = r->status;
        free(r->buf);
    }
    proton_tree_free(tree);
    free(r);
    return status;
}

#else /* !HAVE_MSGPACK */

int proton_msgpack_available(void)
{
    return 0;
}

proton_read_t proton_msgpack_read(int fd, aorta_kernels_t *kernels)
{
    (void)fd;
    (void)kernels;
    return PROTON_READ_REFUSED;
}

#endif
