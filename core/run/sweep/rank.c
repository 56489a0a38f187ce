/* SPDX-License-Identifier: MIT */
/* rank.c - aorta-run under a launcher. */
#include "config.h"

#include "sys/diag.h"
#include "sweep/rank.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "sweep/rank_env.h"
#include "sys/spawn.h"
#include "sweep/run.h"
#include "record/layout.h"
#include "sys/json.h"
#include "record/trial_json.h"
#include "sweep/compose.h"
#include "sweep/order.h"
#include "record/rank_record.h"
#include "sys/files.h"
#include "sys/nofollow.h"
#include "sys/quote.h"
#include "xalloc.h"

extern char **environ;

long ar_rank_detect(void)
{
    long rank = 0;
    const char *var = NULL, *text = NULL;
    if (ar_rank_read(&rank, &var, &text) < 0) {
        ar_diag_warn("%s='%s' is not a rank (an integer from 0 to %d); running as rank 0", var,
                        text, AR_RANK_MAX - 1);
        return 0;
    }
    return rank;
}

long ar_rank_world(void)
{
    const char *var = NULL, *text = NULL;
    long world = ar_rank_world_size(&var, &text);
    if (world < 0) {
        char *quoted = ar_repr_str(text);
        ar_diag_error("%s=%s is more ranks than aorta-run supports (at most %d)", var, quoted,
                         AR_RANK_MAX);
        free(quoted);
    }
    return world;
}

int ar_rank_is_launched(void)
{
    long rank = 0;
    const char *var = NULL, *text = NULL;
    return ar_rank_read(&rank, &var, &text) != 0;
}

void ar_rank_note_bare(long rank)
{
    /* Once per process, so a user who expected every rank profiled is told. */
    ar_diag_warn("rank %ld runs the command without collectors and records nothing; rank 0 "
                    "records the run (pass --all-ranks, or all_ranks: true in the recipe, to "
                    "profile every rank)",
                    rank);
}

/* Run fn for each trial of the plan's order from start[cell] on (NULL:
 * every trial), a cell's warm-ups (-1, -2, ...) just before its first, as
 * rank 0 runs them (sweep/rounds.c).  Stops at the first interrupt, which
 * it returns. */
static int walk_order(const ar_plan_t *plan, const long *start,
                      int (*fn)(void *user, size_t cell, int trial), void *user)
{
    size_t count = 0;
    ar_slot_t *slots = ar_order_sequence(plan, &count);
    char *begun = ar_xcalloc(plan->cell_count + 1, 1);
    int interrupted = 0;
    for (size_t i = 0; i < count && !interrupted; i++) {
        size_t c = slots[i].cell;
        if (start && slots[i].trial < start[c])
            continue;
        for (long w = 1; !begun[c] && w <= plan->warmup_trials && !interrupted; w++) {
            interrupted = ar_spawn_take_interrupt();
            if (!interrupted)
                interrupted = fn(user, c, (int)-w);
        }
        begun[c] = 1;
        if (!interrupted)
            interrupted = ar_spawn_take_interrupt();
        if (!interrupted)
            interrupted = fn(user, c, (int)slots[i].trial);
    }
    free(begun);
    free(slots);
    return interrupted;
}

typedef struct bare {
    const ar_plan_t *plan;
    aorta_env_t *base;
    double grace;
} bare_t;

/* One trial of a bare rank: the command alone, in the cell's variables. */
static int bare_trial(void *user, size_t cell_index, int trial)
{
    (void)trial;
    const bare_t *bare = user;
    const ar_plan_t *plan = bare->plan;
    aorta_env_t *env = aorta_env_dup(bare->base);
    const aorta_env_t *cell_env = plan->cells[cell_index].env;
    for (size_t i = 0; i < aorta_env_count(cell_env); i++)
        aorta_env_set(env, aorta_env_name_at(cell_env, i), aorta_env_value_at(cell_env, i));
    char **envp = aorta_env_to_envp(env);
    ar_spawn_result_t result;
    int interrupted = 0;
    if (ar_spawn_run_fds(aorta_argv_items(plan->command), envp, -1, -1, plan->timeout_sec,
                         bare->grace, &result)
        == 0)
        interrupted = result.interrupted;
    aorta_env_free_envp(envp);
    aorta_env_free(env);
    return interrupted;
}

