/* SPDX-License-Identifier: MIT */
/* json_stream.c - strict JSON in one pass over a descriptor (json_stream.h).
 *
 * The bytes come in reads of a fixed block size into one buffer; a window
 * of 64 of them at a time becomes bit masks (json_window.h), and from the
 * masks, as simdjson does, the bytes that carry structure: the quotes that
 * open and close strings (a quote counts unless an odd run of backslashes
 * leads to it), the brackets, colons and commas outside strings, and the
 * first byte of each number or literal.  Only those bytes go through the
 * state machine below; the rest are checked by mask: no raw control
 * character inside a string, every escape one of Python's, UTF-8 valid
 * everywhere (as Python's strict decoder reads the file first).  A number
 * or literal is read when the next structural byte shows where its run
 * ends; a string is handed on when its closing quote is found.  So the
 * buffer keeps only the block being read and the token still open.
 *
 * Strict means Python's json module: RFC 8259 with NaN, Infinity and
 * -Infinity; no single quotes, no "1." or "01", no raw control characters
 * in strings, no BOM, nothing after the value but whitespace (" \t\n\r").
 * What it refuses never reaches json-c, which is laxer. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_stream.h"
#include "json_window.h"

/* Room after the data: a window's loads past the last byte read, and the
 * four hex digits an escape at a window's end looks at. */
#define LOOKAHEAD 8
#define PAD (JSON_WINDOW + LOOKAHEAD)

enum state {
    ST_VALUE,          /* a value: the top one, after ':' or after ',' in a list */
    ST_VALUE_OR_CLOSE, /* after '[' */
    ST_KEY,            /* after ',' in an object */
    ST_KEY_OR_CLOSE,   /* after '{' */
    ST_COLON,          /* after a key */
    ST_AFTER,          /* after a member or an element */
    ST_DONE,           /* after the top value */
    ST_STRING,         /* in a string value: the next structural byte closes it */
    ST_KEY_STRING,     /* in a key */
    ST_SCALAR,         /* a number or literal began at token */
};

typedef struct stream {
    int fd;
    const proton_sink_t *sink;
    json_scratch_t scratch; /* a key or string undone of its escapes */
    int sequence;
    int mute; /* the sink stopped listening: the rest is only checked */
    json_status_t status;
    unsigned char *buf; /* cap bytes of room, and PAD more */
    size_t cap;
    size_t block;
    size_t have;  /* bytes read into buf */
    size_t front; /* where the next window starts */
    int eof;
    /* Carried from one window to the next. */
    uint64_t in_string; /* all ones when the window starts inside a string */
    uint64_t escaped;   /* 1 when its first byte is escaped */
    uint64_t scalar;    /* 1 when the byte before it belongs to a number or literal */
    unsigned utf8_need, utf8_lo, utf8_hi;
    /* The parse. */
    enum state state;
    size_t token;     /* where the open string or scalar began */
    size_t backslash; /* past the last backslash the windows read (0: none yet) */
    int token_needed; /* whether its bytes must stay in buf */
    size_t depth;
    unsigned char *object; /* per open container: 1 object, 0 list */
    unsigned char *role;
    unsigned char *slot; /* the slot of the member or element being read */
} stream_t;

/* Bytes that end a number or literal: whitespace, structure, a quote. */
static const unsigned char delimiter[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['"'] = 1,
    ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1, [':'] = 1, [','] = 1,
};

