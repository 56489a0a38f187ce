/* SPDX-License-Identifier: MIT */
/* sweeputil.h - helpers of the platform suites: running aorta-run, reading
 * its JSON, and building plans by hand for the runner API. */
#ifndef AORTA_PLATUTIL_H
#define AORTA_PLATUTIL_H

#include <sys/types.h>

#include "sys/json.h"
#include "registry/registry.h"
#include "recipe/plan.h"
#include "sweeptest.h" /* tu_count */
#include "testutil.h"

/* aorta-run -q ARGS... (NULL-terminated) with env changes ("K=V", "K" unsets). */
int pu_aorta(char *const *args, char *const *env_changes, char **out, char **err);
/* The same started in the background, output into out_path/err_path (wait
 * for it with tu_wait). */
pid_t pu_aorta_start(char *const *args, char *const *env_changes, const char *out_path,
                     const char *err_path);
/* Wait up to seconds for path to exist. */
int pu_wait_for(const char *path, double seconds);

/* The JSON file dir/rel (asserted to parse). */
aorta_json_t *pu_json(const char *dir, const char *rel);
/* obj's member at a path of keys ("result", "metrics", "verdict", NULL);
 * a key of digits indexes an array. */
aorta_json_t *pu_at(const aorta_json_t *obj, ...);
const char *pu_str(const aorta_json_t *obj, ...);


/* A one-cell (none-none) plan of argv (NULL-terminated) into run_dir. */
aorta_plan_t *pu_plan(const char *run_dir, char *const *argv);
/* Add a cell m-d with variables "K=V" (NULL-terminated, may be NULL). */
void pu_plan_cell(aorta_plan_t *plan, const char *mitigation, const char *diagnostic,
                  char *const *vars);
/* Add collector name with options "K=V" (validated; asserted to pass),
 * keeping the list sorted by wrap_rank. */
void pu_plan_collect(aorta_plan_t *plan, const aorta_registry_t *registry, const char *name,
                     char *const *options);
void pu_plan_retain(aorta_plan_t *plan, aorta_retain_level_t on_pass, aorta_retain_level_t on_fail,
                    aorta_retain_level_t on_error);

/* Send this process's stdout to /dev/null and stderr to path (runner
 * tests, which run in a forked Check child). */
void pu_quiet(const char *stderr_path);

#endif
