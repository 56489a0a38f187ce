/* SPDX-License-Identifier: MIT */
/* plan.c - resolve the command line and the recipe into a plan. */
#include "config.h"

#include "recipe/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recipe/collect.h"
#include "sys/files.h"
#include "aorta/collector.h"
#include "recipe/mitigations.h"
#include "recipe/recipe.h"
#include "sys/diag.h"
#include "sys/rank_list.h"
#include "sys/sha256.h"
#include "xalloc.h"

static void add_cell(ar_plan_t *plan, const char *mitigation, const char *diagnostic)
{
    plan->cells = ar_xrealloc(plan->cells, (plan->cell_count + 1) * sizeof *plan->cells);
    ar_cell_t *cell = &plan->cells[plan->cell_count++];
    char *m = ar_slug(mitigation), *d = ar_slug(diagnostic);
    cell->name = ar_xasprintf("%s-%s", m, d);
    free(m);
    free(d);
    cell->mitigation = ar_xstrdup(mitigation);
    cell->diagnostic = ar_xstrdup(diagnostic);
    cell->env = aorta_env_new();
}

/* Move what the recipe decided into the plan (the recipe keeps nothing). */
static void take_recipe(ar_plan_t *plan, ar_recipe_t *recipe)
{
    plan->recipe_path = recipe->path;
    recipe->path = NULL;
    plan->ticket = recipe->ticket;
    recipe->ticket = NULL;
    plan->trials = recipe->trials;
    plan->warmup_trials = recipe->warmup_trials;
    plan->timeout_sec = recipe->timeout_sec;
    plan->env_passthrough_mode = recipe->env_passthrough_mode;
    recipe->env_passthrough_mode = NULL;
    plan->cells = recipe->cells;
    plan->cell_count = recipe->cell_count;
    recipe->cells = NULL;
    recipe->cell_count = 0;
    plan->has_retain = recipe->has_retain;
    plan->retain_on_pass = recipe->retain_on_pass;
    plan->retain_on_fail = recipe->retain_on_fail;
    plan->retain_on_error = recipe->retain_on_error;
    plan->has_stop_after = recipe->has_stop_after;
    plan->stop_events = recipe->stop_events;
    plan->stop_max_trials = recipe->stop_max_trials;
    plan->stop_event_verdict = recipe->stop_event_verdict;
    recipe->stop_event_verdict = NULL;
    plan->launcher = recipe->launcher;
    recipe->launcher = NULL;
    plan->all_ranks = recipe->all_ranks;
    plan->ranks = recipe->ranks;
    plan->rank_count = recipe->rank_count;
    recipe->ranks = NULL;
    recipe->rank_count = 0;
    plan->kernel_baseline = recipe->baseline;
    recipe->baseline = NULL;
    if (recipe->order)
        plan->order = (ar_order_t)ar_order_from_name(recipe->order);
}

static const char *const ORDER_NAMES[] = {"interleaved", "sequential", "random"};

const char *ar_order_name(ar_order_t order)
{
    return ORDER_NAMES[order];
}

int ar_order_from_name(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (name && !strcmp(name, ORDER_NAMES[i]))
            return i;
    return -1;
}

/* --order over the recipe's, then the seed: the first 52 bits of a SHA-256
 * of what makes the request (ticket, cells, budget), nothing random, so
 * that every rank of a launched run and a resumed run derive the same. */
static void apply_order(ar_plan_t *plan, const ar_plan_request_t *request)
{
    if (request->order)
        plan->order = (ar_order_t)ar_order_from_name(request->order);
    ar_sha256_t sha;
    ar_sha256_init(&sha);
    const char *ticket = plan->ticket ? plan->ticket : "";
    ar_sha256_update(&sha, "aorta-order", 12);
    ar_sha256_update(&sha, ticket, strlen(ticket) + 1);
    for (size_t c = 0; c < plan->cell_count; c++)
        ar_sha256_update(&sha, plan->cells[c].name, strlen(plan->cells[c].name) + 1);
    char budget[32];
    snprintf(budget, sizeof budget, "%ld", ar_plan_trial_budget(plan));
    ar_sha256_update(&sha, budget, strlen(budget));
    char hex[65];
    ar_sha256_hex(&sha, hex);
    hex[13] = '\0';
    plan->order_seed = strtoull(hex, NULL, 16);
}

/* Sidecars first (the recipe's axes refer to them), then the recipe. */
static int load_recipe(const ar_plan_request_t *request, ar_recipe_t **recipe,
                       char **error)
{
    ar_mitigations_t *mitigations = ar_mitigations_new();
    int status = 0;
    for (size_t i = 0; i < request->mitigation_file_count && status == 0; i++)
        status = ar_mitigations_load_file(mitigations, request->mitigation_files[i], error);
    if (status == 0)
        status = ar_recipe_load(request->recipe, mitigations, recipe, error);
    ar_mitigations_free(mitigations);
    return status;
}

