/* SPDX-License-Identifier: MIT */
/* metrics_json.h - a metrics sink to and from JSON (the parse child's reply,
 * --parse's output, the trial JSON's metrics). */
#ifndef AR_METRICS_JSON_H
#define AR_METRICS_JSON_H

#include "aorta/collector.h"
#include "sys/json.h"

/* One JSON object: int -> integer, double -> float, string, string list. */
ar_json_t *ar_metrics_to_json(const aorta_metrics_t *metrics);

/* Add the members of obj to metrics.  Every member must be an integer, a
 * finite float, a string or a list of strings, under the sink's prefix;
 * returns 0, or -1 at the first member that is not (metrics then holds the
 * members before it). */
int ar_metrics_from_json(aorta_metrics_t *metrics, const ar_json_t *obj);

#endif
