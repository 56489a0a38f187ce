/* SPDX-License-Identifier: MIT */
/* options.c - the eight Proton options: the --describe table, validation
 * (checks V1-V7 of docs/collectors/proton.md, in that order; V1 and V3 are
 * the SDK's aorta_options_apply_table()), the effective view and the
 * rendering of Proton's single --mode argument.
 *
 * Values are normalised as upstream's value.strip().lower(): the strip is
 * Python's (Unicode spaces included), the lowercasing is ASCII only.  No
 * non-ASCII character lowercases into an ASCII letter that one of the domains
 * uses, so what is accepted is the same; only the echo of a rejected
 * non-ASCII value in a message can differ in case.
 *
 * Upstream's check V2 ("must be a string") has no counterpart here: every
 * value reaches a collector as a string, and the recipe reader refuses the
 * others. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proton.h"

static const char *const mode_values[] = {"cli", "env", NULL};
static const char *const backend_values[] = {"auto", "cupti", "instrumentation", "rocprofiler",
                                             "roctracer", NULL};
static const char *const backend_mode_values[] = {"pcsampling", "periodic_flushing", NULL};
static const char *const context_values[] = {"python", "shadow", NULL};
static const char *const data_values[] = {"trace", "tree", NULL};
static const char *const instrumentation_mode_values[] = {"default", "mma", "pcsampling", NULL};
static const char *const granularity_values[] = {
    "cta", "warp", "warp_2", "warp_4", "warp_8",
    "warp_group", "warp_group_2", "warp_group_4", "warp_group_8", NULL};
static const char *const hook_values[] = {"triton", NULL};

/* In the canonical order, which the unknown-option message lists. */
const aorta_option_spec_t proton_option_table[] = {
    {"mode", mode_values, "cli",
     "cli wraps a Python launch in 'python -m triton.profiler.proton'; env leaves the command "
     "alone and hands it AORTA_PROTON_* for a payload that calls proton.start() itself"},
    {"backend", backend_values, "auto",
     "Proton's -b; auto omits it and lets Proton pick (roctracer cannot be pinned under mode: "
     "cli)"},
    {"backend_mode", backend_mode_values, NULL,
     "Proton's --mode for an explicit backend: cupti and rocprofiler take pcsampling or "
     "periodic_flushing, roctracer periodic_flushing"},
    {"context", context_values, "shadow", "Proton's --context"},
    {"data", data_values, "tree",
     "Proton's --data; the metrics come from tree's <name>.hatchet (or its .part_<N>.hatchet "
     "phases, or .hatchet_msgpack), else trace's <name>.chrome_trace"},
    {"instrumentation_mode", instrumentation_mode_values, NULL,
     "first part of --mode for backend: instrumentation"},
    {"granularity", granularity_values, NULL,
     "granularity= part of --mode for backend: instrumentation"},
    {"hook", hook_values, NULL, "Proton's -k (triton records kernel launch metadata)"},
    {NULL, NULL, NULL, NULL},
};

enum { OPTION_COUNT = 8 };

/* The backends whose --mode domain is known, and those domains. */
static const char *const roctracer_modes[] = {"periodic_flushing", NULL};

static const char *const *backend_modes(const char *backend)
{
    if (strcmp(backend, "cupti") == 0 || strcmp(backend, "rocprofiler") == 0)
        return backend_mode_values;
    if (strcmp(backend, "roctracer") == 0)
        return roctracer_modes;
    return NULL;
}

static const aorta_option_spec_t *spec_of(const char *key)
{
    for (const aorta_option_spec_t *spec = proton_option_table; spec->key; spec++)
        if (strcmp(spec->key, key) == 0)
            return spec;
    return NULL;
}

static int one_of(const char *value, const char *const *values)
{
    for (size_t i = 0; values[i]; i++)
        if (strcmp(values[i], value) == 0)
            return 1;
    return 0;
}

static size_t count_of(const char *const *values)
{
    size_t n = 0;
    while (values[n])
        n++;
    return n;
}