static const signed char hex_digit[256] = {
    ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
    ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
    ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* The characters Python's json takes after a backslash. */
static const unsigned char escape_char[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f',
    ['n'] = '\n', ['r'] = '\r', ['t'] = '\t', ['u'] = 'u',
};

static int fail(stream_t *s, json_status_t status)
{
    s->status = status;
    return 1;
}

static int invalid(stream_t *s)
{
    return fail(s, JSON_INVALID);
}

/* What a callback returned, when it is not a role or a slot: 0 to go on
 * (unsure: checking only from now on), 1 to stop. */
static int stopped(stream_t *s, int result)
{
    if (result == PROTON_STOP_UNSURE) {
        s->mute = 1;
        return 0;
    }
    return fail(s, JSON_NO_MEMORY);
}

static int parent_role(const stream_t *s)
{
    return s->depth ? s->role[s->depth - 1] : PROTON_ROLE_DOCUMENT;
}

static int parent_slot(const stream_t *s)
{
    return s->depth ? s->slot[s->depth - 1] : PROTON_SLOT_ELEMENT;
}

/* Whether the sink hears of the value that starts now. */
static int value_wanted(const stream_t *s)
{
    return !s->mute && parent_role(s) != PROTON_ROLE_PLAIN && parent_slot(s) != 0;
}

static int open_container(stream_t *s, int object)
{
    /* The top value is level 0; json-c refuses a value at PROTON_JSON_DEPTH. */
    if (s->depth >= PROTON_JSON_DEPTH)
        return invalid(s);
    int role = PROTON_ROLE_PLAIN;
    if (value_wanted(s)) {
        int result = s->sink->open(s->sink->user, parent_role(s), parent_slot(s), object);
        if (result >= 0)
            role = result;
        else if (stopped(s, result))
            return 1;
    }
    s->object[s->depth] = (unsigned char)object;
    s->role[s->depth] = (unsigned char)role;
    s->slot[s->depth] = object ? 0 : PROTON_SLOT_ELEMENT;
    s->depth++;
    return 0;
}

static int close_container(stream_t *s, unsigned char c)
{
    if (s->depth == 0)
        return invalid(s);
    size_t top = s->depth - 1;
    if (s->object[top] != (c == '}'))
        return invalid(s);
    if (!s->mute && s->role[top] != PROTON_ROLE_PLAIN) {
        int result = s->sink->close(s->sink->user, s->role[top]);
        if (result < 0 && stopped(s, result))
            return 1;
    }
    s->depth = top;
    return 0;
}

/* A number as Python's scanner matches one: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][-+]?[0-9]+)?; the byte after it, or NULL. */
static const unsigned char *number_end(const unsigned char *p, int *is_double)
{
    if (*p == '-')
        p++;
    if (*p == '0') {
        p++;
    } else if (*p >= '1' && *p <= '9') {
        do
            p++;
        while (*p >= '0' && *p <= '9');
    } else {
        return NULL;
    }
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return NULL;
        do
            p++;
        while (*p >= '0' && *p <= '9');
        *is_double = 1;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (*p < '0' || *p > '9')
            return NULL;
        do
            p++;
        while (*p >= '0' && *p <= '9');
        *is_double = 1;
    }
    return p;
}

static int deliver(stream_t *s, const json_token_t *token);

/* The number or literal whose run starts at start (the run ends at the
 * next structural byte, whitespace, or the padding after the last byte). */
static int scalar(stream_t *s, size_t start)
{
    const unsigned char *p = s->buf + start, *end = NULL;
    json_token_t token = {.kind = JSON_TOKEN_NUMBER, .text = (const char *)p};
    switch (*p) {
    case 't':
        token.kind = JSON_TOKEN_TRUE;
        end = memcmp(p, "true", 4) ? NULL : p + 4;
        break;
    case 'f':
        token.kind = JSON_TOKEN_FALSE;
        end = memcmp(p, "false", 5) ? NULL : p + 5;
        break;
    case 'n':
        token.kind = JSON_TOKEN_NULL;
        end = memcmp(p, "null", 4) ? NULL : p + 4;
        break;
    case 'N':
        token.kind = JSON_TOKEN_NAN;
        end = memcmp(p, "NaN", 3) ? NULL : p + 3;
        break;
    case 'I':
        token.kind = JSON_TOKEN_INFINITY;
        end = memcmp(p, "Infinity", 8) ? NULL : p + 8;
        break;
    default:
        if (p[0] == '-' && p[1] == 'I') {
            token.kind = JSON_TOKEN_MINUS_INFINITY;
            end = memcmp(p, "-Infinity", 9) ? NULL : p + 9;
        } else {
            end = number_end(p, &token.is_double);
        }
        break;
    }
    /* The whole run must be the token ("1.", "01", "truex" are not). */
    if (!end || !delimiter[*end] || s->depth >= PROTON_JSON_DEPTH)
        return invalid(s);
    token.len = (size_t)(end - p);
    return value_wanted(s) && deliver(s, &token);
}

