/* SPDX-License-Identifier: MIT */
/* recipe_util.h - helpers the recipe suites share. */
#ifndef AORTA_TEST_RECIPE_UTIL_H
#define AORTA_TEST_RECIPE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "recipe/mitigations.h"
#include "recipe/recipe.h"
#include "sys/diag.h"
#include "testutil.h"
#include "xalloc.h"

/* What loading one recipe gave. */
typedef struct ru_load {
    ar_recipe_t *recipe;
    char *error;        /* NULL when it loaded */
    char *warnings;     /* the diagnostics written while it loaded */
} ru_load_t;

/* Load the recipe at path with the sidecar files of sidecars (NULL-terminated
 * or NULL); a sidecar error lands in error too. */
static inline ru_load_t ru_load_path(const char *path, char *const *sidecars)
{
    ru_load_t out = {NULL, NULL, NULL};
    size_t size = 0;
    FILE *warnings = open_memstream(&out.warnings, &size);
    ck_assert_ptr_nonnull(warnings);
    ar_diag_set_stream(warnings);
    ar_mitigations_t *table = ar_mitigations_new();
    int status = 0;
    for (size_t i = 0; sidecars && sidecars[i] && status == 0; i++)
        status = ar_mitigations_load_file(table, sidecars[i], &out.error);
    if (status == 0)
        ar_recipe_load(path, table, &out.recipe, &out.error);
    ar_mitigations_free(table);
    ar_diag_set_stream(NULL);
    fclose(warnings);
    if (out.error)
        ck_assert_ptr_null(strchr(out.error, '\n'));
    return out;
}

/* Write text as dir/name and load it. */
static inline ru_load_t ru_load_text(const char *dir, const char *name, const char *text,
                                     char *const *sidecars)
{
    char *path = tu_join(dir, name);
    tu_write(path, text);
    ru_load_t out = ru_load_path(path, sidecars);
    free(path);
    return out;
}

static inline void ru_load_free(ru_load_t *load)
{
    ar_recipe_free(load->recipe);
    free(load->error);
    free(load->warnings);
    memset(load, 0, sizeof *load);
}

/* The test-only collectors of tests/fake-collectors. */
static inline ar_registry_t *ru_test_plugins(void)
{
    char *modules = tu_builddir("tests/fake-collectors");
    char *dirs[] = {modules, NULL};
    ar_registry_t *registry = ar_registry_load(dirs);
    free(modules);
    return registry;
}

/* The lines of aorta-run's stderr other than the loader's warnings about
 * the deliberately broken test modules. */
static inline size_t ru_error_lines(const char *err, char **first)
{
    size_t count = 0;
    if (first)
        *first = NULL;
    for (const char *line = err; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        /* The broken modules' warnings, and the design note (what the
         * plan can decide: checked by its own test), are not errors. */
        if (strncmp(line, "aorta-run: warning: skipping ", 29) != 0
            && strncmp(line, "aorta-run: design: ", 19) != 0) {
            if (first && !*first)
                *first = ar_xstrndup(line, len);
            count++;
        }
        line = end ? end + 1 : NULL;
    }
    return count;
}

#endif
