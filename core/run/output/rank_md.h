/* SPDX-License-Identifier: MIT */
/* rank_md.h - perf.md's rank view of one cell and collector
 * (docs/multi-rank.md, The rank view). */
#ifndef AORTA_RANK_MD_H
#define AORTA_RANK_MD_H

#include <stdio.h>

#include "output/kernel_agg.h"
#include "output/kernel_names.h"

/* Kernels perf.md lists by their share of the imbalance. */
#define AORTA_RANK_MD_TOP 10

/* The "#### Ranks of <cell> - <collector>" part for table, a job's table
 * with two or more ranks; nothing otherwise. */
void aorta_rank_md(FILE *out, const aorta_kagg_cell_t *cell, const aorta_kagg_table_t *table,
                   aorta_kernel_names_t *names);

#endif
