/* SPDX-License-Identifier: MIT */
/* matrix.c - per-cell aggregates and matrix.json. */
#include "config.h"

#include "report/matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "keyindex.h"
#include "kernels/kernel_agg.h"
#include "compare/provenance.h"
#include "compare/verdicts.h"
#include "record/trial_json.h"
#include "sys/text_escape.h"
#include "xalloc.h"

#define CONFOUND_THRESHOLD 1.15
#define UNRELIABLE_ERROR_SHARE 0.1

void ar_cell_result_add(ar_cell_result_t *result, ar_outcome_t *outcome)
{
    ar_xgrow((void **)&result->outcomes, &result->capacity, result->count + 1,
                sizeof *result->outcomes);
    result->outcomes[result->count++] = *outcome;
    memset(outcome, 0, sizeof *outcome);
}

void ar_cell_result_clear(ar_cell_result_t *result)
{
    for (size_t i = 0; i < result->count; i++)
        ar_outcome_clear(&result->outcomes[i]);
    free(result->outcomes);
    free(result->error);
    free(result->stop_after_note);
    memset(result, 0, sizeof *result);
}

void ar_cell_counts(const ar_cell_result_t *result, ar_cell_counts_t *counts)
{
    memset(counts, 0, sizeof *counts);
    for (size_t i = 0; i < result->count; i++) {
        const ar_outcome_t *outcome = &result->outcomes[i];
        counts->trials++;
        if (!strcmp(outcome->verdict, "pass"))
            counts->passed++;
        else if (!strcmp(outcome->verdict, "error"))
            counts->errors++;
        else
            counts->failed++;
        if (outcome->launched)
            counts->launched++;
    }
}

static void iteration_range(const ar_cell_result_t *result, int *low, int *high)
{
    for (size_t i = 0; i < result->count; i++) {
        int value = result->outcomes[i].executed_iterations;
        if (i == 0 || value < *low)
            *low = value;
        if (i == 0 || value > *high)
            *high = value;
    }
}

char *ar_cell_iters_display(const ar_cell_result_t *result)
{
    int low = 0, high = 0;
    iteration_range(result, &low, &high);
    if (!result->count)
        return ar_xstrdup(AR_EM_DASH);
    return low == high ? ar_xasprintf("%d/1", low) : ar_xasprintf("%d..%d/1", low, high);
}

const char *ar_matrix_baseline(const ar_plan_t *plan)
{
    for (size_t i = 0; i < plan->cell_count; i++) {
        const ar_cell_t *cell = &plan->cells[i];
        if (!strcmp(cell->mitigation, "none") && !strcmp(cell->diagnostic, "none"))
            return cell->name;
    }
    return plan->cell_count ? plan->cells[0].name : NULL;
}

char *ar_matrix_cells_problem(const ar_json_t *matrix)
{
    const ar_json_t *cells = ar_json_get(matrix, "cells");
    ar_keyindex_t seen = {0};
    char *problem = NULL;
    for (size_t i = 0; !problem && i < ar_json_length(cells); i++) {
        const char *name = ar_json_get_string(ar_json_get(ar_json_at(cells, i), "name"));
        if (!name)
            continue; /* read as a cell without trials */
        char *shown = ar_text_escape(name);
        if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
            problem = ar_xasprintf("cell %zu is named '%s', a path, not a cell", i + 1,
                                   shown);
        else if (ar_keyindex_find(&seen, name) != AR_KEYINDEX_NONE)
            problem = ar_xasprintf("cell '%s' is listed twice (entries %zu and %zu); a run "
                                   "directory holds each cell once",
                                   shown, ar_keyindex_find(&seen, name) + 1, i + 1);
        else
            ar_keyindex_add(&seen, name, i);
        free(shown);
    }
    ar_keyindex_clear(&seen);
    return problem;
}

double ar_round3(double value)
{
    char text[400]; /* "%.3f" of the largest double: 309 digits and ".000" */
    snprintf(text, sizeof text, "%.3f", value);
    return strtod(text, NULL);
}

/* A histogram of strings in first-seen order.  Keys are indexed: a resumed
 * trial JSON can list any number of detectors. */
typedef struct tally {
    char **keys;
    size_t *counts;
    size_t count, capacity, count_capacity;
    ar_keyindex_t index;
} tally_t;

