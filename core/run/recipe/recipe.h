/* SPDX-License-Identifier: MIT */
/* recipe.h - a `mode: probe` recipe (docs/design.md, Recipes) read and checked:
 * its keys and their types, the cells (mitigation_axis x diagnostic_axis),
 * and the collectors it asks for (checked against the loaded collectors
 * later, by collect.c).  Every error is one line
 * "FILE:LINE:COLUMN: recipe.KEY: ..." naming the key. */
#ifndef AR_RECIPE_H
#define AR_RECIPE_H

#include <stdio.h>

#include "aorta/collector.h"
#include "recipe/mitigations.h"

/* The most cells (mitigation_axis x diagnostic_axis) a recipe may make: a
 * few hundred axis values would otherwise make a sweep, and its plan, of
 * millions of cells. */
#define AR_RECIPE_MAX_CELLS 10000

/* One cell of the sweep: a mitigation x diagnostic pair. */
typedef struct ar_cell {
    char *name;                      /* "<slug(m)>-<slug(d)>" */
    char *mitigation;                /* m, as written */
    char *diagnostic;                /* d, as written */
    aorta_env_t *env;                /* the variables m and d set, m's first */
} ar_cell_t;

typedef enum ar_retain_level {
    AR_RETAIN_NONE = 0,
    AR_RETAIN_LOG = 1,
    AR_RETAIN_SUMMARY = 2,
    AR_RETAIN_FULL = 3
} ar_retain_level_t;

/* One collector the recipe's `collect:` names. */
typedef struct ar_recipe_collector {
    char *name;
    aorta_options_t *options;        /* as written (strings); empty = defaults */
    char *where;                     /* "FILE:LINE:COLUMN" of the name */
    char **option_where;             /* "FILE:LINE:COLUMN" of each option's key, in
                                      * the options' order (NULL without options) */
} ar_recipe_collector_t;

typedef struct ar_recipe {
    char *path;
    char *ticket;                    /* NULL: none */
    long trials;                     /* stop_after.max_trials when stop_after is set */
    long warmup_trials;              /* warmup_trials: run first per cell, left out */
    int has_warmup_trials;           /* the recipe sets warmup_trials */
    double timeout_sec;              /* 0: no limit */
    char *env_passthrough_mode;      /* "inherit" or "file" */
    char *order;                     /* order: "interleaved", "sequential", "random"; NULL:
                                      * not given */
    ar_cell_t *cells;             /* m x d, in order */
    size_t cell_count;
    ar_recipe_collector_t *collect; /* in the order written, duplicates kept */
    size_t collect_count;
    char *collect_where;             /* "FILE:LINE:COLUMN" of the collect value; NULL if none */
    int has_retain;
    ar_retain_level_t retain_on_pass, retain_on_fail, retain_on_error;
    int has_stop_after;
    long stop_events;
    long stop_max_trials;
    char *stop_event_verdict;
    aorta_argv_t *launcher;          /* NULL: none */
    int all_ranks;                   /* all_ranks: true */
    long *ranks;                     /* ranks: sorted, distinct; NULL: every rank */
    size_t rank_count;
    char *baseline;                  /* the kernel deltas' cell (a cell's name), or NULL */
} ar_recipe_t;

/* Read and check the recipe at path.  The recipe's inline mitigations are
 * added to mitigations (which holds the sidecars' already).  Keys of
 * features aorta-run lacks are one warning (sys/diag.h).  Returns 0 with
 * *out set, or -1 with *error set to one line (free it). */
int ar_recipe_load(const char *path, ar_mitigations_t *mitigations, ar_recipe_t **out,
                      char **error);
void ar_recipe_free(ar_recipe_t *recipe);

#endif
