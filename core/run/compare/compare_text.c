/* SPDX-License-Identifier: MIT */
/* compare_text.c - --compare's text, rendered from the comparison's JSON
 * (compare.h), so the two never disagree. */
#include "config.h"

#include "compare/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/demangle.h"
#include "sys/text_escape.h"

static void print_list(FILE *out, const char *label, const ar_json_t *names)
{
    if (ar_json_length(names) == 0)
        return;
    fprintf(out, "%s:", label);
    for (size_t i = 0; i < ar_json_length(names); i++) {
        fputs(i ? ", " : " ", out);
        ar_text_put(out, ar_json_get_string(ar_json_at(names, i)));
    }
    fputs("\n", out);
}

static double number(const ar_json_t *obj, const char *key)
{
    const ar_json_t *value = ar_json_get(obj, key);
    return value ? ar_json_get_double(value) : NAN;
}

/* "regressed +12.3% [+8.1%, +16.9%] p=0.0021 (n 5 vs 5)". */
static void print_verdict(FILE *out, const ar_json_t *m)
{
    fputs(ar_json_get_string(ar_json_get(m, "verdict")), out);
    if (ar_json_get(m, "effect_pct")) {
        char *effect = ar_measure_effect_text(m), *p = ar_measure_p_text(m);
        fprintf(out, " %s p=%s", effect, p);
        free(effect);
        free(p);
    }
    fprintf(out, " (n %lld vs %lld)", (long long)ar_json_get_int(ar_json_get(m, "n_a")),
            (long long)ar_json_get_int(ar_json_get(m, "n_b")));
    const char *verdict = ar_json_get_string(ar_json_get(m, "verdict"));
    if (!ar_json_get_bool(ar_json_get(m, "gated")) && strcmp(verdict, "not gated")
        && strcmp(verdict, "added") && strcmp(verdict, "removed"))
        fputs(", not gated", out);
}

static void print_value(FILE *out, const ar_json_t *m, const char *key)
{
    if (ar_json_get(m, key))
        fprintf(out, "%.3f", number(m, key));
    else
        fputs("-", out);
}

static void print_kernels(FILE *out, const ar_json_t *kernels)
{
    size_t shown = 0;
    for (size_t i = 0; i < ar_json_length(kernels); i++) {
        const ar_json_t *k = ar_json_at(kernels, i);
        const char *verdict = ar_json_get_string(ar_json_get(k, "verdict"));
        int significant = !strcmp(verdict, "regressed") || !strcmp(verdict, "improved");
        if (!significant && shown >= AR_COMPARE_KERNELS)
            break;
        const char *display = ar_json_get_string(ar_json_get(k, "display"));
        const char *raw = ar_json_get_string(ar_json_get(k, "kernel"));
        char *visible = ar_text_escape(display);
        char *brief = ar_kernel_short(visible, AR_KERNEL_NAME_WIDTH);
        fprintf(out, "      %-*s  ", (int)AR_KERNEL_NAME_WIDTH, brief);
        free(visible);
        print_value(out, k, "mean_a");
        fputs(" -> ", out);
        print_value(out, k, "mean_b");
        fputs(" ms  ", out);
        print_verdict(out, k);
        if (strcmp(display, raw) != 0) {
            fputs("  [", out);
            ar_text_put(out, raw);
            fputs("]", out);
        }
        fputs("\n", out);
        free(brief);
        shown++;
    }
    if (shown < ar_json_length(kernels))
        fprintf(out, "      (%zu more kernel(s) in --json)\n",
                ar_json_length(kernels) - shown);
}

/* A collector's ranks: those with a verdict either way, then the first
 * others up to a few lines. */
static void print_ranks(FILE *out, const ar_json_t *ranks)
{
    size_t shown = 0, count = ar_json_length(ranks);
    for (size_t i = 0; i < count; i++) {
        const ar_json_t *r = ar_json_at(ranks, i);
        const char *verdict = ar_json_get_string(ar_json_get(r, "verdict"));
        int significant = !strcmp(verdict, "regressed") || !strcmp(verdict, "improved");
        if (!significant && shown >= AR_COMPARE_RANKS)
            continue;
        fprintf(out, "      rank %lld: ", (long long)ar_json_get_int(ar_json_get(r, "rank")));
        print_value(out, r, "mean_a");
        fputs(" -> ", out);
        print_value(out, r, "mean_b");
        fputs(" ms  ", out);
        print_verdict(out, r);
        fputs("\n", out);
        shown++;
    }
    if (shown < count)
        fprintf(out, "      (%zu more rank(s) in --json)\n", count - shown);
}

/* What the text shows of a cell: gated measures, and the others only when
 * they changed (significant and past the threshold), unless --all. */
typedef struct view {
    double alpha, threshold_pct;
    int all;
} view_t;

static int shown(const ar_json_t *m, const view_t *view)
{
    if (view->all || ar_json_get_bool(ar_json_get(m, "gated")))
        return 1;
    const ar_json_t *p = ar_json_get(m, "p_value");
    return p && ar_json_get_double(p) < view->alpha
           && fabs(number(m, "effect_pct")) > view->threshold_pct;
}

