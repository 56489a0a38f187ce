/* cmd_env.c - `aorta-run --env`. */
#include "config.h"

#include "commands.h"

int aorta_cmd_env(const aorta_cli_t *cli, const aorta_registry_t *registry)
{
    (void)cli, (void)registry;
    aorta_report("--env: not implemented yet");
    return AORTA_EXIT_USAGE;
}
