/* SPDX-License-Identifier: MIT */
/* sweep.c - the sweep.
 *
 * Rank 0 only (others run the bare command, rank.c): the absolute run
 * directory, the lock, the environment snapshot (once, after the lock), then
 * per cell either the resumed trials or a fresh run from trial 0 (stopped
 * early by stop_after), then matrix.json and perf.md, even after an
 * interrupt, which ends the sweep between or during trials. */
#include "config.h"

#include "sys/diag.h"
#include "sweep/sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sys/clock.h"
#include "sys/files.h"
#include "aorta/collector.h"
#include "output/host_env.h"
#include "sweep/lock.h"
#include "output/matrix.h"
#include "output/cell_reports.h"
#include "output/perf_md.h"
#include "output/provenance.h"
#include "sys/live.h"
#include "sweep/progress.h"
#include "sweep/rank.h"
#include "sweep/rank_env.h"
#include "sweep/resume.h"
#include "output/sha256.h"
#include "sys/nofollow.h"
#include "sys/spawn.h"
#include "output/summary.h"
#include "sweep/trial.h"
#include "record/layout.h"
#include "xalloc.h"

extern char **environ;

static const char *signal_name(int sig)
{
    return sig == SIGTERM ? "SIGTERM" : "SIGINT";
}

static void log_trial(const aorta_plan_t *plan, int index, long total,
                      const aorta_outcome_t *outcome)
{
    aorta_progress(plan->verbose, "trial %d/%ld: %s in %.1fs (exit_status=%s)", index + 1, total,
                   !strcmp(outcome->verdict, "pass") ? "passed" : "FAILED",
                   outcome->wall_clock_sec, outcome->exit_status);
}

/* The cell's warm-up trials (indices -1, -2, ...): recorded as such, left
 * out of its result.  Returns the interrupting signal, else 0. */
static int run_warmups(const aorta_run_ctx_t *ctx, size_t index)
{
    const aorta_plan_t *plan = ctx->plan;
    for (long w = 1; w <= plan->warmup_trials; w++) {
        int interrupted = aorta_spawn_take_interrupt();
        if (interrupted)
            return interrupted;
        aorta_progress(plan->verbose, "warm-up trial %ld/%ld: starting", w, plan->warmup_trials);
        aorta_outcome_t outcome;
        interrupted = aorta_trial_run(ctx, index, (int)-w, &outcome);
        aorta_progress(plan->verbose, "warm-up trial %ld/%ld: %s (left out)", w,
                       plan->warmup_trials, outcome.verdict);
        aorta_outcome_clear(&outcome);
        if (interrupted)
            return interrupted;
    }
    return 0;
}

/* Run cell index from trial 0; returns the interrupting signal, else 0. */
static int run_cell(const aorta_run_ctx_t *ctx, size_t index, aorta_cell_result_t *result)
{
    const aorta_plan_t *plan = ctx->plan;
    const aorta_cell_t *cell = &plan->cells[index];
    long total = aorta_plan_trial_budget(plan);
    aorta_progress(plan->verbose,
                   "run_trials: workload=" AORTA_WORKLOAD " environment=local mitigations=['%s', "
                   "'%s'] trials=%ld steps=1",
                   cell->mitigation, cell->diagnostic, total);
    long events = 0;
    int warm_interrupt = run_warmups(ctx, index);
    if (warm_interrupt)
        return warm_interrupt;
    for (long t = 0; t < total; t++) {
        int interrupted = aorta_spawn_take_interrupt();
        if (interrupted)
            return interrupted;
        aorta_progress(plan->verbose, "trial %ld/%ld: starting", t + 1, total);
        aorta_live_trial_start(index, cell->name, t);
        aorta_outcome_t outcome;
        double started = aorta_clock_monotonic();
        interrupted = aorta_trial_run(ctx, index, (int)t, &outcome);
        aorta_live_trial_done(outcome.verdict, aorta_clock_monotonic() - started);
        log_trial(plan, (int)t, total, &outcome);
        int event = plan->has_stop_after && !strcmp(outcome.verdict, plan->stop_event_verdict);
        aorta_cell_result_add(result, &outcome);
        if (interrupted)
            return interrupted;
        events += event;
        if (plan->has_stop_after && events >= plan->stop_events) {
            if (t + 1 < total)
                aorta_progress(plan->verbose,
                               "stop_after: %ld '%s' event(s) observed in %ld trial(s) "
                               "(target %ld, cap %ld) -- stopping cell early",
                               events, plan->stop_event_verdict, t + 1, plan->stop_events,
                               plan->stop_max_trials);
            result->stop_after_note = aorta_resume_stop_note(plan, events, t + 1);
            break;
        }
    }
    return 0;
}

