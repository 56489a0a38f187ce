/* SPDX-License-Identifier: MIT */
/* trace_stream.c - the Chrome trace of `data: trace` (<name>.chrome_trace)
 * in one pass, through json_stream.c.
 *
 * Proton writes one JSON object per line: {"displayTimeUnit": "us",
 * "traceEvents": [...]}, one per GPU stream in Triton 3.6 and earlier, one
 * for the whole session (with lane metadata, CPU scopes and flow events
 * beside the kernels) later (docs/collectors/proton.md).  A kernel launch
 * is an event with "cat": "kernel" and "ph": "X"; its "name" is the
 * kernel's (the tree's leaf name: str(), stripped, the same rule) and its
 * "dur" the launch's duration in microseconds.  Each is one launch.  The
 * instrumentation backend's intra-kernel traces say "displayTimeUnit":
 * "ns" and name their categories after kernels: nothing in such an object
 * is a launch.  A member repeated takes the last value; a second
 * "traceEvents" or a late "displayTimeUnit": "ns" after launches were
 * counted is the one thing a single pass cannot undo: the file is then
 * refused (PROTON_READ_UNSURE), which Proton's writer never gives.
 *
 * For the trial's timeline each launch is also a dispatch: its "ts" (µs
 * from the session's start, Proton's own clock), its "dur", and its "tid"
 * (the GPU stream) as the track. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hatchet.h"
#include "json_stream.h"
#include "proton.h"

enum role {
    R_TRACE = PROTON_ROLE_DOCUMENT + 1, /* a top-level object */
    R_EVENTS,
    R_EVENT,
};

enum slot {
    S_EVENTS = 1,
    S_UNIT,
    S_NAME = 1,
    S_CAT,
    S_PH,
    S_DUR,
    S_TS,
    S_TID,
};

typedef struct trace {
    aorta_kernels_t *kernels;
    aorta_dispatches_t *dispatches; /* NULL: launches only */
    size_t counted;
    /* The top-level object being read. */
    int events_seen, committed, cycles;
    size_t mark;
    /* The event being read. */
    int kernel, complete, has_time, has_ts;
    double ms, ts_us;
    char track[80];
    char *name;
    size_t name_len, name_cap;
} trace_t;

static int same(const char *text, size_t len, const char *word)
{
    return len == strlen(word) && memcmp(text, word, len) == 0;
}

static int on_key(void *user, int role, const char *text, size_t len)
{
    (void)user;
    if (role == R_TRACE)
        return same(text, len, "traceEvents") ? S_EVENTS
             : same(text, len, "displayTimeUnit") ? S_UNIT : 0;
    if (role != R_EVENT)
        return 0;
    if (same(text, len, "name"))
        return S_NAME;
    if (same(text, len, "cat"))
        return S_CAT;
    if (same(text, len, "ph"))
        return S_PH;
    if (same(text, len, "ts"))
        return S_TS;
    if (same(text, len, "tid"))
        return S_TID;
    return same(text, len, "dur") ? S_DUR : 0;
}

static int on_open(void *user, int role, int slot, int object)
{
    trace_t *trace = user;
    switch (role) {
    case PROTON_ROLE_DOCUMENT:
        if (!object)
            return PROTON_ROLE_PLAIN;
        trace->events_seen = trace->committed = trace->cycles = 0;
        return R_TRACE;
    case R_TRACE:
        if (slot == S_UNIT) {
            trace->cycles = 0;
            return PROTON_ROLE_PLAIN;
        }
        if (trace->events_seen && trace->committed)
            return PROTON_STOP_UNSURE;
        trace->events_seen = 1;
        trace->committed = 0;
        trace->mark = trace->counted;
        return object ? PROTON_ROLE_PLAIN : R_EVENTS;
    case R_EVENTS:
        if (!object)
            return PROTON_ROLE_PLAIN;
        trace->kernel = trace->complete = trace->has_time = trace->has_ts = 0;
        trace->name_len = 0;
        strcpy(trace->track, "stream ?");
        return R_EVENT;
    case R_EVENT:
        if (slot == S_NAME)
            trace->name_len = 0; /* a list or an object names no kernel */
        else if (slot == S_CAT)
            trace->kernel = 0;
        else if (slot == S_PH)
            trace->complete = 0;
        else if (slot == S_TS)
            trace->has_ts = 0;
        else if (slot == S_TID)
            strcpy(trace->track, "stream ?");
        else
            trace->has_time = 0;
        return PROTON_ROLE_PLAIN;
    default:
        return PROTON_ROLE_PLAIN;
    }
}

