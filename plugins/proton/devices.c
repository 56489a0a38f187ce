/* SPDX-License-Identifier: MIT */
/* devices.c - the env(1) prefix: the variables a wrap must carry into the
 * command, and the device translation of docs/collectors/proton.md
 *
 * On AMD, Proton's queue-intercepting backends refuse to start when
 * HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES is set (it reads
 * ROCR_VISIBLE_DEVICES), so a device-pinned cell would crash inside Proton.
 * The pin is moved: the rejected variables are unset and their value goes to
 * ROCR_VISIBLE_DEVICES, unless the trial already sets that one.  Presence
 * counts, not the value: an empty list still means "hide every device". */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "proton.h"

/* In precedence order: HIP wins over CUDA, as in the ROCm runtime. */
static const char *const rejected[] = {"HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"};

static int intercepts(const char *backend)
{
    return strcmp(backend, "auto") == 0 || strcmp(backend, "rocprofiler") == 0
        || strcmp(backend, "roctracer") == 0;
}

/* CUDA_VISIBLE_DEVICES is a real pin on an NVIDIA host (where auto means
 * CUPTI), so it moves only once the host is known to be AMD. */
static int amd_established(const char *backend, const aorta_env_t *env)
{
    return strcmp(backend, "rocprofiler") == 0 || strcmp(backend, "roctracer") == 0
        || proton_env_lookup(env, "HIP_VISIBLE_DEVICES")
        || proton_env_lookup(env, "ROCR_VISIBLE_DEVICES");
}

/* Sorted names of every assignment and every unset, for the message. */
static char *carried_names(const proton_vars_t *vars, const char *const *unset, size_t nunset)
{
    size_t total = vars->count + nunset;
    const char **names = cc_xmalloc((total ? total : 1) * sizeof *names);
    size_t n = 0;
    for (size_t i = 0; i < vars->count; i++)
        names[n++] = vars->items[i].name;
    for (size_t i = 0; i < nunset; i++)
        if (!proton_vars_get(vars, unset[i]))
            names[n++] = unset[i];
    /* Insertion sort: a handful of names. */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *tmp = names[j];
            names[j] = names[j - 1];
            names[j - 1] = tmp;
        }
    cc_buf_t buf = {0};
    cc_buf_add_repr_list(&buf, names, n);
    free(names);
    return cc_buf_take(&buf);
}

static void warn_translation(const char *backend, const aorta_env_t *env,
                             const char *const *unset, size_t nunset, const char *rocr)
{
    cc_buf_t msg = {0};
    for (size_t i = 0; i < nunset; i++) {
        cc_buf_addf(&msg, "%s%s=", i ? ", " : "", unset[i]);
        cc_buf_add_repr(&msg, proton_env_lookup(env, unset[i]), strlen(proton_env_lookup(env, unset[i])));
    }
    cc_buf_addf(&msg, " not honoured by Proton's %s backend; running with "
                          "ROCR_VISIBLE_DEVICES=", backend);
    cc_buf_add_repr(&msg, rocr, strlen(rocr));
    cc_buf_adds(&msg, " instead.");
    char *text = cc_buf_take(&msg);
    aorta_warn("proton", "%s", text);
    free(text);
}

int proton_env_prefix(const char *backend, const aorta_env_t *env,
                      const proton_vars_t *assignments, aorta_argv_t *out, aorta_error_t *err)
{
    proton_vars_t vars = {0};
    for (size_t i = 0; assignments && i < assignments->count; i++)
        proton_vars_set(&vars, assignments->items[i].name, assignments->items[i].value);
    const char *unset[2];
    size_t nunset = 0;
    if (intercepts(backend)) {
        size_t candidates = amd_established(backend, env) ? 2 : 1;
        for (size_t i = 0; i < candidates; i++)
            if (proton_env_lookup(env, rejected[i]))
                unset[nunset++] = rejected[i];
        if (nunset > 0) {
            const char *rocr = proton_env_lookup(env, "ROCR_VISIBLE_DEVICES");
            proton_vars_setdefault(&vars, "ROCR_VISIBLE_DEVICES",
                                   rocr ? rocr : proton_env_lookup(env, unset[0]));
        }
    }
    int status = 0;
    if (vars.count > 0 || nunset > 0) {
        char *env_path = aorta_which("env", proton_env_lookup(env, "PATH"));
        if (!env_path) {
            char *names = carried_names(&vars, unset, nunset);
            aorta_error_set(err,
                            "proton needs 'env' on $PATH to apply %s, and it was not found. "
                            "Argv rewriting is the only channel the collector has for these "
                            "variables, so continuing would run the command unprofiled or on "
                            "the wrong device. Install coreutils, or drop 'proton' from the "
                            "collect request.",
                            names);
            free(names);
            status = -1;
        } else {
            aorta_argv_push(out, env_path);
            aorta_free(env_path);
            for (size_t i = 0; i < nunset; i++) {
                aorta_argv_push(out, "-u");
                aorta_argv_push(out, unset[i]);
            }
            for (size_t i = 0; i < vars.count; i++) {
                char *assignment =
                    cc_xasprintf("%s=%s", vars.items[i].name, vars.items[i].value);
                aorta_argv_push(out, assignment);
                free(assignment);
            }
            if (nunset > 0)
                warn_translation(backend, env, unset, nunset,
                                 proton_vars_get(&vars, "ROCR_VISIBLE_DEVICES"));
        }
    }
    proton_vars_free(&vars);
    return status;
}
