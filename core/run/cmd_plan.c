/* SPDX-License-Identifier: MIT */
/* cmd_plan.c - the command line's request turned into a plan, for the modes
 * that need one (run, --dry-run, and --parse/--env with a recipe).  The plan
 * knows nothing of the command line; this is where a plan error becomes an
 * exit status. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sys/diag.h"
#include "commands.h"
#include "recipe/plan.h"

int aorta_cmd_build_plan(const aorta_cli_t *cli, const aorta_registry_t *registry,
                         aorta_plan_t **plan)
{
    aorta_plan_request_t request = {
        .recipe = cli->recipe,
        .mitigation_files = cli->mitigation_files,
        .mitigation_file_count = cli->mitigation_file_count,
        .collect = cli->collect,
        .options = cli->options,
        .option_count = cli->option_count,
        .output = cli->output,
        .ticket = cli->ticket,
        .trials = cli->trials,
        .timeout = cli->timeout,
        .warmup_given = cli->warmup >= 0,
        .warmup = cli->warmup,
        .verbose = cli->verbose,
        .all_ranks = cli->all_ranks,
        .quiet = cli->quiet,
        .fresh = cli->fresh,
        .command = cli->command,
        .command_count = cli->command_count,
    };
    char *error = NULL;
    if (aorta_plan_build(&request, registry, plan, &error) == 0)
        return AORTA_EXIT_OK;
    aorta_diag_error("%s", error);
    free(error);
    return AORTA_EXIT_USAGE;
}
