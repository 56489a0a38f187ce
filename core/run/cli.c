/* SPDX-License-Identifier: MIT */
/* cli.c - aorta-run's command line (docs/design.md, Command line).  Everything after the
 * first "--" is the command, never parsed; options go before it. */
#include "config.h"

#include "cli.h"
#include "recipe/plan.h" /* AR_DEFAULT_OUTPUT */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history/history.h"
#include "sys/rank_list.h"
#include "sys/suggest.h"
#include "xalloc.h"

/* The history's options (docs/design.md, History). */
/* The options of --compare (and of the gate --against runs). */
static void usage_compare(FILE *out)
{
    fputs(
        "  --json                   --compare: print JSON instead of text\n"
        "  --fail-above PCT         --compare: the threshold delta (default 5%); exit 3\n"
        "                           when a gated measure regressed past it or B is broken,\n"
        "                           4 (no verdict) when a GPU time's bound is not below it\n"
        "  --alpha A                --compare: the significance level (default 0.01)\n"
        "  --min-delta-ms MS        --compare: a change smaller than MS never regresses\n"
        "  --gate-step-time         --compare: gate the step time (wall clock) too\n"
        "  --gate-kernels-above PCT --compare: gate a kernel holding PCT% of its cell's GPU\n"
        "                           time (default 1)\n"
        "  --strict                 --compare: the default: no verdict exits 4\n"
        "  --allow-inconclusive     --compare: no verdict exits 0, naming the largest bound\n"
        "  --allow-missing          --compare: a cell or collector missing from B, or one\n"
        "                           that captured nothing, passes\n"
        "  --allow-mismatch         --compare: judge and gate runs of another profiler\n"
        "                           version, options, cell variables or GPU too\n"
        "  --all                    --compare: show every measure, not only gated and\n"
        "                           changed ones\n"
        "  --html FILE              --compare: also write a self-contained page to FILE\n"
        "  --markdown FILE          --compare: also write a pull-request summary to FILE\n"
        "  --junit FILE             --compare: also write JUnit XML to FILE (a test case\n"
        "                           per gated measure, a suite per cell)\n",
        out);
}

static void usage_history(FILE *out)
{
    fputs(
        "  --history FILE           the history store (SQLite): a run appends its records\n"
        "  --label TEXT             the run's label in the history (a commit, a branch)\n"
        "  --bless [LABEL]          a run, or the newest run labelled LABEL, becomes the\n"
        "                           baseline of its cells in the history\n"
        "  --import RUN_DIR...      --history: add existing runs\n"
        "  --list                   --history: print the stored runs\n"
        "  --against history:FILE[@last|@median-of-N]\n"
        "                           after the run, gate against the blessed run of the\n"
        "                           same cells in FILE, the newest, or the last N runs\n"
        "  --arm-after K            a measure is gated once FILE holds K records of it\n"
        "                           (default 5; before that: \"recording k of K\", exit 0)\n",
        out);
}