static int set_name(trace_t *trace, const proton_value_t *value)
{
    char *owned;
    size_t len;
    const char *text = proton_value_name(value, &len, &owned);
    if (len + 1 > trace->name_cap) {
        size_t cap = len + 64;
        char *more = realloc(trace->name, cap);
        if (!more) {
            free(owned);
            return PROTON_STOP_NO_MEMORY;
        }
        trace->name = more;
        trace->name_cap = cap;
    }
    memcpy(trace->name, text, len);
    trace->name_len = len;
    free(owned);
    return 0;
}

/* "stream <tid>": tids are numbers; a string one is kept (cut, control
 * characters and all: the timeline escapes what it writes). */
static void set_track(trace_t *trace, const proton_value_t *value)
{
    if (value->kind == PROTON_INT)
        snprintf(trace->track, sizeof trace->track, "stream %" PRId64, value->i64);
    else if (value->kind == PROTON_STRING && !memchr(value->text, '\0', value->len))
        snprintf(trace->track, sizeof trace->track, "stream %.*s",
                 value->len > 64 ? 64 : (int)value->len, value->text);
    else
        strcpy(trace->track, "stream ?");
}

static int is_string(const proton_value_t *value, const char *word)
{
    return value->kind == PROTON_STRING && same(value->text, value->len, word);
}

static int on_scalar(void *user, int role, int slot, const proton_value_t *value)
{
    trace_t *trace = user;
    if (role == R_TRACE) {
        if (slot == S_UNIT) {
            trace->cycles = is_string(value, "ns");
            if (trace->cycles && trace->counted != trace->mark && trace->events_seen)
                return PROTON_STOP_UNSURE;
            return 0;
        }
        if (trace->events_seen && trace->committed)
            return PROTON_STOP_UNSURE;
        trace->events_seen = 1;
        trace->committed = 0;
        return 0;
    }
    if (role != R_EVENT)
        return 0;
    switch (slot) {
    case S_NAME:
        return set_name(trace, value);
    case S_CAT:
        trace->kernel = is_string(value, "kernel");
        return 0;
    case S_PH:
        trace->complete = is_string(value, "X");
        return 0;
    case S_TS:
        trace->has_ts = proton_value_double(value, &trace->ts_us) && isfinite(trace->ts_us)
                        && trace->ts_us >= 0 && trace->ts_us < 1.8e13; /* µs that fit in ns */
        return 0;
    case S_TID:
        set_track(trace, value);
        return 0;
    default:
        /* Microseconds, as Chrome traces' ts and dur always are. */
        trace->has_time = proton_value_time(value, 1e-3, &trace->ms);
        return 0;
    }
}

static int on_close(void *user, int role)
{
    trace_t *trace = user;
    if (role == R_EVENTS) {
        trace->committed = trace->counted != trace->mark;
        return 0;
    }
    if (role != R_EVENT || !trace->kernel || !trace->complete || !trace->has_time
        || trace->cycles)
        return 0;
    size_t len;
    const char *name = aorta_text_strip(trace->name ? trace->name : "", trace->name_len, &len);
    if (len == 0)
        return 0;
    aorta_kernels_add(trace->kernels, name, len, trace->ms, 1);
    trace->counted++;
    if (trace->dispatches && trace->has_ts) {
        /* ts and dur in µs to ns; the end from the rounded start and dur. */
        uint64_t start = (uint64_t)llround(trace->ts_us * 1e3);
        double dur = trace->ms * 1e6; /* ms back to ns */
        if (dur < 1.8e16)
            aorta_dispatches_add(trace->dispatches, trace->track, name, len, start,
                                 start + (uint64_t)llround(dur));
    }
    return 0;
}

proton_read_t proton_trace_stream(int fd, aorta_kernels_t *kernels,
                                  aorta_dispatches_t *dispatches, size_t block)
{
    trace_t trace = {.kernels = kernels, .dispatches = dispatches};
    proton_sink_t sink = {on_key, on_open, on_scalar, on_close, &trace};
    proton_read_t status = json_stream_profile(fd, &sink, block, 1);
    free(trace.name);
    return status;
}
