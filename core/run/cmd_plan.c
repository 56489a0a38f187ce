/* SPDX-License-Identifier: MIT */
/* cmd_plan.c - the command line's request turned into a plan, for the modes
 * that need one (run, --dry-run, and --parse/--env with a recipe).  The plan
 * knows nothing of the command line; this is where a plan error becomes an
 * exit status. */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/diag.h"
#include "commands.h"
#include "recipe/plan.h"
#include "record/gpu_state.h"
#include "record/host_env.h"
#include "record/rank_record.h"
#include "registry/registry.h"
#include "sweep/parse_child.h"
#include "sweep/rank.h"
#include "sweep/rank_parse.h"
#include "sweep/run.h"
#include "xalloc.h"

/* The plan's cell names, comma-separated (free it). */
static char *cell_names(const ar_plan_t *plan)
{
    size_t len = 1;
    for (size_t c = 0; c < plan->cell_count; c++)
        len += strlen(plan->cells[c].name) + 2;
    char *names = ar_xcalloc(len, 1);
    for (size_t c = 0; c < plan->cell_count; c++) {
        if (c)
            strcat(names, ", ");
        strcat(names, plan->cells[c].name);
    }
    return names;
}

/* --cells and --rounds made a part of the plan: 0, or -1 after one line
 * (a pattern that names no cell, rounds past the budget). */
static int apply_part(const ar_cli_t *cli, ar_plan_t *plan)
{
    if (cli->round_first) {
        long budget = ar_plan_trial_budget(plan);
        if (cli->round_last > budget) {
            ar_diag_error("--rounds %ld-%ld: the request has %ld round(s) (trials per cell)",
                          cli->round_first, cli->round_last, budget);
            return -1;
        }
        plan->round_first = cli->round_first - 1;
        plan->round_end = cli->round_last;
    }
    if (!cli->cell_globs)
        return 0;
    plan->in_part = ar_xcalloc(plan->cell_count + 1, 1);
    for (size_t g = 0; g < cli->cell_glob_count; g++) {
        int matched = 0;
        for (size_t c = 0; c < plan->cell_count; c++)
            if (fnmatch(cli->cell_globs[g], plan->cells[c].name, 0) == 0)
                matched = plan->in_part[c] = 1;
        if (!matched) {
            char *names = cell_names(plan);
            ar_diag_error("--cells '%s' matches no cell; the cells are: %s",
                          cli->cell_globs[g], names);
            free(names);
            return -1;
        }
    }
    return 0;
}

/* Chosen ranks with no launcher anywhere: every trial profiles this one
 * process, so the list changes nothing; said once. */
static void note_ranks_unused(const ar_plan_t *plan)
{
    if (plan->rank_count && !plan->launcher && !ar_rank_is_launched())
        ar_diag_warn("ranks have no effect here: the recipe has no launcher and no launcher "
                        "started aorta-run (none of RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, "
                        "SLURM_PROCID is set); this one process profiles itself");
}

/* Every AORTA_* knob that takes a number, read once through the function
 * that reads it (with its fallback), so that a bad value is one warning in
 * every run, whether or not this run comes to use the knob (the probe only
 * runs for a Python payload, the rank wait only under --all-ranks).  A knob
 * warns once per value, so the later reads are silent.  The knobs that take
 * any text (paths, a program) have no bad value. */
static void check_knobs(const ar_plan_t *plan)
{
    (void)ar_run_kill_grace();
    (void)ar_parse_timeout();
    (void)ar_parse_memory_limit();
    (void)ar_parse_jobs();
    (void)ar_host_env_probe_timeout();
    (void)ar_rank_wait_sec(plan->timeout_sec);
    (void)ar_registry_load_timeout();
    (void)ar_cmd_check_timeout();
    (void)ar_gpu_state_timeout();
}

int ar_cmd_build_plan(const ar_cli_t *cli, const ar_registry_t *registry,
                         ar_plan_t **plan)
{
    ar_plan_request_t request = {
        .recipe = cli->recipe,
        .mitigation_files = cli->mitigation_files,
        .mitigation_file_count = cli->mitigation_file_count,
        .collect = cli->collect,
        .options = cli->options,
        .option_count = cli->option_count,
        .output = cli->output,
        .ticket = cli->ticket,
        .trials = cli->trials,
        .timeout = cli->timeout,
        .warmup_given = cli->warmup >= 0,
        .warmup = cli->warmup,
        .verbose = cli->verbose,
        .all_ranks = cli->all_ranks,
        .ranks = cli->ranks,
        .rank_count = cli->rank_count,
        .quiet = cli->quiet,
        .fresh = cli->fresh,
        .order = cli->order,
        .command = cli->command,
        .command_count = cli->command_count,
    };
    char *error = NULL;
    if (ar_plan_build(&request, registry, plan, &error) == 0) {
        if (cli->mode == AR_MODE_RUN || cli->mode == AR_MODE_DRY_RUN) {
            note_ranks_unused(*plan);
            check_knobs(*plan);
        }
        if (apply_part(cli, *plan) != 0) {
            ar_plan_free(*plan);
            *plan = NULL;
            return AR_EXIT_USAGE;
        }
        return AR_EXIT_OK;
    }
    ar_diag_error("%s", error);
    free(error);
    return AR_EXIT_USAGE;
}
