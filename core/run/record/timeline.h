/* SPDX-License-Identifier: MIT */
/* timeline.h - a trial's merged timeline, trial_d0_m0_t<t>.timeline.json
 * (docs/multi-rank.md, Timeline): every kernel dispatch of every rank in
 * the Chrome trace-event format, which Perfetto and chrome://tracing open. */
#ifndef AR_TIMELINE_H
#define AR_TIMELINE_H

#include <stddef.h>

#include "aorta/collector.h"

/* One collector's dispatches of one rank. */
typedef struct ar_timeline_source {
    long rank;                             /* the process (pid) it is drawn as */
    const char *collector;                 /* its tracks are "<collector>: <track>" */
    const aorta_dispatches_t *dispatches;  /* borrowed; NULL or empty: nothing */
} ar_timeline_source_t;

/* The file's name for a trial JSON's ("....json" -> "....timeline.json"). */
char *ar_timeline_path(const char *trial_json_path);

/* Whether the sources hold a dispatch at all. */
int ar_timeline_has_dispatches(const ar_timeline_source_t *sources, size_t count);

/* The trace as one JSON object: {"traceEvents": [...], "displayTimeUnit":
 * "ns", "otherData": {...}}.  Per rank (pid = rank): the metadata events
 * process_name ("rank <k>"), process_sort_index and a thread_name per
 * track (tid 1, 2, ... in the order first seen); then one complete event
 * ("ph": "X", "cat": "kernel") per dispatch with its name, ts and dur in µs
 * to the ns.  Events ordered by pid, then ts.  Time 0 is the earliest
 * dispatch of all when one_node and every source's clock is
 * AORTA_CLOCK_HOST; otherwise each rank's own first dispatch (each
 * source's, for one of another clock).  otherData says which.  Malloc'd,
 * its length in *len. */
char *ar_timeline_text(const ar_timeline_source_t *sources, size_t count, int one_node,
                          size_t *len);

/* That text as name below dir_fd, whole or not at all, never through a
 * symlink: 0, or -1 with errno set. */
int ar_timeline_write_at(int dir_fd, const char *name, const ar_timeline_source_t *sources,
                            size_t count, int one_node);

#endif
