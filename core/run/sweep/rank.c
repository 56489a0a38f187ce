/* SPDX-License-Identifier: MIT */
/* rank.c - aorta-run under a launcher. */
#include "config.h"

#include "sys/diag.h"
#include "sweep/rank.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "sweep/rank_env.h"
#include "sys/spawn.h"
#include "sweep/run.h"
#include "record/layout.h"
#include "sys/json.h"
#include "record/trial_json.h"
#include "sweep/compose.h"
#include "record/rank_record.h"
#include "sys/files.h"
#include "xalloc.h"

extern char **environ;

long aorta_rank_detect(void)
{
    long rank = 0;
    const char *var = NULL, *text = NULL;
    if (aorta_rank_read(&rank, &var, &text) < 0) {
        aorta_diag_warn("%s='%s' is not a rank (a non-negative integer); running as rank 0", var,
                        text);
        return 0;
    }
    return rank;
}

int aorta_rank_is_launched(void)
{
    long rank = 0;
    const char *var = NULL, *text = NULL;
    return aorta_rank_read(&rank, &var, &text) != 0;
}

void aorta_rank_note_bare(long rank)
{
    /* Once per process, so a user who expected every rank profiled is told. */
    aorta_diag_warn("rank %ld runs the command without collectors and records nothing; rank 0 "
                    "records the run (pass --all-ranks, or all_ranks: true in the recipe, to "
                    "profile every rank)",
                    rank);
}

int aorta_rank_run_bare(const aorta_plan_t *plan)
{
    aorta_env_t *base = aorta_env_from_environ(environ);
    double grace = aorta_run_kill_grace();
    int interrupted = 0;
    for (size_t c = 0; c < plan->cell_count && !interrupted; c++) {
        aorta_env_t *env = aorta_env_dup(base);
        const aorta_env_t *cell_env = plan->cells[c].env;
        for (size_t i = 0; i < aorta_env_count(cell_env); i++)
            aorta_env_set(env, aorta_env_name_at(cell_env, i), aorta_env_value_at(cell_env, i));
        char **envp = aorta_env_to_envp(env);
        for (long t = -plan->warmup_trials; t < aorta_plan_trial_budget(plan) && !interrupted;
             t++) {
            interrupted = aorta_spawn_take_interrupt();
            aorta_spawn_result_t result;
            if (!interrupted
                && aorta_spawn_run_fds(aorta_argv_items(plan->command), envp, -1, -1,
                                       plan->timeout_sec, grace, &result)
                       == 0)
                interrupted = result.interrupted;
        }
        aorta_env_free_envp(envp);
        aorta_env_free(env);
    }
    aorta_env_free(base);
    fflush(stdout);
    return interrupted;
}

/* One trial of rank rank > 0 of an --all-ranks run: its captures under
 * each collector's rank<rank>/, its record beside rank 0's trial JSON.
 * Returns the interrupting signal, else 0. */
