/* SPDX-License-Identifier: MIT */
/* cmd_compare.c - --compare RUN_A RUN_B [--json] [--fail-above PCT]
 * [--alpha A] [--min-delta-ms MS] [--gate-step-time] [--gate-kernels-above
 * PCT] [--allow-inconclusive] [--allow-missing] [--allow-mismatch] [--all]
 * [--html FILE] [--markdown FILE] [--junit FILE]: exit 0 when the gate
 * passed, 3 when it failed, 4 without a verdict; 1 when a file asked for
 * cannot be written. */
#include "config.h"

#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/ci_outputs.h"
#include "compare/compare.h"
#include "kernels/kernel_agg.h"
#include "sys/diag.h"
#include "sys/files.h"

/* Both runs' cells with their samples, and their provenance (NULL when a
 * run has none: written before it was recorded); 0, or -1 after one line. */
static int load_runs(const char *run_a, const char *run_b, ar_kagg_run_t *ka,
                     ar_kagg_run_t *kb, ar_json_t **pa, ar_json_t **pb)
{
    ar_json_t *a = ar_cmd_read_matrix(run_a);
    ar_json_t *b = a ? ar_cmd_read_matrix(run_b) : NULL;
    int fd_a = b ? ar_cmd_open_run(run_a) : -1;
    int fd_b = fd_a >= 0 ? ar_cmd_open_run(run_b) : -1;
    if (fd_b >= 0) {
        ar_kagg_load(fd_a, run_a, a, NULL, ka);
        ar_kagg_load(fd_b, run_b, b, NULL, kb);
        close(fd_b);
        const ar_json_t *va = ar_json_get(a, "provenance");
        const ar_json_t *vb = ar_json_get(b, "provenance");
        *pa = va ? ar_json_ref((ar_json_t *)va) : NULL;
        *pb = vb ? ar_json_ref((ar_json_t *)vb) : NULL;
    }
    if (fd_a >= 0)
        close(fd_a);
    ar_json_free(a);
    ar_json_free(b);
    return fd_b >= 0 ? 0 : -1;
}

ar_compare_request_t ar_cmd_compare_request(const ar_cli_t *cli)
{
    ar_compare_request_t request = {0};
    request.verdicts.stats = (ar_stats_options_t)AR_STATS_OPTIONS_INIT;
    if (cli->alpha > 0)
        request.verdicts.stats.alpha = cli->alpha;
    if (cli->fail_above >= 0)
        request.verdicts.stats.threshold_pct = cli->fail_above;
    request.verdicts.stats.min_delta = cli->min_delta_ms;
    request.verdicts.gate_step_time = cli->gate_step_time;
    request.verdicts.kernels = 1;
    request.verdicts.gate_kernels_pct =
        cli->gate_kernels_pct >= 0 ? cli->gate_kernels_pct : AR_GATE_KERNELS_PCT;
    request.verdicts.kernels_shown = AR_COMPARE_KERNELS_KEPT;
    request.allow_inconclusive = cli->allow_inconclusive;
    request.allow_missing = cli->allow_missing;
    request.allow_mismatch = cli->allow_mismatch;
    return request;
}

/* text, freed, to path whole or not at all; 0, or -1 after one line. */
static int write_output(const char *option, const char *path, char *text)
{
    int rc = ar_write_file_atomic(path, text, strlen(text));
    int saved = errno;
    free(text);
    if (rc != 0)
        ar_diag_error("%s %s: cannot write it: %s", option, path, strerror(saved));
    return rc;
}

/* The CI outputs asked for; 0, or -1 when one could not be written. */
static int write_outputs(const ar_cli_t *cli, const ar_json_t *cmp, const ar_json_t *pa,
                         const ar_json_t *pb)
{
    int rc = 0;
    if (cli->html_file && write_output("--html", cli->html_file, ar_compare_html(cmp, pa, pb)))
        rc = -1;
    if (cli->markdown_file
        && write_output("--markdown", cli->markdown_file, ar_compare_markdown(cmp)))
        rc = -1;
    if (cli->junit_file && write_output("--junit", cli->junit_file, ar_compare_junit(cmp)))
        rc = -1;
    return rc;
}

/* The comparison written (json_path) and shown: JSON with --json, else
 * the text. */
static void show(const ar_cli_t *cli, const ar_json_t *cmp, const char *json_path)
{
    if (json_path && ar_json_write_file(json_path, cmp) != 0)
        ar_diag_warn("cannot write %s: %s", json_path, strerror(errno));
    if (cli->json)
        ar_json_print(stdout, cmp, 1);
    else
        ar_compare_print(stdout, cmp, cli->show_all);
    fflush(stdout);
}

int ar_cmd_gate_runs(const ar_cli_t *cli, const char *name_a, const ar_kagg_run_t *ka,
                     const ar_json_t *pa, const char *name_b, const ar_kagg_run_t *kb,
                     const ar_json_t *pb, const char *json_path)
{
    ar_compare_request_t request = ar_cmd_compare_request(cli);
    request.provenance_a = pa;
    request.provenance_b = pb;
    char *error = NULL;
    ar_json_t *cmp = ar_compare(name_a, ka, name_b, kb, &request, &error);
    int status = AR_EXIT_FAILED;
    if (!cmp) {
        ar_diag_error("--compare: %s", error);
        free(error);
    } else {
        show(cli, cmp, json_path);
        status = ar_compare_exit_status(cmp);
        if (write_outputs(cli, cmp, pa, pb) != 0)
            status = AR_EXIT_FAILED;
        ar_json_free_spread(cmp, "cells");
    }
    return status;
}

int ar_cmd_gate(const ar_cli_t *cli, const char *run_a, const char *run_b,
                const char *json_path)
{
    ar_kagg_run_t ka = {0}, kb = {0};
    ar_json_t *pa = NULL, *pb = NULL;
    if (load_runs(run_a, run_b, &ka, &kb, &pa, &pb) != 0)
        return AR_EXIT_FAILED;
    int status = ar_cmd_gate_runs(cli, run_a, &ka, pa, run_b, &kb, pb, json_path);
    ar_kagg_run_clear(&ka);
    ar_kagg_run_clear(&kb);
    ar_json_free(pa);
    ar_json_free(pb);
    return status;
}

int ar_cmd_compare(const ar_cli_t *cli)
{
    return ar_cmd_gate(cli, cli->run_a, cli->run_b, NULL);
}
