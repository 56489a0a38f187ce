/* SPDX-License-Identifier: MIT */
/* proton.c - the Proton collector (Triton's profiler): its description and
 * the wrap that picks the attach mode.  The behaviour is docs/collectors/proton.md as
 * amended by docs/design.md (Deviations); docs/collectors/proton.md is the user's view. */
#include "config.h"

#include <string.h>

#include "proton.h"

/* Named in plugins/common's out-of-memory line. */
const char cc_collector_name[] = "proton";

static int proton_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *env,
                       aorta_argv_t *out, aorta_error_t *err)
{
    /* The core never wraps an empty command; refuse one all the same rather
     * than build an env(1) prefix that would only print the environment. */
    if (aorta_argv_count(command) == 0) {
        aorta_error_set(err, "cannot wrap an empty argv with proton");
        return -1;
    }
    proton_opts_t opts;
    proton_opts_read(options, &opts);
    if (strcmp(opts.mode, "env") == 0)
        return proton_wrap_env(&opts, out_dir, command, env, out, err);
    return proton_wrap_cli(&opts, out_dir, command, env, out, err);
}

/* The metrics it reports, as every kernel-table collector does. */
static const aorta_metric_spec_t proton_metrics[] = {
    CC_KERNEL_METRICS("proton"),
    {NULL, NULL, AORTA_BETTER_NONE, NULL},
};

AORTA_COLLECTOR_DEFINE(proton,
    .version = PACKAGE_VERSION,
    .description = "Triton's Proton profiler: wraps a Python launch (mode: cli) or hands the "
                   "payload AORTA_PROTON_* (mode: env); metrics from the .hatchet tree",
    .wrap_rank = 20,
    .options = proton_option_table,
    .validate = proton_validate,
    .wrap = proton_wrap,
    .env = proton_env,
    .parse = proton_parse,
    .resources = proton_resources,
    .takes = proton_takes,
    .metrics = proton_metrics)
