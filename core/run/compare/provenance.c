/* SPDX-License-Identifier: MIT */
/* provenance.c - matrix.json's "provenance" and what differs between two
 * of them (provenance.h). */
#include "config.h"

#include "compare/provenance.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "record/host_env.h"
#include "xalloc.h"

static ar_json_t *string_or_null(const char *text)
{
    return text ? ar_json_string(text) : NULL;
}

static ar_json_t *env_object(const aorta_env_t *env)
{
    ar_json_t *obj = ar_json_object();
    for (size_t i = 0; i < aorta_env_count(env); i++)
        ar_json_set(obj, aorta_env_name_at(env, i), ar_json_string(aorta_env_value_at(env, i)));
    return obj;
}

static const char *better_name(aorta_metric_better_t better)
{
    return better == AORTA_BETTER_LOWER ? "lower" : better == AORTA_BETTER_HIGHER ? "higher"
                                                                                : "none";
}

/* The rows of a collector's metric table that it may declare (ABI 1.2). */
static ar_json_t *declared_metrics(const struct aorta_collector *collector)
{
    ar_json_t *obj = ar_json_object();
    for (size_t i = 0; i < aorta_collector_metric_count(collector); i++) {
        if (aorta_collector_metric_check(collector, i, NULL) != 0)
            continue; /* a row that declares nothing: undeclared */
        const aorta_metric_spec_t *row = aorta_collector_metric_at(collector, i);
        ar_json_t *entry = ar_json_object();
        ar_json_set(entry, "unit", string_or_null(row->unit));
        ar_json_set(entry, "better", ar_json_string(better_name(row->better)));
        ar_json_set(obj, row->key, entry);
    }
    return obj;
}

static ar_json_t *collectors_json(const ar_plan_t *plan)
{
    ar_json_t *obj = ar_json_object();
    for (size_t i = 0; i < plan->collector_count; i++) {
        const ar_collect_entry_t *entry = &plan->collectors[i];
        const struct aorta_collector *collector = &entry->module->collector;
        ar_json_t *one = ar_json_object();
        ar_json_set(one, "version", string_or_null(collector->version));
        ar_json_t *options = ar_json_object();
        for (size_t k = 0; k < aorta_options_count(entry->effective); k++)
            ar_json_set(options, aorta_options_key_at(entry->effective, k),
                           ar_json_string(aorta_options_value_at(entry->effective, k)));
        ar_json_set(one, "options", options);
        ar_json_set(one, "metrics", declared_metrics(collector));
        ar_json_set(obj, collector->name, one);
    }
    return obj;
}

/* "NVIDIA H200, 570.124.06" into name and driver. */
static ar_json_t *gpu_json(void)
{
    char *argv[] = {"nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader",
                    NULL};
    char *line = ar_host_env_ask(argv, AR_PROVENANCE_QUERY_SEC);
    const char *source = "nvidia-smi";
    char *name = line, *driver = NULL;
    if (line && (driver = strstr(line, ", ")) != NULL) {
        *driver = '\0';
        driver += 2;
    }
    if (!line) {
        char *rocm[] = {"rocm-smi", "--showproductname", "--csv", NULL};
        line = ar_host_env_ask(rocm, AR_PROVENANCE_QUERY_SEC);
        name = line;
        source = "rocm-smi";
    }
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "name", string_or_null(name));
    ar_json_set(obj, "driver", string_or_null(driver));
    ar_json_set(obj, "source", line ? ar_json_string(source) : NULL);
    free(line);
    return obj;
}

static ar_json_t *profiler_json(const ar_plan_t *plan, const char *argv0)
{
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "collector", plan->collector_count
                                         ? ar_json_string(
                                               plan->collectors[0].module->collector.name)
                                         : NULL);
    ar_json_set(obj, "program", string_or_null(argv0));
    char *version = NULL;
    if (argv0) {
        char *argv[] = {(char *)argv0, "--version", NULL};
        version = ar_host_env_ask(argv, AR_PROVENANCE_QUERY_SEC);
    }
    ar_json_set(obj, "version", string_or_null(version));
    free(version);
    return obj;
}