static void tally_add(tally_t *tally, const char *key)
{
    size_t found = ar_keyindex_find(&tally->index, key);
    if (found != AR_KEYINDEX_NONE) {
        tally->counts[found]++;
        return;
    }
    ar_xgrow((void **)&tally->keys, &tally->capacity, tally->count + 1, sizeof *tally->keys);
    ar_xgrow((void **)&tally->counts, &tally->count_capacity, tally->count + 1,
                sizeof *tally->counts);
    tally->keys[tally->count] = ar_xstrdup(key);
    ar_keyindex_add(&tally->index, tally->keys[tally->count], tally->count);
    tally->counts[tally->count++] = 1;
}

/* Index of the most frequent key (the first seen among equals), or -1. */
static long tally_top(const tally_t *tally)
{
    long best = -1;
    for (size_t i = 0; i < tally->count; i++)
        if (best < 0 || tally->counts[i] > tally->counts[best])
            best = (long)i;
    return best;
}

static ar_json_t *tally_object(const tally_t *tally)
{
    ar_json_t *obj = ar_json_object();
    for (size_t i = 0; i < tally->count; i++)
        ar_json_set(obj, tally->keys[i], ar_json_int((int64_t)tally->counts[i]));
    return obj;
}

static void tally_clear(tally_t *tally)
{
    for (size_t i = 0; i < tally->count; i++)
        free(tally->keys[i]);
    free(tally->keys);
    free(tally->counts);
    ar_keyindex_clear(&tally->index);
    memset(tally, 0, sizeof *tally);
}

/* failure_hints: [[text, n], ...], most frequent first. */
static ar_json_t *hints_array(const tally_t *hints)
{
    size_t *order = ar_xcalloc(hints->count + 1, sizeof *order);
    for (size_t i = 0; i < hints->count; i++)
        order[i] = i;
    /* Stable insertion sort by count, descending: few distinct hints. */
    for (size_t i = 1; i < hints->count; i++)
        for (size_t j = i; j > 0 && hints->counts[order[j]] > hints->counts[order[j - 1]]; j--) {
            size_t swap = order[j];
            order[j] = order[j - 1];
            order[j - 1] = swap;
        }
    ar_json_t *array = ar_json_array();
    for (size_t i = 0; i < hints->count; i++) {
        ar_json_t *pair = ar_json_array();
        ar_json_append(pair, ar_json_string(hints->keys[order[i]]));
        ar_json_append(pair, ar_json_int((int64_t)hints->counts[order[i]]));
        ar_json_append(array, pair);
    }
    free(order);
    return array;
}

/* metrics_summary accumulators, in first-seen order; keys are indexed, as
 * for a tally. */
typedef struct summary_item {
    char *key;
    double *values;    /* for a mean that reads true (ar_stats_mean) */
    double min, max;
    size_t n, capacity;
} summary_item_t;

typedef struct summary {
    summary_item_t *items;
    size_t count, capacity;
    ar_keyindex_t index;
} summary_t;

static int summary_add(const char *key, ar_json_t *value, void *user)
{
    summary_t *summary = user;
    ar_json_type_t type = ar_json_type(value);
    if (type != AR_JSON_INT && type != AR_JSON_DOUBLE)
        return 0; /* strings, lists and booleans never aggregate */
    double number = type == AR_JSON_INT ? (double)ar_json_get_int(value)
                                           : ar_json_get_double(value);
    if (!isfinite(number))
        return 0;
    size_t found = ar_keyindex_find(&summary->index, key);
    summary_item_t *item = found != AR_KEYINDEX_NONE ? &summary->items[found] : NULL;
    if (!item) {
        ar_xgrow((void **)&summary->items, &summary->capacity, summary->count + 1,
                    sizeof *summary->items);
        item = &summary->items[summary->count++];
        *item = (summary_item_t){ar_xstrdup(key), NULL, number, number, 0, 0};
        ar_keyindex_add(&summary->index, item->key, summary->count - 1);
    }
    ar_xgrow((void **)&item->values, &item->capacity, item->n + 1, sizeof *item->values);
    item->values[item->n] = number;
    item->min = number < item->min ? number : item->min;
    item->max = number > item->max ? number : item->max;
    item->n++;
    return 0;
}

