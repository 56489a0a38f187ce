/* SPDX-License-Identifier: MIT */
/* compare.c - run-to-run comparison.  Every measure is judged by the
 * statistics module (compare/verdicts.c): a difference is a regression only
 * when the U test says it is real after Holm's correction and its effect
 * passes the practical threshold.  The gate also fails a broken candidate:
 * a cell whose trials passed in A and none in B, a cell or a collector
 * missing from B (--allow-missing accepts the last two). */
#include "config.h"

#include "compare/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/demangle.h"
#include "compare/provenance.h"
#include "sys/parallel.h"
#include "xalloc.h"

static int has_string(const ar_json_t *array, const char *text)
{
    for (size_t i = 0; i < ar_json_length(array); i++)
        if (!strcmp(ar_json_get_string(ar_json_at(array, i)), text))
            return 1;
    return 0;
}

/* The collectors any cell of run has a table for, in first-seen order. */
static ar_json_t *collectors_of(const ar_kagg_run_t *run)
{
    ar_json_t *names = ar_json_array();
    for (size_t c = 0; c < run->count; c++)
        for (size_t t = 0; t < run->cells[c].count; t++)
            if (!has_string(names, run->cells[c].tables[t].collector))
                ar_json_append(names, ar_json_string(run->cells[c].tables[t].collector));
    return names;
}

static void set_collectors(ar_json_t *out, const ar_kagg_run_t *a,
                           const ar_kagg_run_t *b)
{
    ar_json_t *ca = collectors_of(a), *cb = collectors_of(b);
    ar_json_t *common = ar_json_array(), *only_a = ar_json_array();
    ar_json_t *only_b = ar_json_array();
    for (size_t i = 0; i < ar_json_length(ca); i++) {
        const char *name = ar_json_get_string(ar_json_at(ca, i));
        ar_json_append(has_string(cb, name) ? common : only_a, ar_json_string(name));
    }
    for (size_t i = 0; i < ar_json_length(cb); i++) {
        const char *name = ar_json_get_string(ar_json_at(cb, i));
        if (!has_string(ca, name))
            ar_json_append(only_b, ar_json_string(name));
    }
    ar_json_set(out, "collectors", common);
    ar_json_set(out, "collectors_only_in_a", only_a);
    ar_json_set(out, "collectors_only_in_b", only_b);
    ar_json_free(ca);
    ar_json_free(cb);
}

static ar_json_t *side_counts(const ar_kagg_cell_t *cell)
{
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "trials", ar_json_int((int64_t)cell->trials));
    ar_json_set(obj, "passed", ar_json_int((int64_t)cell->passing));
    ar_json_set(obj, "failed", ar_json_int((int64_t)cell->failed));
    ar_json_set(obj, "errored", ar_json_int((int64_t)cell->errored));
    ar_json_set(obj, "warmup", ar_json_int((int64_t)cell->warmup));
    return obj;
}

/* The cells of b matched with a: each pair's measures are [from, to). */
typedef struct pair {
    const ar_kagg_cell_t *a, *b;
    size_t from, to;
} pair_t;

/* The gate's findings as they are met. */
typedef struct gate {
    const ar_compare_request_t *request;
    ar_json_t *reasons;   /* what fails it (exit 3) */
    ar_json_t *undecided; /* headline measures whose bound is not below delta (exit 4) */
    ar_json_t *notes;     /* what was waived or left out */
    ar_json_t *broken;    /* the reasons that are a broken candidate, not a regression */
    size_t judged;        /* headline measures judged */
    double worst_bound;   /* the largest undecided upper bound, percent */
    char *worst;          /* ... and whose it is */
} gate_t;

/* A broken candidate's reason (a regression's goes to reasons alone). */
static void reason(gate_t *gate, int waivable, char *text)
{
    if (waivable && gate->request->allow_missing) {
        char *noted = ar_xasprintf("%s (accepted: --allow-missing)", text);
        ar_json_append(gate->notes, ar_json_string(noted));
        free(noted);
    } else {
        ar_json_append(gate->reasons, ar_json_string(text));
        ar_json_append(gate->broken, ar_json_string(text));
    }
    free(text);
}

