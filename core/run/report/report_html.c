/* SPDX-License-Identifier: MIT */
/* report_html.c - report.html.  Bars are plain CSS widths so the page needs
 * no script and prints as it shows (print-color-adjust); every kernel name
 * is the short form with the full demangled and raw names one click away
 * (<details>) and in the title. */
#include "config.h"

#include "report/report_html.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel_names.h"
#include "report/perf_md.h"
#include "report/rank_html.h"
#include "record/timeline.h"
#include "record/layout.h"
#include "compare/verdicts.h"
#include "sys/shell_quote.h"
#include "sys/text_escape.h"
#include "xalloc.h"

static const char *const palette[AR_REPORT_STACKED] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7"};
#define OTHER_COLOUR "#bab0ac"

/* Names for people: the entities, control and bidi characters and
 * invalid UTF-8 shown visibly (sys/text_escape.h). */
static void put_escaped(FILE *out, const char *text)
{
    ar_html_put(out, text ? text : "");
}

/* One kernel name: the short form, the full names one click away. */
static void put_name(FILE *out, ar_kernel_names_t *names, const char *raw)
{
    const ar_kernel_name_t *name = ar_kernel_names_get(names, raw);
    const char *full = name->full, *brief = name->brief;
    if (!strcmp(brief, raw)) {
        fputs("<code>", out);
        put_escaped(out, raw);
        fputs("</code>", out);
    } else {
        fputs("<details><summary title=\"", out);
        put_escaped(out, full);
        fputs("\"><code>", out);
        put_escaped(out, brief);
        fputs("</code></summary><code>", out);
        put_escaped(out, full);
        fputs("</code>", out);
        if (strcmp(full, raw) != 0) {
            fputs("<br>raw: <code>", out);
            put_escaped(out, raw);
            fputs("</code>", out);
        }
        fputs("</details>", out);
    }
}

/* A collector's kernels over every cell, by their summed means. */
typedef struct ranked {
    const ar_kagg_kernel_t *kernel;   /* the name's first, for its name and hash */
    double total;
    size_t first;
} ranked_t;

typedef struct ranking {
    ranked_t *items;
    size_t count, capacity;
    uint32_t *slots;       /* open addressing over items by the kernels' hash: index + 1 */
    size_t slot_count;     /* a power of two */
} ranking_t;

