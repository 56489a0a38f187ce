/* SPDX-License-Identifier: MIT */
/* provenance.c - matrix.json's "provenance" and what differs between two
 * of them (provenance.h). */
#include "config.h"

#include "output/provenance.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "output/host_env.h"
#include "xalloc.h"

static aorta_json_t *string_or_null(const char *text)
{
    return text ? aorta_json_string(text) : NULL;
}

static aorta_json_t *env_object(const aorta_env_t *env)
{
    aorta_json_t *obj = aorta_json_object();
    for (size_t i = 0; i < aorta_env_count(env); i++)
        aorta_json_set(obj, aorta_env_name_at(env, i), aorta_json_string(aorta_env_value_at(env, i)));
    return obj;
}

static const char *better_name(aorta_metric_better_t better)
{
    return better == AORTA_BETTER_LOWER ? "lower" : better == AORTA_BETTER_HIGHER ? "higher"
                                                                                : "none";
}

/* The rows of a collector's metric table that it may declare (ABI 1.2). */
static aorta_json_t *declared_metrics(const struct aorta_collector *collector)
{
    aorta_json_t *obj = aorta_json_object();
    for (size_t i = 0; i < aorta_collector_metric_count(collector); i++) {
        if (aorta_collector_metric_check(collector, i, NULL) != 0)
            continue; /* a row that declares nothing: undeclared */
        const aorta_metric_spec_t *row = aorta_collector_metric_at(collector, i);
        aorta_json_t *entry = aorta_json_object();
        aorta_json_set(entry, "unit", string_or_null(row->unit));
        aorta_json_set(entry, "better", aorta_json_string(better_name(row->better)));
        aorta_json_set(obj, row->key, entry);
    }
    return obj;
}

static aorta_json_t *collectors_json(const aorta_plan_t *plan)
{
    aorta_json_t *obj = aorta_json_object();
    for (size_t i = 0; i < plan->collector_count; i++) {
        const aorta_collect_entry_t *entry = &plan->collectors[i];
        const struct aorta_collector *collector = &entry->module->collector;
        aorta_json_t *one = aorta_json_object();
        aorta_json_set(one, "version", string_or_null(collector->version));
        aorta_json_t *options = aorta_json_object();
        for (size_t k = 0; k < aorta_options_count(entry->effective); k++)
            aorta_json_set(options, aorta_options_key_at(entry->effective, k),
                           aorta_json_string(aorta_options_value_at(entry->effective, k)));
        aorta_json_set(one, "options", options);
        aorta_json_set(one, "metrics", declared_metrics(collector));
        aorta_json_set(obj, collector->name, one);
    }
    return obj;
}

/* "NVIDIA H200, 570.124.06" into name and driver. */
static aorta_json_t *gpu_json(void)
{
    char *argv[] = {"nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader",
                    NULL};
    char *line = aorta_host_env_ask(argv, AORTA_PROVENANCE_QUERY_SEC);
    const char *source = "nvidia-smi";
    char *name = line, *driver = NULL;
    if (line && (driver = strstr(line, ", ")) != NULL) {
        *driver = '\0';
        driver += 2;
    }
    if (!line) {
        char *rocm[] = {"rocm-smi", "--showproductname", "--csv", NULL};
        line = aorta_host_env_ask(rocm, AORTA_PROVENANCE_QUERY_SEC);
        name = line;
        source = "rocm-smi";
    }
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "name", string_or_null(name));
    aorta_json_set(obj, "driver", string_or_null(driver));
    aorta_json_set(obj, "source", line ? aorta_json_string(source) : NULL);
    free(line);
    return obj;
}

static aorta_json_t *profiler_json(const aorta_plan_t *plan, const char *argv0)
{
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "collector", plan->collector_count
                                         ? aorta_json_string(
                                               plan->collectors[0].module->collector.name)
                                         : NULL);
    aorta_json_set(obj, "program", string_or_null(argv0));
    char *version = NULL;
    if (argv0) {
        char *argv[] = {(char *)argv0, "--version", NULL};
        version = aorta_host_env_ask(argv, AORTA_PROVENANCE_QUERY_SEC);
    }
    aorta_json_set(obj, "version", string_or_null(version));
    free(version);
    return obj;
}

