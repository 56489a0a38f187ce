/* SPDX-License-Identifier: MIT */
/* classify.h - the Tier-1 (process) classifier and the three-way verdict. */
#ifndef AR_CLASSIFY_H
#define AR_CLASSIFY_H

#include "sys/spawn.h"

typedef struct ar_classification {
    const char *verdict;               /* "pass", "fail" or "error" */
    const char *failure_detectors[3];  /* NULL-terminated */
    const char *error_detectors[2];    /* NULL-terminated */
} ar_classification_t;

/* Classify a finished command; trial_dir is searched for core dumps. */
void ar_classify(const ar_spawn_result_t *result, const char *trial_dir,
                    ar_classification_t *out);

#endif
