/* SPDX-License-Identifier: MIT */
/* The Proton collector's options: normalisation, the checks V1-V7 in their
 * order with upstream's texts (docs/collectors/proton.md), the --mode rendering (seen
 * through the env bundle), the option table and the queue-interceptor
 * answer the core's rocprof/proton refusal is built from. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "protontest.h"

/* Validation succeeds and leaves exactly these key/value pairs, in order. */
static void expect_effective(aorta_options_t *options, ...)
{
    char *message = NULL;
    ck_assert_msg(pt_validate(options, &message) == 0, "refused: %s", message);
    va_list args;
    va_start(args, options);
    size_t i = 0;
    for (const char *key = va_arg(args, const char *); key; key = va_arg(args, const char *), i++) {
        const char *value = va_arg(args, const char *);
        ck_assert_msg(i < aorta_options_count(options), "missing %s", key);
        ck_assert_str_eq(aorta_options_key_at(options, i), key);
        ck_assert_str_eq(aorta_options_value_at(options, i), value);
    }
    va_end(args);
    ck_assert_uint_eq(aorta_options_count(options), i);
    /* Validating the effective options again changes nothing. */
    aorta_options_t *again = aorta_options_dup(options);
    ck_assert_int_eq(pt_validate(again, NULL), 0);
    ck_assert_uint_eq(aorta_options_count(again), i);
    for (size_t k = 0; k < i; k++)
        ck_assert_str_eq(aorta_options_value_at(again, k), aorta_options_value_at(options, k));
    aorta_options_free(again);
    aorta_options_free(options);
}

/* Validation refuses; the message contains every given fragment. */
static void expect_refused(aorta_options_t *options, ...)
{
    char *message = NULL;
    ck_assert_int_eq(pt_validate(options, &message), -1);
    va_list args;
    va_start(args, options);
    for (const char *part = va_arg(args, const char *); part; part = va_arg(args, const char *))
        pt_contains(message, part);
    va_end(args);
    free(message);
    aorta_options_free(options);
}

static void expect_message(aorta_options_t *options, const char *exact)
{
    char *message = NULL;
    ck_assert_int_eq(pt_validate(options, &message), -1);
    ck_assert_str_eq(message, exact);
    free(message);
    aorta_options_free(options);
}

START_TEST(no_options_give_the_four_defaults)
{
    /* Cases 1-2. */
    expect_effective(pt_options(NULL), "mode", "cli", "backend", "auto", "context", "shadow",
                     "data", "tree", NULL);
}
END_TEST

START_TEST(each_domain_value_is_accepted_and_echoed)
{
    /* Cases 3-5. */
    expect_effective(pt_options("mode", "env", NULL), "mode", "env", "backend", "auto", "context",
                     "shadow", "data", "tree", NULL);
    expect_effective(pt_options("mode", "cli", NULL), "mode", "cli", "backend", "auto", "context",
                     "shadow", "data", "tree", NULL);
    const char *backends[] = {"auto", "cupti", "instrumentation", "rocprofiler", "roctracer"};
    for (size_t i = 0; i < 5; i++)
        expect_effective(pt_options("backend", backends[i], NULL), "mode", "cli", "backend",
                         backends[i], "context", "shadow", "data", "tree", NULL);
    expect_effective(pt_options("context", "python", "data", "trace", NULL), "mode", "cli",
                     "backend", "auto", "context", "python", "data", "trace", NULL);
    expect_effective(pt_options("context", "shadow", "data", "tree", NULL), "mode", "cli",
                     "backend", "auto", "context", "shadow", "data", "tree", NULL);
}
END_TEST

