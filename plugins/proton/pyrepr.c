/* pyrepr.c - Python's repr() of str and list (libaorta's, appended to a
 * buffer), and str() of float.  Messages quote values the way upstream's
 * f-strings do ('x', ['a', 'b']), and a numeric frame name becomes the text
 * Python's str() gives it. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proton.h"

void proton_repr_add(proton_buf_t *buf, const char *text)
{
    char *quoted = proton_xcheck(aorta_text_repr(text, strlen(text)));
    proton_buf_adds(buf, quoted);
    aorta_free(quoted);
}

void proton_repr_list_add(proton_buf_t *buf, const char *const *items, size_t count)
{
    char *quoted = proton_xcheck(aorta_text_repr_list(items, count));
    proton_buf_adds(buf, quoted);
    aorta_free(quoted);
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
