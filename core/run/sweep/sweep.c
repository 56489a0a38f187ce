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
#include "record/gpu_state.h"
#include "record/host_env.h"
#include "record/lock.h"
#include "report/matrix.h"
#include "report/cell_reports.h"
#include "report/capture_gaps.h"
#include "report/perf_md.h"
#include "compare/provenance.h"
#include "sys/live.h"
#include "sweep/progress.h"
#include "sweep/rank.h"
#include "sweep/rank_env.h"
#include "sweep/order.h"
#include "sweep/resume.h"
#include "sweep/rounds.h"
#include "sys/sha256.h"
#include "sys/nofollow.h"
#include "sys/spawn.h"
#include "report/summary.h"
#include "sweep/trial.h"
#include "record/layout.h"
#include "xalloc.h"

extern char **environ;

/* How long a part waits for the run lock while another part of the
 * request writes the run's reports (decisions.md section 11, Clusters). */
#define AR_PART_LOCK_WAIT_SEC 120.0

static const char *signal_name(int sig)
{
    return sig == SIGTERM ? "SIGTERM" : "SIGINT";
}

/* "env probe ... is partial" when the snapshot could not see everything. */
static void snapshot_warning(ar_json_t *warnings, ar_json_t *snapshot)
{
    ar_json_t *reasons = ar_json_get(snapshot, "partial_reasons");
    if (ar_json_length(reasons) == 0)
        return;
    size_t len = 0;
    for (size_t i = 0; i < ar_json_length(reasons); i++)
        len += strlen(ar_json_get_string(ar_json_at(reasons, i))) + 2;
    char *joined = ar_xcalloc(len + 1, 1);
    for (size_t i = 0; i < ar_json_length(reasons); i++) {
        if (i)
            strcat(joined, "; ");
        strcat(joined, ar_json_get_string(ar_json_at(reasons, i)));
    }
    char *text = ar_xasprintf("env probe for scope 'host' is partial: %s. See host_env.json "
                                 "for details.",
                                 joined);
    ar_json_append(warnings, ar_json_string(text));
    free(text);
    free(joined);
}

/* The program a wrapped trial ran first when it is not the command's own:
 * the outermost profiler (argv[0] of the first result.json that has one),
 * else NULL.  Read below the run directory without following a link. */
static char *profiler_program(const ar_run_ctx_t *ctx, const ar_cell_result_t *results)
{
    const ar_plan_t *plan = ctx->plan;
    char *program = NULL;
    ar_json_reader_t *reader = ar_json_reader_new(16);
    for (size_t c = 0; plan->collector_count && !program && c < plan->cell_count; c++) {
        if (results[c].count == 0)
            continue;
        char *rel = ar_trial_dir_rel(plan->cells[c].name, results[c].outcomes[0].trial_index);
        char *why = NULL;
        int fd = ar_nofollow_open_dir(ctx->run_fd, rel, 0, &why);
        ar_json_t *record = fd >= 0 ? ar_json_reader_read_at(reader, fd, "result.json",
                                                                   1u << 20)
                                       : NULL;
        const char *first = ar_json_get_string(ar_json_at(ar_json_get(record, "argv"), 0));
        if (first && strcmp(first, aorta_argv_at(plan->command, 0)) != 0)
            program = ar_xstrdup(first);
        ar_json_free(record);
        if (fd >= 0)
            close(fd);
        free(why);
        free(rel);
    }
    ar_json_reader_free(reader);
    return program;
}

/* The provenance's "gpu_before_trials": what the GPUs were doing before
 * the measured trials, resumed ones included (absent: none had a record). */
static void add_gpu_tally(const ar_plan_t *plan, const ar_cell_result_t *results,
                          ar_json_t *provenance)
{
    ar_gpu_tally_t tally;
    ar_gpu_tally_init(&tally);
    for (size_t c = 0; c < plan->cell_count; c++)
        for (size_t t = 0; t < results[c].count; t++)
            ar_gpu_tally_add(&tally, results[c].outcomes[t].gpu);
    ar_json_t *json = ar_gpu_tally_json(&tally);
    if (json)
        ar_json_set(provenance, "gpu_before_trials", json);
}

