/* SPDX-License-Identifier: MIT */
/* cmd_run.c - the run mode: build the plan, hand it to the sweep. */
#include "config.h"

#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "compare/power_text.h"
#include "recipe/plan.h"
#include "sys/diag.h"
#include "sweep/sweep.h"
#include "xalloc.h"

int ar_cmd_run(const ar_cli_t *cli, const ar_registry_t *registry)
{
    ar_plan_t *plan = NULL;
    int status = ar_cmd_build_plan(cli, registry, &plan);
    if (status != 0)
        return status;
    if (cli->baseline) {
        size_t i = 0;
        while (i < plan->cell_count && strcmp(plan->cells[i].name, cli->baseline) != 0)
            i++;
        if (i == plan->cell_count) {
            ar_diag_error("--baseline: the plan has no cell '%s'", cli->baseline);
            ar_plan_free(plan);
            return AR_EXIT_USAGE;
        }
        free(plan->kernel_baseline);
        plan->kernel_baseline = ar_xstrdup(cli->baseline);
    }
    plan->summary_to_stderr = cli->against && cli->json;
    status = ar_cmd_against_check(cli, plan, 0);
    if (status == 0)
        status = ar_cmd_history_check(cli);
    if (status != 0) {
        ar_plan_free(plan);
        return status;
    }
    if (!plan->quiet && plan->collector_count) { /* what the design can decide of GPU time */
        ar_stats_options_t options = AR_STATS_OPTIONS_INIT;
        char *design = ar_power_statement(plan, &options);
        ar_diag_note("%s", design);
        free(design);
    }
    ar_sweep_end_t end;
    ar_sweep_run(plan, &end);
    char *run_dir = ar_xstrdup(plan->run_dir);
    ar_plan_free(plan);
    status = ar_cmd_against(cli, run_dir, ar_cmd_sweep_status(&end, cli->fail_on_fail));
    /* After the gate: a baseline read from the history is never this run. */
    status = ar_cmd_history_record(cli, run_dir, status);
    free(run_dir);
    return status;
}

int ar_cmd_sweep_status(const ar_sweep_end_t *end, int fail_on_fail)
{
    if (end->interrupted)
        return 128 + end->interrupted;
    /* Stale trials in the run directory: what was asked cannot be resumed. */
    if (end->stale || end->refused)
        return AR_EXIT_USAGE;
    /* 1 wins over 3: a run that did not come off says so before any gate. */
    if (end->incomplete || end->nothing_measured)
        return AR_EXIT_FAILED;
    if (fail_on_fail && end->failed_trials > 0)
        return AR_EXIT_THRESHOLD;
    return AR_EXIT_OK;
}
