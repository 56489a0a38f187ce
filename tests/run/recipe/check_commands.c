/* SPDX-License-Identifier: MIT */
/* aorta-run end to end with recipes: --dry-run's one JSON object per cell
 * (parsed here with json-c), refused wraps, recipe and flag errors as one
 * line with exit 2, --parse in a child (a crash leaves only the artifact
 * dir), and --env. */
#include "config.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recipe_util.h"

static char *dir;
static char *modules;

static void setup(void)
{
    dir = tu_tmpdir();
    modules = tu_builddir("tests/fake-collectors");
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
    free(modules);
}

/* Run aorta-run --plugin-dir <test modules> ARGS with env changes. */
static int aorta(char **out, char **err, char *const *env, char **args)
{
    char *binary = tu_aorta_run();
    char *argv[48] = {binary, "--plugin-dir", modules};
    size_t n = 3;
    for (size_t i = 0; args[i]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    int status = tu_run(argv, env, out, err);
    free(binary);
    return status;
}

static char *write_file(const char *name, const char *text)
{
    char *path = tu_join(dir, name);
    tu_write(path, text);
    return path;
}

/* The lines of text, each without its newline; *count of them. */
static char **split_lines(const char *text, size_t *count)
{
    char **lines = NULL;
    *count = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        ck_assert_msg(end != NULL, "output does not end with a newline: %s", text);
        lines = ar_xrealloc(lines, (*count + 1) * sizeof *lines);
        lines[(*count)++] = ar_xstrndup(line, (size_t)(end - line));
        line = end + 1;
    }
    return lines;
}

static void free_lines(char **lines, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(lines[i]);
    free(lines);
}

/* Parse one line: it must be one compact JSON object with exactly keys, in
 * that order. */
static json_object *parse_line(const char *line, const char *const *keys)
{
    json_object *obj = json_tokener_parse(line);
    ck_assert_msg(obj && json_object_is_type(obj, json_type_object), "not an object: %s", line);
    ck_assert_str_eq(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN
                                                             | JSON_C_TO_STRING_NOSLASHESCAPE),
                     line);
    size_t i = 0;
    json_object_object_foreach(obj, key, value)
    {
        (void)value;
        ck_assert_msg(keys[i] != NULL, "unexpected key %s in %s", key, line);
        ck_assert_str_eq(key, keys[i]);
        i++;
    }
    ck_assert_ptr_null(keys[i]);
    return obj;
}

static const char *get_string(json_object *obj, const char *key)
{
    json_object *value = NULL;
    ck_assert(json_object_object_get_ex(obj, key, &value));
    ck_assert(json_object_is_type(value, json_type_string));
    return json_object_get_string(value);
}

static void expect_argv(json_object *obj, const char *const *expected)
{
    json_object *argv = NULL;
    ck_assert(json_object_object_get_ex(obj, "argv", &argv));
    size_t n = 0;
    for (; expected[n]; n++) {
        ck_assert_uint_gt(json_object_array_length(argv), n);
        ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(argv, n)),
                         expected[n]);
    }
    ck_assert_uint_eq(json_object_array_length(argv), n);
}

static void expect_env(json_object *obj, const char *const *pairs)
{
    json_object *env = NULL;
    ck_assert(json_object_object_get_ex(obj, "env", &env));
    size_t n = 0;
    json_object_object_foreach(env, key, value)
    {
        ck_assert_ptr_nonnull(pairs[2 * n]);
        ck_assert_str_eq(key, pairs[2 * n]);
        ck_assert_str_eq(json_object_get_string(value), pairs[2 * n + 1]);
        n++;
    }
    ck_assert_ptr_null(pairs[2 * n]);
}

/* stderr holds exactly one line besides the broken modules' warnings, and
 * it is expected. */
static void expect_one_error(const char *err, const char *expected)
{
    char *first = NULL;
    ck_assert_msg(ru_error_lines(err, &first) == 1, "stderr: %s", err);
    ck_assert_str_eq(first, expected);
    free(first);
}