/* Whether the string of the len bytes at text may hold an escape: only
 * when a backslash was seen after its opening quote. */
static int may_escape(const stream_t *s, const char *text)
{
    return s->backslash > (size_t)((const unsigned char *)text - s->buf);
}

/* A scalar to the sink, as json-c's value. */
static int deliver(stream_t *s, const json_token_t *token)
{
    proton_value_t value;
    if (token->kind == JSON_TOKEN_STRING && !may_escape(s, token->text))
        value = (proton_value_t){.kind = PROTON_STRING, .text = token->text, .len = token->len};
    else if (json_token_value(token, &value, &s->scratch) != 0)
        return fail(s, JSON_NO_MEMORY);
    int result = s->sink->scalar(s->sink->user, parent_role(s), parent_slot(s), &value);
    return result < 0 && stopped(s, result);
}

/* The string value opened at token closes at pos. */
static int string_value(stream_t *s, size_t pos)
{
    if (s->token_needed && !s->mute) {
        json_token_t token = {.kind = JSON_TOKEN_STRING,
                              .text = (const char *)s->buf + s->token + 1,
                              .len = pos - s->token - 1};
        if (deliver(s, &token))
            return 1;
    }
    return 0;
}

/* The key opened at token closes at pos. */
static int key(stream_t *s, size_t pos)
{
    int slot = 0;
    if (s->token_needed && !s->mute) {
        const char *text = (const char *)s->buf + s->token + 1;
        size_t len = pos - s->token - 1;
        if (may_escape(s, text) && memchr(text, '\\', len)) {
            /* json-c keeps a key up to its first NUL. */
            json_token_t token = {.kind = JSON_TOKEN_STRING, .text = text, .len = len};
            proton_value_t value;
            if (json_token_value(&token, &value, &s->scratch) != 0)
                return fail(s, JSON_NO_MEMORY);
            const char *nul = memchr(value.text, '\0', value.len);
            text = value.text;
            len = nul ? (size_t)(nul - value.text) : value.len;
        }
        int result = s->sink->key(s->sink->user, s->role[s->depth - 1], text, len);
        if (result >= 0)
            slot = result;
        else if (stopped(s, result))
            return 1;
    }
    s->slot[s->depth - 1] = (unsigned char)slot;
    return 0;
}

/* The next structural byte of the window into pos and c; when the window
 * has no more, the state to resume in is saved and the window is done. */
#define NEXT(resume)                                      \
    do {                                                  \
        if (!bits) {                                      \
            s->state = (resume);                          \
            return 0;                                     \
        }                                                 \
        pos = at + (size_t)__builtin_ctzll(bits);         \
        bits &= bits - 1;                                 \
        c = s->buf[pos];                                  \
    } while (0)

/* The state machine over the window's structural bytes (bits, from at).
 * Within a window the states are places in the code, each reached by a
 * jump from the one before (as simdjson's stage 2); s->state only carries
 * the place from one window to the next. */
