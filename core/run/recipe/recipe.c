/* SPDX-License-Identifier: MIT */
/* recipe.c - a `mode: probe` recipe's keys, types and cells. */
#include "config.h"

#include "sys/diag.h"
#include "recipe/recipe.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "recipe/yaml_tree.h"
#include "sys/rank_list.h"
#include "sys/quote.h"
#include "sys/suggest.h"
#include "xalloc.h"

/* The keys of docs/design.md, Recipes. */
static const char *const RECIPE_KEYS[] = {
    "schema_version", "mode", "ticket", "trials", "mitigation_axis", "diagnostic_axis",
    "mitigations", "timeout_per_trial", "env_passthrough_mode", "collect", "retain",
    "stop_after", "launcher", "baseline", "all_ranks", "ranks", "warmup_trials", "order", NULL,
};
/* Upstream keys of features aorta-run does not have: read past, with a warning. */
static const char *const IGNORED_KEYS[] = {
    "step_time_regex", "collect_paths", "custom_patterns", "confound", "hang_window_sec",
    "hang_grace_period_at_start", "tier3_vram_growth", "disable_detectors",
    "disable_detector_tiers", "redaction", NULL,
};
/* Keys of upstream's workload flow (mode: triage), which aorta-run does not have. */
static const char *const WORKLOAD_KEYS[] = {
    "workload", "steps", "cells", "workload_config", "save_logs", "extra_env", NULL,
};
static const char *const RETAIN_KEYS[] = {"on_fail", "on_pass", "on_error", NULL};
static const char *const RETAIN_LEVELS[] = {"none", "log", "summary", "full", NULL};
static const char *const STOP_AFTER_KEYS[] = {"events", "max_trials", "event_verdict", NULL};
static const char *const VERDICTS[] = {"fail", "pass", "error", NULL};
static const char *const PASSTHROUGH_MODES[] = {"inherit", "file", NULL};
static const char *const ORDER_MODES[] = {"interleaved", "sequential", "random", NULL};

static const char SIDECAR_SHAPE[] = "{\"version\": 1, \"mitigations\": {NAME: {VAR: \"value\"}}}";

typedef struct reader {
    ar_yaml_doc_t *doc;
    ar_recipe_t *recipe;
    ar_mitigations_t *mitigations;
    char *error;
} reader_t;

static int fail(reader_t *r, const ar_yaml_node_t *at, const char *fmt, ...) AORTA_PRINTF(3, 4);

static int fail(reader_t *r, const ar_yaml_node_t *at, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *message = ar_xvasprintf(fmt, args);
    va_end(args);
    r->error = ar_xasprintf("%s:%lu:%lu: %s", r->doc->label, at->line, at->column, message);
    free(message);
    return -1;
}

static char *where(const reader_t *r, const ar_yaml_node_t *node)
{
    return ar_xasprintf("%s:%lu:%lu", r->doc->label, node->line, node->column);
}

/* " (did you mean 'X'?)" against a NULL-terminated list, or "" (free it). */
static char *list_hint(const char *const *list, const char *text)
{
    size_t count = 0;
    while (list[count])
        count++;
    return ar_suggest_hint(text, list, count);
}

static int in_list(const char *const *list, const char *text)
{
    for (; *list; list++)
        if (strcmp(*list, text) == 0)
            return 1;
    return 0;
}

static char *join(const char *const *list, const char *separator)
{
    char *out = ar_xstrdup("");
    for (size_t i = 0; list[i]; i++) {
        char *next = ar_xasprintf("%s%s%s", out, i ? separator : "", list[i]);
        free(out);
        out = next;
    }
    return out;
}

/* "must be X, got Y" with a hint when a non-string scalar stands where a
 * string was meant (YAML 1.1 read `1`, `yes`, `off` as other types). */
static int fail_type(reader_t *r, const ar_yaml_node_t *node, const char *label,
                     const char *expected, int string_expected)
{
    char *what = ar_yaml_describe(node);
    int scalar = node->kind == AR_YAML_SCALAR;
    const char *hint = "";
    if (scalar && node->type == AR_YAML_STR && strlen(node->text) != node->length)
        hint = "; a NUL character cannot be used";
    else if (string_expected && scalar && node->type != AR_YAML_STR
             && node->type != AR_YAML_NULL)
        hint = "; quote it to make it a string";
    int status = fail(r, node, "%s: must be %s, got %s%s", label, expected, what, hint);
    free(what);
    return status;
}

static int is_null(const ar_yaml_node_t *node)
{
    return node->kind == AR_YAML_SCALAR && node->type == AR_YAML_NULL;
}

static int read_string(reader_t *r, const ar_yaml_node_t *node, const char *label,
                       char **out)
{
    if (!ar_yaml_is_string(node))
        return fail_type(r, node, label, "a string", 1);
    *out = ar_xstrdup(node->text);
    return 0;
}

