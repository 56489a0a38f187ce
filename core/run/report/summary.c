/* SPDX-License-Identifier: MIT */
/* summary.c - the end-of-run summary (upstream's wording, docs/design.md,
 * Output tree, with matrix.json in place of matrix.md). */
#include "config.h"

#include "report/summary.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/layout.h"
#include "sys/files.h"
#include "sys/nofollow.h"

#include "sys/text_escape.h"

/* The most frequent hint among the cell's trials (the first among equals). */
static const char *top_hint(const ar_cell_result_t *result)
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

static void cell_line(FILE *out, const char *raw_name, const ar_cell_result_t *result,
                      const ar_cell_counts_t *counts)
{
    char *name = ar_text_escape(raw_name); /* names for people */
    if (result->error) {
        fprintf(out, "  [error] %s: cell did not run (", name);
        ar_text_put(out, result->error);
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
        ar_text_put(out, hint);
        fputs(")", out);
    }
    fprintf(out, "%s -> %s/\n", result->resumed ? " [resumed]" : "", name);
    free(name);
}

int ar_summary_all_setup_failed(const ar_plan_t *plan, const ar_cell_result_t *results)
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

int ar_summary_none_started(const ar_plan_t *plan, const ar_cell_result_t *results)
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

size_t ar_summary_failed_trials(const ar_plan_t *plan, const ar_cell_result_t *results)
{
    size_t failed = 0;
    for (size_t i = 0; i < plan->cell_count; i++)
        for (size_t t = 0; t < results[i].count; t++)
            failed += results[i].outcomes[t].verdict
                      && !strcmp(results[i].outcomes[t].verdict, "fail");
    return failed;
}

void ar_summary_print(FILE *out, const ar_plan_t *plan, const ar_cell_result_t *results,
                         const char *raw_run_dir, int interrupted, int missing, double wall_sec)
{
    char *run_dir = ar_text_escape(raw_run_dir); /* --output is the user's */
    size_t clean = 0, failing = 0, erroring = 0, resumed = 0;
    for (size_t i = 0; i < plan->cell_count; i++) {
        ar_cell_counts_t counts;
        ar_cell_counts(&results[i], &counts);
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
        if (ar_summary_all_setup_failed(plan, results))
            fputs("Nothing ran: every trial was a setup failure (reasons below); the command was "
                  "never started, so aorta-run exits 1.\n",
                  out);
        else if (ar_summary_none_started(plan, results))
            fputs("Nothing ran: no trial's command could start (reasons below), so aorta-run "
                  "exits 1.\n",
                  out);
        for (size_t i = 0; i < plan->cell_count; i++) {
            ar_cell_counts_t counts;
            ar_cell_counts(&results[i], &counts);
            if (results[i].error || counts.trials == 0 || counts.failed || counts.errors)
                cell_line(out, plan->cells[i].name, &results[i], &counts);
        }
    }
    fprintf(out, "Wall time: %.1fs\n", wall_sec);
    if (!(missing & AR_SUMMARY_NO_MATRIX))
        fprintf(out, "Full matrix: %s/matrix.json\n", run_dir);
    if (!(missing & AR_SUMMARY_NO_PERF))
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

/* The first trial of the sweep with that verdict (launched ones only when
 * asked), its cell in *cell. */
static const ar_outcome_t *first_with(const ar_plan_t *plan,
                                         const ar_cell_result_t *results,
                                         const char *verdict, int launched, size_t *cell)
{
    for (size_t i = 0; i < plan->cell_count; i++)
        for (size_t t = 0; t < results[i].count; t++) {
            const ar_outcome_t *o = &results[i].outcomes[t];
            if (o->verdict && !strcmp(o->verdict, verdict) && (!launched || o->launched)) {
                *cell = i;
                return o;
            }
        }
    return NULL;
}

/* The last AR_SUMMARY_TAIL_BYTES of rel/stderr.log below run_fd, never
 * through a symbolic link and never blocking on a FIFO; NULL when it cannot
 * be read.  *cut: the file holds more than was read. */
static char *read_log_tail(int run_fd, const char *rel, size_t *len, int *cut)
{
    char *error = NULL;
    int dir_fd = ar_nofollow_open_dir(run_fd, rel, 0, &error);
    free(error);
    if (dir_fd < 0)
        return NULL;
    int fd = openat(dir_fd, "stderr.log", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    close(dir_fd);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *text = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        off_t from = st.st_size > AR_SUMMARY_TAIL_BYTES ? st.st_size - AR_SUMMARY_TAIL_BYTES
                                                          : 0;
        *cut = from > 0;
        if (lseek(fd, from, SEEK_SET) == from)
            text = ar_read_fd(fd, AR_SUMMARY_TAIL_BYTES, len);
    }
    close(fd);
    return text;
}

/* One line of the log, its control characters escaped: a tab stays, every
 * other C0 byte, DEL and a C1 control's UTF-8 form (C2 80..C2 9F) is shown
 * as \xNN, so no escape sequence reaches the terminal. */
static void put_escaped_line(FILE *out, const char *line, size_t len)
{
    fputs("    | ", out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == 0xc2 && i + 1 < len && (unsigned char)line[i + 1] >= 0x80
            && (unsigned char)line[i + 1] <= 0x9f) {
            fprintf(out, "\\x%02x\\x%02x", c, (unsigned char)line[i + 1]);
            i++;
        } else if ((c < 0x20 && c != '\t') || c == 0x7f) {
            fprintf(out, "\\x%02x", c);
        } else {
            fputc(c, out);
        }
    }
    fputc('\n', out);
}

void ar_summary_print_failure_log(FILE *out, const ar_plan_t *plan,
                                     const ar_cell_result_t *results, int run_fd,
                                     const char *run_dir)
{
    size_t cell = 0;
    const ar_outcome_t *o = first_with(plan, results, "fail", 0, &cell);
    if (!o)
        o = first_with(plan, results, "error", 1, &cell);
    if (!o || run_fd < 0)
        return;
    char *rel = ar_trial_dir_rel(plan->cells[cell].name, o->trial_index);
    size_t len = 0;
    int cut = 0;
    char *text = read_log_tail(run_fd, rel, &len, &cut);
    if (text) {
        /* Drop one trailing newline, then keep the last lines. */
        size_t end = len && text[len - 1] == '\n' ? len - 1 : len;
        size_t start = end, lines = 0;
        while (start > 0 && lines < AR_SUMMARY_TAIL_LINES) {
            if (text[start - 1] == '\n' && ++lines == AR_SUMMARY_TAIL_LINES)
                break;
            start--;
        }
        /* A cut file's first line is partial: start after it. */
        if (cut && start == 0 && lines < AR_SUMMARY_TAIL_LINES) {
            const char *nl = memchr(text, '\n', end);
            start = nl ? (size_t)(nl - text) + 1 : 0;
        }
        if (start >= end)
            fprintf(out, "First failing trial: %s/%s/stderr.log is empty\n", run_dir, rel);
        else
            fprintf(out, "First failing trial: the end of %s/%s/stderr.log:\n", run_dir, rel);
        for (size_t at = start; at < end;) {
            const char *nl = memchr(text + at, '\n', end - at);
            size_t stop = nl ? (size_t)(nl - text) : end;
            put_escaped_line(out, text + at, stop - at);
            at = stop + 1;
        }
    }
    free(text);
    free(rel);
}
