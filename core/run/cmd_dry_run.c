/* SPDX-License-Identifier: MIT */
/* cmd_dry_run.c - `aorta-run --dry-run`: check everything, write nothing,
 * and print one compact JSON object per cell, one per line (docs/design.md, Command line),
 * saying too whether a run would resume the cell from the run directory. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/power_text.h"
#include "sys/diag.h"
#include "sys/rank_list.h"
#include "commands.h"
#include "sweep/compose.h"
#include "sweep/rank.h"
#include "sweep/resume.h"
#include "aorta/collector.h"
#include "sys/json.h"
#include "recipe/plan.h"
#include "xalloc.h"

extern char **environ;

/* The cell's line: trial 0's fully wrapped argv, or why the wrap refused. */
static ar_json_t *cell_line(const ar_plan_t *plan, const ar_cell_t *cell,
                               const char *run_dir, int *refused)
{
    char *collect_rel = ar_xasprintf("%s/_subprocess/trial_d0_m0_t0", cell->name);
    aorta_env_t *child_env = aorta_env_from_environ(environ);
    for (size_t i = 0; i < aorta_env_count(cell->env); i++)
        aorta_env_set(child_env, aorta_env_name_at(cell->env, i), aorta_env_value_at(cell->env, i));
    aorta_argv_t *argv = NULL;
    char *error = NULL;
    ar_json_t *line = ar_json_object();
    ar_json_set(line, "cell", ar_json_string(cell->name));
    /* With --all-ranks (or chosen ranks) under a launcher, the argv this
     * rank would run: bare for a rank not chosen. */
    long self_rank = ar_plan_per_rank(plan) && ar_rank_is_launched() ? ar_rank_detect()
                                                                           : -1;
    if (plan->rank_count) {
        char *list = ar_rank_list_format(plan->ranks, plan->rank_count, ", ");
        ar_json_set(line, "ranks_profiled", ar_json_string(list));
        free(list);
    }
    if (ar_compose(plan, plan->command, run_dir, collect_rel, child_env, 0, self_rank,
                           &argv, &error)
        != 0) {
        ar_json_set(line, "error", ar_json_string(error));
        ar_diag_error("--dry-run: cell '%s': %s", cell->name, error);
        *refused = 1;
    } else {
        ar_json_t *env = ar_json_object();
        for (size_t i = 0; i < aorta_env_count(cell->env); i++)
            ar_json_set(env, aorta_env_name_at(cell->env, i),
                           ar_json_string(aorta_env_value_at(cell->env, i)));
        ar_json_set(line, "env", env);
        ar_json_set(line, "argv", ar_json_strings(aorta_argv_items(argv), aorta_argv_count(argv)));
        char *collect_dir = aorta_path_join(run_dir, collect_rel);
        ar_json_set(line, "collect_dir", ar_json_string(collect_dir));
        aorta_free(collect_dir);
    }
    aorta_argv_free(argv);
    free(error);
    aorta_env_free(child_env);
    free(collect_rel);
    return line;
}

/* Why the command's program cannot be started as the trials would start
 * it (the cell's PATH, else aorta-run's), or NULL (sweep/compose.h). */
static char *command_missing(const ar_plan_t *plan, const ar_cell_t *cell)
{
    const char *path = aorta_env_get(cell->env, "PATH");
    return ar_compose_command_missing(plan, path ? path : getenv("PATH"));
}

/* One warning, for the first cell whose command cannot be started: the run
 * would record each of its trials as `cannot execute` (exit 127 or 126),
 * starting no profiler.  The dry run's exit status stays as it is: a dry
 * run is also how one sees the argv of a program not built yet. */
static void warn_command_missing(const ar_plan_t *plan)
{
    size_t missing = 0;
    for (size_t i = 0; i < plan->cell_count; i++) {
        char *why = command_missing(plan, &plan->cells[i]);
        if (!why)
            continue;
        if (!missing++)
            ar_diag_warn("--dry-run: %s; a run would fail with 'cannot execute' (check the "
                            "name, or give its path)",
                            why);
        free(why);
    }
}

/* Whether a run would skip cell index, its trials all done for this request. */
static int would_resume(const ar_run_ctx_t *ctx, size_t index)
{
    ar_cell_result_t result = {0};
    int resumed = ar_resume_cell(ctx, index, &result);
    if (resumed)
        ar_cell_result_clear(&result);
    return resumed;
}

int ar_cmd_dry_run(const ar_cli_t *cli, const ar_registry_t *registry)
{
    ar_plan_t *plan = NULL;
    int status = ar_cmd_build_plan(cli, registry, &plan);
    if (status != 0)
        return status;
    char *run_dir = ar_plan_absolute_run_dir(plan);
    int refused = 0;
    /* What a run would find in the run directory: read, never written. */
    ar_request_t *requests = ar_request_compute(plan);
    ar_run_ctx_t ctx = {.plan = plan, .run_dir = run_dir, .display_dir = plan->run_dir,
                           .run_fd = -1, .self_rank = -1, .requests = requests};
    char *stale = NULL;
    if (!plan->fresh && run_dir)
        ar_resume_check(&ctx, &stale);
    for (size_t i = 0; i < plan->cell_count; i++) {
        ar_json_t *line = cell_line(plan, &plan->cells[i], run_dir, &refused);
        ar_json_set(line, "resumed", ar_json_bool(!plan->fresh && run_dir
                                                         && would_resume(&ctx, i)));
        char *text = ar_json_dump(line, 0);
        printf("%s\n", text);
        free(text);
        ar_json_free(line);
    }
    fflush(stdout);
    if (plan->collector_count) { /* what the design can decide of GPU time; stdout stays JSON */
        ar_stats_options_t options = AR_STATS_OPTIONS_INIT;
        char *design = ar_power_statement(plan, &options);
        ar_diag_note("%s", design);
        free(design);
    }
    warn_command_missing(plan);
    int against = ar_cmd_against_check(cli, plan, 1);
    free(requests);
    free(run_dir);
    ar_plan_free(plan);
    /* Trials of another request: the run would refuse them (exit 2). */
    if (stale) {
        ar_diag_error("%s", stale);
        free(stale);
        return AR_EXIT_USAGE;
    }
    /* A refused wrap is a setup failure, found without running: the run would
     * exit 1 for it, so the dry run does too. */
    return refused ? AR_EXIT_FAILED : against;
}
