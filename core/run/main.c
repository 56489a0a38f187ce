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

static int dispatch(const ar_cli_t *cli, const ar_registry_t *registry, char *const *dirs)
{
    switch (cli->mode) {
    case AR_MODE_LIST:
        return ar_cmd_list(registry, dirs);
    case AR_MODE_DESCRIBE:
        return ar_cmd_describe(registry, cli->collector);
    case AR_MODE_DRY_RUN:
        return ar_cmd_dry_run(cli, registry);
    case AR_MODE_PARSE:
        return ar_cmd_parse(cli, registry);
    case AR_MODE_ENV:
        return ar_cmd_env(cli, registry);
    case AR_MODE_RUN:
    default:
        return ar_cmd_run(cli, registry);
    }
}

int main(int argc, char **argv)
{
    ar_cli_t cli;
    char *error = NULL;
    if (ar_cli_parse(argc, argv, &cli, &error) != 0) {
        ar_diag_error("%s", error);
        free(error);
        ar_cli_free(&cli);
        return AR_EXIT_USAGE;
    }
    if (cli.mode == AR_MODE_HELP) {
        ar_cli_usage(stdout);
        ar_cli_free(&cli);
        return AR_EXIT_OK;
    }
    if (cli.mode == AR_MODE_VERSION) {
        printf("aorta-run (%s) %s, collector ABI %d.%d\n", PACKAGE_NAME, PACKAGE_VERSION,
               AORTA_COLLECTOR_ABI_MAJOR, AORTA_COLLECTOR_ABI_MINOR);
        ar_cli_free(&cli);
        return AR_EXIT_OK;
    }
    if (cli.mode == AR_MODE_REPORT || cli.mode == AR_MODE_MERGE) {
        /* Taken between two cells, so that no temporary file is left; a
         * size limit is a loud write error, as in a run. */
        ar_spawn_block_signals();
        signal(SIGXFSZ, SIG_IGN);
    }
    if (cli.mode == AR_MODE_REPORT || cli.mode == AR_MODE_COMPARE
        || cli.mode == AR_MODE_HISTORY || cli.mode == AR_MODE_MERGE) {
        int status = cli.mode == AR_MODE_REPORT    ? ar_cmd_report(&cli)
                     : cli.mode == AR_MODE_MERGE   ? ar_cmd_merge(&cli)
                     : cli.mode == AR_MODE_HISTORY ? ar_cmd_history(&cli)
                                                   : ar_cmd_compare(&cli);
        ar_cli_free(&cli);
        fflush(stdout);
        return status;
    }
    /* Signals are taken synchronously by the trial loop (spawn.c). */
    ar_spawn_block_signals();
    /* Before any collector runs: their warnings carry aorta-run's name. */
    aorta_warning_set_handler(ar_diag_collector_warning, NULL);
    /* What a payload or a parse leaves running comes back here to be killed. */
    ar_spawn_become_subreaper();
    /* A file size limit makes writes fail with EFBIG, reported like a full
     * disk, instead of killing aorta-run without a word. */
    signal(SIGXFSZ, SIG_IGN);

    char **dirs = ar_search_path(cli.plugin_dirs, cli.plugin_dir_count);
    int status;
    if (cli.mode == AR_MODE_CHECK) {
        status = ar_cmd_check(&cli, dirs);
    } else {
        ar_registry_t *registry = ar_registry_load(dirs);
        if (cli.mode != AR_MODE_LIST)
            ar_registry_warn(registry);
        status = dispatch(&cli, registry, dirs);
        ar_registry_free(registry);
    }
    ar_search_path_free(dirs);
    ar_cli_free(&cli);
    fflush(stdout);
    return status;
}
