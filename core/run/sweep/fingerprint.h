/* SPDX-License-Identifier: MIT */
/* fingerprint.h - a cell's request fingerprint (docs/design.md, Resume):
 * the SHA-256 of what decides its results -- the command's argv, the
 * recipe's contents, the cell's variables, the collectors with their
 * effective options, the chosen ranks when there are some, aorta's version.  It is written as the trial JSON's
 * request_fingerprint, with the digest of each part in
 * config._aorta_request, so that a later run can resume only trials of the
 * same request and name what changed when it is not. */
#ifndef AR_FINGERPRINT_H
#define AR_FINGERPRINT_H

#include "recipe/plan.h"
#include "sys/json.h"

typedef struct ar_request {
    char fingerprint[65];      /* the whole request */
    char command[65];          /* the command's argv */
    char recipe[65];           /* the recipe file's contents; "" without a recipe */
    char variables[65];        /* the cell's variables, in order */
    char collectors[65];       /* the collectors in wrap order, each with its options */
    char ranks[65];            /* the chosen ranks (--ranks, ranks:); "" for every rank */
} ar_request_t;

/* Each cell's request of plan, in cell order (free() the array). */
ar_request_t *ar_request_compute(const ar_plan_t *plan);

/* config._aorta_request: the parts' digests and aorta's version. */
ar_json_t *ar_request_json(const ar_request_t *request);

/* NULL when trial_json (a trial JSON recorded before) was recorded for
 * request; else what differs, as a phrase ("the command and the cell's
 * variables changed", "it was recorded without a request fingerprint").
 * Free it. */
char *ar_request_mismatch(const ar_request_t *request, const ar_json_t *trial_json);

#endif
