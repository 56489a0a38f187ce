/* SPDX-License-Identifier: MIT */
/* capture_gaps.h - a sweep's cells whose collector captured nothing while
 * other cells' captured kernels: a broken export, a tool upgrade, an
 * application that exits before its profiler flushes.  Such a cell's GPU
 * time is no data, never zero; the sweep says so once per cell and
 * collector, in its summary and in perf.md. */
#ifndef AR_CAPTURE_GAPS_H
#define AR_CAPTURE_GAPS_H

#include "sys/json.h"

/* One line per gap ("cell small-none: rocprof captured nothing in any of
 * its 3 passing trials, while other cells captured kernels"), from
 * matrix.json's cells (metrics_summary's "<c>_gpu_time_ms"); an empty
 * array when there is none. */
ar_json_t *ar_capture_gaps(const ar_json_t *matrix);

/* Each of them as a warning line on stderr. */
void ar_capture_gaps_warn(const ar_json_t *matrix);

#endif
