/* SPDX-License-Identifier: MIT */
/* csv.c - a streaming CSV reader that reports exactly the rows Python's
 * csv.DictReader (excel dialect, file opened with newline="" and
 * encoding="utf-8-sig") yields, for the few columns the parser needs.
 *
 * It runs the state machine of CPython's Modules/_csv.c over 1 MiB reads
 * (read_ahead.c: a large file's made on a thread one read ahead), a span
 * at a time instead of a character at a time: a quoted field is one
 * memchr() for the next quote, an unquoted field a scan for ',', '\r' or
 * '\n'; only the selected columns are copied.  Before
 * that, rows are tried on a fast path that handles the rows rocprofv3
 * writes (whole in the buffer, '\n'-terminated, no doubled or stray quotes)
 * without the state machine: cells point into the buffer, and the ends of
 * fields come from 64-byte windows of bit masks (csv_window.h), one for
 * each 64 bytes of the buffer in turn, so that finding a field's end does
 * not wait on a load that depends on the previous field's end.  A run of
 * unwanted unquoted fields is crossed in one step, the rest of a row after
 * its last selected column is one search for the newline.  A row the fast
 * path does not take starts over in the state machine, which yields the
 * same cells for every row the fast path takes (the tests compare both).
 * Memory is the read buffers plus the selected cells, whatever the file's
 * size.
 *
 * Python's behaviour reproduced here (checked against CPython 3.11):
 *   - a quote opens a quoted field only at the start of a field; in a quoted
 *     field "" is a quote, and a quote followed by anything but a quote, a
 *     delimiter or a line break closes the quoted part while the rest of
 *     the field is read unquoted (so rocprofv3's unescaped quotes inside
 *     kernel names cost that name its quotes, never the rows after it);
 *   - quoted fields may hold ',', '\r' and '\n'; outside quotes '\r', '\n'
 *     and "\r\n" all end a row; blank lines are no rows;
 *   - the header is the first row, even a blank one (then no column has a
 *     name); a duplicated header name means its last column, and a row too
 *     short to reach that column lacks the value; one UTF-8 BOM at the
 *     start of the file is dropped ("utf-8-sig"; upstream's "utf-8" keeps
 *     it and so loses the first column's name: docs/collectors/rocprof.md,
 *     Deliberate differences), a second one is a character;
 *   - at end of file an open quoted field ends the row (truncated files keep
 *     their last row);
 *   - NUL bytes are ordinary characters (Python >= 3.11);
 *   - a field longer than csv.field_size_limit() (131072 characters) is an
 *     error that ends the file, as is invalid UTF-8.  Rows completed before
 *     the error count; the row in progress does not.  (Python decodes in
 *     8 KiB chunks and so also loses the rows that precede a bad byte inside
 *     its chunk; here the cut is at the byte.)
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "csv_window.h"
#include "rocprof.h"

/* 0 and 0 build the reader without its fast path and without reading
 * ahead (read_ahead.c): the state machine alone, on plain reads.  The tests
 * build it so (tests/collectors/rocprof/csv_reference.c) to hold the fast
 * path and the reads ahead to it. */
#ifndef ROCPROF_CSV_FAST_PATH
#define ROCPROF_CSV_FAST_PATH 1
#endif
#ifndef ROCPROF_CSV_READ_AHEAD
#define ROCPROF_CSV_READ_AHEAD 1
#endif
#define FIELD_LIMIT 131072 /* csv.field_size_limit(), in characters */
#define MAX_COLUMNS 8

typedef enum csv_state {
    START_RECORD,    /* before a row (blank lines are skipped here) */
    START_FIELD,     /* before a field */
    IN_FIELD,        /* in an unquoted field, or the unquoted rest of one */
    IN_QUOTED,       /* inside quotes */
    QUOTE_IN_QUOTED  /* a quote seen inside quotes */
} csv_state_t;

typedef struct buffer {
    char *data;
    size_t len;
    size_t cap;
} buffer_t;

