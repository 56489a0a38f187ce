/* SPDX-License-Identifier: MIT */
/* fuzz_recipe.c - a recipe read from a file, as --recipe reads it.
 *
 * A recipe is either read or refused with one line that names the file;
 * a recipe that is read has at least one trial and one cell per pair of
 * axis values.  The YAML layer is also driven on its own, and every node
 * it builds described, as the error messages do. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "aorta/collector.h"
#include "recipe/mitigations.h"
#include "recipe/recipe.h"
#include "recipe/yaml_tree.h"
#include "sys/diag.h"

static FILE *sink;

static void check_error(const char *error, const char *path)
{
    if (!error)
        fz_fail("refused without a message");
    if (strncmp(error, path, strlen(path)) != 0)
        fz_fail("the message does not start with the file: %s", error);
    if (strchr(error, '\n'))
        fz_fail("the message is not one line: %s", error);
}

static void check_recipe(const ar_recipe_t *recipe)
{
    if (recipe->trials < 1 || recipe->cell_count == 0)
        fz_fail("%ld trials, %zu cells", recipe->trials, recipe->cell_count);
    for (size_t i = 0; i < recipe->cell_count; i++)
        if (!recipe->cells[i].name[0] || !recipe->cells[i].env)
            fz_fail("cell %zu is unnamed", i);
    if (recipe->has_stop_after
        && (recipe->stop_events < 1 || recipe->stop_max_trials < recipe->stop_events))
        fz_fail("stop_after %ld of %ld", recipe->stop_events, recipe->stop_max_trials);
    if (recipe->launcher && aorta_argv_count(recipe->launcher) == 0)
        fz_fail("an empty launcher");
}

static void describe_all(const uint8_t *data, size_t size)
{
    ar_yaml_doc_t *doc = NULL;
    char *error = NULL;
    if (ar_yaml_parse("recipe.yaml", (const char *)data, size, &doc, &error) != 0) {
        check_error(error, "recipe.yaml");
        free(error);
        return;
    }
    for (size_t i = 0; i < doc->node_count; i++) {
        char *text = ar_yaml_describe(doc->nodes[i]);
        if (strchr(text, '\n'))
            fz_fail("a description is not one line: %s", text);
        free(text);
    }
    ar_yaml_free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink) {
        sink = fopen("/dev/null", "w");
        ar_diag_set_stream(sink); /* the warnings of millions of inputs */
    }
    fz_write("recipe.yaml", data, size);
    char *path = fz_path("recipe.yaml");
    ar_mitigations_t *mitigations = ar_mitigations_new();
    ar_recipe_t *recipe = NULL;
    char *error = NULL;
    if (ar_recipe_load(path, mitigations, &recipe, &error) == 0)
        check_recipe(recipe);
    else
        check_error(error, path);
    free(error);
    ar_recipe_free(recipe);
    ar_mitigations_free(mitigations);
    free(path);
    describe_all(data, size);
    return 0;
}
