/* SPDX-License-Identifier: MIT */
/* history_baseline.c - --against history:FILE's baseline side rebuilt as a
 * run from the store (history_baseline.h).  A stored measure of n values
 * with log-mean m and log-variance v becomes n values exp(m + sqrt(v) z_i),
 * z_i = 0..n-1 standardised (mean 0, sample variance 1): the same n, mean
 * and variance of the logs, so Welch's test gives what it gave the stored
 * run.  @median-of-N: one value a run, its exp(log-mean).  No SQL here. */
#include "config.h"

#include "history/history_baseline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keyindex.h"
#include "sys/sha256.h"
#include "xalloc.h"

#define MEDIAN_MAX 10000
#define NAMES_SHOWN 5

int ar_history_target_parse(const char *spec, ar_history_target_t *t, char **error)
{
    memset(t, 0, sizeof *t);
    const char *at = strrchr(spec, '@');
    if (at) {
        const char *which = at + 1, *n = which + strlen("median-of-");
        char *end = NULL;
        long value = strncmp(which, "median-of-", strlen("median-of-")) ? 0
                                                                        : strtol(n, &end, 10);
        if (!strcmp(which, "last"))
            t->last = 1;
        else if (value >= 1 && value <= MEDIAN_MAX && end && !*end && *n >= '0' && *n <= '9')
            t->median_of = (size_t)value;
        else {
            *error = ar_xasprintf("--against history:%s: '@%s' is neither @last nor "
                                  "@median-of-N (N from 1 to %d)",
                                  spec, which, MEDIAN_MAX);
            return -1;
        }
    }
    t->file = at ? ar_xstrndup(spec, (size_t)(at - spec)) : ar_xstrdup(spec);
    if (!*t->file) {
        *error = ar_xstrdup("--against history:FILE: the history file's name is empty");
        ar_history_target_clear(t);
        return -1;
    }
    return 0;
}

void ar_history_target_clear(ar_history_target_t *t)
{
    free(t->file);
    memset(t, 0, sizeof *t);
}

char *ar_history_scope(const char *const *names, size_t count)
{
    ar_sha256_t ctx;
    char hex[65];
    ar_sha256_init(&ctx);
    for (size_t i = 0; i < count; i++) {
        ar_sha256_update(&ctx, names[i], strlen(names[i]));
        ar_sha256_update(&ctx, "\n", 1);
    }
    ar_sha256_hex(&ctx, hex);
    return ar_xstrdup(hex);
}

/* One measure's values, a trial (or a run) each. */
typedef struct series {
    const ar_history_record_t *rec; /* its first record: names and kind */
    double *val;
    unsigned char *has;
} series_t;

typedef struct build {
    series_t *items;
    size_t count, capacity, trials;
    ar_keyindex_t index;  /* key_of() to position */
    ar_keyindex_t tables; /* "cell\x1f collector" of a kernel: a table */
    ar_keyindex_t armed;  /* key_of() of the measures with arm_after records */
    char **keys;          /* what the indexes borrow */
    size_t key_count, key_capacity;
} build_t;

/* text (allocated) kept while b is: an index borrows its keys. */
static const char *keep(build_t *b, char *text)
{
    if (b->key_count == b->key_capacity) {
        b->key_capacity = b->key_capacity ? 2 * b->key_capacity : 64;
        b->keys = ar_xrealloc(b->keys, b->key_capacity * sizeof *b->keys);
    }
    return b->keys[b->key_count++] = text;
}

static char *key_of(const ar_history_record_t *r)
{
    return ar_xasprintf("%s\x1f%s\x1f%s\x1f%s", r->cell, r->collector, r->measure, r->kernel);
}

static int is(const ar_history_record_t *r, const char *measure)
{
    return !strcmp(r->measure, measure);
}

