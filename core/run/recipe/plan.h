/* plan.h - everything a sweep will do, resolved before anything runs:
 * cells, trials, collectors with their effective options, retention,
 * stop_after, the launcher and the command.  Built from the command line
 * and the recipe (plan.c); consumed by --dry-run and the runner. */
#ifndef AORTA_PLAN_H
#define AORTA_PLAN_H

#include "aorta/collector.h"
#include "cli.h"
#include "registry/registry.h"

typedef struct aorta_collect_entry {
    const aorta_module_t *plugin;    /* the loaded collector */
    aorta_options_t *given;          /* options as the user wrote them */
    aorta_options_t *effective;      /* after the collector's validate() */
} aorta_collect_entry_t;

typedef struct aorta_cell {
    char *name;                      /* "<slug(m)>-<slug(d)>" */
    char *mitigation;                /* m, as written */
    char *diagnostic;                /* d, as written */
    aorta_env_t *env;                /* the variables m and d set, m's first */
} aorta_cell_t;

typedef enum aorta_retain_level {
    AORTA_RETAIN_NONE = 0,
    AORTA_RETAIN_LOG = 1,
    AORTA_RETAIN_SUMMARY = 2,
    AORTA_RETAIN_FULL = 3
} aorta_retain_level_t;

typedef struct aorta_plan {
    char *recipe_path;               /* NULL without --recipe */
    char *ticket;                    /* NULL: no ticket */
    long trials;                     /* per cell (stop_after.max_trials when set) */
    double timeout_sec;              /* per trial; 0 = no limit */
    char *env_passthrough_mode;      /* "inherit" or "file" */
    aorta_cell_t *cells;             /* in recipe order */
    size_t cell_count;
    aorta_collect_entry_t *collectors; /* sorted by wrap_rank, lowest (outermost) first */
    size_t collector_count;
    int has_retain;                  /* a retain: block was given */
    aorta_retain_level_t retain_on_pass, retain_on_fail, retain_on_error;
    int has_stop_after;
    long stop_events;
    long stop_max_trials;
    char *stop_event_verdict;        /* "fail", "pass" or "error" */
    aorta_argv_t *launcher;          /* NULL, or the argv put outside every collector */
    char *output_root;               /* --output */
    char *run_dir;                   /* output_root/slug(ticket or _no_ticket_) */
    aorta_argv_t *command;           /* the user's command (never empty; empty
                                      * only for --parse/--env, which have none) */
    int verbose;
} aorta_plan_t;

/* Build the plan for a run or a dry run.  Errors are reported on stderr as
 * one "aorta-run: ..." line; returns 0 or the exit status (2). */
int aorta_plan_build(const aorta_cli_t *cli, const aorta_registry_t *registry, aorta_plan_t **out);
void aorta_plan_free(aorta_plan_t *plan);

/* The collector entry of that name, or NULL. */
const aorta_collect_entry_t *aorta_plan_collector(const aorta_plan_t *plan, const char *name);

/* run_dir made absolute against the working directory and normalised
 * (no symlink resolved; nothing needs to exist).  Free it. */
char *aorta_plan_absolute_run_dir(const aorta_plan_t *plan);

#endif