static int structure(stream_t *s, size_t at, uint64_t bits)
{
    size_t pos = 0;
    unsigned char c = 0;
    switch (s->state) {
    case ST_VALUE: goto value;
    case ST_VALUE_OR_CLOSE: goto value_or_close;
    case ST_KEY: goto key_next;
    case ST_KEY_OR_CLOSE: goto key_or_close;
    case ST_COLON: goto colon;
    case ST_AFTER: goto after;
    case ST_DONE: goto done;
    case ST_STRING: goto string;
    case ST_KEY_STRING: goto key_string;
    case ST_SCALAR: goto scalar_end;
    }
value:
    NEXT(ST_VALUE);
value_have:
    switch (c) {
    case '{':
        if (open_container(s, 1))
            return 1;
        goto key_or_close;
    case '[':
        if (open_container(s, 0))
            return 1;
        goto value_or_close;
    case '"':
        if (s->depth >= PROTON_JSON_DEPTH)
            return invalid(s);
        s->token = pos;
        s->token_needed = value_wanted(s);
        goto string;
    case ']':
    case '}':
    case ',':
    case ':':
        return invalid(s);
    default:
        s->token = pos;
        s->token_needed = 1; /* its run is read whole to check it */
        goto scalar_end;
    }
value_or_close:
    NEXT(ST_VALUE_OR_CLOSE);
    if (c != ']')
        goto value_have;
    if (close_container(s, c))
        return 1;
    goto after_value;
string: /* the next structural byte is its closing quote */
    NEXT(ST_STRING);
    if (string_value(s, pos))
        return 1;
    goto after_value;
scalar_end: /* the next structural byte follows its run */
    NEXT(ST_SCALAR);
    if (scalar(s, s->token))
        return 1;
    if (!s->depth)
        goto done_have;
    goto after_have;
key_or_close:
    NEXT(ST_KEY_OR_CLOSE);
    if (c != '}')
        goto key_have;
    if (close_container(s, c))
        return 1;
    goto after_value;
key_next:
    NEXT(ST_KEY);
key_have:
    if (c != '"')
        return invalid(s); /* 'key', a trailing comma */
    s->token = pos;
    s->token_needed = !s->mute && s->role[s->depth - 1] != PROTON_ROLE_PLAIN;
key_string:
    NEXT(ST_KEY_STRING);
    if (key(s, pos))
        return 1;
colon:
    NEXT(ST_COLON);
    if (c != ':')
        return invalid(s);
    goto value;
after_value:
    if (!s->depth)
        goto done;
after:
    NEXT(ST_AFTER);
after_have:
    if (c == ',') {
        if (s->object[s->depth - 1])
            goto key_next;
        goto value;
    }
    if (c != '}' && c != ']')
        return invalid(s);
    if (close_container(s, c))
        return 1;
    goto after_value;
done:
    NEXT(ST_DONE);
done_have:
    if (!s->sequence)
        return invalid(s); /* Python's "Extra data" */
    goto value_have;
}

/* The bits of the bytes a backslash escapes, from the backslashes' mask;
 * *carry in and out: whether the first byte of this and the next window
 * is escaped.  An escaped backslash escapes nothing. */
static uint64_t escapes(uint64_t backslash, uint64_t *carry)
{
    uint64_t escaped = *carry;
    uint64_t starts = backslash & ~escaped;
    *carry = 0;
    while (starts) {
        unsigned i = (unsigned)__builtin_ctzll(starts);
        if (i == 63) {
            *carry = 1;
            break;
        }
        escaped |= 1ULL << (i + 1);
        starts &= ~(3ULL << i);
    }
    return escaped;
}

/* Each escaped byte in a string must be one of Python's escapes, a \u
 * with four hex digits (which the lookahead holds). */
static int escapes_valid(const unsigned char *p, uint64_t escaped)
{
    while (escaped) {
        unsigned i = (unsigned)__builtin_ctzll(escaped);
        escaped &= escaped - 1;
        unsigned char c = p[i];
        if (!escape_char[c])
            return 0;
        if (c == 'u' && !(hex_digit[p[i + 1]] && hex_digit[p[i + 2]] && hex_digit[p[i + 3]]
                          && hex_digit[p[i + 4]]))
            return 0;
    }
    return 1;
}