/* Value i of n with r's mean and variance (of the logs where it has them). */
static double synth(const ar_history_record_t *r, size_t i)
{
    double n = (double)r->n, z = 0.0;
    if (r->n > 1)
        z = ((double)i - (n - 1.0) / 2.0) / sqrt(n * (n + 1.0) / 12.0);
    if (r->log_scale)
        return exp(r->mean_log + sqrt(r->var_log > 0 ? r->var_log : 0.0) * z);
    double v = r->mean + sqrt(r->var > 0 ? r->var : 0.0) * z;
    return v > 0 ? v : 0.0;
}

static series_t *series_for(build_t *b, const ar_history_record_t *r, const char *key)
{
    size_t at = ar_keyindex_find(&b->index, key);
    if (at != AR_KEYINDEX_NONE)
        return &b->items[at];
    if (b->count == b->capacity) {
        b->capacity = b->capacity ? 2 * b->capacity : 64;
        b->items = ar_xrealloc(b->items, b->capacity * sizeof *b->items);
    }
    series_t *s = &b->items[b->count];
    *s = (series_t){r, ar_xcalloc(b->trials + 1, sizeof(double)),
                    ar_xcalloc(b->trials + 1, 1)};
    ar_keyindex_add(&b->index, keep(b, ar_xstrdup(key)), b->count++);
    if (is(r, "kernel_time_ms")) {
        char *table = ar_xasprintf("%s\x1f%s", r->cell, r->collector);
        if (ar_keyindex_find(&b->tables, table) == AR_KEYINDEX_NONE)
            ar_keyindex_add(&b->tables, keep(b, table), 0);
        else
            free(table);
    }
    return s;
}

/* One stored run's armed records: run `run` of a median, else its n values. */
static void add_records(build_t *b, const ar_history_record_t *records, size_t count,
                        size_t run, int median)
{
    for (size_t i = 0; i < count; i++) {
        const ar_history_record_t *r = &records[i];
        if (r->n == 0 || !strncmp(r->measure, "rank_", 5))
            continue; /* ranks are not stored; an empty side compares with nothing */
        char *key = key_of(r);
        if (ar_keyindex_find(&b->armed, key) != AR_KEYINDEX_NONE) {
            series_t *s = series_for(b, r, key);
            if (median) {
                s->val[run] = r->log_scale ? exp(r->mean_log) : r->mean;
                s->has[run] = 1;
            } else {
                for (size_t t = 0; t < r->n && t < b->trials; t++) {
                    s->val[t] = synth(r, t);
                    s->has[t] = 1;
                }
            }
        }
        free(key);
    }
}

static int has_table(const build_t *b, const series_t *s)
{
    char *table = ar_xasprintf("%s\x1f%s", s->rec->cell, s->rec->collector);
    int found = ar_keyindex_find(&b->tables, table) != AR_KEYINDEX_NONE;
    free(table);
    return found;
}

static ar_json_t *table_entry(ar_json_t *collectors, const char *collector)
{
    ar_json_t *entry = ar_json_get(collectors, collector);
    if (!entry) {
        entry = ar_json_object();
        ar_json_set(entry, "kernels", ar_json_object());
        ar_json_set(collectors, collector, entry);
    }
    return ar_json_get(entry, "kernels");
}

/* Trial t of cell: its tables, step time and metrics, as a trial reads. */
static void add_trial(const build_t *b, ar_kagg_cell_t *cell, size_t t)
{
    ar_json_t *collectors = ar_json_object(), *metrics = ar_json_object();
    double step = NAN;
    int any = 0;
    for (size_t i = 0; i < b->count; i++) {
        const series_t *s = &b->items[i];
        if (!s->has[t] || strcmp(s->rec->cell, cell->name) != 0)
            continue;
        any = 1;
        if (is(s->rec, "kernel_time_ms")) {
            ar_json_t *pair = ar_json_array();
            ar_json_append(pair, ar_json_double(s->val[t]));
            ar_json_append(pair, ar_json_int(1));
            ar_json_set(table_entry(collectors, s->rec->collector), s->rec->kernel, pair);
        } else if (is(s->rec, "gpu_time_ms") && has_table(b, s)) {
            table_entry(collectors, s->rec->collector);
        } else if (is(s->rec, "gpu_time_ms")) {
            char *name = ar_xasprintf("%s_gpu_time_ms", s->rec->collector);
            ar_json_set(metrics, name, ar_json_double(s->val[t]));
            free(name);
        } else if (is(s->rec, "step_time_ms")) {
            step = s->val[t];
        } else {
            ar_json_set(metrics, s->rec->measure, ar_json_double(s->val[t]));
        }
    }
    if (any) {
        ar_kagg_add_trial(cell, collectors, 1);
        ar_kagg_add_passing(cell, step, metrics);
        cell->trials++;
        cell->passing++;
        if (!cell->first_passing)
            cell->first_passing = (int64_t)t + 1;
    }
    ar_json_free(collectors);
    ar_json_free(metrics);
}

