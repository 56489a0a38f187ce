/* SPDX-License-Identifier: MIT */
/* repr.c - Python's repr() of a str and of a list of str.  Upstream's
 * messages quote user text with repr ('x', ['a', 'b']), and so do aorta's:
 * control and other unprintable characters are escaped, so a message stays
 * on one line whatever the user wrote. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "unicode.h"
#include "xalloc.h"

/* The character at s (len > 0 bytes): its length with *cp set, or 0 when
 * the bytes there are not UTF-8. */
static size_t decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    size_t need = s[0] < 0x80 ? 1 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
    if (need > len || aorta_utf8_valid_prefix(s, need, NULL, NULL) != need)
        return 0;
    uint32_t value = need == 1 ? s[0] : s[0] & (0x7fu >> need);
    for (size_t i = 1; i < need; i++)
        value = (value << 6) | (s[i] & 0x3fu);
    *cp = value;
    return need;
}

/* Python escapes each byte at most as "\\udcNN". */
#define WORST_PER_BYTE 6

/* Writes the repr of text into out, which has room for WORST_PER_BYTE bytes
 * per byte of text plus the quotes; returns the end of what it wrote. */
static char *render(const char *text, size_t len, char *out)
{
    const unsigned char *s = (const unsigned char *)text;
    /* Single quotes unless the text has one and no double quote. */
    char quote = memchr(text, '\'', len) && !memchr(text, '"', len) ? '"' : '\'';
    char *o = out;
    *o++ = quote;
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t n = decode(s + i, len - i, &cp);
        if (n == 0) {
            /* Python never holds such a byte in a str: it shows it as the
             * lone surrogate that surrogateescape decodes it to, as for a
             * sys.argv, os.environ or os.fsdecode() text. */
            o += sprintf(o, "\\udc%02x", s[i]);
            n = 1;
        } else if (cp == (uint32_t)quote || cp == '\\') {
            *o++ = '\\';
            *o++ = (char)cp;
        } else if (cp == '\t' || cp == '\n' || cp == '\r') {
            *o++ = '\\';
            *o++ = cp == '\t' ? 't' : cp == '\n' ? 'n' : 'r';
        } else if (!aorta_unicode_printable(cp)) {
            o += sprintf(o, cp <= 0xff ? "\\x%02x" : cp <= 0xffff ? "\\u%04x" : "\\U%08x",
                         (unsigned)cp);
        } else {
            memcpy(o, text + i, n);
            o += n;
        }
        i += n;
    }
    *o++ = quote;
    return o;
}

/* Room for the repr of len bytes, or 0 when that does not fit a size_t. */
static size_t room(size_t len)
{
    return len > (SIZE_MAX - 3) / WORST_PER_BYTE ? 0 : len * WORST_PER_BYTE + 3;
}

char *aorta_text_repr(const char *text, size_t len)
{
    /* A size past SIZE_MAX is out of memory too. */
    size_t size = room(len);
    char *out = ar_xcheck(size ? malloc(size) : NULL);
    *render(text, len, out) = '\0';
    return out;
}

char *aorta_text_repr_list(const char *const *items, size_t count)
{
    size_t size = 3;
    for (size_t i = 0; i < count && size; i++) {
        size_t one = room(strlen(items[i]));
        size = one && size <= SIZE_MAX - one - 2 ? size + one + 2 : 0;
    }
    char *out = ar_xcheck(size ? malloc(size) : NULL);
    char *o = out;
    *o++ = '[';
    for (size_t i = 0; i < count; i++) {
        if (i) {
            *o++ = ',';
            *o++ = ' ';
        }
        o = render(items[i], strlen(items[i]), o);
    }
    *o++ = ']';
    *o = '\0';
    return out;
}