/* The version the outermost collector reports of its profiler (ABI 1.4's
 * profiler_version), asked in aorta-run's environment with the first
 * cell's variables; NULL when it has no such slot or cannot tell. */
static char *reported_profiler_version(const ar_run_ctx_t *ctx)
{
    const ar_plan_t *plan = ctx->plan;
    if (!plan->collector_count || !plan->collectors[0].module->collector.profiler_version)
        return NULL;
    aorta_env_t *env = aorta_env_dup(ctx->base_env);
    for (size_t i = 0; plan->cell_count && i < aorta_env_count(plan->cells[0].env); i++)
        aorta_env_set(env, aorta_env_name_at(plan->cells[0].env, i),
                      aorta_env_value_at(plan->cells[0].env, i));
    aorta_error_t *version = aorta_error_new();
    const ar_collect_entry_t *entry = &plan->collectors[0];
    int told = entry->module->collector.profiler_version(entry->effective, env, version) == 0;
    const char *text = aorta_error_message(version);
    char *result = told && text ? ar_xstrdup(text) : NULL;
    aorta_error_free(version);
    aorta_env_free(env);
    return result;
}

/* matrix.json's provenance: its profiler's version is the outermost
 * collector's own word when it gives one (ABI 1.4), else the first line of
 * `PROGRAM --version` (compare/provenance.c). */
