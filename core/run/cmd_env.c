/* SPDX-License-Identifier: MIT */
/* cmd_env.c - `aorta-run --env NAME DIR`: the variables collector NAME
 * would have a payload set for output directory DIR, one KEY=VALUE a line. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/diag.h"
#include "commands.h"
#include "aorta/collector.h"

int ar_cmd_env(const ar_cli_t *cli, const ar_registry_t *registry)
{
    const ar_module_t *module = NULL;
    aorta_options_t *options = NULL;
    int status = ar_cmd_collector_options(cli, registry, "--env", &module, &options);
    if (status != 0)
        return status;
    aorta_env_t *bundle = aorta_env_new();
    aorta_error_t *err = aorta_error_new();
    if (module->collector.env(options, cli->dir, bundle, err) != 0) {
        const char *message = aorta_error_message(err);
        message = message && message[0] ? message : "refused (no reason given)";
        /* Collectors usually start their messages with their name. */
        if (strncmp(message, module->name, strlen(module->name)) == 0)
            ar_diag_error("--env: %s", message);
        else
            ar_diag_error("--env: %s: %s", module->name, message);
        status = AR_EXIT_USAGE;
    } else {
        for (size_t i = 0; i < aorta_env_count(bundle); i++)
            printf("%s=%s\n", aorta_env_name_at(bundle, i), aorta_env_value_at(bundle, i));
    }
    aorta_error_free(err);
    aorta_env_free(bundle);
    aorta_options_free(options);
    return status;
}
