/* SPDX-License-Identifier: MIT */
/* timeline_parts.c - a trial's timeline sources, gathered while its
 * collectors are parsed (sweep/trial.c): a multi-rank trial's come from its
 * per-rank parses (sweep/rank_parse.c), each rank its own process; a run
 * without ranks has the whole directory's parse as rank 0.  Each collector
 * keeps its own tracks. */
#include "config.h"

#include "sweep/timeline_parts.h"

#include <stdlib.h>
#include <unistd.h>

#include "xalloc.h"

static void add_source(ar_timeline_parts_t *parts, long rank, const char *collector,
                       const aorta_metrics_t *metrics)
{
    const aorta_dispatches_t *d = aorta_metrics_dispatches(metrics);
    if (!aorta_dispatches_count(d))
        return;
    if (parts->count == parts->cap)
        ar_xgrow((void **)&parts->sources, &parts->cap, parts->count + 1,
                    sizeof *parts->sources);
    parts->sources[parts->count++] = (ar_timeline_source_t){rank, collector, d};
}

void ar_timeline_parts_keep(ar_timeline_parts_t *parts, const char *collector,
                               aorta_metrics_t *metrics, ar_rank_set_t *ranks)
{
    if (ranks->count) {
        for (size_t r = 0; r < ranks->count; r++)
            add_source(parts, ranks->results[r].rank, collector, ranks->results[r].metrics);
        if (parts->set_count == parts->set_cap)
            ar_xgrow((void **)&parts->rank_sets, &parts->set_cap, parts->set_count + 1,
                        sizeof *parts->rank_sets);
        parts->rank_sets[parts->set_count++] = *ranks;
        *ranks = (ar_rank_set_t){0};
    } else {
        add_source(parts, 0, collector, metrics);
    }
    if (parts->parse_count == parts->parse_cap)
        ar_xgrow((void **)&parts->parses, &parts->parse_cap, parts->parse_count + 1,
                    sizeof *parts->parses);
    parts->parses[parts->parse_count++] = metrics;
}

int ar_timeline_parts_write_at(const ar_timeline_parts_t *parts, int dir_fd,
                                  const char *name, int one_node)
{
    if (parts && ar_timeline_has_dispatches(parts->sources, parts->count))
        return ar_timeline_write_at(dir_fd, name, parts->sources, parts->count, one_node);
    unlinkat(dir_fd, name, 0); /* as the kernel tables: what is not there is gone */
    return 0;
}

void ar_timeline_parts_free(ar_timeline_parts_t *parts)
{
    for (size_t i = 0; i < parts->parse_count; i++)
        aorta_metrics_free(parts->parses[i]);
    for (size_t i = 0; i < parts->set_count; i++)
        ar_rank_set_clear(&parts->rank_sets[i]);
    free(parts->parses);
    free(parts->rank_sets);
    free(parts->sources);
    *parts = (ar_timeline_parts_t){0};
}
