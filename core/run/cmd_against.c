/* SPDX-License-Identifier: MIT */
/* cmd_against.c - --against RUN_DIR or history:FILE[@last|@median-of-N]: a
 * run that gates itself.  Before the sweep the baseline must read (a typo
 * is not found after an hour of trials); after it, every cell is gated as
 * --compare gates B against A (history/history_baseline.c rebuilds a
 * stored side), the text on stdout even with -q, the JSON as compare.json;
 * a store arms a measure after --arm-after K records ("recording k of K",
 * exit 0).  Exit: the worse of run and gate, 2 > 1 > 130/143 > 3 > 4 > 0. */
#include "config.h"

#include "commands.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "history/history_baseline.h"
#include "history/history_run.h"
#include "xalloc.h"

/* --arm-after's default: the records a measure needs before it is gated. */
#define AR_ARM_AFTER 5
#define HISTORY_PREFIX "history:"

static size_t arm_after(const ar_cli_t *cli)
{
    return cli->arm_after >= 1 ? (size_t)cli->arm_after : AR_ARM_AFTER;
}

/* --against history:FILE's baseline of scope: 0 built, 1 when nothing is
 * armed (out->fewest), -1 after one line.  A store that --history starts
 * in this very run is recording its first run. */
static int history_baseline(const ar_cli_t *cli, const char *scope, ar_history_baseline_t *out)
{
    ar_history_target_t target;
    char *error = NULL;
    int status = -1;
    struct stat st;
    memset(out, 0, sizeof *out);
    if (ar_history_target_parse(cli->against + strlen(HISTORY_PREFIX), &target, &error) != 0) {
        /* error says what */
    } else if (stat(target.file, &st) != 0 && cli->history && !strcmp(cli->history, target.file)) {
        status = 1;
    } else if (stat(target.file, &st) != 0) {
        error = ar_xasprintf("--against history:%s: no such history file (a first run starts it "
                             "with --history %s)",
                             target.file, target.file);
    } else {
        ar_history_t *history = ar_history_open(target.file, 0, &error);
        if (history)
            status = ar_history_baseline(history, scope, &target, arm_after(cli), out, &error);
        ar_history_close(history);
    }
    if (status < 0)
        ar_diag_error("%s", error);
    free(error);
    ar_history_target_clear(&target);
    return status;
}

/* "recording k of K": nothing is gated yet. */
static void show_recording(const ar_cli_t *cli, const ar_history_baseline_t *base)
{
    FILE *out = cli->json ? stderr : stdout;
    fprintf(out, "recording %zu of %zu (%s: no measure has %zu records yet; nothing gated)\n",
            base->fewest, arm_after(cli), cli->against, arm_after(cli));
    fflush(out);
}

static int history_check(const ar_cli_t *cli, const ar_plan_t *plan, int dry_run)
{
    const char **names = ar_xcalloc(plan->cell_count + 1, sizeof *names);
    for (size_t c = 0; c < plan->cell_count; c++)
        names[c] = plan->cells[c].name;
    char *scope = ar_history_scope(names, plan->cell_count);
    ar_history_baseline_t base;
    int status = history_baseline(cli, scope, &base);
    if (status == 1 && (dry_run || !plan->quiet))
        ar_diag_note("--against: %s is recording (%zu of %zu records a measure): this run is "
                     "not gated",
                     cli->against, base.fewest, arm_after(cli));
    else if (status == 0 && (dry_run || !plan->quiet))
        ar_diag_note("--against: every cell will be gated against %s of %s", base.what,
                     cli->against);
    ar_history_baseline_clear(&base);
    free(scope);
    free(names);
    return status < 0 ? AR_EXIT_USAGE : 0;
}

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
    if (!strncmp(cli->against, HISTORY_PREFIX, strlen(HISTORY_PREFIX)))
        return history_check(cli, plan, dry_run);
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

/* The run gathered as the history keeps it, gated against the store's
 * baseline of its cells; the measures not armed yet are named. */
static int history_gate(const ar_cli_t *cli, const char *run_dir, const char *json_path)
{
    ar_history_gathered_t g;
    char *error = NULL;
    if (ar_history_gather(run_dir, &g, &error) != 0) {
        ar_diag_error("--against: %s", error);
        free(error);
        return AR_EXIT_FAILED;
    }
    ar_history_baseline_t base;
    int status = history_baseline(cli, g.run.scope, &base);
    if (status == 1) {
        show_recording(cli, &base);
        status = AR_EXIT_OK;
    } else if (status == 0) {
        ar_json_t *pa = base.provenance
                            ? ar_json_parse(base.provenance, strlen(base.provenance), 64)
                            : NULL;
        ar_json_t *pb = ar_json_parse(g.run.provenance, strlen(g.run.provenance), 64);
        char *name = ar_xasprintf("%s (%s)", cli->against, base.what);
        status = ar_cmd_gate_runs(cli, name, &base.run, pa, run_dir, &g.kagg, pb, json_path);
        if (base.unarmed)
            fprintf(cli->json ? stderr : stdout, "not armed yet (fewer than %zu records): %s\n",
                    arm_after(cli), base.unarmed_names);
        free(name);
        ar_json_free(pa);
        ar_json_free(pb);
    } else {
        status = AR_EXIT_USAGE;
    }
    ar_history_baseline_clear(&base);
    ar_history_gathered_clear(&g);
    return status;
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
    int gate = strncmp(cli->against, HISTORY_PREFIX, strlen(HISTORY_PREFIX))
                   ? ar_cmd_gate(cli, cli->against, run_dir, json_path)
                   : history_gate(cli, run_dir, json_path);
    free(json_path);
    return ar_cmd_exit_worst(sweep_status, gate);
}