static int read_choice(reader_t *r, const ar_yaml_node_t *node, const char *label,
                       const char *const *choices, char **out)
{
    if (ar_yaml_is_string(node) && in_list(choices, node->text)) {
        *out = ar_xstrdup(node->text);
        return 0;
    }
    char *allowed = join(choices, ", ");
    char *expected = ar_xasprintf("one of %s", allowed);
    int status = fail_type(r, node, label, expected, 1);
    free(expected);
    free(allowed);
    return status;
}

static int read_int(reader_t *r, const ar_yaml_node_t *node, const char *label, long min,
                    long *out)
{
    if (node->kind == AR_YAML_SCALAR && node->type == AR_YAML_INT && node->integer_ok
        && node->integer >= min && node->integer <= (int64_t)LONG_MAX) {
        *out = (long)node->integer;
        return 0;
    }
    char *expected = ar_xasprintf("an integer >= %ld", min);
    int status = fail_type(r, node, label, expected, 0);
    free(expected);
    return status;
}

/* A non-empty list of strings; nodes[i] is where items[i] was written. */
static int read_string_list(reader_t *r, const ar_yaml_node_t *node, const char *label,
                            int allow_empty, char ***items, ar_yaml_node_t ***nodes,
                            size_t *count)
{
    if (node->kind != AR_YAML_SEQUENCE || (!allow_empty && node->count == 0))
        return fail_type(r, node, label,
                         allow_empty ? "a list of strings" : "a non-empty list of strings", 0);
    for (size_t i = 0; i < node->count; i++)
        if (!ar_yaml_is_string(node->items[i])) {
            char *item_label = ar_xasprintf("%s[%zu]", label, i);
            int status = fail_type(r, node->items[i], item_label, "a string", 1);
            free(item_label);
            return status;
        }
    *items = ar_xcalloc(node->count + 1, sizeof **items);
    for (size_t i = 0; i < node->count; i++)
        (*items)[i] = node->items[i]->text;
    if (nodes)
        *nodes = node->items;
    *count = node->count;
    return 0;
}

