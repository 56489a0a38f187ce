/* SPDX-License-Identifier: MIT */
/* kernel_md.h - perf.md's kernel section, added after everything perf.md
 * already holds (those lines stay byte for byte as they were). */
#ifndef AORTA_KERNEL_MD_H
#define AORTA_KERNEL_MD_H

#include "output/kernel_agg.h"

/* Kernels shown per cell and collector; the rest add up to "other". */
#define AORTA_KERNEL_MD_TOP 10

/* The section, or "" when no cell has a kernel table.  Free it. */
char *aorta_kernel_md(const aorta_kagg_run_t *run);

#endif
