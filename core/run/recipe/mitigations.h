/* SPDX-License-Identifier: MIT */
/* mitigations.h - the named variable bundles a recipe's axes refer to:
 * 'none' (built in, no variables), the recipe's inline `mitigations:` and
 * the --mitigations-file JSON sidecars
 * ({"version": 1, "mitigations": {NAME: {VAR: "value"}}}). */
#ifndef AR_MITIGATIONS_H
#define AR_MITIGATIONS_H

#include "aorta/collector.h"

typedef struct ar_mitigations ar_mitigations_t;

ar_mitigations_t *ar_mitigations_new(void);
void ar_mitigations_free(ar_mitigations_t *table);

/* Add the mitigations of a sidecar file; other top-level keys (such as
 * "environments") are ignored.  Returns 0, or -1 with *error set to one
 * line "PATH: message" (free it). */
int ar_mitigations_load_file(ar_mitigations_t *table, const char *path, char **error);

/* Define name as vars (taken over, even on failure); source says where
 * (a path, or "FILE:LINE:COLUMN") for messages.  Returns 0, or -1 with
 * *error set (free it) when name is 'none', a variable name is empty or
 * holds '=', or name was defined before with other variables. */
int ar_mitigations_define(ar_mitigations_t *table, const char *name, aorta_env_t *vars,
                             const char *source, char **error);

/* The variables of name ('none': none), or NULL when it is not defined. */
const aorta_env_t *ar_mitigations_find(const ar_mitigations_t *table, const char *name);

/* " (did you mean 'X'?)" when a defined name (or 'none') is near name, else
 * "" (sys/suggest.c); free it. */
char *ar_mitigations_suggest(const ar_mitigations_t *table, const char *name);

#endif
