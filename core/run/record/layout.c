/* SPDX-License-Identifier: MIT */
/* layout.c - where a trial's files lie in the run directory (layout.h). */
#include "config.h"

#include "record/layout.h"

#include <stdlib.h>

#include "xalloc.h"

/* A warm-up trial's index is negative: the k-th (from 1) is -k. */
char *ar_trial_tag(int trial_index)
{
    return trial_index < 0 ? ar_xasprintf("w%d", -trial_index)
                           : ar_xasprintf("t%d", trial_index);
}

char *ar_trial_dir_rel(const char *cell, int trial_index)
{
    return trial_index < 0 ? ar_xasprintf("%s/warmup_%d", cell, -trial_index)
                           : ar_xasprintf("%s/trial_%d", cell, trial_index);
}

char *ar_workload_dir_rel(const char *cell)
{
    return ar_xasprintf("%s/" AR_WORKLOAD, cell);
}

char *ar_trial_json_rel(const char *cell, int trial_index)
{
    char *tag = ar_trial_tag(trial_index);
    char *rel = ar_xasprintf("%s/" AR_WORKLOAD "/trial_d0_m0_%s.json", cell, tag);
    free(tag);
    return rel;
}

char *ar_trial_collect_rel(const char *cell, int trial_index)
{
    char *tag = ar_trial_tag(trial_index);
    char *rel = ar_xasprintf("%s/" AR_WORKLOAD "/trial_d0_m0_%s", cell, tag);
    free(tag);
    return rel;
}