/* A mapping's keys must be strings, and (when allowed is given) known. */
static int check_keys(reader_t *r, const ar_yaml_node_t *map, const char *label,
                      const char *const *allowed)
{
    for (size_t i = 0; i < map->count; i++) {
        const ar_yaml_node_t *key = map->keys[i];
        if (!ar_yaml_is_string(key))
            return fail_type(r, key, label, "a mapping with string keys", 0);
        if (allowed && !in_list(allowed, key->text)) {
            char *list = join(allowed, ", ");
            char *name = ar_repr_str(key->text);
            char *hint = list_hint(allowed, key->text);
            int status = fail(r, key, "%s: unknown key %s%s; allowed: %s", label, name, hint,
                              list);
            free(hint);
            free(name);
            free(list);
            return status;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Top-level keys                                                            */
/* ------------------------------------------------------------------------ */

static int read_head(reader_t *r, const ar_yaml_node_t *root)
{
    const ar_yaml_node_t *version = ar_yaml_get(root, "schema_version");
    const ar_yaml_node_t *mode = ar_yaml_get(root, "mode");
    if (!version)
        return fail(r, root, "recipe.schema_version: missing; a probe recipe starts with "
                             "'schema_version: 1' and 'mode: probe'");
    if (version->kind != AR_YAML_SCALAR || version->type != AR_YAML_INT
        || !version->integer_ok || version->integer != 1)
        return fail_type(r, version, "recipe.schema_version", "the integer 1", 0);
    if (!mode)
        return fail(r, root, "recipe.mode: missing; aorta-run reads 'mode: probe' recipes: add "
                             "'mode: probe'");
    if (!ar_yaml_is_string(mode) || strcmp(mode->text, "probe") != 0) {
        char *what = ar_yaml_describe(mode);
        int status = fail(r, mode,
                          "recipe.mode: must be 'probe', got %s; aorta-run runs probe recipes "
                          "only (cells from mitigation_axis x diagnostic_axis, the command "
                          "after '--'): upstream's workload flow (mode: triage) is not "
                          "available",
                          what);
        free(what);
        return status;
    }
    return 0;
}

/* Refuse unknown and workload-flow keys; warn once about ignored ones. */
static int check_top_keys(reader_t *r, const ar_yaml_node_t *root)
{
    const char **ignored = ar_xcalloc(root->count + 1, sizeof *ignored);
    size_t ignored_count = 0;
    int status = 0;
    for (size_t i = 0; i < root->count && status == 0; i++) {
        const ar_yaml_node_t *key = root->keys[i];
        if (in_list(RECIPE_KEYS, key->text))
            continue;
        if (in_list(IGNORED_KEYS, key->text)) {
            ignored[ignored_count++] = key->text;
        } else if (in_list(WORKLOAD_KEYS, key->text)) {
            status = fail(r, key, "recipe.%s: a key of upstream's workload flow (mode: triage), "
                                  "which aorta-run does not have; a probe recipe runs the "
                                  "command given after '--'",
                          key->text);
        } else {
            char *name = ar_repr_str(key->text);
            char *list = join(RECIPE_KEYS, ", ");
            char *hint = list_hint(RECIPE_KEYS, key->text);
            status = fail(r, key, "recipe: unknown key %s%s; a probe recipe has: %s", name, hint,
                          list);
            free(hint);
            free(list);
            free(name);
        }
    }
    if (status == 0 && ignored_count > 0) {
        char *list = join(ignored, ", ");
        ar_diag_warn("%s: ignoring keys for features aorta-run does not have: %s",
                        r->doc->label, list);
        free(list);
    }
    free(ignored);
    if (status != 0)
        return status;
    static const char *const REQUIRED[] = {"trials", "mitigation_axis", "diagnostic_axis", NULL};
    for (size_t i = 0; REQUIRED[i]; i++)
        if (!ar_yaml_get(root, REQUIRED[i]))
            return fail(r, root, "recipe.%s: missing; a probe recipe needs schema_version, mode, "
                                 "trials, mitigation_axis and diagnostic_axis",
                        REQUIRED[i]);
    return 0;
}

static int read_scalars(reader_t *r, const ar_yaml_node_t *root)
{
    ar_recipe_t *recipe = r->recipe;
    const ar_yaml_node_t *node = ar_yaml_get(root, "ticket");
    if (node && !is_null(node)
        && read_string(r, node, "recipe.ticket", &recipe->ticket) != 0)
        return -1;
    if (read_int(r, ar_yaml_get(root, "trials"), "recipe.trials", 1, &recipe->trials) != 0)
        return -1;
    node = ar_yaml_get(root, "warmup_trials");
    if (node && read_int(r, node, "recipe.warmup_trials", 0, &recipe->warmup_trials) != 0)
        return -1;
    recipe->has_warmup_trials = node != NULL;
    node = ar_yaml_get(root, "timeout_per_trial");
    if (node && !is_null(node)) {
        double value = 0;
        if (node->kind == AR_YAML_SCALAR && node->type == AR_YAML_INT && node->integer_ok)
            value = (double)node->integer;
        else if (node->kind == AR_YAML_SCALAR && node->type == AR_YAML_FLOAT)
            value = node->real;
        if (!isfinite(value) || value <= 0)
            return fail_type(r, node, "recipe.timeout_per_trial",
                             "a number of seconds > 0, or null for no limit", 0);
        recipe->timeout_sec = value;
    }
    node = ar_yaml_get(root, "env_passthrough_mode");
    if (node && !is_null(node)) {
        free(recipe->env_passthrough_mode);
        recipe->env_passthrough_mode = NULL;
        if (read_choice(r, node, "recipe.env_passthrough_mode", PASSTHROUGH_MODES,
                        &recipe->env_passthrough_mode)
            != 0)
            return -1;
    }
    node = ar_yaml_get(root, "order");
    if (node && !is_null(node)
        && read_choice(r, node, "recipe.order", ORDER_MODES, &recipe->order) != 0)
        return -1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Mitigations and cells                                                     */
/* ------------------------------------------------------------------------ */

/* Inline `mitigations: {NAME: {VAR: "value"}}`. */
static int read_mitigations(reader_t *r, const ar_yaml_node_t *node)
{
    if (!node || is_null(node))
        return 0;
    if (node->kind != AR_YAML_MAPPING)
        return fail_type(r, node, "recipe.mitigations", "a mapping of NAME: {VAR: \"value\"}", 0);
    if (check_keys(r, node, "recipe.mitigations", NULL) != 0)
        return -1;
    for (size_t i = 0; i < node->count; i++) {
        const char *name = node->keys[i]->text;
        const ar_yaml_node_t *vars = node->items[i];
        char *label = ar_xasprintf("recipe.mitigations.%s", name);
        int status = 0;
        if (!is_null(vars) && vars->kind != AR_YAML_MAPPING)
            status = fail_type(r, vars, label, "a mapping of VAR: \"value\"", 0);
        else if (!is_null(vars))
            status = check_keys(r, vars, label, NULL);
        aorta_env_t *env = aorta_env_new();
        for (size_t v = 0; status == 0 && !is_null(vars) && v < vars->count; v++) {
            if (!ar_yaml_is_string(vars->items[v])) {
                char *var_label = ar_xasprintf("%s.%s", label, vars->keys[v]->text);
                status = fail_type(r, vars->items[v], var_label, "a string", 1);
                free(var_label);
            } else {
                aorta_env_set(env, vars->keys[v]->text, vars->items[v]->text);
            }
        }
        if (status != 0) {
            aorta_env_free(env);
        } else {
            char *source = where(r, node->keys[i]), *why = NULL;
            if (ar_mitigations_define(r->mitigations, name, env, source, &why) != 0)
                status = fail(r, node->keys[i], "%s: %s", label, why);
            free(why);
            free(source);
        }
        free(label);
        if (status != 0)
            return status;
    }
    return 0;
}

/* A cell-name part as upstream's probe builder makes it: characters
 * outside [A-Za-z0-9_.-] become '_', and a part that is empty or starts
 * with '.' or '-' gets a '_' in front. */
static char *cell_segment(const char *name)
{
    char *segment = ar_xasprintf("_%s", name);
    for (char *c = segment + 1; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
              || *c == '_' || *c == '.' || *c == '-'))
            *c = '_';
    if (segment[1] && segment[1] != '.' && segment[1] != '-')
        memmove(segment, segment + 1, strlen(segment));
    return segment;
}

static int check_defined(reader_t *r, const char *label, char **names, ar_yaml_node_t **nodes,
                         size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (ar_mitigations_find(r->mitigations, names[i]))
            continue;
        char *name = ar_repr_str(names[i]);
        char *hint = ar_mitigations_suggest(r->mitigations, names[i]);
        int status = fail(r, nodes[i],
                          "%s: mitigation %s is not defined%s; "
                          "define it in the recipe under 'mitigations:' (%s: {VAR: \"value\"}) "
                          "or in a --mitigations-file JSON sidecar (%s)",
                          label, name, hint[0] ? hint : " ('none' is the only built-in)", name,
                          SIDECAR_SHAPE);
        free(hint);
        free(name);
        return status;
    }
    return 0;
}

typedef struct axes {
    char **ms, **ds;
    ar_yaml_node_t **mnodes, **dnodes;
    size_t mcount, dcount;
} axes_t;

/* The clash of cell (m, d) with an earlier cell: blame the axis value that
 * differs from the earlier cell's (cells are made in product order). */
static int refuse_clash(reader_t *r, const axes_t *axes, size_t m, size_t d, size_t prior,
                        const char *name)
{
    size_t pm = prior / axes->dcount, pd = prior % axes->dcount;
    int blame_m = pm != m;
    /* The same value twice on one axis: say that, not the clash it makes. */
    if (blame_m ? !strcmp(axes->ms[m], axes->ms[pm]) : !strcmp(axes->ds[d], axes->ds[pd])) {
        char *value = ar_repr_str(blame_m ? axes->ms[m] : axes->ds[d]);
        int status = fail(r, blame_m ? axes->mnodes[m] : axes->dnodes[d],
                          "%s: %s is listed twice (items %zu and %zu); remove one",
                          blame_m ? "recipe.mitigation_axis" : "recipe.diagnostic_axis", value,
                          (blame_m ? pm : pd) + 1, (blame_m ? m : d) + 1);
        free(value);
        return status;
    }
    char *a = ar_repr_str(axes->ms[m]), *b = ar_repr_str(axes->ds[d]);
    char *pa = ar_repr_str(axes->ms[pm]), *pb = ar_repr_str(axes->ds[pd]);
    char *quoted = ar_repr_str(name);
    int status = fail(r, blame_m ? axes->mnodes[m] : axes->dnodes[d],
                      "%s: cells (%s, %s) and (%s, %s) are both named %s; rename one of the "
                      "axis values",
                      blame_m ? "recipe.mitigation_axis" : "recipe.diagnostic_axis", a, b, pa, pb,
                      quoted);
    free(quoted);
    free(pa);
    free(pb);
    free(a);
    free(b);
    return status;
}

static int add_cell(reader_t *r, const axes_t *axes, size_t m, size_t d)
{
    ar_recipe_t *recipe = r->recipe;
    const char *mname = axes->ms[m], *dname = axes->ds[d];
    char *ms = cell_segment(mname), *ds = cell_segment(dname);
    char *name = ar_xasprintf("%s-%s", ms, ds);
    free(ms);
    free(ds);
    for (size_t i = 0; i < recipe->cell_count; i++) {
        if (strcmp(recipe->cells[i].name, name) == 0) {
            int status = refuse_clash(r, axes, m, d, i, name);
            free(name);
            return status;
        }
    }
    aorta_env_t *env = aorta_env_dup(ar_mitigations_find(r->mitigations, mname));
    const aorta_env_t *denv = ar_mitigations_find(r->mitigations, dname);
    for (size_t i = 0; i < aorta_env_count(denv); i++) {
        const char *var = aorta_env_name_at(denv, i), *value = aorta_env_value_at(denv, i);
        const char *prior = aorta_env_get(env, var);
        if (prior && strcmp(prior, value) != 0) {
            char *a = ar_repr_str(mname), *b = ar_repr_str(dname);
            char *pv = ar_repr_str(prior), *dv = ar_repr_str(value);
            int status = fail(r, axes->dnodes[d],
                              "recipe.diagnostic_axis: cell '%s': mitigation axis %s sets %s=%s, "
                              "diagnostic axis %s sets %s=%s; pick mitigations that do not set "
                              "one variable to different values",
                              name, a, var, pv, b, var, dv);
            free(a);
            free(b);
            free(pv);
            free(dv);
            free(name);
            aorta_env_free(env);
            return status;
        }
        aorta_env_set(env, var, value);
    }
    recipe->cells = ar_xrealloc(recipe->cells, (recipe->cell_count + 1) * sizeof *recipe->cells);
    ar_cell_t *cell = &recipe->cells[recipe->cell_count++];
    cell->name = name;
    cell->mitigation = ar_xstrdup(mname);
    cell->diagnostic = ar_xstrdup(dname);
    cell->env = env;
    return 0;
}

static int read_cells(reader_t *r, const ar_yaml_node_t *root)
{
    axes_t axes;
    memset(&axes, 0, sizeof axes);
    int status = -1;
    if (read_string_list(r, ar_yaml_get(root, "mitigation_axis"), "recipe.mitigation_axis", 0,
                         &axes.ms, &axes.mnodes, &axes.mcount)
            == 0
        && read_string_list(r, ar_yaml_get(root, "diagnostic_axis"),
                            "recipe.diagnostic_axis", 0, &axes.ds, &axes.dnodes, &axes.dcount)
               == 0
        && check_defined(r, "recipe.mitigation_axis", axes.ms, axes.mnodes, axes.mcount) == 0
        && check_defined(r, "recipe.diagnostic_axis", axes.ds, axes.dnodes, axes.dcount) == 0) {
        status = 0;
        if (axes.mcount * axes.dcount > AR_RECIPE_MAX_CELLS)
            status = fail(r, ar_yaml_get(root, "diagnostic_axis"),
                          "recipe.diagnostic_axis: %zu mitigation x %zu diagnostic values make "
                          "%zu cells; a recipe makes at most %d",
                          axes.mcount, axes.dcount, axes.mcount * axes.dcount,
                          AR_RECIPE_MAX_CELLS);
        for (size_t m = 0; m < axes.mcount && status == 0; m++)
            for (size_t d = 0; d < axes.dcount && status == 0; d++)
                status = add_cell(r, &axes, m, d);
    }
    free(axes.ms);
    free(axes.ds);
    return status;
}

/* ------------------------------------------------------------------------ */
/* collect, retain, stop_after, launcher                                     */
/* ------------------------------------------------------------------------ */

static void add_collector(reader_t *r, const ar_yaml_node_t *name, aorta_options_t *options,
                          const ar_yaml_node_t *map)
{
    ar_recipe_t *recipe = r->recipe;
    recipe->collect = ar_xrealloc(recipe->collect,
                                     (recipe->collect_count + 1) * sizeof *recipe->collect);
    ar_recipe_collector_t *entry = &recipe->collect[recipe->collect_count++];
    entry->name = ar_xstrdup(name->text);
    entry->options = options ? options : aorta_options_new();
    entry->where = where(r, name);
    entry->option_where = NULL;
    /* Each option key's own position, so a collector's complaint about one
     * option points at its line. */
    if (options && map && map->kind == AR_YAML_MAPPING) {
        entry->option_where = ar_xcalloc(map->count + 1, sizeof *entry->option_where);
        for (size_t i = 0; i < map->count; i++)
            entry->option_where[i] = where(r, map->keys[i]);
    }
}

/* Option values become env-var knobs and argv words: strings only, as
 * upstream (so `stats: 1` is refused and `stats: "1"` accepted). */
static int read_options(reader_t *r, const char *name, const ar_yaml_node_t *node,
                        aorta_options_t **out)
{
    *out = NULL;
    if (is_null(node))
        return 0;
    char *label = ar_xasprintf("recipe.collect.%s", name);
    int status = 0;
    if (node->kind != AR_YAML_MAPPING) {
        char *what = ar_yaml_describe(node);
        status = fail(r, node, "%s: options must be a mapping of string->string (option values "
                               "become env-var knobs), got %s",
                      label, what);
        free(what);
    }
    for (size_t i = 0; status == 0 && i < node->count; i++) {
        const ar_yaml_node_t *bad = !ar_yaml_is_string(node->keys[i]) ? node->keys[i]
                                       : !ar_yaml_is_string(node->items[i]) ? node->items[i]
                                                                              : NULL;
        if (!bad)
            continue;
        char *what = ar_yaml_describe(bad);
        int scalar = bad->kind == AR_YAML_SCALAR && bad->type != AR_YAML_NULL;
        if (bad == node->items[i]) {
            /* A value: name its option (the position is the value's). */
            status = fail(r, bad, "%s.%s: option values must be strings (they become env-var "
                                  "knobs), got %s%s",
                          label, node->keys[i]->text, what,
                          scalar ? "; quote it to make it a string" : "");
        } else {
            status = fail(r, bad, "%s: options must be a mapping of string->string (option "
                                  "values become env-var knobs), got %s%s",
                          label, what, scalar ? "; quote it to make it a string" : "");
        }
        free(what);
    }
    if (status == 0 && node->count > 0) {
        *out = aorta_options_new();
        for (size_t i = 0; i < node->count; i++)
            aorta_options_set(*out, node->keys[i]->text, node->items[i]->text);
    }
    free(label);
    return status;
}

static int read_collect(reader_t *r, const ar_yaml_node_t *node)
{
    if (!node || is_null(node))
        return 0;
    r->recipe->collect_where = where(r, node);
    if (node->kind == AR_YAML_SEQUENCE) {
        for (size_t i = 0; i < node->count; i++) {
            if (!ar_yaml_is_string(node->items[i])) {
                char *what = ar_yaml_describe(node->items[i]);
                int status = fail(r, node->items[i],
                                  "recipe.collect: collector names must be strings, got %s", what);
                free(what);
                return status;
            }
            add_collector(r, node->items[i], NULL, NULL);
        }
        return 0;
    }
    if (node->kind == AR_YAML_MAPPING) {
        for (size_t i = 0; i < node->count; i++) {
            if (!ar_yaml_is_string(node->keys[i])) {
                char *what = ar_yaml_describe(node->keys[i]);
                int status = fail(r, node->keys[i],
                                  "recipe.collect: collector names must be strings, got %s", what);
                free(what);
                return status;
            }
            aorta_options_t *options = NULL;
            if (read_options(r, node->keys[i]->text, node->items[i], &options) != 0)
                return -1;
            add_collector(r, node->keys[i], options, node->items[i]);
        }
        return 0;
    }
    char *what = ar_yaml_describe(node);
    int status = fail(r, node, "recipe.collect: must be a list of collector names or a mapping "
                               "of name -> option dict, got %s",
                      what);
    free(what);
    return status;
}

static ar_retain_level_t retain_level(const char *text)
{
    for (size_t i = 0; RETAIN_LEVELS[i]; i++)
        if (strcmp(RETAIN_LEVELS[i], text) == 0)
            return (ar_retain_level_t)i;
    return AR_RETAIN_FULL;
}

static int read_retain(reader_t *r, const ar_yaml_node_t *node)
{
    ar_recipe_t *recipe = r->recipe;
    if (!node || is_null(node))
        return 0;
    if (node->kind != AR_YAML_MAPPING)
        return fail_type(r, node, "recipe.retain", "a mapping of on_fail/on_pass/on_error", 0);
    if (check_keys(r, node, "recipe.retain", RETAIN_KEYS) != 0)
        return -1;
    recipe->has_retain = 1;
    for (size_t i = 0; i < node->count; i++) {
        char *label = ar_xasprintf("recipe.retain.%s", node->keys[i]->text), *level = NULL;
        int status = read_choice(r, node->items[i], label, RETAIN_LEVELS, &level);
        free(label);
        if (status != 0)
            return status;
        ar_retain_level_t value = retain_level(level);
        free(level);
        const char *key = node->keys[i]->text;
        if (strcmp(key, "on_fail") == 0)
            recipe->retain_on_fail = value;
        else if (strcmp(key, "on_pass") == 0)
            recipe->retain_on_pass = value;
        else
            recipe->retain_on_error = value;
    }
    return 0;
}

static int read_stop_after(reader_t *r, const ar_yaml_node_t *node)
{
    ar_recipe_t *recipe = r->recipe;
    if (!node || is_null(node))
        return 0;
    if (node->kind != AR_YAML_MAPPING)
        return fail_type(r, node, "recipe.stop_after",
                         "a mapping of events, max_trials and event_verdict", 0);
    if (check_keys(r, node, "recipe.stop_after", STOP_AFTER_KEYS) != 0)
        return -1;
    const ar_yaml_node_t *events = ar_yaml_get(node, "events");
    const ar_yaml_node_t *max_trials = ar_yaml_get(node, "max_trials");
    const ar_yaml_node_t *verdict = ar_yaml_get(node, "event_verdict");
    if (!events)
        return fail(r, node, "recipe.stop_after.events: missing; stop_after needs events (how "
                             "many trials with the event verdict stop a cell) and max_trials");
    if (!max_trials)
        return fail(r, node, "recipe.stop_after.max_trials: missing; stop_after needs a cap on "
                             "the trials of a cell (max_trials >= events)");
    if (read_int(r, events, "recipe.stop_after.events", 1, &recipe->stop_events) != 0
        || read_int(r, max_trials, "recipe.stop_after.max_trials", 1, &recipe->stop_max_trials)
               != 0)
        return -1;
    if (recipe->stop_max_trials < recipe->stop_events)
        return fail(r, max_trials, "recipe.stop_after.max_trials: must be >= events (%ld), got "
                                   "%ld",
                    recipe->stop_events, recipe->stop_max_trials);
    if (verdict && !is_null(verdict)) {
        if (read_choice(r, verdict, "recipe.stop_after.event_verdict", VERDICTS,
                        &recipe->stop_event_verdict)
            != 0)
            return -1;
    } else {
        recipe->stop_event_verdict = ar_xstrdup("fail");
    }
    recipe->has_stop_after = 1;
    recipe->trials = recipe->stop_max_trials;
    return 0;
}

/* A launcher written as one string ("mpirun -np 2") shown as the list it
 * should be: its words split at blanks, a word YAML would read as anything
 * but a string (a number, true, null, ...) or one with a flow character
 * quoted: [mpirun, -np, "2"]. */
static char *launcher_as_list(const char *text)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = ar_xcheck(open_memstream(&out, &len));
    fputc('[', f);
    size_t n = 0;
    for (const char *at = text; *at;) {
        at += strspn(at, " \t");
        size_t w = strcspn(at, " \t");
        if (!w)
            break;
        char *word = ar_xstrndup(at, w);
        char *end = NULL;
        strtod(word, &end);
        int quote = (end && !*end) || strpbrk(word, ",[]{}:#'\"\\") || word[0] == '*'
                    || word[0] == '&' || word[0] == '!' || word[0] == '|' || word[0] == '>'
                    || word[0] == '%' || word[0] == '@' || word[0] == '`'
                    || in_list((const char *const[]){"true", "false", "null", "yes", "no", "on",
                                                     "off", "~", "True", "False", "Null", NULL},
                               word);
        fprintf(f, "%s%s%s%s", n++ ? ", " : "", quote ? "\"" : "", word, quote ? "\"" : "");
        free(word);
        at += w;
    }
    fputc(']', f);
    fclose(f);
    return out;
}

static int read_launcher(reader_t *r, const ar_yaml_node_t *node)
{
    if (!node || is_null(node))
        return 0;
    if (node->kind == AR_YAML_SCALAR && node->type == AR_YAML_STR
        && strpbrk(node->text, " \t") && !strpbrk(node->text, "\"\\")) {
        char *what = ar_yaml_describe(node);
        char *list = launcher_as_list(node->text);
        int status = fail(r, node, "recipe.launcher: must be a list of strings, got %s; use a "
                                   "list: launcher: %s",
                          what, list);
        free(list);
        free(what);
        return status;
    }
    char **words = NULL;
    size_t count = 0;
    if (read_string_list(r, node, "recipe.launcher", 1, &words, NULL, &count) != 0)
        return -1;
    int status = 0;
    if (count > 0 && !words[0][0])
        status = fail(r, node->items[0], "recipe.launcher[0]: the launcher's program must not be "
                                         "empty");
    else if (count > 0)
        r->recipe->launcher = aorta_argv_from(words, count);
    free(words);
    return status;
}

/* all_ranks: a boolean.  aorta-run is then started once per rank by the
 * user's launcher, so a launcher of the recipe's own would start ranks of
 * ranks; stop_after would let ranks stop after different trials. */
static int read_all_ranks(reader_t *r, const ar_yaml_node_t *root)
{
    const ar_yaml_node_t *node = ar_yaml_get(root, "all_ranks");
    if (!node || is_null(node))
        return 0;
    if (node->kind != AR_YAML_SCALAR || node->type != AR_YAML_BOOL)
        return fail_type(r, node, "recipe.all_ranks", "a boolean (true or false)", 0);
    r->recipe->all_ranks = node->boolean;
    if (node->boolean && r->recipe->launcher)
        return fail(r, node, "recipe.all_ranks: cannot be combined with recipe.launcher: with "
                             "all_ranks the launcher starts aorta-run itself (mpirun -np N "
                             "aorta-run ...); drop one of them");
    if (node->boolean && r->recipe->has_stop_after)
        return fail(r, node, "recipe.all_ranks: cannot be combined with recipe.stop_after: each "
                             "rank would stop after its own verdicts and the ranks would run "
                             "different trials");
    return 0;
}

/* ranks: the ranks that profile themselves under a launcher (the recipe's,
 * or the one that starts aorta-run per rank); the others run the command
 * bare.  A list of distinct ranks, at least one. */
static int read_ranks(reader_t *r, const ar_yaml_node_t *node)
{
    if (!node || is_null(node))
        return 0;
    char *expected = ar_xasprintf("a list of ranks (integers from 0 to %d), such as [0, 3]",
                                     AR_RANK_MAX - 1);
    int status = node->kind != AR_YAML_SEQUENCE ? fail_type(r, node, "recipe.ranks", expected, 0)
               : node->count == 0 ? fail(r, node, "recipe.ranks: must list at least one rank, "
                                                  "got an empty list; leave ranks out to "
                                                  "profile every rank")
                                  : 0;
    long *ranks = status == 0 ? ar_xcalloc(node->count, sizeof *ranks) : NULL;
    unsigned char seen[AR_RANK_MAX / 8] = {0}; /* a bit per rank: duplicates in one pass */
    for (size_t i = 0; status == 0 && i < node->count; i++) {
        const ar_yaml_node_t *item = node->items[i];
        if (item->kind != AR_YAML_SCALAR || item->type != AR_YAML_INT || !item->integer_ok
            || item->integer < 0 || item->integer >= AR_RANK_MAX) {
            char *label = ar_xasprintf("recipe.ranks[%zu]", i);
            status = fail_type(r, item, label, "a rank (an integer from 0 to 65535)", 0);
            free(label);
            break;
        }
        ranks[i] = (long)item->integer;
        if (seen[ranks[i] / 8] & (1u << (ranks[i] % 8)))
            status = fail(r, item, "recipe.ranks[%zu]: rank %ld is listed twice", i, ranks[i]);
        seen[ranks[i] / 8] |= (unsigned char)(1u << (ranks[i] % 8));
    }
    free(expected);
    if (status == 0 && r->recipe->has_stop_after && !r->recipe->launcher)
        status = fail(r, node, "recipe.ranks: without recipe.launcher, cannot be combined with "
                               "recipe.stop_after: aorta-run started once per rank keeps every "
                               "rank's record, and each rank would stop after its own verdicts");
    if (status != 0) {
        free(ranks);
        return -1;
    }
    ar_rank_list_sort(ranks, node->count);
    r->recipe->ranks = ranks;
    r->recipe->rank_count = node->count;
    return 0;
}

/* baseline: the cell perf.md's and report.html's kernel deltas compare with. */
static int read_baseline(reader_t *r, const ar_yaml_node_t *node)
{
    if (!node || is_null(node))
        return 0;
    char *name = NULL;
    if (read_string(r, node, "recipe.baseline", &name) != 0)
        return -1;
    for (size_t i = 0; i < r->recipe->cell_count; i++)
        if (!strcmp(r->recipe->cells[i].name, name)) {
            r->recipe->baseline = name;
            return 0;
        }
    int status = fail(r, node, "recipe.baseline: no cell is named '%s'; the cells are named "
                               "<mitigation>-<diagnostic> (e.g. '%s')",
                      name, r->recipe->cell_count ? r->recipe->cells[0].name : "none-none");
    free(name);
    return status;
}

static int read_recipe(reader_t *r)
{
    const ar_yaml_node_t *root = r->doc->root;
    if (!root) {
        r->error = ar_xasprintf("%s:1:1: the recipe is empty; expected a mapping of keys "
                                   "(schema_version: 1, mode: probe, trials, mitigation_axis, "
                                   "diagnostic_axis, ...)",
                                   r->doc->label);
        return -1;
    }
    if (root->kind != AR_YAML_MAPPING)
        return fail_type(r, root, "recipe", "a mapping of keys (schema_version: 1, mode: probe, "
                                            "...)",
                         0);
    if (check_keys(r, root, "recipe", NULL) != 0 || read_head(r, root) != 0
        || check_top_keys(r, root) != 0 || read_scalars(r, root) != 0
        || read_mitigations(r, ar_yaml_get(root, "mitigations")) != 0
        || read_cells(r, root) != 0 || read_collect(r, ar_yaml_get(root, "collect")) != 0
        || read_retain(r, ar_yaml_get(root, "retain")) != 0
        || read_stop_after(r, ar_yaml_get(root, "stop_after")) != 0
        || read_launcher(r, ar_yaml_get(root, "launcher")) != 0
        || read_baseline(r, ar_yaml_get(root, "baseline")) != 0
        || read_all_ranks(r, root) != 0 || read_ranks(r, ar_yaml_get(root, "ranks")) != 0)
        return -1;
    return 0;
}

int ar_recipe_load(const char *path, ar_mitigations_t *mitigations,
                      ar_recipe_t **out, char **error)
{
    *out = NULL;
    *error = NULL;
    reader_t r;
    memset(&r, 0, sizeof r);
    if (ar_yaml_load(path, &r.doc, error) != 0)
        return -1;
    r.mitigations = mitigations;
    r.recipe = ar_xcalloc(1, sizeof *r.recipe);
    r.recipe->path = ar_xstrdup(path);
    r.recipe->env_passthrough_mode = ar_xstrdup("inherit");
    r.recipe->retain_on_pass = r.recipe->retain_on_fail = r.recipe->retain_on_error =
        AR_RETAIN_FULL;
    int status = read_recipe(&r);
    ar_yaml_free(r.doc);
    if (status != 0) {
        ar_recipe_free(r.recipe);
        *error = r.error;
        return -1;
    }
    *out = r.recipe;
    return 0;
}

void ar_recipe_free(ar_recipe_t *recipe)
{
    if (!recipe)
        return;
    free(recipe->path);
    free(recipe->ticket);
    free(recipe->env_passthrough_mode);
    free(recipe->order);
    for (size_t i = 0; i < recipe->cell_count; i++) {
        free(recipe->cells[i].name);
        free(recipe->cells[i].mitigation);
        free(recipe->cells[i].diagnostic);
        aorta_env_free(recipe->cells[i].env);
    }
    free(recipe->cells);
    for (size_t i = 0; i < recipe->collect_count; i++) {
        free(recipe->collect[i].name);
        aorta_options_free(recipe->collect[i].options);
        free(recipe->collect[i].where);
        for (char **at = recipe->collect[i].option_where; at && *at; at++)
            free(*at);
        free(recipe->collect[i].option_where);
    }
    free(recipe->collect);
    free(recipe->collect_where);
    free(recipe->stop_event_verdict);
    aorta_argv_free(recipe->launcher);
    free(recipe->baseline);
    free(recipe->ranks);
    free(recipe);
}