typedef struct reader {
    const char *const *names;
    size_t count;
    unsigned required;
    rocprof_row_fn fn;
    void *user;

    int header_done;
    int stop;              /* nothing more of this file is read */
    rocprof_csv_status_t status; /* why, once stop is set */
    int ascii;             /* the bytes being fed are pure ASCII */
    csv_state_t state;
    size_t field;          /* index of the current field in its row */
    size_t chars;          /* characters in the current field */
    int slot;              /* column (or the header scratch) the field goes to; -1: none */
    unsigned filled;       /* columns this row has reached */

    long column_of[MAX_COLUMNS];    /* header index of each name; -1: missing */
    size_t want_index[MAX_COLUMNS]; /* the selected header indexes, ascending */
    int want_slot[MAX_COLUMNS];
    size_t want_count;
    size_t next_want;               /* next entry of want_index this row will reach */
    buffer_t values[MAX_COLUMNS + 1]; /* the cells, then the header scratch */
    const char *base;      /* the read buffer, for the fast path */
    rocprof_cell_t cells[MAX_COLUMNS]; /* the fast path's row (unused columns stay empty) */
} reader_t;

static void buffer_append(buffer_t *buffer, const char *data, size_t len)
{
    if (len == 0)
        return;
    if (buffer->len + len > buffer->cap) {
        size_t cap = buffer->cap ? buffer->cap : 256;
        while (cap < buffer->len + len)
            cap *= 2;
        buffer->data = cc_xrealloc(buffer->data, cap);
        buffer->cap = cap;
    }
    memcpy(buffer->data + buffer->len, data, len);
    buffer->len += len;
}

/* Characters (code points) in len bytes of valid UTF-8. */
static size_t count_chars(const char *data, size_t len)
{
    size_t continuation = 0;
    for (size_t i = 0; i < len; i++)
        continuation += ((unsigned char)data[i] & 0xc0) == 0x80;
    return len - continuation;
}

static void begin_field(reader_t *r)
{
    r->chars = 0;
    if (!r->header_done) {
        r->slot = (int)r->count;
    } else if (r->next_want < r->want_count && r->want_index[r->next_want] == r->field) {
        r->slot = r->want_slot[r->next_want];
    } else {
        r->slot = -1;
        return;
    }
    r->values[r->slot].len = 0;
}

static void append(reader_t *r, const char *data, size_t len)
{
    r->chars += r->ascii ? len : count_chars(data, len);
    if (r->chars > FIELD_LIMIT) {
        r->stop = 1; /* _csv.Error: field larger than field limit */
        r->status = ROCPROF_CSV_LONG_FIELD;
        return;
    }
    if (r->slot >= 0)
        buffer_append(&r->values[r->slot], data, len);
}

static void end_field(reader_t *r)
{
    if (!r->header_done) {
        const buffer_t *name = &r->values[r->count];
        for (size_t i = 0; i < r->count; i++)
            if (strlen(r->names[i]) == name->len && memcmp(r->names[i], name->data, name->len) == 0)
                r->column_of[i] = (long)r->field; /* dict(zip(...)): the last one wins */
    } else if (r->slot >= 0) {
        r->filled |= 1u << r->slot;
        r->next_want++;
    }
    r->field++;
}

static int compare_size(const void *left, const void *right)
{
    size_t a = *(const size_t *)left, b = *(const size_t *)right;
    return a < b ? -1 : a > b;
}

/* The required columns the last header read lacked (rocprof_csv_missing):
 * the parse runs on one thread. */
static unsigned last_missing;

unsigned rocprof_csv_missing(void)
{
    return last_missing;
}

static void finish_header(reader_t *r)
{
    r->header_done = 1;
    size_t indexes[MAX_COLUMNS];
    r->want_count = 0;
    for (size_t i = 0; i < r->count; i++) {
        if (r->column_of[i] >= 0)
            indexes[r->want_count++] = (size_t)r->column_of[i];
        else if (r->required & (1u << i)) {
            r->stop = 1; /* no row can be used */
            r->status = ROCPROF_CSV_NO_COLUMN;
            last_missing |= 1u << i;
        }
    }
    qsort(indexes, r->want_count, sizeof *indexes, compare_size);
    for (size_t k = 0; k < r->want_count; k++) {
        r->want_index[k] = indexes[k];
        for (size_t i = 0; i < r->count; i++)
            if (r->column_of[i] == (long)indexes[k])
                r->want_slot[k] = (int)i;
    }
}

