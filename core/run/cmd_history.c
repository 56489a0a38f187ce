/* SPDX-License-Identifier: MIT */
/* cmd_history.c - --history FILE: --import RUN_DIR..., --list, --bless
 * LABEL, and the records a run appends once it is complete (docs/design.md,
 * History).  The store is history/history.c's; a file that is no history
 * (not SQLite, another program's, a newer schema) is one line, exit 2. */
#include "config.h"

#include "commands.h"

#include <stdlib.h>

#include "history/history.h"
#include "history/history_run.h"

/* Gather run_dir and append it; 0, or the exit status after one line. */
static int append_run(const ar_cli_t *cli, ar_history_t *history, const char *run_dir,
                      int bless)
{
    ar_history_gathered_t g;
    char *error = NULL;
    if (ar_history_gather(run_dir, &g, &error) != 0) {
        ar_diag_error("--history: %s", error);
        free(error);
        return AR_EXIT_FAILED;
    }
    g.run.label = cli->label;
    int added = ar_history_append(history, &g.run, g.records, g.count, bless, &error);
    if (added < 0) {
        ar_diag_error("%s", error);
        free(error);
    } else if (added == 1) {
        ar_diag_note("--history: %s is stored already; nothing added", run_dir);
    } else if (!cli->quiet) {
        ar_diag_note("--history: %s added to %s (%zu records%s)", run_dir, cli->history,
                     g.count, bless ? ", blessed" : "");
    }
    ar_history_gathered_clear(&g);
    return added < 0 ? AR_EXIT_FAILED : AR_EXIT_OK;
}

static ar_history_t *open_store(const ar_cli_t *cli, int create)
{
    char *error = NULL;
    ar_history_t *history = ar_history_open(cli->history, create, &error);
    if (!history) {
        ar_diag_error("%s", error);
        free(error);
    }
    return history;
}

int ar_cmd_history_check(const ar_cli_t *cli)
{
    if (!cli->history)
        return 0;
    ar_history_t *history = open_store(cli, 1);
    ar_history_close(history);
    return history ? 0 : AR_EXIT_USAGE;
}

int ar_cmd_history_record(const ar_cli_t *cli, const char *run_dir, int status)
{
    if (!cli->history)
        return status;
    /* Only a complete run is a record: a stopped or failed one is not. */
    if (status != AR_EXIT_OK && status != AR_EXIT_THRESHOLD && status != AR_EXIT_NO_VERDICT) {
        ar_diag_note("--history: the run did not complete; nothing recorded");
        return status;
    }
    ar_history_t *history = open_store(cli, 1);
    int recorded = history ? append_run(cli, history, run_dir, cli->bless) : AR_EXIT_FAILED;
    ar_history_close(history);
    return ar_cmd_exit_worst(status, recorded);
}

int ar_cmd_history(const ar_cli_t *cli)
{
    ar_history_t *history = open_store(cli, cli->import_count || cli->bless_label);
    if (!history)
        return AR_EXIT_USAGE;
    int status = AR_EXIT_OK;
    for (size_t i = 0; i < cli->import_count; i++)
        status = ar_cmd_exit_worst(status, append_run(cli, history, cli->imports[i], 0));
    char *error = NULL;
    if (status == AR_EXIT_OK && cli->bless_label
        && ar_history_bless(history, cli->bless_label, &error) != 0)
        status = AR_EXIT_FAILED;
    if (status == AR_EXIT_OK && cli->history_list && ar_history_list(history, stdout, &error) != 0)
        status = AR_EXIT_FAILED;
    if (error) {
        ar_diag_error("%s", error);
        free(error);
    }
    ar_history_close(history);
    return status;
}
