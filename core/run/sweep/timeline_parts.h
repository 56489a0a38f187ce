/* SPDX-License-Identifier: MIT */
/* timeline_parts.h - what a trial's timeline is drawn from (docs/multi-rank.md,
 * Timeline): each collector's dispatches, per rank, and the parses that hold
 * them, kept from the collectors' parses until the file is written. */
#ifndef AORTA_TIMELINE_PARTS_H
#define AORTA_TIMELINE_PARTS_H

#include <stddef.h>

#include "aorta/collector.h"
#include "output/timeline.h"
#include "sweep/rank_parse.h"

typedef struct aorta_timeline_parts {
    aorta_timeline_source_t *sources;
    size_t count, cap;
    aorta_metrics_t **parses;        /* owned: the sources borrow from them */
    aorta_rank_set_t *rank_sets;     /* owned */
    size_t parse_count, parse_cap, set_count, set_cap;
} aorta_timeline_parts_t;

/* Take collector's whole parse (metrics) and its ranks' (ranks, emptied):
 * the ranks' dispatches when there are ranks, else the whole parse's as
 * rank 0. */
void aorta_timeline_parts_keep(aorta_timeline_parts_t *parts, const char *collector,
                               aorta_metrics_t *metrics, aorta_rank_set_t *ranks);

/* The timeline as name below dir_fd when parts (may be NULL) hold a
 * dispatch (aorta_timeline_write_at(), one_node as it says); else remove a
 * file of that name an earlier attempt left.  0, or -1 with errno set. */
int aorta_timeline_parts_write_at(const aorta_timeline_parts_t *parts, int dir_fd,
                                  const char *name, int one_node);

/* Free what parts took; it is empty after. */
void aorta_timeline_parts_free(aorta_timeline_parts_t *parts);

#endif
