/* utf8.c - UTF-8 decoding with the strictness of Python's "utf-8" codec
 * (no overlong forms, no surrogates, nothing beyond U+10FFFF), one code
 * point at a time or as a stream that may split a character anywhere. */
#include "config.h"

#include "utf8.h"

int proton_utf8_next(const unsigned char *s, size_t len, uint32_t *cp)
{
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t need;
    uint32_t value;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        need = 1;
        value = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        need = 2;
        value = c & 0x0f;
        if (c == 0xe0)
            lo = 0xa0; /* overlong */
        if (c == 0xed)
            hi = 0x9f; /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        need = 3;
        value = c & 0x07;
        if (c == 0xf0)
            lo = 0x90; /* overlong */
        if (c == 0xf4)
            hi = 0x8f; /* beyond U+10FFFF */
    } else {
        return 0;
    }
    for (size_t i = 1; i <= need; i++) {
        if (i >= len)
            return -1;
        if (s[i] < lo || s[i] > hi)
            return 0;
        lo = 0x80;
        hi = 0xbf;
        value = (value << 6) | (s[i] & 0x3f);
    }
    *cp = value;
    return (int)need + 1;
}

int proton_utf8_valid(const unsigned char *s, size_t len)
{
    uint32_t cp;
    size_t i = 0;
    while (i < len) {
        int n = proton_utf8_next(s + i, len - i, &cp);
        if (n <= 0)
            return 0;
        i += (size_t)n;
    }
    return 1;
}

int proton_utf8_feed(proton_utf8_stream_t *stream, const unsigned char *s, size_t len)
{
    uint32_t cp;
    size_t i = 0;
    /* Finish a character the previous chunk split. */
    while (stream->pending_len > 0) {
        if (i >= len)
            return 0;
        stream->pending[stream->pending_len++] = s[i++];
        int n = proton_utf8_next(stream->pending, stream->pending_len, &cp);
        if (n == 0)
            return -1;
        if (n > 0)
            stream->pending_len = 0;
    }
    while (i < len) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        int n = proton_utf8_next(s + i, len - i, &cp);
        if (n == 0)
            return -1;
        if (n < 0) {
            for (; i < len; i++)
                stream->pending[stream->pending_len++] = s[i];
            return 0;
        }
        i += (size_t)n;
    }
    return 0;
}
