/* SPDX-License-Identifier: MIT */
/* classify.h - the Tier-1 (process) classifier and the three-way verdict. */
#ifndef AORTA_CLASSIFY_H
#define AORTA_CLASSIFY_H

#include "sys/spawn.h"

typedef struct aorta_classification {
    const char *verdict;               /* "pass", "fail" or "error" */
    const char *failure_detectors[3];  /* NULL-terminated */
    const char *error_detectors[2];    /* NULL-terminated */
} aorta_classification_t;

/* Classify a finished command; trial_dir is searched for core dumps. */
void aorta_classify(const aorta_spawn_result_t *result, const char *trial_dir,
                    aorta_classification_t *out);

#endif
