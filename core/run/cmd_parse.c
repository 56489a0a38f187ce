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
int aorta_cmd_collector_options(const aorta_cli_t *cli, const aorta_registry_t *registry,
                                const char *flag, const aorta_module_t **module,
                                aorta_options_t **options)
{
    *options = NULL;
    *module = aorta_registry_open(registry, cli->collector);
    if (!*module)
        return aorta_cmd_unknown_collector(registry, flag, cli->collector);
    aorta_plan_t *plan = NULL;
    if (cli->recipe || cli->collect || cli->mitigation_file_count) {
        int status = aorta_cmd_build_plan(cli, registry, &plan);
        if (status != 0)
            return status;
    }
    char *error = NULL;
    int status = aorta_collect_effective_options(
        plan ? aorta_plan_collector(plan, (*module)->name) : NULL, *module, options, &error);
    aorta_plan_free(plan);
    if (status != 0) {
        aorta_diag_error("%s: %s", flag, error);
        free(error);
        return AORTA_EXIT_USAGE;
    }
    return AORTA_EXIT_OK;
}

/* A run directory (it holds matrix.json) is no collector's directory: say
 * where the artifacts are. */
static void warn_run_dir(const char *dir, const char *name)
{
    char *matrix = aorta_xasprintf("%s/matrix.json", dir);
    struct stat st;
    if (lstat(matrix, &st) == 0)
        aorta_diag_warn("--parse: %s looks like a run directory (it has matrix.json); a "
                        "collector's artifacts are in CELL/_subprocess/trial_d0_m0_tN/%s/ below "
                        "it",
                        dir, name);
    free(matrix);
}

int aorta_cmd_parse(const aorta_cli_t *cli, const aorta_registry_t *registry)
{
    const aorta_module_t *module = NULL;
    aorta_options_t *options = NULL;
    int status = aorta_cmd_collector_options(cli, registry, "--parse", &module, &options);
    if (status != 0)
        return status;
    struct stat st;
    aorta_json_t *json;
    int interrupted = 0;
    if (stat(cli->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (stat(cli->dir, &st) != 0)
            aorta_diag_warn("--parse: %s: %s; there is nothing to parse", cli->dir,
                            strerror(errno));
        else
            aorta_diag_warn("--parse: %s is not a directory; there is nothing to parse",
                            cli->dir);
        json = aorta_json_object();
    } else {
        warn_run_dir(cli->dir, module->name);
        aorta_metrics_t *metrics = aorta_parse_in_child_ex(module, options, cli->dir,
                                                           &interrupted);
        /* A launcher run's directory: the per-rank keys too, as the sweep
         * records them (docs/design.md, Multi-rank runs). */
        int fd = interrupted ? -1 : open(cli->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) {
            aorta_rank_metrics(module, options, fd, cli->dir, NULL, 0, metrics, NULL);
            close(fd);
        }
        json = aorta_metrics_to_json(metrics);
        aorta_metrics_free(metrics);
    }
    char *text = aorta_json_dump(json, 0);
    printf("%s\n", text);
    free(text);
    aorta_json_free(json);
    aorta_options_free(options);
    return interrupted ? 128 + interrupted : AORTA_EXIT_OK;
}
