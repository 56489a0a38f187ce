/* SPDX-License-Identifier: MIT */
/* lane_svg.c - report.html's lane chart of a trial's timeline.  The file is
 * read back line by line in the shape record/timeline.c writes it (an
 * event a line, keys in its order), without a JSON tree: a timeline may
 * hold millions of events.  Each lane is binned to AR_LANE_COLUMNS
 * columns, each column drawn in the colour of the kernel that covers most
 * of it, and runs of one colour merged; a lane is one <path> per colour,
 * so the chart stays small whatever the count of dispatches. */
#include "config.h"

#include "report/lane_svg.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyindex.h"
#include "sys/files.h"
#include "sys/json.h"
#include "sys/text_escape.h"
#include "xalloc.h"

static const char *const palette[AR_LANE_COLOURS] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7"};
#define OTHER_COLOUR "#bab0ac"
#define LABEL_W 260
#define LANE_H 12
#define LANE_GAP 3
#define TOP 4

typedef struct event {
    double ts, dur;
    uint32_t lane, name;
} event_t;

typedef struct lane {
    int64_t pid, tid;
    char *key;        /* "pid/tid", the index's key */
    char *label;      /* the track's name, decoded */
    size_t events;
} lane_t;

typedef struct name {
    char *raw;        /* the JSON string as written (quotes included) */
    size_t len;
    double total;     /* µs over the chart */
} name_t;

typedef struct chart {
    event_t *events;
    size_t count, cap;
    lane_t *lanes;
    size_t lane_count, lane_cap;
    name_t *names;
    size_t name_count, name_cap;
    /* Lookups in O(log n): a file may hold as many names and tracks as
     * events; the last one found is tried first (events come in runs). */
    ar_keyindex_t lane_index, name_index;
    size_t last_lane, last_name;
    double end;       /* the latest end, µs */
} chart_t;

/* The JSON string starting at p (its opening quote) up to end: its length
 * with both quotes, or 0 when it does not close on the line. */
static size_t string_len(const char *p, const char *end)
{
    if (p >= end || *p != '"')
        return 0;
    for (const char *q = p + 1; q < end; q++) {
        if (*q == '\\')
            q++;
        else if (*q == '"')
            return (size_t)(q - p) + 1;
    }
    return 0;
}

/* The literal word at *p, moving past it: 1, or 0 when it is not there. */
static int skip(const char **p, const char *end, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(end - *p) < n || memcmp(*p, word, n) != 0)
        return 0;
    *p += n;
    return 1;
}

static int number(const char **p, const char *end, double *out)
{
    char *stop;
    if (*p >= end || !((**p >= '0' && **p <= '9') || **p == '-'))
        return 0;
    *out = strtod(*p, &stop);
    if (stop > end || stop == *p)
        return 0;
    *p = stop;
    return 1;
}

/* A pid or tid as the trace writes them (record/timeline.c): a whole
 * number from 0 to 10^9.  Checked before any conversion: a double out of
 * an integer's range (NaN, 1e300) converts to no defined value. */
static int id_ok(double id)
{
    return id >= 0 && id <= 1e9; /* false for NaN */
}

static size_t lane_of(chart_t *chart, int64_t pid, int64_t tid)
{
    size_t last = chart->last_lane;
    if (last < chart->lane_count && chart->lanes[last].pid == pid
        && chart->lanes[last].tid == tid)
        return last;
    char key[48];
    snprintf(key, sizeof key, "%lld/%lld", (long long)pid, (long long)tid);
    size_t at = ar_keyindex_find(&chart->lane_index, key);
    if (at == AR_KEYINDEX_NONE) {
        if (chart->lane_count == chart->lane_cap)
            ar_xgrow((void **)&chart->lanes, &chart->lane_cap, chart->lane_count + 1,
                        sizeof *chart->lanes);
        at = chart->lane_count++;
        chart->lanes[at] = (lane_t){pid, tid, ar_xstrdup(key), NULL, 0};
        ar_keyindex_add(&chart->lane_index, chart->lanes[at].key, at);
    }
    return chart->last_lane = at;
}

