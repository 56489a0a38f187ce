/* SPDX-License-Identifier: MIT */
/* resources.c - exclusive resources of the collectors of a run
 * (resources.h).  The refusal of two HSA queue interceptors reads as it
 * always has (upstream's message, spec/proton.md section 6). */
#include "config.h"

#include "recipe/resources.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "xalloc.h"

#define PHRASE_SIZE 512
#define HSA_QUEUE "hsa-queue-interceptor"

/* One resource a collector takes, with its phrase and remedy ("" when
 * unset). */
typedef struct taken {
    const char *resource;
    char *why;
    char *remedy;
} taken_t;

typedef struct takings {
    taken_t *items;
    size_t count;
} takings_t;

static void add(takings_t *t, const char *resource, aorta_error_t *why, aorta_error_t *remedy)
{
    const char *w = aorta_error_message(why), *r = aorta_error_message(remedy);
    t->items = ar_xrealloc(t->items, (t->count + 1) * sizeof *t->items);
    t->items[t->count++] = (taken_t){resource, ar_xstrdup(w ? w : ""), ar_xstrdup(r ? r : "")};
}

/* Whether a 1.0-1.3 style collector intercepts: the 1.1 slot is preferred;
 * a 1.0 collector answers through caller-sized buffers. */
static int ask_interceptor(const struct aorta_collector *collector, const aorta_options_t *options,
                           aorta_error_t *why, aorta_error_t *remedy)
{
    if (collector->queue_interceptor_why)
        return collector->queue_interceptor_why(options, why, remedy);
    if (!collector->queue_interceptor)
        return 0;
    char why_buf[PHRASE_SIZE] = "", remedy_buf[PHRASE_SIZE] = "";
    int intercepts = collector->queue_interceptor(options, why_buf, PHRASE_SIZE, remedy_buf,
                                                  PHRASE_SIZE);
    why_buf[PHRASE_SIZE - 1] = remedy_buf[PHRASE_SIZE - 1] = '\0';
    if (why_buf[0])
        aorta_error_set(why, "%s", why_buf);
    if (remedy_buf[0])
        aorta_error_set(remedy, "%s", remedy_buf);
    return intercepts;
}

/* What entry takes with its effective options. */
static takings_t list_taken(const ar_resource_user_t *entry)
{
    const struct aorta_collector *collector = &entry->module->collector;
    takings_t t = {NULL, 0};
    int lists_hsa = 0;
    for (const char *const *r = collector->resources; r && *r; r++) {
        aorta_error_t *why = aorta_error_new(), *remedy = aorta_error_new();
        lists_hsa |= !strcmp(*r, HSA_QUEUE);
        if (!collector->takes || collector->takes(entry->options, *r, why, remedy))
            add(&t, *r, why, remedy);
        aorta_error_free(why);
        aorta_error_free(remedy);
    }
    if (!lists_hsa) {
        aorta_error_t *why = aorta_error_new(), *remedy = aorta_error_new();
        if (ask_interceptor(collector, entry->options, why, remedy))
            add(&t, HSA_QUEUE, why, remedy);
        aorta_error_free(why);
        aorta_error_free(remedy);
    }
    return t;
}

static void free_taken(takings_t *t)
{
    for (size_t i = 0; i < t->count; i++) {
        free(t->items[i].why);
        free(t->items[i].remedy);
    }
    free(t->items);
}

/* "x and y", "x", or "" from two texts that may be empty. */
static char *join_two(const char *x, const char *y, const char *separator)
{
    if (x[0] && y[0])
        return ar_xasprintf("%s%s%s", x, separator, y);
    return ar_xstrdup(x[0] ? x : y);
}

/* Why two cannot share the resource. */
static char *consequence(const char *resource)
{
    if (!strcmp(resource, HSA_QUEUE))
        return ar_xstrdup("both install an HSA queue interceptor and the second one to attach "
                          "will fail or report nothing.");
    if (!strcmp(resource, "cupti-subscriber"))
        return ar_xstrdup("both subscribe to CUPTI, which takes one subscriber per process, and "
                          "the second one to attach will fail or report nothing.");
    return ar_xasprintf("both take the exclusive resource '%s', which one collector of a run "
                        "may take.",
                        resource);
}

static char *refusal(const char *a, const char *b, const taken_t *x, const taken_t *y)
{
    char *phrases = join_two(x->why, y->why, " and ");
    char *remedies = join_two(x->remedy, y->remedy, "; ");
    char *way_out = remedies[0]
                        ? ar_xasprintf("%s, or run %s and %s as two separate runs "
                                       "(--collect %s, then --collect %s).",
                                       remedies, a, b, a, b)
                        : ar_xasprintf("Run %s and %s as two separate runs (--collect %s, "
                                       "then --collect %s).",
                                       a, b, a, b);
    char *why = consequence(x->resource);
    char *message = ar_xasprintf("'%s' and '%s' cannot run together%s%s -- %s %s", a, b,
                                 phrases[0] ? " with " : "", phrases, why, way_out);
    free(why);
    free(way_out);
    free(remedies);
    free(phrases);
    return message;
}

int ar_resources_check(const ar_resource_user_t *entries, size_t count, char **message)
{
    *message = NULL;
    takings_t *all = ar_xcalloc(count ? count : 1, sizeof *all);
    for (size_t i = 0; i < count; i++)
        all[i] = list_taken(&entries[i]);
    for (size_t i = 0; i < count && !*message; i++)
        for (size_t j = i + 1; j < count && !*message; j++)
            for (size_t x = 0; x < all[i].count && !*message; x++)
                for (size_t y = 0; y < all[j].count && !*message; y++)
                    if (!strcmp(all[i].items[x].resource, all[j].items[y].resource))
                        *message = refusal(entries[i].module->name, entries[j].module->name,
                                           &all[i].items[x], &all[j].items[y]);
    for (size_t i = 0; i < count; i++)
        free_taken(&all[i]);
    free(all);
    return *message ? -1 : 0;
}
