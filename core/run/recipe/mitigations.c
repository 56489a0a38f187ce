/* mitigations.c - named variable bundles: 'none', inline, sidecars. */
#include "config.h"

#include "recipe/mitigations.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "sys/files.h"
#include "output/json.h"
#include "keyindex.h"
#include "sys/quote.h"
#include "xalloc.h"

/* Like a recipe (1 MiB): mitigations are a few variables each. */
#define SIDECAR_MAX_BYTES (1u << 20)
#define SIDECAR_MAX_DEPTH 64

typedef struct mitigation {
    char *name;
    aorta_env_t *vars;
    char *source;
} mitigation_t;

struct aorta_mitigations {
    mitigation_t *items;
    size_t count;
    size_t capacity;
    aorta_keyindex_t index;  /* name -> position in items: a sidecar may define many */
    aorta_env_t *none;
};

aorta_mitigations_t *aorta_mitigations_new(void)
{
    aorta_mitigations_t *table = aorta_xcalloc(1, sizeof *table);
    table->none = aorta_env_new();
    return table;
}

void aorta_mitigations_free(aorta_mitigations_t *table)
{
    if (!table)
        return;
    for (size_t i = 0; i < table->count; i++) {
        free(table->items[i].name);
        aorta_env_free(table->items[i].vars);
        free(table->items[i].source);
    }
    free(table->items);
    aorta_keyindex_clear(&table->index);
    aorta_env_free(table->none);
    free(table);
}

static const mitigation_t *find(const aorta_mitigations_t *table, const char *name)
{
    size_t position = aorta_keyindex_find(&table->index, name);
    return position == AORTA_KEYINDEX_NONE ? NULL : &table->items[position];
}

const aorta_env_t *aorta_mitigations_find(const aorta_mitigations_t *table, const char *name)
{
    if (strcmp(name, "none") == 0)
        return table->none;
    const mitigation_t *found = find(table, name);
    return found ? found->vars : NULL;
}

static int same_vars(const aorta_env_t *a, const aorta_env_t *b)
{
    if (aorta_env_count(a) != aorta_env_count(b))
        return 0;
    for (size_t i = 0; i < aorta_env_count(a); i++) {
        const char *other = aorta_env_get(b, aorta_env_name_at(a, i));
        if (!other || strcmp(other, aorta_env_value_at(a, i)) != 0)
            return 0;
    }
    return 1;
}