static void print_measure(FILE *out, const ar_json_t *m)
{
    const char *measure = ar_json_get_string(ar_json_get(m, "measure"));
    const ar_json_t *collector = ar_json_get(m, "collector");
    fputs("  ", out);
    if (!strcmp(measure, "gpu_time_ms")) {
        ar_text_put(out, ar_json_get_string(collector));
        fputs(" GPU time: ", out);
    } else if (!strcmp(measure, "step_time_ms")) {
        fputs("step time: ", out);
    } else if (!strcmp(measure, "rank_imbalance_ms")) {
        ar_text_put(out, ar_json_get_string(collector));
        fputs(" imbalance (slowest rank - mean): ", out);
    } else {
        ar_text_put(out, measure);
        fputs(": ", out);
    }
    print_value(out, m, "mean_a");
    fputs(" -> ", out);
    print_value(out, m, "mean_b");
    fputs(strstr(measure, "_ms") ? " ms  " : "  ", out);
    print_verdict(out, m);
    fputs("\n", out);
    const ar_json_t *kernels = ar_json_get(m, "kernels");
    if (ar_json_length(kernels))
        print_kernels(out, kernels);
    if (ar_json_length(ar_json_get(m, "ranks")))
        print_ranks(out, ar_json_get(m, "ranks"));
}

static void print_cell(FILE *out, const ar_json_t *cell, const view_t *view)
{
    const ar_json_t *a = ar_json_get(cell, "a"), *b = ar_json_get(cell, "b");
    fputs("\n", out);
    ar_text_put(out, ar_json_get_string(ar_json_get(cell, "name")));
    fputs("\n", out);
    fprintf(out, "  trials passed: A %lld of %lld, B %lld of %lld\n",
            (long long)ar_json_get_int(ar_json_get(a, "passed")),
            (long long)ar_json_get_int(ar_json_get(a, "trials")),
            (long long)ar_json_get_int(ar_json_get(b, "passed")),
            (long long)ar_json_get_int(ar_json_get(b, "trials")));
    const ar_json_t *measures = ar_json_get(cell, "measures");
    size_t hidden = 0;
    for (size_t m = 0; m < ar_json_length(measures); m++) {
        if (shown(ar_json_at(measures, m), view))
            print_measure(out, ar_json_at(measures, m));
        else
            hidden++;
    }
    if (hidden)
        fprintf(out, "  (%zu measure(s) not gated and unchanged; --all shows them)\n", hidden);
}

static void print_lines(FILE *out, const char *title, const ar_json_t *lines)
{
    if (ar_json_length(lines) == 0)
        return;
    fprintf(out, "%s:\n", title);
    for (size_t i = 0; i < ar_json_length(lines); i++) {
        fputs("  ", out);
        ar_text_put(out, ar_json_get_string(ar_json_at(lines, i)));
        fputs("\n", out);
    }
}

/* What differs between the runs' provenance, and what it makes
 * incomparable. */
static void print_mismatches(FILE *out, const ar_json_t *cmp)
{
    const ar_json_t *list = ar_json_get(cmp, "mismatches");
    if (ar_json_length(list) == 0)
        return;
    int allowed = ar_json_get_bool(ar_json_get(cmp, "allow_mismatch"));
    fputs("Not the same request (provenance):\n", out);
    for (size_t i = 0; i < ar_json_length(list); i++) {
        const ar_json_t *m = ar_json_at(list, i);
        const ar_json_t *a = ar_json_get(m, "a"), *b = ar_json_get(m, "b");
        char *ta = a ? ar_json_dump((ar_json_t *)a, 0) : NULL;
        char *tb = b ? ar_json_dump((ar_json_t *)b, 0) : NULL;
        fputs("  ", out);
        ar_text_put(out, ar_json_get_string(ar_json_get(m, "what")));
        fputs(": A ", out);
        ar_text_put(out, ta ? ta : "unknown");
        fputs(", B ", out);
        ar_text_put(out, tb ? tb : "unknown");
        if (ar_json_get_bool(ar_json_get(m, "incomparable")))
            fputs(allowed ? " (compared anyway: --allow-mismatch)" : " -> incomparable", out);
        fputs("\n", out);
        free(ta);
        free(tb);
    }
}

void ar_compare_print(FILE *out, const ar_json_t *cmp, int all)
{
    view_t view = {number(cmp, "alpha"), number(cmp, "threshold_pct"), all};
    fputs("Comparing ", out);
    ar_text_put(out, ar_json_get_string(ar_json_get(cmp, "run_a")));
    fputs(" -> ", out);
    ar_text_put(out, ar_json_get_string(ar_json_get(cmp, "run_b")));
    fprintf(out, " (Welch's t on log values, Holm, alpha %g, threshold %g%%, %g%% intervals)\n",
            view.alpha, view.threshold_pct, 100.0 * number(cmp, "ci_level"));
    print_mismatches(out, cmp);
    print_list(out, "Collectors only in A", ar_json_get(cmp, "collectors_only_in_a"));
    print_list(out, "Collectors only in B", ar_json_get(cmp, "collectors_only_in_b"));
    print_list(out, "Cells added (only in B)", ar_json_get(cmp, "cells_added"));
    print_list(out, "Cells removed (only in A)", ar_json_get(cmp, "cells_removed"));
    const ar_json_t *cells = ar_json_get(cmp, "cells");
    for (size_t i = 0; i < ar_json_length(cells); i++)
        print_cell(out, ar_json_at(cells, i), &view);
    long long omitted = (long long)ar_json_get_int(ar_json_get(cmp, "kernels_omitted"));
    if (omitted)
        fprintf(out, "\n(%lld ungated kernel(s) with smaller changes left out)\n", omitted);
    const ar_json_t *gate = ar_json_get(cmp, "gate");
    const char *outcome = ar_json_get_string(ar_json_get(gate, "outcome"));
    fputs("\n", out);
    print_lines(out, "Noted", ar_json_get(gate, "notes"));
    if (!strcmp(outcome, "failed"))
        print_lines(out, "Gate FAILED", ar_json_get(gate, "reasons"));
    else if (!strcmp(outcome, "no verdict"))
        print_lines(out, "No verdict", ar_json_get(gate, "reasons"));
    else
        fputs("Gate passed.\n", out);
}
