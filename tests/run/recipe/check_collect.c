/* SPDX-License-Identifier: MIT */
/* Collector selection (docs/design.md, Composition, with test collectors
 * in place of rocprof and proton): list and mapping forms, --collect
 * replacing names while keeping options, unknown names, validation at load,
 * the generic queue-interceptor refusal, each collector's conflicts(), and
 * the wrap_rank order the command is composed in. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "recipe/collect.h"
#include "sweep/compose.h"
#include "aorta/collector.h"
#include "recipe_util.h"

#define HEAD                                                                                   \
    "schema_version: 1\n"                                                                      \
    "mode: probe\n"                                                                            \
    "trials: 1\n"                                                                              \
    "mitigation_axis: [none]\n"                                                                \
    "diagnostic_axis: [none]\n"

#define VALID "valid: ['badparse', 'good', 'interceptor_a', 'interceptor_b', 'scribe']"

/* docs/collectors/proton.md's refusal, with interceptor_a in rocprof's place and
 * interceptor_b (whose phrase and remedy are Proton's) in proton's. */
#define REFUSAL(BACKEND, CLAUSE)                                                               \
    "'interceptor_a' and 'interceptor_b' cannot run together with interceptor_b backend '"     \
    BACKEND "'" CLAUSE " -- both install an HSA queue interceptor and the second one to "      \
    "attach will fail or report nothing. Use 'interceptor_b: {backend: instrumentation}' "     \
    "(intra-kernel measurement, no queue interception) to combine them, or run interceptor_a " \
    "and interceptor_b as two separate runs (--collect interceptor_a, then --collect "          \
    "interceptor_b)."
#define AUTO_CLAUSE " (which resolves to rocprofiler or roctracer on AMD)"

static ar_registry_t *registry;
static char *dir;
static char *path;              /* the recipe file of the test */
static ru_load_t load;
static ar_collect_entry_t *entries;
static size_t count;
static char *error;

static void setup(void)
{
    registry = ru_test_plugins();
    dir = tu_tmpdir();
    path = tu_join(dir, "recipe.yaml");
    memset(&load, 0, sizeof load);
    entries = NULL;
    count = 0;
    error = NULL;
}

static void drop_selection(void)
{
    for (size_t i = 0; i < count; i++) {
        aorta_options_free(entries[i].given);
        aorta_options_free(entries[i].effective);
    }
    free(entries);
    entries = NULL;
    count = 0;
    free(error);
    error = NULL;
}

static void teardown(void)
{
    drop_selection();
    ru_load_free(&load);
    tu_rmtree(dir);
    free(path);
    free(dir);
    ar_registry_free(registry);
}

/* Select with HEAD + collect_yaml as the recipe (NULL: no recipe). */
static int select_with(const char *collect_yaml, const char *cli)
{
    drop_selection();
    ru_load_free(&load);
    if (collect_yaml) {
        char *text = ar_xasprintf(HEAD "%s", collect_yaml);
        load = ru_load_text(dir, "recipe.yaml", text, NULL);
        free(text);
        ck_assert_msg(load.error == NULL, "%s", load.error);
    }
    int status = ar_collect_select(load.recipe, cli, NULL, 0, registry, &entries, &count, &error);
    if (status == 0)
        ck_assert_ptr_null(error);
    else
        ck_assert_ptr_null(strchr(error, '\n'));
    return status;
}

static void expect_names(const char *const *names)
{
    size_t n = 0;
    for (; names[n]; n++) {
        ck_assert_uint_gt(count, n);
        ck_assert_str_eq(entries[n].module->name, names[n]);
    }
    ck_assert_uint_eq(count, n);
}

/* error == "<path>:<where>: <rest>" (where NULL: no position). */
static void expect_error(const char *where, const char *rest)
{
    char *expected = where ? ar_xasprintf("%s:%s: %s", path, where, rest)
                           : ar_xstrdup(rest);
    ck_assert_str_eq(error, expected);
    free(expected);
}

static const char *option(const aorta_options_t *options, const char *key)
{
    return aorta_options_get(options, key);
}

/* ------------------------------------------------------------------------ */

