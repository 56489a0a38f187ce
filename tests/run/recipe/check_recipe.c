/* SPDX-License-Identifier: MIT */
/* The recipe schema: every upstream fixture gives the outcome its
 * FIXTURES.md table says, every kind of mistake is one error naming the key
 * at its file:line:column, and what loads carries every key's meaning. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "recipe_util.h"

static char *dir;

static void setup(void)
{
    dir = tu_tmpdir();
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
}

static char *fixture(const char *name)
{
    char *rel = ar_xasprintf("tests/run/recipe/fixtures/%s", name);
    char *path = tu_srcdir(rel);
    free(rel);
    return path;
}

/* dir/name holding text; free it. */
static char *write_file(const char *name, const char *text)
{
    char *path = tu_join(dir, name);
    tu_write(path, text);
    return path;
}

static void expect_cell(const ar_recipe_t *recipe, size_t index, const char *name,
                        const char *m, const char *d, size_t vars)
{
    ck_assert_uint_gt(recipe->cell_count, index);
    const ar_cell_t *cell = &recipe->cells[index];
    ck_assert_str_eq(cell->name, name);
    ck_assert_str_eq(cell->mitigation, m);
    ck_assert_str_eq(cell->diagnostic, d);
    ck_assert_uint_eq(aorta_env_count(cell->env), vars);
}

/* ------------------------------------------------------------------------ */
/* The fixtures of FIXTURES.md                                               */
/* ------------------------------------------------------------------------ */

START_TEST(probe_minimal_loads_one_cell)
{
    char *path = fixture("tests_probe_fixtures_probe_minimal.yaml");
    ru_load_t load = ru_load_path(path, NULL);
    ck_assert_ptr_null(load.error);
    ck_assert_str_eq(load.warnings, "");
    ck_assert_uint_eq(load.recipe->cell_count, 1);
    expect_cell(load.recipe, 0, "none-none", "none", "none", 0);
    ck_assert_int_eq(load.recipe->trials, 1);
    ck_assert_str_eq(load.recipe->ticket, "PROBE-188-SMOKE");
    ck_assert_uint_eq(load.recipe->collect_count, 0);
    ck_assert(load.recipe->timeout_sec == 0);
    ck_assert_str_eq(load.recipe->env_passthrough_mode, "inherit");
    ck_assert_int_eq(load.recipe->has_retain, 0);
    ck_assert_int_eq(load.recipe->has_stop_after, 0);
    ck_assert_ptr_null(load.recipe->launcher);
    ru_load_free(&load);
    free(path);
}
END_TEST

START_TEST(all_ranks_reads_as_a_boolean)
{
    ru_load_t load = ru_load_text(dir, "r.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                                                 "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                                 "all_ranks: yes\n",
                                  NULL);
    ck_assert_ptr_null(load.error);
    ck_assert_int_eq(load.recipe->all_ranks, 1);
    ru_load_free(&load);
}
END_TEST

START_TEST(ranks_read_sorted_and_allowed_with_a_launcher_and_stop_after)
{
    ru_load_t load = ru_load_text(dir, "r.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                                                 "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                                 "launcher: [mpirun]\n"
                                                 "stop_after: {events: 1, max_trials: 2}\n"
                                                 "ranks: [3, 0, 65535]\n",
                                  NULL);
    ck_assert_ptr_null(load.error);
    ck_assert_uint_eq(load.recipe->rank_count, 3);
    ck_assert_int_eq(load.recipe->ranks[0], 0);
    ck_assert_int_eq(load.recipe->ranks[1], 3);
    ck_assert_int_eq(load.recipe->ranks[2], 65535);
    ru_load_free(&load);
}
END_TEST

START_TEST(two_cell_needs_tf32_off_defined)
{
    char *path = fixture("tests_probe_fixtures_probe_two_cell.yaml");
    ru_load_t load = ru_load_path(path, NULL);
    ck_assert_ptr_null(load.recipe);
    char *expected = ar_xasprintf(
        "%s:7:5: recipe.mitigation_axis: mitigation 'tf32_off' is not defined ('none' is the "
        "only built-in); define it in the recipe under 'mitigations:' ('tf32_off': {VAR: "
        "\"value\"}) or in a --mitigations-file JSON sidecar ({\"version\": 1, \"mitigations\": "
        "{NAME: {VAR: \"value\"}}})",
        path);
    ck_assert_str_eq(load.error, expected);
    free(expected);
    ru_load_free(&load);

    /* Defined inline. */
    char *text = tu_read(path);
    char *inline_text = ar_xasprintf("%smitigations:\n  tf32_off: {DISABLE_TF32: \"1\"}\n",
                                        text);
    load = ru_load_text(dir, "inline.yaml", inline_text, NULL);
    ck_assert_ptr_null(load.error);
    ck_assert_uint_eq(load.recipe->cell_count, 2);
    expect_cell(load.recipe, 0, "none-none", "none", "none", 0);
    expect_cell(load.recipe, 1, "tf32_off-none", "tf32_off", "none", 1);
    ck_assert_str_eq(aorta_env_get(load.recipe->cells[1].env, "DISABLE_TF32"), "1");
    ru_load_free(&load);

    /* Defined in a sidecar. */
    char *sidecar = write_file("tf32.json", "{\"version\": 1, \"mitigations\": {\"tf32_off\": "
                                            "{\"DISABLE_TF32\": \"1\"}}}");
    char *sidecars[] = {sidecar, NULL};
    load = ru_load_path(path, sidecars);
    ck_assert_ptr_null(load.error);
    ck_assert_uint_eq(load.recipe->cell_count, 2);
    expect_cell(load.recipe, 1, "tf32_off-none", "tf32_off", "none", 1);
    ru_load_free(&load);
    free(sidecar);
    free(inline_text);
    free(text);
    free(path);
}
END_TEST