/* raw: a JSON string without a NUL byte (read_line() skips the others). */
static size_t name_of(chart_t *chart, const char *raw, size_t len)
{
    size_t last = chart->last_name;
    if (last < chart->name_count && chart->names[last].len == len
        && memcmp(chart->names[last].raw, raw, len) == 0)
        return last;
    char *copy = ar_xmalloc(len + 1);
    memcpy(copy, raw, len);
    copy[len] = '\0';
    size_t at = ar_keyindex_find(&chart->name_index, copy);
    if (at != AR_KEYINDEX_NONE) {
        free(copy);
        return chart->last_name = at;
    }
    if (chart->name_count == chart->name_cap)
        ar_xgrow((void **)&chart->names, &chart->name_cap, chart->name_count + 1,
                    sizeof *chart->names);
    at = chart->name_count++;
    chart->names[at] = (name_t){copy, len, 0};
    ar_keyindex_add(&chart->name_index, copy, at);
    return chart->last_name = at;
}

/* A JSON string decoded (NULL when it is not one). */
static char *decode(const char *raw, size_t len)
{
    ar_json_t *value = ar_json_parse(raw, len, 2);
    const char *text = ar_json_get_string(value);
    char *copy = text ? ar_xstrdup(text) : NULL;
    ar_json_free(value);
    return copy;
}

/* {"name":"thread_name","ph":"M","pid":P,"tid":T,"args":{"name":"..."}} */
static void read_thread_name(chart_t *chart, const char *p, const char *end)
{
    double pid, tid;
    if (!skip(&p, end, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":") || !number(&p, end, &pid)
        || !skip(&p, end, ",\"tid\":") || !number(&p, end, &tid)
        || !skip(&p, end, ",\"args\":{\"name\":") || !id_ok(pid) || !id_ok(tid))
        return;
    size_t n = string_len(p, end);
    if (!n)
        return;
    size_t at = lane_of(chart, (int64_t)pid, (int64_t)tid); /* may move lanes */
    lane_t *lane = &chart->lanes[at];
    free(lane->label);
    lane->label = decode(p, n);
}

#define THREAD_NAME "{\"name\":\"thread_name\",\"ph\":\"M\""

/* {"name":"...","cat":"kernel","ph":"X","pid":P,"tid":T,"ts":F,"dur":F},
 * or a thread_name event. */
