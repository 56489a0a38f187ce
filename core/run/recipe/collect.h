/* SPDX-License-Identifier: MIT */
/* collect.h - which collectors a sweep runs (docs/collectors/rocprof.md): the
 * recipe's `collect:`, or --collect replacing its names while keeping the
 * recipe's options for names still present.  Every name must be a loaded
 * collector; each one's validate() runs now; then no two may take one
 * exclusive resource (recipe/resources.h: an HSA queue interceptor, CUPTI's
 * subscriber), and each collector's conflicts() is asked about every other
 * one. */
#ifndef AR_COLLECT_H
#define AR_COLLECT_H

#include "recipe/recipe.h"
#include "registry/registry.h"

/* One collector a sweep runs. */
typedef struct ar_collect_entry {
    const ar_module_t *module;    /* the loaded collector */
    aorta_options_t *given;          /* options as the user wrote them */
    aorta_options_t *effective;      /* after the collector's validate() */
} ar_collect_entry_t;

/* recipe may be NULL (no --recipe); cli_collect is --collect's raw value or
 * NULL; cli_options are --option's NAME.KEY=VALUE values (each with a '.'
 * before an '='), set over the options of NAME, which must be asked for.  On success *out holds *count entries in wrap order (lowest wrap_rank,
 * the outermost, first; ties keep the order asked), owned by the caller
 * (free each given and effective, then the array).  Returns 0, or -1 with
 * *error set to one line (free it). */
int ar_collect_select(const ar_recipe_t *recipe, const char *cli_collect,
                         char *const *cli_options, size_t cli_option_count,
                         const ar_registry_t *registry, ar_collect_entry_t **out,
                         size_t *count, char **error);

/* The effective options of module: chosen's when the sweep selected it
 * (chosen is then its entry; NULL otherwise), else what module's validate()
 * makes of no options.  Returns 0 with *out set (free it), or -1 with
 * *error set (free it). */
int ar_collect_effective_options(const ar_collect_entry_t *chosen,
                                    const ar_module_t *module, aorta_options_t **out,
                                    char **error);

/* --collect's names: comma-separated, each stripped, empty ones dropped.
 * Returns how many (0: the flag counts as absent); free each and the array. */
size_t ar_collect_split(const char *value, char ***names);

#endif