/* --warmup over the recipe's warmup_trials, saying so when the recipe sets
 * another number (a recipe that sets none has nothing to override). */
static void apply_warmup(ar_plan_t *plan, const ar_plan_request_t *request,
                         int recipe_sets_warmup)
{
    if (!request->warmup_given)
        return;
    if (recipe_sets_warmup && request->warmup != plan->warmup_trials)
        ar_diag_warn("--warmup %ld overrides the recipe's warmup_trials (%ld)", request->warmup,
                        plan->warmup_trials);
    plan->warmup_trials = request->warmup;
}

/* --trials and --timeout over the recipe's trials and timeout_per_trial,
 * saying so when they differ (as --warmup does). */
static void apply_trials_timeout(ar_plan_t *plan, const ar_plan_request_t *request)
{
    /* Under stop_after the recipe's cap is its max_trials (its trials are
     * that cap too): --trials replaces the cap. */
    if (request->trials > 0 && plan->has_stop_after) {
        if (request->trials != plan->stop_max_trials)
            ar_diag_warn("--trials %ld overrides the recipe's stop_after.max_trials (%ld)",
                            request->trials, plan->stop_max_trials);
        plan->trials = plan->stop_max_trials = request->trials;
    } else if (request->trials > 0) {
        if (request->trials != plan->trials)
            ar_diag_warn("--trials %ld overrides the recipe's trials (%ld)", request->trials,
                            plan->trials);
        plan->trials = request->trials;
    }
    if (request->timeout > 0) {
        if (request->timeout != plan->timeout_sec && plan->timeout_sec > 0)
            ar_diag_warn("--timeout %g overrides the recipe's timeout_per_trial (%g)",
                            request->timeout, plan->timeout_sec);
        else if (request->timeout != plan->timeout_sec)
            ar_diag_warn("--timeout %g overrides the recipe's timeout_per_trial (none)",
                            request->timeout);
        plan->timeout_sec = request->timeout;
    }
}

/* --ranks over the recipe's ranks, saying so when they differ (as --trials
 * does). */
static void apply_ranks(ar_plan_t *plan, const ar_plan_request_t *request)
{
    if (!request->rank_count)
        return;
    int same = plan->rank_count == request->rank_count
            && !memcmp(plan->ranks, request->ranks, request->rank_count * sizeof *plan->ranks);
    if (plan->rank_count && !same) {
        char *given = ar_rank_list_format(request->ranks, request->rank_count, ",");
        char *recipe = ar_rank_list_format(plan->ranks, plan->rank_count, ", ");
        ar_diag_warn("--ranks %s overrides the recipe's ranks (%s)", given, recipe);
        free(recipe);
        free(given);
    }
    free(plan->ranks);
    plan->ranks = ar_xcalloc(request->rank_count, sizeof *plan->ranks);
    memcpy(plan->ranks, request->ranks, request->rank_count * sizeof *plan->ranks);
    plan->rank_count = request->rank_count;
}

/* Linux's MAX_ARG_STRLEN: the most bytes one argument may hold, its NUL
 * included (32 pages); past it execve() fails with E2BIG. */
#define RANK_ARGUMENT_MAX 131072

/* Under a launcher the chosen ranks travel to aorta-rank-exec as one
 * argument: a list too long for one is refused here, naming it, rather
 * than every trial failing with "Argument list too long". */
static int check_rank_argument(const ar_plan_t *plan, const ar_plan_request_t *request,
                               char **error)
{
    if (!plan->rank_count || !plan->launcher || aorta_argv_count(plan->launcher) == 0)
        return 0;
    char *list = ar_rank_list_format(plan->ranks, plan->rank_count, ",");
    size_t len = strlen(list);
    free(list);
    if (len < RANK_ARGUMENT_MAX)
        return 0;
    *error = ar_xasprintf("%s: the list of %zu ranks takes %zu bytes written out, past the %d "
                          "bytes one argument may hold (Linux's MAX_ARG_STRLEN; aorta-rank-exec "
                          "receives it as one): give ranges (0-1023) or fewer ranks",
                          request->rank_count ? "--ranks" : "ranks", plan->rank_count, len,
                          RANK_ARGUMENT_MAX - 1);
    return -1;
}

/* What the sweep's rank handling cannot do: -1 with *error set. */
static int check_ranks(const ar_plan_t *plan, const ar_plan_request_t *request,
                       char **error)
{
    if (request->all_ranks && (plan->launcher || plan->has_stop_after)) {
        *error = ar_xasprintf("--all-ranks: cannot be combined with the recipe's %s: %s",
                                 plan->launcher ? "launcher" : "stop_after",
                                 plan->launcher ? "with --all-ranks the launcher starts "
                                                  "aorta-run itself (mpirun -np N aorta-run ...)"
                                                : "each rank would stop after its own verdicts "
                                                  "and the ranks would run different trials");
        return -1;
    }
    if (request->rank_count && !plan->launcher && plan->has_stop_after) {
        *error = ar_xstrdup("--ranks: without the recipe's launcher, cannot be combined with "
                               "the recipe's stop_after: aorta-run started once per rank keeps "
                               "every rank's record, and each rank would stop after its own "
                               "verdicts");
        return -1;
    }
    return check_rank_argument(plan, request, error);
}