/* "env probe ... is partial" when the snapshot could not see everything. */
static void snapshot_warning(aorta_json_t *warnings, aorta_json_t *snapshot)
{
    aorta_json_t *reasons = aorta_json_get(snapshot, "partial_reasons");
    if (aorta_json_length(reasons) == 0)
        return;
    size_t len = 0;
    for (size_t i = 0; i < aorta_json_length(reasons); i++)
        len += strlen(aorta_json_get_string(aorta_json_at(reasons, i))) + 2;
    char *joined = aorta_xcalloc(len + 1, 1);
    for (size_t i = 0; i < aorta_json_length(reasons); i++) {
        if (i)
            strcat(joined, "; ");
        strcat(joined, aorta_json_get_string(aorta_json_at(reasons, i)));
    }
    char *text = aorta_xasprintf("env probe for scope 'host' is partial: %s. See host_env.json "
                                 "for details.",
                                 joined);
    aorta_json_append(warnings, aorta_json_string(text));
    free(text);
    free(joined);
}

/* The program a wrapped trial ran first when it is not the command's own:
 * the outermost profiler (argv[0] of the first result.json that has one),
 * else NULL.  Read below the run directory without following a link. */
static char *profiler_program(const aorta_run_ctx_t *ctx, const aorta_cell_result_t *results)
{
    const aorta_plan_t *plan = ctx->plan;
    char *program = NULL;
    aorta_json_reader_t *reader = aorta_json_reader_new(16);
    for (size_t c = 0; plan->collector_count && !program && c < plan->cell_count; c++) {
        if (results[c].count == 0)
            continue;
        char *rel = aorta_trial_dir_rel(plan->cells[c].name, results[c].outcomes[0].trial_index);
        char *why = NULL;
        int fd = aorta_nofollow_open_dir(ctx->run_fd, rel, 0, &why);
        aorta_json_t *record = fd >= 0 ? aorta_json_reader_read_at(reader, fd, "result.json",
                                                                   1u << 20)
                                       : NULL;
        const char *first = aorta_json_get_string(aorta_json_at(aorta_json_get(record, "argv"), 0));
        if (first && strcmp(first, aorta_argv_at(plan->command, 0)) != 0)
            program = aorta_xstrdup(first);
        aorta_json_free(record);
        if (fd >= 0)
            close(fd);
        free(why);
        free(rel);
    }
    aorta_json_reader_free(reader);
    return program;
}

/* matrix.json, then the kernel reports and perf.md, each reported when it
 * fails; returns the AORTA_SUMMARY_NO_* flags of those not written.  A
 * signal during the kernel reports stops them (*interrupted set): matrix.json
 * is written by then, and --report writes the rest. */
/* A run that resumed cells keeps its first run's timestamp and wall time
 * beside its own (docs/design.md, Output tree): first_run_timestamp and
 * first_run_wall_clock_sec, carried from the matrix.json it resumes (its
 * own first_run_* when it was a resume too).  Nothing when no cell was
 * resumed or there is no readable matrix.json. */
