/* SPDX-License-Identifier: MIT */
/* resume.c - deciding whether a cell is already done. */
#include "config.h"

#include "sweep/resume.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
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
static char *complete_verdict(const ar_run_ctx_t *ctx, const char *cell, int index)
{
    char *rel = ar_trial_dir_rel(cell, index);
    char *path = ar_xasprintf("%s/%s/result.json", ctx->run_dir, rel);
    ar_json_t *record = ar_json_read_file(path, RECORD_MAX_BYTES, RECORD_MAX_DEPTH);
    const char *verdict = ar_json_get_string(ar_json_get(record, "verdict"));
    char *copy = verdict && verdict[0] ? ar_xstrdup(verdict) : NULL;
    ar_json_free(record);
    free(path);
    free(rel);
    return copy;
}

/* How many trials of cell cell_index a run would take from disk: its
 * budget when all are complete, the stop_after prefix when that reached the
 * events or the cap; 0 when the cell re-runs.  *events: the prefix's
 * events. */
static long done_trials(const ar_run_ctx_t *ctx, size_t cell_index, long *events)
{
    const ar_plan_t *plan = ctx->plan;
    const char *cell = plan->cells[cell_index].name;
    long take = 0;
    *events = 0;
    /* --all-ranks: done only with every rank's records too, the rule every
     * rank applies (sweep/rank.c), so all of them skip the same cells. */
    if (ctx->world_size > 1
        && !ar_rank_records_complete(ctx->run_dir, cell, ar_plan_trial_budget(plan),
                                        ctx->world_size))
        return 0;
    if (!plan->has_stop_after) {
        for (take = 0; take < ar_plan_trial_budget(plan); take++) {
            char *verdict = complete_verdict(ctx, cell, (int)take);
            int complete = verdict != NULL;
            free(verdict);
            if (!complete)
                return 0;
        }
        return take;
    }
    while (take < plan->stop_max_trials && *events < plan->stop_events) {
        char *verdict = complete_verdict(ctx, cell, (int)take);
        if (!verdict)
            break;
        *events += strcmp(verdict, plan->stop_event_verdict) == 0;
        free(verdict);
        take++;
    }
    return *events >= plan->stop_events || take >= plan->stop_max_trials ? take : 0;
}

/* What changed since the first of trials 0..take-1 of cell cell_index that
 * was recorded for another request, or NULL when all are this one's. */
static char *cell_mismatch(const ar_run_ctx_t *ctx, size_t cell_index, long take)
{
    const char *cell = ctx->plan->cells[cell_index].name;
    char *changed = NULL;
    for (long t = 0; !changed && t < take; t++) {
        char *rel = ar_trial_json_rel(cell, (int)t);
        char *path = ar_xasprintf("%s/%s", ctx->run_dir, rel);
        ar_json_t *json = ar_json_read_file(path, RECORD_MAX_BYTES, RECORD_MAX_DEPTH);
        /* A trial JSON that is not there, or not JSON, makes the cell
         * re-run (ar_resume_cell()): never served. */
        if (json)
            changed = ar_request_mismatch(&ctx->requests[cell_index], json);
        ar_json_free(json);
        free(path);
        free(rel);
    }
    return changed;
}

/* What changed, when a run would resume cell cell_index (it is done) but
 * its trials are another request's; else NULL. */
static char *stale_cell(const ar_run_ctx_t *ctx, size_t cell_index)
{
    long events;
    long take = ctx->requests ? done_trials(ctx, cell_index, &events) : 0;
    return take > 0 ? cell_mismatch(ctx, cell_index, take) : NULL;
}

int ar_resume_check(const ar_run_ctx_t *ctx, char **error)
{
    size_t stale = 0, first = 0;
    char *changed = NULL;
    for (size_t c = 0; c < ctx->plan->cell_count; c++) {
        char *why = stale_cell(ctx, c);
        if (why && !changed) {
            changed = why;
            first = c;
        } else {
            free(why);
        }
        stale += why != NULL;
    }
    if (!changed)
        return 0;
    char *more = stale > 1 ? ar_xasprintf(" (and %zu more cell(s))", stale - 1) : NULL;
    *error = ar_xasprintf("cannot resume %s/%s: %s%s; use a new --ticket or --output, or "
                             "--fresh to empty the run directory's cells first",
                             ctx->display_dir, ctx->plan->cells[first].name, changed,
                             more ? more : "");
    free(more);
    free(changed);
    return -1;
}

