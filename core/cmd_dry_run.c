/* cmd_dry_run.c - `aorta-run --dry-run`. */
#include "config.h"

#include "commands.h"

int aorta_cmd_dry_run(const aorta_cli_t *cli, const aorta_registry_t *registry)
{
    (void)cli, (void)registry;
    aorta_report("--dry-run: not implemented yet");
    return AORTA_EXIT_USAGE;
}
