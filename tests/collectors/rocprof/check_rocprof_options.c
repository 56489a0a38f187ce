/* SPDX-License-Identifier: MIT */
/* The rocprof collector's description and its validate(): the six options,
 * defaults, normalisation, check order and messages (docs/collectors/rocprof.md,
 * conformance cases 1-27), and the option table --describe prints. */
#include "config.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "rptest.h"

#define VALID_DOMAINS "['hip', 'hip_runtime', 'kernel', 'marker', 'memory_copy', 'rccl', 'scratch']"
#define VALID_KEYS "['trace', 'output_format', 'stats', 'pmc', 'kernel_include_regex', 'summary_units']"

/* validate() must fail with exactly this message. */
static void expect_error(aorta_options_t *options, const char *expected)
{
    char *message = NULL;
    ck_assert_int_eq(rp_validate(options, &message), -1);
    ck_assert_ptr_nonnull(message);
    ck_assert_str_eq(message, expected);
    free(message);
    aorta_options_free(options);
}

/* validate() must succeed; the effective options are returned. */
static aorta_options_t *expect_ok(aorta_options_t *options)
{
    char *message = NULL;
    int status = rp_validate(options, &message);
    ck_assert_msg(status == 0, "refused: %s", message ? message : "(no message)");
    return options;
}

static void expect_value(const char *key, const char *given, const char *effective)
{
    aorta_options_t *options = expect_ok(rp_options(key, given, NULL));
    ck_assert_str_eq(aorta_options_get(options, key), effective);
    aorta_options_free(options);
}

static void expect_keys(const aorta_options_t *options, const char *const *keys)
{
    size_t n = 0;
    while (keys[n])
        n++;
    ck_assert_uint_eq(aorta_options_count(options), n);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(aorta_options_key_at(options, i), keys[i]);
}

START_TEST(collector_description)
{
    const struct aorta_collector *c = rp_collector();
    ck_assert_str_eq(c->name, "rocprof");
    ck_assert_int_eq(c->wrap_rank, 10);
    ck_assert_ptr_nonnull(c->validate);
    ck_assert_ptr_nonnull(c->wrap);
    ck_assert_ptr_nonnull(c->parse);
    const char *keys[] = {"trace", "output_format", "stats", "pmc", "kernel_include_regex",
                          "summary_units", NULL};
    for (size_t i = 0; keys[i]; i++)
        ck_assert_str_eq(c->options[i].key, keys[i]);
    ck_assert_ptr_null(c->options[6].key);
    ck_assert_str_eq(c->options[0].default_value, "kernel");
    ck_assert_str_eq(c->options[1].default_value, "csv");
    ck_assert_str_eq(c->options[2].default_value, "true");
    ck_assert_ptr_null(c->options[3].default_value);
    ck_assert_ptr_null(c->options[4].default_value);
    ck_assert_ptr_null(c->options[5].default_value);
}
END_TEST

START_TEST(always_a_queue_interceptor)
{
    /* ABI 1.4: the resource listed and takes() left NULL, so it is taken
     * whatever the options, with no phrase: the core's refusal then words
     * the pair as upstream does. */
    ck_assert_ptr_null(rp_collector()->queue_interceptor);
    ck_assert_ptr_null(rp_collector()->queue_interceptor_why);
    ck_assert_ptr_null(rp_collector()->takes);
    ck_assert_ptr_nonnull(rp_collector()->resources);
    ck_assert_str_eq(rp_collector()->resources[0], "hsa-queue-interceptor");
    ck_assert_ptr_null(rp_collector()->resources[1]);
}
END_TEST