void ar_cli_usage(FILE *out)
{
    fputs(
        "Usage: aorta-run [OPTIONS] -- COMMAND [ARG...]\n"
        "       aorta-run [OPTIONS] --list-collectors | --describe NAME\n"
        "       aorta-run [OPTIONS] --parse NAME DIR | --env NAME DIR\n"
        "       aorta-run [OPTIONS] --check-collector NAME [DIR]\n"
        "       aorta-run --report RUN_DIR | --merge RUN_DIR | --compare RUN_A RUN_B\n"
        "\n"
        "Run COMMAND as trials of a sweep, optionally under profiling collectors,\n"
        "and record every trial under the output directory.\n"
        "\n"
        "Options:\n"
        "  --plugin-dir DIR         search DIR for collectors first (repeatable)\n"
        "  --recipe FILE            YAML recipe (mode: probe)\n"
        "  --mitigations-file FILE  JSON mitigation sidecar (repeatable)\n"
        "  --collect NAMES          comma list of collectors; replaces the recipe's\n"
        "  --option NAME.KEY=VALUE  set collector NAME's option KEY (repeatable; over\n"
        "                           the recipe's collect:)\n"
        "  --output DIR             results root (default " AR_DEFAULT_OUTPUT ")\n"
        "  --ticket ID              run directory name (overrides the recipe's ticket)\n"
        "  --trials N               trials per cell (default 1; overrides the recipe's\n"
        "                           trials)\n"
        "  --timeout SEC            per-trial timeout (overrides the recipe's\n"
        "                           timeout_per_trial)\n"
        "  --warmup N               N warm-up trials per cell first, left out of every\n"
        "                           statistic (overrides the recipe's warmup_trials)\n"
        "  --fresh                  empty the run directory's cells first (no resume)\n"
        "  --order ORDER            interleaved (rounds, the default), sequential or\n"
        "                           random (overrides the recipe's order)\n"
        "  --cells PATTERN          run only the cells whose names match the fnmatch\n"
        "                           glob PATTERN (repeatable); a part of the sweep\n"
        "  --rounds A-B             run only trial rounds A to B (from 1, inclusive)\n"
        "  --fail-on-fail           exit 3 when a trial's verdict is fail\n"
        "  --dry-run                validate and print each cell's plan and whether it\n"
        "                           would be resumed; write nothing\n"
        "  --all-ranks              started once per rank: every rank profiles itself\n"
        "  --ranks LIST             under a launcher, only these ranks profile\n"
        "                           themselves (0,3 or 0-3,8; overrides the recipe's\n"
        "                           ranks)\n"
        "  --list-collectors        list every collector candidate and its status\n"
        "  --describe NAME          print collector NAME's options\n"
        "  --parse NAME DIR         print the metrics collector NAME reads from DIR\n"
        "  --env NAME DIR           print collector NAME's environment bundle for DIR\n"
        "  --check-collector NAME [DIR]\n"
        "                           check collector NAME against the collector contract,\n"
        "                           each callback in a child process (parse also on DIR);\n"
        "                           exit 1 on any violation\n"
        "  --baseline CELL          the cell kernel deltas compare with (run, --report)\n"
        "  --against RUN_DIR        after the run, gate every cell against the same cell\n"
        "                           of RUN_DIR as --compare does (compare.json in the run)\n"
        "  --report RUN_DIR         rebuild perf.md, report.html and the cells' kernel\n"
        "                           tables of RUN_DIR from its trial records\n"
        "  --merge RUN_DIR          --report for a run made in parts (--cells,\n"
        "                           --rounds), then one line per cell with rounds\n"
        "                           missing (exit 1 then)\n"
        "  --compare RUN_A RUN_B    per cell in both, GPU (or step) time and the kernels\n"
        "                           that changed most from RUN_A to RUN_B\n",
        out);
    usage_compare(out);
    usage_history(out);
    fputs(
        "  -v, --verbose            timestamped progress lines on stderr\n"
        "  -q, --quiet              no progress display (the live line, or one line\n"
        "                           per trial without a terminal)\n"
        "  --version                print the version\n"
        "  --help                   print this help\n"
        "\n"
        "Collectors are searched in each --plugin-dir, then AORTA_PLUGIN_PATH, then\n"
        "AORTA_PLUGIN_SYSTEM_PATH or, when unset, " AR_COLLECTORDIR ".\n",
        out);
}

/* Options that take values, and how many. */
typedef struct option_spec {
    const char *name;
    int values;
} option_spec_t;

static const option_spec_t OPTIONS[] = {
    {"--plugin-dir", 1}, {"--recipe", 1},  {"--mitigations-file", 1}, {"--collect", 1},
    {"--option", 1},
    {"--output", 1},     {"--ticket", 1},  {"--trials", 1},           {"--timeout", 1},
    {"--warmup", 1},     {"--dry-run", 0},
    {"--list-collectors", 0}, {"--describe", 1}, {"--parse", 2},
    {"--env", 2},        {"--check-collector", 1}, /* and an optional DIR */
    {"--report", 1},     {"--compare", 2}, {"--baseline", 1},         {"--json", 0},
    {"--fail-above", 1}, {"--all-ranks", 0}, {"--ranks", 1}, {"--alpha", 1},             {"--min-delta-ms", 1},
    {"--gate-step-time", 0},                 {"--strict", 0},            {"--allow-missing", 0},
    {"--gate-kernels-above", 1}, {"--allow-inconclusive", 0}, {"--all", 0},
    {"--fresh", 0},      {"--order", 1},    {"--cells", 1},         {"--rounds", 1},
    {"--merge", 1},    {"--fail-on-fail", 0}, {"--allow-mismatch", 0},
    {"--html", 1},       {"--markdown", 1}, {"--junit", 1},
    {"--against", 1},    {"--history", 1}, {"--label", 1}, {"--bless", 0},
    {"--import", 1},     {"--list", 0},     {"--arm-after", 1},
    {"-v", 0},           {"--verbose", 0}, {"-q", 0},                 {"--quiet", 0},
    {"--version", 0},    {"--help", 0},
    {"-h", 0},           {NULL, 0},
};

