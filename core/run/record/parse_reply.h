/* SPDX-License-Identifier: MIT */
/* parse_reply.h - the parse child's reply: the collector's metrics and, when
 * it attached one (aorta_metrics_set_kernels()), its whole kernel table. */
#ifndef AR_PARSE_REPLY_H
#define AR_PARSE_REPLY_H

#include "aorta/collector.h"
#include "sys/json.h"

/* {"metrics": {...}, "kernels": [[name, total_ms, launches or null], ...]};
 * "kernels" only when a table is attached, in its first-seen order. */
ar_json_t *ar_parse_reply_to_json(const aorta_metrics_t *metrics);

/* The metrics of reply into metrics (ar_metrics_from_json()'s rules),
 * and its table attached to it.  0, or -1 at the first member that is not
 * what the reply must hold. */
int ar_parse_reply_from_json(aorta_metrics_t *metrics, const ar_json_t *reply);

/* The reply as the child sends it, so that neither side holds the table as
 * a tree: a head line {"metrics": {...}, "rows": N} ("rows" only when a
 * table is attached), then N lines of one row each, [name, total_ms,
 * launches or null]; every line compact JSON ended by '\n'.  When the
 * reply would pass limit bytes (0: no limit), the rows that do not fit are
 * cut, never the metrics, and the head says how many there were
 * ("rows_total").  Then, when a trace is attached
 * (aorta_metrics_set_dispatches()), its lines (record/dispatch_lines.h),
 * which the head counts ("dispatches", "dispatch_tracks", "dispatch_names",
 * "dispatch_clock": "host" or "session"): they are cut before any row is,
 * and then the head says how many there were ("dispatches_total").
 * Malloc'd, its length in *len. */
char *ar_parse_reply_text(const aorta_metrics_t *metrics, size_t limit, size_t *len);

/* Of such a reply: the rows the child had when it cut its table (then
 * *kept is how many it sent), else 0. */
int64_t ar_parse_reply_rows_cut(const char *text, size_t len, int64_t *kept);

/* Of such a reply: the dispatches the child had when it cut them (then
 * *kept is how many it sent), else 0. */
int64_t ar_parse_reply_dispatches_cut(const char *text, size_t len, int64_t *kept);

/* That text into metrics, as ar_parse_reply_from_json() reads the tree:
 * 0, or -1 when it is not such a reply (a row short or too many, a line
 * cut, a member that is not what it must be). */
int ar_parse_reply_read(aorta_metrics_t *metrics, const char *text, size_t len);

#endif
