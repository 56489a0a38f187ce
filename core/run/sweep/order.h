/* SPDX-License-Identifier: MIT */
/* order.h - the order of a sweep's trials (docs/design.md, Trial order):
 * sequential (each cell's trials before the next cell's), interleaved
 * (round r runs trial r of every cell, the cells in a seeded order per
 * round: the default) or random (every trial of every cell shuffled, a
 * cell's trial t still before its t + 1).  A pure function of the plan
 * (its order and order_seed), so that rank 0, every other rank and a
 * resumed run derive the same sequence. */
#ifndef AR_ORDER_H
#define AR_ORDER_H

#include <stddef.h>

#include "recipe/plan.h"
#include "sys/json.h"

/* One measured trial: trial `trial` (0-based) of cell `cell`. */
typedef struct ar_slot {
    size_t cell;
    long trial;
} ar_slot_t;

/* Every measured trial of the plan (cells x budget slots), in the order
 * the plan's order runs them.  Free it. */
ar_slot_t *ar_order_sequence(const ar_plan_t *plan, size_t *count);

/* perm[0..cell_count-1]: the cells of round `round` of an interleaved
 * sweep, in their order (a Fisher-Yates shuffle seeded by the plan's seed
 * and the round). */
void ar_order_round(const ar_plan_t *plan, long round, size_t *perm);

/* matrix.json's "order": {"mode", "seed", "sequence": [[cell, trial],
 * ...]}, the planned sequence whatever ran of it. */
ar_json_t *ar_order_json(const ar_plan_t *plan);

#endif
