/* SPDX-License-Identifier: MIT */
/* kernel_md.c - perf.md's "GPU kernels" section: per cell and collector the
 * top kernels by mean time, their share of the cell's GPU time, launches,
 * and the change against the baseline cell.  The ten rows are sorted by
 * that change, largest growth first, so a regression tops its table; the
 * baseline's own table is sorted by time. */
#include "config.h"

#include "report/kernel_md.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/demangle.h"
#include "kernels/kernel_names.h"
#include "report/matrix.h"
#include "report/md_table.h"
#include "report/rank_md.h"
#include "compare/verdicts.h"
#include "sys/text_escape.h"
#include "xalloc.h"

typedef struct row {
    const ar_kagg_kernel_t *kernel;
    const ar_kagg_kernel_t *base;   /* the same kernel in the baseline, or NULL */
    double delta;                      /* ms; the kernel's whole mean when new */
    ar_json_t *verdict;             /* its measure against the baseline, or NULL */
} row_t;

/* Each shown kernel's verdict against the baseline's table: the cell's
 * kernels of this collector are one family. */
static void judge_rows(row_t *rows, size_t shown, const ar_kagg_cell_t *cell,
                       const ar_kagg_table_t *table, const ar_kagg_table_t *base)
{
    ar_measures_t set = {0};
    ar_verdict_request_t request = AR_VERDICT_REQUEST_INIT;
    ar_measures_add_kernels(&set, cell->name, base, table, &request);
    char *error = NULL;
    if (ar_measures_judge(&set, &request.stats, &error) == 0)
        for (size_t i = 0; i < shown; i++)
            for (size_t m = 0; m < set.count; m++)
                if (!strcmp(set.items[m].kernel, rows[i].kernel->name)) {
                    rows[i].verdict = ar_measure_json(&set.items[m]);
                    break;
                }
    free(error); /* the tables hold finite times only */
    ar_measures_clear(&set);
}

/* The verdict, its effect with the interval, and p; dashes without one. */
static void add_verdict(ar_md_table_t *md, const ar_json_t *verdict)
{
    if (!verdict) {
        for (size_t i = 0; i < 3; i++)
            ar_md_table_add(md, ar_xstrdup(AR_EM_DASH));
        return;
    }
    ar_md_table_add(md, ar_xstrdup(ar_json_get_string(ar_json_get(verdict,
                                                                              "verdict"))));
    ar_md_table_add(md, ar_measure_effect_text(verdict));
    ar_md_table_add(md, ar_measure_p_text(verdict));
}

static int by_delta(const void *left, const void *right)
{
    const row_t *a = left, *b = right;
    if (a->delta != b->delta)
        return a->delta > b->delta ? -1 : 1;
    return a->kernel->first_seen < b->kernel->first_seen ? -1
                                                         : a->kernel->first_seen > b->kernel->first_seen;
}

static char *launches_text(double launches)
{
    if (launches < 0)
        return ar_xstrdup(AR_EM_DASH);
    return launches == floor(launches) ? ar_xasprintf("%.0f", launches)
                                       : ar_xasprintf("%.1f", launches);
}

/* The full names of the rows a table shortened or demangled. */
static void full_names(FILE *out, const row_t *rows, const ar_kernel_name_t **names,
                       size_t shown)
{
    int listed = 0;
    for (size_t i = 0; i < shown; i++) {
        const char *raw = rows[i].kernel->name, *full = names[i]->full;
        if (!strcmp(full, raw) && strlen(raw) <= AR_KERNEL_NAME_WIDTH)
            continue;
        if (!listed++)
            fputs("\n", out);
        fprintf(out, "- %zu: ", i + 1);
        ar_md_code_put(out, full);
        if (strcmp(full, raw) != 0) {
            fputs(" (raw ", out);
            ar_md_code_put(out, raw);
            fputs(")", out);
        }
        fputs("\n", out);
    }
}

