/* SPDX-License-Identifier: MIT */
/* cli.h - aorta-run's command line (docs/design.md, Command line). */
#ifndef AORTA_CLI_H
#define AORTA_CLI_H

#include <stddef.h>
#include <stdio.h>

typedef enum aorta_cli_mode {
    AORTA_MODE_RUN,             /* the default: a sweep over -- COMMAND */
    AORTA_MODE_DRY_RUN,
    AORTA_MODE_LIST,
    AORTA_MODE_DESCRIBE,
    AORTA_MODE_PARSE,
    AORTA_MODE_ENV,
    AORTA_MODE_CHECK,           /* --check-collector NAME [DIR] */
    AORTA_MODE_REPORT,          /* --report RUN_DIR */
    AORTA_MODE_COMPARE,         /* --compare RUN_A RUN_B */
    AORTA_MODE_HELP,
    AORTA_MODE_VERSION
} aorta_cli_mode_t;

typedef struct aorta_cli {
    aorta_cli_mode_t mode;
    char **plugin_dirs;         /* --plugin-dir, in order */
    size_t plugin_dir_count;
    const char *recipe;         /* --recipe */
    char **mitigation_files;    /* --mitigations-file, in order */
    size_t mitigation_file_count;
    const char *collect;        /* --collect, raw; NULL when absent */
    char **options;             /* --option NAME.KEY=VALUE, in order */
    size_t option_count;
    const char *output;         /* --output; NULL = default */
    const char *ticket;         /* --ticket; NULL = the recipe's */
    long trials;                /* --trials; 0 when absent */
    double timeout;             /* --timeout seconds; 0 when absent */
    long warmup;                /* --warmup N; < 0 when absent */
    int verbose;                /* -v count */
    int all_ranks;              /* --all-ranks */
    long *ranks;                /* --ranks, sorted, distinct; NULL when absent */
    size_t rank_count;
    int quiet;                  /* -q: no progress display */
    const char *collector;      /* NAME of --describe/--parse/--env/--check-collector */
    const char *dir;            /* DIR of --parse/--env; --check-collector's or NULL */
    const char *baseline;       /* --baseline CELL; NULL when absent */
    const char *run_a, *run_b;  /* --report's RUN_DIR (run_a); --compare's two */
    int json;                   /* --json: --compare prints JSON */
    double fail_above;          /* --fail-above PCT; < 0 when absent */
    double alpha;               /* --alpha; 0 when absent */
    double min_delta_ms;        /* --min-delta-ms; 0 when absent */
    int gate_step_time;         /* --gate-step-time */
    int strict;                 /* --strict */
    int allow_missing;          /* --allow-missing */
    int allow_mismatch;         /* --allow-mismatch */
    int fail_on_fail;           /* --fail-on-fail: a run with a failing trial exits 3 */
    int fresh;                  /* --fresh: empty the run directory's cells first */
    char **command;             /* after "--", NULL-terminated */
    size_t command_count;
} aorta_cli_t;


/* Parse argv.  On error returns -1 and sets *error (free it) to a one-line
 * message without the "aorta-run: " prefix. */
int aorta_cli_parse(int argc, char **argv, aorta_cli_t *cli, char **error);
void aorta_cli_free(aorta_cli_t *cli);
void aorta_cli_usage(FILE *out);

#endif
