/* SPDX-License-Identifier: MIT */
/* perf_md.c - perf.md, byte for byte as docs/design.md lays it out:
 * left-justified columns padded to the widest cell (counted in characters,
 * as Python's str.ljust counts them), "%.3f" numbers, thousands separators
 * in the metrics table, "—" for a metric a cell did not report. */
#include "config.h"

#include "report/perf_md.h"

#include "report/capture_gaps.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyindex.h"
#include "report/matrix.h"
#include "report/md_table.h"
#include "compare/verdicts.h"
#include "sys/shell_quote.h"
#include "sys/text_escape.h"
#include "xalloc.h"

char *ar_perf_thousands(double value)
{
    char plain[512];
    snprintf(plain, sizeof plain, "%.3f", value);
    const char *digits = plain[0] == '-' ? plain + 1 : plain;
    const char *dot = strchr(digits, '.');
    size_t int_len = dot ? (size_t)(dot - digits) : strlen(digits);
    char *out = ar_xmalloc(strlen(plain) + int_len / 3 + 2);
    char *cursor = out;
    if (plain[0] == '-')
        *cursor++ = '-';
    for (size_t i = 0; i < int_len; i++) {
        if (i > 0 && (int_len - i) % 3 == 0)
            *cursor++ = ',';
        *cursor++ = digits[i];
    }
    strcpy(cursor, digits + int_len);
    return out;
}

/* Whether a metric's name ends in a unit of measure (_ms, _sec, ...): its
 * values are measurements, shown to three decimals even when whole. */
static int measured(const char *name)
{
    static const char *const units[] = {"_ms", "_us", "_ns", "_s", "_sec", "_pct", "_percent",
                                        "_ratio", "_gbps", "_tflops"};
    size_t len = strlen(name);
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        size_t n = strlen(units[i]);
        if (len >= n && !strcmp(name + len - n, units[i]))
            return 1;
    }
    return 0;
}

/* A metrics-table mean: a count (no unit in its name, and its mean, min and
 * max whole numbers: kernels, launches, an exit code) as an integer with
 * thousands separators, else ",.3f" (docs/design.md, perf.md). */
char *ar_perf_metric_mean(const char *name, const ar_json_t *stats)
{
    const ar_json_t *mean = ar_json_get(stats, "mean");
    if (!mean)
        return ar_xstrdup(AR_EM_DASH);
    double value = ar_json_get_double(mean);
    static const char *const keys[] = {"mean", "min", "max"};
    int whole = !measured(name);
    for (size_t i = 0; i < 3; i++) {
        const ar_json_t *v = ar_json_get(stats, keys[i]);
        double x = v ? ar_json_get_double(v) : 0.5;
        whole = whole && x == floor(x) && fabs(x) < 9007199254740992.0;
    }
    char *text = ar_perf_thousands(value);
    if (whole) {
        char *dot = strchr(text, '.');
        if (dot)
            *dot = '\0';
    }
    return text;
}

/* An upstream run_timestamp ("2026-12-04T21-14-14", UTC) as ISO 8601
 * ("2026-12-04T21:14:14Z"); anything else as it is. */
static char *iso_stamp(const char *stamp)
{
    if (!stamp)
        return ar_xstrdup("?");
    char *text = ar_xstrdup(stamp);
    if (strlen(text) == 19 && text[10] == 'T' && text[13] == '-' && text[16] == '-') {
        text[13] = text[16] = ':';
        char *iso = ar_xasprintf("%sZ", text);
        free(text);
        return iso;
    }
    return text;
}

static char *fixed3(const ar_json_t *value)
{
    return value ? ar_xasprintf("%.3f", ar_json_get_double(value)) : ar_xstrdup("n/a");
}

static char *cell_label(const ar_json_t *cell, const char *baseline)
{
    const char *name = ar_json_get_string(ar_json_get(cell, "name"));
    char *shown = ar_md_escape(name ? name : "?");
    if (!name || !baseline || strcmp(name, baseline) != 0)
        return shown;
    char *label = ar_xasprintf("%s (baseline)", shown);
    free(shown);
    return label;
}