static void expect_no_error(const char *err)
{
    ck_assert_msg(ru_error_lines(err, NULL) == 0, "stderr: %s", err);
}

static const char *const CELL_KEYS[] = {"cell", "env", "argv", "collect_dir", "resumed", NULL};
static const char *const ERROR_KEYS[] = {"cell", "error", "resumed", NULL};

/* ------------------------------------------------------------------------ */
/* --dry-run                                                                 */
/* ------------------------------------------------------------------------ */

START_TEST(dry_run_prints_each_cell_fully_wrapped)
{
    char *recipe = write_file("r.yaml", "schema_version: 1\n"
                                        "mode: probe\n"
                                        "ticket: T 1\n"
                                        "trials: 3\n"
                                        "mitigation_axis: [none, tf32]\n"
                                        "diagnostic_axis: [none, dbg]\n"
                                        "mitigations:\n"
                                        "  tf32: {TF32: '0'}\n"
                                        "  dbg: {DEBUG: '1'}\n"
                                        "collect:\n"
                                        "  good:\n"
                                        "  interceptor_b: {backend: instrumentation}\n"
                                        "  interceptor_a:\n"
                                        "launcher: [mpirun, -np, '2']\n");
    char *output = tu_join(dir, "out");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--recipe", recipe, "--output", output, "--dry-run", "--",
                                      "./app", "x y", NULL}),
                     0);
    expect_no_error(err);
    size_t count = 0;
    char **lines = split_lines(out, &count);
    ck_assert_uint_eq(count, 4);
    static const char *const names[] = {"none-none", "none-dbg", "tf32-none", "tf32-dbg"};
    static const char *const envs[4][5] = {
        {NULL},
        {"DEBUG", "1", NULL},
        {"TF32", "0", NULL},
        {"TF32", "0", "DEBUG", "1", NULL},
    };
    for (size_t i = 0; i < count; i++) {
        json_object *obj = parse_line(lines[i], CELL_KEYS);
        ck_assert_str_eq(get_string(obj, "cell"), names[i]);
        expect_env(obj, envs[i]);
        char *collect_dir = ar_xasprintf("%s/T_1/%s/_subprocess/trial_d0_m0_t0", output,
                                            names[i]);
        ck_assert_str_eq(get_string(obj, "collect_dir"), collect_dir);
        /* Under a launcher: aorta-rank-exec (found next to aorta-run) just
         * inside it, where each rank notes its node, each collector writing
         * into its rank%AORTA_RANK%/. */
        char *helper = tu_builddir("core/aorta-rank-exec");
        char *a_dir = ar_xasprintf("%s/interceptor_a/rank%%AORTA_RANK%%", collect_dir);
        char *b_dir = ar_xasprintf("%s/interceptor_b/rank%%AORTA_RANK%%", collect_dir);
        char *g_dir = ar_xasprintf("%s/good/rank%%AORTA_RANK%%", collect_dir);
        char *a = ar_xasprintf("%s/a-wrapper", a_dir);
        char *b = ar_xasprintf("%s/b-wrapper", b_dir);
        char *g = ar_xasprintf("%s/good-wrapper", g_dir);
        char *node = ar_xasprintf("%s/rank%%AORTA_RANK%%.node", collect_dir);
        char *run_dir = ar_xasprintf("%s/T_1", output);
        expect_argv(obj, (const char *[]){"mpirun", "-np", "2", helper, "--node-file", node,
                                          "--mkdir", g_dir,
                                          "--mkdir", b_dir, "--mkdir", a_dir, "--hold", run_dir,
                                          "--", a, "--", b,
                                          "--backend=instrumentation", "--", g, "--", "./app",
                                          "x y", NULL});
        free(node);
        free(run_dir);
        free(a);
        free(b);
        free(g);
        free(a_dir);
        free(b_dir);
        free(g_dir);
        free(helper);
        free(collect_dir);
        json_object_put(obj);
    }
    /* Nothing was written. */
    ck_assert(!tu_exists(output));
    free_lines(lines, count);
    free(out);
    free(err);
    free(output);
    free(recipe);
}
END_TEST