static const option_spec_t *find_option(const char *name, size_t len)
{
    for (const option_spec_t *spec = OPTIONS; spec->name; spec++)
        if (strlen(spec->name) == len && strncmp(spec->name, name, len) == 0)
            return spec;
    return NULL;
}

/* "unknown option", with the option it is probably a typo of. */
static char *unknown_option(const char *arg, size_t len)
{
    const char *names[sizeof OPTIONS / sizeof OPTIONS[0]];
    size_t count = 0;
    for (const option_spec_t *spec = OPTIONS; spec->name; spec++)
        names[count++] = spec->name;
    char *word = ar_xasprintf("%.*s", (int)len, arg);
    const char *near = ar_suggest(word, names, count);
    char *message = near ? ar_xasprintf("unknown option '%s'; did you mean '%s'? (see "
                                           "aorta-run --help)",
                                           word, near)
                         : ar_xasprintf("unknown option '%s' (see aorta-run --help)", word);
    free(word);
    return message;
}

static void push(char ***items, size_t *count, const char *value)
{
    *items = ar_xrealloc(*items, (*count + 2) * sizeof **items);
    (*items)[(*count)++] = (char *)value;
    (*items)[*count] = NULL;
}

static int set_mode(ar_cli_t *cli, ar_cli_mode_t mode, const char *flag, char **error)
{
    if (cli->mode != AR_MODE_RUN && cli->mode != mode) {
        *error = ar_xasprintf("%s cannot be combined with another of --dry-run, "
                                 "--list-collectors, --describe, --parse, --env, "
                                 "--check-collector, --report, --compare",
                                 flag);
        return -1;
    }
    cli->mode = mode;
    return 0;
}

static int parse_trials(const char *text, long *out, char **error)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || !text[0] || *end || value < 1) {
        *error = ar_xasprintf("--trials: expected a whole number >= 1, got '%s'", text);
        return -1;
    }
    *out = value;
    return 0;
}

static int parse_ranks(const char *text, ar_cli_t *cli, char **error)
{
    char *why = NULL;
    free(cli->ranks); /* the last --ranks wins, as for every option */
    if (ar_rank_list_parse(text, &cli->ranks, &cli->rank_count, &why) != 0) {
        *error = ar_xasprintf("--ranks: %s; expected ranks such as 0,3 or 0-3,8", why);
        free(why);
        return -1;
    }
    return 0;
}

static int parse_warmup(const char *text, long *out, char **error)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || !text[0] || *end || value < 0 || value > 1000000) {
        *error = ar_xasprintf("--warmup: expected a whole number of trials >= 0, got '%s'",
                                 text);
        return -1;
    }
    *out = value;
    return 0;
}

/* --rounds A-B (or A): 1-based, inclusive, A <= B. */
static int parse_rounds(const char *text, ar_cli_t *cli, char **error)
{
    char *end = NULL;
    errno = 0;
    long first = isdigit((unsigned char)text[0]) ? strtol(text, &end, 10) : 0;
    long last = first;
    if (end && *end == '-' && isdigit((unsigned char)end[1]))
        last = strtol(end + 1, &end, 10);
    if (errno || !end || *end || first < 1 || last < first || last > 1000000) {
        *error = ar_xasprintf("--rounds: expected A-B, trial rounds from 1 with A <= B "
                              "(or one round A), got '%s'",
                              text);
        return -1;
    }
    cli->round_first = first;
    cli->round_last = last;
    return 0;
}