char *ar_resume_stop_note(const ar_plan_t *plan, long events, long trials)
{
    return ar_xasprintf("stopped after %ld '%s' event(s) in %ld trial(s) (cap %ld)", events,
                           plan->stop_event_verdict, trials, plan->stop_max_trials);
}

/* The contiguous prefix of complete trials of cell cell_index (with every
 * rank's record under --all-ranks), at most max of them. */
static long complete_prefix(const ar_run_ctx_t *ctx, size_t cell_index, long max)
{
    const char *cell = ctx->plan->cells[cell_index].name;
    long take = 0;
    for (; take < max; take++) {
        char *verdict = complete_verdict(ctx, cell, (int)take);
        int complete = verdict != NULL;
        free(verdict);
        if (!complete || (ctx->world_size > 1
                          && !ar_rank_records_complete_at(ctx->run_dir, cell, take,
                                                          ctx->world_size)))
            break;
    }
    return take;
}

/* Load trials 0..take-1 of cell cell_index into *result; -1 (nothing
 * loaded) when one does not load. */
static int load_trials(const ar_run_ctx_t *ctx, size_t cell_index, long take,
                       ar_cell_result_t *result)
{
    const char *cell = ctx->plan->cells[cell_index].name;
    ar_cell_result_t loaded = {0};
    for (long i = 0; i < take; i++) {
        char *rel = ar_trial_json_rel(cell, (int)i);
        char *path = ar_xasprintf("%s/%s", ctx->run_dir, rel);
        char *display = ar_xasprintf("%s/%s", ctx->display_dir, rel);
        ar_json_t *json = ar_json_read_file(path, RECORD_MAX_BYTES, RECORD_MAX_DEPTH);
        ar_outcome_t outcome;
        int ok = json && ar_outcome_from_json(json, (int)i, display, &outcome) == 0;
        if (ok)
            ar_cell_result_add(&loaded, &outcome);
        ar_json_free(json);
        free(display);
        free(path);
        free(rel);
        if (!ok) {
            ar_cell_result_clear(&loaded);
            return -1;
        }
    }
    *result = loaded;
    return 0;
}

long ar_resume_prefix(const ar_run_ctx_t *ctx, size_t cell_index, ar_cell_result_t *result,
                      long *events)
{
    const ar_plan_t *plan = ctx->plan;
    *events = 0;
    long take = complete_prefix(ctx, cell_index, ar_plan_trial_budget(plan));
    char *changed = take && ctx->requests ? cell_mismatch(ctx, cell_index, take) : NULL;
    if (changed || take == 0 || load_trials(ctx, cell_index, take, result) != 0) {
        free(changed);
        return 0;
    }
    /* stop_after: the prefix up to the trial that reached the events. */
    long kept = 0;
    for (; kept < take && (!plan->has_stop_after || *events < plan->stop_events); kept++)
        *events += plan->has_stop_after
                   && !strcmp(result->outcomes[kept].verdict, plan->stop_event_verdict);
    while ((long)result->count > kept)
        ar_outcome_clear(&result->outcomes[--result->count]);
    result->resumed_trials = (size_t)kept;
    return kept;
}

