/* SPDX-License-Identifier: MIT */
/* commands.h - one function per aorta-run mode; each returns the exit status. */
#ifndef AORTA_COMMANDS_H
#define AORTA_COMMANDS_H

#include "sys/diag.h"
#include "cli.h"
#include "sys/json.h"
#include "recipe/plan.h"
#include "registry/registry.h"
#include "sweep/sweep.h"

/* Exit statuses (docs/design.md, Exit status), decided here alone. */
#define AORTA_EXIT_OK 0
/* What was asked is sound, but it did not come off: the environment failed
 * (the run directory cannot be made or is locked, a file cannot be written
 * or read), nothing was measured, or --check-collector found the collector
 * breaking its contract. */
#define AORTA_EXIT_FAILED 1
#define AORTA_EXIT_USAGE 2         /* anything wrong in what was asked */
/* A gate failed: --compare's (--fail-above, --strict), a run's failing
 * trial under --fail-on-fail. */
#define AORTA_EXIT_THRESHOLD 3

/* dirs: the directories searched (NULL-terminated), named when none had a collector. */
int aorta_cmd_list(const aorta_registry_t *registry, char *const *dirs);
int aorta_cmd_describe(const aorta_registry_t *registry, const char *name);
int aorta_cmd_run(const aorta_cli_t *cli, const aorta_registry_t *registry);
int aorta_cmd_dry_run(const aorta_cli_t *cli, const aorta_registry_t *registry);
int aorta_cmd_parse(const aorta_cli_t *cli, const aorta_registry_t *registry);
int aorta_cmd_env(const aorta_cli_t *cli, const aorta_registry_t *registry);
/* --check-collector loads the collectors of dirs (the search path) itself:
 * in a child first, so that one crashing as it loads is a finding. */
int aorta_cmd_check(const aorta_cli_t *cli, char *const *dirs);
/* --report and --compare read run directories only: no collector is loaded. */
int aorta_cmd_report(const aorta_cli_t *cli);
int aorta_cmd_compare(const aorta_cli_t *cli);
/* matrix.json of run_dir, or NULL after one error line (cmd_report.c). */
aorta_json_t *aorta_cmd_read_matrix(const char *run_dir);
/* A descriptor of run_dir, or -1 after one error line. */
int aorta_cmd_open_run(const char *run_dir);

/* The "unknown collector" error of flag: names the reason when a candidate
 * failed, and the collectors available.  Returns the usage exit status
 * (cmd_unknown.c). */
int aorta_cmd_unknown_collector(const aorta_registry_t *registry, const char *flag,
                                const char *name);

/* The exit status of a sweep that ended so: 128 + the interrupting signal;
 * 1 when it is incomplete or no trial's command started; 3 when
 * fail_on_fail (--fail-on-fail) and a trial's verdict is "fail"; else 0
 * (cmd_run.c). */
int aorta_cmd_sweep_status(const aorta_sweep_end_t *end, int fail_on_fail);

/* The plan of the command line's request (recipe, --collect, ...), or the
 * exit status after reporting what is wrong (cmd_plan.c). */
int aorta_cmd_build_plan(const aorta_cli_t *cli, const aorta_registry_t *registry,
                         aorta_plan_t **plan);

/* For --parse and --env (flag names which): the collector cli->collector and
 * the options it runs with (the recipe's when it names it, else its
 * defaults; free them).  Returns 0, or the exit status after reporting. */
int aorta_cmd_collector_options(const aorta_cli_t *cli, const aorta_registry_t *registry,
                                const char *flag, const aorta_module_t **module,
                                aorta_options_t **options);

#endif
