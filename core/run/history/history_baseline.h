/* SPDX-License-Identifier: MIT */
/* history_baseline.h - the baseline side of --against history:FILE rebuilt
 * from the store as a run, so that --compare's gate judges it unchanged:
 * each stored measure becomes a sample with exactly its n, and the mean and
 * variance of its log values (all Welch's test reads); @median-of-N's
 * sample is the last N runs' log-means.  A measure takes part once it has
 * arm_after records (docs/design.md, History). */
#ifndef AR_HISTORY_BASELINE_H
#define AR_HISTORY_BASELINE_H

#include <stddef.h>

#include "history/history.h"
#include "kernels/kernel_agg.h"

/* What --against history:FILE@WHICH names: which is NULL (the blessed run),
 * "last" or "median-of-N". */
typedef struct ar_history_target {
    char *file;
    int last;
    size_t median_of; /* N, or 0 */
} ar_history_target_t;

/* spec after "history:"; 0, or -1 with *error set. */
int ar_history_target_parse(const char *spec, ar_history_target_t *target, char **error);
void ar_history_target_clear(ar_history_target_t *target);

/* What a blessing is the baseline of: the sha256 of the cells' names. */
char *ar_history_scope(const char *const *names, size_t count);

typedef struct ar_history_baseline {
    ar_kagg_run_t run;     /* the baseline side, its armed measures only */
    char *provenance;      /* the newest chosen run's, compact JSON, or NULL */
    char *what;            /* "the blessed run 'LABEL'", "the last 5 runs" */
    size_t fewest;         /* the fewest records of any stored measure */
    size_t unarmed;        /* the measures with fewer than arm_after records */
    char *unarmed_names;   /* the first of them, "cell/collector/measure[/kernel], ..." */
} ar_history_baseline_t;

/* scope's baseline as target names it.  0 with *out built, 1 when nothing
 * is armed yet (out->fewest says how far it is), -1 with *error set (no
 * blessed run, fewer than N runs). */
int ar_history_baseline(ar_history_t *history, const char *scope,
                        const ar_history_target_t *target, size_t arm_after,
                        ar_history_baseline_t *out, char **error);
void ar_history_baseline_clear(ar_history_baseline_t *baseline);

#endif
