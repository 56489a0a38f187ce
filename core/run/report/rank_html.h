/* SPDX-License-Identifier: MIT */
/* rank_html.h - report.html's rank view (docs/multi-rank.md, The rank
 * view). */
#ifndef AR_RANK_HTML_H
#define AR_RANK_HTML_H

#include <stdio.h>

#include "kernels/kernel_agg.h"
#include "kernels/kernel_names.h"

/* Kernels in the heat table's columns and in the list of mismatches. */
#define AR_RANK_HTML_KERNELS 8

/* The "Ranks: <collector>" section: for each cell of run whose collector
 * table has two or more ranks, its ranks' bars, the heat table and the
 * launch mismatches; nothing when no cell has ranks. */
void ar_rank_html(FILE *out, const ar_kagg_run_t *run, const char *collector,
                     ar_kernel_names_t *names);

#endif
