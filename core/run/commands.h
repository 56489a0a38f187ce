/* SPDX-License-Identifier: MIT */
/* commands.h - one function per aorta-run mode; each returns the exit status. */
#ifndef AR_COMMANDS_H
#define AR_COMMANDS_H

#include "sys/diag.h"
#include "cli.h"
#include "sys/json.h"
#include "compare/compare.h"
#include "recipe/plan.h"
#include "registry/registry.h"
#include "sweep/sweep.h"

/* Exit statuses (docs/design.md, Exit status), decided here alone. */
#define AR_EXIT_OK 0
/* What was asked is sound, but it did not come off: the environment failed
 * (the run directory cannot be made or is locked, a file cannot be written
 * or read), nothing was measured, or --check-collector found the collector
 * breaking its contract. */
#define AR_EXIT_FAILED 1
#define AR_EXIT_USAGE 2         /* anything wrong in what was asked */
/* A gate failed: --compare's (a regression past the threshold, a broken
 * candidate), a run's failing trial under --fail-on-fail. */
#define AR_EXIT_THRESHOLD 3
/* --compare reached no verdict: a headline measure's bound is not below
 * the threshold, or nothing was judged (--allow-inconclusive: 0). */
#define AR_EXIT_NO_VERDICT 4

/* dirs: the directories searched (NULL-terminated), named when none had a collector. */
int ar_cmd_list(const ar_registry_t *registry, char *const *dirs);
int ar_cmd_describe(const ar_registry_t *registry, const char *name);
int ar_cmd_run(const ar_cli_t *cli, const ar_registry_t *registry);
int ar_cmd_dry_run(const ar_cli_t *cli, const ar_registry_t *registry);
int ar_cmd_parse(const ar_cli_t *cli, const ar_registry_t *registry);
int ar_cmd_env(const ar_cli_t *cli, const ar_registry_t *registry);
/* --check-collector loads the collectors of dirs (the search path) itself:
 * in a child first, so that one crashing as it loads is a finding. */
int ar_cmd_check(const ar_cli_t *cli, char *const *dirs);
/* Seconds one step of --check-collector may take: AORTA_CHECK_TIMEOUT. */
double ar_cmd_check_timeout(void);
/* --report and --compare read run directories only: no collector is loaded. */
int ar_cmd_report(const ar_cli_t *cli);
/* --merge RUN_DIR: --report, then one line per cell with rounds missing
 * (exit 1 then) (cmd_merge.c). */
int ar_cmd_merge(const ar_cli_t *cli);
int ar_cmd_compare(const ar_cli_t *cli);
/* Gate run_b against run_a with the command line's options: the text (or,
 * with --json, the JSON) on stdout, the JSON also written to json_path
 * unless NULL; returns 0, 3 or 4, or 1 after one line when a run cannot be
 * read (cmd_compare.c). */
int ar_cmd_gate(const ar_cli_t *cli, const char *run_a, const char *run_b,
                const char *json_path);
/* The same on runs already loaded (pa, pb: their provenance, or NULL). */
int ar_cmd_gate_runs(const ar_cli_t *cli, const char *name_a, const ar_kagg_run_t *ka,
                     const ar_json_t *pa, const char *name_b, const ar_kagg_run_t *kb,
                     const ar_json_t *pb, const char *json_path);
/* The comparison options of the command line (cmd_compare.c). */
ar_compare_request_t ar_cmd_compare_request(const ar_cli_t *cli);
/* --against: before the run, whether RUN_DIR reads as a run, or
 * history:FILE holds the baseline asked for (0, or the exit status after
 * one line); after it, the run's status sweep_status combined
 * with the gate's, 2 > 1 > 130/143 > 3 > 4 > 0 (cmd_against.c). */
int ar_cmd_against_check(const ar_cli_t *cli, const ar_plan_t *plan, int dry_run);
int ar_cmd_against(const ar_cli_t *cli, const char *run_dir, int sweep_status);
/* --history (cmd_history.c): the store's own mode (--import, --list,
 * --bless LABEL); before a run, whether FILE opens as a history (0, or 2
 * after one line); after it, the run appended when it completed, the status
 * combined as above. */
int ar_cmd_history(const ar_cli_t *cli);
int ar_cmd_history_check(const ar_cli_t *cli);
int ar_cmd_history_record(const ar_cli_t *cli, const char *run_dir, int status);
/* The higher of two exit statuses in that order. */
int ar_cmd_exit_worst(int a, int b);
/* matrix.json of run_dir, or NULL after one error line (cmd_report.c). */
ar_json_t *ar_cmd_read_matrix(const char *run_dir);
/* A descriptor of run_dir, or -1 after one error line. */
int ar_cmd_open_run(const char *run_dir);

/* The "unknown collector" error of flag: names the reason when a candidate
 * failed, and the collectors available.  Returns the usage exit status
 * (cmd_unknown.c). */
int ar_cmd_unknown_collector(const ar_registry_t *registry, const char *flag,
                                const char *name);

/* The exit status of a sweep that ended so: 128 + the interrupting signal;
 * 1 when it is incomplete or no trial's command started; 3 when
 * fail_on_fail (--fail-on-fail) and a trial's verdict is "fail"; else 0
 * (cmd_run.c). */
int ar_cmd_sweep_status(const ar_sweep_end_t *end, int fail_on_fail);

/* The plan of the command line's request (recipe, --collect, ...), or the
 * exit status after reporting what is wrong (cmd_plan.c). */
int ar_cmd_build_plan(const ar_cli_t *cli, const ar_registry_t *registry,
                         ar_plan_t **plan);

/* For --parse and --env (flag names which): the collector cli->collector and
 * the options it runs with (the recipe's when it names it, else its
 * defaults; free them).  Returns 0, or the exit status after reporting. */
int ar_cmd_collector_options(const ar_cli_t *cli, const ar_registry_t *registry,
                                const char *flag, const ar_module_t **module,
                                aorta_options_t **options);

#endif
