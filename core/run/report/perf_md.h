/* SPDX-License-Identifier: MIT */
/* perf.md - the run's performance report (docs/design.md): pure
 * formatting of matrix.json's aggregates. */
#ifndef AR_PERF_MD_H
#define AR_PERF_MD_H

#include "sys/json.h"

/* The report for a matrix.json object, with the run's wall time in the
 * header: run_wall_sec when >= 0, else matrix.json's run_wall_clock_sec
 * when it has one.  baseline: the cell labelled the baseline throughout
 * (--report --baseline), NULL for matrix.json's baseline_cell.  Free it. */
char *ar_perf_md(const ar_json_t *matrix, double run_wall_sec, const char *baseline);

/* Python's format(value, ",.3f"): "12,345.678". Free it. */
char *ar_perf_thousands(double value);

/* The metric names any cell of cells has in its metrics_summary, distinct
 * and sorted, in *count (NULL when none); free each and the array. */
char **ar_perf_metric_names(const ar_json_t *cells, size_t *count);
/* A metrics-table mean (name's stats: {mean, min, max}): a count as an
 * integer with thousands separators, a measurement as ",.3f", an em dash
 * without a mean; the same text in perf.md and report.html.  Free it. */
char *ar_perf_metric_mean(const char *name, const ar_json_t *stats);

#endif
