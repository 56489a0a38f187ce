/* SPDX-License-Identifier: MIT */
/* text.c - Python's str.strip() whitespace, over UTF-8 bytes. */
#include "config.h"

#include <string.h>

#include "aorta/collector.h"

/* Length of the whitespace character at text (at most len bytes), or 0.
 * ASCII: space, \t \n \v \f \r and \x1c-\x1f; then the Unicode spaces
 * Python counts: U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
 * U+202F, U+205F, U+3000. */
static size_t space_at(const unsigned char *text, size_t len)
{
    unsigned char c = text[0];
    if (c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f))
        return 1;
    if (c == 0xc2 && len >= 2 && (text[1] == 0x85 || text[1] == 0xa0))
        return 2;
    if (len >= 3) {
        if (c == 0xe1 && text[1] == 0x9a && text[2] == 0x80)
            return 3;
        if (c == 0xe2 && text[1] == 0x80
            && (text[2] <= 0x8a || text[2] == 0xa8 || text[2] == 0xa9 || text[2] == 0xaf)
            && text[2] >= 0x80)
            return 3;
        if (c == 0xe2 && text[1] == 0x81 && text[2] == 0x9f)
            return 3;
        if (c == 0xe3 && text[1] == 0x80 && text[2] == 0x80)
            return 3;
    }
    return 0;
}

/* Whether a whitespace character of n bytes ends exactly at text[end]. */
static size_t space_before(const unsigned char *text, size_t end)
{
    for (size_t n = 1; n <= 3 && n <= end; n++)
        if (space_at(text + end - n, n) == n)
            return n;
    return 0;
}

const char *aorta_text_strip(const char *text, size_t len, size_t *out_len)
{
    const unsigned char *bytes = (const unsigned char *)text;
    size_t start = 0, end = len, n;
    while (start < end && (n = space_at(bytes + start, end - start)) > 0)
        start += n;
    while (end > start && (n = space_before(bytes + start, end - start)) > 0)
        end -= n;
    *out_len = end - start;
    return text + start;
}
