/* SPDX-License-Identifier: MIT */
/* rank_md.h - perf.md's rank view of one cell and collector
 * (docs/multi-rank.md, The rank view). */
#ifndef AR_RANK_MD_H
#define AR_RANK_MD_H

#include <stdio.h>

#include "kernels/kernel_agg.h"
#include "kernels/kernel_names.h"

/* Kernels perf.md lists by their share of the imbalance. */
#define AR_RANK_MD_TOP 10

/* The "#### Ranks of <cell> - <collector>" part for table, a job's table
 * with two or more ranks; nothing otherwise. */
void ar_rank_md(FILE *out, const ar_kagg_cell_t *cell, const ar_kagg_table_t *table,
                   ar_kernel_names_t *names);

#endif
