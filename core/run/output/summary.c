/* SPDX-License-Identifier: MIT */
/* summary.c - the end-of-run summary (upstream's wording, docs/design.md,
 * Output tree, with matrix.json in place of matrix.md). */
#include "config.h"

#include "output/summary.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sys/text_escape.h"

/* The most frequent hint among the cell's trials (the first among equals). */
static const char *top_hint(const aorta_cell_result_t *result)
{
    const char *best = NULL;
    size_t best_count = 0;
    for (size_t i = 0; i < result->count; i++) {
        const char *hint = result->outcomes[i].hint;
        if (!hint)
            continue;
        size_t count = 0;
        for (size_t j = 0; j < result->count; j++)
            count += result->outcomes[j].hint && !strcmp(result->outcomes[j].hint, hint);
        if (count > best_count) {
            best = hint;
            best_count = count;
        }
    }
    return best;
}

static void cell_line(FILE *out, const char *raw_name, const aorta_cell_result_t *result,
                      const aorta_cell_counts_t *counts)
{
    char *name = aorta_text_escape(raw_name); /* names for people */
    if (result->error) {
        fprintf(out, "  [error] %s: cell did not run (", name);
        aorta_text_put(out, result->error);
        fputs(")\n", out);
        free(name);
        return;
    }
    const char *hint = top_hint(result);
    if (counts->failed)
        fprintf(out, "  [fail] %s: %zu failed of %zu trial(s)", name, counts->failed,
                counts->trials);
    else
        fprintf(out, "  [error] %s: %zu errored of %zu trial(s)", name, counts->errors,
                counts->trials);
    if (hint) {
        fputs(" (", out);
        aorta_text_put(out, hint);
        fputs(")", out);
    }
    fprintf(out, "%s -> %s/\n", result->resumed ? " [resumed]" : "", name);
    free(name);
}

int aorta_summary_all_setup_failed(const aorta_plan_t *plan, const aorta_cell_result_t *results)
{
    size_t trials = 0;
    for (size_t i = 0; i < plan->cell_count; i++) {
        for (size_t t = 0; t < results[i].count; t++) {
            const char *status = results[i].outcomes[t].exit_status;
            if (!status || strcmp(status, "workload_setup_failed") != 0)
                return 0;
            trials++;
        }
    }
    return trials > 0;
}

int aorta_summary_none_started(const aorta_plan_t *plan, const aorta_cell_result_t *results)
{
    size_t trials = 0;
    for (size_t i = 0; i < plan->cell_count; i++) {
        for (size_t t = 0; t < results[i].count; t++) {
            if (results[i].outcomes[t].launched)
                return 0;
            trials++;
        }
    }
    return trials > 0;
}

size_t aorta_summary_failed_trials(const aorta_plan_t *plan, const aorta_cell_result_t *results)
{
    size_t failed = 0;
    for (size_t i = 0; i < plan->cell_count; i++)
        for (size_t t = 0; t < results[i].count; t++)
            failed += results[i].outcomes[t].verdict
                      && !strcmp(results[i].outcomes[t].verdict, "fail");
    return failed;
}

void aorta_summary_print(FILE *out, const aorta_plan_t *plan, const aorta_cell_result_t *results,
                         const char *raw_run_dir, int interrupted, int missing, double wall_sec)
{
    char *run_dir = aorta_text_escape(raw_run_dir); /* --output is the user's */
    size_t clean = 0, failing = 0, erroring = 0, resumed = 0;
    for (size_t i = 0; i < plan->cell_count; i++) {
        aorta_cell_counts_t counts;
        aorta_cell_counts(&results[i], &counts);
        resumed += results[i].resumed != 0;
        if (results[i].error || counts.trials == 0)
            erroring++;
        else if (counts.failed)
            failing++;
        else if (counts.errors)
            erroring++;
        else
            clean++;
    }
    if (interrupted)
        fprintf(out, "Sweep interrupted by %s: the trial that was running is recorded as an "
                     "error; matrix.json and perf.md cover what ran.\n",
                interrupted == SIGTERM ? "SIGTERM" : "SIGINT");
    if (clean == plan->cell_count) {
        fprintf(out, "Sweep summary: all %zu cell(s) passed.", plan->cell_count);
        if (resumed)
            fprintf(out, " %zu resumed from a prior run (no trials re-executed).", resumed);
        fputc('\n', out);
    } else {
        fprintf(out, "Sweep summary: %zu cell(s) -- %zu clean, %zu with failing trials, %zu with "
                     "errors.\n",
                plan->cell_count, clean, failing, erroring);
        if (aorta_summary_all_setup_failed(plan, results))
            fputs("Nothing ran: every trial was a setup failure (reasons below); the command was "
                  "never started, so aorta-run exits 1.\n",
                  out);
        else if (aorta_summary_none_started(plan, results))
            fputs("Nothing ran: no trial's command could start (reasons below), so aorta-run "
                  "exits 1.\n",
                  out);
        for (size_t i = 0; i < plan->cell_count; i++) {
            aorta_cell_counts_t counts;
            aorta_cell_counts(&results[i], &counts);
            if (results[i].error || counts.trials == 0 || counts.failed || counts.errors)
                cell_line(out, plan->cells[i].name, &results[i], &counts);
        }
    }
    fprintf(out, "Wall time: %.1fs\n", wall_sec);
    if (!(missing & AORTA_SUMMARY_NO_MATRIX))
        fprintf(out, "Full matrix: %s/matrix.json\n", run_dir);
    if (!(missing & AORTA_SUMMARY_NO_PERF))
        fprintf(out, "Performance report: %s/perf.md\n", run_dir);
    if (resumed)
        fprintf(out, "Note: resumed cells reused cached artifacts under %s, recorded for this "
                     "same request; use --fresh or a new --ticket/--output to force a fresh "
                     "run.\n",
                run_dir);
    if (clean != plan->cell_count && !plan->verbose)
        fputs("Tip: re-run with -v to stream per-cell progress live.\n", out);
    if (missing)
        fprintf(out, "Run artifacts in %s are incomplete: some files could not be written "
                     "(see the errors above)\n",
                run_dir);
    else
        fprintf(out, "Wrote run artifacts to %s\n", run_dir);
    free(run_dir);
}