static int by_total(const void *left, const void *right)
{
    const ranked_t *a = left, *b = right;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

/* The slot of kernel's name: its item's, or the empty one it would take.
 * The hash is the one the cell's table computed: a run has hundreds of
 * thousands of rows, and every name is hashed once already. */
static size_t ranking_slot(const ranking_t *ranking, const ar_kagg_kernel_t *kernel)
{
    size_t mask = ranking->slot_count - 1;
    for (size_t slot = (size_t)kernel->hash & mask;; slot = (slot + 1) & mask) {
        uint32_t at = ranking->slots[slot];
        if (!at)
            return slot;
        const ar_kagg_kernel_t *seen = ranking->items[at - 1].kernel;
        if (seen->hash == kernel->hash && seen->name_len == kernel->name_len
            && !memcmp(seen->name, kernel->name, kernel->name_len))
            return slot;
    }
}

static void ranking_grow(ranking_t *ranking)
{
    free(ranking->slots);
    ranking->slot_count = ranking->slot_count ? ranking->slot_count * 2 : 256;
    ranking->slots = ar_xcalloc(ranking->slot_count, sizeof *ranking->slots);
    for (size_t i = 0; i < ranking->count; i++)
        ranking->slots[ranking_slot(ranking, ranking->items[i].kernel)] = (uint32_t)(i + 1);
}

static void rank_kernels(const ar_kagg_run_t *run, const char *collector, ranking_t *ranking)
{
    ranking_grow(ranking);
    for (size_t c = 0; c < run->count; c++) {
        const ar_kagg_table_t *table = ar_kagg_table(&run->cells[c], collector);
        for (size_t k = 0; table && k < table->count; k++) {
            const ar_kagg_kernel_t *kernel = &table->kernels[k];
            size_t slot = ranking_slot(ranking, kernel);
            if (!ranking->slots[slot]) {
                ar_xgrow((void **)&ranking->items, &ranking->capacity, ranking->count + 1,
                            sizeof *ranking->items);
                ranking->items[ranking->count] = (ranked_t){kernel, 0.0, ranking->count};
                ranking->slots[slot] = (uint32_t)++ranking->count;
                if (ranking->count * 2 > ranking->slot_count)
                    ranking_grow(ranking);
                slot = ranking_slot(ranking, kernel);
            }
            ranking->items[ranking->slots[slot] - 1].total += kernel->mean_ms;
        }
    }
    free(ranking->slots); /* the sort moves the items */
    ranking->slots = NULL;
    if (ranking->count > 1) /* qsort() takes no NULL array, even empty */
        qsort(ranking->items, ranking->count, sizeof *ranking->items, by_total);
}

static void overview(FILE *out, const ar_kagg_run_t *run, const char *collector,
                     const ranking_t *ranking, ar_kernel_names_t *names)
{
    size_t stacked = ranking->count < AR_REPORT_STACKED ? ranking->count : AR_REPORT_STACKED;
    double longest = 0;
    for (size_t c = 0; c < run->count; c++) {
        const ar_kagg_table_t *table = ar_kagg_table(&run->cells[c], collector);
        if (table && table->gpu_mean_ms > longest)
            longest = table->gpu_mean_ms;
    }
    fputs("<h2>GPU time per cell: ", out);
    put_escaped(out, collector);
    fputs("</h2>\n<div class=\"legend\">", out);
    for (size_t k = 0; k < stacked; k++) {
        fprintf(out, "<span class=\"key\"><i style=\"background:%s\"></i>", palette[k]);
        put_name(out, names, ranking->items[k].kernel->name);
        fputs("</span>", out);
    }
    fputs("<span class=\"key\"><i style=\"background:" OTHER_COLOUR "\"></i>other</span></div>\n",
          out);
    fputs("<div class=\"bars\">\n", out);
    for (size_t c = 0; c < run->count; c++) {
        const ar_kagg_cell_t *cell = &run->cells[c];
        const ar_kagg_table_t *table = ar_kagg_table(cell, collector);
        fputs("<div class=\"row\"><span class=\"label\">", out);
        put_escaped(out, cell->name);
        if (run->baseline && !strcmp(cell->name, run->baseline))
            fputs(" <small>(baseline)</small>", out);
        fputs("</span>", out);
        if (!table || longest <= 0) {
            fputs("<span class=\"none\">no kernel table</span></div>\n", out);
            continue;
        }
        fprintf(out, "<span class=\"track\"><span class=\"bar\" style=\"width:%.2f%%\">",
                100.0 * table->gpu_mean_ms / longest);
        double rest = table->gpu_mean_ms;
        for (size_t k = 0; k < stacked; k++) {
            const ar_kagg_kernel_t *kernel = ar_kagg_kernel(table,
                                                                  ranking->items[k].kernel->name);
            if (!kernel || table->gpu_mean_ms <= 0)
                continue;
            rest -= kernel->mean_ms;
            fprintf(out, "<span style=\"width:%.2f%%;background:%s\" title=\"",
                    100.0 * kernel->mean_ms / table->gpu_mean_ms, palette[k]);
            put_escaped(out, kernel->name);
            fprintf(out, ": %.3f ms\"></span>", kernel->mean_ms);
        }
        if (rest > 0 && table->gpu_mean_ms > 0)
            fprintf(out, "<span style=\"width:%.2f%%;background:" OTHER_COLOUR
                         "\" title=\"other: %.3f ms\"></span>",
                    100.0 * rest / table->gpu_mean_ms, rest);
        fprintf(out, "</span></span><span class=\"value\">%.3f ms</span></div>\n",
                table->gpu_mean_ms);
    }
    fputs("</div>\n", out);
}

/* A verdict as a person who cannot tell red from green still reads it: a
 * glyph and a word, on a blue or orange ground (docs/design.md). */
static const char *verdict_glyph(const char *verdict)
{
    return !strcmp(verdict, "regressed")      ? "\xe2\x96\xb2 "  /* ▲ */
           : !strcmp(verdict, "improved")     ? "\xe2\x96\xbc "  /* ▼ */
           : !strcmp(verdict, "inconclusive") ? "? "
                                              : "= ";
}

/* Each shown cell's kernels judged against the baseline's (a family per
 * cell and collector); entries stay empty for the baseline itself. */
static ar_measures_t *judge_columns(const ar_kagg_run_t *run, const char *collector,
                                       const ar_kagg_table_t *base, size_t columns)
{
    ar_measures_t *sets = ar_xcalloc(columns ? columns : 1, sizeof *sets);
    ar_verdict_request_t request = AR_VERDICT_REQUEST_INIT;
    for (size_t c = 0; base && c < columns; c++) {
        const ar_kagg_cell_t *cell = &run->cells[c];
        const ar_kagg_table_t *table = ar_kagg_table(cell, collector);
        if (!table || (run->baseline && !strcmp(cell->name, run->baseline)))
            continue;
        ar_measures_add_kernels(&sets[c], cell->name, base, table, &request);
        char *error = NULL;
        if (ar_measures_judge(&sets[c], &request.stats, &error) != 0)
            ar_measures_clear(&sets[c]); /* finite times only: not reached */
        free(error);
    }
    return sets;
}

static const ar_measure_t *find_kernel(const ar_measures_t *set, const char *name)
{
    for (size_t m = 0; m < set->count; m++)
        if (!strcmp(set->items[m].kernel, name))
            return &set->items[m];
    return NULL;
}

/* The change under a value: the verdict's glyph and effect, its interval
 * and p in the title. */
static void put_change(FILE *out, const ar_measure_t *m)
{
    ar_json_t *json = ar_measure_json(m);
    const char *verdict = ar_json_get_string(ar_json_get(json, "verdict"));
    char *effect = ar_measure_effect_text(json), *p = ar_measure_p_text(json);
    fprintf(out, "<br><small class=\"v-%s\" title=\"%s %s p=%s\">%s", verdict, verdict,
            effect, p, verdict_glyph(verdict));
    if (m->result.effect_pct == m->result.effect_pct && m->n_a && !isinf(m->result.effect_pct))
        fprintf(out, "%+.1f%%", m->result.effect_pct);
    else
        fputs(m->n_a ? "?" : "new", out);
    fputs("</small>", out);
    free(effect);
    free(p);
    ar_json_free(json);
}

static void comparison(FILE *out, const ar_kagg_run_t *run, const char *collector,
                       const ranking_t *ranking, ar_kernel_names_t *names)
{
    const ar_kagg_table_t *base = ar_kagg_table(ar_kagg_cell(run, run->baseline),
                                                      collector);
    size_t rows = ranking->count < AR_REPORT_ROWS ? ranking->count : AR_REPORT_ROWS;
    size_t columns = run->count < AR_REPORT_COLUMNS ? run->count : AR_REPORT_COLUMNS;
    fputs("<h2>Kernels across cells: ", out);
    put_escaped(out, collector);
    fprintf(out, "</h2>\n<p>Mean ms over each cell's passing trials; below each value its "
                 "verdict against the baseline (U test, Holm over the cell's kernels, alpha "
                 "0.01, threshold 5%%; the interval and p in its tooltip): "
                 "<span class=\"v-regressed\">\xe2\x96\xb2 regressed</span> "
                 "<span class=\"v-improved\">\xe2\x96\xbc improved</span> "
                 "<span class=\"v-unchanged\">= unchanged</span> "
                 "<span class=\"v-inconclusive\">? inconclusive</span>. The top %zu of %zu "
                 "kernels and the first %zu of %zu cells; every kernel is in "
                 "<code>&lt;cell&gt;/kernels.json</code>.</p>\n",
            rows, ranking->count, columns, run->count);
    ar_measures_t *judged = judge_columns(run, collector, base, columns);
    fputs("<table class=\"cmp\"><thead><tr><th>Kernel</th>", out);
    for (size_t c = 0; c < columns; c++) {
        fputs("<th>", out);
        put_escaped(out, run->cells[c].name);
        fputs("</th>", out);
    }
    fputs("</tr></thead><tbody>\n", out);
    for (size_t r = 0; r < rows; r++) {
        const char *name = ranking->items[r].kernel->name;
        /* The same colour as in the bars: the ranking is the same. */
        fprintf(out, "<tr><td class=\"name\"><i class=\"sw\" style=\"background:%s\"></i>",
                r < AR_REPORT_STACKED ? palette[r] : OTHER_COLOUR);
        put_name(out, names, name);
        fputs("</td>", out);
        for (size_t c = 0; c < columns; c++) {
            const ar_kagg_cell_t *cell = &run->cells[c];
            const ar_kagg_kernel_t *kernel = ar_kagg_kernel(ar_kagg_table(cell, collector),
                                                                  name);
            if (!kernel) {
                fputs("<td class=\"absent\">\xe2\x80\x94</td>", out);
                continue;
            }
            fprintf(out, "<td>%.3f", kernel->mean_ms);
            const ar_measure_t *m = find_kernel(&judged[c], name);
            if (m)
                put_change(out, m);
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    for (size_t c = 0; c < columns; c++)
        ar_measures_clear(&judged[c]);
    free(judged);
}

static int html_variable(const char *name, ar_json_t *value, void *user)
{
    FILE *out = user;
    fputs(" <code>", out);
    put_escaped(out, name);
    fputs("=", out);
    put_escaped(out, ar_json_get_string(value) ? ar_json_get_string(value) : "");
    fputs("</code>", out);
    return 0;
}

static int html_cell(const char *cell, ar_json_t *vars, void *user)
{
    FILE *out = user;
    fputs("<li><b>", out);
    put_escaped(out, cell);
    fputs("</b>:", out);
    ar_json_foreach(vars, html_variable, out);
    fputs("</li>\n", out);
    return 0;
}

/* The command and each cell's variables (matrix.json's provenance). */
static void what_ran(FILE *out, const ar_json_t *matrix)
{
    const ar_json_t *provenance = ar_json_get(matrix, "provenance");
    const ar_json_t *command = ar_json_get(provenance, "command");
    if (!command)
        return;
    /* Shell-quoted: pasting it runs what ran. */
    char *text = ar_shell_join_json(command);
    fputs("<p class=\"meta\">Command: <code>", out);
    put_escaped(out, text);
    fputs("</code></p>\n<ul class=\"meta\">\n", out);
    free(text);
    ar_json_foreach(ar_json_get(provenance, "cells"), html_cell, out);
    fputs("</ul>\n", out);
}

/* The cells' measures against the baseline: matrix.json's vs_baseline. */
/* Every cell's metrics (the mean across its trials), as perf.md's table:
 * what a collector that reports only metrics shows. */
static void metrics(FILE *out, const ar_json_t *matrix, const char *baseline)
{
    const ar_json_t *cells = ar_json_get(matrix, "cells");
    size_t count = 0;
    char **names = ar_perf_metric_names(cells, &count);
    if (!count)
        return;
    fputs("<h2>Workload metrics (mean across trials)</h2>\n<table class=\"cmp\" "
          "id=\"metrics\"><thead><tr><th>Cell</th>",
          out);
    for (size_t n = 0; n < count; n++) {
        fputs("<th>", out);
        put_escaped(out, names[n]);
        fputs("</th>", out);
    }
    fputs("</tr></thead><tbody>\n", out);
    for (size_t i = 0; i < ar_json_length(cells); i++) {
        const ar_json_t *cell = ar_json_at(cells, i);
        const char *name = ar_json_get_string(ar_json_get(cell, "name"));
        const ar_json_t *summary = ar_json_get(cell, "metrics_summary");
        fputs("<tr><td class=\"name\">", out);
        put_escaped(out, name);
        if (name && baseline && !strcmp(name, baseline))
            fputs(" (baseline)", out);
        fputs("</td>", out);
        for (size_t n = 0; n < count; n++) {
            char *text = ar_perf_metric_mean(names[n], ar_json_get(summary, names[n]));
            fputs("<td>", out);
            put_escaped(out, text);
            fputs("</td>", out);
            free(text);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    for (size_t n = 0; n < count; n++)
        free(names[n]);
    free(names);
}

static void verdicts(FILE *out, const ar_json_t *matrix)
{
    const ar_json_t *cells = ar_json_get(matrix, "cells");
    fputs("<h2>Against the baseline</h2>\n<p>Each measure over the cell's passing trials "
          "against the baseline's: Welch's t test on the log values, Holm-corrected over the "
          "gated measures, the effect with its 98% interval; the step time is not gated.</p>\n"
          "<table class=\"cmp\"><thead><tr><th>Cell</th><th>Measure</th><th>Baseline</th>"
          "<th>Cell</th><th>Verdict</th><th>Effect [98% CI]</th><th>p</th><th>n</th>"
          "</tr></thead><tbody>\n",
          out);
    for (size_t i = 0; i < ar_json_length(cells); i++) {
        const ar_json_t *cell = ar_json_at(cells, i);
        const ar_json_t *measures = ar_json_get(cell, "vs_baseline");
        for (size_t m = 0; m < ar_json_length(measures); m++) {
            const ar_json_t *e = ar_json_at(measures, m);
            const char *verdict = ar_json_get_string(ar_json_get(e, "verdict"));
            const ar_json_t *collector = ar_json_get(e, "collector");
            fputs("<tr><td class=\"name\">", out);
            put_escaped(out, ar_json_get_string(ar_json_get(cell, "name")));
            fputs("</td><td class=\"name\">", out);
            if (collector) {
                put_escaped(out, ar_json_get_string(collector));
                fputs(" ", out);
            }
            put_escaped(out, ar_json_get_string(ar_json_get(e, "measure")));
            if (!ar_json_get_bool(ar_json_get(e, "gated")))
                fputs(" <small>(not gated)</small>", out);
            fputs("</td>", out);
            static const char *const means[] = {"mean_a", "mean_b"};
            for (size_t k = 0; k < 2; k++) {
                const ar_json_t *value = ar_json_get(e, means[k]);
                if (value)
                    fprintf(out, "<td>%.3f</td>", ar_json_get_double(value));
                else
                    fputs("<td class=\"absent\">\xe2\x80\x94</td>", out);
            }
            char *effect = ar_measure_effect_text(e), *p = ar_measure_p_text(e);
            fprintf(out, "<td class=\"v-%s\">%s%s</td><td>%s</td><td>%s</td>"
                         "<td>%lld vs %lld</td></tr>\n",
                    verdict, verdict_glyph(verdict), verdict, effect, p,
                    (long long)ar_json_get_int(ar_json_get(e, "n_a")),
                    (long long)ar_json_get_int(ar_json_get(e, "n_b")));
            free(effect);
            free(p);
        }
    }
    fputs("</tbody></table>\n", out);
}

static void step_timing(FILE *out, const ar_json_t *matrix)
{
    const ar_json_t *cells = ar_json_get(matrix, "cells");
    fputs("<h2>Trials and step timing</h2>\n<table class=\"cmp\"><thead><tr><th>Cell</th>"
          "<th>Trials</th><th>Passed</th><th>Mean step (ms)</th><th>Min</th><th>Max</th>"
          "</tr></thead><tbody>\n",
          out);
    for (size_t i = 0; i < ar_json_length(cells); i++) {
        const ar_json_t *cell = ar_json_at(cells, i);
        fputs("<tr><td class=\"name\">", out);
        put_escaped(out, ar_json_get_string(ar_json_get(cell, "name")));
        fprintf(out, "</td><td>%lld</td><td>%lld</td>",
                (long long)ar_json_get_int(ar_json_get(cell, "trials")),
                (long long)ar_json_get_int(ar_json_get(cell, "passed_count")));
        static const char *const keys[] = {"mean_step_time_ms", "min_step_time_ms",
                                           "max_step_time_ms"};
        for (size_t k = 0; k < 3; k++) {
            const ar_json_t *value = ar_json_get(cell, keys[k]);
            if (value)
                fprintf(out, "<td>%.3f</td>", ar_json_get_double(value));
            else
                fputs("<td class=\"absent\">n/a</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

/* Each cell's lane chart: its first passing trial's timeline. */
static void timelines(FILE *out, const ar_kagg_run_t *run)
{
    size_t drawn = 0;
    for (size_t c = 0; c < run->count; c++) {
        const ar_kagg_cell_t *cell = &run->cells[c];
        if (!cell->lanes)
            continue;
        if (!drawn++)
            fputs("<h2>Timeline</h2>\n<p class=\"meta\">Each cell's first passing trial: a lane "
                  "per rank and queue or stream, each column in the colour of the kernel that "
                  "covers most of it.  Every dispatch is in the trial's <code>timeline.json</code>"
                  " (open it in Perfetto or <code>chrome://tracing</code>).</p>\n",
                  out);
        char *json_rel = ar_trial_json_rel(cell->name, (int)(cell->first_passing - 1));
        char *file = ar_timeline_path(json_rel);
        fputs("<h3>", out);
        put_escaped(out, cell->name);
        fputs("</h3>\n<p class=\"meta\"><code>", out);
        put_escaped(out, file);
        fputs("</code></p>\n<div class=\"timeline\">", out);
        fputs(cell->lanes, out);
        free(file);
        free(json_rel);
        fputs("</div>\n", out);
    }
}

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}"
    ".meta{color:#555}.legend{margin:.5em 0}.key{display:inline-block;margin:0 1em .3em 0}"
    ".key i{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:middle}"
    ".key details,.name details{display:inline-block}"
    ".sw{display:inline-block;width:.7em;height:.7em;margin-right:.4em}"
    "summary,.cmp th,.cmp td.name{white-space:nowrap}code{font-size:.92em}details[open]{white-space:normal;word-break:break-all}"
    ".row{display:flex;align-items:center;margin:2px 0}"
    ".label{width:16em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}"
    ".track{flex:1;background:#f2f2f2;height:1.2em}"
    ".bar{display:flex;height:100%}.bar span{display:block;height:100%}"
    ".value{width:8em;text-align:right}.none{color:#888}"
    "table.cmp{border-collapse:collapse;margin:.5em 0}"
    ".cmp th,.cmp td{border:1px solid #ddd;padding:2px 6px;text-align:right;vertical-align:top}"
    ".cmp td.name,.cmp th:first-child{text-align:left}.absent{color:#999}"
    ".up{color:#b00}.down{color:#070}.same{color:#666}summary{cursor:pointer}"
    ".heat td{text-align:right}.heat tr.slowest td.name{font-weight:bold}"
    ".rank-bars .slowest .label{font-weight:bold}"
    ".timeline{overflow-x:auto}.timeline svg{max-width:100%;height:auto}"
    /* Verdicts: a glyph and a word, blue or orange (safe for red-green
     * colour blindness), and a regression in bold. */
    ".v-regressed{background:#fdd9b5;color:#7a3300;font-weight:bold;padding:0 .2em}"
    ".v-improved{background:#cfe3f7;color:#0b3d73;padding:0 .2em}"
    ".v-unchanged{color:#555}.v-inconclusive{color:#555;font-style:italic}"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
    "@media print{body{margin:0;max-width:none}details{page-break-inside:avoid}}";

/* What the title names: the command as provenance recorded it, else (a run
 * of an older aorta) the ticket. */
static void put_title(FILE *out, const ar_json_t *matrix, const char *ticket)
{
    const ar_json_t *command = ar_json_get(ar_json_get(matrix, "provenance"), "command");
    if (!ar_json_length(command)) {
        put_escaped(out, ticket ? ticket : "(no ticket)");
        return;
    }
    char *text = ar_shell_join_json(command);
    put_escaped(out, text);
    free(text);
}

char *ar_report_html(const ar_json_t *matrix, const ar_kagg_run_t *run)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        abort();
    const char *ticket = ar_json_get_string(ar_json_get(matrix, "ticket"));
    const char *stamp = ar_json_get_string(ar_json_get(matrix, "run_timestamp"));
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width\"><title>aorta report: ",
          out);
    put_title(out, matrix, ticket);
    fprintf(out, "</title><style>%s</style></head><body>\n<h1>aorta report: ", style);
    put_title(out, matrix, ticket);
    fputs("</h1>\n<p class=\"meta\">Ticket ", out);
    put_escaped(out, ticket ? ticket : "(none)");
    fputs(", run ", out);
    put_escaped(out, stamp ? stamp : "?");
    fprintf(out, ", %zu cell(s), baseline <b>", run->count);
    put_escaped(out, run->baseline ? run->baseline : "(none)");
    fputs("</b>.</p>\n", out);
    what_ran(out, matrix);
    /* The collectors in the order cells first name them. */
    const char **collectors = NULL;
    size_t ncollectors = 0, capacity = 0;
    for (size_t c = 0; c < run->count; c++)
        for (size_t t = 0; t < run->cells[c].count; t++) {
            const char *name = run->cells[c].tables[t].collector;
            size_t i = 0;
            while (i < ncollectors && strcmp(collectors[i], name) != 0)
                i++;
            if (i == ncollectors) {
                ar_xgrow((void **)&collectors, &capacity, ncollectors + 1, sizeof *collectors);
                collectors[ncollectors++] = name;
            }
        }
    if (!ncollectors)
        fputs("<p>No cell has a kernel table: the run had no collector, or no trial "
              "passed.</p>\n",
              out);
    ar_kernel_names_t *names = ar_kernel_names_new();
    for (size_t i = 0; i < ncollectors; i++) {
        ranking_t ranking = {0};
        rank_kernels(run, collectors[i], &ranking);
        overview(out, run, collectors[i], &ranking, names);
        comparison(out, run, collectors[i], &ranking, names);
        ar_rank_html(out, run, collectors[i], names);
        free(ranking.items);
    }
    ar_kernel_names_free(names);
    free(collectors);
    timelines(out, run);
    metrics(out, matrix, run->baseline);
    verdicts(out, matrix);
    step_timing(out, matrix);
    fputs("<p class=\"meta\">Written by aorta-run from the run's trial records; "
          "<code>aorta-run --report DIR</code> writes it again.</p>\n</body></html>\n",
          out);
    fclose(out);
    return text;
}
