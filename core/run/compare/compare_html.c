/* SPDX-License-Identifier: MIT */
/* compare_html.c - --compare --html FILE: a page a person opens when the
 * gate fails in CI.  Self-contained as report.html is (one file, no script,
 * no URL, CSS only), rendered from the comparison's JSON: the gate's outcome
 * and reasons first, each cell's headline measures A beside B, the kernels
 * that changed most, what differs between the runs, both runs' provenance.
 * Every name goes through the HTML escaping layer (sys/text_escape.h). */
#include "config.h"

#include "compare/ci_outputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/verdicts.h"
#include "kernels/demangle.h"
#include "sys/text_escape.h"
#include "xalloc.h"

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}"
    "h3{font-size:1.05em;margin:1.5em 0 .3em}.meta{color:#555}code{font-size:.92em}"
    ".gate{padding:.6em 1em;border-left:.5em solid}.gate h2{margin:0;border:0}"
    ".g-failed{background:#fdd9b5;border-color:#b35900}"
    ".g-passed{background:#cfe3f7;border-color:#0b3d73}"
    ".g-noverdict{background:#eee;border-color:#777}"
    "table{border-collapse:collapse;margin:.4em 0}"
    "th,td{border:1px solid #ddd;padding:2px 6px;text-align:right;vertical-align:top}"
    "th:first-child,td.name{text-align:left}td.name{max-width:40em;word-break:break-all}"
    "td.json{text-align:left;font-family:monospace;font-size:.85em;max-width:30em;"
    "word-break:break-all}tr.differs td{background:#fff3d6}"
    ".v-regressed{background:#fdd9b5;color:#7a3300;font-weight:bold;padding:0 .2em}"
    ".v-improved{background:#cfe3f7;color:#0b3d73;padding:0 .2em}"
    ".v-unchanged{color:#555}.v-inconclusive{color:#555;font-style:italic}"
    ".undecided{font-style:italic;color:#7a3300}summary{cursor:pointer}"
    "*{-webkit-print-color-adjust:exact;print-color-adjust:exact}";

static void put(FILE *out, const char *text)
{
    ar_html_put(out, text ? text : "");
}

static void put_number(FILE *out, const ar_json_t *obj, const char *key)
{
    double value = ar_ci_number(obj, key);
    if (isnan(value))
        fputs("&ndash;", out);
    else
        fprintf(out, "%.4g", value);
}

