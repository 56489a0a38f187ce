/* SPDX-License-Identifier: MIT */
/* rank_html.h - report.html's rank view (docs/multi-rank.md, The rank
 * view). */
#ifndef AORTA_RANK_HTML_H
#define AORTA_RANK_HTML_H

#include <stdio.h>

#include "output/kernel_agg.h"
#include "output/kernel_names.h"

/* Kernels in the heat table's columns and in the list of mismatches. */
#define AORTA_RANK_HTML_KERNELS 8

/* The "Ranks: <collector>" section: for each cell of run whose collector
 * table has two or more ranks, its ranks' bars, the heat table and the
 * launch mismatches; nothing when no cell has ranks. */
void aorta_rank_html(FILE *out, const aorta_kagg_run_t *run, const char *collector,
                     aorta_kernel_names_t *names);

#endif