static int follow_trial(const aorta_plan_t *plan, const char *run_dir, const aorta_env_t *base,
                        size_t cell_index, int trial, long rank, long world, double grace)
{
    const aorta_cell_t *cell = &plan->cells[cell_index];
    char *record_rel = aorta_rank_record_rel(cell->name, trial, rank);
    char *record_path = aorta_xasprintf("%s/%s", run_dir, record_rel);
    char *sub_dir = aorta_xasprintf("%s/%s/" AORTA_WORKLOAD, run_dir, cell->name);
    char *collect_rel = aorta_trial_collect_rel(cell->name, trial);
    unlink(record_path); /* the last attempt's; rank 0 must not take it for this one */
    aorta_env_t *env = aorta_env_dup(base);
    for (size_t i = 0; i < aorta_env_count(cell->env); i++)
        aorta_env_set(env, aorta_env_name_at(cell->env, i), aorta_env_value_at(cell->env, i));
    if (strcmp(plan->env_passthrough_mode, "file") == 0) {
        /* Rank 0 writes the file; every rank's command reads the same one. */
        char *trial_rel = aorta_trial_dir_rel(cell->name, trial);
        char *path = aorta_xasprintf("%s/%s/probe.env", run_dir, trial_rel);
        aorta_env_set(env, "AORTA_ENV_FILE", path);
        free(path);
        free(trial_rel);
    }
    char *error = NULL;
    aorta_argv_t *argv = NULL;
    if (aorta_mkdir_p(sub_dir, 0755) != 0)
        error = aorta_xasprintf("cannot create %s: %s", sub_dir, strerror(errno));
    else
        aorta_compose(plan, plan->command, run_dir, collect_rel, env, 1, rank, &argv, &error);
    aorta_spawn_result_t result;
    memset(&result, 0, sizeof result);
    const char *verdict = "error";
    if (!error) {
        char **envp = aorta_env_to_envp(env);
        if (aorta_spawn_run_fds(aorta_argv_items(argv), envp, -1, -1, plan->timeout_sec, grace,
                                &result)
            != 0)
            error = aorta_xasprintf("cannot run the command: %s", strerror(errno));
        else
            verdict = result.launched && !result.timed_out && result.exit_code == 0 ? "pass"
                                                                                    : "fail";
        aorta_env_free_envp(envp);
    }
    if (error)
        aorta_diag_warn("rank %ld: %s/trial_%d: setup failed: %s", rank, cell->name, trial, error);
    int interrupted = error ? 0 : result.interrupted;
    /* Interrupted: no record, as rank 0 leaves no result.json; a later run
     * retries the cell. */
    if (!interrupted) {
        aorta_json_t *json = aorta_rank_record_json(rank, world, cell->name, trial, verdict,
                                                    error ? NULL : &result, error);
        if (aorta_json_write_file(record_path, json) != 0)
            aorta_diag_warn("rank %ld: cannot write %s: %s", rank, record_path, strerror(errno));
        aorta_json_free(json);
    }
    aorta_argv_free(argv);
    aorta_env_free(env);
    free(error);
    free(collect_rel);
    free(sub_dir);
    free(record_path);
    free(record_rel);
    return interrupted;
}

int aorta_rank_run_follower(const aorta_plan_t *plan, long rank, int *interrupted_by)
{
    *interrupted_by = 0;
    long world = aorta_rank_world_size();
    if (world <= rank)
        world = rank + 1;
    char *run_dir = aorta_plan_absolute_run_dir(plan);
    /* Rank 0 holds the lock; the others only make sure the tree exists. */
    if (!run_dir || aorta_mkdir_p(run_dir, 0755) != 0) {
        aorta_diag_error("rank %ld: cannot create the run directory %s: %s", rank, plan->run_dir,
                         strerror(errno));
        free(run_dir);
        return -1;
    }
    aorta_env_t *base = aorta_env_from_environ(environ);
    double grace = aorta_run_kill_grace();
    long budget = aorta_plan_trial_budget(plan);
    int interrupted = 0;
    for (size_t c = 0; c < plan->cell_count && !interrupted; c++) {
        const char *cell = plan->cells[c].name;
        /* Rank 0 resumes it too; with --fresh it empties the cells and
         * resumes none. */
        if (!plan->fresh && aorta_rank_results_complete(run_dir, cell, budget)
            && aorta_rank_records_complete(run_dir, cell, budget, world))
            continue; /* rank 0 resumes it too */
        for (long t = -plan->warmup_trials; t < budget && !interrupted; t++) {
            interrupted = aorta_spawn_take_interrupt();
            if (!interrupted)
                interrupted = follow_trial(plan, run_dir, base, c, (int)t, rank, world, grace);
        }
    }
    aorta_env_free(base);
    free(run_dir);
    fflush(stdout);
    *interrupted_by = interrupted;
    return 0;
}
