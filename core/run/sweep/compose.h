/* SPDX-License-Identifier: MIT */
/* compose.h - turning the user's command into the argv a trial runs:
 * collectors wrap in wrap order, innermost first (the highest wrap_rank),
 * then aorta-rank-exec and the launcher go outside all of them. */
#ifndef AR_COMPOSE_H
#define AR_COMPOSE_H

#include "aorta/collector.h"
#include "recipe/plan.h"

/* Wrap command for one trial.  run_dir is the (absolute) run directory,
 * collect_rel the trial's collector directory below it
 * ("<cell>/_subprocess/trial_d0_m0_t<t>"); collector NAME writes into
 * <run_dir>/<collect_rel>/NAME.  With prepare set, each of those directories
 * is made empty first (no symlink followed; one in the way is refused);
 * without it (a dry run) nothing is written.  child_env is the environment
 * the command will run with.
 *
 * Under the recipe's launcher (and with at least one collector), each
 * collector writes into NAME/rank%AORTA_RANK% and the launcher runs
 * aorta-rank-exec, which creates that directory for the rank it finds and
 * fills the rank in (docs/design.md, Multi-rank runs); it is a setup
 * failure when the helper cannot be found.  With self_rank >= 0 (aorta-run
 * is rank self_rank of an --all-ranks run): no launcher, each collector
 * writes into NAME/rank<self_rank>, and only that directory is emptied;
 * otherwise self_rank is -1.  With chosen ranks (plan->ranks), a
 * self_rank not among them gets the command bare (its stale rank<k>/
 * removed when preparing), and under the launcher aorta-rank-exec is told
 * the list and where the bare command starts (--ranks, --bare-at,
 * --wrapped-end).
 *
 * Returns 0 with *out set (free it), or -1 with *error set to a one-line
 * setup failure (free it). */
int ar_compose(const ar_plan_t *plan, const aorta_argv_t *command, const char *run_dir,
                  const char *collect_rel, const aorta_env_t *child_env, int prepare,
                  long self_rank, aorta_argv_t **out, char **error);

/* Why the command's program cannot be started, or NULL when it can (as
 * far as can be told here): a name without '/' not found on path_value
 * (the PATH the command runs with; NULL: the default one), a path that
 * does not exist, is a directory or is not executable.  Under the recipe's
 * launcher it is the launcher's to find (perhaps on another node): NULL.
 * A trial whose program is missing starts no profiler (docs/design.md).
 * One line without a trailing period; free it. */
char *ar_compose_command_missing(const ar_plan_t *plan, const char *path_value);

#endif