START_TEST(values_are_stripped_and_lowercased_keys_are_not)
{
    /* Case 6: the caller's value is normalised in the effective map. */
    expect_effective(pt_options("backend", " ROCTRACER ", NULL), "mode", "cli", "backend",
                     "roctracer", "context", "shadow", "data", "tree", NULL);
    /* Case 7. */
    expect_effective(pt_options("mode", "\tENV\n", "context", " Python", NULL), "mode", "env",
                     "backend", "auto", "context", "python", "data", "tree", NULL);
    /* Python's strip() also takes \x1c-\x1f and Unicode spaces (NBSP, U+3000). */
    expect_effective(pt_options("data", "\x1c\xc2\xa0TrEe\xe3\x80\x80", NULL), "mode", "cli",
                     "backend", "auto", "context", "shadow", "data", "tree", NULL);
    /* Case 16: keys are case-sensitive. */
    expect_refused(pt_options("Backend", "auto", NULL), "unknown option(s) ['Backend']", NULL);
    expect_refused(pt_options(" backend", "auto", NULL), "unknown option(s) [' backend']", NULL);
}
END_TEST

START_TEST(optional_keys_follow_the_defaults_in_the_order_given)
{
    /* Cases 8-14. */
    const char *modes[] = {"default", "mma", "pcsampling"};
    for (size_t i = 0; i < 3; i++)
        expect_effective(pt_options("backend", "instrumentation", "instrumentation_mode",
                                    modes[i], NULL),
                         "mode", "cli", "backend", "instrumentation", "context", "shadow", "data",
                         "tree", "instrumentation_mode", modes[i], NULL);
    const char *grains[] = {"cta", "warp", "warp_2", "warp_4", "warp_8",
                            "warp_group", "warp_group_2", "warp_group_4", "warp_group_8"};
    for (size_t i = 0; i < 9; i++)
        expect_effective(pt_options("granularity", grains[i], "backend", "instrumentation", NULL),
                         "mode", "cli", "backend", "instrumentation", "context", "shadow", "data",
                         "tree", "granularity", grains[i], NULL);
    const char *pairs[][2] = {{"cupti", "pcsampling"},       {"cupti", "periodic_flushing"},
                              {"rocprofiler", "pcsampling"}, {"rocprofiler", "periodic_flushing"},
                              {"roctracer", "periodic_flushing"}};
    for (size_t i = 0; i < 5; i++)
        expect_effective(pt_options("backend_mode", pairs[i][1], "backend", pairs[i][0], NULL),
                         "mode", "cli", "backend", pairs[i][0], "context", "shadow", "data",
                         "tree", "backend_mode", pairs[i][1], NULL);
    const char *backends[] = {"auto", "cupti", "instrumentation", "rocprofiler", "roctracer"};
    for (size_t i = 0; i < 5; i++)
        expect_effective(pt_options("hook", "TRITON", "backend", backends[i], NULL), "mode", "cli",
                         "backend", backends[i], "context", "shadow", "data", "tree", "hook",
                         "triton", NULL);
    /* Case 12: the --mode keys are accepted under mode: cli. */
    expect_effective(pt_options("mode", "cli", "backend", "cupti", "backend_mode", "pcsampling",
                                NULL),
                     "mode", "cli", "backend", "cupti", "context", "shadow", "data", "tree",
                     "backend_mode", "pcsampling", NULL);
    /* Case 13. */
    expect_effective(pt_options("mode", "cli", "backend", "instrumentation", "context", "shadow",
                                "data", "tree", "instrumentation_mode", "mma", "granularity",
                                "warp", "hook", "triton", NULL),
                     "mode", "cli", "backend", "instrumentation", "context", "shadow", "data",
                     "tree", "instrumentation_mode", "mma", "granularity", "warp", "hook",
                     "triton", NULL);
    /* Case 14. */
    expect_effective(pt_options("mode", "env", "backend", "roctracer", "backend_mode",
                                "periodic_flushing", "context", "python", "data", "trace", NULL),
                     "mode", "env", "backend", "roctracer", "context", "python", "data", "trace",
                     "backend_mode", "periodic_flushing", NULL);
}
END_TEST