ar_json_t *ar_provenance_json(const ar_plan_t *plan, const ar_json_t *snapshot,
                                    const char *profiler_argv0)
{
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "schema_version", ar_json_int(AR_PROVENANCE_SCHEMA));
    ar_json_set(obj, "aorta_version", ar_json_string(PACKAGE_VERSION));
    ar_json_t *command = ar_json_array();
    for (size_t i = 0; i < aorta_argv_count(plan->command); i++)
        ar_json_append(command, ar_json_string(aorta_argv_at(plan->command, i)));
    ar_json_set(obj, "command", command);
    ar_json_t *cells = ar_json_object();
    for (size_t i = 0; i < plan->cell_count; i++)
        ar_json_set(cells, plan->cells[i].name, env_object(plan->cells[i].env));
    ar_json_set(obj, "cells", cells);
    ar_json_set(obj, "collectors", collectors_json(plan));
    if (plan->rank_count) { /* --ranks or ranks:; absent when every rank profiled itself */
        ar_json_t *ranks = ar_json_array();
        for (size_t i = 0; i < plan->rank_count; i++)
            ar_json_append(ranks, ar_json_int(plan->ranks[i]));
        ar_json_set(obj, "ranks_profiled", ranks);
    }
    ar_json_set(obj, "profiler", profiler_json(plan, profiler_argv0));
    const ar_json_t *triton = ar_json_get(ar_json_get(snapshot, "triton"),
                                                "package_version");
    ar_json_set(obj, "triton_version",
                   ar_json_type(triton) == AR_JSON_STRING
                       ? ar_json_string(ar_json_get_string(triton))
                       : NULL);
    ar_json_set(obj, "gpu", gpu_json());
    return obj;
}

static int add_declared(const char *key, ar_json_t *value, void *user)
{
    const char *better = ar_json_get_string(ar_json_get(value, "better"));
    if (better)
        ar_json_set(user, key, ar_json_string(better));
    return 0;
}

static int collector_declared(const char *key, ar_json_t *value, void *user)
{
    (void)key;
    const ar_json_t *metrics = ar_json_get(value, "metrics");
    if (ar_json_type(metrics) == AR_JSON_OBJECT)
        ar_json_foreach(metrics, add_declared, user);
    return 0;
}

ar_json_t *ar_provenance_declared(const ar_json_t *provenance)
{
    ar_json_t *declared = ar_json_object();
    const ar_json_t *collectors = ar_json_get(provenance, "collectors");
    if (ar_json_type(collectors) == AR_JSON_OBJECT)
        ar_json_foreach(collectors, collector_declared, declared);
    return declared;
}

ar_json_t *ar_provenance_plan_declared(const ar_plan_t *plan)
{
    ar_json_t *holder = ar_json_object();
    ar_json_set(holder, "collectors", collectors_json(plan));
    ar_json_t *declared = ar_provenance_declared(holder);
    ar_json_free(holder);
    return declared;
}

typedef struct mismatches {
    ar_json_t *list;
} mismatches_t;

/* One difference; a and b are borrowed (copied in).  What it makes
 * incomparable: collector's measures ("*": all), or cell's. */
static void differ_in(mismatches_t *out, const char *what, const ar_json_t *a,
                      const ar_json_t *b, int incomparable, const char *collector,
                      const char *cell)
{
    ar_json_t *entry = ar_json_object();
    ar_json_set(entry, "what", ar_json_string(what));
    ar_json_set(entry, "a", a ? ar_json_ref((ar_json_t *)a) : NULL);
    ar_json_set(entry, "b", b ? ar_json_ref((ar_json_t *)b) : NULL);
    ar_json_set(entry, "incomparable", ar_json_bool(incomparable));
    ar_json_set(entry, "collector", string_or_null(collector));
    if (cell)
        ar_json_set(entry, "cell", ar_json_string(cell));
    ar_json_append(out->list, entry);
}

static void differ(mismatches_t *out, const char *what, const ar_json_t *a,
                   const ar_json_t *b, int incomparable, const char *collector)
{
    differ_in(out, what, a, b, incomparable, collector, NULL);
}

static int same(const ar_json_t *a, const ar_json_t *b)
{
    if (!a || !b)
        return a == b;
    char *ta = ar_json_dump((ar_json_t *)a, 0), *tb = ar_json_dump((ar_json_t *)b, 0);
    int equal = !strcmp(ta, tb);
    free(ta);
    free(tb);
    return equal;
}

/* A version both sides know and that differs makes measures incomparable;
 * an unknown side is listed only. */
static void compare_version(mismatches_t *out, const char *what, const ar_json_t *a,
                            const ar_json_t *b, const char *collector)
{
    if (same(a, b))
        return;
    int known = ar_json_type(a) == AR_JSON_STRING && ar_json_type(b) == AR_JSON_STRING;
    differ(out, what, a, b, known, known ? collector : NULL);
}

/* A GPU busy or hot before a trial of either run: listed (a warning), so
 * that a reader weighs the figures; it judges nothing. */
