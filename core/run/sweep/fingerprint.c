/* SPDX-License-Identifier: MIT */
/* fingerprint.c - a cell's request fingerprint. */
#include "config.h"

#include "sweep/fingerprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "output/sha256.h"
#include "sys/rank_list.h"
#include "xalloc.h"

/* Bumped when what goes into a fingerprint changes. */
#define FINGERPRINT_FORM "aorta request fingerprint 1"

/* One string, length-prefixed, so that no two sequences hash alike. */
static void put(aorta_sha256_t *sha, const char *text)
{
    char length[32];
    int n = snprintf(length, sizeof length, "%zu:", strlen(text));
    aorta_sha256_update(sha, length, (size_t)n);
    aorta_sha256_update(sha, text, strlen(text));
}

static void command_digest(const aorta_plan_t *plan, char out[65])
{
    aorta_sha256_t sha;
    aorta_sha256_init(&sha);
    for (size_t i = 0; i < aorta_argv_count(plan->command); i++)
        put(&sha, aorta_argv_items(plan->command)[i]);
    aorta_sha256_hex(&sha, out);
}

static void variables_digest(const aorta_cell_t *cell, char out[65])
{
    aorta_sha256_t sha;
    aorta_sha256_init(&sha);
    for (size_t i = 0; cell->env && i < aorta_env_count(cell->env); i++) {
        put(&sha, aorta_env_name_at(cell->env, i));
        put(&sha, aorta_env_value_at(cell->env, i));
    }
    aorta_sha256_hex(&sha, out);
}

static void collectors_digest(const aorta_plan_t *plan, char out[65])
{
    aorta_sha256_t sha;
    aorta_sha256_init(&sha);
    for (size_t c = 0; c < plan->collector_count; c++) {
        const aorta_collect_entry_t *entry = &plan->collectors[c];
        const aorta_options_t *options = entry->effective;
        size_t count = options ? aorta_options_count(options) : 0;
        put(&sha, entry->module->collector.name);
        char number[32];
        snprintf(number, sizeof number, "%zu", count);
        put(&sha, number);
        for (size_t i = 0; i < count; i++) {
            put(&sha, aorta_options_key_at(options, i));
            put(&sha, aorta_options_value_at(options, i));
        }
    }
    aorta_sha256_hex(&sha, out);
}

/* The chosen ranks, which decide whose captures are recorded; "" when
 * every rank profiles itself, so that such a request's fingerprint is what
 * it was before ranks could be chosen. */
static void ranks_digest(const aorta_plan_t *plan, char out[65])
{
    out[0] = '\0';
    if (!plan->rank_count)
        return;
    aorta_sha256_t sha;
    aorta_sha256_init(&sha);
    char *list = aorta_rank_list_format(plan->ranks, plan->rank_count, ",");
    put(&sha, list);
    free(list);
    aorta_sha256_hex(&sha, out);
}

static void whole_digest(aorta_request_t *request)
{
    aorta_sha256_t sha;
    aorta_sha256_init(&sha);
    put(&sha, FINGERPRINT_FORM);
    put(&sha, request->command);
    put(&sha, request->recipe);
    put(&sha, request->variables);
    put(&sha, request->collectors);
    if (request->ranks[0])
        put(&sha, request->ranks);
    put(&sha, PACKAGE_VERSION);
    aorta_sha256_hex(&sha, request->fingerprint);
}

aorta_request_t *aorta_request_compute(const aorta_plan_t *plan)
{
    aorta_request_t *requests = aorta_xcalloc(plan->cell_count + 1, sizeof *requests);
    aorta_request_t shared;
    memset(&shared, 0, sizeof shared);
    command_digest(plan, shared.command);
    /* The plan was just read from it; a recipe gone since is a digest of
     * nothing, which matches no earlier run. */
    if (plan->recipe_path && aorta_sha256_file(plan->recipe_path, shared.recipe) != 0)
        strcpy(shared.recipe, "unreadable");
    collectors_digest(plan, shared.collectors);
    ranks_digest(plan, shared.ranks);
    for (size_t i = 0; i < plan->cell_count; i++) {
        requests[i] = shared;
        variables_digest(&plan->cells[i], requests[i].variables);
        whole_digest(&requests[i]);
    }
    return requests;
}

aorta_json_t *aorta_request_json(const aorta_request_t *request)
{
    aorta_json_t *json = aorta_json_object();
    aorta_json_set(json, "command_sha256", aorta_json_string(request->command));
    aorta_json_set(json, "recipe_sha256",
                   request->recipe[0] ? aorta_json_string(request->recipe) : NULL);
    aorta_json_set(json, "variables_sha256", aorta_json_string(request->variables));
    aorta_json_set(json, "collectors_sha256", aorta_json_string(request->collectors));
    if (request->ranks[0])
        aorta_json_set(json, "ranks_sha256", aorta_json_string(request->ranks));
    aorta_json_set(json, "aorta_version", aorta_json_string(PACKAGE_VERSION));
    return json;
}

/* Whether the recorded part key differs from ours (missing counts). */
static int differs(const aorta_json_t *recorded, const char *key, const char *ours)
{
    aorta_json_t *value = aorta_json_get(recorded, key);
    if (!ours[0])
        return value != NULL && aorta_json_type(value) != AORTA_JSON_NULL;
    const char *text = aorta_json_get_string(value);
    return !text || strcmp(text, ours) != 0;
}

char *aorta_request_mismatch(const aorta_request_t *request, const aorta_json_t *trial_json)
{
    const char *fingerprint =
        aorta_json_get_string(aorta_json_get(trial_json, "request_fingerprint"));
    if (fingerprint && !strcmp(fingerprint, request->fingerprint))
        return NULL;
    if (!fingerprint)
        return aorta_xstrdup("it was recorded without a request fingerprint (by an older "
                             "aorta-run, or not by aorta-run)");
    aorta_json_t *recorded = aorta_json_get(aorta_json_get(trial_json, "config"), "_aorta_request");
    if (aorta_json_type(recorded) != AORTA_JSON_OBJECT)
        return aorta_xstrdup("it was recorded for another request (its parts are not on "
                             "record)");
    const char *names[6];
    size_t count = 0;
    if (differs(recorded, "command_sha256", request->command))
        names[count++] = "the command";
    if (differs(recorded, "recipe_sha256", request->recipe))
        names[count++] = "the recipe";
    if (differs(recorded, "variables_sha256", request->variables))
        names[count++] = "the cell's variables";
    if (differs(recorded, "collectors_sha256", request->collectors))
        names[count++] = "the collectors or their options";
    if (differs(recorded, "ranks_sha256", request->ranks))
        names[count++] = "the chosen ranks";
    if (differs(recorded, "aorta_version", PACKAGE_VERSION))
        names[count++] = "aorta's version";
    if (count == 0)
        return aorta_xstrdup("its request changed");
    char *text = aorta_xstrdup(names[0]);
    for (size_t i = 1; i < count; i++) {
        char *next = aorta_xasprintf("%s%s%s", text, i + 1 == count ? " and " : ", ", names[i]);
        free(text);
        text = next;
    }
    char *phrase = aorta_xasprintf("%s changed", text);
    free(text);
    return phrase;
}
