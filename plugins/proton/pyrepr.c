/* pyrepr.c - Python's repr() of str and list, and str() of float.  Messages
 * quote values the way upstream's f-strings do ('x', ['a', 'b']), and a
 * numeric frame name becomes the text Python's str() gives it. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proton.h"
#include "utf8.h"

/* Python's str.isprintable() for a non-ASCII code point, approximated by the
 * separators, controls, format characters and private-use ranges. */
static int printable(uint32_t cp)
{
    if (cp <= 0xa0 || cp == 0xad || cp == 0x1680 || cp == 0x3000 || cp == 0xfeff)
        return 0;
    if ((cp >= 0x2000 && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202f)
        || (cp >= 0x205f && cp <= 0x2064) || (cp >= 0xfff9 && cp <= 0xfffb)
        || (cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000)
        return 0;
    return 1;
}

void proton_repr_add(proton_buf_t *buf, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t len = strlen(text);
    /* Single quotes unless the text has one and no double quote. */
    char quote = (strchr(text, '\'') && !strchr(text, '"')) ? '"' : '\'';
    proton_buf_add(buf, &quote, 1);
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        if (c < 0x80) {
            if (c == '\\' || c == (unsigned char)quote)
                proton_buf_addf(buf, "\\%c", c);
            else if (c == '\t')
                proton_buf_adds(buf, "\\t");
            else if (c == '\n')
                proton_buf_adds(buf, "\\n");
            else if (c == '\r')
                proton_buf_adds(buf, "\\r");
            else if (c < 0x20 || c == 0x7f)
                proton_buf_addf(buf, "\\x%02x", c);
            else
                proton_buf_add(buf, (const char *)&c, 1);
            i++;
            continue;
        }
        uint32_t cp;
        int n = proton_utf8_next(s + i, len - i, &cp);
        if (n <= 0) {
            /* surrogateescape: the byte b decodes to U+DC00+b. */
            proton_buf_addf(buf, "\\udc%02x", c);
            i++;
        } else if (printable(cp)) {
            proton_buf_add(buf, text + i, (size_t)n);
            i += (size_t)n;
        } else {
            if (cp <= 0xff)
                proton_buf_addf(buf, "\\x%02x", (unsigned)cp);
            else if (cp <= 0xffff)
                proton_buf_addf(buf, "\\u%04x", (unsigned)cp);
            else
                proton_buf_addf(buf, "\\U%08x", (unsigned)cp);
            i += (size_t)n;
        }
    }
    proton_buf_add(buf, &quote, 1);
}

void proton_repr_list_add(proton_buf_t *buf, const char *const *items, size_t count)
{
    proton_buf_adds(buf, "[");
    for (size_t i = 0; i < count; i++) {
        if (i)
            proton_buf_adds(buf, ", ");
        proton_repr_add(buf, items[i]);
    }
    proton_buf_adds(buf, "]");
}

char *proton_float_str(double value)
{
    if (isnan(value))
        return proton_xstrdup("nan");
    if (isinf(value))
        return proton_xstrdup(value > 0 ? "inf" : "-inf");
    /* The shortest digits that read back as the same double. */
    char sci[40];
    for (int precision = 0; precision <= 16; precision++) {
        snprintf(sci, sizeof sci, "%.*e", precision, value);
        if (strtod(sci, NULL) == value)
            break;
    }
    const char *cursor = sci;
    int negative = *cursor == '-';
    if (negative)
        cursor++;
    char digits[24];
    size_t ndigits = 0;
    for (; *cursor && *cursor != 'e'; cursor++)
        if (*cursor != '.')
            digits[ndigits++] = *cursor;
    while (ndigits > 1 && digits[ndigits - 1] == '0')
        ndigits--;
    int exponent = atoi(cursor + 1);

    proton_buf_t out = {0};
    if (negative)
        proton_buf_adds(&out, "-");
    if (exponent >= -4 && exponent < 16) {
        if (exponent >= 0) {
            size_t whole = (size_t)exponent + 1;
            for (size_t i = 0; i < whole; i++)
                proton_buf_add(&out, i < ndigits ? &digits[i] : "0", 1);
            proton_buf_adds(&out, ".");
            if (ndigits > whole)
                proton_buf_add(&out, digits + whole, ndigits - whole);
            else
                proton_buf_adds(&out, "0");
        } else {
            proton_buf_adds(&out, "0.");
            for (int i = -1; i > exponent; i--)
                proton_buf_adds(&out, "0");
            proton_buf_add(&out, digits, ndigits);
        }
    } else {
        proton_buf_add(&out, digits, 1);
        if (ndigits > 1) {
            proton_buf_adds(&out, ".");
            proton_buf_add(&out, digits + 1, ndigits - 1);
        }
        proton_buf_addf(&out, "e%c%02d", exponent < 0 ? '-' : '+', abs(exponent));
    }
    return proton_buf_take(&out);
}
