/* SPDX-License-Identifier: MIT */
/* rank_env.h - the rank and world size a launcher gives a process, read from
 * the variables every launcher aorta supports sets (docs/design.md,
 * Multi-rank runs).  Shared by aorta-run and aorta-rank-exec, so both read
 * the same rank the same way. */
#ifndef AR_RANK_ENV_H
#define AR_RANK_ENV_H

/* The placeholder a collector's output directory is built with under a
 * launcher; aorta-rank-exec replaces it with the rank in every argv element
 * and environment value. */
#define AR_RANK_PLACEHOLDER "%AORTA_RANK%"

/* AR_RANK_MAX, the most ranks a job may have. */
#include "sys/rank_list.h"

/* RANK (torchrun), OMPI_COMM_WORLD_RANK (Open MPI), PMI_RANK (MPICH, Intel
 * MPI), SLURM_PROCID (srun): the first one set wins. */
extern const char *const ar_rank_vars[];

/* The rank: 1 with *rank set, 0 when no variable is set, -1 when the first
 * one set is not an integer from 0 to AR_RANK_MAX - 1 (*var names it,
 * *text its value). */
int ar_rank_read(long *rank, const char **var, const char **text);

/* The world size from WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE,
 * SLURM_NTASKS (the first one set that is a positive integer), else 0.
 * One larger than AR_RANK_MAX gives -1, with *var and *text set (else
 * NULL) for the caller's refusal: no launcher starts that many ranks, and
 * rank 0 would wait for every one. */
long ar_rank_world_size(const char **var, const char **text);

/* text with every AR_RANK_PLACEHOLDER replaced by rank.  Free it. */
char *ar_rank_expand(const char *text, long rank);

#endif
