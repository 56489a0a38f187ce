/* SPDX-License-Identifier: MIT */
/* env_bundle.c - mode env: the AORTA_PROTON_* variables a payload that calls
 * proton.start() itself reads (docs/collectors/proton.md), delivered through an env(1)
 * prefix in front of the untouched command, and the env callback that
 * `aorta-run --env proton DIR` prints. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "proton.h"

void proton_bundle_build(const proton_opts_t *opts, const char *out_dir, proton_vars_t *bundle)
{
    char *dir = aorta_path_join(out_dir, NULL);
    char *name = aorta_path_join(out_dir, PROTON_PROFILE_STEM);
    proton_vars_set(bundle, "AORTA_PROTON_DIR", dir);
    proton_vars_set(bundle, "AORTA_PROTON_NAME", name);
    aorta_free(dir);
    aorta_free(name);
    proton_vars_set(bundle, "AORTA_PROTON_CONTEXT", opts->context);
    proton_vars_set(bundle, "AORTA_PROTON_DATA", opts->data);
    /* auto: no variable, so the payload passes backend=None and Proton picks,
     * as omitting -b does under mode: cli.  The attach mode is not exported. */
    if (strcmp(opts->backend, "auto") != 0)
        proton_vars_set(bundle, "AORTA_PROTON_BACKEND", opts->backend);
    char *mode = proton_mode_argument(opts);
    if (mode)
        proton_vars_set(bundle, "AORTA_PROTON_MODE", mode);
    free(mode);
    if (opts->hook)
        proton_vars_set(bundle, "AORTA_PROTON_HOOK", opts->hook);
}

int proton_env(const aorta_options_t *options, const char *out_dir, aorta_env_t *bundle,
               aorta_error_t *err)
{
    (void)err;
    proton_opts_t opts;
    proton_opts_read(options, &opts);
    proton_vars_t vars = {0};
    proton_bundle_build(&opts, out_dir, &vars);
    for (size_t i = 0; i < vars.count; i++)
        aorta_env_set(bundle, vars.items[i].name, vars.items[i].value);
    proton_vars_free(&vars);
    return 0;
}

int proton_wrap_env(const proton_opts_t *opts, const char *out_dir, const aorta_argv_t *command,
                    const aorta_env_t *env, aorta_argv_t *out, aorta_error_t *err)
{
    /* env(1) reads a leading NAME=VALUE as an assignment and a leading '-'
     * as its own option, so such a command would silently run as something
     * else (docs/design.md, Deviation 4). */
    const char *first = aorta_argv_at(command, 0);
    if (strchr(first, '=') || first[0] == '-') {
        cc_buf_t msg = {0};
        cc_buf_adds(&msg, "proton mode 'env' cannot run the command ");
        cc_buf_add_repr(&msg, first, strlen(first));
        cc_buf_addf(&msg,
                        ": the env(1) prefix that carries the AORTA_PROTON_* variables would "
                        "read a first word %s as %s. Start the command with a program path "
                        "that has no '=' and does not begin with '-' (for example a wrapper "
                        "script, or './' before a relative name).",
                        strchr(first, '=') ? "containing '='" : "starting with '-'",
                        strchr(first, '=') ? "a variable assignment" : "one of its own options");
        char *text = cc_buf_take(&msg);
        aorta_error_set(err, "%s", text);
        free(text);
        return -1;
    }
    proton_vars_t bundle = {0};
    proton_bundle_build(opts, out_dir, &bundle);
    int status = proton_env_prefix(opts->backend, env, &bundle, out, err);
    proton_vars_free(&bundle);
    if (status == 0)
        aorta_argv_push_all(out, command);
    return status;
}
