/* SPDX-License-Identifier: MIT */
/* dispatches.c - the per-dispatch trace a collector fills for the trial's
 * timeline: each dispatch as four numbers (track, name, start, end), the
 * names and tracks kept once each, so a trace of millions of launches of a
 * few hundred kernels costs 24 bytes a launch.  Names are interned through
 * an open-addressing table; tracks are mostly few, but a capture may give
 * each dispatch its own (500,000 of them), so they are found through an
 * index after a check of the last one used. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "keyindex.h"
#include "sdk.h"
#include "xalloc.h"

#define INITIAL_SLOTS 64

typedef struct dispatch {
    uint32_t track, name;
    uint64_t start, end;
} dispatch_t;

typedef struct name {
    char *bytes;        /* len bytes and a NUL (may hold NULs too) */
    size_t len;
    uint64_t hash;
} name_t;

struct aorta_dispatches {
    int clock;
    dispatch_t *items;
    size_t count, capacity, dropped;
    name_t *names;
    size_t name_count, name_capacity;
    uint32_t *slots;    /* name index + 1; 0 = empty */
    size_t slot_count;  /* a power of two, or 0 before the first name */
    char **tracks;
    size_t track_count, track_capacity, last_track;
    ar_keyindex_t track_index; /* tracks to their positions */
};

aorta_dispatches_t *aorta_dispatches_new(void)
{
    aorta_dispatches_t *d = ar_xcalloc(1, sizeof *d);
    d->clock = AORTA_CLOCK_SESSION;
    return d;
}

void aorta_dispatches_free(aorta_dispatches_t *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->name_count; i++)
        free(d->names[i].bytes);
    for (size_t i = 0; i < d->track_count; i++)
        free(d->tracks[i]);
    free(d->names);
    ar_keyindex_clear(&d->track_index);
    free(d->tracks);
    free(d->slots);
    free(d->items);
    free(d);
}

static void place(aorta_dispatches_t *d, size_t index)
{
    size_t mask = d->slot_count - 1;
    size_t slot = (size_t)d->names[index].hash & mask;
    while (d->slots[slot])
        slot = (slot + 1) & mask;
    d->slots[slot] = (uint32_t)(index + 1);
}

static size_t intern_name(aorta_dispatches_t *d, const char *bytes, size_t len)
{
    uint64_t hash = aorta_sdk_name_hash(bytes, len);
    if (d->slot_count) {
        size_t mask = d->slot_count - 1;
        for (size_t slot = (size_t)hash & mask; d->slots[slot]; slot = (slot + 1) & mask) {
            const name_t *name = &d->names[d->slots[slot] - 1];
            if (name->hash == hash && name->len == len && memcmp(name->bytes, bytes, len) == 0)
                return d->slots[slot] - 1;
        }
    }
    if (d->name_count == d->name_capacity)
        ar_xgrow((void **)&d->names, &d->name_capacity, d->name_count + 1, sizeof *d->names);
    char *copy = ar_xmalloc(len + 1);
    if (len)
        memcpy(copy, bytes, len);
    copy[len] = '\0';
    d->names[d->name_count++] = (name_t){copy, len, hash};
    if (d->name_count * 2 > d->slot_count) {
        free(d->slots);
        d->slot_count = d->slot_count ? d->slot_count * 2 : INITIAL_SLOTS;
        d->slots = ar_xcalloc(d->slot_count, sizeof *d->slots);
        for (size_t i = 0; i < d->name_count; i++)
            place(d, i);
    } else {
        place(d, d->name_count - 1);
    }
    return d->name_count - 1;
}

static size_t intern_track(aorta_dispatches_t *d, const char *track)
{
    if (d->track_count && strcmp(d->tracks[d->last_track], track) == 0)
        return d->last_track;
    size_t found = ar_keyindex_find(&d->track_index, track);
    if (found != AR_KEYINDEX_NONE)
        return d->last_track = found;
    if (d->track_count == d->track_capacity)
        ar_xgrow((void **)&d->tracks, &d->track_capacity, d->track_count + 1,
                    sizeof *d->tracks);
    d->tracks[d->track_count] = ar_xstrdup(track);
    ar_keyindex_add(&d->track_index, d->tracks[d->track_count], d->track_count);
    return d->last_track = d->track_count++;
}

