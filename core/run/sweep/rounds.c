/* SPDX-License-Identifier: MIT */
/* rounds.c - running a sweep's trials in its order (rounds.h). */
#include "config.h"

#include "sweep/rounds.h"

#include <stdlib.h>
#include <string.h>

#include "sweep/order.h"
#include "sweep/progress.h"
#include "sweep/resume.h"
#include "sweep/trial.h"
#include "record/layout.h"
#include "sys/clock.h"
#include "sys/live.h"
#include "sys/spawn.h"
#include "xalloc.h"

/* Where each cell stands. */
typedef struct cell_state {
    long next;       /* the trial it runs next */
    long events;     /* stop_after's events so far */
    int done;        /* nothing more to run: budget, stop_after, or resumed */
    int begun;       /* its warm-ups ran: it began in this run */
    long ran;        /* trials it ran in this run */
    double started;  /* monotonic, when it began (or was resumed) */
} cell_state_t;

typedef struct rounds {
    const ar_run_ctx_t *ctx;
    const ar_plan_t *plan;
    ar_cell_result_t *results;
    cell_state_t *cells;
    long budget;
} rounds_t;

/* "cell c/C: NAME -- done in 1.2s [outcome: ...]" */
static void log_cell_end(const rounds_t *r, size_t c, const char *how)
{
    ar_cell_counts_t counts;
    ar_cell_counts(&r->results[c], &counts);
    char *iters = ar_cell_iters_display(&r->results[c]);
    ar_progress(r->plan->verbose, "cell %zu/%zu: %s -- %s in %.1fs [outcome: %zu/%zu "
                                  "completed | iters: %s]",
                c + 1, r->plan->cell_count, r->plan->cells[c].name, how,
                ar_clock_monotonic() - r->cells[c].started, counts.launched, counts.trials,
                iters);
    free(iters);
}

static void log_cell_start(const rounds_t *r, size_t c)
{
    const ar_plan_t *plan = r->plan;
    const ar_cell_t *cell = &plan->cells[c];
    ar_progress(plan->verbose,
                "cell %zu/%zu: %s (mitigations=['%s', '%s'] environment=local) -- "
                "starting %s%ld trial(s)",
                c + 1, plan->cell_count, cell->name, cell->mitigation, cell->diagnostic,
                plan->has_stop_after ? "up to " : "", r->budget);
}

/* A cell another part runs (--cells): its records so far, in the reports
 * as a resumed cell, or left out of them while it has none. */
static void read_other_part(rounds_t *r, size_t c)
{
    r->cells[c].done = 1;
    ar_live_cell_done(0);
    ar_rounds_read_part(r->ctx, c, &r->results[c]);
}

/* The trials of cell c this part runs: its rounds, less those on record. */
static long part_trials(const rounds_t *r, size_t c)
{
    long count = 0;
    for (long t = r->cells[c].next; t < r->budget; t++)
        count += ar_plan_runs_round(r->plan, t) && !ar_resume_trial_done(r->ctx, c, t);
    return count;
}

/* Each cell from disk: whole (today's rule, every order), or in rounds its
 * complete prefix, from which it continues. */
static void resume_cells(rounds_t *r)
{
    for (size_t c = 0; c < r->plan->cell_count; c++) {
        cell_state_t *state = &r->cells[c];
        state->started = ar_clock_monotonic();
        if (!ar_plan_runs_cell(r->plan, c)) {
            read_other_part(r, c);
            continue;
        }
        if (ar_resume_cell(r->ctx, c, &r->results[c])) {
            state->done = 1;
            log_cell_start(r, c);
            ar_live_cell_done(0);
            log_cell_end(r, c, "resumed (cached, no re-run)");
            continue;
        }
        if (r->plan->order == AR_ORDER_SEQUENTIAL)
            continue;
        state->next = ar_resume_prefix(r->ctx, c, &r->results[c], &state->events);
        if (state->next)
            ar_progress(r->plan->verbose, "cell '%s': trials 1-%ld already complete -- "
                                          "continuing from trial %ld",
                        r->plan->cells[c].name, state->next, state->next + 1);
        ar_live_cell_done(ar_plan_is_part(r->plan) ? part_trials(r, c)
                                                   : r->budget - state->next);
        if (r->plan->has_stop_after && state->events >= r->plan->stop_events) {
            state->done = 1;
            ar_live_cell_done(state->next); /* none of the rest runs */
            r->results[c].stop_after_note =
                ar_resume_stop_note(r->plan, state->events, state->next);
        }
    }
}

/* The cell's warm-up trials (indices -1, -2, ...): recorded as such, left
 * out of its result.  Returns the interrupting signal, else 0. */
static int run_warmups(const ar_run_ctx_t *ctx, size_t index)
{
    const ar_plan_t *plan = ctx->plan;
    for (long w = 1; w <= plan->warmup_trials; w++) {
        int interrupted = ar_spawn_take_interrupt();
        if (interrupted)
            return interrupted;
        ar_progress(plan->verbose, "warm-up trial %ld/%ld: starting", w, plan->warmup_trials);
        ar_outcome_t outcome;
        interrupted = ar_trial_run(ctx, index, (int)-w, &outcome);
        ar_progress(plan->verbose, "warm-up trial %ld/%ld: %s (left out)", w,
                    plan->warmup_trials, outcome.verdict);
        ar_outcome_clear(&outcome);
        if (interrupted)
            return interrupted;
    }
    return 0;
}

