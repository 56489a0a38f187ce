/* SPDX-License-Identifier: MIT */
/* fingerprint.c - a cell's request fingerprint. */
#include "config.h"

#include "sweep/fingerprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "sys/sha256.h"
#include "sys/rank_list.h"
#include "xalloc.h"

/* Bumped when what goes into a fingerprint changes. */
#define FINGERPRINT_FORM "aorta request fingerprint 1"

/* One string, length-prefixed, so that no two sequences hash alike. */
static void put(ar_sha256_t *sha, const char *text)
{
    char length[32];
    int n = snprintf(length, sizeof length, "%zu:", strlen(text));
    ar_sha256_update(sha, length, (size_t)n);
    ar_sha256_update(sha, text, strlen(text));
}

static void command_digest(const ar_plan_t *plan, char out[65])
{
    ar_sha256_t sha;
    ar_sha256_init(&sha);
    for (size_t i = 0; i < aorta_argv_count(plan->command); i++)
        put(&sha, aorta_argv_items(plan->command)[i]);
    ar_sha256_hex(&sha, out);
}

static void variables_digest(const ar_cell_t *cell, char out[65])
{
    ar_sha256_t sha;
    ar_sha256_init(&sha);
    for (size_t i = 0; cell->env && i < aorta_env_count(cell->env); i++) {
        put(&sha, aorta_env_name_at(cell->env, i));
        put(&sha, aorta_env_value_at(cell->env, i));
    }
    ar_sha256_hex(&sha, out);
}

static void collectors_digest(const ar_plan_t *plan, char out[65])
{
    ar_sha256_t sha;
    ar_sha256_init(&sha);
    for (size_t c = 0; c < plan->collector_count; c++) {
        const ar_collect_entry_t *entry = &plan->collectors[c];
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
    ar_sha256_hex(&sha, out);
}

/* The chosen ranks, which decide whose captures are recorded; "" when
 * every rank profiles itself, so that such a request's fingerprint is what
 * it was before ranks could be chosen. */
static void ranks_digest(const ar_plan_t *plan, char out[65])
{
    out[0] = '\0';
    if (!plan->rank_count)
        return;
    ar_sha256_t sha;
    ar_sha256_init(&sha);
    char *list = ar_rank_list_format(plan->ranks, plan->rank_count, ",");
    put(&sha, list);
    free(list);
    ar_sha256_hex(&sha, out);
}

static void whole_digest(ar_request_t *request)
{
    ar_sha256_t sha;
    ar_sha256_init(&sha);
    put(&sha, FINGERPRINT_FORM);
    put(&sha, request->command);
    put(&sha, request->recipe);
    put(&sha, request->variables);
    put(&sha, request->collectors);
    if (request->ranks[0])
        put(&sha, request->ranks);
    put(&sha, PACKAGE_VERSION);
    ar_sha256_hex(&sha, request->fingerprint);
}

ar_request_t *ar_request_compute(const ar_plan_t *plan)
{
    ar_request_t *requests = ar_xcalloc(plan->cell_count + 1, sizeof *requests);
    ar_request_t shared;
    memset(&shared, 0, sizeof shared);
    command_digest(plan, shared.command);
    /* The plan was just read from it; a recipe gone since is a digest of
     * nothing, which matches no earlier run. */
    if (plan->recipe_path && ar_sha256_file(plan->recipe_path, shared.recipe) != 0)
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

ar_json_t *ar_request_json(const ar_request_t *request)
{
    ar_json_t *json = ar_json_object();
    ar_json_set(json, "command_sha256", ar_json_string(request->command));
    ar_json_set(json, "recipe_sha256",
                   request->recipe[0] ? ar_json_string(request->recipe) : NULL);
    ar_json_set(json, "variables_sha256", ar_json_string(request->variables));
    ar_json_set(json, "collectors_sha256", ar_json_string(request->collectors));
    if (request->ranks[0])
        ar_json_set(json, "ranks_sha256", ar_json_string(request->ranks));
    ar_json_set(json, "aorta_version", ar_json_string(PACKAGE_VERSION));
    return json;
}

/* Whether the recorded part key differs from ours (missing counts). */
static int differs(const ar_json_t *recorded, const char *key, const char *ours)
{
    ar_json_t *value = ar_json_get(recorded, key);
    if (!ours[0])
        return value != NULL && ar_json_type(value) != AR_JSON_NULL;
    const char *text = ar_json_get_string(value);
    return !text || strcmp(text, ours) != 0;
}

char *ar_request_mismatch(const ar_request_t *request, const ar_json_t *trial_json)
{
    const char *fingerprint =
        ar_json_get_string(ar_json_get(trial_json, "request_fingerprint"));
    if (fingerprint && !strcmp(fingerprint, request->fingerprint))
        return NULL;
    if (!fingerprint)
        return ar_xstrdup("it was recorded without a request fingerprint (by an older "
                             "aorta-run, or not by aorta-run)");
    ar_json_t *recorded = ar_json_get(ar_json_get(trial_json, "config"), "_aorta_request");
    if (ar_json_type(recorded) != AR_JSON_OBJECT)
        return ar_xstrdup("it was recorded for another request (its parts are not on "
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
        return ar_xstrdup("its request changed");
    char *text = ar_xstrdup(names[0]);
    for (size_t i = 1; i < count; i++) {
        char *next = ar_xasprintf("%s%s%s", text, i + 1 == count ? " and " : ", ", names[i]);
        free(text);
        text = next;
    }
    char *phrase = ar_xasprintf("%s changed", text);
    free(text);
    return phrase;
}