START_TEST(dry_run_without_a_recipe_is_one_cell)
{
    ck_assert_int_eq(chdir(dir), 0);
    char *cwd = getcwd(NULL, 0);
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--output", "rel/../res", "--ticket", "T/2", "--trials", "3",
                                      "--timeout", "5", "--collect", "good", "--dry-run", "--",
                                      "true", NULL}),
                     0);
    expect_no_error(err);
    size_t count = 0;
    char **lines = split_lines(out, &count);
    ck_assert_uint_eq(count, 1);
    json_object *obj = parse_line(lines[0], CELL_KEYS);
    ck_assert_str_eq(get_string(obj, "cell"), "none-none");
    expect_env(obj, (const char *[]){NULL});
    char *collect_dir = ar_xasprintf("%s/rel/../res/T_2/none-none/_subprocess/trial_d0_m0_t0",
                                        cwd);
    ck_assert_str_eq(get_string(obj, "collect_dir"), collect_dir);
    char *g = ar_xasprintf("%s/good/good-wrapper", collect_dir);
    expect_argv(obj, (const char *[]){g, "--", "true", NULL});
    ck_assert(!tu_exists("rel") && !tu_exists("res"));
    free(g);
    free(collect_dir);
    json_object_put(obj);
    free_lines(lines, count);
    free(out);
    free(err);

    /* No collector: the command as given; the default output root. */
    ck_assert_int_eq(aorta(&out, &err, NULL, (char *[]){"--dry-run", "--", "echo", "hi", NULL}),
                     0);
    lines = split_lines(out, &count);
    ck_assert_uint_eq(count, 1);
    obj = parse_line(lines[0], CELL_KEYS);
    expect_argv(obj, (const char *[]){"echo", "hi", NULL});
    collect_dir = ar_xasprintf("%s/aorta_results/_no_ticket_/none-none/_subprocess/"
                                  "trial_d0_m0_t0",
                                  cwd);
    ck_assert_str_eq(get_string(obj, "collect_dir"), collect_dir);
    ck_assert(!tu_exists("aorta_results"));
    free(collect_dir);
    json_object_put(obj);
    free_lines(lines, count);
    free(out);
    free(err);
    free(cwd);
}
END_TEST

START_TEST(a_refused_wrap_prints_the_error_and_exits_1_after_every_cell)
{
    char *recipe = write_file("r.yaml", "schema_version: 1\n"
                                        "mode: probe\n"
                                        "trials: 1\n"
                                        "mitigation_axis: [none, refuse, other]\n"
                                        "diagnostic_axis: [none]\n"
                                        "mitigations:\n"
                                        "  refuse: {INTERCEPTOR_B_REFUSE: '1'}\n"
                                        "  other: {OTHER: '1'}\n"
                                        "collect: [interceptor_b]\n");
    char *output = tu_join(dir, "out");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"INTERCEPTOR_B_REFUSE", NULL},
                           (char *[]){"--recipe", recipe, "--output", output, "--dry-run", "--",
                                      "/bin/true", NULL}),
                     1);
    expect_one_error(err, "aorta-run: --dry-run: cell 'refuse-none': interceptor_b: refusing to "
                          "wrap (INTERCEPTOR_B_REFUSE is set)");
    size_t count = 0;
    char **lines = split_lines(out, &count);
    ck_assert_uint_eq(count, 3);
    json_object *obj = parse_line(lines[0], CELL_KEYS);
    ck_assert_str_eq(get_string(obj, "cell"), "none-none");
    json_object_put(obj);
    obj = parse_line(lines[1], ERROR_KEYS);
    ck_assert_str_eq(get_string(obj, "cell"), "refuse-none");
    ck_assert_str_eq(get_string(obj, "error"),
                     "interceptor_b: refusing to wrap (INTERCEPTOR_B_REFUSE is set)");
    json_object_put(obj);
    obj = parse_line(lines[2], CELL_KEYS);
    ck_assert_str_eq(get_string(obj, "cell"), "other-none");
    json_object_put(obj);
    free_lines(lines, count);
    free(out);
    free(err);

    /* The wrap sees aorta-run's own environment too: set there, every cell
     * is refused. */
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"INTERCEPTOR_B_REFUSE=yes", NULL},
                           (char *[]){"--recipe", recipe, "--output", output, "--dry-run", "--",
                                      "/bin/true", NULL}),
                     1);;
    ck_assert_uint_eq(ru_error_lines(err, NULL), 3);
    lines = split_lines(out, &count);
    ck_assert_uint_eq(count, 3);
    for (size_t i = 0; i < count; i++)
        json_object_put(parse_line(lines[i], ERROR_KEYS));
    ck_assert(!tu_exists(output));
    free_lines(lines, count);
    free(out);
    free(err);
    free(output);
    free(recipe);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* What was asked wrong: one line, exit 2                                    */