START_TEST(unknown_keys_are_refused_first_with_the_valid_list)
{
    /* Case 15, exact. */
    expect_message(pt_options("backends", "roctracer", NULL),
                   "proton: unknown option(s) ['backends']; valid: ['mode', 'backend', "
                   "'backend_mode', 'context', 'data', 'instrumentation_mode', 'granularity', "
                   "'hook']");
    /* Case 17: sorted. */
    expect_refused(pt_options("zz", "1", "aa", "2", NULL), "unknown option(s) ['aa', 'zz']",
                   NULL);
    /* V1 before any value check (cases 19, 28's neighbour). */
    expect_refused(pt_options("mode", "library", "nope", "1", NULL), "unknown option(s) ['nope']",
                   NULL);
    /* A key is quoted as Python's repr() quotes it. */
    expect_refused(pt_options("it's", "1", NULL), "[\"it's\"]", NULL);
}
END_TEST

START_TEST(out_of_domain_values_name_the_key_and_the_sorted_domain)
{
    /* Cases 20-21, exact. */
    expect_message(pt_options("mode", "library", NULL),
                   "proton option 'mode': 'library' is not one of ['cli', 'env']");
    expect_message(pt_options("backend", "rocprof", NULL),
                   "proton option 'backend': 'rocprof' is not one of ['auto', 'cupti', "
                   "'instrumentation', 'rocprofiler', 'roctracer']");
    /* Cases 22-26. */
    expect_refused(pt_options("context", "cpp", NULL), "'context'", "['python', 'shadow']", NULL);
    expect_refused(pt_options("data", "hatchet", NULL), "'data'", "['trace', 'tree']", NULL);
    expect_refused(pt_options("backend", "instrumentation", "instrumentation_mode", "nope", NULL),
                   "instrumentation_mode", "['default', 'mma', 'pcsampling']", NULL);
    expect_refused(pt_options("backend", "instrumentation", "granularity", "thread", NULL),
                   "'granularity'",
                   "['cta', 'warp', 'warp_2', 'warp_4', 'warp_8', 'warp_group', 'warp_group_2', "
                   "'warp_group_4', 'warp_group_8']",
                   NULL);
    expect_refused(pt_options("hook", "launch", NULL), "'hook'", "['triton']", NULL);
    /* Case 27: whitespace only becomes ''. */
    expect_refused(pt_options("backend", "   ", NULL),
                   "proton option 'backend': '' is not one of", NULL);
    /* The normalised value is echoed. */
    expect_refused(pt_options("context", " CPP ", NULL), "'cpp' is not one of", NULL);
    /* Case 28: domain checks in key order, mode before backend. */
    expect_refused(pt_options("backend", "nope", "mode", "library", NULL), "'mode'", NULL);
    /* ... and granularity before hook, whatever the order given. */
    expect_refused(pt_options("hook", "x", "granularity", "y", NULL), "'granularity'", NULL);
}
END_TEST

START_TEST(intra_kernel_keys_need_backend_instrumentation)
{
    /* Cases 29-31. */
    expect_refused(pt_options("backend", "roctracer", "granularity", "cta", NULL),
                   "['granularity'] require backend: instrumentation", "got backend: roctracer",
                   NULL);
    expect_refused(pt_options("backend", "roctracer", "instrumentation_mode", "mma", NULL),
                   "['instrumentation_mode'] require backend: instrumentation", NULL);
    expect_refused(pt_options("instrumentation_mode", "mma", "granularity", "cta", NULL),
                   "['granularity', 'instrumentation_mode'] require backend: instrumentation",
                   "got backend: auto", NULL);
}
END_TEST