int aorta_mitigations_define(aorta_mitigations_t *table, const char *name, aorta_env_t *vars,
                             const char *source, char **error)
{
    char *quoted = aorta_repr_str(name);
    *error = NULL;
    if (strcmp(name, "none") == 0) {
        *error = aorta_xstrdup("'none' is built in (no variables) and cannot be redefined");
    } else if (!name[0]) {
        *error = aorta_xstrdup("a mitigation name must not be empty");
    } else {
        for (size_t i = 0; i < aorta_env_count(vars) && !*error; i++) {
            const char *var = aorta_env_name_at(vars, i);
            if (!var[0] || strchr(var, '=')) {
                char *text = aorta_repr_str(var);
                *error = aorta_xasprintf("mitigation %s: %s is not a variable name (empty, or "
                                         "holds '=')",
                                         quoted, text);
                free(text);
            }
        }
    }
    const mitigation_t *before = *error ? NULL : find(table, name);
    if (before && !same_vars(before->vars, vars))
        *error = aorta_xasprintf("mitigation %s is defined twice, with different variables: "
                                 "in %s and in %s",
                                 quoted, before->source, source);
    free(quoted);
    if (*error || before) {
        aorta_env_free(vars);
        return *error ? -1 : 0;
    }
    aorta_xgrow((void **)&table->items, &table->capacity, table->count + 1,
                sizeof *table->items);
    mitigation_t *item = &table->items[table->count++];
    item->name = aorta_xstrdup(name);
    item->vars = vars;
    item->source = aorta_xstrdup(source);
    aorta_keyindex_add(&table->index, item->name, table->count - 1);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Sidecar files                                                             */
/* ------------------------------------------------------------------------ */

static const char *json_what(const aorta_json_t *value)
{
    switch (aorta_json_type(value)) {
    case AORTA_JSON_NULL:
        return "null";
    case AORTA_JSON_BOOL:
        return "a boolean";
    case AORTA_JSON_INT:
    case AORTA_JSON_DOUBLE:
        return "a number";
    case AORTA_JSON_STRING:
        return "a string";
    case AORTA_JSON_ARRAY:
        return "an array";
    default:
        return "an object";
    }
}

typedef struct sidecar {
    aorta_mitigations_t *table;
    const char *path;
    const char *name;       /* the mitigation being read */
    aorta_env_t *vars;
    char *error;
} sidecar_t;

static int read_var(const char *var, aorta_json_t *value, void *user)
{
    sidecar_t *s = user;
    if (aorta_json_type(value) != AORTA_JSON_STRING) {
        char *name = aorta_repr_str(s->name), *text = aorta_repr_str(var);
        s->error = aorta_xasprintf("%s: mitigations[%s][%s]: must be a string, got %s", s->path,
                                   name, text, json_what(value));
        free(name);
        free(text);
        return 1;
    }
    aorta_env_set(s->vars, var, aorta_json_get_string(value));
    return 0;
}

static int read_mitigation(const char *name, aorta_json_t *value, void *user)
{
    sidecar_t *s = user;
    if (aorta_json_type(value) != AORTA_JSON_OBJECT) {
        char *text = aorta_repr_str(name);
        s->error = aorta_xasprintf("%s: mitigations[%s]: must be an object of VAR: \"value\", "
                                   "got %s",
                                   s->path, text, json_what(value));
        free(text);
        return 1;
    }
    s->name = name;
    s->vars = aorta_env_new();
    aorta_json_foreach(value, read_var, s);
    if (s->error) {
        aorta_env_free(s->vars);
        return 1;
    }
    char *why = NULL;
    if (aorta_mitigations_define(s->table, name, s->vars, s->path, &why) != 0) {
        s->error = aorta_xasprintf("%s: %s", s->path, why);
        free(why);
        return 1;
    }
    return 0;
}

int aorta_mitigations_load_file(aorta_mitigations_t *table, const char *path, char **error)
{
    static const char SHAPE[] = "{\"version\": 1, \"mitigations\": {NAME: {VAR: \"value\"}}}";
    *error = NULL;
    size_t len = 0;
    char *text = aorta_read_user_file(path, SIDECAR_MAX_BYTES, &len);
    if (!text) {
        *error = aorta_xasprintf("%s: cannot read the mitigations file: %s", path,
                                 strerror(errno));
        return -1;
    }
    aorta_json_t *json = aorta_json_parse(text, len, SIDECAR_MAX_DEPTH);
    free(text);
    aorta_json_t *version = aorta_json_get(json, "version");
    aorta_json_t *mitigations = aorta_json_get(json, "mitigations");
    if (aorta_json_type(json) != AORTA_JSON_OBJECT) {
        *error = aorta_xasprintf("%s: not a mitigations file: expected a JSON object %s", path,
                                 SHAPE);
    } else if (aorta_json_type(version) != AORTA_JSON_INT || aorta_json_get_int(version) != 1) {
        *error = aorta_xasprintf("%s: \"version\" must be 1 (%s)", path, SHAPE);
    } else if (mitigations && aorta_json_type(mitigations) != AORTA_JSON_OBJECT) {
        *error = aorta_xasprintf("%s: \"mitigations\" must be an object (%s), got %s", path,
                                 SHAPE, json_what(mitigations));
    } else if (mitigations) {
        sidecar_t s = {table, path, NULL, NULL, NULL};
        aorta_json_foreach(mitigations, read_mitigation, &s);
        *error = s.error;
    }
    aorta_json_free(json);
    return *error ? -1 : 0;
}
