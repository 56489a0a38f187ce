/* rank.h - aorta-run under a launcher (docs/design.md, Deviation 7): its rank comes
 * from RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID (the first one
 * set); only rank 0 records anything. */
#ifndef AORTA_RANK_H
#define AORTA_RANK_H

#include "recipe/plan.h"

/* The rank; a value that is not an integer is warned about and read as 0. */
long aorta_rank_detect(void);

/* What a non-zero rank does: the same cells and trials with the bare
 * command (no collector, no launcher, the cell's variables applied, output
 * left on aorta-run's own stdout and stderr), writing nothing.  Returns
 * the exit status: 0, or 128 + the signal that interrupted it. */
int aorta_rank_run_bare(const aorta_plan_t *plan);

#endif
