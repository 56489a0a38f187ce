/* SPDX-License-Identifier: MIT */
/* units.c - numbers and units as profilers print them for people (ABI
 * 1.4): "1,234.5" with its thousands grouped, "n/a", and time units
 * ("nsecond", "usecond", ...) as milliseconds. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"

/* Copy text into out without its grouping commas: the integer part (after
 * an optional sign) is 1-3 digits, then groups of ',' and 3 digits.
 * Returns the copied length, or (size_t)-1 when a comma is misplaced. */
static size_t ungroup(const char *text, size_t len, char *out)
{
    size_t i = 0, n = 0;
    if (i < len && (text[i] == '-' || text[i] == '+'))
        out[n++] = text[i++];
    size_t digits = 0;
    while (i + digits < len && text[i + digits] >= '0' && text[i + digits] <= '9')
        digits++;
    if (digits == 0 || digits > 3 || i + digits >= len || text[i + digits] != ',')
        return (size_t)-2; /* no grouping: the caller parses text as it is */
    memcpy(out + n, text + i, digits);
    n += digits;
    i += digits;
    while (i < len && text[i] == ',') {
        for (size_t k = 1; k <= 3; k++)
            if (i + k >= len || text[i + k] < '0' || text[i + k] > '9')
                return (size_t)-1;
        if (i + 4 < len && text[i + 4] >= '0' && text[i + 4] <= '9')
            return (size_t)-1; /* a group of more than three */
        memcpy(out + n, text + i + 1, 3);
        n += 3;
        i += 4;
    }
    memcpy(out + n, text + i, len - i);
    return n + (len - i);
}

int aorta_number_parse_grouped(const char *text, size_t len, double *out)
{
    if (!text || !out)
        return -1;
    size_t stripped = 0;
    text = aorta_text_strip(text, len, &stripped);
    len = stripped;
    if (len == 0 || (len == 3 && (!memcmp(text, "n/a", 3) || !memcmp(text, "N/A", 3))))
        return 1;
    if (!memchr(text, ',', len))
        return aorta_number_parse_n(text, len, out);
    char small[256];
    char *buffer = len + 1 <= sizeof small ? small : malloc(len + 1);
    if (!buffer)
        return -1;
    size_t n = ungroup(text, len, buffer);
    int status = n == (size_t)-1 || n == (size_t)-2 || memchr(buffer, ',', n)
                     ? -1
                     : aorta_number_parse_n(buffer, n, out);
    if (buffer != small)
        free(buffer);
    return status;
}

static const struct {
    const char *name;
    double ms;
} time_units[] = {
    {"nsecond", 1e-6}, {"ns", 1e-6}, {"usecond", 1e-3}, {"us", 1e-3},
    {"msecond", 1.0},  {"ms", 1.0},  {"second", 1e3},   {"s", 1e3},
};

int aorta_unit_to_ms(const char *unit, double *ms_per_unit)
{
    if (!unit)
        return -1;
    for (size_t i = 0; i < sizeof time_units / sizeof time_units[0]; i++)
        if (!strcmp(unit, time_units[i].name)) {
            if (ms_per_unit)
                *ms_per_unit = time_units[i].ms;
            return 0;
        }
    return -1;
}
