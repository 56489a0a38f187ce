/* SPDX-License-Identifier: MIT */
/* json_stream.h - strict JSON read in one pass, for Proton's outputs
 * (hidden).  json_stream.c reads a descriptor in fixed-size blocks, finds
 * the structure 64 bytes at a time (json_window.h) and checks the text as
 * Python's json module reads a UTF-8 file (RFC 8259, plus NaN, Infinity and
 * -Infinity).  It keeps only the stack of open containers; what the values
 * mean is a sink's business (proton_sink_t, hatchet.h).  Keys and values
 * reach the sink as json-c would build them (a key cut at its first NUL, a
 * lone surrogate as U+FFFD, integers clamped at 64 bits), so a sink agrees
 * with the json-c reader it is tested against. */
#ifndef PROTON_JSON_STREAM_H
#define PROTON_JSON_STREAM_H

#include <stddef.h>

#include "hatchet.h"

typedef enum json_token_kind {
    JSON_TOKEN_STRING, /* text, len: the bytes between the quotes, escapes as written */
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

typedef enum json_status {
    JSON_OK,        /* valid, and the sink heard all of it */
    JSON_INVALID,   /* not what Python's json.load reads, or nested too deep */
    JSON_UNSURE,    /* valid, but the sink was unsure and stopped listening */
    JSON_NO_MEMORY, /* a token longer than the memory at hand, or the sink's */
    JSON_READ_ERROR,
} json_status_t;

/* The default block: reads of this size, and the buffer that holds them. */
#define JSON_STREAM_BLOCK ((size_t)256 << 10)

/* Read the JSON text at fd (a sequence of texts separated by whitespace
 * when sequence is set, as Proton's per-stream Chrome traces are written)
 * in reads of block bytes (a token longer than that is held whole). */
json_status_t json_stream_read(int fd, const proton_sink_t *sink, size_t block, int sequence);
/* The same, as a proton_read_t. */
proton_read_t json_stream_profile(int fd, const proton_sink_t *sink, size_t block, int sequence);

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

/* The token's value, as json-c would build it; a string is decoded into
 * scratch when it holds an escape.  0, or -1 when there is no memory. */
int json_token_value(const json_token_t *token, proton_value_t *value, json_scratch_t *scratch);

#endif