/* A table's GPU time is the stored one, not its kernels' sum. */
static void set_gpu_times(const build_t *b, ar_kagg_cell_t *cell)
{
    for (size_t i = 0; i < b->count; i++) {
        const series_t *s = &b->items[i];
        if (strcmp(s->rec->cell, cell->name) != 0 || !is(s->rec, "gpu_time_ms"))
            continue;
        ar_kagg_table_t *table = (ar_kagg_table_t *)ar_kagg_table(cell, s->rec->collector);
        if (!table)
            continue;
        size_t k = 0;
        table->gpu_sum = 0.0;
        for (size_t t = 0; t < b->trials && k < table->trials; t++)
            if (s->has[t]) {
                double v = s->val[t];
                table->gpu_values[k++] = v;
                table->gpu_sum += v;
                table->gpu_min = k == 1 || v < table->gpu_min ? v : table->gpu_min;
                table->gpu_max = k == 1 || v > table->gpu_max ? v : table->gpu_max;
            }
    }
}

static void build_run(build_t *b, ar_kagg_run_t *run)
{
    memset(run, 0, sizeof *run);
    ar_keyindex_t seen = {0};
    run->cells = ar_xcalloc(b->count + 1, sizeof *run->cells);
    for (size_t i = 0; i < b->count; i++) {
        const char *name = b->items[i].rec->cell;
        if (ar_keyindex_find(&seen, name) != AR_KEYINDEX_NONE)
            continue;
        ar_keyindex_add(&seen, name, run->count);
        ar_kagg_cell_t *cell = &run->cells[run->count++];
        cell->name = ar_xstrdup(name);
        for (size_t t = 0; t < b->trials; t++)
            add_trial(b, cell, t);
        set_gpu_times(b, cell);
        ar_kagg_finish(cell);
    }
    ar_keyindex_clear(&seen);
    ar_kagg_pick_baseline(run, NULL, NULL);
}

static void build_clear(build_t *b)
{
    for (size_t i = 0; i < b->count; i++) {
        free(b->items[i].val);
        free(b->items[i].has);
    }
    free(b->items);
    ar_keyindex_clear(&b->index);
    ar_keyindex_clear(&b->tables);
    ar_keyindex_clear(&b->armed);
    for (size_t i = 0; i < b->key_count; i++)
        free(b->keys[i]);
    free(b->keys);
    memset(b, 0, sizeof *b);
}

static char *name_of(const ar_history_record_t *r)
{
    return ar_xasprintf("%s%s%s/%s%s%s", r->cell, *r->collector ? "/" : "", r->collector,
                        r->measure, *r->kernel ? "/" : "", r->kernel);
}

/* Which of scope's measures have arm_after records: 0 when one has, 1
 * when none has, -1 with *error set. */
