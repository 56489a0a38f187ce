/* SPDX-License-Identifier: MIT */
/* compare_md.c - --compare --markdown FILE: a pull-request comment, read
 * in about twenty lines for a six-cell run: the outcome, a row per
 * regressed or undecided headline measure, what broke the candidate, the
 * largest kernel changes, the trials that would settle what is undecided.
 * Rendered from the comparison's JSON; every name through the Markdown
 * escaping layer (sys/text_escape.h). */
#include "config.h"

#include "compare/ci_outputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/verdicts.h"
#include "kernels/demangle.h"
#include "stats/stats.h"
#include "sys/text_escape.h"
#include "xalloc.h"

/* Width of a kernel name in the summary's table. */
#define SUMMARY_KERNEL_WIDTH 48

static void put_number(FILE *out, const ar_json_t *obj, const char *key)
{
    double value = ar_ci_number(obj, key);
    if (isnan(value))
        fputs("\xe2\x80\x93", out); /* an en dash */
    else
        fprintf(out, "%.4g", value);
}

/* "| A | B | verdict | change |" of one measure or kernel. */
static void put_sides(FILE *out, const ar_json_t *m)
{
    fputs(" | ", out);
    put_number(out, m, "mean_a");
    fputs(" | ", out);
    put_number(out, m, "mean_b");
    const char *verdict = ar_json_get_string(ar_json_get(m, "verdict"));
    fprintf(out, !strcmp(verdict, "regressed") ? " | **%s**" : " | %s", verdict);
    if (ar_ci_undecided(m))
        fputs(" (undecided)", out);
    fputs(" | ", out);
    char *effect = ar_measure_effect_text(m);
    ar_md_put(out, effect);
    free(effect);
    fputs(" |\n", out);
}

/* The regressed and undecided headline measures; returns how many rows,
 * the most trials a side any undecided one needs in *needed. */
static size_t measures_table(FILE *out, const ar_json_t *cmp, double ci_level, size_t *needed)
{
    const ar_json_t *cells = ar_json_get(cmp, "cells");
    size_t rows = 0;
    for (size_t c = 0; c < ar_json_length(cells); c++) {
        const ar_json_t *cell = ar_json_at(cells, c);
        const ar_json_t *measures = ar_json_get(cell, "measures");
        for (size_t i = 0; i < ar_json_length(measures); i++) {
            const ar_json_t *m = ar_json_at(measures, i);
            if (!ar_ci_regressed(m) && !ar_ci_undecided(m))
                continue;
            if (ar_ci_undecided(m)) {
                double want = ar_ci_number(m, "trials_needed");
                size_t n = isnan(want) ? AR_STATS_MIN_TRIALS : (size_t)want;
                if (n > *needed)
                    *needed = n;
            }
            if (!rows++)
                fprintf(out, "| cell | measure | A | B | verdict | change [%g%% interval] |\n"
                             "|:--|:--|--:|--:|:--|:--|\n",
                        100.0 * ci_level);
            char *label = ar_ci_measure_label(m);
            const char *measure = ar_json_get_string(ar_json_get(m, "measure"));
            fputs("| ", out);
            ar_md_put(out, ar_json_get_string(ar_json_get(cell, "name")));
            fputs(" | ", out);
            ar_md_put(out, label);
            fputs(strstr(measure, "_ms") ? " (ms)" : "", out);
            put_sides(out, m);
            free(label);
        }
    }
    return rows;
}

static void kernels_table(FILE *out, const ar_json_t *cmp)
{
    ar_json_t *top = ar_ci_top_kernels(cmp, AR_CI_SUMMARY_KERNELS);
    if (ar_json_length(top))
        fputs("\n**Largest kernel changes**\n\n| cell | kernel | A (ms) | B (ms) | verdict | "
              "change |\n|:--|:--|--:|--:|:--|:--|\n",
              out);
    for (size_t i = 0; i < ar_json_length(top); i++) {
        const ar_json_t *entry = ar_json_at(top, i);
        const ar_json_t *k = ar_json_get(entry, "kernel");
        const char *display = ar_json_get_string(ar_json_get(k, "display"));
        char *brief = ar_kernel_short(display ? display : "", SUMMARY_KERNEL_WIDTH);
        fputs("| ", out);
        ar_md_put(out, ar_json_get_string(ar_json_get(ar_json_get(entry, "cell"), "name")));
        fputs(" | ", out);
        ar_md_put(out, brief); /* not a code span: a '|' in one still splits a table cell */
        const char *status = ar_json_get_string(ar_json_get(k, "status"));
        if (status && strcmp(status, "common"))
            fprintf(out, " (%s)", status);
        put_sides(out, k);
        free(brief);
    }
    ar_json_free(top);
}

static void list(FILE *out, const char *title, const ar_json_t *lines, size_t max)
{
    size_t count = ar_json_length(lines);
    if (!count)
        return;
    fprintf(out, "\n**%s**\n\n", title);
    for (size_t i = 0; i < count && i < max; i++) {
        fputs("- ", out);
        ar_md_put(out, ar_json_get_string(ar_json_at(lines, i)));
        fputs("\n", out);
    }
    if (count > max)
        fprintf(out, "- and %zu more (the --html page lists them)\n", count - max);
}

char *ar_compare_markdown(const ar_json_t *cmp)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = ar_xcheck(open_memstream(&text, &len));
    const ar_json_t *gate = ar_json_get(cmp, "gate");
    const char *outcome = ar_json_get_string(ar_json_get(gate, "outcome"));
    double ci_level = ar_ci_number(cmp, "ci_level");
    fprintf(out, "### aorta: gate %s (exit %lld)\n\n",
            !strcmp(outcome, "failed") ? "**FAILED**" : outcome,
            (long long)ar_json_get_int(ar_json_get(gate, "exit_status")));
    ar_md_code_put(out, ar_json_get_string(ar_json_get(cmp, "run_a")));
    fputs(" \xe2\x86\x92 ", out);
    ar_md_code_put(out, ar_json_get_string(ar_json_get(cmp, "run_b")));
    fprintf(out, ": %zu cell(s); Welch's t on log values, Holm, \xce\xb1 %g, \xce\xb4 %g%%.\n\n",
            ar_json_length(ar_json_get(cmp, "cells")), ar_ci_number(cmp, "alpha"),
            ar_ci_number(cmp, "threshold_pct"));
    size_t needed = 0;
    if (!measures_table(out, cmp, ci_level, &needed))
        fputs("No headline measure regressed or is undecided.\n", out);
    list(out, "Broken candidate", ar_json_get(gate, "broken"), AR_CI_SUMMARY_REASONS);
    if (!strcmp(outcome, "no verdict") && !needed)
        list(out, "No verdict", ar_json_get(gate, "reasons"), AR_CI_SUMMARY_REASONS);
    kernels_table(out, cmp);
    if (needed)
        fprintf(out, "\nAbout **%zu trials a side** would settle what is undecided "
                     "(`--trials %zu`).\n",
                needed, needed);
    list(out, "Noted", ar_json_get(gate, "notes"), AR_CI_SUMMARY_REASONS);
    fclose(out);
    return text;
}