START_TEST(only_the_entry_symbol_is_exported)
{
    char *so = tu_builddir("plugins/.libs/rocprof.so");
    void *handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    ck_assert_msg(handle != NULL, "%s", dlerror());
    ck_assert_ptr_nonnull(dlsym(handle, "aorta_collector_rocprof_get"));
    const char *internal[] = {"rocprof_parse", "rocprof_csv_read", "rocprof_opts_read",
                              "rocprof_wrap", "rocprof_resolve_binary", "cc_xmalloc",
                              "cc_buf_add", "cc_collector_name", NULL};
    for (size_t i = 0; internal[i]; i++)
        ck_assert_msg(dlsym(handle, internal[i]) == NULL, "%s is exported", internal[i]);
    dlclose(handle);
    free(so);
}
END_TEST

/* 1, 2 */
START_TEST(defaults)
{
    aorta_options_t *options = expect_ok(aorta_options_new());
    const char *keys[] = {"trace", "output_format", "stats", NULL};
    expect_keys(options, keys);
    ck_assert_str_eq(aorta_options_get(options, "trace"), "kernel");
    ck_assert_str_eq(aorta_options_get(options, "output_format"), "csv");
    ck_assert_str_eq(aorta_options_get(options, "stats"), "true");
    aorta_options_free(options);
}
END_TEST

/* 3, 4, 5 */
START_TEST(unknown_options)
{
    expect_error(rp_options("traces", "kernel", NULL),
                 "rocprof: unknown option(s) ['traces']; valid: " VALID_KEYS);
    expect_error(rp_options("nope", "1", NULL),
                 "rocprof: unknown option(s) ['nope']; valid: " VALID_KEYS);
    expect_error(rp_options("b", "1", "a", "1", "trace", "bogus", NULL),
                 "rocprof: unknown option(s) ['a', 'b']; valid: " VALID_KEYS);
    /* Python's repr of awkward keys. */
    expect_error(rp_options("it's", "1", "tab\there", "1", "caf\xc3\xa9", "1", NULL),
                 "rocprof: unknown option(s) ['caf\xc3\xa9', \"it's\", 'tab\\there']; valid: "
                 VALID_KEYS);
}
END_TEST

/* 7, 8, 9, 10, 13 */
START_TEST(trace_domains)
{
    const char *domains[] = {"kernel", "hip", "hip_runtime", "memory_copy", "rccl", "marker",
                             "scratch", NULL};
    for (size_t i = 0; domains[i]; i++)
        expect_value("trace", domains[i], domains[i]);
    expect_value("trace", "kernel,hip", "kernel,hip");
    expect_value("trace", "kernel hip", "kernel,hip");
    expect_value("trace", "hip,kernel,hip", "hip,kernel");
    expect_value("trace", "KERNEL", "kernel");
    expect_value("trace", " Kernel ,\tHIP ", "kernel,hip");
    expect_value("trace", "kernel\xe3\x80\x80hip", "kernel,hip");     /* U+3000 splits */
    expect_value("trace", "\xe2\x84\xaa" "ernel", "kernel");              /* Kelvin sign lower-cases to k */
}
END_TEST

/* 11, 12 */
START_TEST(trace_errors)
{
    expect_error(rp_options("trace", "kernel,gpu", NULL),
                 "rocprof option 'trace': unknown domain(s) ['gpu']; valid: " VALID_DOMAINS);
    expect_error(rp_options("trace", "Zeta, gpu,zeta GPU", NULL),
                 "rocprof option 'trace': unknown domain(s) ['gpu', 'zeta']; valid: " VALID_DOMAINS);
    expect_error(rp_options("trace", " , ", NULL),
                 "rocprof option 'trace': must name at least one domain; valid: " VALID_DOMAINS);
    expect_error(rp_options("trace", "", NULL),
                 "rocprof option 'trace': must name at least one domain; valid: " VALID_DOMAINS);
}
END_TEST

/* 14, 15, 16 */
START_TEST(output_format)
{
    const char *formats[] = {"csv", "json", "pftrace", "otf2", "rocpd", NULL};
    for (size_t i = 0; formats[i]; i++)
        expect_value("output_format", formats[i], formats[i]);
    expect_value("output_format", " CSV ", "csv");
    expect_error(rp_options("output_format", "parquet", NULL),
                 "rocprof option 'output_format': 'parquet' is not one of "
                 "['csv', 'json', 'otf2', 'pftrace', 'rocpd']");
    expect_error(rp_options("output_format", " CSV,JSON ", NULL),
                 "rocprof option 'output_format': 'csv,json' is not one of "
                 "['csv', 'json', 'otf2', 'pftrace', 'rocpd']");
}
END_TEST

