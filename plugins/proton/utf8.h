/* utf8.h - strict UTF-8 decoding for the Proton collector (hidden). */
#ifndef AORTA_PROTON_UTF8_H
#define AORTA_PROTON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decode the character at s (len > 0 bytes): its length with *cp set, 0 when
 * the bytes are not UTF-8, -1 when they are a valid but cut-short prefix. */
int proton_utf8_next(const unsigned char *s, size_t len, uint32_t *cp);
/* Whether all len bytes are UTF-8. */
int proton_utf8_valid(const unsigned char *s, size_t len);

/* Checks a byte stream fed in chunks of any size. */
typedef struct proton_utf8_stream {
    unsigned char pending[4];
    size_t pending_len;
} proton_utf8_stream_t;

/* 0 while the bytes so far can be UTF-8, -1 once they cannot.  (A stream
 * that ends inside a character needs no check of its own: the bytes after a
 * JSON value must be whitespace anyway.) */
int proton_utf8_feed(proton_utf8_stream_t *stream, const unsigned char *s, size_t len);

#endif
