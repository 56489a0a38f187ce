/* SPDX-License-Identifier: MIT */
/* cmd_run.c - the run mode: build the plan, hand it to the sweep. */
#include "config.h"

#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "recipe/plan.h"
#include "sweep/sweep.h"
#include "xalloc.h"

int aorta_cmd_run(const aorta_cli_t *cli, const aorta_registry_t *registry)
{
    aorta_plan_t *plan = NULL;
    int status = aorta_cmd_build_plan(cli, registry, &plan);
    if (status != 0)
        return status;
    if (cli->baseline) {
        size_t i = 0;
        while (i < plan->cell_count && strcmp(plan->cells[i].name, cli->baseline) != 0)
            i++;
        if (i == plan->cell_count) {
            aorta_diag_error("--baseline: the plan has no cell '%s'", cli->baseline);
            aorta_plan_free(plan);
            return AORTA_EXIT_USAGE;
        }
        free(plan->kernel_baseline);
        plan->kernel_baseline = aorta_xstrdup(cli->baseline);
    }
    aorta_sweep_end_t end;
    aorta_sweep_run(plan, &end);
    aorta_plan_free(plan);
    return aorta_cmd_sweep_status(&end, cli->fail_on_fail);
}

int aorta_cmd_sweep_status(const aorta_sweep_end_t *end, int fail_on_fail)
{
    if (end->interrupted)
        return 128 + end->interrupted;
    /* Stale trials in the run directory: what was asked cannot be resumed. */
    if (end->stale)
        return AORTA_EXIT_USAGE;
    /* 1 wins over 3: a run that did not come off says so before any gate. */
    if (end->incomplete || end->nothing_measured)
        return AORTA_EXIT_FAILED;
    if (fail_on_fail && end->failed_trials > 0)
        return AORTA_EXIT_THRESHOLD;
    return AORTA_EXIT_OK;
}