int ar_resume_cell(const ar_run_ctx_t *ctx, size_t cell_index, ar_cell_result_t *result)
{
    const ar_plan_t *plan = ctx->plan;
    const char *cell = plan->cells[cell_index].name;
    long events = 0;
    long take = done_trials(ctx, cell_index, &events);
    if (take == 0)
        return 0;
    /* Never another request's trials (the sweep refused those already). */
    char *changed = ctx->requests ? cell_mismatch(ctx, cell_index, take) : NULL;
    if (changed) {
        free(changed);
        return 0;
    }

    ar_cell_result_t loaded = {0};
    if (load_trials(ctx, cell_index, take, &loaded) != 0)
        return 0;
    loaded.resumed = 1;
    loaded.resumed_trials = (size_t)take;
    if (plan->has_stop_after && events >= plan->stop_events)
        loaded.stop_after_note = ar_resume_stop_note(plan, events, take);
    ar_progress(plan->verbose, "cell '%s': all %ld trial(s) already complete -- skipping per "
                                  "resume mode",
                   cell, take);
    *result = loaded;
    return 1;
}

/* Whether trial t of cell cell_index is complete and this request's. */
int ar_resume_trial_done(const ar_run_ctx_t *ctx, size_t cell_index, long t)
{
    char *verdict = complete_verdict(ctx, ctx->plan->cells[cell_index].name, (int)t);
    if (!verdict)
        return 0;
    free(verdict);
    if (!ctx->requests)
        return 1;
    const char *cell = ctx->plan->cells[cell_index].name;
    char *rel = ar_trial_json_rel(cell, (int)t);
    char *path = ar_xasprintf("%s/%s", ctx->run_dir, rel);
    ar_json_t *json = ar_json_read_file(path, RECORD_MAX_BYTES, RECORD_MAX_DEPTH);
    char *changed = json ? ar_request_mismatch(&ctx->requests[cell_index], json) : NULL;
    int done = json && !changed;
    free(changed);
    ar_json_free(json);
    free(path);
    free(rel);
    return done;
}

size_t ar_resume_records(const ar_run_ctx_t *ctx, size_t cell_index, ar_cell_result_t *result)
{
    const char *cell = ctx->plan->cells[cell_index].name;
    ar_cell_result_t loaded = {0};
    for (long t = 0; t < ar_plan_trial_budget(ctx->plan); t++) {
        if (!ar_resume_trial_done(ctx, cell_index, t))
            continue;
        char *rel = ar_trial_json_rel(cell, (int)t);
        char *path = ar_xasprintf("%s/%s", ctx->run_dir, rel);
        char *display = ar_xasprintf("%s/%s", ctx->display_dir, rel);
        ar_json_t *json = ar_json_read_file(path, RECORD_MAX_BYTES, RECORD_MAX_DEPTH);
        ar_outcome_t outcome;
        if (json && ar_outcome_from_json(json, (int)t, display, &outcome) == 0)
            ar_cell_result_add(&loaded, &outcome);
        ar_json_free(json);
        free(display);
        free(path);
        free(rel);
    }
    if (!loaded.count)
        return 0;
    ar_cell_result_clear(result);
    loaded.resumed_trials = loaded.count;
    *result = loaded;
    return loaded.count;
}

/* Whether name is a cell of the plan. */
static int plan_cell(const ar_plan_t *plan, const char *name)
{
    for (size_t c = 0; c < plan->cell_count; c++)
        if (!strcmp(plan->cells[c].name, name))
            return 1;
    return 0;
}

char *ar_resume_foreign_cells(const ar_run_ctx_t *ctx)
{
    int fd = openat(ctx->run_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *names = NULL;
    size_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        struct stat st;
        char *records = ar_xasprintf("%s/" AR_WORKLOAD, entry->d_name);
        int cell = entry->d_name[0] != '.' && !plan_cell(ctx->plan, entry->d_name)
                   && fstatat(ctx->run_fd, records, &st, AT_SYMLINK_NOFOLLOW) == 0
                   && S_ISDIR(st.st_mode);
        free(records);
        if (!cell)
            continue;
        if (count++ < 5) {
            char *more = ar_xasprintf("%s%s%s", names ? names : "", names ? ", " : "",
                                      entry->d_name);
            free(names);
            names = more;
        }
    }
    closedir(dir);
    if (count > 5) {
        char *more = ar_xasprintf("%s and %zu more", names, count - 5);
        free(names);
        names = more;
    }
    return names;
}
