/* pyrepr.c - Python's repr() of strings and string lists.  Upstream's error
 * messages quote values with repr (e.g. "unknown option(s) ['a', 'b']"), so
 * the C messages do the same. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocprof.h"

void rocprof_text_append(rocprof_text_t *text, const char *data, size_t len)
{
    if (text->len + len + 1 > text->cap) {
        size_t cap = text->cap ? text->cap : 64;
        while (cap < text->len + len + 1)
            cap *= 2;
        text->data = rocprof_xrealloc(text->data, cap);
        text->cap = cap;
    }
    memcpy(text->data + text->len, data, len);
    text->len += len;
    text->data[text->len] = '\0';
}

void rocprof_text_appends(rocprof_text_t *text, const char *data)
{
    rocprof_text_append(text, data, strlen(data));
}

void rocprof_text_free(rocprof_text_t *text)
{
    free(text->data);
    text->data = NULL;
    text->len = text->cap = 0;
}

/* Decode one UTF-8 sequence at s (n bytes left): the code point and its
 * length, or -1 for a byte that does not start a valid sequence. */
static long decode(const unsigned char *s, size_t n, size_t *used)
{
    size_t need = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
                : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    rocprof_utf8_status_t status;
    int ascii;
    if (need == 0 || need > n || rocprof_utf8_check(s, need, &status, &ascii) != need)
        return -1;
    *used = need;
    if (need == 1)
        return s[0];
    long cp = s[0] & (0x7f >> need);
    for (size_t i = 1; i < need; i++)
        cp = (cp << 6) | (s[i] & 0x3f);
    return cp;
}

/* Whether Python's str.isprintable() holds for cp (cp >= 0x80).  Covers the
 * categories Python treats as unprintable (controls, format characters,
 * separators other than space, surrogates, private use) for the ranges where
 * they occur; unassigned code points count as printable here. */
static int printable(long cp)
{
    static const long ranges[][2] = {
        {0x80, 0xa0},       {0xad, 0xad},       {0x600, 0x605},     {0x61c, 0x61c},
        {0x6dd, 0x6dd},     {0x70f, 0x70f},     {0x8e2, 0x8e2},     {0x1680, 0x1680},
        {0x180e, 0x180e},   {0x2000, 0x200f},   {0x2028, 0x202f},   {0x205f, 0x2064},
        {0x2066, 0x206f},   {0x3000, 0x3000},   {0xd800, 0xf8ff},   {0xfeff, 0xfeff},
        {0xfff9, 0xfffb},   {0x110bd, 0x110bd}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},
        {0xe0001, 0xe0001}, {0xe0020, 0xe007f}, {0xf0000, 0x10ffff},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (cp >= ranges[i][0] && cp <= ranges[i][1])
            return 0;
    return 1;
}

void rocprof_repr_append(rocprof_text_t *text, const char *value, size_t len)
{
    const unsigned char *s = (const unsigned char *)value;
    char quote = memchr(value, '\'', len) && !memchr(value, '"', len) ? '"' : '\'';
    rocprof_text_append(text, &quote, 1);
    char buf[16];
    for (size_t i = 0; i < len;) {
        size_t used = 1;
        long cp = decode(s + i, len - i, &used);
        if (cp < 0) {
            /* Not UTF-8 (never from a recipe): show the byte. */
            snprintf(buf, sizeof buf, "\\x%02x", s[i]);
            rocprof_text_appends(text, buf);
        } else if (cp == quote || cp == '\\') {
            buf[0] = '\\', buf[1] = (char)cp;
            rocprof_text_append(text, buf, 2);
        } else if (cp == '\t' || cp == '\n' || cp == '\r') {
            rocprof_text_appends(text, cp == '\t' ? "\\t" : cp == '\n' ? "\\n" : "\\r");
        } else if (cp < 0x20 || cp == 0x7f) {
            snprintf(buf, sizeof buf, "\\x%02lx", cp);
            rocprof_text_appends(text, buf);
        } else if (cp < 0x80 || printable(cp)) {
            rocprof_text_append(text, value + i, used);
        } else {
            snprintf(buf, sizeof buf, cp <= 0xff ? "\\x%02lx" : cp <= 0xffff ? "\\u%04lx" : "\\U%08lx",
                     cp);
            rocprof_text_appends(text, buf);
        }
        i += used;
    }
    rocprof_text_append(text, &quote, 1);
}

void rocprof_repr_list_append(rocprof_text_t *text, const char *const *values, size_t count)
{
    rocprof_text_appends(text, "[");
    for (size_t i = 0; i < count; i++) {
        if (i)
            rocprof_text_appends(text, ", ");
        rocprof_repr_append(text, values[i], strlen(values[i]));
    }
    rocprof_text_appends(text, "]");
}