static void step_table(FILE *out, const ar_json_t *cells, const char *baseline)
{
    static const char *const headers[] = {"Cell", "Trials", "Iters", "Mean", "Std", "Min", "p50",
                                          "p90", "p99", "Max", "Wall/trial (s)", "Source"};
    static const char *const steps[] = {"mean_step_time_ms", "std_step_time_ms",
                                        "min_step_time_ms", "p50_step_time_ms",
                                        "p90_step_time_ms", "p99_step_time_ms",
                                        "max_step_time_ms"};
    ar_md_table_t table = {.columns = 12};
    for (size_t i = 0; i < 12; i++)
        ar_md_table_add(&table, ar_xstrdup(headers[i]));
    for (size_t i = 0; i < ar_json_length(cells); i++) {
        ar_json_t *cell = ar_json_at(cells, i);
        int errored = ar_json_type(ar_json_get(cell, "error")) == AR_JSON_STRING;
        const char *source = ar_json_get_string(ar_json_get(cell, "step_time_source"));
        int timed = source && strcmp(source, "missing") != 0
                 && ar_json_get(cell, "mean_step_time_ms") != NULL;
        ar_md_table_add(&table, cell_label(cell, baseline));
        ar_md_table_add(&table, ar_xasprintf("%lld", (long long)ar_json_get_int(
                                                       ar_json_get(cell, "trials"))));
        const char *iters = ar_json_get_string(ar_json_get(cell, "iters_display"));
        ar_md_table_add(&table, ar_xstrdup(iters ? iters : AR_EM_DASH));
        for (size_t s = 0; s < 7; s++)
            ar_md_table_add(&table, errored  ? ar_xstrdup("error")
                              : timed  ? fixed3(ar_json_get(cell, steps[s]))
                                       : ar_xstrdup("n/a"));
        ar_md_table_add(&table, errored ? ar_xstrdup("error")
                                  : fixed3(ar_json_get(cell, "mean_wall_clock_sec")));
        ar_md_table_add(&table, ar_xstrdup(source ? source : "missing"));
    }
    ar_md_table_render(out, &table);
}