START_TEST(backend_mode_is_checked_against_its_backend)
{
    /* Case 32, exact. */
    expect_message(pt_options("backend", "roctracer", "backend_mode", "pcsampling", NULL),
                   "proton option 'backend_mode': 'pcsampling' is not one of "
                   "['periodic_flushing'] for backend: roctracer");
    /* Case 33. */
    expect_refused(pt_options("backend", "rocprofiler", "backend_mode", "sampling", NULL),
                   "'sampling' is not one of ['pcsampling', 'periodic_flushing'] for backend: "
                   "rocprofiler",
                   NULL);
    /* Cases 34-37: V6, and V6 before V7. */
    expect_refused(pt_options("backend", "auto", "backend_mode", "pcsampling", NULL),
                   "requires an explicit backend from ['cupti', 'rocprofiler', 'roctracer']",
                   "under backend: auto", NULL);
    expect_refused(pt_options("backend", "instrumentation", "backend_mode", "pcsampling", NULL),
                   "requires an explicit backend", "under backend: instrumentation", NULL);
    expect_refused(pt_options("backend_mode", "pcsampling", NULL), "requires an explicit backend",
                   NULL);
    expect_refused(pt_options("backend", "auto", "backend_mode", "bogus", NULL),
                   "requires an explicit backend", NULL);
}
END_TEST

START_TEST(the_backend_mode_hint_does_not_send_rocprofiler_to_mode_env)
{
    /* docs/design.md, Deviation 5: rocprofiler pins are allowed under cli. */
    char *message = NULL;
    aorta_options_t *options = pt_options("backend_mode", "pcsampling", NULL);
    ck_assert_int_eq(pt_validate(options, &message), -1);
    pt_contains(message, "Pin the backend, or drop the option.");
    ck_assert_ptr_null(strstr(message, "mode: env"));
    free(message);
    aorta_options_free(options);
}
END_TEST

START_TEST(backend_mode_conflicting_with_intra_kernel_keys_is_reported_first)
{
    /* Cases 38-40: V4 before V5. */
    expect_refused(pt_options("backend", "instrumentation", "backend_mode", "pcsampling",
                              "instrumentation_mode", "mma", NULL),
                   "conflicts with ['instrumentation_mode']", NULL);
    expect_refused(pt_options("backend", "instrumentation", "backend_mode", "pcsampling",
                              "granularity", "cta", NULL),
                   "conflicts with ['granularity']", NULL);
    expect_refused(pt_options("backend", "roctracer", "backend_mode", "periodic_flushing",
                              "granularity", "cta", NULL),
                   "conflicts with", NULL);
}
END_TEST

/* The bundle's AORTA_PROTON_MODE for these options, or NULL. */
static char *rendered_mode(aorta_options_t *options)
{
    ck_assert_int_eq(pt_validate(options, NULL), 0);
    aorta_env_t *bundle = aorta_env_new();
    aorta_error_t *err = aorta_error_new();
    ck_assert_int_eq(pt_collector()->env(options, PT_OUT, bundle, err), 0);
    const char *mode = aorta_env_get(bundle, "AORTA_PROTON_MODE");
    char *out = mode ? strdup(mode) : NULL;
    aorta_env_free(bundle);
    aorta_error_free(err);
    aorta_options_free(options);
    return out;
}

START_TEST(mode_argument_renders_from_whichever_key_set_it)
{
    /* Cases 41-45. */
    ck_assert_ptr_null(rendered_mode(pt_options(NULL)));
    char *mode = rendered_mode(pt_options("backend", "instrumentation", "instrumentation_mode",
                                          "mma", NULL));
    ck_assert_str_eq(mode, "mma");
    free(mode);
    mode = rendered_mode(pt_options("backend", "instrumentation", "granularity", "warp", NULL));
    ck_assert_str_eq(mode, "default:granularity=warp");
    free(mode);
    mode = rendered_mode(pt_options("backend", "instrumentation", "instrumentation_mode", "mma",
                                    "granularity", "cta", NULL));
    ck_assert_str_eq(mode, "mma:granularity=cta");
    free(mode);
    mode = rendered_mode(pt_options("backend", "roctracer", "backend_mode", "periodic_flushing",
                                    NULL));
    ck_assert_str_eq(mode, "periodic_flushing");
    free(mode);
}
END_TEST

