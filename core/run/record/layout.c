/* SPDX-License-Identifier: MIT */
/* layout.c - where a trial's files lie in the run directory (layout.h). */
#include "config.h"

#include "record/layout.h"

#include <stdlib.h>

#include "xalloc.h"

/* A warm-up trial's index is negative: the k-th (from 1) is -k. */
char *aorta_trial_tag(int trial_index)
{
    return trial_index < 0 ? aorta_xasprintf("w%d", -trial_index)
                           : aorta_xasprintf("t%d", trial_index);
}

char *aorta_trial_dir_rel(const char *cell, int trial_index)
{
    return trial_index < 0 ? aorta_xasprintf("%s/warmup_%d", cell, -trial_index)
                           : aorta_xasprintf("%s/trial_%d", cell, trial_index);
}

char *aorta_workload_dir_rel(const char *cell)
{
    return aorta_xasprintf("%s/" AORTA_WORKLOAD, cell);
}

char *aorta_trial_json_rel(const char *cell, int trial_index)
{
    char *tag = aorta_trial_tag(trial_index);
    char *rel = aorta_xasprintf("%s/" AORTA_WORKLOAD "/trial_d0_m0_%s.json", cell, tag);
    free(tag);
    return rel;
}

char *aorta_trial_collect_rel(const char *cell, int trial_index)
{
    char *tag = aorta_trial_tag(trial_index);
    char *rel = aorta_xasprintf("%s/" AORTA_WORKLOAD "/trial_d0_m0_%s", cell, tag);
    free(tag);
    return rel;
}
