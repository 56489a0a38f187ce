/* SPDX-License-Identifier: MIT */
/* knobs.c - AORTA_* variables read one way (knobs.h). */
#include "config.h"

#include "sys/knobs.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/diag.h"
#include "sys/quote.h"
#include "xalloc.h"

const char *ar_knob_text(const char *name)
{
#ifdef HAVE_SECURE_GETENV
    const char *text = secure_getenv(name);
#else
    const char *text = getenv(name);
#endif
    return text;
}

/* A number knob's value: NULL when unset or empty. */
static const char *number_text(const char *name)
{
    const char *text = ar_knob_text(name);
    return text && text[0] ? text : NULL;
}

/* The bad values warned about so far, one per knob: a knob read once a
 * trial warns once, and again only when its value changes.  Knobs are read
 * on aorta-run's main thread. */
typedef struct warned {
    char *name;
    char *text;
} warned_t;

static warned_t *warned;
static size_t warned_count, warned_capacity;

static int first_time(const char *name, const char *text)
{
    for (size_t i = 0; i < warned_count; i++) {
        if (strcmp(warned[i].name, name) != 0)
            continue;
        if (strcmp(warned[i].text, text) == 0)
            return 0;
        free(warned[i].text);
        warned[i].text = ar_xstrdup(text);
        return 1;
    }
    ar_xgrow((void **)&warned, &warned_capacity, warned_count + 1, sizeof *warned);
    warned[warned_count++] = (warned_t){ar_xstrdup(name), ar_xstrdup(text)};
    return 1;
}

/* "AORTA_X='text' is not WHAT; using USED", once per value. */
static void refuse(const char *name, const char *text, const char *what, const char *used)
{
    if (!first_time(name, text))
        return;
    char *quoted = ar_repr_str(text);
    ar_diag_warn("%s=%s is not %s; using %s", name, quoted, what, used);
    free(quoted);
}

double ar_knob_seconds(const char *name, double fallback, int flags)
{
    const char *text = number_text(name);
    if (!text)
        return fallback;
    char *end = NULL;
    double value = strtod(text, &end);
    int zero_ok = (flags & AR_KNOB_ZERO_OK) != 0;
    if (end != text && !*end && isfinite(value) && (value > 0 || (zero_ok && value == 0))
        && value <= AR_KNOB_SECONDS_MAX)
        return value;
    char used[64];
    snprintf(used, sizeof used, "%g", fallback);
    refuse(name, text, zero_ok ? "a number of seconds >= 0" : "a number of seconds > 0", used);
    return fallback;
}

/* Decimal digits only (no sign, no space) into *value, at most max: 0 or -1;
 * *end is where the digits stop. */
static int read_digits(const char *text, uint64_t max, uint64_t *value, const char **end)
{
    uint64_t total = 0;
    const char *c = text;
    for (; *c >= '0' && *c <= '9'; c++) {
        unsigned digit = (unsigned)(*c - '0');
        if (total > (max - digit) / 10)
            return -1;
        total = total * 10 + digit;
    }
    *end = c;
    *value = total;
    return c == text ? -1 : 0;
}

static unsigned suffix_shift(char suffix)
{
    switch (suffix) {
    case 'K':
    case 'k':
        return 10;
    case 'M':
    case 'm':
        return 20;
    case 'G':
    case 'g':
        return 30;
    default:
        return 64;
    }
}

/* bytes as the knob would take them back: "4G", "512K" or "1000". */
static void size_text(uint64_t bytes, char *out, size_t size)
{
    static const char suffixes[] = "GMK";
    for (int i = 0; i < 3; i++) {
        unsigned shift = (unsigned)(30 - 10 * i);
        if (bytes && bytes % (UINT64_C(1) << shift) == 0) {
            snprintf(out, size, "%llu%c", (unsigned long long)(bytes >> shift), suffixes[i]);
            return;
        }
    }
    snprintf(out, size, "%llu", (unsigned long long)bytes);
}

uint64_t ar_knob_size(const char *name, uint64_t fallback)
{
    const char *text = number_text(name);
    if (!text)
        return fallback;
    uint64_t value = 0;
    const char *end = text;
    unsigned shift = 64;
    if (read_digits(text, UINT64_MAX, &value, &end) == 0)
        shift = !*end ? 0 : !end[1] ? suffix_shift(*end) : 64;
    if (shift < 64 && value > 0 && value <= (UINT64_MAX >> shift))
        return value << shift;
    char used[64];
    size_text(fallback, used, sizeof used);
    refuse(name, text, "a size in bytes (a whole number > 0, or with K, M or G)", used);
    return fallback;
}

long ar_knob_count(const char *name, long fallback)
{
    const char *text = number_text(name);
    if (!text)
        return fallback;
    uint64_t value = 0;
    const char *end = text;
    int digits = read_digits(text, LONG_MAX, &value, &end) == 0 && !*end && value > 0;
    if (digits && value <= AR_KNOB_COUNT_MAX)
        return (long)value;
    /* Too many (LONG_MAX or more among them) is capped, not ignored. */
    size_t len = strlen(text);
    int too_many = digits || (strspn(text, "0123456789") == len && strspn(text, "0") != len);
    long result = too_many ? AR_KNOB_COUNT_MAX : fallback;
    char used[32];
    snprintf(used, sizeof used, "%ld", result);
    refuse(name, text, "a whole number from 1 to " AR_KNOB_COUNT_MAX_TEXT, used);
    return result;
}