int ar_rank_run_bare(const ar_plan_t *plan)
{
    bare_t bare = {plan, aorta_env_from_environ(environ), ar_run_kill_grace()};
    int interrupted = walk_order(plan, NULL, bare_trial, &bare);
    aorta_env_free(bare.base);
    fflush(stdout);
    return interrupted;
}

/* The record's folder <cell>/_subprocess, opened (created) from the run
 * directory down without following a symlink: the payload may have swapped
 * any component for one.  -1 with *error set. */
static int open_record_dir(int run_fd, const char *cell, char **error)
{
    char *sub_rel = ar_xasprintf("%s/" AR_WORKLOAD, cell);
    int fd = ar_nofollow_open_dir(run_fd, sub_rel, 1, error);
    free(sub_rel);
    return fd;
}

/* The trial began by removing this rank's last record, and only a process
 * of rank `rank` writes one: a record there now was written by another
 * process that claims the same rank while this trial ran (a launcher that
 * set the same rank variables twice).  Said once per process, as
 * aorta-rank-exec says it. */
static void note_twin(int sub_fd, const char *name, long rank, const char *run_dir,
                      const char *rel)
{
    static int said;
    struct stat st;
    if (said || fstatat(sub_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return;
    said = 1;
    ar_diag_warn("rank %ld: %s/%s already exists: another process of this job has rank %ld "
                    "too (each rank must be started once: check the launcher's rank "
                    "variables); its records are replaced by this one's, and rank 0 cannot "
                    "tell the two apart",
                    rank, run_dir, rel, rank);
}

/* Write rank's record of a trial that was not interrupted, through a
 * descriptor opened again now (the payload ran in between): a symlink
 * where a folder goes is a warning, never a write elsewhere. */
static void write_record(const ar_plan_t *plan, int run_fd, size_t cell_index, int trial,
                         long rank, long world, const char *verdict,
                         const ar_spawn_result_t *result, const char *error)
{
    const char *cell = plan->cells[cell_index].name;
    char *rel = ar_rank_record_rel(cell, trial, rank);
    const char *name = strrchr(rel, '/') + 1;
    char *why = NULL;
    int fd = open_record_dir(run_fd, cell, &why);
    if (fd >= 0) {
        note_twin(fd, name, rank, plan->run_dir, rel);
        ar_json_t *json = ar_rank_record_json(rank, world, cell, trial, verdict,
                                                    error ? NULL : result, error);
        if (ar_json_write_file_at(fd, name, json) != 0)
            why = ar_xstrdup(strerror(errno));
        ar_json_free(json);
        close(fd);
    }
    if (why)
        ar_diag_warn("rank %ld: cannot write %s/%s: %s", rank, plan->run_dir, rel, why);
    free(why);
    free(rel);
}

/* The trial's environment: the launcher's, the cell's variables, and
 * under env_passthrough_mode: file the probe.env rank 0 writes. */
static aorta_env_t *trial_env(const ar_plan_t *plan, const char *run_dir,
                              const aorta_env_t *base, const ar_cell_t *cell, int trial)
{
    aorta_env_t *env = aorta_env_dup(base);
    for (size_t i = 0; i < aorta_env_count(cell->env); i++)
        aorta_env_set(env, aorta_env_name_at(cell->env, i), aorta_env_value_at(cell->env, i));
    if (strcmp(plan->env_passthrough_mode, "file") == 0) {
        /* Rank 0 writes the file; every rank's command reads the same one. */
        char *trial_rel = ar_trial_dir_rel(cell->name, trial);
        char *path = ar_xasprintf("%s/%s/probe.env", run_dir, trial_rel);
        aorta_env_set(env, "AORTA_ENV_FILE", path);
        free(path);
        free(trial_rel);
    }
    return env;
}

/* One trial of rank rank > 0 of an --all-ranks run: its captures under
 * each collector's rank<rank>/, its record beside rank 0's trial JSON,
 * every write below the run directory through descriptors opened without
 * following a symlink.  Returns the interrupting signal, else 0. */
static int follow_trial(const ar_plan_t *plan, const char *run_dir, int run_fd,
                        const aorta_env_t *base, size_t cell_index, int trial, long rank,
                        long world, double grace)
{
    const ar_cell_t *cell = &plan->cells[cell_index];
    char *collect_rel = ar_trial_collect_rel(cell->name, trial);
    char *error = NULL;
    int sub_fd = open_record_dir(run_fd, cell->name, &error);
    if (sub_fd >= 0) {
        /* the last attempt's; rank 0 must not take it for this one */
        char *rel = ar_rank_record_rel(cell->name, trial, rank);
        unlinkat(sub_fd, strrchr(rel, '/') + 1, 0);
        free(rel);
        close(sub_fd);
    }
    aorta_env_t *env = trial_env(plan, run_dir, base, cell, trial);
    aorta_argv_t *argv = NULL;
    if (!error)
        ar_compose(plan, plan->command, run_dir, collect_rel, env, 1, rank, &argv, &error);
    ar_spawn_result_t result;
    memset(&result, 0, sizeof result);
    const char *verdict = "error";
    if (!error) {
        char **envp = aorta_env_to_envp(env);
        if (ar_spawn_run_fds(aorta_argv_items(argv), envp, -1, -1, plan->timeout_sec, grace,
                                &result)
            != 0)
            error = ar_xasprintf("cannot run the command: %s", strerror(errno));
        else
            verdict = result.launched && !result.timed_out && result.exit_code == 0 ? "pass"
                                                                                    : "fail";
        aorta_env_free_envp(envp);
    }
    if (error)
        ar_diag_warn("rank %ld: %s/trial_%d: setup failed: %s", rank, cell->name, trial, error);
    int interrupted = error ? 0 : result.interrupted;
    /* Interrupted: no record, as rank 0 leaves no result.json; a later run
     * retries the cell. */
    if (!interrupted)
        write_record(plan, run_fd, cell_index, trial, rank, world, verdict, &result, error);
    aorta_argv_free(argv);
    aorta_env_free(env);
    free(error);
    free(collect_rel);
    return interrupted;
}

typedef struct follower {
    const ar_plan_t *plan;
    const char *run_dir;
    int run_fd;
    aorta_env_t *base;
    long rank, world;
    double grace;
} follower_t;

static int follow_one(void *user, size_t cell_index, int trial)
{
    const follower_t *f = user;
    return follow_trial(f->plan, f->run_dir, f->run_fd, f->base, cell_index, trial, f->rank,
                        f->world, f->grace);
}

/* The first trial of each cell this rank runs, by the rule rank 0 resumes
 * by: none with --fresh; a cell complete for every rank is skipped; in
 * rounds (interleaved or random order) a cell continues after its
 * complete prefix. */
static long *follower_starts(const ar_plan_t *plan, const char *run_dir, long world)
{
    long budget = ar_plan_trial_budget(plan);
    long *start = ar_xcalloc(plan->cell_count + 1, sizeof *start);
    for (size_t c = 0; !plan->fresh && c < plan->cell_count; c++) {
        const char *cell = plan->cells[c].name;
        if (plan->order != AR_ORDER_SEQUENTIAL)
            start[c] = ar_rank_complete_prefix(run_dir, cell, budget, world);
        else if (ar_rank_results_complete(run_dir, cell, budget)
                 && ar_rank_records_complete(run_dir, cell, budget, world))
            start[c] = budget;
    }
    return start;
}

int ar_rank_run_follower(const ar_plan_t *plan, long rank, long world, int *interrupted_by)
{
    *interrupted_by = 0;
    if (world <= rank)
        world = rank + 1;
    char *run_dir = ar_plan_absolute_run_dir(plan);
    int run_fd = -1;
    /* Rank 0 holds the lock; the others only make sure the tree exists. */
    if (!run_dir || ar_mkdir_p(run_dir, 0755) != 0
        || (run_fd = open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        ar_diag_error("rank %ld: cannot create the run directory %s: %s", rank, plan->run_dir,
                         strerror(errno));
        free(run_dir);
        return -1;
    }
    follower_t f = {plan, run_dir, run_fd, aorta_env_from_environ(environ), rank, world,
                    ar_run_kill_grace()};
    long *start = follower_starts(plan, run_dir, world);
    int interrupted = walk_order(plan, start, follow_one, &f);
    free(start);
    aorta_env_t *base = f.base;
    aorta_env_free(base);
    close(run_fd);
    free(run_dir);
    fflush(stdout);
    *interrupted_by = interrupted;
    return 0;
}