static void carry_first_run(const aorta_run_ctx_t *ctx, const aorta_cell_result_t *results,
                            aorta_json_t *matrix)
{
    size_t resumed = 0;
    for (size_t i = 0; i < ctx->plan->cell_count; i++)
        resumed += results[i].resumed != 0;
    if (!resumed)
        return;
    aorta_json_t *prior = aorta_json_read_file_at(ctx->run_fd, "matrix.json", 256u << 20, 64);
    if (!prior)
        return;
    static const char *const keys[][2] = {{"first_run_timestamp", "run_timestamp"},
                                          {"first_run_wall_clock_sec", "run_wall_clock_sec"}};
    for (size_t k = 0; k < 2; k++) {
        aorta_json_t *value = aorta_json_get(prior, keys[k][0]);
        if (!value)
            value = aorta_json_get(prior, keys[k][1]);
        aorta_json_type_t type = aorta_json_type(value);
        if (k == 0 ? type == AORTA_JSON_STRING
                   : type == AORTA_JSON_DOUBLE || type == AORTA_JSON_INT)
            aorta_json_set(matrix, keys[k][0], aorta_json_ref(value));
    }
    aorta_json_free(prior);
}

static int write_reports(const aorta_run_ctx_t *ctx, const aorta_cell_result_t *results,
                         const char *stamp, aorta_json_t *warnings, double wall_sec,
                         int *interrupted)
{
    const aorta_plan_t *plan = ctx->plan;
    char digest[65];
    int have_digest = plan->recipe_path && aorta_sha256_file(plan->recipe_path, digest) == 0;
    aorta_json_t *matrix = aorta_matrix_json(plan, results, stamp, warnings,
                                             have_digest ? digest : NULL);
    /* On record, so --report rebuilds perf.md with it (this project's key,
     * after upstream's). */
    aorta_json_set(matrix, "run_wall_clock_sec", aorta_json_double(wall_sec));
    carry_first_run(ctx, results, matrix);
    char *program = profiler_program(ctx, results);
    aorta_json_set(matrix, "provenance",
                   aorta_provenance_json(plan, aorta_run_snapshot(ctx, 0), program));
    free(program);
    int status = 0;
    char *matrix_path = aorta_xasprintf("%s/matrix.json", ctx->run_dir);
    if (aorta_json_write_file_at(ctx->run_fd, "matrix.json", matrix) != 0) {
        aorta_diag_error("cannot write %s: %s", matrix_path, strerror(errno));
        status |= AORTA_SUMMARY_NO_MATRIX;
    }
    free(matrix_path);
    char *kernel_error = NULL;
    size_t rank_cells = 0;
    char *kernels = aorta_cell_reports_write(ctx->run_fd, ctx->display_dir, matrix,
                                             plan->kernel_baseline, &kernel_error, interrupted,
                                             &rank_cells);
    /* Again, with the rank views the tables gave (matrix.json first, so that
     * an interrupted report still leaves it). */
    if (rank_cells && !(status & AORTA_SUMMARY_NO_MATRIX)
        && aorta_json_write_file_at(ctx->run_fd, "matrix.json", matrix) != 0) {
        aorta_diag_error("cannot write %s/matrix.json: %s", ctx->run_dir, strerror(errno));
        status |= AORTA_SUMMARY_NO_MATRIX;
    }
    if (kernel_error) {
        aorta_diag_error("%s", kernel_error);
        free(kernel_error);
        status |= AORTA_SUMMARY_INCOMPLETE;
    }
    if (*interrupted) {
        aorta_diag_reports_interrupted(*interrupted, ctx->display_dir);
        aorta_json_free(matrix);
        return status | AORTA_SUMMARY_NO_PERF | AORTA_SUMMARY_INCOMPLETE;
    }
    /* The kernel section only follows what perf.md already says. */
    char *perf = aorta_perf_md(matrix, wall_sec, NULL);
    perf = aorta_xrealloc(perf, strlen(perf) + strlen(kernels) + 1);
    strcat(perf, kernels);
    free(kernels);
    char *perf_path = aorta_xasprintf("%s/perf.md", ctx->run_dir);
    if (aorta_write_file_atomic_at(ctx->run_fd, "perf.md", perf, strlen(perf)) != 0) {
        aorta_diag_error("cannot write %s: %s", perf_path, strerror(errno));
        status |= AORTA_SUMMARY_NO_PERF;
    }
    free(perf);
    free(perf_path);
    aorta_json_free(matrix);
    return status;
}

