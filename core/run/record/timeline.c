/* SPDX-License-Identifier: MIT */
/* timeline.c - a trial's dispatches as a Chrome trace (the JSON object
 * format of the Trace Event Format).  Written as text straight into one
 * buffer, never as a tree: 64 ranks of 10,000 dispatches are 640,000
 * events (docs/design.md, Budgets).  Each distinct name is escaped once
 * (json-c's escaping, U+FFFD for bytes that are not UTF-8, as every name
 * aorta-run writes), numbers are formatted by hand, and each rank's events
 * are sorted by their start. */
#include "config.h"

#include "record/timeline.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/files.h"
#include "sys/json.h"
#include "xalloc.h"

/* Text, written out a megabyte at a time when fd is open (the file of 64
 * ranks x 10,000 dispatches is about 100 MB), else kept whole. */
typedef struct buf {
    char *data;
    size_t len, cap;
    int fd, failed;
    size_t events;   /* written so far: each after the first follows ",\n" */
} buf_t;

#define FLUSH_AT (1u << 20)

static void flush(buf_t *b)
{
    if (b->fd >= 0 && b->len && !b->failed)
        b->failed = ar_write_all(b->fd, b->data, b->len) != 0;
    if (b->fd >= 0)
        b->len = 0;
}

static inline void reserve(buf_t *b, size_t more)
{
    if (b->len + more + 1 > b->cap)
        ar_xgrow((void **)&b->data, &b->cap, b->len + more + 1, 1);
}

static inline void put(buf_t *b, const char *text, size_t len)
{
    reserve(b, len);
    memcpy(b->data + b->len, text, len);
    b->len += len;
}

#define PUT(b, literal) put((b), literal, sizeof literal - 1)