/* ------------------------------------------------------------------------ */

static void expect_refused(char **args, const char *expected_line)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, NULL, args), 2);
    ck_assert_str_eq(out, "");
    expect_one_error(err, expected_line);
    free(out);
    free(err);
}

START_TEST(recipe_and_flag_errors_are_one_line_and_exit_2)
{
    char *bad = write_file("bad.yaml", "schema_version: 1\nmode: probe\ntrials: 0\n"
                                       "mitigation_axis: [none]\ndiagnostic_axis: [none]\n");
    char *line = ar_xasprintf("aorta-run: %s:3:9: recipe.trials: must be an integer >= 1, got "
                                 "an integer (0)",
                                 bad);
    expect_refused((char *[]){"--recipe", bad, "--dry-run", "--", "true", NULL}, line);
    /* --parse and --env read the recipe for its options: its errors stop them. */
    expect_refused((char *[]){"--recipe", bad, "--parse", "good", dir, NULL}, line);
    expect_refused((char *[]){"--recipe", bad, "--env", "interceptor_b", dir, NULL}, line);
    free(line);

    char *sidecar = write_file("s.json", "{\"version\": 1, \"mitigations\": {}}");
    expect_refused((char *[]){"--mitigations-file", sidecar, "--dry-run", "--", "true", NULL},
                   "aorta-run: --mitigations-file: applies only with --recipe (the recipe's "
                   "mitigation_axis and diagnostic_axis name the mitigations)");
    char *broken = write_file("broken.json", "{\"version\": 1,");
    char *minimal = write_file("m.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                                         "mitigation_axis: [none]\ndiagnostic_axis: [none]\n");
    line = ar_xasprintf("aorta-run: %s:1:15: JSON syntax error: unexpected end of data",
                           broken);
    expect_refused((char *[]){"--recipe", minimal, "--mitigations-file", broken, "--dry-run",
                              "--", "true", NULL},
                   line);
    free(line);
    /* docs/collectors/rocprof.md case 144, with test collectors. */
    expect_refused((char *[]){"--recipe", minimal, "--collect", "not_a_collector", "--dry-run",
                              "--", "echo", "hi", NULL},
                   "aorta-run: --collect: unknown collector recipe(s) ['not_a_collector']; "
                   "valid: ['badparse', 'good', 'interceptor_a', 'interceptor_b', 'scribe']");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--recipe", minimal, "--collect",
                                      "interceptor_a,interceptor_b", "--dry-run", "--", "echo",
                                      "hi", NULL}),
                     2);
    ck_assert_uint_eq(ru_error_lines(err, NULL), 1);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: --collect: 'interceptor_a' and "
                                      "'interceptor_b' cannot run together"));
    ck_assert_ptr_nonnull(strstr(err, "queue interceptor"));
    free(out);
    free(err);
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--recipe", minimal, "--collect", "good", "--dry-run", "--",
                                      "echo", "hi", NULL}),
                     0);
    expect_no_error(err);
    ck_assert_ptr_nonnull(strstr(out, "good-wrapper"));
    free(out);
    free(err);
    free(minimal);
    free(broken);
    free(sidecar);
    free(bad);
}
END_TEST