static ar_json_t *metrics_summary(const ar_cell_result_t *result)
{
    summary_t summary = {0};
    for (size_t i = 0; i < result->count; i++)
        if (!strcmp(result->outcomes[i].verdict, "pass"))
            ar_json_foreach(result->outcomes[i].metrics, summary_add, &summary);
    ar_json_t *obj = ar_json_object();
    for (size_t i = 0; i < summary.count; i++) {
        summary_item_t *item = &summary.items[i];
        ar_json_t *stats = ar_json_object();
        /* Correctly rounded: three trials of 6.1 have the mean 6.1. */
        ar_json_set(stats, "mean", ar_json_double(ar_stats_mean(item->values, item->n)));
        ar_json_set(stats, "min", ar_json_double(item->min));
        ar_json_set(stats, "max", ar_json_double(item->max));
        ar_json_set(stats, "n", ar_json_double((double)item->n));
        ar_json_set(obj, item->key, stats);
        free(item->key);
        free(item->values);
    }
    ar_keyindex_clear(&summary.index);
    free(summary.items);
    return obj;
}

static int compare_doubles(const void *left, const void *right)
{
    double a = *(const double *)left, b = *(const double *)right;
    return a < b ? -1 : a > b;
}


static ar_json_t *rounded(double value)
{
    return ar_json_double(ar_round3(value));
}

/* Step-time statistics over the launched trials (one sample each: the
 * trial's wall clock), null without a sample; mean_wall_clock_sec over
 * every trial. */
static void add_step_timing(ar_json_t *obj, const ar_cell_result_t *result,
                            ar_json_t **samples_json)
{
    double *samples = ar_xcalloc(result->count + 1, sizeof *samples);
    size_t n = 0;
    *samples_json = ar_json_array();
    for (size_t i = 0; i < result->count; i++)
        if (result->outcomes[i].launched) {
            samples[n] = ar_round3(result->outcomes[i].wall_clock_sec * 1000.0);
            ar_json_append(*samples_json, ar_json_double(samples[n]));
            n++;
        }
    static const char *const keys[] = {"mean_step_time_ms", "std_step_time_ms",
                                       "min_step_time_ms",  "max_step_time_ms",
                                       "p50_step_time_ms",  "p90_step_time_ms",
                                       "p99_step_time_ms"};
    if (n == 0) {
        for (size_t k = 0; k < 7; k++)
            ar_json_set(obj, keys[k], NULL);
    } else {
        /* Exact sums: identical samples have their value as mean, std 0. */
        double mean = ar_stats_mean(samples, n), std = ar_stats_pstdev(samples, n);
        qsort(samples, n, sizeof *samples, compare_doubles);
        double values[7] = {mean,
                            std,
                            samples[0],
                            samples[n - 1],
                            ar_stats_percentile(samples, n, 0.5),
                            ar_stats_percentile(samples, n, 0.9),
                            ar_stats_percentile(samples, n, 0.99)};
        for (size_t k = 0; k < 7; k++)
            ar_json_set(obj, keys[k], rounded(values[k]));
    }
    double wall = 0;
    for (size_t i = 0; i < result->count; i++)
        wall += result->outcomes[i].wall_clock_sec;
    ar_json_set(obj, "mean_wall_clock_sec",
                   result->count ? rounded(wall / (double)result->count) : NULL);
    free(samples);
}

static int add_detectors(const char *key, ar_json_t *value, void *user)
{
    if (strcmp(key, "failure_detectors_fired") != 0)
        return 0;
    for (size_t i = 0; i < ar_json_length(value); i++) {
        const char *id = ar_json_get_string(ar_json_at(value, i));
        if (id)
            tally_add(user, id);
    }
    return 1;
}

