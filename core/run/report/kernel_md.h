/* SPDX-License-Identifier: MIT */
/* kernel_md.h - perf.md's kernel section, added after everything perf.md
 * already holds (those lines stay byte for byte as they were). */
#ifndef AR_KERNEL_MD_H
#define AR_KERNEL_MD_H

#include "kernels/kernel_agg.h"
#include "kernels/kernel_names.h"

/* Kernels shown per cell and collector; the rest add up to "other". */
#define AR_KERNEL_MD_TOP 10

/* The section, or "" when no cell has a kernel table.  Free it. */
char *ar_kernel_md(const ar_kagg_run_t *run);

/* Its parts, for cells rendered in parallel: the heading and paragraph
 * that open it (before the first cell with a table), and one cell's tables
 * ("" without any) against the baseline cell (NULL: none), the names'
 * forms cached in names.  Free them. */
char *ar_kernel_md_intro(const char *baseline);
char *ar_kernel_md_cell(const ar_kagg_cell_t *cell, const ar_kagg_cell_t *baseline,
                           ar_kernel_names_t *names);

#endif