/* value.strip().lower(), see the top of the file. */
static char *normalise(const char *value)
{
    size_t len;
    const char *start = aorta_text_strip(value, strlen(value), &len);
    char *out = cc_xstrndup(start, len);
    for (char *c = out; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    return out;
}

static void fail(aorta_error_t *err, cc_buf_t *msg)
{
    char *text = cc_buf_take(msg);
    aorta_error_set(err, "%s", text);
    free(text);
}

/* The effective value of key: normalised when supplied, else the default. */
typedef struct effective {
    const char *key;
    char *value; /* owned; NULL when unset */
    int supplied;
} effective_t;

static const char *value_of(const effective_t *eff, const char *key)
{
    for (size_t i = 0; i < OPTION_COUNT; i++)
        if (strcmp(eff[i].key, key) == 0)
            return eff[i].value;
    return NULL;
}

/* V4-V7 on the effective values. */
static int check_values(const effective_t *eff, aorta_error_t *err)
{
    cc_buf_t msg = {0};
    const char *backend = value_of(eff, "backend");
    const char *backend_mode = value_of(eff, "backend_mode");
    /* Sorted: granularity before instrumentation_mode. */
    const char *intra[2];
    size_t nintra = 0;
    if (value_of(eff, "granularity"))
        intra[nintra++] = "granularity";
    if (value_of(eff, "instrumentation_mode"))
        intra[nintra++] = "instrumentation_mode";
    if (backend_mode && nintra > 0) {
        cc_buf_adds(&msg, "proton option 'backend_mode' conflicts with ");
        cc_buf_add_repr_list(&msg, intra, nintra);
        cc_buf_adds(&msg, ": both render into Proton's single '--mode' argument, so only one "
                              "can be set. 'backend_mode' configures the whole-kernel backends "
                              "(rocprofiler / roctracer / cupti); the intra-kernel pair "
                              "configures backend: instrumentation.");
        fail(err, &msg);
        return -1;
    }
    if (nintra > 0 && strcmp(backend, "instrumentation") != 0) {
        cc_buf_adds(&msg, "proton option(s) ");
        cc_buf_add_repr_list(&msg, intra, nintra);
        cc_buf_addf(&msg,
                        " require backend: instrumentation (they configure Proton's "
                        "intra-kernel mode); got backend: %s",
                        backend);
        fail(err, &msg);
        return -1;
    }
    if (backend_mode) {
        const char *const *allowed = backend_modes(backend);
        if (!allowed) {
            cc_buf_addf(&msg,
                            "proton option 'backend_mode' requires an explicit backend from "
                            "['cupti', 'rocprofiler', 'roctracer'] -- Proton's '--mode' domain "
                            "is backend-specific, so there is nothing to validate it against "
                            "under backend: %s. Pin the backend, or drop the option.",
                            backend);
            fail(err, &msg);
            return -1;
        }
        if (!one_of(backend_mode, allowed)) {
            cc_buf_adds(&msg, "proton option 'backend_mode': ");
            cc_buf_add_repr(&msg, backend_mode, strlen(backend_mode));
            cc_buf_adds(&msg, " is not one of ");
            cc_buf_add_repr_list(&msg, allowed, count_of(allowed));
            cc_buf_addf(&msg, " for backend: %s", backend);
            fail(err, &msg);
            return -1;
        }
    }
    return 0;
}

/* V1 (every key one of the eight) and V3 (each value in its domain, in the
 * table's order) through the SDK's table check, on the values normalised
 * and the defaults filled in: the effective values.  backend_mode's domain
 * is the backend's (V6, V7), so the table it checks against lists none for
 * it.  0 with eff filled, or -1. */
static int check_table(const aorta_options_t *options, effective_t *eff, aorta_error_t *err)
{
    aorta_option_spec_t table[OPTION_COUNT + 1];
    for (size_t i = 0; i <= OPTION_COUNT; i++) {
        table[i] = proton_option_table[i];
        if (table[i].key && strcmp(table[i].key, "backend_mode") == 0)
            table[i].values = NULL;
    }
    aorta_options_t *normal = aorta_options_new();
    for (size_t i = 0; i < aorta_options_count(options); i++) {
        char *value = normalise(aorta_options_value_at(options, i));
        aorta_options_set(normal, aorta_options_key_at(options, i), value);
        free(value);
    }
    int status = aorta_options_apply_table(normal, table, "proton", err);
    for (size_t i = 0; i < OPTION_COUNT && status == 0; i++) {
        const char *value = aorta_options_get(normal, proton_option_table[i].key);
        eff[i].key = proton_option_table[i].key;
        eff[i].supplied = aorta_options_get(options, eff[i].key) != NULL;
        eff[i].value = value ? cc_xstrdup(value) : NULL;
    }
    aorta_options_free(normal);
    return status;
}

int proton_validate(aorta_options_t *options, aorta_error_t *err)
{
    effective_t eff[OPTION_COUNT];
    if (check_table(options, eff, err) != 0)
        return -1;
    int status = check_values(eff, err);
    if (status == 0) {
        /* Defaults first (mode, backend, context, data), then the optional
         * keys in the order they were given. */
        size_t count = aorta_options_count(options);
        const char **order = cc_xmalloc((count + 1) * sizeof *order);
        for (size_t i = 0; i < count; i++)
            order[i] = cc_xstrdup(aorta_options_key_at(options, i));
        aorta_options_clear(options);
        for (size_t i = 0; i < OPTION_COUNT; i++)
            if (proton_option_table[i].default_value)
                aorta_options_set(options, eff[i].key, eff[i].value);
        for (size_t i = 0; i < count; i++) {
            const aorta_option_spec_t *spec = spec_of(order[i]);
            if (!spec->default_value)
                aorta_options_set(options, order[i], value_of(eff, order[i]));
            free((char *)order[i]);
        }
        free(order);
    }
    for (size_t i = 0; i < OPTION_COUNT; i++)
        free(eff[i].value);
    return status;
}

void proton_opts_read(const aorta_options_t *options, proton_opts_t *out)
{
    const char *values[OPTION_COUNT];
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        const char *given = options ? aorta_options_get(options, proton_option_table[i].key) : NULL;
        values[i] = given ? given : proton_option_table[i].default_value;
    }
    out->mode = values[0];
    out->backend = values[1];
    out->backend_mode = values[2];
    out->context = values[3];
    out->data = values[4];
    out->instrumentation_mode = values[5];
    out->granularity = values[6];
    out->hook = values[7];
}