static ar_json_t *cell_json(const ar_plan_t *plan, size_t index,
                               const ar_cell_result_t *result, const char *baseline)
{
    const ar_cell_t *cell = &plan->cells[index];
    ar_cell_counts_t counts;
    ar_cell_counts(result, &counts);
    tally_t statuses = {0}, hints = {0}, outcomes = {0}, detectors = {0};
    ar_json_t *paths = ar_json_array();
    for (size_t i = 0; i < result->count; i++) {
        const ar_outcome_t *outcome = &result->outcomes[i];
        tally_add(&statuses, outcome->exit_status);
        if (outcome->hint)
            tally_add(&hints, outcome->hint);
        tally_add(&outcomes, outcome->launched ? "completed" : "did_not_run");
        ar_json_foreach(outcome->metrics, add_detectors, &detectors);
        ar_json_append(paths, ar_json_string(outcome->trial_path));
    }
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "name", ar_json_string(cell->name));
    ar_json_t *mitigations = ar_json_array();
    ar_json_append(mitigations, ar_json_string(cell->mitigation));
    ar_json_append(mitigations, ar_json_string(cell->diagnostic));
    ar_json_set(obj, "mitigations", mitigations);
    ar_json_set(obj, "environment", ar_json_string("local"));
    ar_json_set(obj, "extra_env", ar_json_object());
    ar_json_set(obj, "resolved_env_vars", ar_trial_env_object(cell->env));
    ar_json_set(obj, "trials", ar_json_int((int64_t)counts.trials));
    ar_json_set(obj, "passed_count", ar_json_int((int64_t)counts.passed));
    ar_json_set(obj, "failed_count", ar_json_int((int64_t)counts.failed));
    ar_json_t *samples = NULL;
    add_step_timing(obj, result, &samples);
    ar_json_set(obj, "exit_status_counts", tally_object(&statuses));
    ar_json_set(obj, "step_times_ms", samples);
    ar_json_set(obj, "trial_paths", paths);
    ar_json_set(obj, "error", result->error ? ar_json_string(result->error) : NULL);
    ar_json_set(obj, "step_time_source",
                   ar_json_string(counts.launched ? "wall_clock_total" : "missing"));
    ar_json_set(obj, "failure_hints", hints_array(&hints));
    ar_json_set(obj, "outcome_counts", tally_object(&outcomes));
    int iter_min = 0, iter_max = 0;
    iteration_range(result, &iter_min, &iter_max);
    ar_json_set(obj, "executed_iter_min", result->count ? ar_json_int(iter_min) : NULL);
    ar_json_set(obj, "executed_iter_max", result->count ? ar_json_int(iter_max) : NULL);
    ar_json_set(obj, "configured_iters", ar_json_int(1));
    char *iters = ar_cell_iters_display(result);
    ar_json_set(obj, "iters_display", ar_json_string(iters));
    free(iters);
    ar_json_set(obj, "workload_config", ar_json_object());
    long top = tally_top(&detectors);
    ar_json_set(obj, "top_failure_detector_id",
                   top >= 0 ? ar_json_string(detectors.keys[top]) : NULL);
    ar_json_set(obj, "top_warn_detector_id", NULL);
    ar_json_set(obj, "stop_after_note",
                   result->stop_after_note ? ar_json_string(result->stop_after_note) : NULL);
    ar_json_set(obj, "error_count", ar_json_int((int64_t)counts.errors));
    ar_json_set(obj, "metrics_summary", metrics_summary(result));
    ar_json_set(obj, "resumed", ar_json_bool(result->resumed));
    size_t valid = counts.passed + counts.failed;
    ar_json_set(obj, "failure_rate",
                   ar_json_double(valid ? (double)counts.failed / (double)valid : 0.0));
    ar_json_set(obj, "error_rate",
                   ar_json_double(counts.trials ? (double)counts.errors / (double)counts.trials
                                                   : 0.0));
    ar_json_set(obj, "unreliable",
                   ar_json_bool(counts.trials > 0
                                   && (double)counts.errors
                                          >= UNRELIABLE_ERROR_SHARE * (double)counts.trials));
    const char *confound = result->error                     ? "error"
                         : baseline && !strcmp(cell->name, baseline) ? "(baseline)"
                         : counts.launched == 0               ? "did_not_run"
                                                              : "n/a";
    ar_json_set(obj, "confound", ar_json_string(confound));
    ar_json_set(obj, "step_time_ratio", NULL);
    ar_json_set(obj, "resolved_environment", ar_trial_environment());
    tally_clear(&statuses);
    tally_clear(&hints);
    tally_clear(&outcomes);
    tally_clear(&detectors);
    return obj;
}

/* Each non-baseline cell's vs_baseline: its measures against the baseline
 * cell's (the collectors' GPU times, the step time, every other numeric
 * metric), judged by the statistics module with its defaults. */
