/* cmd_run.c - the run mode: build the plan, hand it to the sweep. */
#include "config.h"

#include "commands.h"
#include "recipe/plan.h"
#include "sweep/sweep.h"

int aorta_cmd_run(const aorta_cli_t *cli, const aorta_registry_t *registry)
{
    aorta_plan_t *plan = NULL;
    int status = aorta_cmd_build_plan(cli, registry, &plan);
    if (status != 0)
        return status;
    status = aorta_sweep_run(plan);
    aorta_plan_free(plan);
    return status;
}