static void read_line(chart_t *chart, const char *p, const char *end)
{
    if ((size_t)(end - p) > sizeof THREAD_NAME && !memcmp(p, THREAD_NAME, sizeof THREAD_NAME - 1)) {
        read_thread_name(chart, p, end);
        return;
    }
    if (!skip(&p, end, "{\"name\":"))
        return;
    size_t n = string_len(p, end);
    const char *raw = p;
    double pid, tid, ts, dur;
    p += n;
    if (!n || memchr(raw, '\0', n) || !skip(&p, end, ",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":") || !number(&p, end, &pid)
        || !skip(&p, end, ",\"tid\":") || !number(&p, end, &tid) || !skip(&p, end, ",\"ts\":")
        || !number(&p, end, &ts) || !skip(&p, end, ",\"dur\":") || !number(&p, end, &dur)
        || !(ts >= 0 && dur >= 0 && ts < 1e15 && dur < 1e15) || !id_ok(pid) || !id_ok(tid))
        return;
    if (chart->count == chart->cap)
        ar_xgrow((void **)&chart->events, &chart->cap, chart->count + 1, sizeof *chart->events);
    uint32_t lane = (uint32_t)lane_of(chart, (int64_t)pid, (int64_t)tid);
    uint32_t name = (uint32_t)name_of(chart, raw, n);
    chart->events[chart->count++] = (event_t){ts, dur, lane, name};
    chart->lanes[lane].events++;
    chart->names[name].total += dur;
    if (ts + dur > chart->end)
        chart->end = ts + dur;
}

static void chart_clear(chart_t *chart)
{
    ar_keyindex_clear(&chart->lane_index);
    ar_keyindex_clear(&chart->name_index);
    for (size_t i = 0; i < chart->lane_count; i++) {
        free(chart->lanes[i].label);
        free(chart->lanes[i].key);
    }
    for (size_t i = 0; i < chart->name_count; i++)
        free(chart->names[i].raw);
    free(chart->lanes);
    free(chart->names);
    free(chart->events);
}

/* Sort keys that carry their index: the comparators need no other state
 * (cells are rendered on several threads). */
typedef struct key {
    double a, b;
    size_t index;
} sort_key_t;

static int by_key(const void *left, const void *right)
{
    const sort_key_t *x = left, *y = right;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The lanes in pid, then tid order. */
static size_t *lane_order(const chart_t *chart)
{
    sort_key_t *keys = ar_xcalloc(chart->lane_count + 1, sizeof *keys);
    for (size_t i = 0; i < chart->lane_count; i++)
        keys[i] = (sort_key_t){(double)chart->lanes[i].pid, (double)chart->lanes[i].tid, i};
    qsort(keys, chart->lane_count, sizeof *keys, by_key);
    size_t *order = ar_xcalloc(chart->lane_count + 1, sizeof *order);
    for (size_t i = 0; i < chart->lane_count; i++)
        order[i] = keys[i].index;
    free(keys);
    return order;
}

/* Each name's colour: the AR_LANE_COLOURS largest totals their own
 * (largest first), the rest AR_LANE_COLOURS (grey).  *top gets the
 * names with a colour, in order; returns their count. */
static size_t colour_names(const chart_t *chart, uint8_t *colour, size_t *top)
{
    sort_key_t *keys = ar_xcalloc(chart->name_count + 1, sizeof *keys);
    for (size_t i = 0; i < chart->name_count; i++)
        keys[i] = (sort_key_t){-chart->names[i].total, 0, i};
    qsort(keys, chart->name_count, sizeof *keys, by_key);
    size_t n = 0;
    for (size_t i = 0; i < chart->name_count; i++) {
        colour[keys[i].index] = i < AR_LANE_COLOURS ? (uint8_t)i : AR_LANE_COLOURS;
        if (i < AR_LANE_COLOURS)
            top[n++] = keys[i].index;
    }
    free(keys);
    return n;
}

/* Text cut to at most max bytes at a character boundary, "..." when cut. */
static void put_cut(FILE *out, const char *text, size_t max)
{
    size_t len = strlen(text);
    if (len <= max) {
        ar_html_put(out, text);
        return;
    }
    while (max > 0 && ((unsigned char)text[max] & 0xC0) == 0x80)
        max--;
    char *cut = ar_xasprintf("%.*s...", (int)max, text);
    ar_html_put(out, cut);
    free(cut);
}

/* Per lane and column: the colour of the dispatch that covers most of the
 * column (AR_LANE_COLOURS + 1 where none does). */
static uint8_t *bin(const chart_t *chart, const size_t *row_of, size_t rows, const uint8_t *colour)
{
    uint8_t *cells = ar_xmalloc(rows * AR_LANE_COLUMNS + 1);
    memset(cells, AR_LANE_COLOURS + 1, rows * AR_LANE_COLUMNS);
    float *cover = ar_xcalloc(rows * AR_LANE_COLUMNS + 1, sizeof *cover);
    double scale = chart->end > 0 ? AR_LANE_COLUMNS / chart->end : 0;
    for (size_t i = 0; i < chart->count; i++) {
        const event_t *e = &chart->events[i];
        size_t row = row_of[e->lane];
        if (row >= rows)
            continue;
        double x0 = e->ts * scale, x1 = (e->ts + e->dur) * scale;
        /* A chart end of 5e-324 makes the scale infinite (and 0 x inf a
         * NaN): only a column index in range is converted. */
        if (!(x0 >= 0 && x0 < AR_LANE_COLUMNS))
            continue;
        size_t c = (size_t)x0;
        do {
            if (c >= AR_LANE_COLUMNS)
                break;
            double lo = x0 > (double)c ? x0 : (double)c;
            double hi = x1 < (double)c + 1 ? x1 : (double)c + 1;
            float covered = (float)(hi > lo ? hi - lo : 1e-9);
            size_t at = row * AR_LANE_COLUMNS + c;
            if (covered > cover[at]) {
                cover[at] = covered;
                cells[at] = colour[e->name];
            }
            c++;
        } while ((double)c < x1);
    }
    free(cover);
    return cells;
}

/* One lane's rectangles: a path per colour, runs of a colour merged. */
static void put_lane(FILE *out, const uint8_t *cells, int y)
{
    for (uint8_t k = 0; k <= AR_LANE_COLOURS; k++) {
        int opened = 0;
        for (int c = 0; c < AR_LANE_COLUMNS; c++) {
            if (cells[c] != k)
                continue;
            int from = c;
            while (c + 1 < AR_LANE_COLUMNS && cells[c + 1] == k)
                c++;
            if (!opened)
                fprintf(out, "<path fill=\"%s\" d=\"",
                        k < AR_LANE_COLOURS ? palette[k] : OTHER_COLOUR);
            opened = 1;
            fprintf(out, "M%d %dh%dv%dh-%dz", LABEL_W + from, y, c - from + 1, LANE_H,
                    c - from + 1);
        }
        if (opened)
            fputs("\"/>", out);
    }
}

static void put_lanes(FILE *out, const chart_t *chart, const size_t *order, size_t rows,
                      const uint8_t *cells)
{
    for (size_t r = 0; r < rows; r++) {
        const lane_t *lane = &chart->lanes[order[r]];
        int y = TOP + (int)r * (LANE_H + LANE_GAP);
        char *label = ar_xasprintf("rank %lld \xc2\xb7 %s", (long long)lane->pid,
                                      lane->label ? lane->label : "?");
        fputs("<g class=\"lane\"><title>", out);
        ar_html_put(out, label);
        fprintf(out, ": %zu dispatch(es)</title><rect x=\"%d\" y=\"%d\" width=\"%d\" "
                     "height=\"%d\" fill=\"#f2f2f2\"/>",
                lane->events, LABEL_W, y, AR_LANE_COLUMNS, LANE_H);
        fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - 6,
                y + LANE_H - 2);
        put_cut(out, label, 44);
        fputs("</text>", out);
        put_lane(out, cells + r * AR_LANE_COLUMNS, y);
        fputs("</g>\n", out);
        free(label);
    }
}

static void put_legend(FILE *out, const chart_t *chart, const size_t *top, size_t n)
{
    fputs("<div class=\"legend\">", out);
    for (size_t i = 0; i < n; i++) {
        char *name = decode(chart->names[top[i]].raw, chart->names[top[i]].len);
        fprintf(out, "<span class=\"key\"><i style=\"background:%s\"></i><code>", palette[i]);
        put_cut(out, name ? name : "?", 90);
        fputs("</code></span>", out);
        free(name);
    }
    if (chart->name_count > n)
        fprintf(out, "<span class=\"key\"><i style=\"background:%s\"></i>%zu other kernel(s)"
                     "</span>",
                OTHER_COLOUR, chart->name_count - n);
    fputs("</div>\n", out);
}

static char *render(const chart_t *chart)
{
    size_t *order = lane_order(chart);
    size_t rows = chart->lane_count < AR_LANE_MAX ? chart->lane_count : AR_LANE_MAX;
    size_t *row_of = ar_xcalloc(chart->lane_count + 1, sizeof *row_of);
    for (size_t i = 0; i < chart->lane_count; i++)
        row_of[order[i]] = i;
    uint8_t *colour = ar_xcalloc(chart->name_count + 1, 1);
    size_t top[AR_LANE_COLOURS];
    size_t ntop = colour_names(chart, colour, top);
    uint8_t *cells = bin(chart, row_of, rows, colour);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        abort();
    int height = TOP + (int)rows * (LANE_H + LANE_GAP) + 16;
    int width = LABEL_W + AR_LANE_COLUMNS + 8;
    /* Inline in HTML: no namespace attribute (the page names no URL). */
    fprintf(out, "<svg class=\"lanes\" "
                 "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" "
                 "font-size=\"10\" font-family=\"sans-serif\">\n",
            width, height, width, height);
    put_lanes(out, chart, order, rows, cells);
    fprintf(out, "<text x=\"%d\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\" "
                 "text-anchor=\"end\">%.3f ms</text></svg>\n",
            LABEL_W, height - 3, LABEL_W + AR_LANE_COLUMNS, height - 3, chart->end / 1000);
    if (chart->lane_count > rows)
        fprintf(out, "<p class=\"meta\">The first %zu of %zu lanes.</p>\n", rows,
                chart->lane_count);
    put_legend(out, chart, top, ntop);
    fclose(out);
    free(cells);
    free(colour);
    free(row_of);
    free(order);
    return text;
}

char *ar_lane_svg(const char *text, size_t len)
{
    chart_t chart = {0};
    const char *end = text + len;
    for (const char *p = text; p < end;) {
        const char *newline = memchr(p, '\n', (size_t)(end - p));
        const char *stop = newline ? newline : end;
        read_line(&chart, p, stop);
        p = stop + 1;
    }
    char *svg = chart.count ? render(&chart) : NULL;
    chart_clear(&chart);
    return svg;
}

char *ar_lane_svg_at(int dir_fd, const char *name)
{
    size_t len;
    char *text = ar_read_file_at(dir_fd, name, AR_LANE_MAX_BYTES, &len);
    if (!text)
        return NULL;
    char *svg = ar_lane_svg(text, len);
    free(text);
    return svg;
}
