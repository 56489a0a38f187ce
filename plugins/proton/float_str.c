/* SPDX-License-Identifier: MIT */
/* float_str.c - Python's str() of a float: a numeric frame name becomes the
 * text Python's str() gives it. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proton.h"

char *proton_float_str(double value)
{
    if (isnan(value))
        return cc_xstrdup("nan");
    if (isinf(value))
        return cc_xstrdup(value > 0 ? "inf" : "-inf");
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

    cc_buf_t out = {0};
    if (negative)
        cc_buf_adds(&out, "-");
    if (exponent >= -4 && exponent < 16) {
        if (exponent >= 0) {
            size_t whole = (size_t)exponent + 1;
            for (size_t i = 0; i < whole; i++)
                cc_buf_add(&out, i < ndigits ? &digits[i] : "0", 1);
            cc_buf_adds(&out, ".");
            if (ndigits > whole)
                cc_buf_add(&out, digits + whole, ndigits - whole);
            else
                cc_buf_adds(&out, "0");
        } else {
            cc_buf_adds(&out, "0.");
            for (int i = -1; i > exponent; i--)
                cc_buf_adds(&out, "0");
            cc_buf_add(&out, digits, ndigits);
        }
    } else {
        cc_buf_add(&out, digits, 1);
        if (ndigits > 1) {
            cc_buf_adds(&out, ".");
            cc_buf_add(&out, digits + 1, ndigits - 1);
        }
        cc_buf_addf(&out, "e%c%02d", exponent < 0 ? '-' : '+', abs(exponent));
    }
    return cc_buf_take(&out);
}