int aorta_dispatches_add(aorta_dispatches_t *d, const char *track, const char *name,
                         size_t name_len, uint64_t start_ns, uint64_t end_ns)
{
    if (!d || !track || (!name && name_len) || end_ns < start_ns) {
        errno = EINVAL;
        return -1;
    }
    if (d->count >= AORTA_DISPATCHES_MAX) {
        if (d->dropped++ == 0)
            aorta_warn("libaorta", "more than %u kernel dispatches: the timeline keeps the "
                       "first %u and drops the rest", AORTA_DISPATCHES_MAX, AORTA_DISPATCHES_MAX);
        return 0;
    }
    if (d->count == d->capacity)
        ar_xgrow((void **)&d->items, &d->capacity, d->count + 1, sizeof *d->items);
    size_t t = intern_track(d, track);
    size_t n = intern_name(d, name ? name : "", name_len);
    d->items[d->count++] = (dispatch_t){(uint32_t)t, (uint32_t)n, start_ns, end_ns};
    return 0;
}

int aorta_dispatches_set_clock(aorta_dispatches_t *d, int clock)
{
    if (!d || (clock != AORTA_CLOCK_HOST && clock != AORTA_CLOCK_SESSION)) {
        errno = EINVAL;
        return -1;
    }
    d->clock = clock;
    return 0;
}

int aorta_dispatches_clock(const aorta_dispatches_t *d)
{
    return d ? d->clock : 0;
}

size_t aorta_dispatches_count(const aorta_dispatches_t *d)
{
    return d ? d->count : 0;
}

size_t aorta_dispatches_dropped(const aorta_dispatches_t *d)
{
    return d ? d->dropped : 0;
}

size_t aorta_dispatches_track_count(const aorta_dispatches_t *d)
{
    return d ? d->track_count : 0;
}

const char *aorta_dispatches_track_name(const aorta_dispatches_t *d, size_t track)
{
    return d && track < d->track_count ? d->tracks[track] : NULL;
}

size_t aorta_dispatches_name_count(const aorta_dispatches_t *d)
{
    return d ? d->name_count : 0;
}

const char *aorta_dispatches_name(const aorta_dispatches_t *d, size_t name, size_t *len)
{
    if (!d || name >= d->name_count) {
        if (len)
            *len = 0;
        return NULL;
    }
    if (len)
        *len = d->names[name].len;
    return d->names[name].bytes;
}

size_t aorta_dispatches_track_at(const aorta_dispatches_t *d, size_t index)
{
    return d && index < d->count ? d->items[index].track : (size_t)-1;
}

size_t aorta_dispatches_name_at(const aorta_dispatches_t *d, size_t index)
{
    return d && index < d->count ? d->items[index].name : (size_t)-1;
}

uint64_t aorta_dispatches_start_at(const aorta_dispatches_t *d, size_t index)
{
    return d && index < d->count ? d->items[index].start : 0;
}

uint64_t aorta_dispatches_end_at(const aorta_dispatches_t *d, size_t index)
{
    return d && index < d->count ? d->items[index].end : 0;
}

/* A deep copy: the same names, tracks and dispatches in the same order. */
static aorta_dispatches_t *copy_of(const aorta_dispatches_t *d)
{
    aorta_dispatches_t *copy = aorta_dispatches_new();
    copy->clock = d->clock;
    copy->dropped = d->dropped;
    for (size_t i = 0; i < d->track_count; i++)
        intern_track(copy, d->tracks[i]);
    for (size_t i = 0; i < d->name_count; i++)
        intern_name(copy, d->names[i].bytes, d->names[i].len);
    if (d->count) {
        copy->items = ar_xmalloc(d->count * sizeof *d->items);
        memcpy(copy->items, d->items, d->count * sizeof *d->items);
    }
    copy->count = copy->capacity = d->count;
    return copy;
}

int aorta_metrics_set_dispatches(aorta_metrics_t *metrics, const aorta_dispatches_t *dispatches)
{
    if (!metrics || !dispatches) {
        errno = EINVAL;
        return -1;
    }
    aorta_dispatches_t *copy = copy_of(dispatches);
    aorta_dispatches_free(metrics->dispatches);
    metrics->dispatches = copy;
    return 0;
}

const aorta_dispatches_t *aorta_metrics_dispatches(const aorta_metrics_t *metrics)
{
    return metrics ? metrics->dispatches : NULL;
}
