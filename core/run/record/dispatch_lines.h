/* SPDX-License-Identifier: MIT */
/* dispatch_lines.h - a parse's dispatches as the lines of its reply
 * (record/parse_reply.c): its tracks, its names, then one line a dispatch,
 * so that neither side holds them as a JSON tree. */
#ifndef AR_DISPATCH_LINES_H
#define AR_DISPATCH_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "aorta/collector.h"

typedef struct ar_dispatch_lines {
    char *data;          /* the lines, malloc'd (NULL when none) */
    size_t len;
    int64_t tracks, names;
    int64_t kept, total; /* dispatches sent, and there were */
} ar_dispatch_lines_t;

/* The lines of dispatches: each track and each name as a JSON string, a
 * line each, then a line [track, name, start_ns, end_ns] per dispatch, in
 * their order, while all of it fits in budget bytes (0: no limit); past it
 * the later dispatches are cut (when even the names do not fit, every
 * dispatch is). */
void ar_dispatch_lines_make(const aorta_dispatches_t *dispatches, size_t budget,
                               ar_dispatch_lines_t *out);

/* Those lines read back from text at *at (moved past them): the dispatches
 * of clock clock, or NULL when a line is not what it must be (a line cut, a
 * number out of range, a track or name unknown). */
aorta_dispatches_t *ar_dispatch_lines_read(const char *text, size_t len, size_t *at,
                                              int64_t tracks, int64_t names, int64_t count,
                                              int clock);

#endif