START_TEST(needs_sidecar_loads_with_the_sidecar)
{
    char *path = fixture("tests_probe_fixtures_probe_needs_sidecar.yaml");
    ru_load_t load = ru_load_path(path, NULL);
    ck_assert_ptr_null(load.recipe);
    ck_assert_ptr_nonnull(strstr(load.error, ":7:5: recipe.mitigation_axis: mitigation "
                                             "'sidecar_only_mitigation' is not defined"));
    ck_assert_ptr_nonnull(strstr(load.error, "'mitigations:'"));
    ck_assert_ptr_nonnull(strstr(load.error, "--mitigations-file"));
    ru_load_free(&load);

    char *sidecar = fixture("tests_probe_fixtures_probe_sidecar.json");
    char *sidecars[] = {sidecar, NULL};
    load = ru_load_path(path, sidecars);
    ck_assert_ptr_null(load.error);
    ck_assert_uint_eq(load.recipe->cell_count, 2);
    expect_cell(load.recipe, 1, "sidecar_only_mitigation-none", "sidecar_only_mitigation",
                "none", 1);
    ck_assert_str_eq(aorta_env_get(load.recipe->cells[1].env, "SIDECAR_ONLY_FLAG"), "1");
    ck_assert_str_eq(load.recipe->ticket, "PROBE-188-SIDECAR");
    ru_load_free(&load);
    free(sidecar);
    free(path);
}
END_TEST

START_TEST(phase_2_keys_load_with_one_warning)
{
    char *path = fixture("tests_probe_fixtures_probe_with_phase_2_keys.yaml");
    ru_load_t load = ru_load_path(path, NULL);
    ck_assert_ptr_null(load.error);
    char *expected = ar_xasprintf("aorta-run: warning: %s: ignoring keys for features "
                                     "aorta-run does not have: custom_patterns\n",
                                     path);
    ck_assert_str_eq(load.warnings, expected);
    free(expected);
    ck_assert_uint_eq(load.recipe->cell_count, 1);
    ck_assert_ptr_null(load.recipe->ticket);
    ru_load_free(&load);
    free(path);
}
END_TEST

START_TEST(smoke_warns_then_needs_its_mitigation)
{
    char *path = fixture("recipes_probe_example-probe-smoke.yaml");
    ru_load_t load = ru_load_path(path, NULL);
    char *expected = ar_xasprintf("aorta-run: warning: %s: ignoring keys for features "
                                     "aorta-run does not have: step_time_regex, collect_paths\n",
                                     path);
    ck_assert_str_eq(load.warnings, expected);
    free(expected);
    ck_assert_ptr_null(load.recipe);
    ck_assert_ptr_nonnull(strstr(load.error, ":33:5: recipe.mitigation_axis: mitigation "
                                             "'pytorch_no_cuda_memory_caching' is not defined"));
    ru_load_free(&load);

    char *sidecar = write_file("caching.json",
                               "{\"version\": 1, \"mitigations\": {"
                               "\"pytorch_no_cuda_memory_caching\": "
                               "{\"PYTORCH_NO_CUDA_MEMORY_CACHING\": \"1\"}}}");
    char *sidecars[] = {sidecar, NULL};
    load = ru_load_path(path, sidecars);
    ck_assert_ptr_null(load.error);
    ck_assert_uint_eq(load.recipe->cell_count, 2);
    ck_assert_int_eq(load.recipe->trials, 2);
    expect_cell(load.recipe, 0, "none-none", "none", "none", 0);
    expect_cell(load.recipe, 1, "pytorch_no_cuda_memory_caching-none",
                "pytorch_no_cuda_memory_caching", "none", 1);
    ck_assert(load.recipe->timeout_sec == 1800);
    ck_assert_str_eq(load.recipe->env_passthrough_mode, "inherit");
    ru_load_free(&load);
    free(sidecar);
    free(path);
}
END_TEST

static void expect_options(const aorta_options_t *options, const char *const *pairs)
{
    size_t count = 0;
    for (; pairs[2 * count]; count++) {
        ck_assert_str_eq(aorta_options_key_at(options, count), pairs[2 * count]);
        ck_assert_str_eq(aorta_options_value_at(options, count), pairs[2 * count + 1]);
    }
    ck_assert_uint_eq(aorta_options_count(options), count);
}

START_TEST(hip_gemm_collects_rocprof_with_string_options)
{
    char *path = fixture("examples_profiling_rocprof_hip-gemm_recipe.yaml");
    ru_load_t load = ru_load_path(path, NULL);
    ck_assert_ptr_null(load.error);
    ck_assert_str_eq(load.warnings, "");
    ck_assert_uint_eq(load.recipe->collect_count, 1);
    ck_assert_str_eq(load.recipe->collect[0].name, "rocprof");
    static const char *const pairs[] = {"trace", "kernel", "output_format", "csv", "stats", "1",
                                        "summary_units", "msec", NULL};
    expect_options(load.recipe->collect[0].options, pairs);
    char *where = ar_xasprintf("%s:34:3", path);
    ck_assert_str_eq(load.recipe->collect[0].where, where);
    free(where);
    ck_assert_str_eq(load.recipe->ticket, "PROFILING-HIP-GEMM");
    ck_assert(load.recipe->timeout_sec == 600);
    ru_load_free(&load);
    free(path);
}
END_TEST

START_TEST(triton_vecadd_collects_proton)
{
    char *path = fixture("examples_profiling_proton_triton-vecadd_recipe.yaml");
    ru_load_t load = ru_load_path(path, NULL);
    ck_assert_ptr_null(load.error);
    ck_assert_uint_eq(load.recipe->collect_count, 1);
    ck_assert_str_eq(load.recipe->collect[0].name, "proton");
    static const char *const pairs[] = {"mode", "cli", "backend", "auto", "context", "shadow",
                                        "data", "tree", NULL};
    expect_options(load.recipe->collect[0].options, pairs);
    ck_assert(load.recipe->timeout_sec == 1800);
    ru_load_free(&load);
    free(path);
}
END_TEST

