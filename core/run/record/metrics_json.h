/* SPDX-License-Identifier: MIT */
/* metrics_json.h - a metrics sink to and from JSON (the parse child's reply,
 * --parse's output, the trial JSON's metrics). */
#ifndef AR_METRICS_JSON_H
#define AR_METRICS_JSON_H

#include "aorta/collector.h"
#include "sys/json.h"

/* The longest text a metric string, a list item or a kernel name keeps in
 * a reply or a record: one name of megabytes (a hostile or broken capture)
 * would otherwise take the whole 16 MiB parse reply, and every metric of
 * the trial with it. */
#define AR_METRIC_TEXT_MAX ((size_t)64 << 10)

/* text of len bytes cut to fit AR_METRIC_TEXT_MAX: its first bytes (at a
 * character boundary), "...#" and the first 16 hex digits of the whole
 * text's SHA-256, so that two long names that share their start stay two;
 * *out_len its length.  NULL (nothing to cut) when it fits. */
char *ar_metric_text_cut(const char *text, size_t len, size_t *out_len);

/* One JSON object: int -> integer, double -> float, string, string list;
 * every text cut as ar_metric_text_cut() cuts it. */
ar_json_t *ar_metrics_to_json(const aorta_metrics_t *metrics);

/* Add the members of obj to metrics.  Every member must be an integer, a
 * finite float, a string or a list of strings, under the sink's prefix;
 * returns 0, or -1 at the first member that is not (metrics then holds the
 * members before it). */
int ar_metrics_from_json(aorta_metrics_t *metrics, const ar_json_t *obj);

#endif
