/* SPDX-License-Identifier: MIT */
/* cmd_parse.c - `aorta-run --parse NAME DIR`: collector NAME's parse() on
 * DIR, run in a child like after a trial, printed as one JSON object; for
 * a directory of rank<k>/ folders, with the per-rank keys. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/diag.h"
#include "recipe/collect.h"
#include "commands.h"
#include "aorta/collector.h"
#include "sys/json.h"
#include "record/metrics_json.h"
#include "sweep/parse_child.h"
#include "sweep/rank_parse.h"
#include "recipe/plan.h"
#include "xalloc.h"

/* The options NAME runs with: the recipe's (or --collect's) when they name
 * it, else its defaults.  Shared by --parse and --env. */
int ar_cmd_collector_options(const ar_cli_t *cli, const ar_registry_t *registry,
                                const char *flag, const ar_module_t **module,
                                aorta_options_t **options)
{
    *options = NULL;
    *module = ar_registry_open(registry, cli->collector);
    if (!*module)
        return ar_cmd_unknown_collector(registry, flag, cli->collector);
    ar_plan_t *plan = NULL;
    if (cli->recipe || cli->collect || cli->mitigation_file_count) {
        int status = ar_cmd_build_plan(cli, registry, &plan);
        if (status != 0)
            return status;
    }
    char *error = NULL;
    int status = ar_collect_effective_options(
        plan ? ar_plan_collector(plan, (*module)->name) : NULL, *module, options, &error);
    ar_plan_free(plan);
    if (status != 0) {
        ar_diag_error("%s: %s", flag, error);
        free(error);
        return AR_EXIT_USAGE;
    }
    return AR_EXIT_OK;
}

/* A run directory (it holds matrix.json) is no collector's directory: say
 * where the artifacts are. */
static void warn_run_dir(const char *dir, const char *name)
{
    char *matrix = ar_xasprintf("%s/matrix.json", dir);
    struct stat st;
    if (lstat(matrix, &st) == 0)
        ar_diag_warn("--parse: %s looks like a run directory (it has matrix.json); a "
                        "collector's artifacts are in CELL/_subprocess/trial_d0_m0_tN/%s/ below "
                        "it",
                        dir, name);
    free(matrix);
}

int ar_cmd_parse(const ar_cli_t *cli, const ar_registry_t *registry)
{
    const ar_module_t *module = NULL;
    aorta_options_t *options = NULL;
    int status = ar_cmd_collector_options(cli, registry, "--parse", &module, &options);
    if (status != 0)
        return status;
    struct stat st;
    ar_json_t *json;
    int interrupted = 0;
    if (stat(cli->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (stat(cli->dir, &st) != 0)
            ar_diag_warn("--parse: %s: %s; there is nothing to parse", cli->dir,
                            strerror(errno));
        else
            ar_diag_warn("--parse: %s is not a directory; there is nothing to parse",
                            cli->dir);
        json = ar_json_object();
    } else {
        warn_run_dir(cli->dir, module->name);
        aorta_metrics_t *metrics = ar_parse_in_child_ex(module, options, cli->dir,
                                                           &interrupted);
        /* A launcher run's directory: the per-rank keys too, as the sweep
         * records them (docs/design.md, Multi-rank runs). */
        int fd = interrupted ? -1 : open(cli->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) {
            ar_rank_metrics(module, options, fd, cli->dir, NULL, 0, metrics, NULL);
            close(fd);
        }
        json = ar_metrics_to_json(metrics);
        aorta_metrics_free(metrics);
    }
    char *text = ar_json_dump(json, 0);
    printf("%s\n", text);
    free(text);
    ar_json_free(json);
    aorta_options_free(options);
    return interrupted ? 128 + interrupted : AR_EXIT_OK;
}