static void sweep(const aorta_run_ctx_t *ctx, aorta_cell_result_t *results, int *interrupted)
{
    const aorta_plan_t *plan = ctx->plan;
    for (size_t c = 0; c < plan->cell_count; c++) {
        const aorta_cell_t *cell = &plan->cells[c];
        if (!*interrupted)
            *interrupted = aorta_spawn_take_interrupt();
        if (*interrupted) {
            results[c].error = aorta_xasprintf("not run: aorta-run was interrupted by %s",
                                               signal_name(*interrupted));
            aorta_progress(plan->verbose, "cell %zu/%zu: %s -- ERROR (%s) in 0.0s", c + 1,
                           plan->cell_count, cell->name, results[c].error);
            continue;
        }
        double started = aorta_clock_monotonic();
        long total = aorta_plan_trial_budget(plan);
        aorta_progress(plan->verbose,
                       "cell %zu/%zu: %s (mitigations=['%s', '%s'] environment=local) -- "
                       "starting %s%ld trial(s)",
                       c + 1, plan->cell_count, cell->name, cell->mitigation, cell->diagnostic,
                       plan->has_stop_after ? "up to " : "", total);
        int resumed = aorta_resume_cell(ctx, c, &results[c]);
        if (!resumed)
            *interrupted = run_cell(ctx, c, &results[c]);
        aorta_live_cell_done(resumed ? 0 : (long)results[c].count);
        aorta_cell_counts_t counts;
        aorta_cell_counts(&results[c], &counts);
        char *iters = aorta_cell_iters_display(&results[c]);
        aorta_progress(plan->verbose, "cell %zu/%zu: %s -- %s in %.1fs [outcome: %zu/%zu "
                                      "completed | iters: %s]",
                       c + 1, plan->cell_count, cell->name,
                       resumed ? "resumed (cached, no re-run)" : "done",
                       aorta_clock_monotonic() - started, counts.launched, counts.trials, iters);
        free(iters);
    }
}

/* Everything after the lock: snapshot, sweep, reports. */
static void locked_run(aorta_run_ctx_t *ctx, aorta_sweep_end_t *end)
{
    const aorta_plan_t *plan = ctx->plan;
    double started = aorta_clock_monotonic();
    int interrupted = 0;
    /* Its Triton probe runs beside the first trial (collected there). */
    ctx->host_env = aorta_host_env_start(environ, aorta_argv_items(plan->command));

    char stamp[AORTA_CLOCK_TEXT];
    aorta_clock_stamp_utc(time(NULL), stamp);
    aorta_progress(plan->verbose,
                   "matrix run started: workload=" AORTA_WORKLOAD " ticket=%s cells=%zu "
                   "trials/cell=%ld steps/trial=1 output=%s",
                   plan->ticket ? plan->ticket : "(none)", plan->cell_count,
                   aorta_plan_trial_budget(plan),
                   ctx->display_dir);
    aorta_cell_result_t *results = aorta_xcalloc(plan->cell_count + 1, sizeof *results);
    aorta_live_begin(stderr, STDERR_FILENO, plan->quiet, plan->cell_count,
                     aorta_plan_trial_budget(plan));
    sweep(ctx, results, &interrupted);
    aorta_live_end();

    aorta_json_t *warnings = aorta_json_array();
    /* A run that ran no trial (all resumed, or interrupted first) collects
     * it here. */
    snapshot_warning(warnings, aorta_run_snapshot(ctx, interrupted));
    if (interrupted) {
        char *text = aorta_xasprintf("the sweep was interrupted by %s; the interrupted trial is "
                                     "an error without result.json, so the next run retries its "
                                     "cell",
                                     signal_name(interrupted));
        aorta_json_append(warnings, aorta_json_string(text));
        free(text);
    }
    double wall_sec = aorta_clock_monotonic() - started;
    int report_interrupt = 0;
    int missing = write_reports(ctx, results, stamp, warnings, wall_sec, &report_interrupt);
    if (*ctx->write_failed)
        missing |= AORTA_SUMMARY_INCOMPLETE;
    end->incomplete = missing != 0;
    /* Nothing was measured: a run is not "completed" then (docs/design.md,
     * Exit status). */
    end->nothing_measured = aorta_summary_none_started(plan, results);
    end->failed_trials = aorta_summary_failed_trials(plan, results);
    aorta_json_free(warnings);
    aorta_summary_print_failure_log(stdout, plan, results, ctx->run_fd, ctx->display_dir);
    aorta_summary_print(stdout, plan, results, ctx->display_dir, interrupted, missing, wall_sec);
    for (size_t i = 0; i < plan->cell_count; i++)
        aorta_cell_result_clear(&results[i]);
    free(results);
    /* The sweep was whole when its reports were not. */
    end->interrupted = interrupted ? interrupted : report_interrupt;
}