aorta_json_t *aorta_provenance_json(const aorta_plan_t *plan, const aorta_json_t *snapshot,
                                    const char *profiler_argv0)
{
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "schema_version", aorta_json_int(AORTA_PROVENANCE_SCHEMA));
    aorta_json_set(obj, "aorta_version", aorta_json_string(PACKAGE_VERSION));
    aorta_json_t *command = aorta_json_array();
    for (size_t i = 0; i < aorta_argv_count(plan->command); i++)
        aorta_json_append(command, aorta_json_string(aorta_argv_at(plan->command, i)));
    aorta_json_set(obj, "command", command);
    aorta_json_t *cells = aorta_json_object();
    for (size_t i = 0; i < plan->cell_count; i++)
        aorta_json_set(cells, plan->cells[i].name, env_object(plan->cells[i].env));
    aorta_json_set(obj, "cells", cells);
    aorta_json_set(obj, "collectors", collectors_json(plan));
    if (plan->rank_count) { /* --ranks or ranks:; absent when every rank profiled itself */
        aorta_json_t *ranks = aorta_json_array();
        for (size_t i = 0; i < plan->rank_count; i++)
            aorta_json_append(ranks, aorta_json_int(plan->ranks[i]));
        aorta_json_set(obj, "ranks_profiled", ranks);
    }
    aorta_json_set(obj, "profiler", profiler_json(plan, profiler_argv0));
    const aorta_json_t *triton = aorta_json_get(aorta_json_get(snapshot, "triton"),
                                                "package_version");
    aorta_json_set(obj, "triton_version",
                   aorta_json_type(triton) == AORTA_JSON_STRING
                       ? aorta_json_string(aorta_json_get_string(triton))
                       : NULL);
    aorta_json_set(obj, "gpu", gpu_json());
    return obj;
}

static int add_declared(const char *key, aorta_json_t *value, void *user)
{
    const char *better = aorta_json_get_string(aorta_json_get(value, "better"));
    if (better)
        aorta_json_set(user, key, aorta_json_string(better));
    return 0;
}

static int collector_declared(const char *key, aorta_json_t *value, void *user)
{
    (void)key;
    const aorta_json_t *metrics = aorta_json_get(value, "metrics");
    if (aorta_json_type(metrics) == AORTA_JSON_OBJECT)
        aorta_json_foreach(metrics, add_declared, user);
    return 0;
}

aorta_json_t *aorta_provenance_declared(const aorta_json_t *provenance)
{
    aorta_json_t *declared = aorta_json_object();
    const aorta_json_t *collectors = aorta_json_get(provenance, "collectors");
    if (aorta_json_type(collectors) == AORTA_JSON_OBJECT)
        aorta_json_foreach(collectors, collector_declared, declared);
    return declared;
}

aorta_json_t *aorta_provenance_plan_declared(const aorta_plan_t *plan)
{
    aorta_json_t *holder = aorta_json_object();
    aorta_json_set(holder, "collectors", collectors_json(plan));
    aorta_json_t *declared = aorta_provenance_declared(holder);
    aorta_json_free(holder);
    return declared;
}

typedef struct mismatches {
    aorta_json_t *list;
} mismatches_t;

/* One difference; a and b are borrowed (copied in). */
static void differ(mismatches_t *out, const char *what, const aorta_json_t *a,
                   const aorta_json_t *b, int incomparable, const char *collector)
{
    aorta_json_t *entry = aorta_json_object();
    aorta_json_set(entry, "what", aorta_json_string(what));
    aorta_json_set(entry, "a", a ? aorta_json_ref((aorta_json_t *)a) : NULL);
    aorta_json_set(entry, "b", b ? aorta_json_ref((aorta_json_t *)b) : NULL);
    aorta_json_set(entry, "incomparable", aorta_json_bool(incomparable));
    aorta_json_set(entry, "collector", string_or_null(collector));
    aorta_json_append(out->list, entry);
}

static int same(const aorta_json_t *a, const aorta_json_t *b)
{
    if (!a || !b)
        return a == b;
    char *ta = aorta_json_dump((aorta_json_t *)a, 0), *tb = aorta_json_dump((aorta_json_t *)b, 0);
    int equal = !strcmp(ta, tb);
    free(ta);
    free(tb);
    return equal;
}

/* A version both sides know and that differs makes measures incomparable;
 * an unknown side is listed only. */