START_TEST(no_collect_selects_nothing)
{
    ck_assert_int_eq(select_with("", NULL), 0);
    ck_assert_uint_eq(count, 0);
    ck_assert_int_eq(select_with(NULL, NULL), 0);
    ck_assert_uint_eq(count, 0);
    ck_assert_int_eq(select_with("collect: []\n", NULL), 0);
    ck_assert_uint_eq(count, 0);
}
END_TEST

START_TEST(list_form_runs_with_defaults)
{
    ck_assert_int_eq(select_with("collect: [good]\n", NULL), 0);
    expect_names((const char *[]){"good", NULL});
    ck_assert_uint_eq(aorta_options_count(entries[0].given), 0);
    ck_assert_str_eq(option(entries[0].effective, "level"), "low");
    /* Repeats collapse, the first one kept. */
    ck_assert_int_eq(select_with("collect: [good, good]\n", NULL), 0);
    expect_names((const char *[]){"good", NULL});
}
END_TEST

START_TEST(mapping_form_keeps_string_options)
{
    ck_assert_int_eq(select_with("collect:\n  good: {level: high, label: x}\n", NULL), 0);
    expect_names((const char *[]){"good", NULL});
    ck_assert_uint_eq(aorta_options_count(entries[0].given), 2);
    ck_assert_str_eq(option(entries[0].given, "level"), "high");
    ck_assert_str_eq(option(entries[0].effective, "label"), "x");
    /* null and {} mean defaults. */
    ck_assert_int_eq(select_with("collect: {good: null, badparse: {}}\n", NULL), 0);
    expect_names((const char *[]){"good", "badparse", NULL});
    ck_assert_str_eq(option(entries[0].effective, "level"), "low");
    ck_assert_str_eq(option(entries[1].effective, "behaviour"), "normal");
    /* A pinned interceptor alone is fine. */
    ck_assert_int_eq(select_with("collect: {interceptor_b: {backend: roctracer}}\n", NULL), 0);
    ck_assert_str_eq(option(entries[0].effective, "backend"), "roctracer");
}
END_TEST

START_TEST(unknown_names_are_listed_with_the_collectors_loaded)
{
    ck_assert_int_eq(select_with("collect: [good, not_a_collector, other]\n", NULL), -1);
    expect_error("6:17", "recipe.collect: unknown collector recipe(s) ['not_a_collector', "
                         "'other']; " VALID);
    /* A broken candidate of that name says why it is not there. */
    ck_assert_int_eq(select_with("collect: [badmajor]\n", NULL), -1);
    ck_assert(strncmp(error, path, strlen(path)) == 0);
    ck_assert_ptr_nonnull(strstr(error, ":6:11: recipe.collect: unknown collector recipe(s) "
                                        "['badmajor']; " VALID "; 'badmajor' is broken ("));
    ck_assert_ptr_nonnull(strstr(error, "badmajor.la: collector ABI 2.0"));
}
END_TEST

START_TEST(options_are_validated_at_load)
{
    ck_assert_int_eq(select_with("collect:\n  good: {levle: high}\n", NULL), -1);
    /* At the option's own position; the collector's message stays whole,
     * the near key is added. */
    expect_error("7:10", "recipe.collect: good: unknown option 'levle'; did you mean 'level' for "
                         "'levle'?");
    ck_assert_int_eq(select_with("collect:\n  good:\n    level: low\n    zzzzz: high\n", NULL), -1);
    expect_error("9:5", "recipe.collect: good: unknown option 'zzzzz'");
    /* An invalid option is reported before any conflict. */
    ck_assert_int_eq(select_with("collect:\n  interceptor_a:\n  interceptor_b: {backend: nope}\n",
                                 NULL),
                     -1);
    expect_error("8:19", "recipe.collect: interceptor_b option 'backend': 'nope' is not one of "
                         "['auto', 'instrumentation', 'rocprofiler', 'roctracer']");
}
END_TEST