static void end_record(reader_t *r)
{
    if (!r->header_done) {
        finish_header(r);
    } else {
        rocprof_cell_t cells[MAX_COLUMNS];
        for (size_t i = 0; i < r->count; i++) {
            int have = (r->filled >> i) & 1u;
            cells[i].data = have ? r->values[i].data : NULL;
            cells[i].len = have ? r->values[i].len : 0;
        }
        r->fn(cells, r->user);
    }
    r->state = START_RECORD;
}

static void start_record(reader_t *r)
{
    r->field = 0;
    r->filled = 0;
    r->next_want = 0;
    r->state = START_FIELD;
    begin_field(r);
}

/* Bytes that end an unquoted field. */
static const unsigned char ends_unquoted[256] = {[','] = 1, ['\n'] = 1, ['\r'] = 1};

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CSV_SWAR 1
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
/* The high bit of each byte of v equal to c (the lowest one is exact:
 * a borrow only marks bytes above a true match). */
static inline uint64_t bytes_equal(uint64_t v, unsigned char c)
{
    uint64_t x = v ^ (ONES * c);
    return (x - ONES) & ~x & HIGHS;
}
#endif

/* The first of a, b or c at or after p, or end: eight bytes a step.  The
 * state machine's search (the fast path has its windows). */
static const char *find3(const char *p, const char *end, unsigned char a, unsigned char b,
                         unsigned char c)
{
#ifdef CSV_SWAR
    while (end - p >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        uint64_t hit = bytes_equal(v, a) | bytes_equal(v, b) | bytes_equal(v, c);
        if (hit)
            return p + (__builtin_ctzll(hit) >> 3);
        p += 8;
    }
#endif
    while (p < end && *p != (char)a && *p != (char)b && *p != (char)c)
        p++;
    return p;
}

/* The first ',', '\r' or '\n' at or after p, or end. */
static const char *scan_unquoted(const char *p, const char *end)
{
    /* Most unquoted fields are a few digits: look at the first bytes
     * directly before the wider search. */
    for (int i = 0; i < 4; i++, p++)
        if (p >= end || ends_unquoted[(unsigned char)*p])
            return p;
    return find3(p, end, ',', '\n', '\r');
}

/* Byte classes a window search stops at. */
enum { FIND_QUOTE = 1, FIND_COMMA = 2, FIND_EOL = 4 };

/* The offset of the first byte of the classes at or after pos, moving the
 * window on 64 bytes at a time (the next window's address never waits for
 * the search); limit or more when there is none before limit. */
static inline size_t window_find(csv_window_t *w, const char *base, size_t pos, size_t limit,
                                 unsigned classes)
{
    size_t off = pos - w->at;
    if (off >= CSV_WINDOW) {
        csv_window_load(w, base, pos);
        off = 0;
    }
    for (;;) {
        uint64_t m = ((classes & FIND_QUOTE) ? w->quote : 0)
                     | ((classes & FIND_COMMA) ? w->comma : 0)
                     | ((classes & FIND_EOL) ? w->eol : 0);
        m &= ~0ULL << off;
        if (m)
            return w->at + (unsigned)__builtin_ctzll(m);
        if (w->at + CSV_WINDOW >= limit)
            return limit;
        csv_window_load(w, base, w->at + CSV_WINDOW);
        off = 0;
    }
}

/* The fast path: the rows from p on that are plain (see the top of the
 * file) and whole before end, reported with cells that point into the
 * buffer.  Returns where the first row that needs the state machine (or a
 * blank line, or end) starts.  Only the bytes before end have a meaning;
 * the windows read up to CSV_WINDOW - 1 bytes past it. */
