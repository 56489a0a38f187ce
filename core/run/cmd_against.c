/* SPDX-License-Identifier: MIT */
/* cmd_against.c - --against RUN_DIR: a run that gates itself.  Before the
 * sweep, RUN_DIR must read as a run (so that a typo is not found after an
 * hour of trials); after it, every cell is gated against the same cell of
 * RUN_DIR exactly as --compare gates B against A, the text on stdout even
 * with -q and the JSON beside the run as compare.json; the exit status is
 * the worse of the run's and the gate's, 2 > 1 > 130/143 > 3 > 4 > 0
 * (docs/design.md, Exit status). */
#include "config.h"

#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Where an exit status stands in 2 > 1 > 130/143 > 3 > 4 > 0. */
static int severity(int status)
{
    switch (status) {
    case AR_EXIT_OK:
        return 0;
    case AR_EXIT_NO_VERDICT:
        return 1;
    case AR_EXIT_THRESHOLD:
        return 2;
    case AR_EXIT_FAILED:
        return 4;
    case AR_EXIT_USAGE:
        return 5;
    default:
        return 3; /* 128 + a signal */
    }
}

int ar_cmd_exit_worst(int a, int b)
{
    return severity(b) > severity(a) ? b : a;
}

static size_t cells_found(const ar_json_t *matrix, const ar_plan_t *plan)
{
    const ar_json_t *cells = ar_json_get(matrix, "cells");
    size_t found = 0;
    for (size_t c = 0; c < plan->cell_count; c++)
        for (size_t i = 0; i < ar_json_length(cells); i++) {
            const char *name = ar_json_get_string(ar_json_get(ar_json_at(cells, i), "name"));
            if (name && !strcmp(name, plan->cells[c].name)) {
                found++;
                break;
            }
        }
    return found;
}

int ar_cmd_against_check(const ar_cli_t *cli, const ar_plan_t *plan, int dry_run)
{
    if (!cli->against)
        return 0;
    ar_json_t *matrix = ar_cmd_read_matrix(cli->against);
    if (!matrix)
        return AR_EXIT_FAILED;
    if (dry_run || !plan->quiet)
        ar_diag_note("--against: every cell will be gated against the same cell of %s "
                     "(%zu of the plan's %zu cells are there)",
                     cli->against, cells_found(matrix, plan), plan->cell_count);
    ar_json_free(matrix);
    return 0;
}

int ar_cmd_against(const ar_cli_t *cli, const char *run_dir, int sweep_status)
{
    if (!cli->against)
        return sweep_status;
    /* A run that did not come off, or was stopped, has nothing to gate. */
    if (sweep_status != AR_EXIT_OK && sweep_status != AR_EXIT_THRESHOLD) {
        ar_diag_note("--against: no gate, the run did not complete");
        return sweep_status;
    }
    char *json_path = ar_xasprintf("%s/compare.json", run_dir);
    int gate = ar_cmd_gate(cli, cli->against, run_dir, json_path);
    free(json_path);
    return ar_cmd_exit_worst(sweep_status, gate);
}