START_TEST(the_option_table_lists_the_eight_keys_with_defaults)
{
    const struct aorta_collector *collector = pt_collector();
    ck_assert_int_eq(collector->wrap_rank, 20);
    ck_assert_ptr_nonnull(collector->env);
    const char *keys[] = {"mode", "backend", "backend_mode", "context", "data",
                          "instrumentation_mode", "granularity", "hook"};
    const char *defaults[] = {"cli", "auto", NULL, "shadow", "tree", NULL, NULL, NULL};
    size_t n = 0;
    for (const aorta_option_spec_t *spec = collector->options; spec->key; spec++, n++) {
        ck_assert_uint_lt(n, 8);
        ck_assert_str_eq(spec->key, keys[n]);
        ck_assert_ptr_nonnull(spec->values);
        ck_assert(spec->help && spec->help[0]);
        if (defaults[n])
            ck_assert_str_eq(spec->default_value, defaults[n]);
        else
            ck_assert_ptr_null(spec->default_value);
    }
    ck_assert_uint_eq(n, 8);
}
END_TEST

START_TEST(describe_prints_the_option_table)
{
    char *run = tu_aorta_run();
    char *modules = tu_builddir("plugins");
    char *argv[] = {run, "--plugin-dir", modules, "--describe", "proton", NULL};
    char *out = NULL;
    ck_assert_int_eq(tu_run(argv, NULL, &out, NULL), 0);
    pt_contains(out, "wrap rank 20");
    pt_contains(out, "values: auto, cupti, instrumentation, rocprofiler, roctracer");
    pt_contains(out, "instrumentation_mode");
    pt_contains(out, "warp_group_8");
    /* Its metrics, declared (ABI 1.2): the GPU time is gated. */
    pt_contains(out, "\nmetrics:\n  proton_gpu_time_ms (ms): lower is better\n");
    pt_contains(out, "  proton_top_kernel_ms (ms): none: compared and shown, never gated\n");
    pt_contains(out, "  proton_kernel_count (dispatches): none: ");
    pt_contains(out, "  proton_artifact_dir: none: ");
    ck_assert_msg(!strstr(out, "none declared") && !strstr(out, "declares nothing"), "%s", out);
    free(out);
    free(modules);
    free(run);
}
END_TEST

/* takes() of resource for these options after validation: its phrase
 * and remedy ("" when unset) into why and remedy. */
static int takes(aorta_options_t *options, const char *resource, char *why, char *remedy)
{
    ck_assert_int_eq(pt_validate(options, NULL), 0);
    /* Proton answers through the 1.4 slots only. */
    ck_assert_ptr_null(pt_collector()->queue_interceptor);
    ck_assert_ptr_null(pt_collector()->queue_interceptor_why);
    aorta_error_t *why_err = aorta_error_new(), *remedy_err = aorta_error_new();
    int answer = pt_collector()->takes(options, resource, why_err, remedy_err);
    snprintf(why, 256, "%s", aorta_error_message(why_err) ? aorta_error_message(why_err) : "");
    snprintf(remedy, 256, "%s",
             aorta_error_message(remedy_err) ? aorta_error_message(remedy_err) : "");
    aorta_error_free(why_err);
    aorta_error_free(remedy_err);
    aorta_options_free(options);
    return answer;
}

static int interceptor(aorta_options_t *options, char *why, char *remedy)
{
    return takes(options, "hsa-queue-interceptor", why, remedy);
}