int ar_plan_build(const ar_plan_request_t *request, const ar_registry_t *registry,
                     ar_plan_t **out, char **error)
{
    *out = NULL;
    *error = NULL;
    if (!request->recipe && request->mitigation_file_count) {
        *error = ar_xstrdup("--mitigations-file: applies only with --recipe (the recipe's "
                               "mitigation_axis and diagnostic_axis name the mitigations)");
        return -1;
    }
    ar_recipe_t *recipe = NULL;
    if (request->recipe && load_recipe(request, &recipe, error) != 0)
        return -1;
    ar_plan_t *plan = ar_xcalloc(1, sizeof *plan);
    if (ar_collect_select(recipe, request->collect, request->options, request->option_count,
                             registry, &plan->collectors,
                             &plan->collector_count, error)
        != 0) {
        ar_recipe_free(recipe);
        ar_plan_free(plan);
        return -1;
    }
    int recipe_sets_warmup = recipe && recipe->has_warmup_trials;
    if (recipe) {
        take_recipe(plan, recipe);
        ar_recipe_free(recipe);
        apply_trials_timeout(plan, request);
    } else {
        plan->trials = request->trials > 0 ? request->trials : 1;
        plan->timeout_sec = request->timeout;
        plan->env_passthrough_mode = ar_xstrdup("inherit");
        plan->retain_on_pass = plan->retain_on_fail = plan->retain_on_error = AR_RETAIN_FULL;
        add_cell(plan, "none", "none");
    }
    apply_warmup(plan, request, recipe_sets_warmup);
    if (request->ticket) {
        free(plan->ticket);
        plan->ticket = ar_xstrdup(request->ticket);
    }
    apply_order(plan, request);
    plan->output_root = ar_xstrdup(request->output ? request->output : AR_DEFAULT_OUTPUT);
    char *slug = ar_slug(plan->ticket ? plan->ticket : "_no_ticket_");
    plan->run_dir = ar_xasprintf("%s/%s", plan->output_root, slug);
    free(slug);
    plan->command = aorta_argv_from(request->command, request->command_count);
    plan->verbose = request->verbose;
    plan->quiet = request->quiet;
    plan->fresh = request->fresh;
    plan->all_ranks = plan->all_ranks || request->all_ranks;
    apply_ranks(plan, request);
    if (check_ranks(plan, request, error) != 0) {
        ar_plan_free(plan);
        return -1;
    }
    *out = plan;
    return 0;
}

void ar_plan_free(ar_plan_t *plan)
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
    free(plan->in_part);
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
    free(plan->kernel_baseline);
    free(plan->ranks);
    free(plan->output_root);
    free(plan->run_dir);
    aorta_argv_free(plan->command);
    free(plan);
}

int ar_plan_per_rank(const ar_plan_t *plan)
{
    return plan->all_ranks || (plan->rank_count > 0 && !plan->launcher);
}

int ar_plan_profiles_rank(const ar_plan_t *plan, long rank)
{
    return plan->rank_count == 0 || ar_rank_list_has(plan->ranks, plan->rank_count, rank);
}

int ar_plan_is_part(const ar_plan_t *plan)
{
    return plan->in_part != NULL || plan->round_end > 0;
}

int ar_plan_runs_cell(const ar_plan_t *plan, size_t index)
{
    return !plan->in_part || plan->in_part[index];
}

int ar_plan_runs_round(const ar_plan_t *plan, long t)
{
    return plan->round_end == 0 || (t >= plan->round_first && t < plan->round_end);
}

long ar_plan_trial_budget(const ar_plan_t *plan)
{
    return plan->has_stop_after ? plan->stop_max_trials : plan->trials;
}

const ar_collect_entry_t *ar_plan_collector(const ar_plan_t *plan, const char *name)
{
    for (size_t i = 0; i < plan->collector_count; i++)
        if (strcmp(plan->collectors[i].module->name, name) == 0)
            return &plan->collectors[i];
    return NULL;
}

char *ar_plan_absolute_run_dir(const ar_plan_t *plan)
{
    if (plan->run_dir[0] == '/')
        return aorta_path_join(plan->run_dir, NULL);
    char *cwd = getcwd(NULL, 0);
    char *dir = aorta_path_join(cwd ? cwd : ".", plan->run_dir);
    free(cwd);
    return dir;
}