/* What a measure is called in a line: "rocprof GPU time", "step time". */
static char *measure_label(const ar_measure_t *m)
{
    if (m->kernel) {
        char *display = ar_kernel_display(m->kernel);
        char *label = ar_xasprintf("%s kernel %s", m->collector, display);
        free(display);
        return label;
    }
    if (!strcmp(m->measure, "gpu_time_ms"))
        return ar_xasprintf("%s GPU time", m->collector);
    if (!strcmp(m->measure, "step_time_ms"))
        return ar_xstrdup("step time");
    return ar_xstrdup(m->measure);
}

/* A headline measure's bound in the worse direction, percent: its upper end
 * for lower-is-better (the one-sided 1 - alpha bound), mirrored. */
static double worse_bound(const ar_measure_t *m)
{
    const ar_stats_result_t *r = &m->result;
    return m->better == AR_STATS_BETTER_HIGHER ? -r->ci_low_pct : r->ci_high_pct;
}

/* Whether a judged headline measure lets the gate pass: its bound below
 * delta (or its absolute change inside the floor). */
static int headline_settled(const ar_measure_t *m, const ar_stats_options_t *o)
{
    const ar_stats_result_t *r = &m->result;
    if (isnan(r->p_raw))
        return 0;
    double bound_abs = m->better == AR_STATS_BETTER_HIGHER ? -r->ci_low_abs : r->ci_high_abs;
    return worse_bound(m) < o->threshold_pct || (o->min_delta > 0 && bound_abs < o->min_delta);
}

static void no_data(gate_t *gate, const ar_measure_t *m)
{
    if (m->presence == AR_NO_DATA_BOTH)
        return; /* neither side has anything: nothing judged, nothing broken */
    const char *empty = m->presence == AR_NO_DATA_A ? "A" : "B";
    reason(gate, 1, ar_xasprintf("cell %s: %s captured nothing in %s (no data; the other run "
                                 "has its GPU time)",
                                 m->cell, m->collector, empty));
}

static void judge_gate(gate_t *gate, const ar_measure_t *m, size_t *undecided,
                       size_t *needed)
{
    ar_verdict_t verdict = m->result.verdict;
    if (!m->gated || verdict == AR_VERDICT_INCOMPARABLE)
        return;
    if (verdict == AR_VERDICT_NO_DATA) {
        no_data(gate, m);
        return;
    }
    if (verdict == AR_VERDICT_REGRESSED) {
        char *text = ar_measure_text(m, gate->request->verdicts.stats.threshold_pct);
        char *label = measure_label(m);
        char *line = ar_xasprintf("cell %s: %s %s", m->cell, label, text);
        ar_json_append(gate->reasons, ar_json_string(line)); /* a regression, not broken */
        free(line);
        free(label);
        free(text);
    }
    /* A side with no sample at all is a collector or cell missing from a
     * run, or a candidate none of whose trials passed: the gate's own
     * reasons, not an undecided measure. */
    if (!m->headline || !m->n_a || !m->n_b)
        return;
    gate->judged++;
    if (headline_settled(m, &gate->request->verdicts.stats))
        return;
    (*undecided)++;
    if (m->result.trials_needed > *needed)
        *needed = m->result.trials_needed;
    double bound = isnan(m->result.p_raw) ? INFINITY : worse_bound(m);
    if (!gate->worst || bound > gate->worst_bound) {
        free(gate->worst);
        char *label = measure_label(m);
        gate->worst = ar_xasprintf("cell %s: %s", m->cell, label);
        gate->worst_bound = bound;
        free(label);
    }
}