static ar_json_t *provenance(const ar_run_ctx_t *ctx, const ar_cell_result_t *results)
{
    char *program = profiler_program(ctx, results);
    char *version = program ? reported_profiler_version(ctx) : NULL;
    ar_json_t *obj = ar_provenance_json(ctx->plan, ar_run_snapshot(ctx, 0),
                                        version ? NULL : program);
    if (version) {
        ar_json_t *profiler = ar_json_get(obj, "profiler");
        ar_json_set(profiler, "program", ar_json_string(program));
        ar_json_set(profiler, "version", ar_json_string(version));
    }
    free(version);
    free(program);
    return obj;
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
static void carry_first_run(const ar_run_ctx_t *ctx, const ar_cell_result_t *results,
                            ar_json_t *matrix)
{
    size_t resumed = 0;
    for (size_t i = 0; i < ctx->plan->cell_count; i++)
        resumed += results[i].resumed || results[i].resumed_trials;
    if (!resumed)
        return;
    ar_json_t *prior = ar_json_read_file_at(ctx->run_fd, "matrix.json", 256u << 20, 64);
    if (!prior)
        return;
    static const char *const keys[][2] = {{"first_run_timestamp", "run_timestamp"},
                                          {"first_run_wall_clock_sec", "run_wall_clock_sec"}};
    for (size_t k = 0; k < 2; k++) {
        ar_json_t *value = ar_json_get(prior, keys[k][0]);
        if (!value)
            value = ar_json_get(prior, keys[k][1]);
        ar_json_type_t type = ar_json_type(value);
        if (k == 0 ? type == AR_JSON_STRING
                   : type == AR_JSON_DOUBLE || type == AR_JSON_INT)
            ar_json_set(matrix, keys[k][0], ar_json_ref(value));
    }
    ar_json_free(prior);
}

static int write_reports(const ar_run_ctx_t *ctx, const ar_plan_t *whole,
                         const ar_cell_result_t *results, const char *stamp,
                         ar_json_t *warnings, double wall_sec, int *interrupted)
{
    const ar_plan_t *plan = ctx->plan;
    char digest[65];
    int have_digest = plan->recipe_path && ar_sha256_file(plan->recipe_path, digest) == 0;
    ar_json_t *matrix = ar_matrix_json(plan, results, stamp, warnings,
                                             have_digest ? digest : NULL);
    /* On record, so --report rebuilds perf.md with it (this project's key,
     * after upstream's). */
    ar_json_set(matrix, "run_wall_clock_sec", ar_json_double(wall_sec));
    carry_first_run(ctx, results, matrix);
    ar_json_set(matrix, "order", ar_order_json(whole)); /* every part's order */
    ar_json_t *prov = provenance(ctx, results);
    add_gpu_tally(plan, results, prov);
    ar_json_set(matrix, "provenance", prov);
    int status = 0;
    char *matrix_path = ar_xasprintf("%s/matrix.json", ctx->run_dir);
    if (ar_json_write_file_at(ctx->run_fd, "matrix.json", matrix) != 0) {
        ar_diag_error("cannot write %s: %s", matrix_path, strerror(errno));
        status |= AR_SUMMARY_NO_MATRIX;
    }
    free(matrix_path);
    char *kernel_error = NULL;
    size_t rank_cells = 0;
    char *kernels = ar_cell_reports_write(ctx->run_fd, ctx->display_dir, matrix,
                                             plan->kernel_baseline, &kernel_error, interrupted,
                                             &rank_cells);
    /* Again, with the rank views the tables gave (matrix.json first, so that
     * an interrupted report still leaves it). */
    if (rank_cells && !(status & AR_SUMMARY_NO_MATRIX)
        && ar_json_write_file_at(ctx->run_fd, "matrix.json", matrix) != 0) {
        ar_diag_error("cannot write %s/matrix.json: %s", ctx->run_dir, strerror(errno));
        status |= AR_SUMMARY_NO_MATRIX;
    }
    if (kernel_error) {
        ar_diag_error("%s", kernel_error);
        free(kernel_error);
        status |= AR_SUMMARY_INCOMPLETE;
    }
    if (*interrupted) {
        ar_diag_reports_interrupted(*interrupted, ctx->display_dir);
        ar_json_free(matrix);
        return status | AR_SUMMARY_NO_PERF | AR_SUMMARY_INCOMPLETE;
    }
    /* The kernel section only follows what perf.md already says. */
    char *perf = ar_perf_md(matrix, wall_sec, NULL);
    perf = ar_xrealloc(perf, strlen(perf) + strlen(kernels) + 1);
    strcat(perf, kernels);
    free(kernels);
    char *perf_path = ar_xasprintf("%s/perf.md", ctx->run_dir);
    if (ar_write_file_atomic_at(ctx->run_fd, "perf.md", perf, strlen(perf)) != 0) {
        ar_diag_error("cannot write %s: %s", perf_path, strerror(errno));
        status |= AR_SUMMARY_NO_PERF;
    }
    free(perf);
    free(perf_path);
    ar_capture_gaps_warn(matrix);
    ar_json_free(matrix);
    return status;
}

/* What the reports cover (--cells): every cell but another part's that
 * has no record yet.  *view is the plan, *vctx the context with those
 * cells left out, results moved up in their place (swapped: each result is
 * still cleared once); free view->cells and vctx->requests after. */
static void report_view(const ar_run_ctx_t *ctx, ar_cell_result_t *results, ar_plan_t *view,
                        ar_run_ctx_t *vctx)
{
    const ar_plan_t *plan = ctx->plan;
    *view = *plan;
    *vctx = *ctx;
    view->in_part = NULL;
    view->cells = ar_xcalloc(plan->cell_count + 1, sizeof *view->cells);
    ar_request_t *requests = ar_xcalloc(plan->cell_count + 1, sizeof *requests);
    size_t kept = 0;
    for (size_t c = 0; c < plan->cell_count; c++) {
        if (results[c].absent)
            continue;
        view->cells[kept] = plan->cells[c];
        if (ctx->requests)
            requests[kept] = ctx->requests[c];
        ar_cell_result_t swap = results[kept];
        results[kept++] = results[c];
        results[c] = swap;
    }
    view->cell_count = kept;
    vctx->plan = view;
    vctx->requests = ctx->requests ? requests : NULL;
    if (!ctx->requests)
        free(requests);
}

/* Every cell's trials in the plan's order; a cell that had not begun
 * when the sweep was interrupted is an error. */
static void sweep(const ar_run_ctx_t *ctx, ar_cell_result_t *results, int *interrupted)
{
    const ar_plan_t *plan = ctx->plan;
    *interrupted = ar_rounds_run(ctx, results);
    for (size_t c = 0; *interrupted && c < plan->cell_count; c++) {
        if (results[c].count || results[c].resumed || results[c].absent)
            continue;
        results[c].error = ar_xasprintf("not run: aorta-run was interrupted by %s",
                                        signal_name(*interrupted));
        ar_progress(plan->verbose, "cell %zu/%zu: %s -- ERROR (%s) in 0.0s", c + 1,
                    plan->cell_count, plan->cells[c].name, results[c].error);
    }
}

/* Everything after the lock: snapshot, sweep, reports. */
static void locked_run(ar_run_ctx_t *ctx, ar_sweep_end_t *end)
{
    const ar_plan_t *plan = ctx->plan;
    double started = ar_clock_monotonic();
    int interrupted = 0;
    /* Its Triton probe runs beside the first trial (collected there). */
    ctx->host_env = ar_host_env_start(environ, aorta_argv_items(plan->command));

    char stamp[AR_CLOCK_TEXT];
    ar_clock_stamp_utc(time(NULL), stamp);
    ar_progress(plan->verbose,
                   "matrix run started: workload=" AR_WORKLOAD " ticket=%s cells=%zu "
                   "trials/cell=%ld steps/trial=1 output=%s",
                   plan->ticket ? plan->ticket : "(none)", plan->cell_count,
                   ar_plan_trial_budget(plan),
                   ctx->display_dir);
    ar_cell_result_t *results = ar_xcalloc(plan->cell_count + 1, sizeof *results);
    ar_live_begin(stderr, STDERR_FILENO, plan->quiet, plan->cell_count,
                     ar_plan_trial_budget(plan));
    sweep(ctx, results, &interrupted);
    ar_live_end();

    ar_json_t *warnings = ar_json_array();
    /* A run that ran no trial (all resumed, or interrupted first) collects
     * it here. */
    snapshot_warning(warnings, ar_run_snapshot(ctx, interrupted));
    if (interrupted) {
        char *text = ar_xasprintf("the sweep was interrupted by %s; the interrupted trial is "
                                     "an error without result.json, so the next run retries its "
                                     "cell",
                                     signal_name(interrupted));
        ar_json_append(warnings, ar_json_string(text));
        free(text);
    }
    double wall_sec = ar_clock_monotonic() - started;
    int report_interrupt = 0;
    /* A part writes the run's reports under the run lock, held this long
     * only, with every part's records as they are then. */
    ar_lock_t *report_lock = NULL;
    if (ar_plan_is_part(plan)) {
        report_lock = ar_lock_wait(ctx->run_dir, AR_PART_LOCK_WAIT_SEC);
        for (size_t c = 0; report_lock && c < plan->cell_count; c++)
            ar_rounds_read_part(ctx, c, &results[c]);
    }
    ar_plan_t view;
    ar_run_ctx_t vctx;
    report_view(ctx, results, &view, &vctx);
    plan = &view;
    int missing = ar_plan_is_part(ctx->plan) && !report_lock
                      ? AR_SUMMARY_NO_MATRIX | AR_SUMMARY_NO_PERF | AR_SUMMARY_INCOMPLETE
                      : write_reports(&vctx, ctx->plan, results, stamp, warnings, wall_sec,
                                      &report_interrupt);
    ar_lock_release(report_lock);
    if (*ctx->write_failed)
        missing |= AR_SUMMARY_INCOMPLETE;
    end->incomplete = missing != 0;
    /* Nothing was measured: a run is not "completed" then (docs/design.md,
     * Exit status). */
    end->nothing_measured = ar_summary_none_started(plan, results);
    end->failed_trials = ar_summary_failed_trials(plan, results);
    ar_json_free(warnings);
    FILE *out = plan->summary_to_stderr ? stderr : stdout;
    ar_summary_print_failure_log(out, plan, results, ctx->run_fd, ctx->display_dir);
    ar_summary_print(out, plan, results, ctx->display_dir, interrupted, missing, wall_sec);
    for (size_t i = 0; i < ctx->plan->cell_count; i++)
        ar_cell_result_clear(&results[i]);
    free(results);
    free(view.cells);
    free((void *)vctx.requests);
    /* The sweep was whole when its reports were not. */
    end->interrupted = interrupted ? interrupted : report_interrupt;
}

/* Under the lock, before anything runs: --fresh empties the plan's cell
 * directories (nothing else of the run directory, no symlink followed);
 * then a cell holding another request's trials refuses the run.  0, or -1
 * with the reason reported and *end set. */
static int prepare_cells(const ar_run_ctx_t *ctx, ar_sweep_end_t *end)
{
    const ar_plan_t *plan = ctx->plan;
    for (size_t c = 0; plan->fresh && c < plan->cell_count; c++) {
        if (!ar_plan_runs_cell(plan, c))
            continue; /* another part's */
        char *why = NULL;
        if (ar_nofollow_remove_tree_at(ctx->run_fd, plan->cells[c].name, &why) != 0) {
            ar_diag_error("--fresh: cannot empty %s/%s: %s", ctx->display_dir,
                             plan->cells[c].name, why);
            free(why);
            end->incomplete = 1;
            return -1;
        }
    }
    char *foreign = ar_resume_foreign_cells(ctx);
    if (foreign) {
        ar_diag_error("cannot run into %s: it holds cell(s) of another request (%s) that this "
                      "run's matrix.json would leave out; use a new --ticket or --output",
                      ctx->display_dir, foreign);
        free(foreign);
        end->stale = 1;
        return -1;
    }
    char *error = NULL;
    if (ar_resume_check(ctx, &error) != 0) {
        ar_diag_error("%s", error);
        free(error);
        end->stale = 1;
        return -1;
    }
    return 0;
}

/* Release the trials' locks (NULL entries skipped) and free the array. */
static void release_cells(const ar_plan_t *plan, ar_lock_t **locks)
{
    size_t count = plan->cell_count * (size_t)ar_plan_trial_budget(plan);
    for (size_t i = 0; locks && i < count; i++)
        ar_lock_release(locks[i]);
    free(locks);
}

/* The lock of each trial this run runs (its cells, its rounds),
 * CELL/.aorta-part-T.lock, the cell's directory made first: so two parts
 * of one request share a cell when their rounds do not meet, and a whole
 * run never starts beside a part.  NULL when one is held (all released, the
 * reason reported). */
static ar_lock_t **take_cells(const ar_run_ctx_t *ctx)
{
    const ar_plan_t *plan = ctx->plan;
    long budget = ar_plan_trial_budget(plan);
    ar_lock_t **locks = ar_xcalloc(plan->cell_count * (size_t)budget + 1, sizeof *locks);
    for (size_t c = 0; c < plan->cell_count; c++) {
        if (!ar_plan_runs_cell(plan, c))
            continue;
        char *cell_dir = ar_xasprintf("%s/%s", ctx->run_dir, plan->cells[c].name);
        int made = ar_mkdir_p(cell_dir, 0755) == 0;
        if (!made)
            ar_diag_error("cannot create the cell directory %s/%s: %s", ctx->display_dir,
                          plan->cells[c].name, strerror(errno));
        for (long t = 0; made && t < budget; t++) {
            if (!ar_plan_runs_round(plan, t))
                continue;
            char name[64];
            snprintf(name, sizeof name, ".aorta-part-%ld.lock", t);
            size_t at = c * (size_t)budget + (size_t)t;
            locks[at] = ar_lock_file(cell_dir, name);
            made = locks[at] != NULL;
        }
        free(cell_dir);
        if (!made) {
            release_cells(plan, locks);
            return NULL;
        }
    }
    return locks;
}

/* Under the run lock: the trials' locks, then --fresh and the stale check
 * (prepare_cells(); --fresh removes a cell's lock files with its tree, so
 * they are taken again after it).  NULL when the run cannot go on
 * (reported, *end set). */
static ar_lock_t **lock_cells(const ar_run_ctx_t *ctx, ar_sweep_end_t *end)
{
    ar_lock_t **locks = take_cells(ctx);
    if (locks && ctx->plan->fresh) {
        release_cells(ctx->plan, locks);
        locks = prepare_cells(ctx, end) == 0 ? take_cells(ctx) : NULL;
        end->incomplete |= !locks && !end->stale;
        return locks;
    }
    if (locks && prepare_cells(ctx, end) != 0) {
        release_cells(ctx->plan, locks);
        return NULL;
    }
    end->incomplete |= !locks;
    return locks;
}

void ar_sweep_run(const ar_plan_t *plan, ar_sweep_end_t *end)
{
    *end = (ar_sweep_end_t){0};
    long rank = ar_rank_detect();
    long world = 0;
    /* Every rank of --all-ranks refuses a world past the maximum alike. */
    if (ar_plan_per_rank(plan) && ar_rank_is_launched() && (world = ar_rank_world()) < 0) {
        end->refused = 1;
        return;
    }
    if (rank != 0 && ar_plan_per_rank(plan)) {
        end->incomplete = ar_rank_run_follower(plan, rank, world, &end->interrupted) != 0;
        return;
    }
    if (rank != 0) {
        ar_rank_note_bare(rank);
        end->interrupted = ar_rank_run_bare(plan);
        return;
    }
    int write_failed = 0;
    ar_run_ctx_t ctx = {.plan = plan, .display_dir = plan->run_dir, .run_fd = -1,
                           .write_failed = &write_failed, .self_rank = -1};
    if (ar_plan_per_rank(plan) && ar_rank_is_launched()) {
        /* Rank 0 of --all-ranks: its captures in rank0/, the others' awaited. */
        ctx.self_rank = 0;
        ctx.wall_started = ar_clock_wall();
        ctx.world_size = world;
        if (ctx.world_size == 0)
            ar_diag_warn("--all-ranks: no WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE or "
                            "SLURM_NTASKS; rank 0 records its own captures and waits for no "
                            "other rank");
    }
    ctx.run_dir = ar_plan_absolute_run_dir(plan);
    if (!ctx.run_dir || ar_mkdir_p(ctx.run_dir, 0755) != 0
        || (ctx.run_fd = open(ctx.run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
        ar_diag_error("cannot create the run directory %s: %s", plan->run_dir, strerror(errno));
        free(ctx.run_dir);
        end->incomplete = 1;
        return;
    }
    /* A part waits for another part's reports; a whole run never waits. */
    ar_lock_t *lock = ar_plan_is_part(plan) ? ar_lock_wait(ctx.run_dir, AR_PART_LOCK_WAIT_SEC)
                                            : ar_lock_acquire(ctx.run_dir);
    ar_request_t *requests = ar_request_compute(plan);
    ctx.requests = requests;
    ar_lock_t **cells = lock ? lock_cells(&ctx, end) : NULL;
    end->incomplete |= lock == NULL;
    if (cells) {
        /* A part holds only its trials while it runs (other parts run theirs). */
        if (ar_plan_is_part(plan)) {
            ar_lock_release(lock);
            lock = NULL;
        }
        ctx.base_env = aorta_env_from_environ(environ);
        ctx.kill_grace_sec = ar_run_kill_grace();
        locked_run(&ctx, end);
        release_cells(plan, cells);
    }
    ar_lock_release(lock);
    free(requests);
    ar_host_env_free(ctx.host_env);
    aorta_env_free(ctx.base_env);
    close(ctx.run_fd);
    free(ctx.run_dir);
    fflush(stdout);
}