static void gpu_state_warning(mismatches_t *out, const ar_json_t *a, const ar_json_t *b)
{
    int flagged = 0;
    static const char *const counts[] = {"busy_trials", "hot_trials"};
    for (size_t i = 0; i < 2; i++)
        flagged |= ar_json_get_int(ar_json_get(a, counts[i])) > 0
                   || ar_json_get_int(ar_json_get(b, counts[i])) > 0;
    if (flagged)
        differ(out, "gpu busy or hot before a trial", a, b, 0, NULL);
}

typedef struct walk {
    mismatches_t *out;
    const ar_json_t *other;
} walk_t;

static int compare_cell(const char *key, ar_json_t *value, void *user)
{
    walk_t *walk = user;
    const ar_json_t *other = ar_json_get(walk->other, key);
    if (other && !same(value, other)) {
        /* Other variables make other measurements of that cell. */
        char *what = ar_xasprintf("cell %s variables", key);
        differ_in(walk->out, what, value, other, 1, NULL, key);
        free(what);
    }
    return 0;
}

static int compare_collector(const char *key, ar_json_t *value, void *user)
{
    walk_t *walk = user;
    const ar_json_t *other = ar_json_get(walk->other, key);
    if (!other)
        return 0; /* a collector missing from B is the gate's */
    static const char *const parts[] = {"version", "options"};
    for (size_t p = 0; p < 2; p++) {
        const ar_json_t *va = ar_json_get(value, parts[p]);
        const ar_json_t *vb = ar_json_get(other, parts[p]);
        if (!same(va, vb)) {
            /* Other options measure other things; another build of the
             * collector reads the same profiler: shown only. */
            char *what = ar_xasprintf("collector %s %s", key, parts[p]);
            differ(walk->out, what, va, vb, p == 1, p == 1 ? key : NULL);
            free(what);
        }
    }
    return 0;
}

/* Each member of a that b has too, by fn. */
static void walk_both(mismatches_t *out, const ar_json_t *a, const ar_json_t *b,
                      int (*fn)(const char *, ar_json_t *, void *))
{
    if (ar_json_type(a) != AR_JSON_OBJECT || ar_json_type(b) != AR_JSON_OBJECT)
        return;
    walk_t walk = {out, b};
    ar_json_foreach(a, fn, &walk);
}

ar_json_t *ar_provenance_mismatches(const ar_json_t *a, const ar_json_t *b)
{
    mismatches_t out = {ar_json_array()};
    if (!a || !b) {
        if (a != b) /* a run written before provenance was recorded */
            differ(&out, "provenance", a ? ar_json_string("recorded") : NULL,
                   b ? ar_json_string("recorded") : NULL, 0, NULL);
        return out.list;
    }
    const ar_json_t *ca = ar_json_get(a, "command"), *cb = ar_json_get(b, "command");
    /* Two builds at two paths, or other arguments, are what people
     * compare: shown, and judged. */
    if (!same(ca, cb))
        differ(&out, "command", ca, cb, 0, NULL);
    /* Other ranks profiled: the merged figures sum other processes. */
    const ar_json_t *ra = ar_json_get(a, "ranks_profiled");
    const ar_json_t *rb = ar_json_get(b, "ranks_profiled");
    if (!same(ra, rb))
        differ(&out, "ranks profiled", ra, rb, 1, "*");
    walk_both(&out, ar_json_get(a, "cells"), ar_json_get(b, "cells"), compare_cell);
    walk_both(&out, ar_json_get(a, "collectors"), ar_json_get(b, "collectors"),
              compare_collector);
    const ar_json_t *pa = ar_json_get(a, "profiler"), *pb = ar_json_get(b, "profiler");
    compare_version(&out, "profiler version", ar_json_get(pa, "version"),
                    ar_json_get(pb, "version"),
                    ar_json_get_string(ar_json_get(pb, "collector")));
    compare_version(&out, "triton version", ar_json_get(a, "triton_version"),
                    ar_json_get(b, "triton_version"), "proton");
    /* Another GPU model or driver: every measure is incomparable, as with
     * another profiler version (an unknown side is listed only). */
    const ar_json_t *ga = ar_json_get(a, "gpu"), *gb = ar_json_get(b, "gpu");
    compare_version(&out, "gpu model", ar_json_get(ga, "name"), ar_json_get(gb, "name"), "*");
    compare_version(&out, "gpu driver", ar_json_get(ga, "driver"), ar_json_get(gb, "driver"),
                    "*");
    gpu_state_warning(&out, ar_json_get(a, "gpu_before_trials"),
                      ar_json_get(b, "gpu_before_trials"));
    const ar_json_t *va = ar_json_get(a, "aorta_version");
    const ar_json_t *vb = ar_json_get(b, "aorta_version");
    if (!same(va, vb))
        differ(&out, "aorta version", va, vb, 0, NULL);
    return out.list;
}