START_TEST(fixtures_load_through_aorta_run)
{
    char *two_cell = tu_srcdir("tests/run/recipe/fixtures/tests_probe_fixtures_probe_two_cell.yaml");
    char *smoke = tu_srcdir("tests/run/recipe/fixtures/recipes_probe_example-probe-smoke.yaml");
    char *sidecar = write_file("s.json", "{\"version\": 1, \"mitigations\": {\"tf32_off\": "
                                         "{\"DISABLE_TF32\": \"1\"}, "
                                         "\"pytorch_no_cuda_memory_caching\": "
                                         "{\"PYTORCH_NO_CUDA_MEMORY_CACHING\": \"1\"}}}");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--recipe", two_cell, "--mitigations-file", sidecar,
                                      "--output", dir, "--dry-run", "--", "true", NULL}),
                     0);
    expect_no_error(err);
    size_t count = 0;
    char **lines = split_lines(out, &count);
    ck_assert_uint_eq(count, 2);
    json_object *obj = parse_line(lines[1], CELL_KEYS);
    ck_assert_str_eq(get_string(obj, "cell"), "tf32_off-none");
    expect_env(obj, (const char *[]){"DISABLE_TF32", "1", NULL});
    json_object_put(obj);
    free_lines(lines, count);
    free(out);
    free(err);
    /* The warning, then the cells. */
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--recipe", smoke, "--mitigations-file", sidecar,
                                      "--output", dir, "--dry-run", "--", "true", NULL}),
                     0);
    char *warning = ar_xasprintf("aorta-run: warning: %s: ignoring keys for features "
                                    "aorta-run does not have: step_time_regex, collect_paths",
                                    smoke);
    expect_one_error(err, warning);
    free(warning);
    lines = split_lines(out, &count);
    ck_assert_uint_eq(count, 2);
    free_lines(lines, count);
    free(out);
    free(err);
    free(sidecar);
    free(smoke);
    free(two_cell);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* --parse and --env                                                         */
/* ------------------------------------------------------------------------ */

START_TEST(parse_prints_the_metrics_as_one_object)
{
    char *artifacts = tu_join(dir, "artifacts");
    char *file = tu_join(artifacts, "x");
    tu_write(file, "");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, NULL, (char *[]){"--parse", "badparse", artifacts, NULL}),
                     0);
    /* Its key outside the prefix is dropped, and said. */
    expect_one_error(err, "aorta-run: warning: badparse: dropped the metric 'verdict': outside "
                          "the prefix 'badparse_'");
    char *expected = ar_xasprintf("{\"badparse_artifact_dir\":\"%s\",\"badparse_kernel_count\""
                                     ":7,\"badparse_gpu_time_ms\":1.5,\"badparse_top_kernels\":"
                                     "[\"k1\",\"k2\"]}\n",
                                     artifacts);
    ck_assert_str_eq(out, expected);
    free(expected);
    free(out);
    free(err);
    /* A missing directory, or a file: {}, and one warning saying so. */
    char *missing = tu_join(dir, "missing");
    char *targets[] = {missing, file};
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq(aorta(&out, &err, NULL,
                               (char *[]){"--parse", "badparse", targets[i], NULL}),
                         0);
        ck_assert_str_eq(out, "{}\n");
        char *warning = ar_xasprintf(i ? "aorta-run: warning: --parse: %s is not a directory; "
                                            "there is nothing to parse\n"
                                          : "aorta-run: warning: --parse: %s: No such file or "
                                            "directory; there is nothing to parse\n",
                                        targets[i]);
        ck_assert_str_eq(err, warning);
        free(warning);
        free(out);
        free(err);
    }
    /* A run directory is said to be one. */
    char *run = tu_join(dir, "run");
    char *matrix = tu_join(run, "matrix.json");
    tu_write(matrix, "{}");
    ck_assert_int_eq(aorta(&out, &err, NULL, (char *[]){"--parse", "badparse", run, NULL}), 0);
    char *warning = ar_xasprintf("aorta-run: warning: --parse: %s looks like a run directory "
                                    "(it has matrix.json); a collector's artifacts are in "
                                    "CELL/_subprocess/trial_d0_m0_tN/badparse/ below it\n",
                                    run);
    ck_assert_msg(strstr(err, warning) != NULL, "stderr: %s", err);
    free(warning);
    free(matrix);
    free(run);
    free(out);
    free(err);
    expect_refused((char *[]){"--parse", "nope", artifacts, NULL},
                   "aorta-run: --parse: unknown collector 'nope'; available: badparse, good, "
                   "interceptor_a, interceptor_b, scribe");
    free(file);
    free(missing);
    free(artifacts);
}
END_TEST