static int parse_timeout(const char *text, double *out, char **error)
{
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || !text[0] || *end || !isfinite(value) || value <= 0 || strchr(text, 'x')
        || strchr(text, 'X')) {
        *error = ar_xasprintf("--timeout: expected a number of seconds > 0, got '%s'", text);
        return -1;
    }
    *out = value;
    return 0;
}

/* A finite decimal number in [low, high] (open at low when open_low). */
static int parse_number(const char *flag, const char *what, const char *text, double low,
                        int open_low, double high, double *out, char **error)
{
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || !text[0] || *end || !isfinite(value) || value < low || (open_low && value == low)
        || value > high || strchr(text, 'x') || strchr(text, 'X')) {
        *error = ar_xasprintf("%s: expected %s, got '%s'", flag, what, text);
        return -1;
    }
    *out = value;
    return 0;
}

static int apply_compare(ar_cli_t *cli, const char *flag, char **values, char **error);

/* Apply one option with its values. */
static int parse_order(const char *text, ar_cli_t *cli, char **error)
{
    if (ar_order_from_name(text) < 0) {
        *error = ar_xasprintf("--order: expected interleaved, sequential or random, got '%s'",
                                 text);
        return -1;
    }
    cli->order = text;
    return 0;
}

/* --cells and --rounds (a part of the request), else the comparison's. */
static int apply_part(ar_cli_t *cli, const char *flag, char **values, char **error)
{
    if (!strcmp(flag, "--cells")) {
        push(&cli->cell_globs, &cli->cell_glob_count, values[0]);
        return 0;
    }
    if (!strcmp(flag, "--rounds"))
        return parse_rounds(values[0], cli, error);
    if (!strcmp(flag, "--merge")) {
        cli->run_a = values[0];
        return set_mode(cli, AR_MODE_MERGE, flag, error);
    }
    return apply_compare(cli, flag, values, error);
}

static int apply(ar_cli_t *cli, const char *flag, char **values, char **error)
{
    if (!strcmp(flag, "--plugin-dir")) {
        push(&cli->plugin_dirs, &cli->plugin_dir_count, values[0]);
    } else if (!strcmp(flag, "--recipe")) {
        cli->recipe = values[0];
    } else if (!strcmp(flag, "--mitigations-file")) {
        push(&cli->mitigation_files, &cli->mitigation_file_count, values[0]);
    } else if (!strcmp(flag, "--collect")) {
        cli->collect = values[0];
    } else if (!strcmp(flag, "--option")) {
        const char *dot = strchr(values[0], '.'), *equals = strchr(values[0], '=');
        if (!dot || !equals || dot == values[0] || equals < dot + 2) {
            *error = ar_xasprintf("--option: expected NAME.KEY=VALUE, got '%s'", values[0]);
            return -1;
        }
        push(&cli->options, &cli->option_count, values[0]);
    } else if (!strcmp(flag, "--output")) {
        if (!values[0][0]) {
            *error = ar_xstrdup("--output: expected a directory, got ''");
            return -1;
        }
        cli->output = values[0];
    } else if (!strcmp(flag, "--ticket")) {
        cli->ticket = values[0];
    } else if (!strcmp(flag, "--trials")) {
        return parse_trials(values[0], &cli->trials, error);
    } else if (!strcmp(flag, "--timeout")) {
        return parse_timeout(values[0], &cli->timeout, error);
    } else if (!strcmp(flag, "--warmup")) {
        return parse_warmup(values[0], &cli->warmup, error);
    } else if (!strcmp(flag, "--dry-run")) {
        return set_mode(cli, AR_MODE_DRY_RUN, flag, error);
    } else if (!strcmp(flag, "--list-collectors")) {
        return set_mode(cli, AR_MODE_LIST, flag, error);
    } else if (!strcmp(flag, "--describe")) {
        cli->collector = values[0];
        return set_mode(cli, AR_MODE_DESCRIBE, flag, error);
    } else if (!strcmp(flag, "--parse") || !strcmp(flag, "--env")) {
        cli->collector = values[0];
        cli->dir = values[1];
        return set_mode(cli, flag[2] == 'p' ? AR_MODE_PARSE : AR_MODE_ENV, flag, error);
    } else if (!strcmp(flag, "--check-collector")) {
        cli->collector = values[0];
        cli->dir = values[1];
        return set_mode(cli, AR_MODE_CHECK, flag, error);
    } else if (!strcmp(flag, "--report")) {
        cli->run_a = values[0];
        return set_mode(cli, AR_MODE_REPORT, flag, error);
    } else if (!strcmp(flag, "--compare")) {
        cli->run_a = values[0];
        cli->run_b = values[1];
        return set_mode(cli, AR_MODE_COMPARE, flag, error);
    } else if (!strcmp(flag, "--baseline")) {
        cli->baseline = values[0];
    } else if (!strcmp(flag, "--against")) {
        cli->against = values[0];

    } else if (!strcmp(flag, "--json")) {
        cli->json = 1;
    } else if (!strcmp(flag, "-v") || !strcmp(flag, "--verbose")) {
        cli->verbose++;
    } else if (!strcmp(flag, "--fresh")) {
        cli->fresh = 1;
    } else if (!strcmp(flag, "--order")) {
        return parse_order(values[0], cli, error);
    } else if (!strcmp(flag, "--fail-on-fail")) {
        cli->fail_on_fail = 1;
    } else if (!strcmp(flag, "--all-ranks")) {
        cli->all_ranks = 1;
    } else if (!strcmp(flag, "--ranks")) {
        return parse_ranks(values[0], cli, error);
    } else if (!strcmp(flag, "-q") || !strcmp(flag, "--quiet")) {
        cli->quiet = 1;
    } else {
        return apply_part(cli, flag, values, error);
    }
    return 0;
}