/* A cell broken in B, a collector missing from it, and its gated measures. */
static void gate_cell(gate_t *gate, const ar_measures_t *set, const pair_t *pair)
{
    const ar_kagg_cell_t *a = pair->a, *b = pair->b;
    if (a->passing && !b->passing)
        reason(gate, 0,
               ar_xasprintf("cell %s: no trial passed in B (%zu failed, %zu errored of %zu)",
                               b->name, b->failed, b->errored, b->trials));
    for (size_t t = 0; b->passing && t < a->count; t++)
        if (!ar_kagg_table(b, a->tables[t].collector))
            reason(gate, 1, ar_xasprintf("cell %s: collector %s is missing from B", b->name,
                                            a->tables[t].collector));
    size_t undecided = 0, needed = 0;
    for (size_t i = pair->from; i < pair->to; i++)
        judge_gate(gate, &set->items[i], &undecided, &needed);
    if (!undecided)
        return;
    char *line = ar_xasprintf("cell %s: %zu headline measure(s) undecided at %zu vs %zu passing "
                              "trials (a bound not below %g%%); %zu per side would settle them",
                              b->name, undecided, a->passing, b->passing,
                              gate->request->verdicts.stats.threshold_pct,
                              needed > AR_STATS_MIN_TRIALS ? needed : AR_STATS_MIN_TRIALS);
    ar_json_append(gate->undecided, ar_json_string(line));
    free(line);
}

/* The outcome: failed (3) when anything regressed or is broken; no verdict
 * (4) when nothing was judged or a headline measure is undecided (0 with
 * --allow-inconclusive, saying the largest bound); passed (0) otherwise. */
static ar_json_t *gate_json(gate_t *gate)
{
    const char *outcome = "passed";
    int status = 0;
    if (ar_json_length(gate->reasons)) {
        outcome = "failed", status = 3;
    } else if (!gate->judged) {
        ar_json_append(gate->reasons,
                       ar_json_string("nothing was judged: every headline measure is "
                                      "incomparable, missing or without data"));
        outcome = "no verdict", status = 4;
    } else if (ar_json_length(gate->undecided) && !gate->request->allow_inconclusive) {
        for (size_t i = 0; i < ar_json_length(gate->undecided); i++)
            ar_json_append(gate->reasons, ar_json_ref(ar_json_at(gate->undecided, i)));
        outcome = "no verdict", status = 4;
    } else if (ar_json_length(gate->undecided)) {
        char *line = isinf(gate->worst_bound)
                         ? ar_xasprintf("accepted undecided (--allow-inconclusive): %s has "
                                        "too few trials for a bound", gate->worst)
                         : ar_xasprintf("accepted undecided (--allow-inconclusive): the "
                                        "largest upper bound is %+.1f%%, %s",
                                        gate->worst_bound, gate->worst);
        ar_json_append(gate->notes, ar_json_string(line));
        free(line);
    }
    ar_json_t *verdict = ar_json_object();
    ar_json_set(verdict, "outcome", ar_json_string(outcome));
    ar_json_set(verdict, "exit_status", ar_json_int(status));
    ar_json_set(verdict, "failed", ar_json_bool(status == 3));
    ar_json_set(verdict, "reasons", gate->reasons);
    ar_json_set(verdict, "undecided", gate->undecided);
    ar_json_set(verdict, "notes", gate->notes);
    ar_json_set(verdict, "broken", gate->broken);
    ar_json_set(verdict, "headline_judged", ar_json_int((int64_t)gate->judged));
    free(gate->worst);
    return verdict;
}

/* Significant first, then by the size of the change. */
static double kernel_rank(const ar_measure_t *m)
{
    int significant = m->result.verdict == AR_VERDICT_REGRESSED
                      || m->result.verdict == AR_VERDICT_IMPROVED;
    double delta = (m->n_b ? ar_stats_mean(m->b, m->n_b) : 0.0)
                   - (m->n_a ? ar_stats_mean(m->a, m->n_a) : 0.0);
    return (significant ? 1e300 : 0.0) + fabs(delta);
}

typedef struct ranked {
    double key;
    size_t index;
} ranked_t;

