/* SPDX-License-Identifier: MIT */
/* parse_reply.c - the parse child's reply.  The table travels as rows of
 * three, not as an object keyed by name: a name may hold anything, and rows
 * keep the first-seen order without relying on the JSON library's.
 *
 * Between the child and aorta-run the reply is text, one row a line after
 * a head line (ar_parse_reply_text()), so that neither side holds the
 * table as a JSON tree: with 100,000 kernel names the trees of the whole
 * reply were most of aorta-run's peak memory (docs/design.md, Budgets). */
#include "config.h"

#include "record/parse_reply.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/dispatch_lines.h"
#include "record/metrics_json.h"
#include "xalloc.h"

/* Row i of the table as [name, total_ms, launches or null]; NULL when the
 * total is not finite (JSON has no infinity: not a number to show). */
static ar_json_t *row_json(const aorta_kernels_t *kernels, size_t i)
{
    double ms = aorta_kernels_time_at(kernels, i);
    int64_t launches = aorta_kernels_launches_at(kernels, i);
    if (!isfinite(ms))
        return NULL;
    ar_json_t *row = ar_json_array();
    const char *name = aorta_kernels_name_at(kernels, i, NULL);
    size_t len = strlen(name);
    char *cut = ar_metric_text_cut(name, len, &len); /* one name never takes the reply */
    ar_json_append(row, ar_json_string(cut ? cut : name));
    free(cut);
    ar_json_append(row, ar_json_double(ms));
    ar_json_append(row, launches >= 0 ? ar_json_int(launches) : NULL);
    return row;
}

ar_json_t *ar_parse_reply_to_json(const aorta_metrics_t *metrics)
{
    ar_json_t *reply = ar_json_object();
    ar_json_set(reply, "metrics", ar_metrics_to_json(metrics));
    const aorta_kernels_t *kernels = aorta_metrics_kernels(metrics);
    if (!kernels)
        return reply;
    ar_json_t *rows = ar_json_array();
    for (size_t i = 0; i < aorta_kernels_count(kernels); i++) {
        ar_json_t *row = row_json(kernels, i);
        if (row)
            ar_json_append(rows, row);
    }
    ar_json_set(reply, "kernels", rows);
    return reply;
}

static int number(const ar_json_t *value, double *out)
{
    ar_json_type_t type = ar_json_type(value);
    if (type != AR_JSON_INT && type != AR_JSON_DOUBLE)
        return -1;
    *out = ar_json_get_double(value);
    return isfinite(*out) && *out >= 0 ? 0 : -1;
}

/* One row into kernels: 0, or -1 when it is not [name, ms >= 0, int or null]. */
static int add_row(aorta_kernels_t *kernels, const ar_json_t *row)
{
    const char *name = ar_json_get_string(ar_json_at(row, 0));
    const ar_json_t *count = ar_json_at(row, 2);
    double ms;
    if (ar_json_type(row) != AR_JSON_ARRAY || ar_json_length(row) != 3 || !name
        || number(ar_json_at(row, 1), &ms) != 0
        || (count && ar_json_type(count) != AR_JSON_INT))
        return -1;
    int64_t launches = count ? ar_json_get_int(count) : -1;
    /* As it will be written: names that differ only in invalid bytes are
     * one kernel (summed) now, not on a later read. */
    char *fixed = ar_json_utf8_or_null(name);
    if (fixed)
        name = fixed;
    int status = aorta_kernels_add(kernels, name, strlen(name), ms, launches < 0 ? -1 : launches);
    free(fixed);
    return status;
}

int ar_parse_reply_from_json(aorta_metrics_t *metrics, const ar_json_t *reply)
{
    if (ar_json_type(reply) != AR_JSON_OBJECT
        || ar_metrics_from_json(metrics, ar_json_get(reply, "metrics")) != 0)
        return -1;
    const ar_json_t *rows = ar_json_get(reply, "kernels");
    if (!rows)
        return 0;
    if (ar_json_type(rows) != AR_JSON_ARRAY)
        return -1;
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    int status = 0;
    for (size_t i = 0; i < ar_json_length(rows) && status == 0; i++)
        status = add_row(kernels, ar_json_at(rows, i));
    if (status == 0)
        aorta_metrics_set_kernels(metrics, kernels, 1.0);
    aorta_kernels_free(kernels);
    return status;
}

