/* SPDX-License-Identifier: MIT */
/* number.c - numbers as upstream's Python reads them: float(text.strip()),
 * finite only.  strtod() alone would also take hex, "nan" and "inf". */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Copy a run of digits with single underscores between them into out.
 * Returns the number of input bytes consumed, 0 if there is no digit. */
static size_t scan_digits(const char *text, size_t len, char *out, size_t *out_len)
{
    size_t i = 0;
    if (i >= len || !is_digit(text[i]))
        return 0;
    while (i < len) {
        if (is_digit(text[i])) {
            out[(*out_len)++] = text[i++];
        } else if (text[i] == '_' && i + 1 < len && is_digit(text[i + 1])) {
            i++;
        } else {
            break;
        }
    }
    return i;
}

static int convert(const char *text, size_t len, char *buffer, double *out);

int aorta_number_parse_n(const char *text, size_t len, double *out)
{
    size_t stripped = 0;
    text = aorta_text_strip(text, len, &stripped);
    len = stripped;
    if (len == 0)
        return -1;
    /* Python's float() has no length limit: long text (a long run of
     * zeros, say) gets a heap copy, the usual short one the stack. */
    char small[256];
    char *buffer = len + 1 <= sizeof small ? small : malloc(len + 1);
    if (!buffer)
        return -1;
    int status = convert(text, len, buffer, out);
    if (buffer != small)
        free(buffer);
    return status;
}

/* The conversion of the stripped text into buffer (len + 1 bytes). */
static int convert(const char *text, size_t len, char *buffer, double *out)
{
    size_t out_len = 0, i = 0;
    if (text[i] == '+' || text[i] == '-')
        buffer[out_len++] = text[i++];
    size_t integer = scan_digits(text + i, len - i, buffer, &out_len);
    i += integer;
    size_t fraction = 0;
    if (i < len && text[i] == '.') {
        buffer[out_len++] = text[i++];
        fraction = scan_digits(text + i, len - i, buffer, &out_len);
        i += fraction;
    }
    if (integer == 0 && fraction == 0)
        return -1; /* also rejects "inf", "nan", "0x.." is caught below */
    if (i < len && (text[i] == 'e' || text[i] == 'E')) {
        buffer[out_len++] = text[i++];
        if (i < len && (text[i] == '+' || text[i] == '-'))
            buffer[out_len++] = text[i++];
        size_t exponent = scan_digits(text + i, len - i, buffer, &out_len);
        if (exponent == 0)
            return -1;
        i += exponent;
    }
    if (i != len)
        return -1; /* trailing junk, including the 'x' of a hex literal */
    buffer[out_len] = '\0';
    double value = strtod(buffer, NULL);
    if (!isfinite(value))
        return -1;
    *out = value;
    return 0;
}

int aorta_number_parse(const char *text, double *out)
{
    if (!text)
        return -1;
    return aorta_number_parse_n(text, strlen(text), out);
}

int aorta_count_from_double(double value, int64_t *out)
{
    /* 9223372036854775808.0 is 2^63, the first double beyond INT64_MAX. */
    if (!isfinite(value) || value < 0 || value >= 9223372036854775808.0 || floor(value) != value)
        return -1;
    *out = (int64_t)value;
    return 0;
}