/* UTF-8 as Python's strict decoder reads it (no overlong forms, no
 * surrogates, nothing past U+10FFFF), a character carried across windows. */
static int utf8_valid(stream_t *s, const unsigned char *p)
{
    unsigned need = s->utf8_need, lo = s->utf8_lo, hi = s->utf8_hi;
    for (unsigned i = 0; i < JSON_WINDOW; i++) {
        unsigned c = p[i];
        if (need) {
            if (c < lo || c > hi)
                return 0;
            need--;
            lo = 0x80;
            hi = 0xbf;
        } else if (c >= 0x80) {
            lo = 0x80;
            hi = 0xbf;
            if (c < 0xc2) {
                return 0;
            } else if (c < 0xe0) {
                need = 1;
            } else if (c < 0xf0) {
                need = 2;
                lo = c == 0xe0 ? 0xa0 : 0x80;
                hi = c == 0xed ? 0x9f : 0xbf;
            } else if (c < 0xf5) {
                need = 3;
                lo = c == 0xf0 ? 0x90 : 0x80;
                hi = c == 0xf4 ? 0x8f : 0xbf;
            } else {
                return 0;
            }
        }
    }
    s->utf8_need = need;
    s->utf8_lo = lo;
    s->utf8_hi = hi;
    return 1;
}

/* The window at at: check it, then step through its structural bytes. */
static int window(stream_t *s, size_t at)
{
    const unsigned char *p = s->buf + at;
    json_window_t w;
    json_window_load(&w, p);
    if ((w.high || s->utf8_need) && !utf8_valid(s, p))
        return invalid(s);
    uint64_t escaped = 0;
    if (w.backslash | s->escaped) {
        escaped = escapes(w.backslash, &s->escaped);
        if (w.backslash)
            s->backslash = at + 64 - (size_t)__builtin_clzll(w.backslash);
    }
    uint64_t quote = w.quote & ~escaped;
    uint64_t inside = json_prefix_xor(quote) ^ s->in_string; /* an opening quote to its closing one */
    s->in_string = (uint64_t)((int64_t)inside >> 63);
    if (w.control & inside)
        return invalid(s); /* a raw control character in a string */
    /* Nor outside one, but for whitespace: a NUL there once began a number's
     * run that never ended, so a sparse file (all zeros on read) was held
     * whole in memory, 20 GiB of it, to be refused at its end. */
    if (w.control & ~inside & ~w.space)
        return invalid(s);
    if ((escaped & inside) && !escapes_valid(p, escaped & inside))
        return invalid(s);
    /* A backslash outside a string is part of a number's run, and refused. */
    uint64_t part = ~(w.space | w.op | quote | inside);
    uint64_t starts = part & ~((part << 1) | s->scalar);
    s->scalar = part >> 63;
    return structure(s, at, (w.op & ~inside) | quote | starts);
}

/* Room for the next read: the bytes still needed moved to the front, the
 * buffer grown when a token fills it. */
static int make_room(stream_t *s)
{
    size_t keep = s->front;
    int pending = s->state == ST_STRING || s->state == ST_KEY_STRING || s->state == ST_SCALAR;
    if (pending && s->token_needed && s->token < keep)
        keep = s->token;
    if (keep > 0) {
        memmove(s->buf, s->buf + keep, s->have - keep);
        s->have -= keep;
        s->front -= keep;
        if (pending && s->token_needed)
            s->token -= keep;
        s->backslash = s->backslash > keep ? s->backslash - keep : 0;
    }
    if (s->cap - s->have >= s->block)
        return 0;
    size_t cap = s->cap;
    while (cap - s->have < s->block) {
        if (cap > (SIZE_MAX - PAD) / 2)
            return fail(s, JSON_NO_MEMORY);
        cap *= 2;
    }
    unsigned char *buf = realloc(s->buf, cap + PAD);
    if (!buf)
        return fail(s, JSON_NO_MEMORY);
    s->buf = buf;
    s->cap = cap;
    return 0;
}

