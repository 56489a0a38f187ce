/* SPDX-License-Identifier: MIT */
/* json_stream.h - strict JSON read in one pass, for Proton's outputs
 * (hidden).  json_stream.c reads a descriptor in fixed-size blocks, finds
 * the structure 64 bytes at a time (json_window.h) and checks the text as
 * Python's json module reads a UTF-8 file (RFC 8259, plus NaN, Infinity and
 * -Infinity).  It keeps only the stack of open containers; what the values
 * mean is a sink's business: the sink names a role for each container it
 * cares about and a slot for each member, and hears only of those.
 * Values are given as json-c would build them (json_token_value()), so a
 * sink agrees with the json-c reader it is tested against. */
#ifndef PROTON_JSON_STREAM_H
#define PROTON_JSON_STREAM_H

#include <stddef.h>

#include "hatchet.h"

/* The role of a container the sink does not care about (nothing inside it
 * reaches the sink), and that of the document around the top value. */
#define JSON_ROLE_PLAIN 0
#define JSON_ROLE_DOCUMENT 1
/* The slot of every element of a list, and of the top value. */
#define JSON_SLOT_ELEMENT 1

/* What a sink's callback returns instead of a role or slot to stop: unsure
 * (the rest is only checked, the read ends JSON_UNSURE), or out of memory
 * (the read ends at once). */
#define JSON_STOP_UNSURE (-1)
#define JSON_STOP_NO_MEMORY (-2)

typedef enum json_token_kind {
    JSON_TOKEN_STRING, /* text, len: the bytes between the quotes, escapes undone by nobody */
    JSON_TOKEN_NUMBER, /* text, len: the number as written */
    JSON_TOKEN_TRUE,
    JSON_TOKEN_FALSE,
    JSON_TOKEN_NULL,
    JSON_TOKEN_NAN,
    JSON_TOKEN_INFINITY,
    JSON_TOKEN_MINUS_INFINITY,
} json_token_kind_t;

typedef struct json_token {
    json_token_kind_t kind;
    const char *text;
    size_t len;
    int is_double; /* a number with a fraction or an exponent */
} json_token_t;

/* Callbacks, each for a container of a role other than JSON_ROLE_PLAIN, or
 * for a member whose slot is not 0.  A text is borrowed for the call. */
typedef struct json_sink {
    /* A key of an object of this role, as written (escapes not undone): the
     * member's slot, 0 when the sink does not want it, or a JSON_STOP_. */
    int (*key)(void *user, int role, const char *raw, size_t len);
    /* A container in this slot: its role, or a JSON_STOP_. */
    int (*open)(void *user, int role, int slot, int object);
    /* A string, number or literal in this slot: 0, or a JSON_STOP_. */
    int (*scalar)(void *user, int role, int slot, const json_token_t *token);
    /* A container of this role has closed: 0, or a JSON_STOP_. */
    int (*close)(void *user, int role);
    void *user;
} json_sink_t;

typedef enum json_status {
    JSON_OK,        /* valid, and the sink heard all of it */
    JSON_INVALID,   /* not what Python's json.load reads, or nested too deep */
    JSON_UNSURE,    /* valid, but the sink stopped listening */
    JSON_NO_MEMORY, /* a token longer than the memory at hand, or the sink's */
    JSON_READ_ERROR,
} json_status_t;

/* The default block: reads of this size, and the buffer that holds them. */
#define JSON_STREAM_BLOCK ((size_t)256 << 10)

/* Read the JSON text at fd (a sequence of texts separated by whitespace
 * when sequence is set, as Proton's per-stream Chrome traces are written)
 * in reads of block bytes (a token longer than that is held whole). */
json_status_t json_stream_read(int fd, const json_sink_t *sink, size_t block, int sequence);

/* ---- the values, as json-c builds them ---------------------------------- */

/* Undo the escapes of a string's len raw bytes into out (room for len bytes:
 * the text never grows), as json-c does, lone surrogates becoming U+FFFD;
 * the length written. */
size_t json_string_decode(const char *raw, size_t len, char *out);

/* A growing buffer for decoded text; NULL data until used. */
typedef struct json_scratch {
    char *data;
    size_t cap;
} json_scratch_t;

/* The token's value, as json-c's would read for the leaf rule; a string is
 * decoded into scratch when it holds an escape.  0, or -1 when there is no
 * memory for it. */
int json_token_value(const json_token_t *token, proton_value_t *value, json_scratch_t *scratch);

#endif
