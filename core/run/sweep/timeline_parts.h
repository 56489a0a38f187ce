/* SPDX-License-Identifier: MIT */
/* timeline_parts.h - what a trial's timeline is drawn from (docs/multi-rank.md,
 * Timeline): each collector's dispatches, per rank, and the parses that hold
 * them, kept from the collectors' parses until the file is written. */
#ifndef AR_TIMELINE_PARTS_H
#define AR_TIMELINE_PARTS_H

#include <stddef.h>

#include "aorta/collector.h"
#include "record/timeline.h"
#include "sweep/rank_parse.h"

typedef struct ar_timeline_parts {
    ar_timeline_source_t *sources;
    size_t count, cap;
    aorta_metrics_t **parses;        /* owned: the sources borrow from them */
    ar_rank_set_t *rank_sets;     /* owned */
    size_t parse_count, parse_cap, set_count, set_cap;
} ar_timeline_parts_t;

/* Take collector's whole parse (metrics) and its ranks' (ranks, emptied):
 * the ranks' dispatches when there are ranks, else the whole parse's as
 * rank 0. */
void ar_timeline_parts_keep(ar_timeline_parts_t *parts, const char *collector,
                               aorta_metrics_t *metrics, ar_rank_set_t *ranks);

/* The timeline as name below dir_fd when parts (may be NULL) hold a
 * dispatch (ar_timeline_write_at(), one_node as it says); else remove a
 * file of that name an earlier attempt left.  0, or -1 with errno set. */
int ar_timeline_parts_write_at(const ar_timeline_parts_t *parts, int dir_fd,
                                  const char *name, int one_node);

/* Free what parts took; it is empty after. */
void ar_timeline_parts_free(ar_timeline_parts_t *parts);

#endif