/* The cell begins in this run: its lines, its warm-ups. */
static int begin_cell(rounds_t *r, size_t c)
{
    const ar_plan_t *plan = r->plan;
    const ar_cell_t *cell = &plan->cells[c];
    r->cells[c].begun = 1;
    r->cells[c].started = ar_clock_monotonic();
    log_cell_start(r, c);
    ar_progress(plan->verbose,
                "run_trials: workload=" AR_WORKLOAD " environment=local mitigations=['%s', "
                "'%s'] trials=%ld steps=1",
                cell->mitigation, cell->diagnostic, r->budget);
    return run_warmups(r->ctx, c);
}

/* Trial t of cell c; stop_after may end the cell.  Returns the
 * interrupting signal, else 0. */
static int run_slot(rounds_t *r, size_t c, long t)
{
    const ar_plan_t *plan = r->plan;
    cell_state_t *state = &r->cells[c];
    /* In rounds the cells take turns: each line names its cell. */
    char *of = plan->order == AR_ORDER_SEQUENTIAL ? ar_xstrdup("")
                                                   : ar_xasprintf(" (%s)", plan->cells[c].name);
    ar_progress(plan->verbose, "trial %ld/%ld: starting%s", t + 1, r->budget, of);
    ar_live_trial_start(c, plan->cells[c].name, t);
    ar_outcome_t outcome;
    double started = ar_clock_monotonic();
    int interrupted = ar_trial_run(r->ctx, c, (int)t, &outcome);
    ar_live_trial_done(outcome.verdict, ar_clock_monotonic() - started);
    ar_progress(plan->verbose, "trial %ld/%ld: %s in %.1fs (exit_status=%s)%s", t + 1,
                r->budget, !strcmp(outcome.verdict, "pass") ? "passed" : "FAILED",
                outcome.wall_clock_sec, outcome.exit_status, of);
    free(of);
    int event = plan->has_stop_after && !strcmp(outcome.verdict, plan->stop_event_verdict);
    ar_cell_result_add(&r->results[c], &outcome);
    state->next = t + 1;
    state->ran++;
    if (interrupted)
        return interrupted;
    state->events += event;
    if (plan->has_stop_after && state->events >= plan->stop_events) {
        if (t + 1 < r->budget)
            ar_progress(plan->verbose,
                        "stop_after: %ld '%s' event(s) observed in %ld trial(s) "
                        "(target %ld, cap %ld) -- stopping cell early",
                        state->events, plan->stop_event_verdict, t + 1, plan->stop_events,
                        plan->stop_max_trials);
        r->results[c].stop_after_note = ar_resume_stop_note(plan, state->events, t + 1);
        state->done = 1;
        ar_live_cell_done(t + 1);
    }
    state->done |= t + 1 >= r->budget;
    if (state->done)
        log_cell_end(r, c, "done");
    return 0;
}

/* The sequence's remaining trials; the interrupting signal, else 0. */
static int run_sequence(rounds_t *r)
{
    size_t count = 0;
    ar_slot_t *slots = ar_order_sequence(r->plan, &count);
    long round = -1;
    int interrupted = 0;
    for (size_t i = 0; i < count && !interrupted; i++) {
        size_t c = slots[i].cell;
        long t = slots[i].trial;
        if (r->cells[c].done || t < r->cells[c].next || !ar_plan_runs_round(r->plan, t)
            || (ar_plan_is_part(r->plan) && ar_resume_trial_done(r->ctx, c, t)))
            continue;
        interrupted = ar_spawn_take_interrupt();
        if (interrupted)
            break;
        if (r->plan->order == AR_ORDER_INTERLEAVED && t != round)
            ar_progress(r->plan->verbose, "round %ld/%ld: starting", t + 1, r->budget);
        round = t;
        if (!r->cells[c].begun)
            interrupted = begin_cell(r, c);
        if (!interrupted)
            interrupted = run_slot(r, c, t);
    }
    free(slots);
    return interrupted;
}

int ar_rounds_run(const ar_run_ctx_t *ctx, ar_cell_result_t *results)
{
    const ar_plan_t *plan = ctx->plan;
    rounds_t r = {.ctx = ctx, .plan = plan, .results = results,
                  .budget = ar_plan_trial_budget(plan)};
    r.cells = ar_xcalloc(plan->cell_count + 1, sizeof *r.cells);
    int interrupted = ar_spawn_take_interrupt();
    if (!interrupted) {
        resume_cells(&r);
        interrupted = run_sequence(&r);
    }
    for (size_t c = 0; c < plan->cell_count; c++)
        results[c].ran_here = (size_t)r.cells[c].ran;
    free(r.cells);
    return interrupted;
}

void ar_rounds_read_part(const ar_run_ctx_t *ctx, size_t c, ar_cell_result_t *result)
{
    const ar_plan_t *plan = ctx->plan;
    if (!ar_plan_is_part(plan) || result->error)
        return;
    if (!ar_plan_runs_cell(plan, c)) {
        ar_cell_result_clear(result);
        if (ar_resume_records(ctx, c, result))
            result->resumed = 1;
        else
            result->absent = 1;
        return;
    }
    size_t ran = result->ran_here;
    if (ar_resume_records(ctx, c, result)) {
        result->resumed = ran == 0;
        result->resumed_trials = result->count - ran;
        result->ran_here = ran;
    }
}