static int finish(stream_t *s)
{
    /* A number or literal at the very end (a top-level 5). */
    if (s->state == ST_SCALAR) {
        if (scalar(s, s->token))
            return 1;
        s->state = s->depth ? ST_AFTER : ST_DONE;
    }
    if (s->state != ST_DONE)
        return invalid(s); /* the file ends inside its value, or holds none */
    s->status = s->mute ? JSON_UNSURE : JSON_OK;
    return 1;
}

static void read_all(stream_t *s)
{
    for (;;) {
        if (s->cap - s->have < s->block && make_room(s))
            return;
        ssize_t got = read(s->fd, s->buf + s->have, s->block);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            fail(s, JSON_READ_ERROR);
            return;
        }
        if (got == 0) {
            /* Spaces after the end: no structure, and they end a run. */
            s->eof = 1;
            memset(s->buf + s->have, ' ', PAD);
        }
        s->have += (size_t)got;
        while (s->eof ? s->front < s->have : s->front + JSON_WINDOW + LOOKAHEAD <= s->have) {
            if (window(s, s->front))
                return;
            s->front += JSON_WINDOW;
        }
        if (s->eof) {
            finish(s);
            return;
        }
    }
}

json_status_t json_stream_read(int fd, const proton_sink_t *sink, size_t block, int sequence)
{
    stream_t s = {.fd = fd, .sink = sink, .sequence = sequence, .state = ST_VALUE,
                  .block = block ? block : 1};
    /* Room for a read, a window and its lookahead. */
    s.cap = s.block + JSON_WINDOW + LOOKAHEAD;
    s.buf = malloc(s.cap + PAD);
    s.object = malloc(3 * (size_t)PROTON_JSON_DEPTH);
    if (!s.buf || !s.object) {
        s.status = JSON_NO_MEMORY;
    } else {
        s.role = s.object + PROTON_JSON_DEPTH;
        s.slot = s.role + PROTON_JSON_DEPTH;
        read_all(&s);
    }
    free(s.buf);
    free(s.object);
    free(s.scratch.data);
    return s.status;
}

proton_read_t json_stream_profile(int fd, const proton_sink_t *sink, size_t block, int sequence)
{
    switch (json_stream_read(fd, sink, block, sequence)) {
    case JSON_OK:
        return PROTON_READ_OK;
    case JSON_UNSURE:
        return PROTON_READ_UNSURE;
    case JSON_NO_MEMORY:
        return PROTON_READ_NO_MEMORY;
    default:
        return PROTON_READ_REFUSED;
    }
}

/* ---- the values, as json-c builds them ---------------------------------- */

