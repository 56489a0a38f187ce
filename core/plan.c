/* plan.c - resolve the command line (and, later, the recipe) into a plan. */
#include "config.h"

#include "plan.h"

#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "fsutil.h"
#include "handles.h"
#include "xalloc.h"

static void add_cell(aorta_plan_t *plan, const char *mitigation, const char *diagnostic)
{
    plan->cells = aorta_xrealloc(plan->cells, (plan->cell_count + 1) * sizeof *plan->cells);
    aorta_cell_t *cell = &plan->cells[plan->cell_count++];
    char *m = aorta_slug(mitigation), *d = aorta_slug(diagnostic);
    cell->name = aorta_xasprintf("%s-%s", m, d);
    free(m);
    free(d);
    cell->mitigation = aorta_xstrdup(mitigation);
    cell->diagnostic = aorta_xstrdup(diagnostic);
    cell->env = aorta_env_new();
}

int aorta_plan_build(const aorta_cli_t *cli, const aorta_registry_t *registry, aorta_plan_t **out)
{
    (void)registry;
    *out = NULL;
    if (cli->recipe) {
        aorta_report("--recipe: not implemented yet");
        return AORTA_EXIT_USAGE;
    }
    if (cli->mitigation_file_count) {
        aorta_report("--mitigations-file: not implemented yet");
        return AORTA_EXIT_USAGE;
    }
    if (cli->collect) {
        aorta_report("--collect: not implemented yet");
        return AORTA_EXIT_USAGE;
    }
    aorta_plan_t *plan = aorta_xcalloc(1, sizeof *plan);
    plan->ticket = cli->ticket ? aorta_xstrdup(cli->ticket) : NULL;
    plan->trials = cli->trials > 0 ? cli->trials : 1;
    plan->timeout_sec = cli->timeout;
    plan->env_passthrough_mode = aorta_xstrdup("inherit");
    add_cell(plan, "none", "none");
    plan->output_root = aorta_xstrdup(cli->output ? cli->output : AORTA_DEFAULT_OUTPUT);
    char *slug = aorta_slug(plan->ticket ? plan->ticket : "_no_ticket_");
    plan->run_dir = aorta_xasprintf("%s/%s", plan->output_root, slug);
    free(slug);
    plan->command = aorta_argv_from(cli->command, cli->command_count);
    plan->verbose = cli->verbose;
    *out = plan;
    return 0;
}

void aorta_plan_free(aorta_plan_t *plan)
{
    if (!plan)
        return;
    for (size_t i = 0; i < plan->cell_count; i++) {
        free(plan->cells[i].name);
        free(plan->cells[i].mitigation);
        free(plan->cells[i].diagnostic);
        aorta_env_free(plan->cells[i].env);
    }
    free(plan->cells);
    for (size_t i = 0; i < plan->collector_count; i++) {
        aorta_options_free(plan->collectors[i].given);
        aorta_options_free(plan->collectors[i].effective);
    }
    free(plan->collectors);
    free(plan->recipe_path);
    free(plan->ticket);
    free(plan->env_passthrough_mode);
    free(plan->stop_event_verdict);
    aorta_argv_free(plan->launcher);
    free(plan->output_root);
    free(plan->run_dir);
    aorta_argv_free(plan->command);
    free(plan);
}

const aorta_collect_entry_t *aorta_plan_collector(const aorta_plan_t *plan, const char *name)
{
    for (size_t i = 0; i < plan->collector_count; i++)
        if (strcmp(plan->collectors[i].plugin->name, name) == 0)
            return &plan->collectors[i];
    return NULL;
}