static int arm(ar_history_t *h, const char *scope, size_t arm_after, build_t *b,
               ar_history_baseline_t *out, char **error)
{
    ar_history_record_t *counts = NULL;
    size_t n = 0, armed = 0;
    if (ar_history_counts(h, scope, &counts, &n, error) != 0)
        return -1;
    char *names = ar_xstrdup("");
    out->fewest = n ? (size_t)-1 : 0;
    for (size_t i = 0; i < n; i++) {
        const ar_history_record_t *r = &counts[i];
        out->fewest = r->n < out->fewest ? r->n : out->fewest;
        if (r->n >= arm_after) {
            ar_keyindex_add(&b->armed, keep(b, key_of(r)), armed++);
        } else if (out->unarmed++ < NAMES_SHOWN) {
            char *name = name_of(r), *next = ar_xasprintf("%s%s%s", names, *names ? ", " : "",
                                                          name);
            free(name);
            free(names);
            names = next;
        }
    }
    if (out->unarmed > NAMES_SHOWN) {
        char *next = ar_xasprintf("%s and %zu more", names, out->unarmed - NAMES_SHOWN);
        free(names);
        names = next;
    }
    out->unarmed_names = names;
    ar_history_records_free(counts, n);
    return armed ? 0 : 1;
}

/* The runs target names, newest first; NULL with *error set. */
static long long *choose(ar_history_t *h, const char *scope, const ar_history_target_t *t,
                         size_t *count, ar_history_baseline_t *out, char **error)
{
    size_t want = t->median_of ? t->median_of : 1;
    int blessed = !t->last && !t->median_of;
    long long *ids = ar_xcalloc(want, sizeof *ids);
    if (ar_history_runs(h, scope, blessed, want, ids, count, error) != 0) {
        free(ids);
        return NULL;
    }
    if (*count < want) {
        if (blessed)
            *error = ar_xasprintf("--against history:%s: no blessed run of these cells in it "
                                  "(bless one: --bless with a run, or --history %s --bless "
                                  "LABEL)",
                                  t->file, t->file);
        else
            *error = ar_xasprintf("--against history:%s@%s%.0zu: it holds %zu runs of these "
                                  "cells, fewer than %zu",
                                  t->file, t->last ? "last" : "median-of-", t->median_of,
                                  *count, want);
        free(ids);
        return NULL;
    }
    char *label = ar_history_run_text(h, ids[0], "label");
    out->what = t->median_of ? ar_xasprintf("the median of the last %zu runs", want)
                             : ar_xasprintf("the %s run '%s'", blessed ? "blessed" : "last",
                                            label ? label : "(no label)");
    free(label);
    out->provenance = ar_history_run_text(h, ids[0], "provenance");
    return ids;
}

int ar_history_baseline(ar_history_t *h, const char *scope, const ar_history_target_t *t,
                        size_t arm_after, ar_history_baseline_t *out, char **error)
{
    memset(out, 0, sizeof *out);
    build_t b = {0};
    int status = arm(h, scope, arm_after, &b, out, error);
    size_t count = 0;
    long long *ids = status == 0 ? choose(h, scope, t, &count, out, error) : NULL;
    if (!ids) {
        build_clear(&b);
        return status ? status : -1;
    }
    ar_history_record_t **records = ar_xcalloc(count, sizeof *records);
    size_t *sizes = ar_xcalloc(count, sizeof *sizes);
    for (size_t j = 0; j < count && status == 0; j++)
        status = ar_history_records(h, ids[j], &records[j], &sizes[j], error);
    b.trials = count;
    for (size_t i = 0; status == 0 && !t->median_of && i < sizes[0]; i++)
        b.trials = records[0][i].n > b.trials ? records[0][i].n : b.trials;
    for (size_t j = 0; j < count && status == 0; j++)
        add_records(&b, records[j], sizes[j], j, t->median_of > 0);
    if (status == 0)
        build_run(&b, &out->run);
    build_clear(&b);
    for (size_t j = 0; j < count; j++)
        ar_history_records_free(records[j], sizes[j]);
    free(records);
    free(sizes);
    free(ids);
    return status;
}

void ar_history_baseline_clear(ar_history_baseline_t *baseline)
{
    ar_kagg_run_clear(&baseline->run);
    free(baseline->provenance);
    free(baseline->what);
    free(baseline->unarmed_names);
    memset(baseline, 0, sizeof *baseline);
}
