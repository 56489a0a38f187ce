/* SPDX-License-Identifier: MIT */
/* main.c - aorta-run: parse the command line, load collectors, dispatch. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "sys/diag.h"
#include "cli.h"
#include "commands.h"
#include "registry/registry.h"
#include "sys/spawn.h"

static int dispatch(const aorta_cli_t *cli, const aorta_registry_t *registry, char *const *dirs)
{
    switch (cli->mode) {
    case AORTA_MODE_LIST:
        return aorta_cmd_list(registry, dirs);
    case AORTA_MODE_DESCRIBE:
        return aorta_cmd_describe(registry, cli->collector);
    case AORTA_MODE_DRY_RUN:
        return aorta_cmd_dry_run(cli, registry);
    case AORTA_MODE_PARSE:
        return aorta_cmd_parse(cli, registry);
    case AORTA_MODE_ENV:
        return aorta_cmd_env(cli, registry);
    case AORTA_MODE_RUN:
    default:
        return aorta_cmd_run(cli, registry);
    }
}

int main(int argc, char **argv)
{
    aorta_cli_t cli;
    char *error = NULL;
    if (aorta_cli_parse(argc, argv, &cli, &error) != 0) {
        aorta_diag_error("%s", error);
        free(error);
        aorta_cli_free(&cli);
        return AORTA_EXIT_USAGE;
    }
    if (cli.mode == AORTA_MODE_HELP) {
        aorta_cli_usage(stdout);
        aorta_cli_free(&cli);
        return AORTA_EXIT_OK;
    }
    if (cli.mode == AORTA_MODE_VERSION) {
        printf("aorta-run (%s) %s, collector ABI %d.%d\n", PACKAGE_NAME, PACKAGE_VERSION,
               AORTA_COLLECTOR_ABI_MAJOR, AORTA_COLLECTOR_ABI_MINOR);
        aorta_cli_free(&cli);
        return AORTA_EXIT_OK;
    }
    if (cli.mode == AORTA_MODE_REPORT) {
        /* Taken between two cells, so that no temporary file is left; a
         * size limit is a loud write error, as in a run. */
        aorta_spawn_block_signals();
        signal(SIGXFSZ, SIG_IGN);
    }
    if (cli.mode == AORTA_MODE_REPORT || cli.mode == AORTA_MODE_COMPARE) {
        int status = cli.mode == AORTA_MODE_REPORT ? aorta_cmd_report(&cli)
                                                   : aorta_cmd_compare(&cli);
        aorta_cli_free(&cli);
        fflush(stdout);
        return status;
    }
    /* Signals are taken synchronously by the trial loop (spawn.c). */
    aorta_spawn_block_signals();
    /* Before any collector runs: their warnings carry aorta-run's name. */
    aorta_warning_set_handler(aorta_diag_collector_warning, NULL);
    /* What a payload or a parse leaves running comes back here to be killed. */
    aorta_spawn_become_subreaper();
    /* A file size limit makes writes fail with EFBIG, reported like a full
     * disk, instead of killing aorta-run without a word. */
    signal(SIGXFSZ, SIG_IGN);

    char **dirs = aorta_search_path(cli.plugin_dirs, cli.plugin_dir_count);
    int status;
    if (cli.mode == AORTA_MODE_CHECK) {
        status = aorta_cmd_check(&cli, dirs);
    } else {
        aorta_registry_t *registry = aorta_registry_load(dirs);
        if (cli.mode != AORTA_MODE_LIST)
            aorta_registry_warn(registry);
        status = dispatch(&cli, registry, dirs);
        aorta_registry_free(registry);
    }
    aorta_search_path_free(dirs);
    aorta_cli_free(&cli);
    fflush(stdout);
    return status;
}