START_TEST(two_queue_interceptors_are_refused)
{
    ck_assert_int_eq(select_with("collect: [interceptor_a, interceptor_b]\n", NULL), -1);
    expect_error("6:10", "recipe.collect: " REFUSAL("auto", AUTO_CLAUSE));
    /* The order asked does not matter: names go by wrap_rank. */
    ck_assert_int_eq(select_with("collect: [interceptor_b, interceptor_a]\n", NULL), -1);
    expect_error("6:10", "recipe.collect: " REFUSAL("auto", AUTO_CLAUSE));
    /* A pinned intercepting backend: no "resolves to" clause. */
    ck_assert_int_eq(select_with("collect: {interceptor_a: null, interceptor_b: {backend: "
                                 "roctracer}}\n",
                                 NULL),
                     -1);
    expect_error("6:10", "recipe.collect: " REFUSAL("roctracer", ""));
    ck_assert_int_eq(select_with("collect: {interceptor_a: null, interceptor_b: {backend: "
                                 "rocprofiler}}\n",
                                 NULL),
                     -1);
    expect_error("6:10", "recipe.collect: " REFUSAL("rocprofiler", ""));
}
END_TEST

/* Any named resource (ABI 1.4): two third-party collectors that take
 * "gpu-lock" are refused with both phrases and ways out; not when one of
 * them does not take it with its options. */
START_TEST(two_takers_of_any_resource_are_refused)
{
    ar_registry_t *own = registry;
    registry = tu_registry("tests/fake-collectors/resources");
    ck_assert_int_eq(select_with("collect: [locker_b, locker_a]\n", NULL), -1);
    expect_error("6:10", "recipe.collect: 'locker_a' and 'locker_b' cannot run together with "
                         "locker_a take 'yes' and locker_b take 'yes' -- both take the exclusive "
                         "resource 'gpu-lock', which one collector of a run may take. Set "
                         "locker_a's take to 'no'; Set locker_b's take to 'no', or run locker_a "
                         "and locker_b as two separate runs (--collect locker_a, then --collect "
                         "locker_b).");
    ck_assert_int_eq(select_with("collect: {locker_a: null, locker_b: {take: \"no\"}}\n", NULL),
                     0);
    expect_names((const char *[]){"locker_a", "locker_b", NULL});
    drop_selection();
    ar_registry_free(registry);
    registry = own;
}
END_TEST

START_TEST(an_interceptor_with_a_non_intercepting_partner_runs)
{
    ck_assert_int_eq(select_with("collect: {interceptor_b: {backend: instrumentation}, "
                                 "interceptor_a: null}\n",
                                 NULL),
                     0);
    expect_names((const char *[]){"interceptor_a", "interceptor_b", NULL});
    ck_assert_int_eq(select_with("collect: {interceptor_a: {intercept: \"no\"}, interceptor_b: "
                                 "null}\n",
                                 NULL),
                     0);
    expect_names((const char *[]){"interceptor_a", "interceptor_b", NULL});
}
END_TEST

START_TEST(both_phrases_name_the_cause)
{
    ck_assert_int_eq(select_with("collect:\n  interceptor_a: {phrase: \"interceptor_a's "
                                 "tracer\"}\n  interceptor_b:\n",
                                 NULL),
                     -1);
    expect_error("7:3", "recipe.collect: 'interceptor_a' and 'interceptor_b' cannot run "
                        "together with interceptor_a's tracer and interceptor_b backend 'auto'"
                        AUTO_CLAUSE " -- both install an HSA queue interceptor and the second "
                        "one to attach will fail or report nothing. Use 'interceptor_b: "
                        "{backend: instrumentation}' (intra-kernel measurement, no queue "
                        "interception) to combine them, or run interceptor_a and interceptor_b "
                        "as two separate runs (--collect interceptor_a, then --collect "
                        "interceptor_b).");
}
END_TEST

