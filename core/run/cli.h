/* SPDX-License-Identifier: MIT */
/* cli.h - aorta-run's command line (docs/design.md, Command line). */
#ifndef AR_CLI_H
#define AR_CLI_H

#include <stddef.h>
#include <stdio.h>

typedef enum ar_cli_mode {
    AR_MODE_RUN,             /* the default: a sweep over -- COMMAND */
    AR_MODE_DRY_RUN,
    AR_MODE_LIST,
    AR_MODE_DESCRIBE,
    AR_MODE_PARSE,
    AR_MODE_ENV,
    AR_MODE_CHECK,           /* --check-collector NAME [DIR] */
    AR_MODE_REPORT,          /* --report RUN_DIR */
    AR_MODE_MERGE,           /* --merge RUN_DIR: --report of a run made in parts */
    AR_MODE_COMPARE,         /* --compare RUN_A RUN_B */
    AR_MODE_HISTORY,         /* --history FILE with --import, --list or --bless LABEL */
    AR_MODE_HELP,
    AR_MODE_VERSION
} ar_cli_mode_t;

typedef struct ar_cli {
    ar_cli_mode_t mode;
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
    const char *run_a, *run_b;  /* --report's and --merge's RUN_DIR (run_a); --compare's two */
    int json;                   /* --json: --compare prints JSON */
    double fail_above;          /* --fail-above PCT; < 0 when absent */
    double alpha;               /* --alpha; 0 when absent */
    double min_delta_ms;        /* --min-delta-ms; 0 when absent */
    int gate_step_time;         /* --gate-step-time */
    int strict;                 /* --strict (the default) */
    double gate_kernels_pct;    /* --gate-kernels-above PCT; < 0 when absent */
    int allow_inconclusive;     /* --allow-inconclusive */
    int show_all;               /* --all */
    int allow_missing;          /* --allow-missing */
    int allow_mismatch;         /* --allow-mismatch */
    const char *html_file;      /* --html FILE: --compare's page; NULL when absent */
    const char *markdown_file;  /* --markdown FILE: its pull-request summary */
    const char *junit_file;     /* --junit FILE: its JUnit XML */
    int fail_on_fail;           /* --fail-on-fail: a run with a failing trial exits 3 */
    int fresh;                  /* --fresh: empty the run directory's cells first */
    char **cell_globs;          /* --cells PATTERN..., NULL-terminated; NULL when absent */
    size_t cell_glob_count;
    long round_first, round_last; /* --rounds A-B, 1-based inclusive; 0 when absent */
    const char *order;          /* --order interleaved|sequential|random; NULL when absent */
    const char *against;        /* --against RUN_DIR: gate the run against it; NULL when absent */
    const char *history;        /* --history FILE; NULL when absent */
    const char *label;          /* --label TEXT: the run's in the history */
    int bless;                  /* --bless: the run becomes its cells' baseline */
    const char *bless_label;    /* --bless LABEL (without a run) */
    char **imports;             /* --import RUN_DIR..., NULL-terminated */
    size_t import_count;
    int history_list;           /* --list */
    double arm_after;           /* --arm-after K; 0 when absent (AR_ARM_AFTER) */
    char **command;             /* after "--", NULL-terminated */
    size_t command_count;
} ar_cli_t;


/* Parse argv.  On error returns -1 and sets *error (free it) to a one-line
 * message without the "aorta-run: " prefix. */
int ar_cli_parse(int argc, char **argv, ar_cli_t *cli, char **error);
void ar_cli_free(ar_cli_t *cli);
void ar_cli_usage(FILE *out);

#endif