START_TEST(the_fixture_sidecar_is_valid)
{
    char *path = fixture("tests_probe_fixtures_probe_sidecar.json");
    ar_mitigations_t *table = ar_mitigations_new();
    char *error = NULL;
    ck_assert_int_eq(ar_mitigations_load_file(table, path, &error), 0);
    ck_assert_ptr_null(error);
    const aorta_env_t *vars = ar_mitigations_find(table, "sidecar_only_mitigation");
    ck_assert_ptr_nonnull(vars);
    ck_assert_uint_eq(aorta_env_count(vars), 1);
    ck_assert_str_eq(aorta_env_get(vars, "SIDECAR_ONLY_FLAG"), "1");
    ck_assert_uint_eq(aorta_env_count(ar_mitigations_find(table, "none")), 0);
    ck_assert_ptr_null(ar_mitigations_find(table, "tf32_off"));
    ar_mitigations_free(table);
    free(path);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* One error per kind, at its file:line:column                               */
/* ------------------------------------------------------------------------ */

#define HEAD                                                                                   \
    "schema_version: 1\n"                                                                      \
    "mode: probe\n"                                                                            \
    "trials: 1\n"                                                                              \
    "mitigation_axis: [none]\n"                                                                \
    "diagnostic_axis: [none]\n"
#define AXES "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
/* 59 ASCII letters: a two-byte character after them straddles the 60-byte cut. */
#define A59 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

typedef struct error_case {
    const char *text;
    const char *sidecar;   /* JSON text of a sidecar, or NULL */
    const char *expected;  /* after "PATH"; {sidecar} stands for the sidecar's path */
} error_case_t;

static const error_case_t ERRORS[] = {
    /* the document */
    {"- a\n- b\n", NULL,
     ":1:1: recipe: must be a mapping of keys (schema_version: 1, mode: probe, ...), got a list"},
    {"probe\n", NULL,
     ":1:1: recipe: must be a mapping of keys (schema_version: 1, mode: probe, ...), got a "
     "string ('probe')"},
    {"", NULL,
     ":1:1: the recipe is empty; expected a mapping of keys (schema_version: 1, mode: probe, "
     "trials, mitigation_axis, diagnostic_axis, ...)"},
    {"# nothing here\n", NULL,
     ":1:1: the recipe is empty; expected a mapping of keys (schema_version: 1, mode: probe, "
     "trials, mitigation_axis, diagnostic_axis, ...)"},
    {HEAD "1: x\n", NULL, ":6:1: recipe: must be a mapping with string keys, got an integer (1)"},
    {HEAD "trials: 2\n", NULL, ":6:1: duplicate key 'trials' (first at line 3, column 1)"},
    {HEAD "---\ntrials: 2\n", NULL, ":6:1: a second YAML document; a recipe is one document"},
    {HEAD "ticket: \"open\n", NULL,
     ":7:1: YAML syntax error: found unexpected end of stream (while scanning a quoted scalar "
     "at line 6, column 9)"},
    /* schema_version and mode */
    {"mode: probe\ntrials: 1\n" AXES, NULL,
     ":1:1: recipe.schema_version: missing; a probe recipe starts with 'schema_version: 1' and "
     "'mode: probe'"},
    {"schema_version: 2\nmode: probe\ntrials: 1\n" AXES, NULL,
     ":1:17: recipe.schema_version: must be the integer 1, got an integer (2)"},
    {"schema_version: \"1\"\nmode: probe\ntrials: 1\n" AXES, NULL,
     ":1:17: recipe.schema_version: must be the integer 1, got a string ('1')"},
    {"schema_version: 1\ntrials: 1\n" AXES, NULL,
     ":1:1: recipe.mode: missing; aorta-run reads 'mode: probe' recipes: add 'mode: probe'"},
    {"schema_version: 1\nmode: triage\nworkload: fsdp\n", NULL,
     ":2:7: recipe.mode: must be 'probe', got a string ('triage'); aorta-run runs probe "
     "recipes only (cells from mitigation_axis x diagnostic_axis, the command after '--'): "
     "upstream's workload flow (mode: triage) is not available"},
    /* keys */
    {HEAD "trails: 3\n", NULL,
     ":6:1: recipe: unknown key 'trails' (did you mean 'trials'?); a probe recipe has: schema_version, mode, ticket, "
     "trials, mitigation_axis, diagnostic_axis, mitigations, timeout_per_trial, "
     "env_passthrough_mode, collect, retain, stop_after, launcher, baseline, all_ranks, ranks, warmup_trials, order"},
    {HEAD "order: shuffled\n", NULL,
     ":6:8: recipe.order: must be one of interleaved, sequential, random, got a string "
     "('shuffled')"},
    {HEAD "warmup_trials: -1\n", NULL,
     ":6:16: recipe.warmup_trials: must be an integer >= 0, got an integer (-1)"},
    {HEAD "baseline: nope\n", NULL,
     ":6:11: recipe.baseline: no cell is named 'nope'; the cells are named "
     "<mitigation>-<diagnostic> (e.g. 'none-none')"},
    {HEAD "steps: 10\n", NULL,
     ":6:1: recipe.steps: a key of upstream's workload flow (mode: triage), which aorta-run "
     "does not have; a probe recipe runs the command given after '--'"},
    {"schema_version: 1\nmode: probe\n" AXES, NULL,
     ":1:1: recipe.trials: missing; a probe recipe needs schema_version, mode, trials, "
     "mitigation_axis and diagnostic_axis"},
    {"schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [none]\n", NULL,
     ":1:1: recipe.diagnostic_axis: missing; a probe recipe needs schema_version, mode, trials, "
     "mitigation_axis and diagnostic_axis"},
    /* scalars */
    {"schema_version: 1\nmode: probe\ntrials: 0\n" AXES, NULL,
     ":3:9: recipe.trials: must be an integer >= 1, got an integer (0)"},
    {"schema_version: 1\nmode: probe\ntrials: \"3\"\n" AXES, NULL,
     ":3:9: recipe.trials: must be an integer >= 1, got a string ('3')"},
    {"schema_version: 1\nmode: probe\ntrials: yes\n" AXES, NULL,
     ":3:9: recipe.trials: must be an integer >= 1, got a boolean (yes)"},
    {"schema_version: 1\nmode: probe\ntrials: 99999999999999999999\n" AXES, NULL,
     ":3:9: recipe.trials: must be an integer >= 1, got an integer (99999999999999999999)"},
    {HEAD "timeout_per_trial: -1\n", NULL,
     ":6:20: recipe.timeout_per_trial: must be a number of seconds > 0, or null for no limit, "
     "got an integer (-1)"},
    {HEAD "timeout_per_trial: .inf\n", NULL,
     ":6:20: recipe.timeout_per_trial: must be a number of seconds > 0, or null for no limit, "
     "got a float (.inf)"},
    {HEAD "timeout_per_trial: \"10\"\n", NULL,
     ":6:20: recipe.timeout_per_trial: must be a number of seconds > 0, or null for no limit, "
     "got a string ('10')"},
    /* A long value is cut between two characters, never inside one. */
    {"schema_version: 1\nmode: probe\ntrials: \"" A59 "\xc3\xa9\"\n" AXES, NULL,
     ":3:9: recipe.trials: must be an integer >= 1, got a string ('" A59 "'...)"},
    {HEAD "env_passthrough_mode: always\n", NULL,
     ":6:23: recipe.env_passthrough_mode: must be one of inherit, file, got a string "
     "('always')"},
    {HEAD "ticket: 188\n", NULL,
     ":6:9: recipe.ticket: must be a string, got an integer (188); quote it to make it a "
     "string"},
    {HEAD "ticket: \"a\\0b\"\n", NULL,
     ":6:9: recipe.ticket: must be a string, got a string ('a\\x00b'); a NUL character cannot "
     "be used"},
    /* axes, mitigations, cells */
    {"schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: []\ndiagnostic_axis: [none]\n",
     NULL, ":4:18: recipe.mitigation_axis: must be a non-empty list of strings, got a list"},
    {"schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: none\n"
     "diagnostic_axis: [none]\n",
     NULL,
     ":4:18: recipe.mitigation_axis: must be a non-empty list of strings, got a string "
     "('none')"},
    {"schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [none]\n"
     "diagnostic_axis: [none, 2]\n",
     NULL,
     ":5:25: recipe.diagnostic_axis[1]: must be a string, got an integer (2); quote it to make "
     "it a string"},
    {"schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [none]\n"
     "diagnostic_axis: [none, tf32_off]\n",
     NULL,
     ":5:25: recipe.diagnostic_axis: mitigation 'tf32_off' is not defined ('none' is the only "
     "built-in); define it in the recipe under 'mitigations:' ('tf32_off': {VAR: \"value\"}) "
     "or in a --mitigations-file JSON sidecar ({\"version\": 1, \"mitigations\": {NAME: {VAR: "
     "\"value\"}}})"},
    {HEAD "mitigations: [a]\n", NULL,
     ":6:14: recipe.mitigations: must be a mapping of NAME: {VAR: \"value\"}, got a list"},
    {HEAD "mitigations:\n  m: [X]\n", NULL,
     ":7:6: recipe.mitigations.m: must be a mapping of VAR: \"value\", got a list"},
    {HEAD "mitigations:\n  m: {X: 1}\n", NULL,
     ":7:10: recipe.mitigations.m.X: must be a string, got an integer (1); quote it to make it "
     "a string"},
    {HEAD "mitigations:\n  none: {X: '1'}\n", NULL,
     ":7:3: recipe.mitigations.none: 'none' is built in (no variables) and cannot be "
     "redefined"},
    {HEAD "mitigations:\n  m: {'A=B': '1'}\n", NULL,
     ":7:3: recipe.mitigations.m: mitigation 'm': 'A=B' is not a variable name (empty, or "
     "holds '=')"},
    {HEAD "mitigations:\n  m: {X: '2'}\n", "{\"version\": 1, \"mitigations\": {\"m\": {\"X\": \"1\"}}}",
     ":7:3: recipe.mitigations.m: mitigation 'm' is defined twice, with different variables: "
     "in {sidecar} and in {recipe}:7:3"},
    {"schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [a/b, a_b]\n"
     "diagnostic_axis: [none]\nmitigations: {a/b: {}, a_b: {}}\n",
     NULL,
     ":4:24: recipe.mitigation_axis: cells ('a_b', 'none') and ('a/b', 'none') are both named "
     "'a_b-none'; rename one of the axis values"},
    {"schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [none]\n"
     "diagnostic_axis: [x, x]\nmitigations: {x: {}}\n",
     NULL,
     ":5:22: recipe.diagnostic_axis: 'x' is listed twice (items 1 and 2); remove one"},
    {"schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [tf32_of]\n"
     "diagnostic_axis: [none]\nmitigations: {tf32_off: {X: '1'}}\n",
     NULL,
     ":4:19: recipe.mitigation_axis: mitigation 'tf32_of' is not defined (did you mean "
     "'tf32_off'?); define it in the recipe under 'mitigations:' ('tf32_of': {VAR: \"value\"}) "
     "or in a --mitigations-file JSON sidecar ({\"version\": 1, \"mitigations\": {NAME: {VAR: "
     "\"value\"}}})"},
    {"schema_version: 1\nmode: probe\ntrials: 1\nmitigation_axis: [m]\n"
     "diagnostic_axis: [d]\nmitigations: {m: {X: '1'}, d: {X: '2'}}\n",
     NULL,
     ":5:19: recipe.diagnostic_axis: cell 'm-d': mitigation axis 'm' sets X='1', diagnostic "
     "axis 'd' sets X='2'; pick mitigations that do not set one variable to different values"},
    /* collect */
    {HEAD "collect: rocprof\n", NULL,
     ":6:10: recipe.collect: must be a list of collector names or a mapping of name -> option "
     "dict, got a string ('rocprof')"},
    {HEAD "collect: [rocprof, 7]\n", NULL,
     ":6:20: recipe.collect: collector names must be strings, got an integer (7)"},
    {HEAD "collect: {1: null}\n", NULL,
     ":6:11: recipe.collect: collector names must be strings, got an integer (1)"},
    {HEAD "collect:\n  rocprof: {stats: 1}\n", NULL,
     ":7:20: recipe.collect.rocprof.stats: option values must be strings (they become env-var "
     "knobs), got an integer (1); quote it to make it a string"},
    {HEAD "collect:\n  rocprof: {stats: true}\n", NULL,
     ":7:20: recipe.collect.rocprof.stats: option values must be strings (they become env-var "
     "knobs), got a boolean (true); quote it to make it a string"},
    {HEAD "collect: {bogus: 5}\n", NULL,
     ":6:18: recipe.collect.bogus: options must be a mapping of string->string (option values "
     "become env-var knobs), got an integer (5)"},
    /* retain */
    {HEAD "retain: [none]\n", NULL,
     ":6:9: recipe.retain: must be a mapping of on_fail/on_pass/on_error, got a list"},
    {HEAD "retain: {on_success: none}\n", NULL,
     ":6:10: recipe.retain: unknown key 'on_success'; allowed: on_fail, on_pass, on_error"},
    {HEAD "retain: {on_pass: some}\n", NULL,
     ":6:19: recipe.retain.on_pass: must be one of none, log, summary, full, got a string "
     "('some')"},
    /* stop_after */
    {HEAD "stop_after: {events: 2}\n", NULL,
     ":6:13: recipe.stop_after.max_trials: missing; stop_after needs a cap on the trials of a "
     "cell (max_trials >= events)"},
    {HEAD "stop_after: {max_trials: 2}\n", NULL,
     ":6:13: recipe.stop_after.events: missing; stop_after needs events (how many trials with "
     "the event verdict stop a cell) and max_trials"},
    {HEAD "stop_after: {events: 3, max_trials: 2}\n", NULL,
     ":6:37: recipe.stop_after.max_trials: must be >= events (3), got 2"},
    {HEAD "stop_after: {events: 0, max_trials: 2}\n", NULL,
     ":6:22: recipe.stop_after.events: must be an integer >= 1, got an integer (0)"},
    {HEAD "stop_after: {events: 1, max_trials: 2, event_verdict: crash}\n", NULL,
     ":6:55: recipe.stop_after.event_verdict: must be one of fail, pass, error, got a string "
     "('crash')"},
    {HEAD "stop_after: {events: 1, max_trials: 2, every: 3}\n", NULL,
     ":6:40: recipe.stop_after: unknown key 'every'; allowed: events, max_trials, "
     "event_verdict"},
    /* launcher */
    {HEAD "launcher: mpirun\n", NULL,
     ":6:11: recipe.launcher: must be a list of strings, got a string ('mpirun')"},
    {HEAD "launcher: mpirun -np 2\n", NULL,
     ":6:11: recipe.launcher: must be a list of strings, got a string ('mpirun -np 2'); use a "
     "list: launcher: [mpirun, -np, \"2\"]"},
    {HEAD "launcher: [mpirun, -np, 2]\n", NULL,
     ":6:25: recipe.launcher[2]: must be a string, got an integer (2); quote it to make it a "
     "string"},
    {HEAD "launcher: ['', x]\n", NULL,
     ":6:12: recipe.launcher[0]: the launcher's program must not be empty"},
    /* all_ranks */
    {HEAD "all_ranks: \"yes\"\n", NULL,
     ":6:12: recipe.all_ranks: must be a boolean (true or false), got a string ('yes')"},
    {HEAD "launcher: [mpirun]\nall_ranks: true\n", NULL,
     ":7:12: recipe.all_ranks: cannot be combined with recipe.launcher: with all_ranks the "
     "launcher starts aorta-run itself (mpirun -np N aorta-run ...); drop one of them"},
    {HEAD "stop_after: {events: 1, max_trials: 2}\nall_ranks: true\n", NULL,
     ":7:12: recipe.all_ranks: cannot be combined with recipe.stop_after: each rank would stop "
     "after its own verdicts and the ranks would run different trials"},
    /* ranks */
    {HEAD "ranks: 1\n", NULL,
     ":6:8: recipe.ranks: must be a list of ranks (integers from 0 to 65535), such as [0, 3], "
     "got an integer (1)"},
    {HEAD "ranks: \"0,3\"\n", NULL,
     ":6:8: recipe.ranks: must be a list of ranks (integers from 0 to 65535), such as [0, 3], "
     "got a string ('0,3')"},
    {HEAD "ranks: []\n", NULL,
     ":6:8: recipe.ranks: must list at least one rank, got an empty list; leave ranks out to "
     "profile every rank"},
    {HEAD "ranks: [0, -1]\n", NULL,
     ":6:12: recipe.ranks[1]: must be a rank (an integer from 0 to 65535), got an integer (-1)"},
    {HEAD "ranks: [65536]\n", NULL,
     ":6:9: recipe.ranks[0]: must be a rank (an integer from 0 to 65535), got an integer "
     "(65536)"},
    {HEAD "ranks: [0, \"3\"]\n", NULL,
     ":6:12: recipe.ranks[1]: must be a rank (an integer from 0 to 65535), got a string ('3')"},
    {HEAD "ranks: [0, 1.5]\n", NULL,
     ":6:12: recipe.ranks[1]: must be a rank (an integer from 0 to 65535), got a float (1.5)"},
    {HEAD "ranks: [0, [1]]\n", NULL,
     ":6:12: recipe.ranks[1]: must be a rank (an integer from 0 to 65535), got a list"},
    {HEAD "ranks: [3, 0, 3]\n", NULL, ":6:15: recipe.ranks[2]: rank 3 is listed twice"},
    {HEAD "stop_after: {events: 1, max_trials: 2}\nranks: [0]\n", NULL,
     ":7:8: recipe.ranks: without recipe.launcher, cannot be combined with recipe.stop_after: "
     "aorta-run started once per rank keeps every rank's record, and each rank would stop "
     "after its own verdicts"},
};

static char *replace(const char *text, const char *token, const char *with)
{
    const char *at = strstr(text, token);
    if (!at)
        return ar_xstrdup(text);
    return ar_xasprintf("%.*s%s%s", (int)(at - text), text, with, at + strlen(token));
}

START_TEST(each_mistake_is_one_error_at_its_position)
{
    const error_case_t *c = &ERRORS[_i];
    char *sidecar = c->sidecar ? write_file("sidecar.json", c->sidecar) : NULL;
    char *sidecars[] = {sidecar, NULL};
    ru_load_t load = ru_load_text(dir, "recipe.yaml", c->text, sidecar ? sidecars : NULL);
    ck_assert_ptr_null(load.recipe);
    ck_assert_ptr_nonnull(load.error);
    char *path = tu_join(dir, "recipe.yaml");
    char *with_sidecar = replace(c->expected, "{sidecar}", sidecar ? sidecar : "");
    char *tail = replace(with_sidecar, "{recipe}", path);
    char *expected = ar_xasprintf("%s%s", path, tail);
    ck_assert_str_eq(load.error, expected);
    free(expected);
    free(tail);
    free(with_sidecar);
    free(path);
    ru_load_free(&load);
    free(sidecar);
}
END_TEST

START_TEST(an_unreadable_recipe_names_the_file)
{
    char *path = tu_join(dir, "missing.yaml");
    ru_load_t load = ru_load_path(path, NULL);
    char *expected = ar_xasprintf("%s: cannot read the recipe: No such file or directory",
                                     path);
    ck_assert_str_eq(load.error, expected);
    free(expected);
    ru_load_free(&load);
    free(path);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Sidecars                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct sidecar_case {
    const char *text;
    const char *expected;  /* after "PATH" (":LINE:COLUMN: " or ": ") */
} sidecar_case_t;

#define SHAPE "{\"version\": 1, \"mitigations\": {NAME: {VAR: \"value\"}}}"

static const sidecar_case_t SIDECARS[] = {
    {"{\"version\": 1, \"mitigations\": ", ":1:31: JSON syntax error: unexpected end of data"},
    {"[1, 2]", ": not a mitigations file: expected a JSON object " SHAPE},
    {"{\"mitigations\": {}}", ": \"version\" must be 1 (" SHAPE ")"},
    {"{\"version\": 2, \"mitigations\": {}}", ":1:13: \"version\" must be 1 (" SHAPE ")"},
    {"{\"version\": true}", ":1:13: \"version\" must be 1 (" SHAPE ")"},
    {"{\"version\": 1, \"mitigations\": []}",
     ":1:31: \"mitigations\" must be an object (" SHAPE "), got an array"},
    {"{\"version\": 1, \"mitigations\": {\"m\": \"X=1\"}}",
     ":1:37: mitigations['m']: must be an object of VAR: \"value\", got a string"},
    {"{\"version\": 1, \"mitigations\": {\"m\": {\"X\": 1}}}",
     ":1:43: mitigations['m']['X']: must be a string, got a number"},
    {"{\"version\": 1, \"mitigations\": {\"none\": {}}}",
     ":1:40: 'none' is built in (no variables) and cannot be redefined"},
    {"{\"version\": 1, \"mitigations\": {\"m\": {\"\": \"1\"}}}",
     ":1:37: mitigation 'm': '' is not a variable name (empty, or holds '=')"},
    /* Checked like a recipe: strict UTF-8, no NUL, no duplicate key, with
     * the line and column json-c cannot tell. */
    {"{\"version\": 1,\n \"mitigations\": {\"m\": {\"X\": \"a\xff\"}}}",
     ":2:31: JSON syntax error: invalid UTF-8 (byte 0xff)"},
    {"{\"version\": 1, \"mitigations\": {\"m\": {\"X\": \"\xed\xa0\x80\"}}}",
     ":1:44: JSON syntax error: invalid UTF-8 (byte 0xed)"},
    {"{\"version\": 1, \"mitigations\": {\"m\": {\"X\": \"a\\u0000b\"}}}",
     ":1:43: a string holds a NUL character (\\u0000), which cannot be used"},
    {"{\"version\": 1, \"mitigations\": {\"m\": {\"X\\u0000Y\": \"1\"}}}",
     ":1:38: a string holds a NUL character (\\u0000), which cannot be used"},
    {"{\"version\": 1, \"mitigations\": {\"m\": {\"X\": \"\\udc00\"}}}",
     ":1:43: a string holds a lone surrogate escape, which is not UTF-8"},
    {"{\"version\": 1, \"mitigations\": {\"m\": {\"X\": \"1\",\n  \"\\u0058\": \"2\"}}}",
     ":2:3: duplicate key 'X' (first at line 1, column 38)"},
    /* What json-c accepts beyond JSON is refused like any syntax error;
     * a syntax error names its line and column (issue 25). */
    {"{\"version\": 1, /* \"mitigations\" */ \"mitigations\": {}}",
     ":1:16: JSON syntax error: quoted object property name expected"},
    {"{'version': 1, \"mitigations\": {}}", ":1:2: JSON syntax error: a single-quoted string"},
    {"{\"version\": 1, \"mitigations\": {\"m\": {\"A\": 'x'}}}",
     ":1:43: JSON syntax error: unexpected character"},
    {"{\"version\": 1, \"mitigations\": {},}", ":1:34: JSON syntax error: unexpected character"},
    {"{\"version\": 1, \"mitigations\": {\"m\": {\"A\": \"1\",}}}",
     ":1:47: JSON syntax error: unexpected character"},
    {"{\"version\": 1,\n  \"mitigations\": {\"m\": {\"X\" \"1\"}}}",
     ":2:29: JSON syntax error: object property name separator ':' expected"},
    {"{\"version\": 1} x", ":1:16: JSON syntax error: unexpected character"},
    {"", ":1:1: JSON syntax error: unexpected end of data"},
    {"{\"version\": 1, \"mitigations\": {}, \"mitigations\": {\"m\": {}}}",
     ":1:35: duplicate key 'mitigations' (first at line 1, column 16)"},
};

START_TEST(a_malformed_sidecar_is_one_line_naming_it)
{
    char *path = write_file("bad.json", SIDECARS[_i].text);
    ar_mitigations_t *table = ar_mitigations_new();
    char *error = NULL;
    ck_assert_int_eq(ar_mitigations_load_file(table, path, &error), -1);
    char *expected = ar_xasprintf("%s%s", path, SIDECARS[_i].expected);
    ck_assert_str_eq(error, expected);
    free(expected);
    free(error);
    ar_mitigations_free(table);
    free(path);
}
END_TEST

START_TEST(sidecars_combine_and_may_repeat_a_definition)
{
    char *one = write_file("one.json", "{\"version\": 1, \"mitigations\": {\"m\": {\"X\": \"1\"}},"
                                       " \"environments\": {\"e\": {}}}");
    char *same = write_file("same.json", "{\"version\": 1, \"mitigations\": {\"m\": {\"X\": "
                                         "\"1\"}, \"n\": {}}}");
    char *other = write_file("other.json", "{\"version\": 1, \"mitigations\": {\"m\": {\"X\": "
                                           "\"2\"}}}");
    char *missing = tu_join(dir, "missing.json");
    ar_mitigations_t *table = ar_mitigations_new();
    char *error = NULL;
    ck_assert_int_eq(ar_mitigations_load_file(table, one, &error), 0);
    ck_assert_int_eq(ar_mitigations_load_file(table, same, &error), 0);
    ck_assert_ptr_nonnull(ar_mitigations_find(table, "n"));
    ck_assert_int_eq(ar_mitigations_load_file(table, other, &error), -1);
    char *expected = ar_xasprintf("%s:1:37: mitigation 'm' is defined twice, with different "
                                     "variables: in %s and in %s",
                                     other, one, other);
    ck_assert_str_eq(error, expected);
    free(expected);
    free(error);
    ck_assert_int_eq(ar_mitigations_load_file(table, missing, &error), -1);
    expected = ar_xasprintf("%s: cannot read the mitigations file: No such file or directory",
                               missing);
    ck_assert_str_eq(error, expected);
    free(expected);
    free(error);
    /* A sidecar past 1 MiB (like a recipe) is refused before it is parsed. */
    size_t big_len = (1u << 20) + 1;
    char *big_text = ar_xmalloc(big_len + 1);
    memset(big_text, ' ', big_len);
    static const char head[] = "{\"version\": 1, \"mitigations\": {}}";
    memcpy(big_text, head, sizeof head - 1);
    big_text[big_len] = '\0';
    char *big = write_file("big.json", big_text);
    ck_assert_int_eq(ar_mitigations_load_file(table, big, &error), -1);
    expected = ar_xasprintf("%s: cannot read the mitigations file: File too large", big);
    ck_assert_str_eq(error, expected);
    free(expected);
    free(error);
    free(big);
    free(big_text);
    ar_mitigations_free(table);
    free(one);
    free(same);
    free(other);
    free(missing);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* What a recipe that loads carries                                          */
/* ------------------------------------------------------------------------ */

START_TEST(every_key_reaches_the_recipe)
{
    ru_load_t load = ru_load_text(dir, "full.yaml",
                        "schema_version: 1\n"
                        "mode: probe\n"
                        "ticket: T-1\n"
                        "trials: 4\n"
                        "timeout_per_trial: 1:30\n"
                        "env_passthrough_mode: file\n"
                        "mitigations:\n"
                        "  tf32: &shared {SHARED: 'yes', TF32: '0'}\n"
                        "  '.hidden': {<<: *shared, EXTRA: ''}\n"
                        "  -dash: {SHARED: 'yes'}\n"
                        "mitigation_axis: [none, tf32]\n"
                        "diagnostic_axis: [.hidden, -dash]\n"
                        "retain: {on_pass: none, on_fail: log}\n"
                        "stop_after: {events: 2, max_trials: 10}\n"
                        "launcher: [mpirun, -np, '2']\n"
                        "collect: [good, good]\n"
                        "hang_window_sec: 30\n",
                        NULL);
    ck_assert_ptr_null(load.error);
    ar_recipe_t *r = load.recipe;
    ck_assert_ptr_nonnull(strstr(load.warnings, "does not have: hang_window_sec\n"));
    ck_assert_str_eq(r->ticket, "T-1");
    ck_assert(r->timeout_sec == 90);
    ck_assert_str_eq(r->env_passthrough_mode, "file");
    /* stop_after's cap is the trial budget. */
    ck_assert_int_eq(r->has_stop_after, 1);
    ck_assert_int_eq(r->stop_events, 2);
    ck_assert_int_eq(r->stop_max_trials, 10);
    ck_assert_int_eq(r->trials, 10);
    ck_assert_str_eq(r->stop_event_verdict, "fail");
    ck_assert_int_eq(r->has_retain, 1);
    ck_assert_int_eq(r->retain_on_pass, AR_RETAIN_NONE);
    ck_assert_int_eq(r->retain_on_fail, AR_RETAIN_LOG);
    ck_assert_int_eq(r->retain_on_error, AR_RETAIN_FULL);
    ck_assert_uint_eq(aorta_argv_count(r->launcher), 3);
    ck_assert_str_eq(aorta_argv_at(r->launcher, 2), "2");
    /* The recipe keeps collect as written; selection removes repeats. */
    ck_assert_uint_eq(r->collect_count, 2);
    ck_assert_uint_eq(aorta_options_count(r->collect[0].options), 0);
    /* m x d in order; parts starting with '.' or '-' get a '_'. */
    ck_assert_uint_eq(r->cell_count, 4);
    expect_cell(r, 0, "none-_.hidden", "none", ".hidden", 3);
    expect_cell(r, 1, "none-_-dash", "none", "-dash", 1);
    expect_cell(r, 2, "tf32-_.hidden", "tf32", ".hidden", 3);
    expect_cell(r, 3, "tf32-_-dash", "tf32", "-dash", 2);
    /* m's variables first, then d's; equal values may repeat. */
    const aorta_env_t *env = r->cells[2].env;
    ck_assert_str_eq(aorta_env_name_at(env, 0), "SHARED");
    ck_assert_str_eq(aorta_env_name_at(env, 1), "TF32");
    ck_assert_str_eq(aorta_env_name_at(env, 2), "EXTRA");
    ck_assert_str_eq(aorta_env_get(env, "EXTRA"), "");
    ru_load_free(&load);
}
END_TEST

START_TEST(null_values_mean_absent)
{
    ru_load_t load = ru_load_text(dir, "nulls.yaml",
                                  HEAD "ticket: ~\ntimeout_per_trial: null\n"
                                       "env_passthrough_mode:\ncollect:\nretain: ~\n"
                                       "stop_after: null\nlauncher: []\nmitigations:\n",
                                  NULL);
    ck_assert_ptr_null(load.error);
    ck_assert_ptr_null(load.recipe->ticket);
    ck_assert(load.recipe->timeout_sec == 0);
    ck_assert_str_eq(load.recipe->env_passthrough_mode, "inherit");
    ck_assert_uint_eq(load.recipe->collect_count, 0);
    ck_assert_ptr_null(load.recipe->collect_where);
    ck_assert_int_eq(load.recipe->has_retain, 0);
    ck_assert_int_eq(load.recipe->has_stop_after, 0);
    ck_assert_int_eq(load.recipe->trials, 1);
    ck_assert_ptr_null(load.recipe->launcher);
    ru_load_free(&load);
    /* An event verdict other than fail, and a float timeout. */
    load = ru_load_text(dir, "verdict.yaml",
                        HEAD "timeout_per_trial: 2.5\n"
                             "stop_after: {events: 1, max_trials: 1, event_verdict: pass}\n",
                        NULL);
    ck_assert_ptr_null(load.error);
    ck_assert_str_eq(load.recipe->stop_event_verdict, "pass");
    ck_assert(load.recipe->timeout_sec == 2.5);
    ru_load_free(&load);
}
END_TEST

/* "[m0, m1, ..., m<n-1>]"; free it. */
static char *names_list(size_t n)
{
    char *list = ar_xstrdup("[m0");
    for (size_t i = 1; i < n; i++) {
        char *next = ar_xasprintf("%s, m%zu", list, i);
        free(list);
        list = next;
    }
    char *out = ar_xasprintf("%s]", list);
    free(list);
    return out;
}

/* A recipe of m x (m + extra) cells over the mitigations m0, m1, ... */
static char *axes_recipe(size_t m, size_t extra)
{
    char *text = ar_xstrdup("schema_version: 1\nmode: probe\ntrials: 1\nmitigations:\n");
    for (size_t i = 0; i < m + extra; i++) {
        char *next = ar_xasprintf("%s  m%zu: {}\n", text, i);
        free(text);
        text = next;
    }
    char *ms = names_list(m), *ds = names_list(m + extra);
    char *out = ar_xasprintf("%smitigation_axis: %s\ndiagnostic_axis: %s\n", text, ms, ds);
    free(ms);
    free(ds);
    free(text);
    return out;
}

START_TEST(at_most_ten_thousand_cells)
{
    char *text = axes_recipe(100, 0);
    ru_load_t load = ru_load_text(dir, "square.yaml", text, NULL);
    ck_assert_ptr_null(load.error);
    ck_assert_uint_eq(load.recipe->cell_count, AR_RECIPE_MAX_CELLS);
    ru_load_free(&load);
    free(text);
    text = axes_recipe(100, 1);
    load = ru_load_text(dir, "wide.yaml", text, NULL);
    ck_assert_ptr_null(load.recipe);
    ck_assert_ptr_nonnull(strstr(load.error, "recipe.diagnostic_axis: 100 mitigation x 101 "
                                             "diagnostic values make 10100 cells; a recipe "
                                             "makes at most 10000"));
    ru_load_free(&load);
    free(text);
}
END_TEST

static Suite *recipe_suite(void)
{
    Suite *suite = suite_create("recipe");
    TCase *tc = tcase_create("fixtures");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, probe_minimal_loads_one_cell);
    tcase_add_test(tc, two_cell_needs_tf32_off_defined);
    tcase_add_test(tc, all_ranks_reads_as_a_boolean);
    tcase_add_test(tc, ranks_read_sorted_and_allowed_with_a_launcher_and_stop_after);
    tcase_add_test(tc, needs_sidecar_loads_with_the_sidecar);
    tcase_add_test(tc, phase_2_keys_load_with_one_warning);
    tcase_add_test(tc, smoke_warns_then_needs_its_mitigation);
    tcase_add_test(tc, hip_gemm_collects_rocprof_with_string_options);
    tcase_add_test(tc, triton_vecadd_collects_proton);
    tcase_add_test(tc, the_fixture_sidecar_is_valid);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);
    tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, each_mistake_is_one_error_at_its_position, 0,
                        (int)(sizeof ERRORS / sizeof ERRORS[0]));
    tcase_add_test(tc, an_unreadable_recipe_names_the_file);
    tcase_add_loop_test(tc, a_malformed_sidecar_is_one_line_naming_it, 0,
                        (int)(sizeof SIDECARS / sizeof SIDECARS[0]));
    tcase_add_test(tc, sidecars_combine_and_may_repeat_a_definition);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);
    tc = tcase_create("values");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, every_key_reaches_the_recipe);
    tcase_add_test(tc, null_values_mean_absent);
    tcase_add_test(tc, at_most_ten_thousand_cells);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(recipe_suite)
