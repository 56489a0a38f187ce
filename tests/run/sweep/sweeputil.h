/* SPDX-License-Identifier: MIT */
/* sweeputil.h - the sweep suites' kit (su_*): running aorta-run, reading
 * its JSON with the core's layer, and building plans by hand for the
 * runner's API.  Like tu_aorta(), the helpers that run aorta-run take the
 * environment changes first, then the arguments. */
#ifndef AORTA_SWEEPUTIL_H
#define AORTA_SWEEPUTIL_H

#include <sys/types.h>

#include "sys/json.h"
#include "registry/registry.h"
#include "recipe/plan.h"
#include "sweeptest.h" /* tu_count */
#include "testutil.h"

/* aorta-run -q ARGS... (NULL-terminated) with env changes ("K=V", "K" unsets). */
int su_aorta(char *const *env_changes, char *const *args, char **out, char **err);
/* The same started in the background, output into out_path/err_path (wait
 * for it with tu_wait). */
pid_t su_aorta_start(char *const *env_changes, char *const *args, const char *out_path,
                     const char *err_path);
/* Wait up to seconds for path to exist. */
int su_wait_for(const char *path, double seconds);

/* The JSON file dir/rel (asserted to parse). */
ar_json_t *su_json(const char *dir, const char *rel);
/* obj's member at a path of keys ("result", "metrics", "verdict", NULL);
 * a key of digits indexes an array. */
ar_json_t *su_at(const ar_json_t *obj, ...);
const char *su_str(const ar_json_t *obj, ...);


/* A one-cell (none-none) plan of argv (NULL-terminated) into run_dir. */
ar_plan_t *su_plan(const char *run_dir, char *const *argv);
/* Add a cell m-d with variables "K=V" (NULL-terminated, may be NULL). */
void su_plan_cell(ar_plan_t *plan, const char *mitigation, const char *diagnostic,
                  char *const *vars);
/* Add collector name with options "K=V" (validated; asserted to pass),
 * keeping the list in wrap order. */
void su_plan_collect(ar_plan_t *plan, const ar_registry_t *registry, const char *name,
                     char *const *options);
void su_plan_retain(ar_plan_t *plan, ar_retain_level_t on_pass, ar_retain_level_t on_fail,
                    ar_retain_level_t on_error);

/* Send this process's stdout to /dev/null and stderr to path (runner
 * tests, which run in a forked Check child). */
void su_quiet(const char *stderr_path);

#endif
