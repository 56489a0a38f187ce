/* SPDX-License-Identifier: MIT */
/* A Proton-like test collector: its backend decides whether it installs a
 * queue interceptor ("instrumentation" does not), and it says why and how
 * to avoid it in Proton's words.  It has an env bundle, and its wrap
 * refuses when the child environment sets INTERCEPTOR_B_REFUSE (a setup
 * failure that depends on the cell).  Wraps as
 * "<out_dir>/b-wrapper --backend=B -- CMD". */
#include <stdio.h>
#include <string.h>

#include "aorta/collector.h"

static const char *const backends[] = {"auto", "rocprofiler", "roctracer", "instrumentation",
                                       NULL};

static const aorta_option_spec_t b_options[] = {
    {"backend", backends, "auto", "which profiling backend"},
    {NULL, NULL, NULL, NULL},
};

static int b_validate(aorta_options_t *options, aorta_error_t *err)
{
    for (size_t i = 0; i < aorta_options_count(options); i++) {
        const char *key = aorta_options_key_at(options, i);
        if (strcmp(key, "backend") != 0) {
            aorta_error_set(err, "interceptor_b: unknown option '%s'", key);
            return -1;
        }
    }
    const char *backend = aorta_options_get(options, "backend");
    if (!backend) {
        aorta_options_set(options, "backend", "auto");
        return 0;
    }
    for (size_t i = 0; backends[i]; i++)
        if (strcmp(backends[i], backend) == 0)
            return 0;
    aorta_error_set(err, "interceptor_b option 'backend': '%s' is not one of ['auto', "
                         "'instrumentation', 'rocprofiler', 'roctracer']",
                    backend);
    return -1;
}

static int b_wrap(const aorta_options_t *options, const char *out_dir,
                  const aorta_argv_t *command, const aorta_env_t *environ, aorta_argv_t *out,
                  aorta_error_t *err)
{
    if (aorta_env_get(environ, "INTERCEPTOR_B_REFUSE")) {
        aorta_error_set(err, "interceptor_b: refusing to wrap (INTERCEPTOR_B_REFUSE is set)");
        return -1;
    }
    char *wrapper = aorta_path_join(out_dir, "b-wrapper");
    char backend[128];
    snprintf(backend, sizeof backend, "--backend=%s", aorta_options_get(options, "backend"));
    aorta_argv_push(out, wrapper);
    aorta_free(wrapper);
    aorta_argv_push(out, backend);
    aorta_argv_push(out, "--");
    return aorta_argv_push_all(out, command);
}

static int b_env(const aorta_options_t *options, const char *out_dir, aorta_env_t *bundle,
                 aorta_error_t *err)
{
    const char *backend = aorta_options_get(options, "backend");
    if (strcmp(backend, "roctracer") == 0) {
        aorta_error_set(err, "interceptor_b: backend 'roctracer' has no env bundle");
        return -1;
    }
    char *path = aorta_path_join(out_dir, "profile");
    aorta_env_set(bundle, "INTERCEPTOR_B_OUT", path);
    aorta_free(path);
    aorta_env_set(bundle, "INTERCEPTOR_B_BACKEND", backend);
    return 0;
}

static void b_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    aorta_metrics_set_string(metrics, "interceptor_b_artifact_dir", dir);
    if (options)
        aorta_metrics_set_string(metrics, "interceptor_b_backend",
                                 aorta_options_get(options, "backend"));
}

static int b_queue_interceptor(const aorta_options_t *options, aorta_error_t *why,
                               aorta_error_t *remedy)
{
    const char *backend = aorta_options_get(options, "backend");
    if (strcmp(backend, "instrumentation") == 0)
        return 0;
    aorta_error_set(why, "interceptor_b backend '%s'%s", backend,
                    strcmp(backend, "auto") == 0
                        ? " (which resolves to rocprofiler or roctracer on AMD)"
                        : "");
    aorta_error_set(remedy, "Use 'interceptor_b: {backend: instrumentation}' (intra-kernel "
                            "measurement, no queue interception) to combine them");
    return 1;
}

/* A decoy in the 1.0 slot: a host must ask queue_interceptor_why instead.
 * Were this asked, interceptor_b would never intercept and the suites'
 * refusals would not happen. */
static int b_old_queue_interceptor(const aorta_options_t *options, char *why, size_t why_size,
                                   char *remedy, size_t remedy_size)
{
    (void)options, (void)why, (void)why_size, (void)remedy, (void)remedy_size;
    return 0;
}

AORTA_COLLECTOR_DEFINE(interceptor_b,
    .version = "1.0",
    .description = "a Proton-like test collector whose backend may intercept queues",
    .wrap_rank = 20,
    .options = b_options,
    .validate = b_validate,
    .wrap = b_wrap,
    .env = b_env,
    .parse = b_parse,
    .queue_interceptor = b_old_queue_interceptor,
    .queue_interceptor_why = b_queue_interceptor)