static int compare_names(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

/* Distinct names, indexed: resumed cells can bring any number. */
typedef struct names {
    char **items;
    size_t count, capacity;
    ar_keyindex_t index;
} names_t;

static int collect_name(const char *key, ar_json_t *value, void *user)
{
    (void)value;
    names_t *names = user;
    if (ar_keyindex_find(&names->index, key) != AR_KEYINDEX_NONE)
        return 0;
    ar_xgrow((void **)&names->items, &names->capacity, names->count + 1, sizeof *names->items);
    names->items[names->count] = ar_xstrdup(key);
    ar_keyindex_add(&names->index, names->items[names->count], names->count);
    names->count++;
    return 0;
}

char **ar_perf_metric_names(const ar_json_t *cells, size_t *count)
{
    names_t names = {0};
    for (size_t i = 0; i < ar_json_length(cells); i++)
        ar_json_foreach(ar_json_get(ar_json_at(cells, i), "metrics_summary"),
                           collect_name, &names);
    ar_keyindex_clear(&names.index); /* the sort moves the names */
    if (names.count > 1)
        qsort(names.items, names.count, sizeof *names.items, compare_names);
    *count = names.count;
    return names.items;
}

/* The metrics table, when some cell has a metrics_summary; returns whether
 * it was written. */
static int metrics_table(FILE *out, const ar_json_t *cells, const char *baseline)
{
    names_t names = {0};
    names.items = ar_perf_metric_names(cells, &names.count);
    if (names.count == 0)
        return 0;
    ar_md_table_t table = {.columns = names.count + 1};
    ar_md_table_add(&table, ar_xstrdup("Cell"));
    for (size_t n = 0; n < names.count; n++)
        ar_md_table_add(&table, ar_md_escape(names.items[n]));
    for (size_t i = 0; i < ar_json_length(cells); i++) {
        ar_json_t *cell = ar_json_at(cells, i);
        ar_json_t *summary = ar_json_get(cell, "metrics_summary");
        ar_md_table_add(&table, cell_label(cell, baseline));
        for (size_t n = 0; n < names.count; n++) {
            ar_md_table_add(&table,
                               ar_perf_metric_mean(names.items[n],
                                                ar_json_get(summary, names.items[n])));
        }
    }
    fputs("## Workload metrics (mean across trials)\n\n", out);
    ar_md_table_render(out, &table);
    for (size_t n = 0; n < names.count; n++)
        free(names.items[n]);
    free(names.items);
    return 1;
}

/* The command as provenance recorded it, shell-quoted (pasting it runs
 * what ran); NULL when matrix.json has none (a run of an older aorta). */
static char *command_text(const ar_json_t *provenance)
{
    return ar_shell_join_json(ar_json_get(provenance, "command"));
}

typedef struct vars_line {
    FILE *out;
    size_t count;
} vars_line_t;

static int variable(const char *name, ar_json_t *value, void *user)
{
    vars_line_t *line = user;
    const char *text = ar_json_get_string(value);
    char *pair = ar_xasprintf("%s=%s", name, text ? text : "");
    fputs(line->count++ ? ", " : " ", line->out);
    ar_md_code_put(line->out, pair);
    free(pair);
    return 0;
}

static int cell_variables(const char *cell, ar_json_t *vars, void *user)
{
    vars_line_t line = {user, 0};
    fputs("- ", line.out);
    ar_md_code_put(line.out, cell);
    fputs(":", line.out);
    ar_json_foreach(vars, variable, &line);
    fputs(line.count ? "\n" : " no variables\n", line.out);
    return 0;
}

/* "## Cells": each cell's variables (provenance's cells). */
static void cells_section(FILE *out, const ar_json_t *provenance)
{
    const ar_json_t *cells = ar_json_get(provenance, "cells");
    if (ar_json_type(cells) != AR_JSON_OBJECT)
        return;
    fputs("## Cells\n\nThe variables each cell sets for its trials.\n\n", out);
    ar_json_foreach(cells, cell_variables, out);
    fputs("\n", out);
}

/* What a measure of vs_baseline is called: "rocprof GPU time (ms)". */
static char *measure_name(const ar_json_t *m)
{
    const char *measure = ar_json_get_string(ar_json_get(m, "measure"));
    if (!strcmp(measure, "gpu_time_ms"))
    {
        char *collector = ar_md_escape(ar_json_get_string(ar_json_get(m, "collector")));
        char *name = ar_xasprintf("%s GPU time (ms)", collector);
        free(collector);
        return name;
    }
    if (!strcmp(measure, "step_time_ms"))
        return ar_xstrdup("step time (ms)");
    return ar_md_escape(measure);
}

static char *mean_text(const ar_json_t *m, const char *key)
{
    const ar_json_t *value = ar_json_get(m, key);
    return value ? ar_perf_thousands(ar_json_get_double(value))
                 : ar_xstrdup(AR_EM_DASH);
}

/* Each non-baseline cell's measures against the baseline (vs_baseline);
 * returns whether any was written. */
static int verdict_table(FILE *out, const ar_json_t *cells)
{
    static const char *const headers[] = {"Cell",    "Measure",         "Baseline", "Cell mean",
                                          "Verdict", "Effect [98% CI]", "p",        "n",
                                          "Gated"};
    ar_md_table_t table = {.columns = 9};
    for (size_t i = 0; i < 9; i++)
        ar_md_table_add(&table, ar_xstrdup(headers[i]));
    size_t rows = 0;
    for (size_t i = 0; i < ar_json_length(cells); i++) {
        const ar_json_t *cell = ar_json_at(cells, i);
        const ar_json_t *measures = ar_json_get(cell, "vs_baseline");
        for (size_t m = 0; m < ar_json_length(measures); m++, rows++) {
            const ar_json_t *measure = ar_json_at(measures, m);
            ar_md_table_add(&table, ar_md_escape(ar_json_get_string(
                                           ar_json_get(cell, "name"))));
            ar_md_table_add(&table, measure_name(measure));
            ar_md_table_add(&table, mean_text(measure, "mean_a"));
            ar_md_table_add(&table, mean_text(measure, "mean_b"));
            ar_md_table_add(&table, ar_xstrdup(ar_json_get_string(
                                           ar_json_get(measure, "verdict"))));
            ar_md_table_add(&table, ar_measure_effect_text(measure));
            ar_md_table_add(&table, ar_measure_p_text(measure));
            ar_md_table_add(&table, ar_xasprintf(
                                           "%lld vs %lld",
                                           (long long)ar_json_get_int(ar_json_get(measure, "n_a")),
                                           (long long)ar_json_get_int(ar_json_get(measure, "n_b"))));
            ar_md_table_add(&table, ar_xstrdup(ar_json_get_bool(ar_json_get(
                                                         measure, "gated"))
                                                         ? "yes"
                                                         : "no"));
        }
    }
    if (rows) {
        ar_md_table_render(out, &table);
    } else {
        for (size_t i = 0; i < table.count; i++)
            free(table.cells[i]);
        free(table.cells);
    }
    return rows > 0;
}

/* A header line: its label, the value as Markdown text, its end. */
static void header_line(FILE *out, const char *label, const char *value, const char *end)
{
    fputs(label, out);
    ar_md_put(out, value);
    fputs(end, out);
}

/* The title and the header lines.  baseline is the cell shown as the
 * baseline (--report --baseline), recorded the run's. */
static void header(FILE *out, const ar_json_t *matrix, double run_wall_sec,
                   const char *baseline, const char *recorded_baseline)
{
    const char *workload = ar_json_get_string(ar_json_get(matrix, "workload"));
    const char *ticket = ar_json_get_string(ar_json_get(matrix, "ticket"));
    workload = workload ? workload : "?";
    char *command = command_text(ar_json_get(matrix, "provenance"));
    if (command) {
        fputs("# Performance Report - ", out);
        ar_md_code_put(out, command);
        fputs("\n\n", out);
    } else {
        header_line(out, "# Performance Report - ", workload, "\n\n");
    }
    header_line(out, "**Ticket**: ", ticket ? ticket : "(none)", "  \n");
    header_line(out, "**Workload**: ", workload, "  \n");
    char *stamp = iso_stamp(ar_json_get_string(ar_json_get(matrix, "run_timestamp")));
    const ar_json_t *first = ar_json_get(matrix, "first_run_timestamp");
    if (first) {
        char *first_stamp = iso_stamp(ar_json_get_string(first));
        header_line(out, "**Run timestamp**: ", first_stamp, " (first run); resumed ");
        header_line(out, "", stamp, "  \n");
        free(first_stamp);
    } else {
        header_line(out, "**Run timestamp**: ", stamp, "  \n");
    }
    free(stamp);
    header_line(out, "**Baseline cell**: ", baseline ? baseline : "(none)", "");
    if (baseline && recorded_baseline && strcmp(baseline, recorded_baseline) != 0)
        header_line(out, " (chosen with --report --baseline; the run's was ", recorded_baseline,
                    ")");
    fputs("  \n", out);
    if (command) {
        fputs("**Command**: ", out);
        ar_md_code_put(out, command);
        fputs("  \n", out);
    }
    free(command);
    /* Given by the sweep, else matrix.json's record of it (--report). */
    ar_json_t *recorded = ar_json_get(matrix, "run_wall_clock_sec");
    if (run_wall_sec < 0 && recorded)
        run_wall_sec = ar_json_get_double(recorded);
    const ar_json_t *first_wall = ar_json_get(matrix, "first_run_wall_clock_sec");
    if (run_wall_sec >= 0 && first_wall)
        fprintf(out, "**Run wall time**: %.3f s (first run); %.3f s (resume)  \n",
                ar_json_get_double(first_wall), run_wall_sec);
    else if (run_wall_sec >= 0)
        fprintf(out, "**Run wall time**: %.3f s  \n", run_wall_sec);
    const ar_json_t *warmup = ar_json_get(matrix, "warmup_trials");
    if (warmup && ar_json_get_int(warmup) > 0)
        fprintf(out, "**Warm-up trials**: %lld per cell, left out of every statistic and table  \n",
                (long long)ar_json_get_int(warmup));
    fputs("\n", out);
}

/* Cells whose collector captured nothing while others did: said first. */
static void gaps_section(FILE *out, const ar_json_t *matrix)
{
    ar_json_t *gaps = ar_capture_gaps(matrix);
    for (size_t i = 0; i < ar_json_length(gaps); i++) {
        char *line = ar_md_escape(ar_json_get_string(ar_json_at(gaps, i)));
        fprintf(out, "> **Warning**: %s; its GPU time is no data, not zero.\n\n", line);
        free(line);
    }
    ar_json_free(gaps);
}

char *ar_perf_md(const ar_json_t *matrix, double run_wall_sec, const char *baseline)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = ar_xcheck(open_memstream(&text, &len)); /* NULL: out of memory */
    const char *recorded_baseline = ar_json_get_string(ar_json_get(matrix, "baseline_cell"));
    if (!baseline)
        baseline = recorded_baseline;
    ar_json_t *cells = ar_json_get(matrix, "cells");
    header(out, matrix, run_wall_sec, baseline, recorded_baseline);
    fputs("Step timing and workload metrics of every cell, aggregated from the trial JSON "
          "files under `<cell>/_subprocess/`. Verdicts, counts, failure hints and the full "
          "metric statistics are in `matrix.json`.\n\n",
          out);
    cells_section(out, ar_json_get(matrix, "provenance"));
    gaps_section(out, matrix);
    fputs("## Step timing (ms)\n\n", out);
    step_table(out, cells, baseline);
    fputs("\n", out);
    if (metrics_table(out, cells, baseline))
        fputs("\n> Values are means over each cell's passing trials; min, max and n are in "
              "`matrix.json` (`metrics_summary`); \xe2\x80\x94 = not reported.\n\n",
              out);
    fputs("## Against the baseline\n\n", out);
    if (baseline && recorded_baseline && strcmp(baseline, recorded_baseline) != 0)
        fprintf(out, "These verdicts were judged when the run ended, against its baseline %s "
                     "(`matrix.json`'s `vs_baseline`); `aorta-run --compare` judges any two "
                     "runs.\n\n",
                recorded_baseline);
    if (!verdict_table(out, cells))
        fputs("No cell to compare with the baseline.\n", out);
    fputs("\n> Each measure over the cell's passing trials against the baseline's: Welch's t "
          "test on the log values, Holm-corrected over every gated measure (the collectors' GPU "
          "times and declared metrics across the cells), the effect as a ratio in percent with "
          "its 98% interval, at alpha 0.01 and a 5% threshold; `unchanged` needs the whole "
          "interval inside it. `inconclusive`: too few trials to tell (`matrix.json`'s "
          "`vs_baseline` says how many would). The step time moves with the machine's load and "
          "is not gated.\n\n",
          out);
    fputs("## Notes\n\n", out);
    fputs("- A trial is one step: its step time is the trial's whole wall clock (command, "
          "collectors' parse and bookkeeping), so Iters reads `1/1` for a cell whose trials "
          "all ran.\n",
          out);
    fputs("- `Wall/trial (s)` is the mean wall clock of one trial of the cell; the whole run's "
          "wall time is in the header.\n",
          out);
    fputs("- `n/a`: no trial of the cell launched its command (no timing sample); `error`: the "
          "cell did not run.\n",
          out);
    fputs("- Workload metrics are the collectors' numbers and the platform's `exit_code`; only "
          "passing trials contribute.\n",
          out);
    fclose(out);
    return text;
}