/* rocprofv3's -f takes one or more formats, space-separated, any case;
 * repeats are kept as its argparse keeps them. */
START_TEST(output_format_list)
{
    expect_value("output_format", " CSV\tRocpd  csv ", "csv rocpd csv");
    expect_value("output_format", "rocpd json", "rocpd json");
    expect_error(rp_options("output_format", "csv parquet rocpd", NULL),
                 "rocprof option 'output_format': 'parquet' is not one of "
                 "['csv', 'json', 'otf2', 'pftrace', 'rocpd']");
    expect_error(rp_options("output_format", " \t ", NULL),
                 "rocprof option 'output_format': '' is not one of "
                 "['csv', 'json', 'otf2', 'pftrace', 'rocpd']");
}
END_TEST

/* 17, 18 */
START_TEST(stats_spelling_kept)
{
    const char *words[] = {"1", "true", "TRUE", "yes", "on", "0", "false", "no", "off", " Off ", NULL};
    for (size_t i = 0; words[i]; i++)
        expect_value("stats", words[i], words[i]);
    expect_error(rp_options("stats", "maybe", NULL),
                 "rocprof option 'stats': expected a boolean (0/1/false/no/off/on/true/yes), "
                 "got 'maybe'");
    expect_error(rp_options("stats", " y ", NULL),
                 "rocprof option 'stats': expected a boolean (0/1/false/no/off/on/true/yes), "
                 "got ' y '");
}
END_TEST

/* 19, 20, 21 */
START_TEST(summary_units)
{
    const char *units[] = {"sec", "msec", "usec", "nsec", NULL};
    for (size_t i = 0; units[i]; i++)
        expect_value("summary_units", units[i], units[i]);
    expect_value("summary_units", "MSEC", "msec");
    expect_error(rp_options("summary_units", "minutes", NULL),
                 "rocprof option 'summary_units': 'minutes' is not one of "
                 "['msec', 'nsec', 'sec', 'usec']");
}
END_TEST

/* 22, 23 */
START_TEST(kernel_include_regex_verbatim)
{
    expect_value("kernel_include_regex", "Cijk|GEMM", "Cijk|GEMM");
    expect_value("kernel_include_regex", " (gemm ", " (gemm ");
    expect_error(rp_options("kernel_include_regex", "   ", NULL),
                 "rocprof option 'kernel_include_regex': must be non-empty");
}
END_TEST

/* 24 */
START_TEST(pmc_verbatim)
{
    expect_value("pmc", "SQ_WAVES, GRBM_COUNT sq_waves", "SQ_WAVES, GRBM_COUNT sq_waves");
    expect_error(rp_options("pmc", ",", NULL),
                 "rocprof option 'pmc': must name at least one counter (comma- or "
                 "space-separated)");
}
END_TEST

/* 25: the caller's map is rewritten only through validate's result; an
 * unknown option leaves it as it was. */
START_TEST(refusal_leaves_the_input_alone)
{
    aorta_options_t *options = rp_options("trace", "KERNEL", "bogus", "x", NULL);
    ck_assert_int_eq(rp_validate(options, NULL), -1);
    ck_assert_uint_eq(aorta_options_count(options), 2);
    ck_assert_str_eq(aorta_options_get(options, "trace"), "KERNEL");
    aorta_options_free(options);
}
END_TEST

