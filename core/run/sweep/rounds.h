/* SPDX-License-Identifier: MIT */
/* rounds.h - running a sweep's trials in its order (sweep/order.h): each
 * cell resumed first (whole, or in rounds its complete prefix), then the
 * sequence's trials that remain, a cell's warm-up trials just before its
 * first trial of this run, stop_after ending a cell's part of later
 * rounds. */
#ifndef AR_ROUNDS_H
#define AR_ROUNDS_H

#include "report/matrix.h"
#include "sweep/run.h"

/* Fill results[0..cell_count-1] (zeroed) with every cell's trials, resumed
 * or run.  Returns the signal that interrupted the sweep, else 0; a cell
 * that had not begun by then is left with no trial and no error (the
 * caller says why). */
int ar_rounds_run(const ar_run_ctx_t *ctx, ar_cell_result_t *results);

/* A part of the request (--cells, --rounds; nothing otherwise): cell c's
 * result again from every record on disk, this part's trials and the other
 * parts' (a cell another part runs without a record yet: absent).  Under
 * the run lock, just before the reports, so that the part that writes them
 * last has every part's trials. */
void ar_rounds_read_part(const ar_run_ctx_t *ctx, size_t c, ar_cell_result_t *result);

#endif
