/* SPDX-License-Identifier: MIT */
/* compare_junit.c - --compare --junit FILE: the comparison as the JUnit XML
 * that GitLab, Jenkins and GitHub test reporters read (the Ant/Jenkins
 * form: testsuites > testsuite > testcase).  A suite per cell in both runs,
 * a test case per gated measure: a failure when it regressed, skipped
 * when it has no verdict or leaves the gate undecided, passed otherwise;
 * the effect and its interval in the message.  Each broken-candidate reason
 * (a cell or collector missing, no trial passed, no data) is a failing
 * test case of its own, in a suite "gate".  Names through the XML layer
 * (sys/text_escape.h): markup escaped, controls shown, what XML 1.0
 * forbids dropped.  Rendered from the comparison's JSON. */
#include "config.h"

#include "compare/ci_outputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/verdicts.h"
#include "sys/text_escape.h"
#include "xalloc.h"

/* What a gated measure's test case says: 'f' failure, 's' skipped, 'p'
 * passed. */
static char outcome_of(const ar_json_t *m)
{
    const char *verdict = ar_json_get_string(ar_json_get(m, "verdict"));
    if (!strcmp(verdict, "regressed"))
        return 'f';
    if (ar_ci_undecided(m) || !strcmp(verdict, "inconclusive")
        || !strcmp(verdict, "incomparable") || !strcmp(verdict, "no data"))
        return 's';
    return 'p';
}

/* "regressed +12.3% [+8.1%, +16.9%] p=0.0021 (98% interval; A 1.2 ms, B
 * 1.4 ms, n 5 vs 5)". */
static char *message_of(const ar_json_t *m, double ci_level)
{
    const char *verdict = ar_json_get_string(ar_json_get(m, "verdict"));
    char *effect = ar_measure_effect_text(m), *p = ar_measure_p_text(m);
    char *text = ar_xasprintf("%s%s %s p=%s (%g%% interval; A %.4g, B %.4g, n %lld vs %lld)",
                              verdict, ar_ci_undecided(m) ? ", undecided" : "", effect, p,
                              100.0 * ci_level, ar_ci_number(m, "mean_a"),
                              ar_ci_number(m, "mean_b"),
                              (long long)ar_json_get_int(ar_json_get(m, "n_a")),
                              (long long)ar_json_get_int(ar_json_get(m, "n_b")));
    free(effect);
    free(p);
    return text;
}

/* One test case: name, its class (aorta.<suite>), and a failure or skipped
 * with message. */
static void testcase(FILE *out, const char *suite, const char *name, char outcome,
                     const char *type, const char *message)
{
    fputs("    <testcase classname=\"aorta.", out);
    ar_xml_put(out, suite);
    fputs("\" name=\"", out);
    ar_xml_put(out, name);
    fputs("\" time=\"0\"", out);
    if (outcome == 'p') {
        fputs("/>\n", out);
        return;
    }
    fputs(">\n      ", out);
    if (outcome == 'f') {
        fputs("<failure type=\"", out);
        ar_xml_put(out, type);
        fputs("\" message=\"", out);
        ar_xml_put(out, message);
        fputs("\">", out);
    } else {
        fputs("<skipped>", out); /* text only: the Ant/Jenkins schema gives it no attribute */
    }
    ar_xml_put(out, message);
    fputs(outcome == 'f' ? "</failure>\n" : "</skipped>\n", out);
    fputs("    </testcase>\n", out);
}

typedef struct counts {
    size_t tests, failures, skipped;
} counts_t;

static void suite_open(FILE *out, const char *name, const counts_t *c)
{
    fputs("  <testsuite name=\"", out);
    ar_xml_put(out, name);
    fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
            c->tests, c->failures, c->skipped);
}

static void cell_counts(const ar_json_t *cell, counts_t *c)
{
    const ar_json_t *measures = ar_json_get(cell, "measures");
    *c = (counts_t){0, 0, 0};
    for (size_t i = 0; i < ar_json_length(measures); i++) {
        const ar_json_t *m = ar_json_at(measures, i);
        const ar_json_t *kernels = ar_json_get(m, "kernels");
        for (size_t k = 0; k <= ar_json_length(kernels); k++) {
            const ar_json_t *item = k ? ar_json_at(kernels, k - 1) : m;
            if (!ar_json_get_bool(ar_json_get(item, "gated")))
                continue;
            char outcome = outcome_of(item);
            c->tests++;
            c->failures += outcome == 'f';
            c->skipped += outcome == 's';
        }
    }
}

