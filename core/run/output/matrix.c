/* SPDX-License-Identifier: MIT */
/* matrix.c - per-cell aggregates and matrix.json. */
#include "config.h"

#include "output/matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "keyindex.h"
#include "output/kernel_agg.h"
#include "output/provenance.h"
#include "output/verdicts.h"
#include "record/trial_json.h"
#include "xalloc.h"

#define CONFOUND_THRESHOLD 1.15
#define UNRELIABLE_ERROR_SHARE 0.1

void aorta_cell_result_add(aorta_cell_result_t *result, aorta_outcome_t *outcome)
{
    aorta_xgrow((void **)&result->outcomes, &result->capacity, result->count + 1,
                sizeof *result->outcomes);
    result->outcomes[result->count++] = *outcome;
    memset(outcome, 0, sizeof *outcome);
}

void aorta_cell_result_clear(aorta_cell_result_t *result)
{
    for (size_t i = 0; i < result->count; i++)
        aorta_outcome_clear(&result->outcomes[i]);
    free(result->outcomes);
    free(result->error);
    free(result->stop_after_note);
    memset(result, 0, sizeof *result);
}

void aorta_cell_counts(const aorta_cell_result_t *result, aorta_cell_counts_t *counts)
{
    memset(counts, 0, sizeof *counts);
    for (size_t i = 0; i < result->count; i++) {
        const aorta_outcome_t *outcome = &result->outcomes[i];
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

static void iteration_range(const aorta_cell_result_t *result, int *low, int *high)
{
    for (size_t i = 0; i < result->count; i++) {
        int value = result->outcomes[i].executed_iterations;
        if (i == 0 || value < *low)
            *low = value;
        if (i == 0 || value > *high)
            *high = value;
    }
}

char *aorta_cell_iters_display(const aorta_cell_result_t *result)
{
    int low = 0, high = 0;
    iteration_range(result, &low, &high);
    if (!result->count)
        return aorta_xstrdup(AORTA_EM_DASH);
    return low == high ? aorta_xasprintf("%d/1", low) : aorta_xasprintf("%d..%d/1", low, high);
}

const char *aorta_matrix_baseline(const aorta_plan_t *plan)
{
    for (size_t i = 0; i < plan->cell_count; i++) {
        const aorta_cell_t *cell = &plan->cells[i];
        if (!strcmp(cell->mitigation, "none") && !strcmp(cell->diagnostic, "none"))
            return cell->name;
    }
    return plan->cell_count ? plan->cells[0].name : NULL;
}

double aorta_round3(double value)
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
    aorta_keyindex_t index;
} tally_t;

static void tally_add(tally_t *tally, const char *key)
{
    size_t found = aorta_keyindex_find(&tally->index, key);
    if (found != AORTA_KEYINDEX_NONE) {
        tally->counts[found]++;
        return;
    }
    aorta_xgrow((void **)&tally->keys, &tally->capacity, tally->count + 1, sizeof *tally->keys);
    aorta_xgrow((void **)&tally->counts, &tally->count_capacity, tally->count + 1,
                sizeof *tally->counts);
    tally->keys[tally->count] = aorta_xstrdup(key);
    aorta_keyindex_add(&tally->index, tally->keys[tally->count], tally->count);
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

static aorta_json_t *tally_object(const tally_t *tally)
{
    aorta_json_t *obj = aorta_json_object();
    for (size_t i = 0; i < tally->count; i++)
        aorta_json_set(obj, tally->keys[i], aorta_json_int((int64_t)tally->counts[i]));
    return obj;
}

static void tally_clear(tally_t *tally)
{
    for (size_t i = 0; i < tally->count; i++)
        free(tally->keys[i]);
    free(tally->keys);
    free(tally->counts);
    aorta_keyindex_clear(&tally->index);
    memset(tally, 0, sizeof *tally);
}

/* failure_hints: [[text, n], ...], most frequent first. */
static aorta_json_t *hints_array(const tally_t *hints)
{
    size_t *order = aorta_xcalloc(hints->count + 1, sizeof *order);
    for (size_t i = 0; i < hints->count; i++)
        order[i] = i;
    /* Stable insertion sort by count, descending: few distinct hints. */
    for (size_t i = 1; i < hints->count; i++)
        for (size_t j = i; j > 0 && hints->counts[order[j]] > hints->counts[order[j - 1]]; j--) {
            size_t swap = order[j];
            order[j] = order[j - 1];
            order[j - 1] = swap;
        }
    aorta_json_t *array = aorta_json_array();
    for (size_t i = 0; i < hints->count; i++) {
        aorta_json_t *pair = aorta_json_array();
        aorta_json_append(pair, aorta_json_string(hints->keys[order[i]]));
        aorta_json_append(pair, aorta_json_int((int64_t)hints->counts[order[i]]));
        aorta_json_append(array, pair);
    }
    free(order);
    return array;
}

/* metrics_summary accumulators, in first-seen order; keys are indexed, as
 * for a tally. */
typedef struct summary_item {
    char *key;
    double *values;    /* for a mean that reads true (aorta_stats_mean) */
    double min, max;
    size_t n, capacity;
} summary_item_t;

typedef struct summary {
    summary_item_t *items;
    size_t count, capacity;
    aorta_keyindex_t index;
} summary_t;

static int summary_add(const char *key, aorta_json_t *value, void *user)
{
    summary_t *summary = user;
    aorta_json_type_t type = aorta_json_type(value);
    if (type != AORTA_JSON_INT && type != AORTA_JSON_DOUBLE)
        return 0; /* strings, lists and booleans never aggregate */
    double number = type == AORTA_JSON_INT ? (double)aorta_json_get_int(value)
                                           : aorta_json_get_double(value);
    if (!isfinite(number))
        return 0;
    size_t found = aorta_keyindex_find(&summary->index, key);
    summary_item_t *item = found != AORTA_KEYINDEX_NONE ? &summary->items[found] : NULL;
    if (!item) {
        aorta_xgrow((void **)&summary->items, &summary->capacity, summary->count + 1,
                    sizeof *summary->items);
        item = &summary->items[summary->count++];
        *item = (summary_item_t){aorta_xstrdup(key), NULL, number, number, 0, 0};
        aorta_keyindex_add(&summary->index, item->key, summary->count - 1);
    }
    aorta_xgrow((void **)&item->values, &item->capacity, item->n + 1, sizeof *item->values);
    item->values[item->n] = number;
    item->min = number < item->min ? number : item->min;
    item->max = number > item->max ? number : item->max;
    item->n++;
    return 0;
}

static aorta_json_t *metrics_summary(const aorta_cell_result_t *result)
{
    summary_t summary = {0};
    for (size_t i = 0; i < result->count; i++)
        if (!strcmp(result->outcomes[i].verdict, "pass"))
            aorta_json_foreach(result->outcomes[i].metrics, summary_add, &summary);
    aorta_json_t *obj = aorta_json_object();
    for (size_t i = 0; i < summary.count; i++) {
        summary_item_t *item = &summary.items[i];
        aorta_json_t *stats = aorta_json_object();
        /* Correctly rounded: three trials of 6.1 have the mean 6.1. */
        aorta_json_set(stats, "mean", aorta_json_double(aorta_stats_mean(item->values, item->n)));
        aorta_json_set(stats, "min", aorta_json_double(item->min));
        aorta_json_set(stats, "max", aorta_json_double(item->max));
        aorta_json_set(stats, "n", aorta_json_double((double)item->n));
        aorta_json_set(obj, item->key, stats);
        free(item->key);
        free(item->values);
    }
    aorta_keyindex_clear(&summary.index);
    free(summary.items);
    return obj;
}

static int compare_doubles(const void *left, const void *right)
{
    double a = *(const double *)left, b = *(const double *)right;
    return a < b ? -1 : a > b;
}


static aorta_json_t *rounded(double value)
{
    return aorta_json_double(aorta_round3(value));
}

/* Step-time statistics over the launched trials (one sample each: the
 * trial's wall clock), null without a sample; mean_wall_clock_sec over
 * every trial. */
static void add_step_timing(aorta_json_t *obj, const aorta_cell_result_t *result,
                            aorta_json_t **samples_json)
{
    double *samples = aorta_xcalloc(result->count + 1, sizeof *samples);
    size_t n = 0;
    *samples_json = aorta_json_array();
    for (size_t i = 0; i < result->count; i++)
        if (result->outcomes[i].launched) {
            samples[n] = aorta_round3(result->outcomes[i].wall_clock_sec * 1000.0);
            aorta_json_append(*samples_json, aorta_json_double(samples[n]));
            n++;
        }
    static const char *const keys[] = {"mean_step_time_ms", "std_step_time_ms",
                                       "min_step_time_ms",  "max_step_time_ms",
                                       "p50_step_time_ms",  "p90_step_time_ms",
                                       "p99_step_time_ms"};
    if (n == 0) {
        for (size_t k = 0; k < 7; k++)
            aorta_json_set(obj, keys[k], NULL);
    } else {
        /* Exact sums: identical samples have their value as mean, std 0. */
        double mean = aorta_stats_mean(samples, n), std = aorta_stats_pstdev(samples, n);
        qsort(samples, n, sizeof *samples, compare_doubles);
        double values[7] = {mean,
                            std,
                            samples[0],
                            samples[n - 1],
                            aorta_stats_percentile(samples, n, 0.5),
                            aorta_stats_percentile(samples, n, 0.9),
                            aorta_stats_percentile(samples, n, 0.99)};
        for (size_t k = 0; k < 7; k++)
            aorta_json_set(obj, keys[k], rounded(values[k]));
    }
    double wall = 0;
    for (size_t i = 0; i < result->count; i++)
        wall += result->outcomes[i].wall_clock_sec;
    aorta_json_set(obj, "mean_wall_clock_sec",
                   result->count ? rounded(wall / (double)result->count) : NULL);
    free(samples);
}

static int add_detectors(const char *key, aorta_json_t *value, void *user)
{
    if (strcmp(key, "failure_detectors_fired") != 0)
        return 0;
    for (size_t i = 0; i < aorta_json_length(value); i++) {
        const char *id = aorta_json_get_string(aorta_json_at(value, i));
        if (id)
            tally_add(user, id);
    }
    return 1;
}

static aorta_json_t *cell_json(const aorta_plan_t *plan, size_t index,
                               const aorta_cell_result_t *result, const char *baseline)
{
    const aorta_cell_t *cell = &plan->cells[index];
    aorta_cell_counts_t counts;
    aorta_cell_counts(result, &counts);
    tally_t statuses = {0}, hints = {0}, outcomes = {0}, detectors = {0};
    aorta_json_t *paths = aorta_json_array();
    for (size_t i = 0; i < result->count; i++) {
        const aorta_outcome_t *outcome = &result->outcomes[i];
        tally_add(&statuses, outcome->exit_status);
        if (outcome->hint)
            tally_add(&hints, outcome->hint);
        tally_add(&outcomes, outcome->launched ? "completed" : "did_not_run");
        aorta_json_foreach(outcome->metrics, add_detectors, &detectors);
        aorta_json_append(paths, aorta_json_string(outcome->trial_path));
    }
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "name", aorta_json_string(cell->name));
    aorta_json_t *mitigations = aorta_json_array();
    aorta_json_append(mitigations, aorta_json_string(cell->mitigation));
    aorta_json_append(mitigations, aorta_json_string(cell->diagnostic));
    aorta_json_set(obj, "mitigations", mitigations);
    aorta_json_set(obj, "environment", aorta_json_string("local"));
    aorta_json_set(obj, "extra_env", aorta_json_object());
    aorta_json_set(obj, "resolved_env_vars", aorta_trial_env_object(cell->env));
    aorta_json_set(obj, "trials", aorta_json_int((int64_t)counts.trials));
    aorta_json_set(obj, "passed_count", aorta_json_int((int64_t)counts.passed));
    aorta_json_set(obj, "failed_count", aorta_json_int((int64_t)counts.failed));
    aorta_json_t *samples = NULL;
    add_step_timing(obj, result, &samples);
    aorta_json_set(obj, "exit_status_counts", tally_object(&statuses));
    aorta_json_set(obj, "step_times_ms", samples);
    aorta_json_set(obj, "trial_paths", paths);
    aorta_json_set(obj, "error", result->error ? aorta_json_string(result->error) : NULL);
    aorta_json_set(obj, "step_time_source",
                   aorta_json_string(counts.launched ? "wall_clock_total" : "missing"));
    aorta_json_set(obj, "failure_hints", hints_array(&hints));
    aorta_json_set(obj, "outcome_counts", tally_object(&outcomes));
    int iter_min = 0, iter_max = 0;
    iteration_range(result, &iter_min, &iter_max);
    aorta_json_set(obj, "executed_iter_min", result->count ? aorta_json_int(iter_min) : NULL);
    aorta_json_set(obj, "executed_iter_max", result->count ? aorta_json_int(iter_max) : NULL);
    aorta_json_set(obj, "configured_iters", aorta_json_int(1));
    char *iters = aorta_cell_iters_display(result);
    aorta_json_set(obj, "iters_display", aorta_json_string(iters));
    free(iters);
    aorta_json_set(obj, "workload_config", aorta_json_object());
    long top = tally_top(&detectors);
    aorta_json_set(obj, "top_failure_detector_id",
                   top >= 0 ? aorta_json_string(detectors.keys[top]) : NULL);
    aorta_json_set(obj, "top_warn_detector_id", NULL);
    aorta_json_set(obj, "stop_after_note",
                   result->stop_after_note ? aorta_json_string(result->stop_after_note) : NULL);
    aorta_json_set(obj, "error_count", aorta_json_int((int64_t)counts.errors));
    aorta_json_set(obj, "metrics_summary", metrics_summary(result));
    aorta_json_set(obj, "resumed", aorta_json_bool(result->resumed));
    size_t valid = counts.passed + counts.failed;
    aorta_json_set(obj, "failure_rate",
                   aorta_json_double(valid ? (double)counts.failed / (double)valid : 0.0));
    aorta_json_set(obj, "error_rate",
                   aorta_json_double(counts.trials ? (double)counts.errors / (double)counts.trials
                                                   : 0.0));
    aorta_json_set(obj, "unreliable",
                   aorta_json_bool(counts.trials > 0
                                   && (double)counts.errors
                                          >= UNRELIABLE_ERROR_SHARE * (double)counts.trials));
    const char *confound = result->error                     ? "error"
                         : baseline && !strcmp(cell->name, baseline) ? "(baseline)"
                         : counts.launched == 0               ? "did_not_run"
                                                              : "n/a";
    aorta_json_set(obj, "confound", aorta_json_string(confound));
    aorta_json_set(obj, "step_time_ratio", NULL);
    aorta_json_set(obj, "resolved_environment", aorta_trial_environment());
    tally_clear(&statuses);
    tally_clear(&hints);
    tally_clear(&outcomes);
    tally_clear(&detectors);
    return obj;
}

/* Each non-baseline cell's vs_baseline: its measures against the baseline
 * cell's (the collectors' GPU times, the step time, every other numeric
 * metric), judged by the statistics module with its defaults. */
static void add_vs_baseline(aorta_json_t *cells, const aorta_plan_t *plan,
                            const aorta_cell_result_t *results, const char *baseline)
{
    size_t base = plan->cell_count;
    aorta_kagg_cell_t *samples = aorta_xcalloc(plan->cell_count + 1, sizeof *samples);
    for (size_t i = 0; i < plan->cell_count; i++) {
        samples[i].name = aorta_xstrdup(plan->cells[i].name);
        if (baseline && !strcmp(plan->cells[i].name, baseline))
            base = i;
        for (size_t t = 0; t < results[i].count; t++) {
            const aorta_outcome_t *o = &results[i].outcomes[t];
            if (o->verdict && !strcmp(o->verdict, "pass"))
                aorta_kagg_add_passing(&samples[i], aorta_round3(o->wall_clock_sec * 1000.0),
                                       o->metrics);
        }
    }
    aorta_measures_t set = {0};
    size_t *from = aorta_xcalloc(plan->cell_count + 1, sizeof *from);
    aorta_json_t *declared = aorta_provenance_plan_declared(plan);
    aorta_verdict_request_t request = {AORTA_STATS_OPTIONS_INIT, 0, 0, declared};
    for (size_t i = 0; i < plan->cell_count; i++) {
        from[i] = set.count;
        if (base < plan->cell_count && i != base)
            aorta_measures_add_cells(&set, &samples[base], &samples[i], &request);
    }
    from[plan->cell_count] = set.count;
    char *error = NULL;
    if (aorta_measures_judge(&set, &request.stats, &error) == 0)
        for (size_t i = 0; i < plan->cell_count; i++) {
            if (i == base || base == plan->cell_count)
                continue;
            aorta_json_t *array = aorta_json_array();
            for (size_t m = from[i]; m < from[i + 1]; m++)
                aorta_json_append(array, aorta_measure_json(&set.items[m]));
            aorta_json_set(aorta_json_at(cells, i), "vs_baseline", array);
        }
    free(error); /* the samples are finite by construction */
    aorta_measures_clear(&set);
    aorta_json_free(declared);
    for (size_t i = 0; i < plan->cell_count; i++)
        aorta_kagg_cell_clear(&samples[i]);
    free(samples);
    free(from);
}

aorta_json_t *aorta_matrix_json(const aorta_plan_t *plan, const aorta_cell_result_t *results,
                                const char *run_timestamp, aorta_json_t *warnings,
                                const char *recipe_sha256)
{
    const char *baseline = aorta_matrix_baseline(plan);
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "schema_version", aorta_json_int(1));
    aorta_json_set(obj, "workload", aorta_json_string(AORTA_WORKLOAD));
    aorta_json_set(obj, "ticket", plan->ticket ? aorta_json_string(plan->ticket) : NULL);
    aorta_json_set(obj, "trials_per_cell", aorta_json_int(aorta_plan_trial_budget(plan)));
    if (plan->warmup_trials > 0) /* written only when there are: older files stay as they were */
        aorta_json_set(obj, "warmup_trials", aorta_json_int(plan->warmup_trials));
    aorta_json_set(obj, "steps_per_trial", aorta_json_int(1));
    aorta_json_set(obj, "run_timestamp", aorta_json_string(run_timestamp));
    aorta_json_set(obj, "baseline_cell", baseline ? aorta_json_string(baseline) : NULL);
    aorta_json_t *confound = aorta_json_object();
    aorta_json_set(confound, "threshold", aorta_json_double(CONFOUND_THRESHOLD));
    aorta_json_set(confound, "baseline_cell_configured",
                   baseline ? aorta_json_string(baseline) : NULL);
    aorta_json_set(obj, "confound", confound);
    aorta_json_t *stop = NULL;
    if (plan->has_stop_after) {
        stop = aorta_json_object();
        aorta_json_set(stop, "events", aorta_json_int(plan->stop_events));
        aorta_json_set(stop, "max_trials", aorta_json_int(plan->stop_max_trials));
        aorta_json_set(stop, "event_verdict", aorta_json_string(plan->stop_event_verdict));
    }
    aorta_json_set(obj, "stop_after", stop);
    aorta_json_set(obj, "warnings", warnings ? aorta_json_ref(warnings) : aorta_json_array());
    aorta_json_t *source = NULL;
    if (plan->recipe_path) {
        source = aorta_json_object();
        aorta_json_set(source, "path", aorta_json_string(plan->recipe_path));
        aorta_json_set(source, "sha256", recipe_sha256 ? aorta_json_string(recipe_sha256) : NULL);
    }
    aorta_json_set(obj, "recipe_source", source);
    aorta_json_t *cells = aorta_json_array();
    for (size_t i = 0; i < plan->cell_count; i++)
        aorta_json_append(cells, cell_json(plan, i, &results[i], baseline));
    add_vs_baseline(cells, plan, results, baseline);
    for (size_t i = 0; plan->warmup_trials > 0 && i < plan->cell_count; i++)
        if (!results[i].resumed)
            aorta_json_set(aorta_json_at(cells, i), "warmup_trials",
                           aorta_json_int(plan->warmup_trials));
    aorta_json_set(obj, "cells", cells);
    return obj;
}
