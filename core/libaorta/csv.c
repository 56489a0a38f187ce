/* SPDX-License-Identifier: MIT */
/* csv.c - a CSV reader over text in memory (ABI 1.4), with the rules of
 * Python's csv module and its default dialect: ',' between fields, rows end
 * at "\n" or "\r\n", a field that starts with '"' is quoted and may hold
 * separators, line breaks and doubled quotes.  Profilers' pages (Nsight
 * Compute's raw page: a header row, a units row, then a row a launch) are
 * read with it.  Fields are unquoted into one buffer per row, so a row
 * costs no allocation once the buffer has grown. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "xalloc.h"

struct aorta_csv {
    const char *data;
    size_t len, pos;
    size_t line;      /* the line the next row starts on (1-based) */
    size_t row_line;  /* the line the row last read started on */
    char *text;       /* the row's fields, each NUL-terminated */
    size_t text_len, text_cap;
    size_t *starts, *lens; /* per field: offset into text, length */
    size_t count, cap;
};

aorta_csv_t *aorta_csv_new(const char *data, size_t len)
{
    if (!data && len)
        return NULL;
    aorta_csv_t *csv = ar_xcalloc(1, sizeof *csv);
    csv->data = data ? data : "";
    csv->len = len;
    csv->line = 1;
    return csv;
}

void aorta_csv_free(aorta_csv_t *csv)
{
    if (!csv)
        return;
    free(csv->text);
    free(csv->starts);
    free(csv->lens);
    free(csv);
}

static void text_reserve(aorta_csv_t *csv, size_t more)
{
    if (csv->text_len + more <= csv->text_cap)
        return;
    size_t cap = csv->text_cap ? csv->text_cap : 256;
    while (cap < csv->text_len + more)
        cap *= 2;
    csv->text = ar_xrealloc(csv->text, cap);
    csv->text_cap = cap;
}

/* Close the field begun at text offset start. */
static void end_field(aorta_csv_t *csv, size_t start)
{
    if (csv->count == csv->cap) {
        csv->cap = csv->cap ? csv->cap * 2 : 16;
        csv->starts = ar_xrealloc(csv->starts, csv->cap * sizeof *csv->starts);
        csv->lens = ar_xrealloc(csv->lens, csv->cap * sizeof *csv->lens);
    }
    csv->starts[csv->count] = start;
    csv->lens[csv->count] = csv->text_len - start;
    csv->count++;
    text_reserve(csv, 1);
    csv->text[csv->text_len++] = '\0';
}

/* A quoted field's content from csv->pos (after the opening quote) up to
 * its closing quote.  0, or -1 when the data ends inside it. */
static int read_quoted(aorta_csv_t *csv)
{
    const char *d = csv->data;
    for (;;) {
        const char *quote = memchr(d + csv->pos, '"', csv->len - csv->pos);
        size_t run = (quote ? (size_t)(quote - d) : csv->len) - csv->pos;
        text_reserve(csv, run + 1);
        memcpy(csv->text + csv->text_len, d + csv->pos, run);
        for (size_t i = 0; i < run; i++)
            csv->line += d[csv->pos + i] == '\n';
        csv->text_len += run;
        csv->pos += run;
        if (!quote)
            return -1;
        csv->pos++; /* the quote */
        if (csv->pos < csv->len && d[csv->pos] == '"') {
            csv->text[csv->text_len++] = '"';
            csv->pos++;
            continue;
        }
        return 0;
    }
}

/* One field from csv->pos; sets *end_of_row at a line break or the end.
 * 0, or -1 when it is malformed. */
static int read_field(aorta_csv_t *csv, int *end_of_row)
{
    const char *d = csv->data;
    size_t start = csv->text_len;
    int status = 0, quoted = 0;
    if (csv->pos < csv->len && d[csv->pos] == '"') {
        csv->pos++;
        quoted = 1;
        status = read_quoted(csv);
    }
    /* Unquoted text, or what follows a closing quote (malformed, kept as
     * Python keeps it). */
    size_t from = csv->pos;
    while (csv->pos < csv->len && d[csv->pos] != ',' && d[csv->pos] != '\n'
           && !(d[csv->pos] == '\r' && (csv->pos + 1 == csv->len || d[csv->pos + 1] == '\n')))
        csv->pos++;
    if (quoted && csv->pos > from)
        status = -1;
    size_t run = csv->pos - from;
    text_reserve(csv, run + 1);
    memcpy(csv->text + csv->text_len, d + from, run);
    csv->text_len += run;
    end_field(csv, start);
    if (csv->pos >= csv->len) {
        *end_of_row = 1;
    } else if (d[csv->pos] == ',') {
        csv->pos++;
        *end_of_row = 0;
    } else {
        csv->pos += d[csv->pos] == '\r' ? 2 : 1;
        csv->line++;
        *end_of_row = 1;
    }
    return status;
}

int aorta_csv_next(aorta_csv_t *csv)
{
    if (!csv)
        return 0;
    csv->count = 0;
    csv->text_len = 0;
    if (csv->pos >= csv->len)
        return 0;
    csv->row_line = csv->line;
    const char *d = csv->data;
    /* An empty line is a row of no fields. */
    if (d[csv->pos] == '\n' || (d[csv->pos] == '\r' && csv->pos + 1 < csv->len
                                && d[csv->pos + 1] == '\n')) {
        csv->pos += d[csv->pos] == '\r' ? 2 : 1;
        csv->line++;
        return 1;
    }
    int status = 1, end_of_row = 0;
    while (!end_of_row)
        if (read_field(csv, &end_of_row) != 0)
            status = -1;
    return status;
}

size_t aorta_csv_field_count(const aorta_csv_t *csv)
{
    return csv ? csv->count : 0;
}

const char *aorta_csv_field(const aorta_csv_t *csv, size_t index, size_t *len)
{
    if (!csv || index >= csv->count) {
        if (len)
            *len = 0;
        return NULL;
    }
    if (len)
        *len = csv->lens[index];
    return csv->text + csv->starts[index];
}

size_t aorta_csv_line(const aorta_csv_t *csv)
{
    return csv ? csv->row_line : 0;
}