/* The history's options (the store's own mode is set in check_history()). */
static int apply_history(ar_cli_t *cli, const char *flag, char **values)
{
    if (!strcmp(flag, "--history")) {
        cli->history = values[0];
    } else if (!strcmp(flag, "--label")) {
        cli->label = values[0];
    } else if (!strcmp(flag, "--bless")) {
        cli->bless = 1;
        cli->bless_label = values[1];
    } else if (!strcmp(flag, "--import")) {
        push(&cli->imports, &cli->import_count, values[0]); /* the rest: read_option() */
    } else if (!strcmp(flag, "--list")) {
        cli->history_list = 1;
    } else {
        return 0;
    }
    return 1;
}

/* The options only --compare (and --against) take. */
static int apply_compare(ar_cli_t *cli, const char *flag, char **values, char **error)
{
    if (apply_history(cli, flag, values)) {
        return 0;
    } else if (!strcmp(flag, "--arm-after")) {
        return parse_number(flag, "a count of records from 1 to 1000000", values[0], 1, 0,
                            1e6, &cli->arm_after, error);
    } else if (!strcmp(flag, "--fail-above")) {
        return parse_number(flag, "a percentage >= 0", values[0], 0, 0, INFINITY,
                            &cli->fail_above, error);
    } else if (!strcmp(flag, "--alpha")) {
        return parse_number(flag, "a level between 0 and 1 (exclusive)", values[0], 0, 1,
                            nextafter(1.0, 0.0), &cli->alpha, error);
    } else if (!strcmp(flag, "--min-delta-ms")) {
        return parse_number(flag, "milliseconds >= 0", values[0], 0, 0, INFINITY,
                            &cli->min_delta_ms, error);
    } else if (!strcmp(flag, "--gate-kernels-above")) {
        return parse_number(flag, "a percentage from 0 to 100", values[0], 0, 0, 100.0,
                            &cli->gate_kernels_pct, error);
    } else if (!strcmp(flag, "--gate-step-time")) {
        cli->gate_step_time = 1;
    } else if (!strcmp(flag, "--allow-inconclusive")) {
        cli->allow_inconclusive = 1;
    } else if (!strcmp(flag, "--all")) {
        cli->show_all = 1;
    } else if (!strcmp(flag, "--strict")) {
        cli->strict = 1;
    } else if (!strcmp(flag, "--allow-missing")) {
        cli->allow_missing = 1;
    } else if (!strcmp(flag, "--allow-mismatch")) {
        cli->allow_mismatch = 1;
    } else if (!strcmp(flag, "--html")) {
        cli->html_file = values[0];
    } else if (!strcmp(flag, "--markdown")) {
        cli->markdown_file = values[0];
    } else if (!strcmp(flag, "--junit")) {
        cli->junit_file = values[0];
    }
    return 0;
}