static void put_lines(FILE *out, const char *title, const ar_json_t *lines)
{
    if (!ar_json_length(lines))
        return;
    fprintf(out, "<p><b>%s</b></p><ul>\n", title);
    for (size_t i = 0; i < ar_json_length(lines); i++) {
        fputs("<li>", out);
        put(out, ar_json_get_string(ar_json_at(lines, i)));
        fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
}

static void gate_section(FILE *out, const ar_json_t *cmp)
{
    const ar_json_t *gate = ar_json_get(cmp, "gate");
    const char *outcome = ar_json_get_string(ar_json_get(gate, "outcome"));
    const char *class = !strcmp(outcome, "failed")   ? "g-failed"
                        : !strcmp(outcome, "passed") ? "g-passed"
                                                     : "g-noverdict";
    fprintf(out, "<section class=\"gate %s\" id=\"gate\"><h2>Gate: ", class);
    put(out, !strcmp(outcome, "failed") ? "FAILED" : outcome);
    fprintf(out, " (exit %lld)</h2>\n",
            (long long)ar_json_get_int(ar_json_get(gate, "exit_status")));
    put_lines(out, !strcmp(outcome, "failed") ? "Why it failed" : "Why",
              ar_json_get(gate, "reasons"));
    if (strcmp(outcome, "no verdict"))
        put_lines(out, "Undecided", ar_json_get(gate, "undecided"));
    put_lines(out, "Noted", ar_json_get(gate, "notes"));
    fputs("</section>\n", out);
    static const char *const lists[][2] = {
        {"collectors_only_in_a", "Collectors only in A"},
        {"collectors_only_in_b", "Collectors only in B"},
        {"cells_removed", "Cells only in A (missing from B)"},
        {"cells_added", "Cells only in B"}};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        put_lines(out, lists[i][1], ar_json_get(cmp, lists[i][0]));
}

/* A verdict as a word with its class, and the effect with its interval. */
static void put_verdict(FILE *out, const ar_json_t *m)
{
    const char *verdict = ar_json_get_string(ar_json_get(m, "verdict"));
    fputs("<td><span class=\"v-", out);
    for (const char *c = verdict; *c; c++)
        fputc(*c == ' ' ? '-' : *c, out);
    fputs("\">", out);
    put(out, verdict);
    fputs("</span>", out);
    if (ar_ci_undecided(m))
        fputs(" <span class=\"undecided\">(undecided)</span>", out);
    fputs("</td><td>", out);
    if (ar_json_get(m, "effect_pct") && ar_json_type(ar_json_get(m, "effect_pct")) != AR_JSON_NULL) {
        char *effect = ar_measure_effect_text(m), *p = ar_measure_p_text(m);
        put(out, effect);
        fputs("</td><td>", out);
        put(out, p);
        free(effect);
        free(p);
    } else {
        fputs("&ndash;</td><td>&ndash;", out);
    }
    fputs("</td>", out);
}

static void put_sides(FILE *out, const ar_json_t *m)
{
    fputs("<td>", out);
    put_number(out, m, "mean_a");
    fputs("</td><td>", out);
    put_number(out, m, "mean_b");
    fprintf(out, "</td><td>%lld vs %lld</td>", (long long)ar_json_get_int(ar_json_get(m, "n_a")),
            (long long)ar_json_get_int(ar_json_get(m, "n_b")));
}

static void table_head(FILE *out, const char *first, double ci_level)
{
    fprintf(out, "<table><tr><th>%s</th><th>A (mean)</th><th>B (mean)</th><th>n</th>"
                 "<th>verdict</th><th>change [%g%% interval]</th><th>p (Holm)</th></tr>\n",
            first, 100.0 * ci_level);
}

/* A kernel name: the short form, the full and raw names one click away. */
static void put_kernel(FILE *out, const ar_json_t *k)
{
    const char *display = ar_json_get_string(ar_json_get(k, "display"));
    const char *raw = ar_json_get_string(ar_json_get(k, "kernel"));
    char *brief = ar_kernel_short(display ? display : raw, 60);
    fputs("<td class=\"name\"><details><summary><code>", out);
    put(out, brief);
    fputs("</code></summary><code>", out);
    put(out, display);
    fputs("</code><br>raw: <code>", out);
    put(out, raw);
    fputs("</code></details> <small>", out);
    put(out, ar_json_get_string(ar_json_get(k, "status")));
    fputs("</small></td>", out);
    free(brief);
}

static void kernels_table(FILE *out, const ar_json_t *m, double ci_level)
{
    const ar_json_t *kernels = ar_json_get(m, "kernels");
    size_t count = ar_json_length(kernels);
    if (!count)
        return;
    fputs("<p><b>", out);
    put(out, ar_json_get_string(ar_json_get(m, "collector")));
    fprintf(out, "</b>: the kernels that changed most (%zu of %zu)</p>\n",
            count < AR_CI_PAGE_KERNELS ? count : AR_CI_PAGE_KERNELS, count);
    table_head(out, "kernel (ms)", ci_level);
    for (size_t i = 0; i < count && i < AR_CI_PAGE_KERNELS; i++) {
        const ar_json_t *k = ar_json_at(kernels, i);
        fputs("<tr>", out);
        put_kernel(out, k);
        put_sides(out, k);
        put_verdict(out, k);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

static void measure_row(FILE *out, const ar_json_t *m)
{
    char *label = ar_ci_measure_label(m);
    const char *measure = ar_json_get_string(ar_json_get(m, "measure"));
    fputs("<tr><td class=\"name\">", out);
    put(out, label);
    if (strstr(measure, "_ms"))
        fputs(" (ms)", out);
    if (!ar_json_get_bool(ar_json_get(m, "gated")))
        fputs(" <small>not gated</small>", out);
    fputs("</td>", out);
    put_sides(out, m);
    put_verdict(out, m);
    fputs("</tr>\n", out);
    free(label);
}

/* A cell: its headline (and other gated) measures, then every other one
 * folded, then the kernels of each GPU time. */
static void cell_section(FILE *out, const ar_json_t *cell, double ci_level)
{
    const ar_json_t *a = ar_json_get(cell, "a"), *b = ar_json_get(cell, "b");
    fputs("<h3>", out);
    put(out, ar_json_get_string(ar_json_get(cell, "name")));
    fprintf(out, "</h3>\n<p class=\"meta\">trials passed: A %lld of %lld, B %lld of %lld</p>\n",
            (long long)ar_json_get_int(ar_json_get(a, "passed")),
            (long long)ar_json_get_int(ar_json_get(a, "trials")),
            (long long)ar_json_get_int(ar_json_get(b, "passed")),
            (long long)ar_json_get_int(ar_json_get(b, "trials")));
    const ar_json_t *measures = ar_json_get(cell, "measures");
    size_t others = 0;
    table_head(out, "measure", ci_level);
    for (size_t i = 0; i < ar_json_length(measures); i++) {
        const ar_json_t *m = ar_json_at(measures, i);
        if (ar_json_get_bool(ar_json_get(m, "gated")))
            measure_row(out, m);
        else
            others++;
    }
    fputs("</table>\n", out);
    if (others) {
        fprintf(out, "<details><summary>%zu measure(s) shown, not gated</summary>\n", others);
        table_head(out, "measure", ci_level);
        for (size_t i = 0; i < ar_json_length(measures); i++)
            if (!ar_json_get_bool(ar_json_get(ar_json_at(measures, i), "gated")))
                measure_row(out, ar_json_at(measures, i));
        fputs("</table></details>\n", out);
    }
    for (size_t i = 0; i < ar_json_length(measures); i++)
        kernels_table(out, ar_json_at(measures, i), ci_level);
}

static void mismatches_section(FILE *out, const ar_json_t *cmp)
{
    const ar_json_t *list = ar_json_get(cmp, "mismatches");
    fputs("<h2 id=\"mismatches\">What differs between the runs</h2>\n", out);
    if (!ar_json_length(list)) {
        fputs("<p>Nothing: the same request, profiler and GPU as far as provenance "
              "records.</p>\n",
              out);
        return;
    }
    int allowed = ar_json_get_bool(ar_json_get(cmp, "allow_mismatch"));
    fputs("<table><tr><th>what</th><th>A</th><th>B</th><th>so</th></tr>\n", out);
    for (size_t i = 0; i < ar_json_length(list); i++) {
        const ar_json_t *m = ar_json_at(list, i);
        const ar_json_t *a = ar_json_get(m, "a"), *b = ar_json_get(m, "b");
        char *ta = a ? ar_json_dump((ar_json_t *)a, 0) : NULL;
        char *tb = b ? ar_json_dump((ar_json_t *)b, 0) : NULL;
        fputs("<tr><td class=\"name\">", out);
        put(out, ar_json_get_string(ar_json_get(m, "what")));
        fputs("</td><td class=\"json\">", out);
        put(out, ta ? ta : "unknown");
        fputs("</td><td class=\"json\">", out);
        put(out, tb ? tb : "unknown");
        fputs("</td><td>", out);
        if (ar_json_get_bool(ar_json_get(m, "incomparable")))
            fputs(allowed ? "compared anyway (--allow-mismatch)" : "incomparable", out);
        else
            fputs("shown, judged", out);
        fputs("</td></tr>\n", out);
        free(ta);
        free(tb);
    }
    fputs("</table>\n", out);
}

typedef struct provenance_rows {
    FILE *out;
    const ar_json_t *other; /* B's provenance */
    int b_side;             /* listing B's own keys that A lacks */
} provenance_rows_t;

static int provenance_row(const char *key, ar_json_t *value, void *user)
{
    provenance_rows_t *rows = user;
    const ar_json_t *other = ar_json_get(rows->other, key);
    if (rows->b_side && other)
        return 0;
    const ar_json_t *a = rows->b_side ? NULL : value, *b = rows->b_side ? value : other;
    char *ta = a ? ar_json_dump((ar_json_t *)a, 0) : NULL;
    char *tb = b ? ar_json_dump((ar_json_t *)b, 0) : NULL;
    int differs = !ta || !tb || strcmp(ta, tb) != 0;
    fprintf(rows->out, "<tr%s><td class=\"name\">", differs ? " class=\"differs\"" : "");
    put(rows->out, key);
    fputs("</td><td class=\"json\">", rows->out);
    put(rows->out, ta ? ta : "(none)");
    fputs("</td><td class=\"json\">", rows->out);
    put(rows->out, tb ? tb : "(none)");
    fputs("</td></tr>\n", rows->out);
    free(ta);
    free(tb);
    return 0;
}

static void provenance_section(FILE *out, const ar_json_t *pa, const ar_json_t *pb)
{
    fputs("<h2 id=\"provenance\">Provenance (matrix.json)</h2>\n", out);
    if (!pa && !pb) {
        fputs("<p>Neither run recorded its provenance.</p>\n", out);
        return;
    }
    fputs("<table><tr><th>key</th><th>A</th><th>B</th></tr>\n", out);
    provenance_rows_t rows = {out, pb, 0};
    ar_json_foreach(pa, provenance_row, &rows);
    rows = (provenance_rows_t){out, pa, 1};
    ar_json_foreach(pb, provenance_row, &rows);
    fputs("</table>\n<p class=\"meta\">Rows that differ are shaded.</p>\n", out);
}

char *ar_compare_html(const ar_json_t *cmp, const ar_json_t *pa, const ar_json_t *pb)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = ar_xcheck(open_memstream(&text, &len));
    const char *run_a = ar_json_get_string(ar_json_get(cmp, "run_a"));
    const char *run_b = ar_json_get_string(ar_json_get(cmp, "run_b"));
    double ci_level = ar_ci_number(cmp, "ci_level");
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width\"><title>aorta comparison: ",
          out);
    put(out, run_a);
    fputs(" &rarr; ", out);
    put(out, run_b);
    fprintf(out, "</title><style>%s</style></head><body>\n<h1>aorta comparison</h1>\n"
                 "<p class=\"meta\">A <code>",
            style);
    put(out, run_a);
    fputs("</code> &rarr; B <code>", out);
    put(out, run_b);
    fprintf(out, "</code>. Welch's t on log values, Holm over every gated measure, "
                 "&alpha; %g, &delta; %g%%, %g%% intervals; a kernel is gated from %g%% of "
                 "its cell's GPU time.</p>\n",
            ar_ci_number(cmp, "alpha"), ar_ci_number(cmp, "threshold_pct"), 100.0 * ci_level,
            ar_ci_number(cmp, "gate_kernels_pct"));
    gate_section(out, cmp);
    fputs("<h2 id=\"cells\">Cells</h2>\n", out);
    const ar_json_t *cells = ar_json_get(cmp, "cells");
    if (!ar_json_length(cells))
        fputs("<p>No cell is in both runs.</p>\n", out);
    for (size_t i = 0; i < ar_json_length(cells); i++)
        cell_section(out, ar_json_at(cells, i), ci_level);
    long long omitted = (long long)ar_json_get_int(ar_json_get(cmp, "kernels_omitted"));
    if (omitted)
        fprintf(out, "<p class=\"meta\">%lld ungated kernel(s) with smaller changes left "
                     "out.</p>\n",
                omitted);
    mismatches_section(out, cmp);
    provenance_section(out, pa, pb);
    fputs("<p class=\"meta\">Written by <code>aorta-run --compare A B --html FILE</code> "
          "from the comparison <code>--json</code> prints.</p>\n</body></html>\n",
          out);
    fclose(out);
    return text;
}