/* Under the lock, before anything runs: --fresh empties the plan's cell
 * directories (nothing else of the run directory, no symlink followed);
 * then a cell holding another request's trials refuses the run.  0, or -1
 * with the reason reported and *end set. */
static int prepare_cells(const aorta_run_ctx_t *ctx, aorta_sweep_end_t *end)
{
    const aorta_plan_t *plan = ctx->plan;
    for (size_t c = 0; plan->fresh && c < plan->cell_count; c++) {
        char *why = NULL;
        if (aorta_nofollow_remove_tree_at(ctx->run_fd, plan->cells[c].name, &why) != 0) {
            aorta_diag_error("--fresh: cannot empty %s/%s: %s", ctx->display_dir,
                             plan->cells[c].name, why);
            free(why);
            end->incomplete = 1;
            return -1;
        }
    }
    char *error = NULL;
    if (aorta_resume_check(ctx, &error) != 0) {
        aorta_diag_error("%s", error);
        free(error);
        end->stale = 1;
        return -1;
    }
    return 0;
}

void aorta_sweep_run(const aorta_plan_t *plan, aorta_sweep_end_t *end)
{
    *end = (aorta_sweep_end_t){0, 0, 0, 0, 0};
    long rank = aorta_rank_detect();
    if (rank != 0 && aorta_plan_per_rank(plan)) {
        end->incomplete = aorta_rank_run_follower(plan, rank, &end->interrupted) != 0;
        return;
    }
    if (rank != 0) {
        aorta_rank_note_bare(rank);
        end->interrupted = aorta_rank_run_bare(plan);
        return;
    }
    int write_failed = 0;
    aorta_run_ctx_t ctx = {.plan = plan, .display_dir = plan->run_dir, .run_fd = -1,
                           .write_failed = &write_failed, .self_rank = -1};
    if (aorta_plan_per_rank(plan) && aorta_rank_is_launched()) {
        /* Rank 0 of --all-ranks: its captures in rank0/, the others' awaited. */
        ctx.self_rank = 0;
        ctx.wall_started = aorta_clock_wall();
        ctx.world_size = aorta_rank_world();
        if (ctx.world_size == 0)
            aorta_diag_warn("--all-ranks: no WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE or "
                            "SLURM_NTASKS; rank 0 records its own captures and waits for no "
                            "other rank");
    }
    ctx.run_dir = aorta_plan_absolute_run_dir(plan);
    if (!ctx.run_dir || aorta_mkdir_p(ctx.run_dir, 0755) != 0
        || (ctx.run_fd = open(ctx.run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        aorta_diag_error("cannot create the run directory %s: %s", plan->run_dir, strerror(errno));
        free(ctx.run_dir);
        end->incomplete = 1;
        return;
    }
    aorta_lock_t *lock = aorta_lock_acquire(ctx.run_dir);
    end->incomplete = lock == NULL;
    aorta_request_t *requests = aorta_request_compute(plan);
    ctx.requests = requests;
    if (lock && prepare_cells(&ctx, end) == 0) {
        ctx.base_env = aorta_env_from_environ(environ);
        ctx.kill_grace_sec = aorta_run_kill_grace();
        locked_run(&ctx, end);
    }
    if (lock)
        aorta_lock_release(lock);
    free(requests);
    aorta_host_env_free(ctx.host_env);
    aorta_env_free(ctx.base_env);
    close(ctx.run_fd);
    free(ctx.run_dir);
    fflush(stdout);
}
