/* SPDX-License-Identifier: MIT */
/* vars.c - a NAME=VALUE list kept in byte order of the names: the order the
 * env(1) prefix writes its assignments in, and --env prints the bundle in. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "proton.h"

static size_t position(const proton_vars_t *vars, const char *name, int *found)
{
    size_t lo = 0, hi = vars->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int cmp = strcmp(vars->items[mid].name, name);
        if (cmp == 0) {
            *found = 1;
            return mid;
        }
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = 0;
    return lo;
}

static void insert(proton_vars_t *vars, size_t at, const char *name, const char *value)
{
    cc_xgrow((void **)&vars->items, &vars->cap, vars->count + 1, sizeof *vars->items);
    memmove(vars->items + at + 1, vars->items + at, (vars->count - at) * sizeof *vars->items);
    vars->items[at].name = cc_xstrdup(name);
    vars->items[at].value = cc_xstrdup(value);
    vars->count++;
}

void proton_vars_set(proton_vars_t *vars, const char *name, const char *value)
{
    int found;
    size_t at = position(vars, name, &found);
    if (!found) {
        insert(vars, at, name, value);
        return;
    }
    char *copy = cc_xstrdup(value);
    free(vars->items[at].value);
    vars->items[at].value = copy;
}

void proton_vars_setdefault(proton_vars_t *vars, const char *name, const char *value)
{
    int found;
    size_t at = position(vars, name, &found);
    if (!found)
        insert(vars, at, name, value);
}

const char *proton_vars_get(const proton_vars_t *vars, const char *name)
{
    int found;
    size_t at = position(vars, name, &found);
    return found ? vars->items[at].value : NULL;
}

void proton_vars_free(proton_vars_t *vars)
{
    for (size_t i = 0; i < vars->count; i++) {
        free(vars->items[i].name);
        free(vars->items[i].value);
    }
    free(vars->items);
    vars->items = NULL;
    vars->count = vars->cap = 0;
}