START_TEST(each_collector_is_asked_about_each_other)
{
    const char *expected = "recipe.collect: interceptor_a: cannot run together with 'good' "
                           "(exclusive_with)";
    ck_assert_int_eq(select_with("collect: {interceptor_a: {intercept: \"no\", exclusive_with: "
                                 "good}, good: null}\n",
                                 NULL),
                     -1);
    expect_error("6:10", expected);
    ck_assert_int_eq(select_with("collect: {good: null, interceptor_a: {intercept: \"no\", "
                                 "exclusive_with: good}}\n",
                                 NULL),
                     -1);
    expect_error("6:10", expected);
    ck_assert_int_eq(select_with("collect: {badparse: null, interceptor_a: {intercept: \"no\", "
                                 "exclusive_with: good}}\n",
                                 NULL),
                     0);
}
END_TEST

START_TEST(collectors_sort_by_wrap_rank)
{
    ck_assert_int_eq(select_with("collect:\n  badparse: {behaviour: noise}\n  good:\n"
                                 "  interceptor_b: {backend: instrumentation}\n"
                                 "  interceptor_a:\n",
                                 NULL),
                     0);
    expect_names((const char *[]){"interceptor_a", "interceptor_b", "good", "badparse", NULL});
    ck_assert_str_eq(option(entries[1].given, "backend"), "instrumentation");
    ck_assert_str_eq(option(entries[3].effective, "behaviour"), "noise");
    ck_assert_str_eq(option(entries[2].effective, "level"), "low");
}
END_TEST

/* ------------------------------------------------------------------------ */
/* --collect                                                                 */
/* ------------------------------------------------------------------------ */

START_TEST(cli_names_replace_the_recipe_names)
{
    ck_assert_int_eq(select_with("collect: [good]\n", "badparse"), 0);
    expect_names((const char *[]){"badparse", NULL});
    ck_assert_int_eq(select_with("collect: [good]\n", NULL), 0);
    expect_names((const char *[]){"good", NULL});
    ck_assert_int_eq(select_with("", "good"), 0);
    expect_names((const char *[]){"good", NULL});
    ck_assert_int_eq(select_with(NULL, "good"), 0);
    expect_names((const char *[]){"good", NULL});
}
END_TEST

START_TEST(cli_keeps_recipe_options_of_names_still_present)
{
    ck_assert_int_eq(select_with("collect: {good: {level: high}}\n", "badparse"), 0);
    expect_names((const char *[]){"badparse", NULL});
    ck_assert_uint_eq(aorta_options_count(entries[0].given), 0);
    ck_assert_int_eq(select_with("collect: {good: {level: high}, badparse: {behaviour: crash}}\n",
                                 "good"),
                     0);
    expect_names((const char *[]){"good", NULL});
    ck_assert_uint_eq(aorta_options_count(entries[0].given), 1);
    ck_assert_str_eq(option(entries[0].given, "level"), "high");
}
END_TEST

START_TEST(cli_names_are_stripped_and_deduplicated)
{
    ck_assert_int_eq(select_with(NULL, " badparse, good ,badparse,,"), 0);
    expect_names((const char *[]){"good", "badparse", NULL});
    /* Nothing but commas and blanks: as if the flag were absent. */
    ck_assert_int_eq(select_with("collect: [good]\n", " , , "), 0);
    expect_names((const char *[]){"good", NULL});
    char **names = NULL;
    ck_assert_uint_eq(ar_collect_split("\ta ,b\n", &names), 2);
    ck_assert_str_eq(names[0], "a");
    ck_assert_str_eq(names[1], "b");
    free(names[0]);
    free(names[1]);
    free(names);
    ck_assert_uint_eq(ar_collect_split("", &names), 0);
    ck_assert_ptr_null(names);
}
END_TEST