static const char *fast_rows(reader_t *r, const char *p, const char *end)
{
    const char *base = r->base;
    const size_t limit = (size_t)(end - base), want_count = r->want_count;
    csv_window_t window = {.at = SIZE_MAX / 2}, *w = &window; /* none yet */
    rocprof_cell_t *cells = r->cells;
    size_t at = (size_t)(p - base);
    for (;;) {
        const size_t row = at;
        if (at >= limit || base[at] == '\n' || base[at] == '\r')
            return base + at;
        size_t field = 0, next = 0;
        while (next < want_count) {
            size_t start, stop;
            if (at >= limit)
                return base + row;
            if (field < r->want_index[next] && base[at] != '"') {
                /* Fields nobody wants up to the next wanted one: past the
                 * skip-th delimiter at once, when this window holds it and
                 * no quote or line break comes before (else one by one). */
                size_t off = at - w->at;
                if (off < CSV_WINDOW) {
                    size_t skip = r->want_index[next] - field;
                    uint64_t m = (w->comma | w->eol) >> off;
                    for (size_t k = 1; k < skip; k++)
                        m &= m - 1;
                    if (m) {
                        unsigned d = (unsigned)__builtin_ctzll(m);
                        if ((((w->quote | w->eol) >> off) & ((2ULL << d) - 1)) == 0) {
                            at += d + 1;
                            field += skip;
                            continue;
                        }
                    }
                }
            }
            if (base[at] == '"') {
                start = at + 1;
                stop = window_find(w, base, start, limit, FIND_QUOTE);
                if (stop + 1 >= limit)
                    return base + row; /* no closing quote, or nothing after it yet */
                at = stop + 1;
                if (base[at] != ',' && base[at] != '\n')
                    return base + row; /* "" or a stray quote or "\r\n" */
            } else {
                start = at;
                at = window_find(w, base, at, limit, FIND_COMMA | FIND_EOL);
                if (at >= limit || base[at] == '\r')
                    return base + row;
                stop = at;
            }
            if (stop - start > FIELD_LIMIT)
                return base + row; /* characters must be counted */
            if (field == r->want_index[next]) {
                cells[r->want_slot[next]].data = base + start;
                cells[r->want_slot[next]].len = stop - start;
                next++;
            }
            field++;
            if (base[at++] == '\n')
                goto done; /* the row ends here: the columns not reached are empty */
        }
        /* The rest of the row in one search that skips its commas; a quote
         * or a CR there is the state machine's case. */
        size_t newline = window_find(w, base, at, limit, FIND_QUOTE | FIND_EOL);
        if (newline >= limit || base[newline] != '\n' || newline - at > FIELD_LIMIT)
            return base + row;
        at = newline + 1;
    done:
        for (size_t k = next; k < want_count; k++)
            cells[r->want_slot[k]] = (rocprof_cell_t){NULL, 0};
        r->fn(cells, r->user);
    }
}

/* A field that ends at *p: a comma starts the next one, a line break ends
 * the record; *p moves past it.  Returns 0 (nothing done) for any other
 * character. */
static int field_ends(reader_t *r, const char **p)
{
    if (**p == ',') {
        end_field(r);
        begin_field(r);
        r->state = START_FIELD;
    } else if (**p == '\n' || **p == '\r') {
        end_field(r);
        end_record(r);
    } else {
        return 0;
    }
    (*p)++;
    return 1;
}

