/* cmd_parse.c - `aorta-run --parse`. */
#include "config.h"

#include "commands.h"

int aorta_cmd_parse(const aorta_cli_t *cli, const aorta_registry_t *registry)
{
    (void)cli, (void)registry;
    aorta_report("--parse: not implemented yet");
    return AORTA_EXIT_USAGE;
}
