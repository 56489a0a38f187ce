/* SPDX-License-Identifier: MIT */
/* ci_outputs.h - what a CI shows of a comparison (--compare's --html,
 * --markdown, --junit), each rendered from the comparison's JSON
 * (compare.h) as the text is, so that none disagrees with the gate. */
#ifndef AR_CI_OUTPUTS_H
#define AR_CI_OUTPUTS_H

#include "sys/json.h"

/* Kernels the page lists per cell and collector, and the largest kernel
 * changes the pull-request summary lists over the whole comparison. */
#define AR_CI_PAGE_KERNELS 10
#define AR_CI_SUMMARY_KERNELS 5
/* Reason lines the summary shows before "and N more (the page has them)". */
#define AR_CI_SUMMARY_REASONS 6

/* A self-contained page (no script, no URL): the gate first, then each
 * cell's headline measures A beside B, the kernels that changed most, the
 * mismatches and both runs' provenance (matrix.json's, either NULL).  Every
 * name through the HTML escaping layer.  Free it. */
char *ar_compare_html(const ar_json_t *comparison, const ar_json_t *provenance_a,
                      const ar_json_t *provenance_b);

/* A pull-request comment in Markdown: the outcome, one table row per
 * regressed or undecided headline measure, the largest kernel changes, the
 * trials that would settle what is undecided.  Free it. */
char *ar_compare_markdown(const ar_json_t *comparison);

/* JUnit XML: a testsuite per cell, a testcase per gated measure (failure:
 * regressed; skipped: no verdict or undecided), and one per broken-candidate
 * reason.  Names XML-escaped, characters XML 1.0 forbids dropped.  Free it. */
char *ar_compare_junit(const ar_json_t *comparison);

/* What a measure's JSON is called for a person, unescaped: "rocprof GPU
 * time", "step time", "rocprof imbalance", a metric's own name.  Free it. */
char *ar_ci_measure_label(const ar_json_t *measure);
/* Whether a measure's JSON counts for the summaries: a gated measure that
 * regressed, or a headline measure that keeps the gate from passing without
 * having regressed (undecided). */
int ar_ci_regressed(const ar_json_t *measure);
int ar_ci_undecided(const ar_json_t *measure);
/* obj's number key, NaN when absent or null. */
double ar_ci_number(const ar_json_t *obj, const char *key);
/* The kernels of every cell's GPU-time measures ordered as the summary and
 * the page list them (significant first, then the largest |B - A|): an
 * array of {cell, collector, kernel} references, at most max.  Free it. */
ar_json_t *ar_ci_top_kernels(const ar_json_t *comparison, size_t max);

#endif