START_TEST(queue_intercepting_backends_say_why_and_how_to_combine)
{
    char why[256], remedy[256];
    /* Cases 173-177: auto says what it resolves to. */
    ck_assert_int_eq(interceptor(pt_options(NULL), why, remedy), 1);
    ck_assert_str_eq(why, "proton backend 'auto' (which resolves to rocprofiler or roctracer on "
                          "AMD)");
    ck_assert_str_eq(remedy, "Use 'proton: {backend: instrumentation}' (intra-kernel measurement, "
                             "no queue interception) to combine them");
    ck_assert_int_eq(interceptor(pt_options("backend", "ROCTRACER", NULL), why, remedy), 1);
    ck_assert_str_eq(why, "proton backend 'roctracer'");
    ck_assert_int_eq(interceptor(pt_options("backend", "rocprofiler", NULL), why, remedy), 1);
    ck_assert_str_eq(why, "proton backend 'rocprofiler'");
    /* Cases 176, 178: no interceptor, and nothing said. */
    ck_assert_int_eq(interceptor(pt_options("backend", "instrumentation", NULL), why, remedy), 0);
    ck_assert_str_eq(why, "");
    ck_assert_str_eq(remedy, "");
    ck_assert_int_eq(interceptor(pt_options("backend", "cupti", NULL), why, remedy), 0);
}
END_TEST

START_TEST(cupti_backends_take_the_cupti_subscriber)
{
    char why[256], remedy[256];
    ck_assert_str_eq(pt_collector()->resources[0], "hsa-queue-interceptor");
    ck_assert_str_eq(pt_collector()->resources[1], "cupti-subscriber");
    ck_assert_ptr_null(pt_collector()->resources[2]);
    ck_assert_int_eq(takes(pt_options("backend", "cupti", NULL), "cupti-subscriber", why, remedy),
                     1);
    ck_assert_str_eq(why, "proton backend 'cupti'");
    ck_assert_str_eq(remedy, "Use 'proton: {backend: instrumentation}' (intra-kernel measurement, "
                             "no CUPTI subscriber) to combine them");
    ck_assert_int_eq(takes(pt_options(NULL), "cupti-subscriber", why, remedy), 1);
    ck_assert_str_eq(why, "proton backend 'auto' (which resolves to cupti on NVIDIA)");
    ck_assert_int_eq(
        takes(pt_options("backend", "roctracer", NULL), "cupti-subscriber", why, remedy), 0);
    ck_assert_str_eq(why, "");
    ck_assert_int_eq(
        takes(pt_options("backend", "instrumentation", NULL), "cupti-subscriber", why, remedy), 0);
    ck_assert_int_eq(takes(pt_options(NULL), "some-other-resource", why, remedy), 0);
}
END_TEST

static Suite *proton_options_suite(void)
{
    Suite *suite = suite_create("proton_options");
    TCase *tc = tcase_create("options");
    tcase_add_checked_fixture(tc, pt_load, pt_unload);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, no_options_give_the_four_defaults);
    tcase_add_test(tc, each_domain_value_is_accepted_and_echoed);
    tcase_add_test(tc, values_are_stripped_and_lowercased_keys_are_not);
    tcase_add_test(tc, optional_keys_follow_the_defaults_in_the_order_given);
    tcase_add_test(tc, unknown_keys_are_refused_first_with_the_valid_list);
    tcase_add_test(tc, out_of_domain_values_name_the_key_and_the_sorted_domain);
    tcase_add_test(tc, intra_kernel_keys_need_backend_instrumentation);
    tcase_add_test(tc, backend_mode_is_checked_against_its_backend);
    tcase_add_test(tc, the_backend_mode_hint_does_not_send_rocprofiler_to_mode_env);
    tcase_add_test(tc, backend_mode_conflicting_with_intra_kernel_keys_is_reported_first);
    tcase_add_test(tc, mode_argument_renders_from_whichever_key_set_it);
    tcase_add_test(tc, the_option_table_lists_the_eight_keys_with_defaults);
    tcase_add_test(tc, describe_prints_the_option_table);
    tcase_add_test(tc, queue_intercepting_backends_say_why_and_how_to_combine);
    tcase_add_test(tc, cupti_backends_take_the_cupti_subscriber);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(proton_options_suite)