/* 26, and the effective key order: defaults first, then the rest as given. */
START_TEST(all_six_and_key_order)
{
    aorta_options_t *options = expect_ok(rp_options(
        "summary_units", "MSEC", "pmc", "SQ_WAVES", "stats", "1", "kernel_include_regex", "gemm",
        "output_format", "csv", "trace", "kernel", NULL));
    const char *keys[] = {"trace", "output_format", "stats", "summary_units", "pmc",
                          "kernel_include_regex", NULL};
    expect_keys(options, keys);
    ck_assert_str_eq(aorta_options_get(options, "summary_units"), "msec");
    /* validate is idempotent on its own output */
    expect_ok(options);
    expect_keys(options, keys);
    aorta_options_free(options);
}
END_TEST

/* 27 and the rest of the check order */
START_TEST(check_order)
{
    expect_error(rp_options("trace", "bogus", "output_format", "bad", NULL),
                 "rocprof option 'trace': unknown domain(s) ['bogus']; valid: " VALID_DOMAINS);
    expect_error(rp_options("stats", "maybe", "output_format", "bad", NULL),
                 "rocprof option 'output_format': 'bad' is not one of "
                 "['csv', 'json', 'otf2', 'pftrace', 'rocpd']");
    expect_error(rp_options("summary_units", "x", "stats", "maybe", NULL),
                 "rocprof option 'stats': expected a boolean (0/1/false/no/off/on/true/yes), "
                 "got 'maybe'");
    expect_error(rp_options("kernel_include_regex", " ", "summary_units", "x", NULL),
                 "rocprof option 'summary_units': 'x' is not one of "
                 "['msec', 'nsec', 'sec', 'usec']");
    expect_error(rp_options("pmc", " ", "kernel_include_regex", " ", NULL),
                 "rocprof option 'kernel_include_regex': must be non-empty");
    expect_error(rp_options("nope", "1", "trace", "bogus", NULL),
                 "rocprof: unknown option(s) ['nope']; valid: " VALID_KEYS);
}
END_TEST

START_TEST(describe_prints_the_table)
{
    char *aorta_run = tu_aorta_run();
    char *modules = tu_builddir("plugins");
    char *argv[] = {aorta_run, "--plugin-dir", modules, "--describe", "rocprof", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(tu_run(argv, NULL, &out, &err), 0);
    ck_assert_msg(strstr(out, "rocprof") && strstr(out, "wrap rank 10"), "%s", out);
    const char *expected[] = {"  trace\n", "      default: kernel\n", "  output_format\n",
                              "values: csv, json, otf2, pftrace, rocpd", "  stats\n",
                              "      default: true\n", "  pmc\n", "  kernel_include_regex\n",
                              "  summary_units\n", "values: sec, msec, usec, nsec", NULL};
    for (size_t i = 0; expected[i]; i++)
        ck_assert_msg(strstr(out, expected[i]) != NULL, "no '%s' in:\n%s", expected[i], out);
    ck_assert_msg(!strstr(out, "none declared"), "%s", out);
    ck_assert_msg(!strstr(out, "declares nothing"), "%s", out);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    free(modules);
    free(aorta_run);
}
END_TEST

static Suite *options_suite(void)
{
    Suite *suite = suite_create("rocprof_options");
    TCase *tc = tcase_create("options");
    tcase_add_unchecked_fixture(tc, rp_setup, rp_teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, collector_description);
    tcase_add_test(tc, always_a_queue_interceptor);
    tcase_add_test(tc, only_the_entry_symbol_is_exported);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, unknown_options);
    tcase_add_test(tc, trace_domains);
    tcase_add_test(tc, trace_errors);
    tcase_add_test(tc, output_format);
    tcase_add_test(tc, output_format_list);
    tcase_add_test(tc, stats_spelling_kept);
    tcase_add_test(tc, summary_units);
    tcase_add_test(tc, kernel_include_regex_verbatim);
    tcase_add_test(tc, pmc_verbatim);
    tcase_add_test(tc, refusal_leaves_the_input_alone);
    tcase_add_test(tc, all_six_and_key_order);
    tcase_add_test(tc, check_order);
    tcase_add_test(tc, describe_prints_the_table);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(options_suite)
