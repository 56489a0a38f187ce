/* SPDX-License-Identifier: MIT */
/* resume.c - deciding whether a cell is already done. */
#include "config.h"

#include "sweep/resume.h"

#include <stdlib.h>
#include <string.h>

#include "sweep/progress.h"
#include "record/rank_record.h"
#include "record/layout.h"
#include "xalloc.h"

/* A trial record is a few kilobytes: anything this large is not one of ours,
 * and parsing it would cost far more memory than the file. */
#define RECORD_MAX_BYTES (4u << 20)
#define RECORD_MAX_DEPTH 64

/* The verdict of a complete trial, else NULL.  Free it. */
static char *complete_verdict(const aorta_run_ctx_t *ctx, const char *cell, int index)
{
    char *rel = aorta_trial_dir_rel(cell, index);
    char *path = aorta_xasprintf("%s/%s/result.json", ctx->run_dir, rel);
    aorta_json_t *record = aorta_json_read_file(path, RECORD_MAX_BYTES, RECORD_MAX_DEPTH);
    const char *verdict = aorta_json_get_string(aorta_json_get(record, "verdict"));
    char *copy = verdict && verdict[0] ? aorta_xstrdup(verdict) : NULL;
    aorta_json_free(record);
    free(path);
    free(rel);
    return copy;
}

char *aorta_resume_stop_note(const aorta_plan_t *plan, long events, long trials)
{
    return aorta_xasprintf("stopped after %ld '%s' event(s) in %ld trial(s) (cap %ld)", events,
                           plan->stop_event_verdict, trials, plan->stop_max_trials);
}

int aorta_resume_cell(const aorta_run_ctx_t *ctx, size_t cell_index, aorta_cell_result_t *result)
{
    const aorta_plan_t *plan = ctx->plan;
    const char *cell = plan->cells[cell_index].name;
    long take = 0, events = 0;
    int done = 0;
    /* --all-ranks: done only with every rank's records too, the rule every
     * rank applies (sweep/rank.c), so all of them skip the same cells. */
    if (ctx->world_size > 1
        && !aorta_rank_records_complete(ctx->run_dir, cell, aorta_plan_trial_budget(plan),
                                        ctx->world_size))
        return 0;
    if (!plan->has_stop_after) {
        for (take = 0; take < aorta_plan_trial_budget(plan); take++) {
            char *verdict = complete_verdict(ctx, cell, (int)take);
            int complete = verdict != NULL;
            free(verdict);
            if (!complete)
                return 0;
        }
        done = 1;
    } else {
        while (take < plan->stop_max_trials && events < plan->stop_events) {
            char *verdict = complete_verdict(ctx, cell, (int)take);
            if (!verdict)
                break;
            events += strcmp(verdict, plan->stop_event_verdict) == 0;
            free(verdict);
            take++;
        }
        done = events >= plan->stop_events || take >= plan->stop_max_trials;
    }
    if (!done || take == 0)
        return 0;

    aorta_cell_result_t loaded = {0};
    for (long i = 0; i < take; i++) {
        char *rel = aorta_trial_json_rel(cell, (int)i);
        char *path = aorta_xasprintf("%s/%s", ctx->run_dir, rel);
        char *display = aorta_xasprintf("%s/%s", ctx->display_dir, rel);
        aorta_json_t *json = aorta_json_read_file(path, RECORD_MAX_BYTES, RECORD_MAX_DEPTH);
        aorta_outcome_t outcome;
        int ok = json && aorta_outcome_from_json(json, (int)i, display, &outcome) == 0;
        if (ok)
            aorta_cell_result_add(&loaded, &outcome);
        aorta_json_free(json);
        free(display);
        free(path);
        free(rel);
        if (!ok) {
            aorta_cell_result_clear(&loaded);
            return 0;
        }
    }
    loaded.resumed = 1;
    if (plan->has_stop_after && events >= plan->stop_events)
        loaded.stop_after_note = aorta_resume_stop_note(plan, events, take);
    aorta_progress(plan->verbose, "cell '%s': all %ld trial(s) already complete -- skipping per "
                                  "resume mode",
                   cell, take);
    *result = loaded;
    return 1;
}
