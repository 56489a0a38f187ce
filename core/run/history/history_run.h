/* SPDX-License-Identifier: MIT */
/* history_run.h - a run directory gathered into what the history stores. */
#ifndef AR_HISTORY_RUN_H
#define AR_HISTORY_RUN_H

#include "compare/verdicts.h"
#include "history/history.h"
#include "kernels/kernel_agg.h"

typedef struct ar_history_gathered {
    ar_history_run_t run;         /* label and blessing are the caller's */
    ar_history_record_t *records; /* point into set's strings */
    size_t count;
    ar_kagg_run_t kagg;
    ar_measures_t set;
    char *strings[11];
} ar_history_gathered_t;

/* run_dir's provenance and every record of its cells' passing trials.  0,
 * or -1 with *error set (not a run directory). */
int ar_history_gather(const char *run_dir, ar_history_gathered_t *gathered, char **error);
void ar_history_gathered_clear(ar_history_gathered_t *gathered);

#endif
