/* SPDX-License-Identifier: MIT */
/* dispatch_lines.c - a parse's dispatches in its reply.  Names and tracks
 * are JSON strings (escaped once each, U+FFFD for bytes that are not UTF-8,
 * as every name aorta-run writes); a dispatch is four integers, written and
 * read without a JSON library, since a trace holds up to
 * AORTA_DISPATCHES_MAX of them. */
#include "config.h"

#include "record/dispatch_lines.h"

#include <stdlib.h>
#include <string.h>

#include "sys/json.h"
#include "xalloc.h"

typedef struct buf {
    char *data;
    size_t len, cap;
} buf_t;

static void put(buf_t *out, const char *text, size_t len)
{
    ar_xgrow((void **)&out->data, &out->cap, out->len + len + 1, 1);
    memcpy(out->data + out->len, text, len);
    out->len += len;
    out->data[out->len] = '\0';
}

static void put_string_line(buf_t *out, const char *text)
{
    ar_json_t *value = ar_json_string(text);
    char *line = ar_json_dump(value, 0);
    put(out, line, strlen(line));
    put(out, "\n", 1);
    free(line);
    ar_json_free(value);
}

/* v's decimal digits ending at end (exclusive); returns where they start. */
static char *digits(char *end, uint64_t v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

static size_t dispatch_line(char *line, const aorta_dispatches_t *d, size_t i)
{
    char tmp[24];
    uint64_t values[4] = {aorta_dispatches_track_at(d, i), aorta_dispatches_name_at(d, i),
                          aorta_dispatches_start_at(d, i), aorta_dispatches_end_at(d, i)};
    size_t len = 0;
    line[len++] = '[';
    for (int k = 0; k < 4; k++) {
        char *start = digits(tmp + sizeof tmp, values[k]);
        size_t n = (size_t)(tmp + sizeof tmp - start);
        memcpy(line + len, start, n);
        len += n;
        line[len++] = k < 3 ? ',' : ']';
    }
    line[len++] = '\n';
    return len;
}

void ar_dispatch_lines_make(const aorta_dispatches_t *d, size_t budget,
                               ar_dispatch_lines_t *out)
{
    buf_t lines = {0};
    size_t tracks = aorta_dispatches_track_count(d), names = aorta_dispatches_name_count(d);
    for (size_t t = 0; t < tracks; t++)
        put_string_line(&lines, aorta_dispatches_track_name(d, t));
    for (size_t n = 0; n < names; n++)
        put_string_line(&lines, aorta_dispatches_name(d, n, NULL));
    size_t count = aorta_dispatches_count(d), kept = 0;
    if (budget && lines.len > budget) {
        lines.len = 0; /* not even the names fit: no dispatch */
        tracks = names = 0;
    } else {
        ar_xgrow((void **)&lines.data, &lines.cap, lines.len + count * 24 + 1, 1);
        for (; kept < count; kept++) {
            char line[4 * 21 + 8];
            size_t n = dispatch_line(line, d, kept);
            if (budget && lines.len + n > budget)
                break;
            put(&lines, line, n);
        }
    }
    *out = (ar_dispatch_lines_t){lines.data, lines.len, (int64_t)tracks, (int64_t)names,
                                    (int64_t)kept, (int64_t)count};
    if (!kept && !tracks) {
        free(lines.data);
        out->data = NULL;
        out->len = 0;
    }
}

/* The JSON string on the line at *at, copied (NULL when it is not one). */
static char *string_line(const char *text, size_t len, size_t *at)
{
    const char *start = text + *at;
    const char *newline = memchr(start, '\n', len - *at);
    if (!newline)
        return NULL;
    *at = (size_t)(newline - text) + 1;
    ar_json_t *value = ar_json_parse(start, (size_t)(newline - start), 2);
    const char *s = ar_json_get_string(value);
    char *copy = s ? ar_xstrdup(s) : NULL;
    ar_json_free(value);
    return copy;
}

/* "[a,b,c,d]\n" at *at into v: 0, or -1. */
static int numbers_line(const char *text, size_t len, size_t *at, uint64_t v[4])
{
    size_t i = *at;
    if (i >= len || text[i++] != '[')
        return -1;
    for (int k = 0; k < 4; k++) {
        size_t first = i;
        uint64_t value = 0;
        for (; i < len && text[i] >= '0' && text[i] <= '9' && i - first < 19; i++)
            value = value * 10 + (uint64_t)(text[i] - '0');
        if (i == first || i >= len || text[i++] != (k < 3 ? ',' : ']'))
            return -1;
        v[k] = value;
    }
    if (i >= len || text[i++] != '\n')
        return -1;
    *at = i;
    return 0;
}

aorta_dispatches_t *ar_dispatch_lines_read(const char *text, size_t len, size_t *at,
                                              int64_t tracks, int64_t names, int64_t count,
                                              int clock)
{
    /* Each line takes 3 bytes at least: counts past the text are not true. */
    if (tracks < 0 || names < 0 || count < 0 || count > (int64_t)AORTA_DISPATCHES_MAX
        || tracks > (int64_t)len || names > (int64_t)len)
        return NULL;
    char **strings = ar_xcalloc((size_t)(tracks + names) + 1, sizeof *strings);
    aorta_dispatches_t *d = aorta_dispatches_new();
    int ok = aorta_dispatches_set_clock(d, clock) == 0;
    for (int64_t i = 0; ok && i < tracks + names; i++)
        ok = (strings[i] = string_line(text, len, at)) != NULL;
    for (int64_t i = 0; ok && i < count; i++) {
        uint64_t v[4];
        ok = numbers_line(text, len, at, v) == 0 && v[0] < (uint64_t)tracks
             && v[1] < (uint64_t)names;
        if (ok) {
            const char *name = strings[tracks + (int64_t)v[1]];
            ok = aorta_dispatches_add(d, strings[v[0]], name, strlen(name), v[2], v[3]) == 0;
        }
    }
    for (int64_t i = 0; i < tracks + names; i++)
        free(strings[i]);
    free(strings);
    if (!ok) {
        aorta_dispatches_free(d);
        return NULL;
    }
    return d;
}