static void one_table(FILE *out, const ar_kagg_cell_t *cell, const ar_kagg_table_t *table,
                      const ar_kagg_table_t *base, int is_baseline,
                      ar_kernel_names_t *names)
{
    size_t shown = table->count < AR_KERNEL_MD_TOP ? table->count : AR_KERNEL_MD_TOP;
    row_t *rows = ar_xcalloc(shown ? shown : 1, sizeof *rows);
    for (size_t i = 0; i < shown; i++) {
        rows[i].kernel = &table->kernels[table->order[i]];
        rows[i].base = is_baseline ? NULL : ar_kagg_kernel(base, rows[i].kernel->name);
        rows[i].delta = rows[i].kernel->mean_ms - (rows[i].base ? rows[i].base->mean_ms : 0.0);
    }
    if (!is_baseline && base && shown > 1)
        qsort(rows, shown, sizeof *rows, by_delta);
    if (!is_baseline && base)
        judge_rows(rows, shown, cell, table, base);
    fputs("### ", out);
    ar_md_put(out, cell->name);
    fprintf(out, "%s \xe2\x80\x94 ", is_baseline ? " (baseline)" : "");
    ar_md_put(out, table->collector);
    fputs("\n\n", out);
    fprintf(out, "GPU time %.3f ms (min %.3f, max %.3f) over %zu passing trial(s), %zu kernel(s).\n\n",
            table->gpu_mean_ms, table->gpu_min, table->gpu_max, table->trials, table->count);
    static const char *const headers[] = {"#",       "Kernel",          "Mean (ms)", "Share",
                                          "Launches", "\xce\x94 ms",      "\xce\x94 %",
                                          "Verdict", "Effect [98% CI]", "p",         "Trials"};
    ar_md_table_t md = {.columns = 11};
    for (size_t i = 0; i < 11; i++)
        ar_md_table_add(&md, ar_xstrdup(headers[i]));
    double total = table->gpu_mean_ms, rest = total;
    const ar_kernel_name_t **shown_names = ar_xcalloc(shown ? shown : 1,
                                                            sizeof *shown_names);
    for (size_t i = 0; i < shown; i++) {
        const ar_kagg_kernel_t *kernel = rows[i].kernel;
        shown_names[i] = ar_kernel_names_get(names, kernel->name);
        rest -= kernel->mean_ms;
        ar_md_table_add(&md, ar_xasprintf("%zu", i + 1));
        ar_md_table_add(&md, ar_md_escape(shown_names[i]->brief));
        ar_md_table_add(&md, ar_xasprintf("%.3f", kernel->mean_ms));
        ar_md_table_add(&md, total > 0 ? ar_xasprintf("%.1f%%", 100.0 * kernel->mean_ms / total)
                                          : ar_xstrdup(AR_EM_DASH));
        ar_md_table_add(&md, launches_text(kernel->mean_launches));
        if (is_baseline || !base) {
            ar_md_table_add(&md, ar_xstrdup(AR_EM_DASH));
            ar_md_table_add(&md, ar_xstrdup(AR_EM_DASH));
        } else if (!rows[i].base) {
            ar_md_table_add(&md, ar_xasprintf("%+.3f", rows[i].delta));
            ar_md_table_add(&md, ar_xstrdup("new"));
        } else {
            ar_md_table_add(&md, ar_xasprintf("%+.3f", rows[i].delta));
            ar_md_table_add(&md, rows[i].base->mean_ms > 0
                                        ? ar_xasprintf("%+.1f%%", 100.0 * rows[i].delta
                                                                         / rows[i].base->mean_ms)
                                        : ar_xstrdup(AR_EM_DASH));
        }
        add_verdict(&md, rows[i].verdict);
        ar_md_table_add(&md, ar_xasprintf("%zu/%zu", kernel->trials, table->trials));
    }
    if (table->count > shown) {
        if (rest < 0)
            rest = 0; /* rounding of the sums, never a negative share */
        ar_md_table_add(&md, ar_xstrdup(""));
        ar_md_table_add(&md, ar_xasprintf("other (%zu kernels)", table->count - shown));
        ar_md_table_add(&md, ar_xasprintf("%.3f", rest));
        ar_md_table_add(&md, total > 0 ? ar_xasprintf("%.1f%%", 100.0 * rest / total)
                                          : ar_xstrdup(AR_EM_DASH));
        for (size_t i = 0; i < 7; i++)
            ar_md_table_add(&md, ar_xstrdup(""));
    }
    ar_md_table_render(out, &md);
    full_names(out, rows, shown_names, shown);
    fputs("\n", out);
    ar_rank_md(out, cell, table, names);
    for (size_t i = 0; i < shown; i++)
        ar_json_free(rows[i].verdict);
    free(shown_names);
    free(rows);
}

char *ar_kernel_md_intro(const char *baseline)
{
    char *code = ar_md_code(baseline ? baseline : "(none)");
    char *intro = ar_xasprintf(
        "## GPU kernels (mean across passing trials)\n\n"
        "The %d largest kernels of each cell and collector, from the "
        "`.kernels.json` tables of its passing trials (a kernel missing from a "
        "trial counts 0 ms there); \xce\x94 against the baseline cell %s, "
        "largest growth first; `new`: not in the baseline. The verdict is the "
        "Welch's t test on the log values of the kernel's per-trial times against "
        "the baseline's, Holm-corrected over the cell's gated kernels (alpha 0.01, "
        "threshold 5%%; a kernel is gated from 1%% of the cell's GPU time), with the "
        "effect's 98%% interval and the corrected p; `inconclusive` when the trials "
        "cannot tell. Every kernel per "
        "cell: `<cell>/kernels.json`; the same as a page: `report.html`.\n\n",
        AR_KERNEL_MD_TOP, code);
    free(code);
    return intro;
}

char *ar_kernel_md_cell(const ar_kagg_cell_t *cell, const ar_kagg_cell_t *baseline,
                           ar_kernel_names_t *names)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        abort();
    for (size_t t = 0; t < cell->count; t++) {
        const ar_kagg_table_t *table = &cell->tables[t];
        one_table(out, cell, table, ar_kagg_table(baseline, table->collector),
                  cell == baseline, names);
    }
    fclose(out);
    return text;
}

char *ar_kernel_md(const ar_kagg_run_t *run)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        abort();
    const ar_kagg_cell_t *baseline = ar_kagg_cell(run, run->baseline);
    ar_kernel_names_t *names = ar_kernel_names_new();
    int any = 0;
    for (size_t c = 0; c < run->count; c++) {
        const ar_kagg_cell_t *cell = &run->cells[c];
        if (cell->count && !any++) {
            char *intro = ar_kernel_md_intro(run->baseline);
            fputs(intro, out);
            free(intro);
        }
        char *tables = ar_kernel_md_cell(cell, baseline, names);
        fputs(tables, out);
        free(tables);
    }
    ar_kernel_names_free(names);
    fclose(out);
    return text;
}