static void feed(reader_t *r, const char *p, const char *end)
{
    while (p < end && !r->stop) {
        switch (r->state) {
        case START_RECORD:
            if (*p == '\n' || *p == '\r') {
                if (!r->header_done)
                    finish_header(r); /* a blank first line is an empty header */
                p++;
                break;
            }
            if (ROCPROF_CSV_FAST_PATH && r->header_done) {
                const char *next = fast_rows(r, p, end);
                if (next != p) {
                    p = next;
                    break;
                }
            }
            start_record(r);
            /* fall through */
        case START_FIELD:
            if (*p == '"') {
                r->state = IN_QUOTED;
                p++;
            } else if (!field_ends(r, &p)) {
                r->state = IN_FIELD;
            }
            break;
        case IN_FIELD: {
            const char *stop = scan_unquoted(p, end);
            append(r, p, (size_t)(stop - p));
            p = stop;
            if (r->stop || p == end)
                break;
            end_field(r);
            if (*p == ',') {
                begin_field(r);
                r->state = START_FIELD;
            } else {
                end_record(r);
            }
            p++;
            break;
        }
        case IN_QUOTED: {
            const char *quote = memchr(p, '"', (size_t)(end - p));
            const char *stop = quote ? quote : end;
            append(r, p, (size_t)(stop - p));
            p = stop;
            if (quote && !r->stop) {
                r->state = QUOTE_IN_QUOTED;
                p++;
            }
            break;
        }
        case QUOTE_IN_QUOTED:
            if (*p == '"') {
                append(r, p, 1);
                r->state = IN_QUOTED;
                p++;
            } else if (!field_ends(r, &p)) {
                r->state = IN_FIELD; /* not strict: the character is kept */
            }
            break;
        }
    }
}

/* End of file: a row still open (an unterminated quote included) ends. */
static void finish(reader_t *r)
{
    if (r->state != START_RECORD && !r->stop) {
        end_field(r);
        end_record(r);
    }
}

rocprof_csv_status_t rocprof_csv_read(int fd, const char *const *names, size_t count,
                                      unsigned required, rocprof_row_fn fn, void *user)
{
    last_missing = 0;
    if (count > MAX_COLUMNS)
        return ROCPROF_CSV_NO_COLUMN;
    reader_t r;
    memset(&r, 0, sizeof r);
    r.names = names;
    r.count = count;
    r.required = required;
    r.fn = fn;
    r.user = user;
    r.state = START_RECORD;
    for (size_t i = 0; i < MAX_COLUMNS; i++)
        r.column_of[i] = -1;

    rocprof_reads_t *reads = rocprof_reads_start(fd, ROCPROF_CSV_READ_AHEAD);
    char carried[4];  /* an incomplete UTF-8 sequence (or BOM) kept from the last read */
    size_t carry = 0;
    int first = 1;    /* the file's first bytes, where a BOM is dropped */
    for (;;) {
        char *data;
        ssize_t got = rocprof_reads_next(reads, &data);
        if (got < 0) {
            r.status = ROCPROF_CSV_READ_ERROR; /* OSError: the row in progress is lost */
            break;
        }
        if (got == 0) {
            if (carry == 0)
                finish(&r); /* else the file ends inside a character: invalid */
            else if (!r.stop)
                r.status = ROCPROF_CSV_BAD_UTF8;
            break;
        }
        /* The carried bytes go just before the read's (there is room). */
        char *buffer = data - carry;
        memcpy(buffer, carried, carry);
        size_t have = carry + (size_t)got;
        if (first && have < 3 && memcmp(buffer, "\xef\xbb\xbf", have) == 0) {
            memcpy(carried, buffer, have); /* a short read inside what may be a BOM: read on */
            carry = have;
            continue;
        }
        if (first && have >= 3 && memcmp(buffer, "\xef\xbb\xbf", 3) == 0) {
            buffer += 3;
            have -= 3;
        }
        first = 0;
        /* A window reads 64 bytes from where it starts: the bytes past the
         * data are defined, though their bits are never used. */
        memset(buffer + have, 0, CSV_WINDOW);
        r.base = buffer;
        int truncated;
        size_t valid = aorta_utf8_valid_prefix(buffer, have, &truncated, &r.ascii);
        feed(&r, buffer, buffer + valid);
        if (r.stop)
            break;
        if (valid < have && !truncated) {
            r.status = ROCPROF_CSV_BAD_UTF8;
            break;
        }
        carry = have - valid;
        memcpy(carried, buffer + valid, carry);
    }
    rocprof_reads_stop(reads);
    for (size_t i = 0; i <= MAX_COLUMNS; i++)
        free(r.values[i].data);
    return r.status;
}