char *proton_mode_argument(const proton_opts_t *opts)
{
    if (opts->backend_mode)
        return cc_xstrdup(opts->backend_mode);
    if (!opts->instrumentation_mode && !opts->granularity)
        return NULL;
    const char *name = opts->instrumentation_mode ? opts->instrumentation_mode : "default";
    if (!opts->granularity)
        return cc_xstrdup(name);
    return cc_xasprintf("%s:granularity=%s", name, opts->granularity);
}

const char *const proton_resources[] = {"hsa-queue-interceptor", "cupti-subscriber", NULL};

/* CUPTI allows one subscriber per process: the cupti backend is one, and so
 * is auto, which resolves to it on NVIDIA. */
static int takes_cupti(const proton_opts_t *opts, aorta_error_t *why, aorta_error_t *remedy)
{
    int is_auto = strcmp(opts->backend, "auto") == 0;
    if (!is_auto && strcmp(opts->backend, "cupti") != 0)
        return 0;
    aorta_error_set(why, "proton backend '%s'%s", opts->backend,
                    is_auto ? " (which resolves to cupti on NVIDIA)" : "");
    aorta_error_set(remedy, "%s",
                    "Use 'proton: {backend: instrumentation}' (intra-kernel measurement, no CUPTI "
                    "subscriber) to combine them");
    return 1;
}

int proton_takes(const aorta_options_t *options, const char *resource, aorta_error_t *why,
                 aorta_error_t *remedy)
{
    proton_opts_t opts;
    proton_opts_read(options, &opts);
    if (!strcmp(resource, "cupti-subscriber"))
        return takes_cupti(&opts, why, remedy);
    if (strcmp(resource, "hsa-queue-interceptor") != 0)
        return 0;
    /* auto is counted: on AMD it resolves to one of the other two. */
    int is_auto = strcmp(opts.backend, "auto") == 0;
    if (!is_auto && strcmp(opts.backend, "rocprofiler") != 0
        && strcmp(opts.backend, "roctracer") != 0)
        return 0;
    aorta_error_set(why, "proton backend '%s'%s", opts.backend,
                    is_auto ? " (which resolves to rocprofiler or roctracer on AMD)" : "");
    aorta_error_set(remedy, "%s",
                    "Use 'proton: {backend: instrumentation}' (intra-kernel measurement, no queue "
                    "interception) to combine them");
    return 1;
}