static size_t put_utf8(char *out, unsigned cp)
{
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xc0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xe0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (unsigned char)(0xf0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

#define REPLACEMENT 0xfffd

size_t json_string_decode(const char *raw, size_t len, char *out)
{
    /* json-c's rules: a high surrogate waits for a \u low one and becomes
     * U+FFFD when anything else follows; a lone low one is U+FFFD too. */
    const unsigned char *p = (const unsigned char *)raw;
    size_t at = 0, o = 0;
    unsigned high = 0;
    while (at < len) {
        unsigned char c = p[at];
        if (c != '\\' || p[at + 1] != 'u') {
            if (high) {
                o += put_utf8(out + o, REPLACEMENT);
                high = 0;
            }
            if (c == '\\') {
                out[o++] = (char)escape_char[p[at + 1]];
                at += 2;
            } else {
                out[o++] = (char)c;
                at++;
            }
            continue;
        }
        unsigned cp = 0;
        for (int i = 2; i < 6; i++)
            cp = (cp << 4) | (unsigned)(hex_digit[p[at + i]] - 1);
        at += 6;
        if (high) {
            if (cp >= 0xdc00 && cp <= 0xdfff) {
                o += put_utf8(out + o, 0x10000 + ((high - 0xd800) << 10) + (cp - 0xdc00));
                high = 0;
                continue;
            }
            o += put_utf8(out + o, REPLACEMENT);
            high = 0;
        }
        if (cp >= 0xd800 && cp <= 0xdbff)
            high = cp;
        else
            o += put_utf8(out + o, cp >= 0xdc00 && cp <= 0xdfff ? REPLACEMENT : cp);
    }
    if (high)
        o += put_utf8(out + o, REPLACEMENT);
    return o;
}

static int scratch_room(json_scratch_t *scratch, size_t need)
{
    if (need <= scratch->cap)
        return 0;
    size_t cap = scratch->cap ? scratch->cap : 256;
    while (cap < need)
        cap = cap <= SIZE_MAX / 2 ? cap * 2 : need;
    char *data = realloc(scratch->data, cap);
    if (!data)
        return -1;
    scratch->data = data;
    scratch->cap = cap;
    return 0;
}

/* json-c's integer: int64, else uint64, each clamped at its end. */
static void integer_value(const char *text, size_t len, proton_value_t *value)
{
    int negative = text[0] == '-';
    uint64_t magnitude = 0;
    int over = 0;
    for (size_t i = (size_t)negative; i < len; i++) {
        unsigned digit = (unsigned)(text[i] - '0');
        if (magnitude > (UINT64_MAX - digit) / 10)
            over = 1;
        else
            magnitude = magnitude * 10 + digit;
    }
    value->kind = PROTON_INT;
    if (negative) {
        if (over || magnitude >= (uint64_t)1 << 63)
            value->i64 = INT64_MIN;
        else
            value->i64 = -(int64_t)magnitude;
        value->u64 = 0;
    } else {
        value->u64 = over ? UINT64_MAX : magnitude;
        value->i64 = value->u64 > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)value->u64;
    }
    value->saturated = value->i64 == INT64_MIN || value->u64 == UINT64_MAX;
}

int json_token_value(const json_token_t *token, proton_value_t *value, json_scratch_t *scratch)
{
    *value = (proton_value_t){.kind = PROTON_DOUBLE};
    switch (token->kind) {
    case JSON_TOKEN_STRING:
        value->kind = PROTON_STRING;
        value->text = token->text;
        value->len = token->len;
        if (memchr(token->text, '\\', token->len)) {
            if (scratch_room(scratch, token->len + 1) != 0)
                return -1;
            value->len = json_string_decode(token->text, token->len, scratch->data);
            value->text = scratch->data;
        }
        return 0;
    case JSON_TOKEN_TRUE:
    case JSON_TOKEN_FALSE:
        value->kind = PROTON_BOOL;
        value->boolean = token->kind == JSON_TOKEN_TRUE;
        return 0;
    case JSON_TOKEN_NULL:
        value->kind = PROTON_NULL;
        return 0;
    case JSON_TOKEN_NAN:
        value->number = NAN;
        return 0;
    case JSON_TOKEN_INFINITY:
        value->number = INFINITY;
        return 0;
    case JSON_TOKEN_MINUS_INFINITY:
        value->number = -INFINITY;
        return 0;
    case JSON_TOKEN_NUMBER:
        break;
    }
    if (!token->is_double) {
        integer_value(token->text, token->len, value);
        return 0;
    }
    /* strtod wants a terminated copy; the common number is short. */
    char small[64];
    char *copy = small;
    if (token->len >= sizeof small) {
        if (scratch_room(scratch, token->len + 1) != 0)
            return -1;
        copy = scratch->data;
    }
    memcpy(copy, token->text, token->len);
    copy[token->len] = '\0';
    value->number = strtod(copy, NULL);
    return 0;
}