START_TEST(parse_uses_the_recipe_options_and_survives_a_crash)
{
    char *artifacts = tu_join(dir, "artifacts");
    char *file = tu_join(artifacts, "x");
    tu_write(file, "");
    free(file);
    char *recipe = write_file("r.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                                        "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                        "collect:\n  badparse: {behaviour: crash}\n"
                                        "  good: {label: from-recipe}\n");
    char *out = NULL, *err = NULL;
    /* Under AddressSanitizer the crash must stay a signal (as without it). */
    ck_assert_int_eq(aorta(&out, &err, (char *[]){"ASAN_OPTIONS=handle_segv=0", NULL},
                           (char *[]){"--recipe", recipe, "--parse", "badparse", artifacts, NULL}),
                     0);
    char *expected = ar_xasprintf("{\"badparse_artifact_dir\":\"%s\"}\n", artifacts);
    ck_assert_str_eq(out, expected);
    free(expected);
    expected = ar_xasprintf("aorta-run: warning: collect: badparse summary parsing crashed; "
                               "skipping its metrics for %s.",
                               artifacts);
    expect_one_error(err, expected);
    free(expected);
    free(out);
    free(err);
    /* Options the recipe gives another collector reach its parse. */
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--recipe", recipe, "--parse", "good", artifacts, NULL}),
                     0);
    expected = ar_xasprintf("{\"good_artifact_dir\":\"%s\",\"good_version\":\"1.0\","
                               "\"good_label\":\"from-recipe\"}\n",
                               artifacts);
    ck_assert_str_eq(out, expected);
    free(expected);
    free(out);
    free(err);
    /* Without the recipe: good's defaults (no label). */
    ck_assert_int_eq(aorta(&out, &err, NULL, (char *[]){"--parse", "good", artifacts, NULL}), 0);
    ck_assert_ptr_null(strstr(out, "good_label"));
    ck_assert_ptr_nonnull(strstr(out, "\"good_version\":\"1.0\""));
    free(out);
    free(err);
    free(recipe);
    free(artifacts);
}
END_TEST

START_TEST(env_prints_the_bundle_one_variable_a_line)
{
    char *out_dir = tu_join(dir, "capture");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(&out, &err, NULL, (char *[]){"--env", "interceptor_b", out_dir, NULL}),
                     0);
    expect_no_error(err);
    char *expected = ar_xasprintf("INTERCEPTOR_B_OUT=%s/profile\nINTERCEPTOR_B_BACKEND=auto\n",
                                     out_dir);
    ck_assert_str_eq(out, expected);
    free(expected);
    free(out);
    free(err);
    ck_assert(!tu_exists(out_dir));

    char *recipe = write_file("r.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                                        "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                        "collect: {interceptor_b: {backend: instrumentation}}\n");
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--recipe", recipe, "--env", "interceptor_b", "rel", NULL}),
                     0);
    ck_assert_str_eq(out, "INTERCEPTOR_B_OUT=rel/profile\nINTERCEPTOR_B_BACKEND=instrumentation\n");
    free(out);
    free(err);
    char *pinned = write_file("p.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                                        "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                        "collect: {interceptor_b: {backend: roctracer}}\n");
    expect_refused((char *[]){"--recipe", pinned, "--env", "interceptor_b", out_dir, NULL},
                   "aorta-run: --env: interceptor_b: backend 'roctracer' has no env bundle");
    /* A collector without an env slot has an empty bundle. */
    ck_assert_int_eq(aorta(&out, &err, NULL, (char *[]){"--env", "good", out_dir, NULL}), 0);
    ck_assert_str_eq(out, "");
    expect_no_error(err);
    free(out);
    free(err);
    expect_refused((char *[]){"--env", "nope", out_dir, NULL},
                   "aorta-run: --env: unknown collector 'nope'; available: badparse, good, "
                   "interceptor_a, interceptor_b, scribe");
    free(pinned);
    free(recipe);
    free(out_dir);
}
END_TEST

