/* SPDX-License-Identifier: MIT */
/* collect.c - selecting, validating and ordering the collectors. */
#include "config.h"

#include "recipe/collect.h"
#include "recipe/resources.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "sys/suggest.h"
#include "sys/quote.h"
#include "xalloc.h"

/* One collector asked for, before it is checked. */
typedef struct request {
    const char *name;
    const aorta_options_t *given;   /* NULL: defaults */
    const char *where;              /* "FILE:LINE:COLUMN", or NULL for --collect */
    char *const *option_where;      /* each given option's key position, or NULL */
    aorta_options_t *owned;         /* given, copied to take --option's values */
} request_t;

typedef struct selection {
    const char *label;              /* "recipe.collect" or "--collect" */
    const char *where;              /* of the whole request, or NULL */
    request_t *requests;
    size_t count;
    char *error;
} selection_t;

static int fail(selection_t *s, const char *where, const char *fmt, ...) AORTA_PRINTF(3, 4);

static int fail(selection_t *s, const char *where, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *message = ar_xvasprintf(fmt, args);
    va_end(args);
    s->error = where ? ar_xasprintf("%s: %s: %s", where, s->label, message)
                     : ar_xasprintf("%s: %s", s->label, message);
    free(message);
    /* A collector's message may hold a newline: errors are one line. */
    for (char *c = s->error; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    return -1;
}

size_t ar_collect_split(const char *value, char ***names)
{
    *names = NULL;
    size_t count = 0;
    for (const char *start = value; start;) {
        const char *comma = strchr(start, ',');
        size_t len = comma ? (size_t)(comma - start) : strlen(start), stripped = 0;
        const char *name = aorta_text_strip(start, len, &stripped);
        if (stripped > 0) {
            *names = ar_xrealloc(*names, (count + 1) * sizeof **names);
            (*names)[count++] = ar_xstrndup(name, stripped);
        }
        start = comma ? comma + 1 : NULL;
    }
    return count;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names must be loaded collectors: list every unknown one in the order
 * asked, the collectors there are, and why a broken one of that name
 * was skipped. */
static int check_names(selection_t *s, const ar_registry_t *registry)
{
    const char **unknown = ar_xcalloc(s->count + 1, sizeof *unknown);
    size_t unknown_count = 0;
    const char *first_where = NULL;
    for (size_t i = 0; i < s->count; i++)
        if (!ar_registry_open(registry, s->requests[i].name)) {
            if (!unknown_count)
                first_where = s->requests[i].where;
            unknown[unknown_count++] = s->requests[i].name;
        }
    if (!unknown_count) {
        free(unknown);
        return 0;
    }
    ar_registry_check_all(registry);
    const char **valid = ar_xcalloc(registry->count + 1, sizeof *valid);
    size_t valid_count = 0;
    for (size_t i = 0; i < registry->count; i++)
        if (registry->modules[i].status == AR_MODULE_OK)
            valid[valid_count++] = registry->modules[i].name;
    qsort(valid, valid_count, sizeof *valid, compare_names);
    char *unknown_text = ar_repr_list(unknown, unknown_count);
    char *valid_text = ar_repr_list(valid, valid_count);
    char *broken = ar_xstrdup("");
    for (size_t i = 0; i < unknown_count; i++) {
        const ar_module_t *failed = ar_registry_find_failed(registry, unknown[i]);
        if (!failed)
            continue;
        char *name = ar_repr_str(unknown[i]);
        char *next = ar_xasprintf("%s; %s is broken (%s: %s)", broken, name, failed->path,
                                     failed->reason);
        free(name);
        free(broken);
        broken = next;
    }
    /* A typo of a collector that is there: say which. */
    for (size_t i = 0; i < unknown_count; i++) {
        const char *near = ar_registry_find_failed(registry, unknown[i])
                               ? NULL
                               : ar_suggest(unknown[i], valid, valid_count);
        if (!near)
            continue;
        char *next = unknown_count == 1
                         ? ar_xasprintf("%s; did you mean '%s'?", broken, near)
                         : ar_xasprintf("%s; did you mean '%s' for '%s'?", broken, near,
                                           unknown[i]);
        free(broken);
        broken = next;
    }
    int status;
    if (registry->count == 0) {
        /* Nothing loaded at all: the search path is what to fix. */
        char *dirs = ar_repr_list((const char *const *)registry->dirs, registry->dir_count);
        status = fail(s, first_where ? first_where : s->where,
                      "unknown collector recipe(s) %s: no collector was found; searched %s "
                      "(add a directory with --plugin-dir or AORTA_PLUGIN_PATH)",
                      unknown_text, dirs);
        free(dirs);
    } else {
        status = fail(s, first_where ? first_where : s->where,
                      "unknown collector recipe(s) %s; valid: %s%s", unknown_text, valid_text,
                      broken);
    }
    free(broken);
    free(valid_text);
    free(unknown_text);
    free(valid);
    free(unknown);
    return status;
}

/* Keep the first request of each name. */
static void dedup(selection_t *s)
{
    size_t kept = 0;
    for (size_t i = 0; i < s->count; i++) {
        int seen = 0;
        for (size_t k = 0; k < kept && !seen; k++)
            seen = strcmp(s->requests[k].name, s->requests[i].name) == 0;
        if (!seen)
            s->requests[kept++] = s->requests[i];
    }
    s->count = kept;
}

static void free_entries(ar_collect_entry_t *entries, size_t count)
{
    for (size_t i = 0; entries && i < count; i++) {
        aorta_options_free(entries[i].given);
        aorta_options_free(entries[i].effective);
    }
    free(entries);
}

/* "; did you mean 'K' for 'k'?" for each given key the collector's table
 * lacks but has a near one of (the collector's own message stays whole);
 * "" when there is none.  Free it. */
static char *option_hints(const ar_collect_entry_t *entry)
{
    const aorta_option_spec_t *table = entry->module->collector.options;
    size_t count = 0;
    while (table && table[count].key)
        count++;
    const char **keys = ar_xcalloc(count + 1, sizeof *keys);
    for (size_t i = 0; i < count; i++)
        keys[i] = table[i].key;
    char *hints = ar_xstrdup("");
    for (size_t i = 0; i < aorta_options_count(entry->given); i++) {
        const char *key = aorta_options_key_at(entry->given, i);
        int known = 0;
        for (size_t k = 0; k < count && !known; k++)
            known = strcmp(keys[k], key) == 0;
        const char *near = known ? NULL : ar_suggest(key, keys, count);
        if (!near)
            continue;
        char *next = ar_xasprintf("%s; did you mean '%s' for '%s'?", hints, near, key);
        free(hints);
        hints = next;
    }
    free(keys);
    return hints;
}

/* The position of the option a validate() message is about ("option
 * 'KEY'" as both collectors word it, or the SDK's "option(s) ['KEY']"), or
 * NULL. */
static const char *option_where(const request_t *request, const char *message)
{
    if (!request->option_where || !request->given || !message)
        return NULL;
    for (size_t i = 0; i < aorta_options_count(request->given) && request->option_where[i]; i++) {
        const char *key = aorta_options_key_at(request->given, i);
        char *needle = ar_xasprintf("option '%s'", key);
        char *alone = ar_xasprintf("option(s) ['%s']", key); /* the SDK's, one key */
        int found = strstr(message, needle) != NULL || strstr(message, alone) != NULL;
        free(alone);
        free(needle);
        if (found)
            return request->option_where[i];
    }
    return NULL;
}

/* --option NAME.KEY=VALUE (cli.c checked the form) over the options of
 * NAME, which must be among the collectors asked for. */
static int apply_cli_options(selection_t *s, char *const *options, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const char *dot = strchr(options[i], '.'), *equals = strchr(dot, '=');
        char *name = ar_xstrndup(options[i], (size_t)(dot - options[i]));
        char *key = ar_xstrndup(dot + 1, (size_t)(equals - dot - 1));
        request_t *request = NULL;
        for (size_t k = 0; k < s->count && !request; k++)
            if (strcmp(s->requests[k].name, name) == 0)
                request = &s->requests[k];
        if (request) {
            if (!request->owned)
                request->owned = request->given ? aorta_options_dup(request->given)
                                                : aorta_options_new();
            aorta_options_set(request->owned, key, equals + 1);
            request->given = request->owned;
            request->where = NULL; /* its errors are --option's now */
            request->option_where = NULL;
        } else {
            const char **asked = ar_xcalloc(s->count + 1, sizeof *asked);
            for (size_t k = 0; k < s->count; k++)
                asked[k] = s->requests[k].name;
            char *list = s->count ? ar_repr_list(asked, s->count) : ar_xstrdup("none");
            s->label = "--option";
            fail(s, NULL, "'%s' is not among the collectors asked for (%s); add it to %s", name,
                 list, s->count ? "--collect or the recipe's collect:" : "--collect");
            free(list);
            free(asked);
        }
        free(key);
        free(name);
        if (!request)
            return -1;
    }
    return 0;
}

/* Run each collector's validate() in the order asked. */
static int validate_all(selection_t *s, const ar_registry_t *registry,
                        ar_collect_entry_t *entries)
{
    aorta_error_t *err = aorta_error_new();
    int status = 0;
    for (size_t i = 0; i < s->count && status == 0; i++) {
        ar_collect_entry_t *entry = &entries[i];
        entry->module = ar_registry_open(registry, s->requests[i].name);
        entry->given = s->requests[i].given ? aorta_options_dup(s->requests[i].given)
                                            : aorta_options_new();
        entry->effective = aorta_options_dup(entry->given);
        aorta_error_clear(err);
        if (entry->module->collector.validate(entry->effective, err) != 0) {
            const char *message = aorta_error_message(err);
            char *hints = option_hints(entry);
            const char *where = option_where(&s->requests[i], message);
            where = where ? where : s->requests[i].where;
            if (s->requests[i].owned) {
                s->label = "--option"; /* the value may be the command line's */
                where = s->where = NULL;
            }
            status = fail(s, where ? where : s->where, "%s%s",
                          message && message[0] ? message : "invalid options (no reason given)",
                          hints);
            free(hints);
        }
    }
    aorta_error_free(err);
    return status;
}

/* Stable sort into wrap order: the lowest wrap_rank (the outermost) first. */
static void sort_in_wrap_order(ar_collect_entry_t *entries, size_t count)
{
    for (size_t i = 1; i < count; i++) {
        ar_collect_entry_t entry = entries[i];
        size_t k = i;
        for (; k > 0 && entries[k - 1].module->collector.wrap_rank
                            > entry.module->collector.wrap_rank;
             k--)
            entries[k] = entries[k - 1];
        entries[k] = entry;
    }
}

/* No two collectors may take one exclusive resource (an HSA queue
 * interceptor, CUPTI's subscriber): the second to attach fails or reports
 * nothing (recipe/resources.c). */
static int check_resources(selection_t *s, const ar_collect_entry_t *entries, size_t count)
{
    char *message = NULL;
    ar_resource_user_t *users = ar_xcalloc(count ? count : 1, sizeof *users);
    for (size_t i = 0; i < count; i++)
        users[i] = (ar_resource_user_t){entries[i].module, entries[i].effective};
    int clear = ar_resources_check(users, count, &message) == 0;
    free(users);
    if (clear)
        return 0;
    int status = fail(s, s->where, "%s", message);
    free(message);
    return status;
}

/* Each collector's own rules about each other one. */
static int check_conflicts(selection_t *s, const ar_collect_entry_t *entries, size_t count)
{
    aorta_error_t *err = aorta_error_new();
    int status = 0;
    for (size_t i = 0; i < count && status == 0; i++) {
        const struct aorta_collector *collector = &entries[i].module->collector;
        for (size_t j = 0; j < count && status == 0 && collector->conflicts; j++) {
            if (i == j)
                continue;
            aorta_error_clear(err);
            if (collector->conflicts(entries[i].effective, entries[j].module->name,
                                     entries[j].effective, err)
                != 0) {
                const char *message = aorta_error_message(err);
                status = message && message[0]
                             ? fail(s, s->where, "%s", message)
                             : fail(s, s->where, "'%s' and '%s' cannot run together",
                                    entries[i].module->name, entries[j].module->name);
            }
        }
    }
    aorta_error_free(err);
    return status;
}

int ar_collect_select(const ar_recipe_t *recipe, const char *cli_collect,
                         char *const *cli_options, size_t cli_option_count,
                         const ar_registry_t *registry, ar_collect_entry_t **out,
                         size_t *count, char **error)
{
    *out = NULL;
    *count = 0;
    *error = NULL;
    char **names = NULL;
    size_t name_count = cli_collect ? ar_collect_split(cli_collect, &names) : 0;
    selection_t s;
    memset(&s, 0, sizeof s);
    if (name_count > 0) {
        /* --collect replaces the names; options of the survivors stay. */
        s.label = "--collect";
        s.requests = ar_xcalloc(name_count, sizeof *s.requests);
        for (size_t i = 0; i < name_count; i++) {
            s.requests[s.count].name = names[i];
            for (size_t k = 0; recipe && k < recipe->collect_count; k++)
                if (strcmp(recipe->collect[k].name, names[i]) == 0) {
                    s.requests[s.count].given = recipe->collect[k].options;
                    break;
                }
            s.count++;
        }
    } else if (recipe && recipe->collect_count > 0) {
        s.label = "recipe.collect";
        s.where = recipe->collect_where;
        s.requests = ar_xcalloc(recipe->collect_count, sizeof *s.requests);
        for (size_t i = 0; i < recipe->collect_count; i++) {
            s.requests[i].name = recipe->collect[i].name;
            s.requests[i].given = recipe->collect[i].options;
            s.requests[i].where = recipe->collect[i].where;
            s.requests[i].option_where = recipe->collect[i].option_where;
        }
        s.count = recipe->collect_count;
    }
    ar_collect_entry_t *entries = NULL;
    int status = 0;
    if (s.count > 0 && check_names(&s, registry) != 0) {
        status = -1;
    } else if (dedup(&s), apply_cli_options(&s, cli_options, cli_option_count) != 0) {
        status = -1;
    } else if (s.count > 0) {
        entries = ar_xcalloc(s.count, sizeof *entries);
        status = validate_all(&s, registry, entries);
        if (status == 0) {
            sort_in_wrap_order(entries, s.count);
            status = check_resources(&s, entries, s.count) != 0
                             || check_conflicts(&s, entries, s.count) != 0
                         ? -1
                         : 0;
        }
    }
    if (status != 0) {
        free_entries(entries, s.count);
        *error = s.error;
    } else {
        *out = entries;
        *count = entries ? s.count : 0;
    }
    for (size_t i = 0; i < s.count; i++)
        aorta_options_free(s.requests[i].owned);
    free(s.requests);
    for (size_t i = 0; i < name_count; i++)
        free(names[i]);
    free(names);
    return status;
}

int ar_collect_effective_options(const ar_collect_entry_t *chosen,
                                    const ar_module_t *module, aorta_options_t **out,
                                    char **error)
{
    *error = NULL;
    const ar_collect_entry_t *entry = chosen;
    *out = aorta_options_dup(entry ? entry->effective : NULL);
    if (entry)
        return 0;
    aorta_error_t *err = aorta_error_new();
    int status = module->collector.validate(*out, err);
    if (status != 0) {
        const char *message = aorta_error_message(err);
        *error = ar_xasprintf("%s: its default options are refused: %s", module->name,
                                 message ? message : "(no reason given)");
        aorta_options_free(*out);
        *out = NULL;
    }
    aorta_error_free(err);
    return status == 0 ? 0 : -1;
}