START_TEST(cli_errors_carry_the_flag_label)
{
    ck_assert_int_eq(select_with("collect: [good]\n", "not_a_collector"), -1);
    expect_error(NULL, "--collect: unknown collector recipe(s) ['not_a_collector']; " VALID);
    /* A typo of a loaded collector names it. */
    ck_assert_int_eq(select_with("", "godo"), -1);
    expect_error(NULL, "--collect: unknown collector recipe(s) ['godo']; " VALID "; did you mean "
                       "'good'?");
    ck_assert_int_eq(select_with("", "good,scrbe,interceptr_a"), -1);
    expect_error(NULL, "--collect: unknown collector recipe(s) ['scrbe', 'interceptr_a']; " VALID
                       "; did you mean 'scribe' for 'scrbe'?; did you mean 'interceptor_a' for "
                       "'interceptr_a'?");
    ck_assert_int_eq(select_with("", "interceptor_a,interceptor_b"), -1);
    expect_error(NULL, "--collect: " REFUSAL("auto", AUTO_CLAUSE));
    /* The recipe pins an intercepting backend for interceptor_b alone:
     * fine, until --collect adds the partner. */
    ck_assert_int_eq(select_with("collect: {interceptor_b: {backend: roctracer}}\n", NULL), 0);
    ck_assert_int_eq(select_with("collect: {interceptor_b: {backend: roctracer}}\n",
                                 "interceptor_a,interceptor_b"),
                     -1);
    expect_error(NULL, "--collect: " REFUSAL("roctracer", ""));
    /* Recipe options are checked for the names --collect keeps, and
     * vanish with the names it drops. */
    ck_assert_int_eq(select_with("collect: {good: {levle: high}}\n", "good"), -1);
    expect_error(NULL, "--collect: good: unknown option 'levle'; did you mean 'level' for 'levle'?");
    ck_assert_int_eq(select_with("collect: {good: {levle: high}}\n", "badparse"), 0);
}
END_TEST

