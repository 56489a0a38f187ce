/* SPDX-License-Identifier: MIT */
/* hatchet_leaf.c - the leaf rule of docs/collectors/proton.md on one value,
 * whichever reader produced it: the json-c walk (hatchet_walk.c), the
 * streaming reader (hatchet_stream.c), the trace (trace_stream.c) and the
 * msgpack tree (hatchet_msgpack.c).  One copy of the rule, so the readers
 * can differ only in how they find the values, never in what a value
 * means.  Each function restates what upstream's Python does with the
 * value: float(value), str(value or ""), a "time (<unit>)" key. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hatchet.h"
#include "proton.h"

static int ascii_equal_nocase(const char *text, size_t len, const char *lower)
{
    if (strlen(lower) != len)
        return 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != lower[i])
            return 0;
    }
    return 1;
}

double proton_time_factor(const char *key, size_t len)
{
    /* As upstream: the part before the first '(' must be "time", the rest
     * without its trailing ')'s must be a unit, both stripped and compared
     * ignoring case; so "cpu_time (ns)" and "time (ns) (inc)" are not
     * times.  Proton's own key, first. */
    if (len == 9 && memcmp(key, "time (ns)", 9) == 0)
        return 1e-6;
    const char *paren = memchr(key, '(', len);
    if (!paren)
        return 0;
    size_t part;
    const char *head = aorta_text_strip(key, (size_t)(paren - key), &part);
    if (!ascii_equal_nocase(head, part, "time"))
        return 0;
    const char *tail = paren + 1;
    size_t tail_len = len - (size_t)(tail - key);
    while (tail_len > 0 && tail[tail_len - 1] == ')')
        tail_len--;
    const char *unit = aorta_text_strip(tail, tail_len, &part);
    if (ascii_equal_nocase(unit, part, "ns"))
        return 1e-6;
    if (ascii_equal_nocase(unit, part, "us"))
        return 1e-3;
    if (ascii_equal_nocase(unit, part, "ms"))
        return 1.0;
    if (ascii_equal_nocase(unit, part, "s"))
        return 1e3;
    return 0;
}

int proton_text_double(const char *text, size_t len, double *out)
{
    /* float() strips only what Python's str.isspace() calls a space outside
     * ASCII, and inside ASCII only " \t\n\v\f\r": a \x1c-\x1f that
     * str.strip() (and so aorta_number_parse_n()) would take off the edges
     * is refused.  Inside the digits such a byte is refused either way. */
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)text[i] >= 0x1c && (unsigned char)text[i] <= 0x1f)
            return 0;
    return aorta_number_parse_n(text, len, out) == 0;
}

int proton_value_double(const proton_value_t *value, double *out)
{
    switch (value->kind) {
    case PROTON_BOOL:
        *out = value->boolean ? 1.0 : 0.0;
        return 1;
    case PROTON_INT:
        /* An integer json-c saturated is out of range here, as Python's
         * float() of so large an int overflows. */
        if (value->saturated)
            return 0;
        *out = value->i64 == INT64_MAX ? (double)value->u64 : (double)value->i64;
        return 1;
    case PROTON_DOUBLE:
        *out = value->number;
        return 1;
    case PROTON_STRING:
        return proton_text_double(value->text, value->len, out);
    default:
        return 0;
    }
}

int proton_value_time(const proton_value_t *value, double factor, double *ms)
{
    double number;
    if (factor == 0 || !proton_value_double(value, &number))
        return 0;
    double scaled = number * factor;
    /* A NaN or infinity would reach the trial JSON; no kernel runs for a
     * negative time. */
    if (!isfinite(scaled) || scaled < 0)
        return 0;
    *ms = scaled;
    return 1;
}

int64_t proton_value_count(const proton_value_t *value)
{
    if (value->kind == PROTON_INT) {
        /* Exact, not through a double: every int64 count is representable. */
        if (value->i64 == INT64_MAX && value->u64 != (uint64_t)INT64_MAX)
            return -1;
        return value->i64 >= 0 ? value->i64 : -1;
    }
    double number;
    int64_t count;
    if (!proton_value_double(value, &number) || aorta_count_from_double(number, &count) != 0)
        return -1;
    return count;
}

const char *proton_value_name(const proton_value_t *value, size_t *len, char **owned)
{
    *owned = NULL;
    *len = 0;
    switch (value->kind) {
    case PROTON_STRING:
        *len = value->len;
        return value->text;
    case PROTON_BOOL:
        if (!value->boolean)
            return "";
        *len = 4;
        return "True";
    case PROTON_INT:
        if (value->i64 == INT64_MAX)
            *owned = cc_xasprintf("%" PRIu64, value->u64);
        else if (value->i64 != 0)
            *owned = cc_xasprintf("%" PRId64, value->i64);
        else
            return "";
        break;
    case PROTON_DOUBLE:
        if (value->number == 0)
            return "";
        *owned = proton_float_str(value->number);
        break;
    default:
        /* null and missing are falsy; a list, an object or bytes name no
         * kernel (upstream would print its repr). */
        return "";
    }
    *len = strlen(*owned);
    return *owned;
}