static void add_vs_baseline(ar_json_t *cells, const ar_plan_t *plan,
                            const ar_cell_result_t *results, const char *baseline)
{
    size_t base = plan->cell_count;
    ar_kagg_cell_t *samples = ar_xcalloc(plan->cell_count + 1, sizeof *samples);
    for (size_t i = 0; i < plan->cell_count; i++) {
        samples[i].name = ar_xstrdup(plan->cells[i].name);
        if (baseline && !strcmp(plan->cells[i].name, baseline))
            base = i;
        for (size_t t = 0; t < results[i].count; t++) {
            const ar_outcome_t *o = &results[i].outcomes[t];
            if (o->verdict && !strcmp(o->verdict, "pass"))
                ar_kagg_add_passing(&samples[i], ar_round3(o->wall_clock_sec * 1000.0),
                                       o->metrics);
        }
    }
    ar_measures_t set = {0};
    size_t *from = ar_xcalloc(plan->cell_count + 1, sizeof *from);
    ar_json_t *declared = ar_provenance_plan_declared(plan);
    ar_verdict_request_t request = AR_VERDICT_REQUEST_INIT;
    request.kernels = 0;
    request.declared = declared;
    for (size_t i = 0; i < plan->cell_count; i++) {
        from[i] = set.count;
        if (base < plan->cell_count && i != base)
            ar_measures_add_cells(&set, &samples[base], &samples[i], &request);
    }
    from[plan->cell_count] = set.count;
    char *error = NULL;
    if (ar_measures_judge(&set, &request.stats, &error) == 0)
        for (size_t i = 0; i < plan->cell_count; i++) {
            if (i == base || base == plan->cell_count)
                continue;
            ar_json_t *array = ar_json_array();
            for (size_t m = from[i]; m < from[i + 1]; m++)
                ar_json_append(array, ar_measure_json(&set.items[m]));
            ar_json_set(ar_json_at(cells, i), "vs_baseline", array);
        }
    free(error); /* the samples are finite by construction */
    ar_measures_clear(&set);
    ar_json_free(declared);
    for (size_t i = 0; i < plan->cell_count; i++)
        ar_kagg_cell_clear(&samples[i]);
    free(samples);
    free(from);
}

ar_json_t *ar_matrix_json(const ar_plan_t *plan, const ar_cell_result_t *results,
                                const char *run_timestamp, ar_json_t *warnings,
                                const char *recipe_sha256)
{
    const char *baseline = ar_matrix_baseline(plan);
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "schema_version", ar_json_int(1));
    ar_json_set(obj, "workload", ar_json_string(AR_WORKLOAD));
    ar_json_set(obj, "ticket", plan->ticket ? ar_json_string(plan->ticket) : NULL);
    ar_json_set(obj, "trials_per_cell", ar_json_int(ar_plan_trial_budget(plan)));
    if (plan->warmup_trials > 0) /* written only when there are: older files stay as they were */
        ar_json_set(obj, "warmup_trials", ar_json_int(plan->warmup_trials));
    ar_json_set(obj, "steps_per_trial", ar_json_int(1));
    ar_json_set(obj, "run_timestamp", ar_json_string(run_timestamp));
    ar_json_set(obj, "baseline_cell", baseline ? ar_json_string(baseline) : NULL);
    ar_json_t *confound = ar_json_object();
    ar_json_set(confound, "threshold", ar_json_double(CONFOUND_THRESHOLD));
    ar_json_set(confound, "baseline_cell_configured",
                   baseline ? ar_json_string(baseline) : NULL);
    ar_json_set(obj, "confound", confound);
    ar_json_t *stop = NULL;
    if (plan->has_stop_after) {
        stop = ar_json_object();
        ar_json_set(stop, "events", ar_json_int(plan->stop_events));
        ar_json_set(stop, "max_trials", ar_json_int(plan->stop_max_trials));
        ar_json_set(stop, "event_verdict", ar_json_string(plan->stop_event_verdict));
    }
    ar_json_set(obj, "stop_after", stop);
    ar_json_set(obj, "warnings", warnings ? ar_json_ref(warnings) : ar_json_array());
    ar_json_t *source = NULL;
    if (plan->recipe_path) {
        source = ar_json_object();
        ar_json_set(source, "path", ar_json_string(plan->recipe_path));
        ar_json_set(source, "sha256", recipe_sha256 ? ar_json_string(recipe_sha256) : NULL);
    }
    ar_json_set(obj, "recipe_source", source);
    ar_json_t *cells = ar_json_array();
    for (size_t i = 0; i < plan->cell_count; i++)
        ar_json_append(cells, cell_json(plan, i, &results[i], baseline));
    add_vs_baseline(cells, plan, results, baseline);
    for (size_t i = 0; plan->warmup_trials > 0 && i < plan->cell_count; i++)
        if (!results[i].resumed)
            ar_json_set(ar_json_at(cells, i), "warmup_trials",
                           ar_json_int(plan->warmup_trials));
    ar_json_set(obj, "cells", cells);
    return obj;
}