typedef struct text {
    char *data;
    size_t len, cap;
} text_t;

/* value's compact JSON and a newline onto out. */
static void put_line(text_t *out, const ar_json_t *value)
{
    char *line = ar_json_dump(value, 0);
    size_t len = strlen(line);
    ar_xgrow((void **)&out->data, &out->cap, out->len + len + 2, 1);
    memcpy(out->data + out->len, line, len);
    out->len += len;
    out->data[out->len++] = '\n';
    out->data[out->len] = '\0';
    free(line);
}

/* Room for the head's "rows", "rows_total" and dispatch members and their
 * digits. */
#define HEAD_SLACK 256

/* The head's members for the dispatches (none when there are none). */
static void set_dispatch_head(ar_json_t *head, const aorta_metrics_t *metrics,
                              const ar_dispatch_lines_t *lines)
{
    const aorta_dispatches_t *d = aorta_metrics_dispatches(metrics);
    if (!d || lines->total == 0)
        return;
    ar_json_set(head, "dispatches", ar_json_int(lines->kept));
    ar_json_set(head, "dispatch_tracks", ar_json_int(lines->tracks));
    ar_json_set(head, "dispatch_names", ar_json_int(lines->names));
    ar_json_set(head, "dispatch_clock", ar_json_string(aorta_dispatches_clock(d)
                                                                     == AORTA_CLOCK_HOST
                                                                 ? "host"
                                                                 : "session"));
    if (lines->kept < lines->total)
        ar_json_set(head, "dispatches_total", ar_json_int(lines->total));
}

char *ar_parse_reply_text(const aorta_metrics_t *metrics, size_t limit, size_t *len)
{
    const aorta_kernels_t *kernels = aorta_metrics_kernels(metrics);
    ar_json_t *head = ar_json_object();
    ar_json_set(head, "metrics", ar_metrics_to_json(metrics));
    char *bare = ar_json_dump(head, 0);
    size_t budget = limit > strlen(bare) + HEAD_SLACK ? limit - strlen(bare) - HEAD_SLACK : 0;
    free(bare);
    /* The rows while they fit: past the limit the table is cut, never the
     * metrics (the five figures are in them already). */
    text_t rows = {0};
    int64_t kept = 0, total = 0;
    for (size_t i = 0; kernels && i < aorta_kernels_count(kernels); i++) {
        ar_json_t *row = row_json(kernels, i);
        if (!row)
            continue;
        total++;
        size_t before = rows.len;
        if (kept == total - 1) {
            put_line(&rows, row);
            if (limit && rows.len > budget) {
                rows.len = before; /* this row and every later one are cut */
                if (rows.data)
                    rows.data[before] = '\0';
            } else {
                kept++;
            }
        }
        ar_json_free(row);
    }
    if (kernels)
        ar_json_set(head, "rows", ar_json_int(kept));
    if (kept < total)
        ar_json_set(head, "rows_total", ar_json_int(total));
    /* The dispatches in what the rows left: they are cut before the rows. */
    ar_dispatch_lines_t lines = {0};
    if (kept == total)
        ar_dispatch_lines_make(aorta_metrics_dispatches(metrics),
                                  limit ? (budget > rows.len ? budget - rows.len : 1) : 0, &lines);
    else
        lines.total = (int64_t)aorta_dispatches_count(aorta_metrics_dispatches(metrics));
    set_dispatch_head(head, metrics, &lines);
    text_t out = {0};
    put_line(&out, head);
    ar_json_free(head);
    ar_xgrow((void **)&out.data, &out.cap, out.len + rows.len + lines.len + 1, 1);
    if (rows.len)
        memcpy(out.data + out.len, rows.data, rows.len);
    out.len += rows.len;
    if (lines.len)
        memcpy(out.data + out.len, lines.data, lines.len);
    out.len += lines.len;
    out.data[out.len] = '\0';
    free(rows.data);
    free(lines.data);
    *len = out.len;
    return out.data;
}

/* Of the head line: what member total_key says there were, when more
 * than member kept_key says were sent (*kept), else 0. */