static int by_key(const void *left, const void *right)
{
    const ranked_t *x = left, *y = right;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static ar_json_t *kernel_json(const ar_measure_t *m, const pair_t *pair)
{
    ar_json_t *obj = ar_measure_json(m);
    char *display = ar_kernel_display(m->kernel);
    ar_json_set(obj, "display", ar_json_string(display));
    free(display);
    const ar_kagg_table_t *ta = ar_kagg_table(pair->a, m->collector);
    const ar_kagg_table_t *tb = ar_kagg_table(pair->b, m->collector);
    const char *status = !ar_kagg_kernel(ta, m->kernel)   ? "added"
                         : !ar_kagg_kernel(tb, m->kernel) ? "removed"
                                                             : "common";
    ar_json_set(obj, "status", ar_json_string(status));
    return obj;
}

/* The kernels of one collector in a pair, most telling first. */
static ar_json_t *kernels_of(const ar_measures_t *set, const pair_t *pair,
                                const char *collector)
{
    ranked_t *ranked = ar_xcalloc(pair->to - pair->from + 1, sizeof *ranked);
    size_t count = 0;
    for (size_t i = pair->from; i < pair->to; i++) {
        const ar_measure_t *m = &set->items[i];
        if (m->kernel && !strcmp(m->collector, collector))
            ranked[count++] = (ranked_t){kernel_rank(m), i};
    }
    if (count > 1)
        qsort(ranked, count, sizeof *ranked, by_key);
    ar_json_t *array = ar_json_array();
    for (size_t i = 0; i < count; i++)
        ar_json_append(array, kernel_json(&set->items[ranked[i].index], pair));
    free(ranked);
    return array;
}

/* The ranks of one collector in a pair, in rank order. */
static ar_json_t *ranks_of(const ar_measures_t *set, const pair_t *pair,
                              const char *collector)
{
    ar_json_t *array = ar_json_array();
    for (size_t i = pair->from; i < pair->to; i++) {
        const ar_measure_t *m = &set->items[i];
        if (m->rank >= 0 && !strcmp(m->collector, collector))
            ar_json_append(array, ar_measure_json(m));
    }
    return array;
}

/* Whether a headline measure the gate judges keeps it from passing: the
 * reports list these as undecided (as judge_gate() counts them). */
static int undecided_headline(const ar_measure_t *m, const ar_stats_options_t *options)
{
    ar_verdict_t verdict = m->result.verdict;
    return m->headline && m->gated && m->n_a && m->n_b && verdict != AR_VERDICT_INCOMPARABLE
           && verdict != AR_VERDICT_NO_DATA && !headline_settled(m, options);
}

static ar_json_t *cell_json(const ar_measures_t *set, const pair_t *pair,
                            const ar_stats_options_t *options)
{
    ar_json_t *cell = ar_json_object();
    ar_json_set(cell, "name", ar_json_string(pair->b->name));
    ar_json_set(cell, "a", side_counts(pair->a));
    ar_json_set(cell, "b", side_counts(pair->b));
    ar_json_t *measures = ar_json_array();
    for (size_t i = pair->from; i < pair->to; i++) {
        const ar_measure_t *m = &set->items[i];
        if (m->kernel || m->rank >= 0)
            continue;
        ar_json_t *entry = ar_measure_json(m);
        if (m->headline && m->gated)
            ar_json_set(entry, "undecided", ar_json_bool(undecided_headline(m, options)));
        if (!strcmp(m->measure, "gpu_time_ms")) {
            ar_json_set(entry, "kernels", kernels_of(set, pair, m->collector));
            ar_json_t *ranks = ranks_of(set, pair, m->collector);
            if (ar_json_length(ranks))
                ar_json_set(entry, "ranks", ranks);
            else
                ar_json_free(ranks);
        }
        ar_json_append(measures, entry);
    }
    ar_json_set(cell, "measures", measures);
    return cell;
}

typedef struct cells_work {
    const ar_measures_t *set;
    const ar_stats_options_t *options;
    const pair_t *pairs;
    ar_json_t **built;
} cells_work_t;

static void cell_one(size_t i, void *state, void *user)
{
    (void)state;
    cells_work_t *work = user;
    work->built[i] = cell_json(work->set, &work->pairs[i], work->options);
}

/* Each pair's JSON, in order: built on every CPU (a pair only reads). */
static ar_json_t **cells_json(const ar_measures_t *set, const pair_t *pairs, size_t npairs,
                              const ar_stats_options_t *options)
{
    cells_work_t work = {set, options, pairs, ar_xcalloc(npairs + 1, sizeof *work.built)};
    ar_parallel_t loop = {.count = npairs, .per_worker = 64, .item = cell_one, .user = &work};
    ar_parallel_run(&loop);
    return work.built;
}

/* Pair the cells, gather their measures, judge them all at once (the
 * headline family spans the cells). */
static pair_t *pair_cells(const ar_kagg_run_t *a, const ar_kagg_run_t *b,
                          const ar_compare_request_t *request, ar_measures_t *set,
                          size_t *count)
{
    pair_t *pairs = ar_xcalloc(b->count + 1, sizeof *pairs);
    *count = 0;
    for (size_t i = 0; i < b->count; i++) {
        const ar_kagg_cell_t *ca = ar_kagg_cell(a, b->cells[i].name);
        if (!ca)
            continue;
        pair_t *pair = &pairs[(*count)++];
        pair->a = ca;
        pair->b = &b->cells[i];
        pair->from = set->count;
        ar_measures_add_cells(set, ca, &b->cells[i], &request->verdicts);
        pair->to = set->count;
    }
    return pairs;
}

static void set_cells_only(ar_json_t *out, const ar_kagg_run_t *a,
                           const ar_kagg_run_t *b, gate_t *gate)
{
    ar_json_t *added = ar_json_array(), *removed = ar_json_array();
    for (size_t i = 0; i < a->count; i++)
        if (!ar_kagg_cell(b, a->cells[i].name)) {
            ar_json_append(removed, ar_json_string(a->cells[i].name));
            reason(gate, 1, ar_xasprintf("cell %s is missing from B", a->cells[i].name));
        }
    for (size_t i = 0; i < b->count; i++)
        if (!ar_kagg_cell(a, b->cells[i].name))
            ar_json_append(added, ar_json_string(b->cells[i].name));
    ar_json_set(out, "cells_added", added);
    ar_json_set(out, "cells_removed", removed);
}

static ar_json_t *header(const char *label_a, const char *label_b,
                            const ar_compare_request_t *request)
{
    const ar_verdict_request_t *v = &request->verdicts;
    ar_json_t *out = ar_json_object();
    ar_json_set(out, "schema_version", ar_json_int(AR_COMPARE_SCHEMA));
    ar_json_set(out, "run_a", ar_json_string(label_a));
    ar_json_set(out, "run_b", ar_json_string(label_b));
    ar_json_set(out, "alpha", ar_json_double(v->stats.alpha));
    ar_json_set(out, "ci_level", ar_json_double(ar_stats_ci_level(&v->stats)));
    ar_json_set(out, "gate_kernels_pct", ar_json_double(v->gate_kernels_pct));
    ar_json_set(out, "threshold_pct", ar_json_double(v->stats.threshold_pct));
    ar_json_set(out, "min_delta_ms", ar_json_double(v->stats.min_delta));
    ar_json_set(out, "gate_step_time", ar_json_bool(v->gate_step_time));
    return out;
}

/* Whether measure m is one a mismatch concerns: a cell's (its variables
 * differ), else "*" every measure, else a collector's own (its GPU time,
 * kernels, "<c>_" metrics). */
static int concerns(const ar_measure_t *m, const char *collector, const char *cell)
{
    if (cell)
        return !strcmp(m->cell, cell);
    if (!strcmp(collector, "*"))
        return 1;
    if (m->collector)
        return !strcmp(m->collector, collector);
    size_t len = strlen(collector);
    return !strncmp(m->measure, collector, len) && m->measure[len] == '_';
}

/* Measures whose runs differ in what makes them comparable (a profiler
 * version, collector options, a cell's variables, the ranks profiled, the
 * GPU) are incomparable, not gated, unless --allow-mismatch. */
static void mark_incomparable(ar_measures_t *set, const ar_json_t *mismatches,
                              const ar_compare_request_t *request)
{
    for (size_t i = 0; !request->allow_mismatch && i < ar_json_length(mismatches); i++) {
        const ar_json_t *entry = ar_json_at(mismatches, i);
        const char *collector = ar_json_get_string(ar_json_get(entry, "collector"));
        const char *cell = ar_json_get_string(ar_json_get(entry, "cell"));
        if (!ar_json_get_bool(ar_json_get(entry, "incomparable")) || (!collector && !cell))
            continue;
        for (size_t m = 0; m < set->count; m++)
            if (concerns(&set->items[m], collector, cell)
                && set->items[m].result.verdict != AR_VERDICT_NO_DATA)
                set->items[m].result.verdict = AR_VERDICT_INCOMPARABLE;
    }
}

static int copy_member(const char *key, ar_json_t *value, void *user)
{
    ar_json_set(user, key, ar_json_ref(value));
    return 0;
}

/* The metrics either run's collectors declared, B's over A's. */
static ar_json_t *declared_of(const ar_compare_request_t *request)
{
    ar_json_t *declared = ar_provenance_declared(request->provenance_a);
    ar_json_t *b = ar_provenance_declared(request->provenance_b);
    ar_json_foreach(b, copy_member, declared);
    ar_json_free(b);
    return declared;
}

ar_json_t *ar_compare(const char *label_a, const ar_kagg_run_t *kernels_a,
                            const char *label_b, const ar_kagg_run_t *kernels_b,
                            const ar_compare_request_t *request, char **error)
{
    ar_measures_t set = {0};
    size_t npairs = 0;
    ar_compare_request_t own = *request;
    ar_json_t *declared = declared_of(request);
    own.verdicts.declared = declared;
    pair_t *pairs = pair_cells(kernels_a, kernels_b, &own, &set, &npairs);
    ar_json_free(declared);
    if (ar_measures_judge(&set, &request->verdicts.stats, error) != 0) {
        free(pairs);
        ar_measures_clear(&set);
        return NULL;
    }
    ar_json_t *mismatches = ar_provenance_mismatches(request->provenance_a,
                                                           request->provenance_b);
    mark_incomparable(&set, mismatches, request);
    ar_json_t *out = header(label_a, label_b, request);
    ar_json_set(out, "mismatches", mismatches);
    ar_json_set(out, "allow_mismatch", ar_json_bool(request->allow_mismatch));
    set_collectors(out, kernels_a, kernels_b);
    gate_t gate = {request, ar_json_array(), ar_json_array(), ar_json_array(),
                   ar_json_array(), 0, 0.0, NULL};
    set_cells_only(out, kernels_a, kernels_b, &gate);
    ar_json_t *cells = ar_json_array();
    ar_json_t **built = cells_json(&set, pairs, npairs, &request->verdicts.stats);
    for (size_t i = 0; i < npairs; i++) {
        ar_json_append(cells, built[i]);
        gate_cell(&gate, &set, &pairs[i]);
    }
    free(built);
    ar_json_set(out, "cells", cells);
    ar_json_set(out, "kernels_omitted", ar_json_int((int64_t)set.kernels_omitted));
    ar_json_set(out, "gate", gate_json(&gate));
    free(pairs);
    ar_measures_clear(&set);
    return out;
}

int ar_compare_exit_status(const ar_json_t *comparison)
{
    return (int)ar_json_get_int(ar_json_get(ar_json_get(comparison, "gate"), "exit_status"));
}