/* A cell's suite: each gated measure, then each gated kernel. */
static void cell_suite(FILE *out, const ar_json_t *cell, double ci_level, counts_t *total)
{
    const char *name = ar_json_get_string(ar_json_get(cell, "name"));
    counts_t c;
    cell_counts(cell, &c);
    total->tests += c.tests, total->failures += c.failures, total->skipped += c.skipped;
    suite_open(out, name, &c);
    const ar_json_t *measures = ar_json_get(cell, "measures");
    for (size_t i = 0; i < ar_json_length(measures); i++) {
        const ar_json_t *m = ar_json_at(measures, i);
        const ar_json_t *kernels = ar_json_get(m, "kernels");
        for (size_t k = 0; k <= ar_json_length(kernels); k++) {
            const ar_json_t *item = k ? ar_json_at(kernels, k - 1) : m;
            if (!ar_json_get_bool(ar_json_get(item, "gated")))
                continue;
            char *label = k ? ar_xasprintf("%s kernel %s",
                                           ar_json_get_string(ar_json_get(m, "collector")),
                                           ar_json_get_string(ar_json_get(item, "display")))
                            : ar_ci_measure_label(item);
            char *message = message_of(item, ci_level);
            testcase(out, name, label, outcome_of(item), "regressed", message);
            free(message);
            free(label);
        }
    }
    fputs("  </testsuite>\n", out);
}

/* The gate's own suite: each broken-candidate reason a failing case, and,
 * when nothing was judged, the gate itself skipped. */
static void gate_suite(FILE *out, const ar_json_t *gate, counts_t *total)
{
    const ar_json_t *broken = ar_json_get(gate, "broken");
    int unjudged = !ar_json_get_int(ar_json_get(gate, "headline_judged"));
    counts_t c = {ar_json_length(broken) + (size_t)unjudged, ar_json_length(broken),
                  (size_t)unjudged};
    if (!c.tests)
        return;
    total->tests += c.tests, total->failures += c.failures, total->skipped += c.skipped;
    suite_open(out, "gate", &c);
    for (size_t i = 0; i < ar_json_length(broken); i++) {
        const char *text = ar_json_get_string(ar_json_at(broken, i));
        char *name = ar_xasprintf("broken candidate %zu", i + 1);
        testcase(out, "gate", name, 'f', "broken candidate", text);
        free(name);
    }
    if (unjudged)
        testcase(out, "gate", "headline measures judged", 's', NULL,
                 "nothing was judged: every headline measure is incomparable, missing or "
                 "without data");
    fputs("  </testsuite>\n", out);
}

char *ar_compare_junit(const ar_json_t *cmp)
{
    char *body = NULL, *text = NULL;
    size_t body_len = 0, len = 0;
    FILE *out = ar_xcheck(open_memstream(&body, &body_len));
    counts_t total = {0, 0, 0};
    double ci_level = ar_ci_number(cmp, "ci_level");
    const ar_json_t *cells = ar_json_get(cmp, "cells");
    for (size_t i = 0; i < ar_json_length(cells); i++)
        cell_suite(out, ar_json_at(cells, i), ci_level, &total);
    gate_suite(out, ar_json_get(cmp, "gate"), &total);
    fclose(out);
    out = ar_xcheck(open_memstream(&text, &len));
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"aorta-run --compare ",
          out);
    ar_xml_put(out, ar_json_get_string(ar_json_get(cmp, "run_a")));
    fputs(" ", out);
    ar_xml_put(out, ar_json_get_string(ar_json_get(cmp, "run_b")));
    fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" time=\"0\">\n", total.tests,
            total.failures);
    fputs(body, out);
    fputs("</testsuites>\n", out);
    fclose(out);
    free(body);
    return text;
}
