/* SPDX-License-Identifier: MIT */
/* plan.h - everything a sweep will do, resolved before anything runs:
 * cells, trials, collectors with their effective options, retention,
 * stop_after, the launcher and the command.  Built from the command line
 * and the recipe (plan.c); consumed by --dry-run and the sweep. */
#ifndef AR_PLAN_H
#define AR_PLAN_H

#include <stdint.h>
#include <stdio.h>

#include "aorta/collector.h"
#include "recipe/collect.h"
#include "registry/registry.h"

/* What the user asked for, as plain values (the command line fills it in,
 * cmd_plan.c); NULL or 0 means "not given". */
typedef struct ar_plan_request {
    const char *recipe;              /* recipe path */
    char *const *mitigation_files;   /* sidecars, in order */
    size_t mitigation_file_count;
    const char *collect;             /* comma list replacing the recipe's names */
    char *const *options;            /* --option NAME.KEY=VALUE, in order */
    size_t option_count;
    const char *output;              /* results root; NULL: AR_DEFAULT_OUTPUT */
    const char *ticket;              /* overrides the recipe's */
    long trials;                     /* over the recipe's trials; 0: the recipe's, else one */
    int warmup_given;                /* --warmup was given: */
    long warmup;                     /* its N, over the recipe's warmup_trials */
    double timeout;                  /* over the recipe's timeout_per_trial; 0: the recipe's */
    int verbose;
    int all_ranks;                   /* --all-ranks */
    const long *ranks;               /* --ranks, sorted, distinct; NULL: the recipe's */
    size_t rank_count;
    int quiet;                       /* -q */
    int fresh;                       /* --fresh */
    const char *order;               /* --order: over the recipe's order; NULL: not given */
    char *const *command;            /* the user's command */
    size_t command_count;
} ar_plan_request_t;

#define AR_DEFAULT_OUTPUT "aorta_results"

/* The order of a sweep's trials (docs/design.md, Trial order). */
typedef enum ar_order {
    AR_ORDER_INTERLEAVED, /* rounds: trial r of every cell, in a seeded order per round */
    AR_ORDER_SEQUENTIAL,  /* each cell's trials before the next cell's */
    AR_ORDER_RANDOM       /* every trial of every cell shuffled with the seed */
} ar_order_t;

/* "interleaved", "sequential", "random"; the mode of a name, or -1. */
const char *ar_order_name(ar_order_t order);
int ar_order_from_name(const char *name);


typedef struct ar_plan {
    char *recipe_path;               /* NULL without --recipe */
    char *ticket;                    /* NULL: no ticket */
    long trials;                     /* per cell (stop_after.max_trials when set) */
    long warmup_trials;              /* run before them per cell, left out of every
                                      * statistic (indices -1 .. -warmup_trials) */
    double timeout_sec;              /* per trial; 0 = no limit */
    char *env_passthrough_mode;      /* "inherit" or "file" */
    ar_cell_t *cells;             /* in recipe order */
    size_t cell_count;
    ar_collect_entry_t *collectors; /* in wrap order: lowest wrap_rank (outermost) first */
    size_t collector_count;
    int has_retain;                  /* a retain: block was given */
    ar_retain_level_t retain_on_pass, retain_on_fail, retain_on_error;
    int has_stop_after;
    long stop_events;
    long stop_max_trials;
    char *stop_event_verdict;        /* "fail", "pass" or "error" */
    aorta_argv_t *launcher;          /* NULL, or the argv put outside every collector */
    char *output_root;               /* --output */
    char *run_dir;                   /* output_root/slug(ticket or _no_ticket_) */
    char *kernel_baseline;           /* --baseline, else the recipe's baseline:, or NULL */
    aorta_argv_t *command;           /* the user's command (never empty; empty
                                      * only for --parse/--env, which have none) */
    int verbose;
    int all_ranks;                   /* --all-ranks or all_ranks: true: started once per
                                      * rank, every rank profiles itself */
    long *ranks;                     /* --ranks or ranks:, sorted, distinct: the ranks
                                      * that profile themselves; NULL: every rank */
    size_t rank_count;
    int quiet;                       /* -q: no progress display */
    int fresh;                       /* --fresh: empty the run directory's cells first */
    ar_order_t order;                /* --order, else the recipe's order:, else interleaved */
    uint64_t order_seed;             /* the seed of the rounds' order: the request's (the
                                      * ticket, the cells, the budget), so that every rank
                                      * and a resumed run derive the same one; < 2^53 */
    unsigned char *in_part;          /* --cells: per cell, 1 when this part runs it; NULL:
                                      * every cell (ar_plan_runs_cell()) */
    long round_first, round_end;     /* --rounds: rounds round_first .. round_end - 1
                                      * (0-based); round_end 0: every round */
    int summary_to_stderr;           /* the sweep's summary on stderr: stdout holds a
                                      * comparison's JSON alone (--against --json) */
} ar_plan_t;

/* Build the plan for a run or a dry run.  Returns 0, or -1 with *error set
 * to one line naming what is wrong in the request (free it). */
int ar_plan_build(const ar_plan_request_t *request, const ar_registry_t *registry,
                     ar_plan_t **out, char **error);
void ar_plan_free(ar_plan_t *plan);

/* Whether this run is a part of its request (--cells or --rounds): the
 * cells it does not run are read back from their records. */
int ar_plan_is_part(const ar_plan_t *plan);
/* Whether this part runs cell index (every cell without --cells). */
int ar_plan_runs_cell(const ar_plan_t *plan, size_t index);
/* Whether this part runs trial round t (0-based). */
int ar_plan_runs_round(const ar_plan_t *plan, long t);

/* Trials per cell: stop_after's max_trials when set, else trials. */
long ar_plan_trial_budget(const ar_plan_t *plan);

/* Whether aorta-run started once per rank keeps every rank's record (rank
 * 0 waits for them): --all-ranks, or ranks chosen without the recipe's
 * launcher. */
int ar_plan_per_rank(const ar_plan_t *plan);

/* Whether rank profiles itself: every rank does without a list of ranks. */
int ar_plan_profiles_rank(const ar_plan_t *plan, long rank);

/* The collector entry of that name, or NULL. */
const ar_collect_entry_t *ar_plan_collector(const ar_plan_t *plan, const char *name);

/* run_dir made absolute against the working directory and normalised
 * (no symlink resolved; nothing needs to exist).  Free it. */
char *ar_plan_absolute_run_dir(const ar_plan_t *plan);

#endif