START_TEST(cli_pairs_with_a_recipe_that_pins_instrumentation)
{
    const char *recipe = "collect: {interceptor_a: null, interceptor_b: {backend: "
                         "instrumentation}}\n";
    ck_assert_int_eq(select_with(recipe, "interceptor_a,interceptor_b"), 0);
    expect_names((const char *[]){"interceptor_a", "interceptor_b", NULL});
    ck_assert_uint_eq(aorta_options_count(entries[0].given), 0);
    ck_assert_str_eq(option(entries[1].given, "backend"), "instrumentation");
    ck_assert_int_eq(select_with(recipe, "interceptor_b"), 0);
    expect_names((const char *[]){"interceptor_b", NULL});
    ck_assert_str_eq(option(entries[0].given, "backend"), "instrumentation");
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Composition and the options --parse/--env use                             */
/* ------------------------------------------------------------------------ */

START_TEST(the_command_is_wrapped_in_rank_order_inside_the_launcher)
{
    ck_assert_int_eq(select_with("collect: {good: null, interceptor_b: {backend: "
                                 "instrumentation}, interceptor_a: null}\n",
                                 NULL),
                     0);
    ar_plan_t plan;
    memset(&plan, 0, sizeof plan);
    plan.collectors = entries;
    plan.collector_count = count;
    plan.launcher = aorta_argv_from((char *[]){"mpirun", "-np", "2"}, 3);
    aorta_argv_t *command = aorta_argv_from((char *[]){"./app", "--size", "8"}, 3);
    aorta_env_t *env = aorta_env_new();
    aorta_argv_t *out = NULL;
    char *why = NULL;
    const char *rel = "none-none/_subprocess/trial_d0_m0_t0";
    /* This suite is not aorta-run: it names the per-rank step's folder. */
    char *libexec = tu_builddir("core");
    setenv("AORTA_LIBEXEC_DIR", libexec, 1);
    ck_assert_int_eq(ar_compose(&plan, command, dir, rel, env, 0, -1, &out, &why), 0);
    unsetenv("AORTA_LIBEXEC_DIR");
    char *helper = ar_xasprintf("%s/aorta-rank-exec", libexec);
    char *base = ar_xasprintf("%s/%s", dir, rel);
    /* Under a launcher each collector writes into its rank%AORTA_RANK%/,
     * which aorta-rank-exec, just inside the launcher, creates per rank
     * (after noting the rank's node). */
    char *a_dir = ar_xasprintf("%s/interceptor_a/rank%%AORTA_RANK%%", base);
    char *b_dir = ar_xasprintf("%s/interceptor_b/rank%%AORTA_RANK%%", base);
    char *g_dir = ar_xasprintf("%s/good/rank%%AORTA_RANK%%", base);
    char *a = ar_xasprintf("%s/a-wrapper", a_dir);
    char *b = ar_xasprintf("%s/b-wrapper", b_dir);
    char *g = ar_xasprintf("%s/good-wrapper", g_dir);
    char *node = ar_xasprintf("%s/rank%%AORTA_RANK%%.node", base);
    const char *expected[] = {"mpirun", "-np", "2", helper, "--node-file", node, "--mkdir", g_dir,
                              "--mkdir", b_dir, "--mkdir", a_dir, "--hold", dir, "--", a, "--", b,
                              "--backend=instrumentation", "--", g, "--", "./app", "--size", "8"};
    ck_assert_uint_eq(aorta_argv_count(out), sizeof expected / sizeof expected[0]);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        ck_assert_str_eq(aorta_argv_at(out, i), expected[i]);
    /* A dry composition writes nothing. */
    ck_assert(!tu_exists(base));
    free(a);
    free(b);
    free(g);
    free(a_dir);
    free(b_dir);
    free(g_dir);
    free(node);
    free(helper);
    free(libexec);
    free(base);
    aorta_argv_free(out);
    aorta_argv_free(plan.launcher);
    aorta_argv_free(command);
    aorta_env_free(env);
}
END_TEST

START_TEST(effective_options_come_from_the_plan_or_the_defaults)
{
    const ar_module_t *good = ar_registry_open(registry, "good");
    aorta_options_t *options = NULL;
    ck_assert_int_eq(ar_collect_effective_options(NULL, good, &options, &error), 0);
    ck_assert_uint_eq(aorta_options_count(options), 1);
    ck_assert_str_eq(option(options, "level"), "low");
    aorta_options_free(options);
    ck_assert_int_eq(select_with("collect: {good: {level: high, label: L}}\n", NULL), 0);
    ar_plan_t plan;
    memset(&plan, 0, sizeof plan);
    plan.collectors = entries;
    plan.collector_count = count;
    ck_assert_int_eq(ar_collect_effective_options(ar_plan_collector(&plan, "good"), good, &options,
                                                     &error), 0);
    ck_assert_str_eq(option(options, "level"), "high");
    ck_assert_str_eq(option(options, "label"), "L");
    aorta_options_free(options);
    /* A collector the plan does not select: its defaults. */
    const ar_module_t *badparse = ar_registry_open(registry, "badparse");
    ck_assert_int_eq(ar_collect_effective_options(ar_plan_collector(&plan, "badparse"), badparse,
                                                     &options, &error), 0);
    ck_assert_str_eq(option(options, "behaviour"), "normal");
    aorta_options_free(options);
}
END_TEST

static Suite *collect_suite(void)
{
    Suite *suite = suite_create("collect");
    TCase *tc = tcase_create("recipe");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, no_collect_selects_nothing);
    tcase_add_test(tc, list_form_runs_with_defaults);
    tcase_add_test(tc, mapping_form_keeps_string_options);
    tcase_add_test(tc, unknown_names_are_listed_with_the_collectors_loaded);
    tcase_add_test(tc, options_are_validated_at_load);
    tcase_add_test(tc, two_queue_interceptors_are_refused);
    tcase_add_test(tc, two_takers_of_any_resource_are_refused);
    tcase_add_test(tc, an_interceptor_with_a_non_intercepting_partner_runs);
    tcase_add_test(tc, both_phrases_name_the_cause);
    tcase_add_test(tc, each_collector_is_asked_about_each_other);
    tcase_add_test(tc, collectors_sort_by_wrap_rank);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);
    tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, cli_names_replace_the_recipe_names);
    tcase_add_test(tc, cli_keeps_recipe_options_of_names_still_present);
    tcase_add_test(tc, cli_names_are_stripped_and_deduplicated);
    tcase_add_test(tc, cli_errors_carry_the_flag_label);
    tcase_add_test(tc, cli_pairs_with_a_recipe_that_pins_instrumentation);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);
    tc = tcase_create("compose");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, the_command_is_wrapped_in_rank_order_inside_the_launcher);
    tcase_add_test(tc, effective_options_come_from_the_plan_or_the_defaults);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(collect_suite)
