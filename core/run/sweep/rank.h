/* SPDX-License-Identifier: MIT */
/* rank.h - aorta-run under a launcher (docs/design.md, Deviation 7): its rank comes
 * from RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID (the first one
 * set); only rank 0 records anything. */
#ifndef AR_RANK_H
#define AR_RANK_H

#include "recipe/plan.h"

/* The rank; a value that is not an integer is warned about and read as 0. */
long ar_rank_detect(void);

/* What a non-zero rank does: the same cells and trials with the bare
 * command (no collector, no launcher, the cell's variables applied, output
 * left on aorta-run's own stdout and stderr), writing nothing.  Returns
 * the signal that interrupted it, else 0. */
int ar_rank_run_bare(const ar_plan_t *plan);

/* Whether a launcher set one of the rank variables. */
int ar_rank_is_launched(void);

/* The world size (ar_rank_world_size()); 0 when none is set; -1, with one
 * error line naming the variable and AR_RANK_MAX, when it is past that. */
long ar_rank_world(void);

/* The one line a non-zero rank without --all-ranks prints: it runs bare,
 * rank 0 records. */
void ar_rank_note_bare(long rank);

/* Rank rank > 0 of an --all-ranks run (docs/design.md, Multi-rank runs):
 * the same cells and trials in the same order as rank 0, each collector
 * writing into its rank<rank>/, one record per trial beside rank 0's trial
 * JSON; no lock, no report.  world is ar_rank_world()'s (>= 0).  A cell is skipped when rank 0 would resume it
 * (rank 0's result.json and every rank's record present).  Returns 0, or
 * -1 when the run directory cannot be made (reported); *interrupted gets
 * the interrupting signal, else 0. */
int ar_rank_run_follower(const ar_plan_t *plan, long rank, long world, int *interrupted);

#endif
