/* SPDX-License-Identifier: MIT */
/* report_html.h - report.html: the run as one self-contained page (no
 * script, no network, no external font): GPU time per cell as stacked CSS
 * bars, a per-kernel comparison across cells, the step timing. */
#ifndef AR_REPORT_HTML_H
#define AR_REPORT_HTML_H

#include "sys/json.h"
#include "kernels/kernel_agg.h"

/* Kernels that get their own colour in the bars; the rest stack as "other". */
#define AR_REPORT_STACKED 8
/* Kernels and cells in the comparison table (all are in <cell>/kernels.json). */
#define AR_REPORT_ROWS 40
#define AR_REPORT_COLUMNS 24

/* The page for matrix (matrix.json's object) and run's kernel tables.  Free it. */
char *ar_report_html(const ar_json_t *matrix, const ar_kagg_run_t *run);

#endif