/* Digits of v; room reserved by the caller. */
static inline void put_u64(buf_t *b, uint64_t v)
{
    char tmp[20];
    char *at = tmp + sizeof tmp;
    do {
        *--at = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    memcpy(b->data + b->len, at, (size_t)(tmp + sizeof tmp - at));
    b->len += (size_t)(tmp + sizeof tmp - at);
}

/* ns as µs with three decimals: exact, no floating point. */
static inline void put_us(buf_t *b, uint64_t ns)
{
    put_u64(b, ns / 1000);
    unsigned frac = (unsigned)(ns % 1000);
    char *at = b->data + b->len;
    at[0] = '.';
    at[1] = (char)('0' + frac / 100);
    at[2] = (char)('0' + frac / 10 % 10);
    at[3] = (char)('0' + frac % 10);
    b->len += 4;
}

/* text as a JSON string (quotes included). */
static void put_string(buf_t *b, const char *text)
{
    ar_json_t *value = ar_json_string(text);
    char *json = ar_json_dump(value, 0);
    put(b, json, strlen(json));
    free(json);
    ar_json_free(value);
}

char *ar_timeline_path(const char *trial_json_path)
{
    size_t len = strlen(trial_json_path);
    if (len >= 5 && strcmp(trial_json_path + len - 5, ".json") == 0)
        len -= 5;
    return ar_xasprintf("%.*s.timeline.json", (int)len, trial_json_path);
}

int ar_timeline_has_dispatches(const ar_timeline_source_t *sources, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (aorta_dispatches_count(sources[i].dispatches) > 0)
            return 1;
    return 0;
}

typedef struct event {
    uint64_t ts, dur;
    uint32_t tid, name;
} event_t;

static int by_start(const void *left, const void *right)
{
    const event_t *a = left, *b = right;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    return (a->name > b->name) - (a->name < b->name);
}

/* The sources in rank order (stable): indices into sources. */
static size_t *rank_order(const ar_timeline_source_t *sources, size_t count)
{
    size_t *order = ar_xcalloc(count ? count : 1, sizeof *order);
    for (size_t i = 0; i < count; i++) {
        size_t at = i;
        for (; at > 0 && sources[order[at - 1]].rank > sources[i].rank; at--)
            order[at] = order[at - 1];
        order[at] = i;
    }
    return order;
}

static uint64_t first_start(const aorta_dispatches_t *d)
{
    uint64_t first = UINT64_MAX;
    for (size_t i = 0; i < aorta_dispatches_count(d); i++) {
        uint64_t start = aorta_dispatches_start_at(d, i);
        if (start < first)
            first = start;
    }
    return first;
}

/* How the sources are aligned: one clock for all, or each rank's own. */
typedef struct align {
    int shared;
    uint64_t *base; /* per source: its time 0 */
} align_t;

static void align_sources(const ar_timeline_source_t *sources, size_t count, int one_node,
                          align_t *align)
{
    uint64_t *first = ar_xcalloc(count ? count : 1, sizeof *first);
    uint64_t all = UINT64_MAX;
    int host = 1;
    for (size_t i = 0; i < count; i++) {
        first[i] = first_start(sources[i].dispatches);
        if (first[i] < all)
            all = first[i];
        if (first[i] != UINT64_MAX && aorta_dispatches_clock(sources[i].dispatches)
                                          != AORTA_CLOCK_HOST)
            host = 0;
    }
    align->shared = one_node && host;
    align->base = ar_xcalloc(count ? count : 1, sizeof *align->base);
    for (size_t i = 0; i < count; i++) {
        uint64_t base = align->shared ? all : first[i];
        /* A rank's sources of the host clock share the rank's first. */
        for (size_t j = 0; !align->shared && j < count; j++)
            if (sources[j].rank == sources[i].rank && first[j] < base
                && aorta_dispatches_clock(sources[i].dispatches) == AORTA_CLOCK_HOST
                && aorta_dispatches_clock(sources[j].dispatches) == AORTA_CLOCK_HOST)
                base = first[j];
        align->base[i] = base;
    }
    free(first);
}

/* Each distinct name of every source escaped once, end to end in text. */
typedef struct names {
    buf_t text;
    size_t *offset, *length; /* per escaped name */
    size_t count, cap;
    uint32_t **of_source;    /* per source: its name index -> escaped name */
} names_t;

static void escape_names(names_t *names, const ar_timeline_source_t *sources, size_t count)
{
    names->of_source = ar_xcalloc(count ? count : 1, sizeof *names->of_source);
    for (size_t s = 0; s < count; s++) {
        const aorta_dispatches_t *d = sources[s].dispatches;
        size_t n = aorta_dispatches_name_count(d);
        names->of_source[s] = ar_xcalloc(n ? n : 1, sizeof **names->of_source);
        for (size_t k = 0; k < n; k++) {
            if (names->count == names->cap) {
                size_t cap = names->cap;
                ar_xgrow((void **)&names->offset, &cap, names->count + 1,
                            sizeof *names->offset);
                ar_xgrow((void **)&names->length, &names->cap, names->count + 1,
                            sizeof *names->length);
            }
            size_t before = names->text.len;
            put_string(&names->text, aorta_dispatches_name(d, k, NULL));
            names->offset[names->count] = before;
            names->length[names->count] = names->text.len - before;
            names->of_source[s][k] = (uint32_t)names->count++;
        }
    }
}

static void names_free(names_t *names, size_t count)
{
    for (size_t s = 0; s < count; s++)
        free(names->of_source[s]);
    free(names->of_source);
    free(names->offset);
    free(names->length);
    free(names->text.data);
}

/* The separator before every event but the first. */
static inline void next_event(buf_t *b)
{
    if (b->events++)
        PUT(b, ",\n");
}

static void put_meta(buf_t *b, const char *what, long pid, uint32_t tid, const char *arg_key)
{
    next_event(b);
    PUT(b, "{\"name\":\"");
    put(b, what, strlen(what));
    PUT(b, "\",\"ph\":\"M\",\"pid\":");
    reserve(b, 48);
    put_u64(b, (uint64_t)pid);
    PUT(b, ",\"tid\":");
    reserve(b, 24);
    put_u64(b, tid);
    PUT(b, ",\"args\":{\"");
    put(b, arg_key, strlen(arg_key));
    PUT(b, "\":");
}

/* The tracks of sources[order[from..to)] (one rank) numbered 1, 2, ...:
 * their thread_name events, and per source its track index -> tid. */
static uint32_t **number_tracks(buf_t *b, const ar_timeline_source_t *sources,
                                const size_t *order, size_t from, size_t to, long pid)
{
    uint32_t **tids = ar_xcalloc(to - from, sizeof *tids);
    uint32_t next = 1;
    for (size_t s = from; s < to; s++) {
        const ar_timeline_source_t *src = &sources[order[s]];
        size_t n = aorta_dispatches_track_count(src->dispatches);
        tids[s - from] = ar_xcalloc(n ? n : 1, sizeof **tids);
        for (size_t t = 0; t < n; t++) {
            tids[s - from][t] = next;
            char *label = ar_xasprintf("%s: %s", src->collector ? src->collector : "?",
                                          aorta_dispatches_track_name(src->dispatches, t));
            put_meta(b, "thread_name", pid, next++, "name");
            put_string(b, label);
            PUT(b, "}}");
            free(label);
        }
    }
    return tids;
}

/* One rank: its metadata, then its dispatches sorted by start. */
static void write_rank(buf_t *b, const ar_timeline_source_t *sources, const size_t *order,
                       size_t from, size_t to, const align_t *align, const names_t *names)
{
    long pid = sources[order[from]].rank;
    char *label = ar_xasprintf("rank %ld", pid);
    put_meta(b, "process_name", pid, 0, "name");
    put_string(b, label);
    PUT(b, "}}");
    free(label);
    put_meta(b, "process_sort_index", pid, 0, "sort_index");
    reserve(b, 24);
    put_u64(b, (uint64_t)pid);
    PUT(b, "}}");
    uint32_t **tids = number_tracks(b, sources, order, from, to, pid);
    size_t total = 0;
    for (size_t s = from; s < to; s++)
        total += aorta_dispatches_count(sources[order[s]].dispatches);
    event_t *events = ar_xcalloc(total ? total : 1, sizeof *events);
    size_t n = 0;
    for (size_t s = from; s < to; s++) {
        const aorta_dispatches_t *d = sources[order[s]].dispatches;
        uint64_t base = align->base[order[s]];
        for (size_t i = 0; i < aorta_dispatches_count(d); i++) {
            uint64_t start = aorta_dispatches_start_at(d, i);
            events[n++] = (event_t){start - base, aorta_dispatches_end_at(d, i) - start,
                                    tids[s - from][aorta_dispatches_track_at(d, i)],
                                    names->of_source[order[s]][aorta_dispatches_name_at(d, i)]};
        }
        free(tids[s - from]);
    }
    free(tids);
    qsort(events, n, sizeof *events, by_start);
    for (size_t i = 0; i < n; i++) {
        const event_t *e = &events[i];
        next_event(b);
        reserve(b, names->length[e->name] + 160);
        PUT(b, "{\"name\":");
        put(b, names->text.data + names->offset[e->name], names->length[e->name]);
        PUT(b, ",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":");
        put_u64(b, (uint64_t)pid);
        PUT(b, ",\"tid\":");
        put_u64(b, e->tid);
        PUT(b, ",\"ts\":");
        put_us(b, e->ts);
        PUT(b, ",\"dur\":");
        put_us(b, e->dur);
        PUT(b, "}");
        if (b->len >= FLUSH_AT)
            flush(b);
    }
    free(events);
}

static void put_other_data(buf_t *b, const align_t *align, size_t ranks, size_t dispatches)
{
    PUT(b, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"writer\":\"aorta-run\",\"alignment\":");
    if (align->shared)
        PUT(b, "\"common: time 0 is the first dispatch of all ranks (one node, host clock)\"");
    else
        PUT(b, "\"per rank: time 0 is each rank's first dispatch (no common clock)\"");
    PUT(b, ",\"ranks\":");
    reserve(b, 48);
    put_u64(b, ranks);
    PUT(b, ",\"dispatches\":");
    put_u64(b, dispatches);
    PUT(b, "}}\n");
}

/* The whole trace into b. */
static void write_trace(buf_t *b, const ar_timeline_source_t *sources, size_t count,
                        int one_node)
{
    /* Only sources with dispatches: a rank without any has no process. */
    ar_timeline_source_t *used = ar_xcalloc(count ? count : 1, sizeof *used);
    size_t n = 0, dispatches = 0, ranks = 0;
    for (size_t i = 0; i < count; i++)
        if (aorta_dispatches_count(sources[i].dispatches) > 0) {
            used[n++] = sources[i];
            dispatches += aorta_dispatches_count(sources[i].dispatches);
        }
    size_t *order = rank_order(used, n);
    align_t align;
    align_sources(used, n, one_node, &align);
    names_t names = {0};
    escape_names(&names, used, n);
    PUT(b, "{\"traceEvents\":[\n");
    for (size_t from = 0, to; from < n; from = to, ranks++) {
        for (to = from + 1; to < n && used[order[to]].rank == used[order[from]].rank; to++)
            ;
        write_rank(b, used, order, from, to, &align, &names);
    }
    put_other_data(b, &align, ranks, dispatches);
    b->data[b->len] = '\0';
    flush(b);
    names_free(&names, n);
    free(align.base);
    free(order);
    free(used);
}

char *ar_timeline_text(const ar_timeline_source_t *sources, size_t count, int one_node,
                          size_t *len)
{
    buf_t b = {.fd = -1};
    write_trace(&b, sources, count, one_node);
    *len = b.len;
    return b.data;
}

int ar_timeline_write_at(int dir_fd, const char *name, const ar_timeline_source_t *sources,
                            size_t count, int one_node)
{
    char *temporary;
    buf_t b = {.fd = ar_atomic_start_at(dir_fd, name, &temporary)};
    if (b.fd < 0)
        return -1;
    reserve(&b, 2 * FLUSH_AT);
    write_trace(&b, sources, count, one_node);
    int saved = errno;
    free(b.data);
    errno = saved;
    int status = ar_atomic_finish_at(dir_fd, b.fd, temporary, name, !b.failed);
    saved = errno;
    free(temporary);
    errno = saved;
    return status;
}
