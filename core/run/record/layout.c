/* SPDX-License-Identifier: MIT */
/* layout.c - where a trial's files lie in the run directory (layout.h). */
#include "config.h"

#include "record/layout.h"

#include "xalloc.h"

char *aorta_trial_dir_rel(const char *cell, int trial_index)
{
    return aorta_xasprintf("%s/trial_%d", cell, trial_index);
}

char *aorta_workload_dir_rel(const char *cell)
{
    return aorta_xasprintf("%s/" AORTA_WORKLOAD, cell);
}

char *aorta_trial_json_rel(const char *cell, int trial_index)
{
    return aorta_xasprintf("%s/" AORTA_WORKLOAD "/trial_d0_m0_t%d.json", cell, trial_index);
}

char *aorta_trial_collect_rel(const char *cell, int trial_index)
{
    return aorta_xasprintf("%s/" AORTA_WORKLOAD "/trial_d0_m0_t%d", cell, trial_index);
}