/* The option at argv[*i] and its values (*i moves past them); --help and
 * --version only set *help or *version.  0, or -1 with *error set. */
static int read_option(int argc, char **argv, int *i, ar_cli_t *cli, int *help, int *version,
                       char **error)
{
    const char *arg = argv[*i];
    if (arg[0] != '-' || arg[1] == '\0') {
        *error = ar_xasprintf("missing '--' separator before the command '%s' "
                                 "(usage: aorta-run [OPTIONS] -- COMMAND [ARG...])",
                                 arg);
        return -1;
    }
    const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
    size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    const option_spec_t *spec = find_option(arg, name_len);
    if (!spec) {
        *error = unknown_option(arg, name_len);
        return -1;
    }
    char *values[2] = {NULL, NULL};
    if (eq) {
        if (spec->values != 1) {
            *error = ar_xasprintf("option '%s' does not take '=VALUE'", spec->name);
            return -1;
        }
        values[0] = (char *)eq + 1;
    } else {
        for (int v = 0; v < spec->values; v++) {
            if (*i + 1 >= argc || strcmp(argv[*i + 1], "--") == 0) {
                if (!strcmp(spec->name, "--compare"))
                    *error = ar_xstrdup("--compare needs RUN_A RUN_B (two run directories)");
                else
                    *error = ar_xasprintf("option '%s' needs %s", spec->name,
                                             spec->values == 2 ? "NAME and DIR" : "a value");
                return -1;
            }
            values[v] = argv[++*i];
        }
    }
    /* --check-collector's DIR is optional: the next word, unless it is an option. */
    if (!strcmp(spec->name, "--check-collector") && *i + 1 < argc && argv[*i + 1][0] != '-')
        values[1] = argv[++*i];
    /* --bless's LABEL likewise. */
    if (!strcmp(spec->name, "--bless") && *i + 1 < argc && argv[*i + 1][0] != '-')
        values[1] = argv[++*i];
    if (!strcmp(spec->name, "--help") || !strcmp(spec->name, "-h"))
        *help = 1;
    else if (!strcmp(spec->name, "--version"))
        *version = 1;
    else if (apply(cli, spec->name, values, error) != 0)
        return -1;
    /* --import takes every directory up to the next option. */
    while (!strcmp(spec->name, "--import") && *i + 1 < argc && argv[*i + 1][0] != '-')
        push(&cli->imports, &cli->import_count, argv[++*i]);
    return 0;
}

/* --history's words: a mode of their own without a command (--import,
 * --list, --bless LABEL), else what a run appends.  0, or -1 with *error. */
static int check_history(ar_cli_t *cli, int separator, char **error)
{
    int own = cli->import_count || cli->history_list || cli->bless_label;
    const char *why = NULL;
    if (!cli->history && (own || cli->label || cli->bless))
        why = "--label, --bless, --import and --list need --history FILE";
    else if (cli->history && !ar_history_available())
        why = "--history: this aorta-run was built without SQLite (install libsqlite3-dev "
              "and configure again)";
    else if (own && separator)
        why = "--import, --list and --bless LABEL take no command: a run gives --bless alone";
    else if (own && cli->mode != AR_MODE_RUN)
        why = "--import, --list and --bless LABEL cannot be combined with another mode";
    else if (cli->history && !own && !separator && cli->mode == AR_MODE_RUN)
        why = "--history FILE needs a run (-- COMMAND), --import RUN_DIR..., --list or "
              "--bless LABEL";
    else if (cli->history && cli->mode != AR_MODE_RUN && cli->mode != AR_MODE_DRY_RUN)
        why = "--history applies only to a run and --dry-run, or with --import, --list, --bless";
    if (why) {
        *error = ar_xstrdup(why);
        return -1;
    }
    if (own)
        cli->mode = AR_MODE_HISTORY;
    return 0;
}

/* What the options and the command say together (separator: a "--" was
 * given).  0, or -1 with *error set. */
