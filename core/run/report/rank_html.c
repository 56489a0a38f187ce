/* SPDX-License-Identifier: MIT */
/* rank_html.c - report.html's rank view (kernels/rank_view.h): per
 * multi-rank cell, a bar per rank, a rank x kernel heat table of the
 * kernels with the largest shares of the imbalance, and the launch
 * mismatches.  Plain HTML and CSS like the rest of the page: the heat is a
 * single blue's opacity with the figure written in the cell, so it reads
 * without colour too. */
#include "config.h"

#include "report/rank_html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/rank_view.h"
#include "sys/text_escape.h"
#include "xalloc.h"

static void put_kernel(FILE *out, ar_kernel_names_t *names, const char *raw)
{
    const ar_kernel_name_t *name = ar_kernel_names_get(names, raw);
    fputs("<code title=\"", out);
    ar_html_put(out, name->full);
    fputs("\">", out);
    ar_html_put(out, name->brief);
    fputs("</code>", out);
}

static void summary(FILE *out, const ar_rank_view_t *view, ar_kernel_names_t *names)
{
    fprintf(out, "<p class=\"rank-summary\">Slowest rank <b>%ld</b>: %.3f ms against a mean of "
                 "%.3f ms over %zu ranks; imbalance <b>%.3f ms (%.1f%%)</b>.",
            view->ranks[view->slowest], view->gpu_ms[view->slowest], view->mean_ms, view->count,
            view->imbalance_ms, view->imbalance_pct);
    if (view->imbalance_ms > 0 && view->kernel_count && view->kernels[0].excess_ms > 0) {
        fputs(" Most of it: ", out);
        put_kernel(out, names, view->kernels[0].name);
        fprintf(out, " (%.1f%%).", 100.0 * view->kernels[0].share);
    }
    fputs("</p>\n", out);
}

static void bars(FILE *out, const ar_rank_view_t *view)
{
    double longest = view->gpu_ms[view->slowest];
    fputs("<div class=\"bars rank-bars\">\n", out);
    for (size_t r = 0; r < view->count; r++) {
        fprintf(out, "<div class=\"row%s\"><span class=\"label\">rank %ld%s</span>"
                     "<span class=\"track\"><span class=\"bar\" style=\"width:%.2f%%\">"
                     "<span style=\"width:100%%;background:%s\"></span></span></span>"
                     "<span class=\"value\">%.3f ms</span></div>\n",
                r == view->slowest ? " slowest" : "", view->ranks[r],
                r == view->slowest ? " (slowest)" : "",
                longest > 0 ? 100.0 * view->gpu_ms[r] / longest : 0.0,
                r == view->slowest ? "#e15759" : "#4e79a7", view->gpu_ms[r]);
    }
    fputs("</div>\n", out);
}

static void heat_table(FILE *out, const ar_rank_view_t *view, ar_kernel_names_t *names)
{
    size_t shown = view->kernel_count < AR_RANK_HTML_KERNELS ? view->kernel_count
                                                                : AR_RANK_HTML_KERNELS;
    fputs("<p class=\"meta\">GPU time (ms) and launches per rank and kernel, the kernels with "
          "the largest shares of the imbalance first; the darker, the closer to the kernel's "
          "longest time on any rank.</p>\n<table class=\"cmp heat\"><thead><tr><th>Rank</th>",
          out);
    for (size_t k = 0; k < shown; k++) {
        fputs("<th>", out);
        put_kernel(out, names, view->kernels[k].name);
        fprintf(out, "<br><small>%.1f%% of imbalance</small></th>",
                view->imbalance_ms > 0 ? 100.0 * view->kernels[k].share : 0.0);
    }
    fputs("</tr></thead><tbody>\n", out);
    for (size_t r = 0; r < view->count; r++) {
        fprintf(out, "<tr%s><td class=\"name\">%ld</td>",
                r == view->slowest ? " class=\"slowest\"" : "", view->ranks[r]);
        for (size_t k = 0; k < shown; k++) {
            const ar_rank_kernel_t *kernel = &view->kernels[k];
            double most = kernel->ms[kernel->slowest];
            double alpha = most > 0 ? 0.08 + 0.72 * kernel->ms[r] / most : 0.0;
            fprintf(out, "<td style=\"background:rgba(33,102,172,%.2f)%s\">%.3f", alpha,
                    alpha > 0.5 ? ";color:#fff" : "", kernel->ms[r]);
            if (kernel->launches[r] >= 0) {
                char *count = ar_rank_view_count_text(kernel->launches[r]);
                fprintf(out, "<br><small>\xc3\x97%s</small>", count);
                free(count);
            }
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

static void mismatches(FILE *out, const ar_rank_view_t *view, ar_kernel_names_t *names)
{
    if (!view->mismatches)
        return;
    fprintf(out, "<p>Launch counts differ between ranks for %zu kernel(s):</p><ul "
                 "class=\"mismatch\">\n",
            view->mismatches);
    size_t listed = 0;
    for (size_t i = 0; i < view->kernel_count && listed < AR_RANK_HTML_KERNELS; i++) {
        if (!view->kernels[i].mismatch)
            continue;
        char *text = ar_rank_view_mismatch_text(view, &view->kernels[i]);
        fputs("<li>", out);
        put_kernel(out, names, view->kernels[i].name);
        fprintf(out, ": %s</li>\n", text);
        free(text);
        listed++;
    }
    fputs("</ul>\n", out);
}

void ar_rank_html(FILE *out, const ar_kagg_run_t *run, const char *collector,
                     ar_kernel_names_t *names)
{
    int any = 0;
    for (size_t c = 0; c < run->count; c++) {
        ar_rank_view_t *view = ar_rank_view_new(ar_kagg_table(&run->cells[c],
                                                                       collector));
        if (!view)
            continue;
        if (!any++) {
            fputs("<h2 class=\"ranks\" id=\"ranks-", out);
            ar_html_put(out, collector);
            fputs("\">Ranks: ", out);
            ar_html_put(out, collector);
            fputs("</h2>\n", out);
        }
        fputs("<h3>", out);
        ar_html_put(out, run->cells[c].name);
        fputs("</h3>\n", out);
        summary(out, view, names);
        bars(out, view);
        heat_table(out, view, names);
        mismatches(out, view, names);
        ar_rank_view_free(view);
    }
}