static void compare_version(mismatches_t *out, const char *what, const aorta_json_t *a,
                            const aorta_json_t *b, const char *collector)
{
    if (same(a, b))
        return;
    int known = aorta_json_type(a) == AORTA_JSON_STRING && aorta_json_type(b) == AORTA_JSON_STRING;
    differ(out, what, a, b, known, known ? collector : NULL);
}

typedef struct walk {
    mismatches_t *out;
    const aorta_json_t *other;
} walk_t;

static int compare_cell(const char *key, aorta_json_t *value, void *user)
{
    walk_t *walk = user;
    const aorta_json_t *other = aorta_json_get(walk->other, key);
    if (other && !same(value, other)) {
        char *what = aorta_xasprintf("cell %s variables", key);
        differ(walk->out, what, value, other, 0, NULL);
        free(what);
    }
    return 0;
}

static int compare_collector(const char *key, aorta_json_t *value, void *user)
{
    walk_t *walk = user;
    const aorta_json_t *other = aorta_json_get(walk->other, key);
    if (!other)
        return 0; /* a collector missing from B is the gate's */
    static const char *const parts[] = {"version", "options"};
    for (size_t p = 0; p < 2; p++) {
        const aorta_json_t *va = aorta_json_get(value, parts[p]);
        const aorta_json_t *vb = aorta_json_get(other, parts[p]);
        if (!same(va, vb)) {
            char *what = aorta_xasprintf("collector %s %s", key, parts[p]);
            differ(walk->out, what, va, vb, 0, NULL);
            free(what);
        }
    }
    return 0;
}

/* Each member of a that b has too, by fn. */
static void walk_both(mismatches_t *out, const aorta_json_t *a, const aorta_json_t *b,
                      int (*fn)(const char *, aorta_json_t *, void *))
{
    if (aorta_json_type(a) != AORTA_JSON_OBJECT || aorta_json_type(b) != AORTA_JSON_OBJECT)
        return;
    walk_t walk = {out, b};
    aorta_json_foreach(a, fn, &walk);
}

aorta_json_t *aorta_provenance_mismatches(const aorta_json_t *a, const aorta_json_t *b)
{
    mismatches_t out = {aorta_json_array()};
    if (!a || !b) {
        if (a != b) /* a run written before provenance was recorded */
            differ(&out, "provenance", a ? aorta_json_string("recorded") : NULL,
                   b ? aorta_json_string("recorded") : NULL, 0, NULL);
        return out.list;
    }
    const aorta_json_t *ca = aorta_json_get(a, "command"), *cb = aorta_json_get(b, "command");
    if (!same(ca, cb))
        differ(&out, "command", ca, cb, ca && cb, "*");
    /* Other ranks profiled: the merged figures sum other processes. */
    const aorta_json_t *ra = aorta_json_get(a, "ranks_profiled");
    const aorta_json_t *rb = aorta_json_get(b, "ranks_profiled");
    if (!same(ra, rb))
        differ(&out, "ranks profiled", ra, rb, 1, "*");
    walk_both(&out, aorta_json_get(a, "cells"), aorta_json_get(b, "cells"), compare_cell);
    walk_both(&out, aorta_json_get(a, "collectors"), aorta_json_get(b, "collectors"),
              compare_collector);
    const aorta_json_t *pa = aorta_json_get(a, "profiler"), *pb = aorta_json_get(b, "profiler");
    compare_version(&out, "profiler version", aorta_json_get(pa, "version"),
                    aorta_json_get(pb, "version"),
                    aorta_json_get_string(aorta_json_get(pb, "collector")));
    compare_version(&out, "triton version", aorta_json_get(a, "triton_version"),
                    aorta_json_get(b, "triton_version"), "proton");
    const aorta_json_t *ga = aorta_json_get(a, "gpu"), *gb = aorta_json_get(b, "gpu");
    if (!same(aorta_json_get(ga, "name"), aorta_json_get(gb, "name"))
        || !same(aorta_json_get(ga, "driver"), aorta_json_get(gb, "driver")))
        differ(&out, "gpu", ga, gb, 0, NULL);
    const aorta_json_t *va = aorta_json_get(a, "aorta_version");
    const aorta_json_t *vb = aorta_json_get(b, "aorta_version");
    if (!same(va, vb))
        differ(&out, "aorta version", va, vb, 0, NULL);
    return out.list;
}