static int check_request(const ar_cli_t *cli, int separator, char **error)
{
    const char *why = NULL;
    int needs_command = cli->mode == AR_MODE_RUN || cli->mode == AR_MODE_DRY_RUN;
    int compare_only = cli->json || cli->fail_above >= 0 || cli->alpha > 0
                       || cli->min_delta_ms > 0 || cli->gate_step_time || cli->strict
                       || cli->allow_missing || cli->allow_mismatch || cli->gate_kernels_pct >= 0
                       || cli->allow_inconclusive || cli->show_all || cli->html_file
                       || cli->markdown_file || cli->junit_file;
    int gates = cli->mode == AR_MODE_COMPARE || (needs_command && cli->against);
    if (compare_only && !gates)
        why = "--json, --fail-above, --alpha, --min-delta-ms, --gate-step-time, "
              "--gate-kernels-above, --strict, --allow-inconclusive, --allow-missing, "
              "--allow-mismatch, --all, --html, --markdown and --junit apply only to --compare "
              "and --against";
    else if (cli->against && !needs_command)
        why = "--against applies only to a run and --dry-run";
    else if (cli->arm_after > 0 && (!cli->against || strncmp(cli->against, "history:", 8) != 0))
        why = "--arm-after applies only to --against history:FILE";
    else if (cli->fail_on_fail && cli->mode != AR_MODE_RUN && cli->mode != AR_MODE_DRY_RUN)
        why = "--fail-on-fail applies only to a run";
    else if (cli->fresh && cli->mode != AR_MODE_RUN && cli->mode != AR_MODE_DRY_RUN)
        why = "--fresh applies only to a run";
    else if (cli->baseline && cli->mode != AR_MODE_RUN && cli->mode != AR_MODE_REPORT)
        why = "--baseline applies only to a run and --report";
    else if (cli->warmup >= 0 && !needs_command)
        why = "--warmup applies only to a run and --dry-run";
    else if (cli->order && !needs_command)
        why = "--order applies only to a run and --dry-run";
    else if ((cli->cell_globs || cli->round_first) && cli->mode != AR_MODE_RUN)
        why = "--cells and --rounds apply only to a run";
    else if ((cli->cell_globs || cli->round_first) && (cli->all_ranks || cli->ranks))
        why = "--cells and --rounds cannot be combined with --all-ranks or --ranks yet";
    else if (cli->round_first && cli->fresh)
        why = "--fresh empties every round of its cells: not with --rounds";
    else if (!needs_command && separator)
        why = "a command after '--' makes no sense with --list-collectors, --describe, --parse, "
              "--env or --check-collector";
    else if (needs_command && !separator)
        why = "missing command: aorta-run [OPTIONS] -- COMMAND [ARG...]";
    else if (needs_command && cli->command_count == 0)
        why = "empty command after '--'";
    if (!why && needs_command && cli->command[0][0] == '-') {
        *error = ar_xasprintf("the command after '--' starts with '-' ('%s'); put aorta-run's "
                                 "options before '--'",
                                 cli->command[0]);
        return -1;
    }
    if (why)
        *error = ar_xstrdup(why);
    return why ? -1 : 0;
}

int ar_cli_parse(int argc, char **argv, ar_cli_t *cli, char **error)
{
    memset(cli, 0, sizeof *cli);
    cli->mode = AR_MODE_RUN;
    cli->fail_above = -1;
    cli->gate_kernels_pct = -1;
    cli->warmup = -1;
    *error = NULL;
    int help = 0, version = 0, separator = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            separator = 1;
            i++;
            break;
        }
        if (read_option(argc, argv, &i, cli, &help, &version, error) != 0)
            return -1;
    }
    for (; i < argc; i++)
        push(&cli->command, &cli->command_count, argv[i]);
    if (help || version) {
        cli->mode = help ? AR_MODE_HELP : AR_MODE_VERSION;
        return 0;
    }
    if (check_history(cli, separator, error) != 0)
        return -1;
    return check_request(cli, separator, error);
}

void ar_cli_free(ar_cli_t *cli)
{
    free(cli->plugin_dirs);
    free(cli->mitigation_files);
    free(cli->options);
    free(cli->command);
    free(cli->ranks);
    free(cli->imports);
    free(cli->cell_globs);
    memset(cli, 0, sizeof *cli);
}