/* A command the trials could not start, a bare name or a path, is one
 * warning naming it; the dry run still prints the cell and exits 0 (a dry
 * run also shows the argv of a program not built yet). */
START_TEST(dry_run_warns_when_the_command_is_not_found)
{
    char *out = NULL, *err = NULL;
    static const char *const paths[][2] = {
        {"./nonexistent_gemm", "does not exist"},
        {"/nonexistent-dir-aorta/gemm", "does not exist"},
        {"/", "is a directory"},
        {"check_commands.c", "is not executable"},
    };
    /* A plain file, not executable, named by its path. */
    char *plain = ar_xasprintf("%s/check_commands.c", dir);
    FILE *file = fopen(plain, "w");
    ck_assert_ptr_nonnull(file);
    fclose(file);
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        const char *name = strcmp(paths[i][0], "check_commands.c") ? paths[i][0] : plain;
        ck_assert_int_eq(aorta(&out, &err, NULL,
                               (char *[]){"--output", dir, "--dry-run", "--", (char *)name,
                                          NULL}),
                         0);
        char *want = ar_xasprintf("aorta-run: warning: --dry-run: '%s' %s; a run would fail "
                                     "with 'cannot execute' (check the name, or give its "
                                     "path)\n",
                                     name, paths[i][1]);
        ck_assert_str_eq(err, want);
        ck_assert_ptr_nonnull(strstr(out, "\"cell\":\"none-none\""));
        free(want);
        free(out);
        free(err);
    }
    free(plain);
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--output", dir, "--dry-run", "--",
                                      "nosuchcmd-aorta-5c1e", "x", NULL}),
                     0);
    ck_assert_str_eq(err, "aorta-run: warning: --dry-run: 'nosuchcmd-aorta-5c1e' is not found "
                          "on PATH; a run would fail with 'cannot execute' (check the name, "
                          "or give its path)\n");
    size_t count = 0;
    char **lines = split_lines(out, &count);
    ck_assert_uint_eq(count, 1);
    free_lines(lines, count);
    free(out);
    free(err);
    /* A command found on PATH is not. */
    ck_assert_int_eq(aorta(&out, &err, NULL,
                           (char *[]){"--output", dir, "--dry-run", "--", "true", NULL}),
                     0);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
}
END_TEST

static Suite *commands_suite(void)
{
    Suite *suite = suite_create("commands");
    TCase *tc = tcase_create("dry-run");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, dry_run_prints_each_cell_fully_wrapped);
    tcase_add_test(tc, dry_run_without_a_recipe_is_one_cell);
    tcase_add_test(tc, dry_run_warns_when_the_command_is_not_found);
    tcase_add_test(tc, a_refused_wrap_prints_the_error_and_exits_1_after_every_cell);
    tcase_add_test(tc, recipe_and_flag_errors_are_one_line_and_exit_2);
    tcase_add_test(tc, fixtures_load_through_aorta_run);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(suite, tc);
    tc = tcase_create("parse-env");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, parse_prints_the_metrics_as_one_object);
    tcase_add_test(tc, parse_uses_the_recipe_options_and_survives_a_crash);
    tcase_add_test(tc, env_prints_the_bundle_one_variable_a_line);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(commands_suite)