static int64_t cut_of(const char *text, size_t len, const char *kept_key, const char *total_key,
                      int64_t *kept)
{
    const char *newline = memchr(text, '\n', len);
    ar_json_t *head = newline ? ar_json_parse(text, (size_t)(newline - text), 64) : NULL;
    const ar_json_t *total = ar_json_get(head, total_key);
    int64_t all = ar_json_type(total) == AR_JSON_INT ? ar_json_get_int(total) : 0;
    *kept = ar_json_get_int(ar_json_get(head, kept_key));
    ar_json_free(head);
    return all > *kept ? all : 0;
}

int64_t ar_parse_reply_rows_cut(const char *text, size_t len, int64_t *kept)
{
    return cut_of(text, len, "rows", "rows_total", kept);
}

int64_t ar_parse_reply_dispatches_cut(const char *text, size_t len, int64_t *kept)
{
    return cut_of(text, len, "dispatches", "dispatches_total", kept);
}

/* The line at *at (up to its newline, which must be there) parsed; *at past it. */
static ar_json_t *next_line(const char *text, size_t len, size_t *at)
{
    const char *start = text + *at;
    const char *newline = memchr(start, '\n', len - *at);
    if (!newline)
        return NULL;
    *at = (size_t)(newline - text) + 1;
    return ar_json_parse(start, (size_t)(newline - start), 64);
}

/* The rows lines after the head into a table attached to metrics. */
static int read_rows(aorta_metrics_t *metrics, const char *text, size_t len, size_t *at_,
                     int64_t rows)
{
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    size_t at = *at_;
    int status = 0;
    for (int64_t i = 0; i < rows && status == 0; i++) {
        ar_json_t *row = at < len ? next_line(text, len, &at) : NULL;
        status = row ? add_row(kernels, row) : -1;
        ar_json_free(row);
    }
    if (status == 0)
        aorta_metrics_set_kernels(metrics, kernels, 1.0);
    aorta_kernels_free(kernels);
    *at_ = at;
    return status;
}

static int64_t count_of(const ar_json_t *head, const char *key)
{
    const ar_json_t *value = ar_json_get(head, key);
    return ar_json_type(value) == AR_JSON_INT ? ar_json_get_int(value) : -1;
}

/* The dispatch lines from at to the end of text, attached to metrics: 0,
 * or -1 when they are not what the head says. */
static int read_dispatches(aorta_metrics_t *metrics, const ar_json_t *head, const char *text,
                           size_t len, size_t at)
{
    if (!ar_json_has(head, "dispatches"))
        return at == len ? 0 : -1;
    const char *clock = ar_json_get_string(ar_json_get(head, "dispatch_clock"));
    if (!clock || (strcmp(clock, "host") && strcmp(clock, "session")))
        return -1;
    aorta_dispatches_t *d = ar_dispatch_lines_read(
        text, len, &at, count_of(head, "dispatch_tracks"), count_of(head, "dispatch_names"),
        count_of(head, "dispatches"), !strcmp(clock, "host") ? AORTA_CLOCK_HOST
                                                             : AORTA_CLOCK_SESSION);
    int status = d && at == len ? 0 : -1; /* not more than the head said */
    if (status == 0)
        aorta_metrics_set_dispatches(metrics, d);
    aorta_dispatches_free(d);
    return status;
}

int ar_parse_reply_read(aorta_metrics_t *metrics, const char *text, size_t len)
{
    size_t at = 0;
    ar_json_t *head = next_line(text, len, &at);
    int status = -1;
    if (ar_json_type(head) == AR_JSON_OBJECT
        && ar_metrics_from_json(metrics, ar_json_get(head, "metrics")) == 0) {
        const ar_json_t *rows = ar_json_get(head, "rows");
        int read = 0;
        if (ar_json_has(head, "rows"))
            read = ar_json_type(rows) == AR_JSON_INT && ar_json_get_int(rows) >= 0
                       ? read_rows(metrics, text, len, &at, ar_json_get_int(rows))
                       : -1;
        if (read == 0)
            status = read_dispatches(metrics, head, text, len, at);
    }
    ar_json_free(head);
    return status;
}
