/* SPDX-License-Identifier: MIT */
/* The rocprof collector through the built aorta-run: --parse prints the
 * metrics of a capture, --dry-run shows the wrapped argv (or the setup
 * failure of a missing profiler), recipe collect: options reach the argv,
 * and a bad option stops the recipe with exit 2. */
#include "config.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rptest.h"

static char *dir;
static char *standin;
static char *modules;

static void setup(void)
{
    dir = tu_tmpdir();
    /* a copy at a normalised path: wrap makes ROCPROF_BIN absolute */
    char *source = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    char *text = tu_read(source);
    standin = tu_join(dir, "bin/rocprofv3");
    tu_write_mode(standin, text, 0755);
    free(text);
    free(source);
    modules = tu_builddir("plugins");
    ck_assert_int_eq(chdir(dir), 0);
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
    free(standin);
    free(modules);
}

/* aorta-run --plugin-dir <build>/plugins ARGS... */
static int aorta(char *const *env, char **out, char **err, const char *const *args)
{
    char *aorta_run = tu_aorta_run();
    const char *argv[64] = {aorta_run, "--plugin-dir", modules};
    size_t n = 3;
    for (size_t i = 0; args[i]; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    int status = tu_run((char *const *)argv, env, out, err);
    free(aorta_run);
    return status;
}

static json_object *parse_json(const char *text)
{
    json_object *obj = json_tokener_parse(text);
    ck_assert_msg(obj != NULL, "not JSON: %s", text);
    return obj;
}

static void expect_argv(json_object *line, const char *const *expected)
{
    json_object *argv = json_object_object_get(line, "argv");
    ck_assert_msg(argv != NULL, "no argv in %s", json_object_to_json_string(line));
    size_t n = 0;
    while (expected[n])
        n++;
    ck_assert_uint_eq(json_object_array_length(argv), n);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(argv, i)), expected[i]);
}

START_TEST(parse_prints_the_metrics)
{
    char *fixture = rp_fixture("flat_with_o");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--parse", "rocprof", fixture, NULL}), 0);
    json_object *obj = parse_json(out);
    ck_assert_int_eq(json_object_object_length(obj), 5);
    ck_assert_str_eq(json_object_get_string(json_object_object_get(obj, "rocprof_artifact_dir")),
                     fixture);
    json_object *count = json_object_object_get(obj, "rocprof_kernel_count");
    ck_assert(json_object_is_type(count, json_type_int));
    ck_assert_int_eq(json_object_get_int64(count), 23);
    json_object *gpu = json_object_object_get(obj, "rocprof_gpu_time_ms");
    ck_assert(json_object_is_type(gpu, json_type_double));
    ck_assert(json_object_get_double(gpu) == 0.539404);
    json_object *top = json_object_object_get(obj, "rocprof_top_kernels");
    ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(top, 0)),
                     "sgemm_tiled(float const*, float const*, float*, int)");
    json_object_put(obj);
    free(out);
    free(err);
    /* a missing directory prints {} */
    ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--parse", "rocprof", "missing", NULL}), 0);
    ck_assert_str_eq(out, "{}\n");
    free(out);
    free(err);
    free(fixture);
}
END_TEST

START_TEST(a_name_with_a_nul_reaches_the_json_whole)
{
    static const char text[] = "Name,Calls,TotalDurationNs\n\"a\0b\",1,5\n";
    rp_write_bytes(".", "aorta_kernel_stats.csv", text, sizeof text - 1);
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--parse", "rocprof", ".", NULL}), 0);
    /* Escaped as JSON escapes it (Python's json.dumps writes the same). */
    ck_assert_msg(strstr(out, "\"rocprof_top_kernels\":[\"a\\u0000b\"]")
                      || strstr(out, "\"rocprof_top_kernels\": [\"a\\u0000b\"]"),
                  "%s", out);
    json_object *obj = parse_json(out);
    json_object *name = json_object_array_get_idx(json_object_object_get(obj, "rocprof_top_kernels"), 0);
    ck_assert_int_eq(json_object_get_string_len(name), 3);
    json_object_put(obj);
    free(out);
    free(err);
    unlink("aorta_kernel_stats.csv");
}
END_TEST

/* A trace CSV whose timestamp columns are named otherwise (another
 * rocprofv3 version, or a converter, as rocpd convert's casing differs):
 * the warning names the columns the capture lacks, under --parse and in a
 * real run. */
static char *format_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format_text(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    ck_assert_int_ge(vasprintf(&text, fmt, ap), 0);
    va_end(ap);
    return text;
}

#define RENAMED_TRACE "\"Kind\",\"Kernel_Name\",\"Start_Time\",\"End_Time\"\n" \
                      "\"KERNEL_DISPATCH\",\"k\",100,700\n"
#define LACKS "aorta_kernel_trace.csv (the header lacks the columns 'Start_Timestamp', " \
              "'End_Timestamp')\n"

START_TEST(a_missing_column_is_named_by_parse)
{
    rp_write(dir, "cap/aorta_kernel_trace.csv", RENAMED_TRACE);
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--parse", "rocprof", "cap", NULL}), 0);
    ck_assert_str_eq(err, "aorta-run: warning: rocprof: cap yielded no kernels: cap/" LACKS);
    ck_assert_str_eq(out, "{\"rocprof_artifact_dir\":\"cap\"}\n");
    free(out);
    free(err);
}
END_TEST

START_TEST(a_missing_column_is_named_in_a_run)
{
    /* The stand-in captures as rocprofv3 does; a wrapper then renames the
     * trace's timestamp columns, as a profiler with another CSV schema
     * would have written them. */
    char *wrapper = tu_join(dir, "bin/renaming-rocprofv3");
    char *script = format_text("#!/bin/sh\n"
                          "out=\n"
                          "for arg; do [ \"$prev\" = -d ] && out=$arg; prev=$arg; done\n"
                          "'%s' \"$@\" || exit\n"
                          "sed -i '1s/_Timestamp\"/_Time\"/g' \"$out\"/aorta_kernel_trace.csv\n",
                          standin);
    tu_write_mode(wrapper, script, 0755);
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                            "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                            "collect:\n  rocprof: {stats: \"0\"}\n");
    char *bin_env = format_text("ROCPROF_BIN=%s", wrapper);
    char *env[] = {bin_env, "AORTA_FAKE_KERNELS=2:1000:sgemm", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(env, &out, &err, (const char *[]){"--recipe", "recipe.yaml", "--output",
                                                             "res", "--", "true", NULL}),
                     0);
    char *cap = format_text("%s/res/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0/rocprof", dir);
    char *expected = format_text("aorta-run: warning: rocprof: %s yielded no kernels: %s/" LACKS, cap,
                            cap);
    ck_assert_msg(strstr(err, expected) != NULL, "no '%s' in: %s", expected, err);
    free(expected);
    free(cap);
    free(out);
    free(err);
    free(bin_env);
    free(script);
    free(wrapper);
}
END_TEST

/* Issue 25: a regular file exactly at the rocprof artifact path fails that
 * trial's setup, as upstream's reference does, and is left as it was. */
START_TEST(a_file_at_the_artifact_path_fails_the_setup_and_is_kept)
{
    const char *blocker = "res/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0/rocprof";
    tu_write(blocker, "not a directory\n"); /* its parents made */
    char *bin_env = format_text("ROCPROF_BIN=%s", standin);
    char *env[] = {bin_env, "AORTA_FAKE_KERNELS=2:1000:sgemm", NULL};
    char *out = NULL, *err = NULL;
    /* The only trial never started: exit 1. */
    ck_assert_int_eq(aorta(env, &out, &err, (const char *[]){"--collect", "rocprof", "--output",
                                                             "res", "--", "true", NULL}),
                     1);
    ck_assert_msg(strstr(err, "collect: cannot prepare the rocprof artifact directory ") != NULL,
                  "stderr: %s", err);
    char *kept = tu_read(blocker);
    ck_assert_str_eq(kept, "not a directory\n");
    free(kept);
    free(out);
    free(err);
    free(bin_env);
}
END_TEST

START_TEST(dry_run_shows_the_wrapped_argv)
{
    char *bin_env = NULL;
    ck_assert_int_gt(asprintf(&bin_env, "ROCPROF_BIN=%s", standin), 0);
    char *env[] = {bin_env, NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(env, &out, &err, (const char *[]){"--output", "res", "--collect", "rocprof",
                                                             "--dry-run", "--", "./app", "1", NULL}),
                     0);
    json_object *line = parse_json(out);
    char *collect_dir = NULL, *rocprof_dir = NULL;
    ck_assert_int_gt(asprintf(&collect_dir, "%s/res/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0",
                              dir), 0);
    ck_assert_int_gt(asprintf(&rocprof_dir, "%s/rocprof", collect_dir), 0);
    ck_assert_str_eq(json_object_get_string(json_object_object_get(line, "collect_dir")), collect_dir);
    expect_argv(line, (const char *[]){standin, "-d", rocprof_dir, "-o", "aorta", "--output-format",
                                       "csv", "--kernel-trace", "--stats", "-S",
                                       "--summary-output-file", "rocprof_summary", "--", "./app",
                                       "1", NULL});
    ck_assert(!tu_exists("res"));
    json_object_put(line);
    free(rocprof_dir);
    free(collect_dir);
    free(out);
    free(err);
    free(bin_env);
}
END_TEST

START_TEST(dry_run_without_a_profiler_is_a_setup_failure)
{
    char *empty = tu_join(dir, "empty");
    char *placeholder = tu_join(empty, "placeholder");
    tu_write(placeholder, "");
    free(placeholder);
    char *path_env = NULL;
    ck_assert_int_gt(asprintf(&path_env, "PATH=%s", empty), 0);
    char *env[] = {path_env, "ROCPROF_BIN", NULL};
    char *out = NULL, *err = NULL;
    const char *message = "rocprofv3 not found: set $ROCPROF_BIN to the profiler binary, or put "
                          "'rocprofv3' on $PATH (it ships with ROCm). Required by "
                          "'--collect rocprof'.";
    ck_assert_int_eq(aorta(env, &out, &err, (const char *[]){"--collect", "rocprof", "--dry-run", "--",
                                                             "true", NULL}),
                     1);
    json_object *line = parse_json(out);
    ck_assert_int_eq(json_object_object_length(line), 3); /* cell, error, resumed */
    ck_assert_str_eq(json_object_get_string(json_object_object_get(line, "error")), message);
    ck_assert_ptr_nonnull(strstr(err, message));
    json_object_put(line);
    free(out);
    free(err);
    /* ROCPROF_BIN naming a directory: the line names the path */
    char *bin_env = NULL;
    ck_assert_int_gt(asprintf(&bin_env, "ROCPROF_BIN=%s", empty), 0);
    char *env2[] = {bin_env, NULL};
    ck_assert_int_eq(aorta(env2, &out, &err, (const char *[]){"--collect", "rocprof", "--dry-run",
                                                              "--", "true", NULL}),
                     1);
    char *expected = NULL;
    ck_assert_int_gt(asprintf(&expected, "rocprof: ROCPROF_BIN='%s' looks like a path but does "
                                         "not point to an executable file.", empty), 0);
    line = parse_json(out);
    ck_assert_str_eq(json_object_get_string(json_object_object_get(line, "error")), expected);
    json_object_put(line);
    free(expected);
    free(out);
    free(err);
    free(bin_env);
    free(path_env);
    free(empty);
}
END_TEST

START_TEST(recipe_options_reach_the_argv)
{
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\nticket: ROC-1\ntrials: 1\n"
                            "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                            "collect:\n  rocprof:\n    trace: \"KERNEL hip\"\n"
                            "    output_format: \" CSV \"\n    stats: \"off\"\n"
                            "    pmc: \"SQ_WAVES,GRBM_COUNT\"\n    summary_units: \"MSEC\"\n"
                            "    kernel_include_regex: \"Cijk|gemm\"\n");
    char *bin_env = NULL;
    ck_assert_int_gt(asprintf(&bin_env, "ROCPROF_BIN=%s", standin), 0);
    char *env[] = {bin_env, NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(env, &out, &err, (const char *[]){"--recipe", "recipe.yaml", "--output", "res",
                                                             "--dry-run", "--", "./gemm", NULL}),
                     0);
    json_object *line = parse_json(out);
    char *rocprof_dir = NULL;
    ck_assert_int_gt(asprintf(&rocprof_dir, "%s/res/ROC-1/none-none/_subprocess/trial_d0_m0_t0/rocprof",
                              dir), 0);
    expect_argv(line, (const char *[]){standin, "-d", rocprof_dir, "-o", "aorta", "--output-format",
                                       "csv", "--kernel-trace", "--hip-trace", "-S",
                                       "--summary-output-file", "rocprof_summary", "-u", "msec",
                                       "--kernel-include-regex", "Cijk|gemm", "--pmc", "SQ_WAVES",
                                       "GRBM_COUNT", "--", "./gemm", NULL});
    json_object_put(line);
    free(out);
    free(err);
    /* --parse with the recipe: the same collector, its options validated */
    ck_assert_int_eq(aorta(env, &out, &err, (const char *[]){"--recipe", "recipe.yaml", "--parse",
                                                             "rocprof", "missing", NULL}),
                     0);
    ck_assert_str_eq(out, "{}\n");
    free(out);
    free(err);
    free(rocprof_dir);
    free(bin_env);
}
END_TEST

START_TEST(bad_options_stop_the_recipe)
{
    const char *cases[][2] = {
        /* Each points at its option's own line and column (8:5). */
        {"trace: \"kernel,gpu\"",
         "bad.yaml:8:5: recipe.collect: rocprof option 'trace': unknown domain(s) ['gpu']"},
        {"trace: \" , \"", "bad.yaml:8:5: recipe.collect: rocprof option 'trace': must name at "
                           "least one domain"},
        {"pmc: \",\"", "bad.yaml:8:5: recipe.collect: rocprof option 'pmc': must name at least "
                       "one counter"},
        {"stats: \"maybe\"", "bad.yaml:8:5: recipe.collect: rocprof option 'stats': expected a "
                             "boolean"},
        {"traces: \"kernel\"", "bad.yaml:8:5: recipe.collect: rocprof: unknown option(s) "
                               "['traces']; valid: "},
        {"trace: \"kernel\"\n    stat: \"yes\"", "bad.yaml:9:5: recipe.collect: rocprof: unknown "
                                              "option(s) ['stat']; valid: "},
        {"stat: \"yes\"", "]; did you mean 'stats' for 'stat'?\n"},
        /* not a string: the option named, at its value */
        {"stats: 1", "bad.yaml:8:12: recipe.collect.rocprof.stats: option values must be strings "
                     "(they become env-var knobs), got an integer (1); quote it"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *recipe = NULL;
        ck_assert_int_gt(asprintf(&recipe, "schema_version: 1\nmode: probe\ntrials: 1\n"
                                           "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                           "collect:\n  rocprof:\n    %s\n", cases[i][0]), 0);
        tu_write("bad.yaml", recipe);
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--recipe", "bad.yaml", "--dry-run",
                                                                  "--", "true", NULL}),
                         2);
        ck_assert_msg(strstr(err, cases[i][1]) != NULL, "case %zu: %s", i, err);
        ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "not one line: %s", err);
        ck_assert_str_eq(out, "");
        free(out);
        free(err);
        free(recipe);
    }
}
END_TEST

/* With proton: only its instrumentation backend installs no queue
 * interceptor; the refusal is upstream's message (upstream's cases 91-93, 102). */
START_TEST(with_proton)
{
    const char *refusal = "'rocprof' and 'proton' cannot run together with proton backend 'auto' "
                          "(which resolves to rocprofiler or roctracer on AMD) -- both install an "
                          "HSA queue interceptor and the second one to attach will fail or report "
                          "nothing.";
    const char *orders[] = {"rocprof,proton", "proton,rocprof"};
    for (size_t i = 0; i < 2; i++) {
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--collect", orders[i], "--dry-run",
                                                                  "--", "python3", "train.py", NULL}),
                         2);
        ck_assert_msg(strstr(err, refusal) != NULL, "%s", err);
        free(out);
        free(err);
    }
    tu_write("roctracer.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                               "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                               "collect:\n  rocprof:\n  proton: {backend: roctracer}\n");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--recipe", "roctracer.yaml", "--dry-run",
                                                              "--", "python3", "train.py", NULL}),
                     2);
    ck_assert_msg(strstr(err, "cannot run together with proton backend 'roctracer' -- both install "
                              "an HSA queue interceptor") != NULL, "%s", err);
    free(out);
    free(err);

    tu_write("both.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                          "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                          "collect:\n  rocprof:\n  proton: {backend: instrumentation}\n");
    char *bin_env = NULL;
    ck_assert_int_gt(asprintf(&bin_env, "ROCPROF_BIN=%s", standin), 0);
    char *env[] = {bin_env, NULL};
    const char *plain[] = {"--recipe", "both.yaml", "--dry-run", "--", "python3", "train.py",
                           "--steps", "10", NULL};
    const char *overlay[] = {"--recipe", "both.yaml", "--collect", "proton,rocprof", "--dry-run",
                             "--", "python3", "train.py", "--steps", "10", NULL};
    const char *const *runs[] = {plain, overlay};
    for (size_t i = 0; i < 2; i++) {
        const char *const *args = runs[i];
        ck_assert_int_eq(aorta(env, &out, &err, args), 0);
        json_object *line = parse_json(out);
        json_object *argv = json_object_object_get(line, "argv");
        size_t count = json_object_array_length(argv);
        ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(argv, 0)), standin);
        size_t dashes = 0;
        while (dashes < count
               && strcmp(json_object_get_string(json_object_array_get_idx(argv, dashes)), "--") != 0)
            dashes++;
        ck_assert_uint_lt(dashes + 3, count);
        const char *inner[] = {"python3", "-m", "triton.profiler.proton"};
        for (size_t k = 0; k < 3; k++)
            ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(argv, dashes + 1 + k)),
                             inner[k]);
        const char *last[] = {"train.py", "--steps", "10"};
        for (size_t k = 0; k < 3; k++)
            ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(argv, count - 3 + k)),
                             last[k]);
        json_object_put(line);
        free(out);
        free(err);
    }
    free(bin_env);
}
END_TEST

START_TEST(no_environment_bundle)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--env", "rocprof", "somewhere", NULL}), 0);
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
}
END_TEST

/* Issue 25: --option NAME.KEY=VALUE sets a collector option without a
 * recipe, or over the recipe's collect:, and goes through validate(). */
START_TEST(option_flag_reaches_the_argv)
{
    char *bin_env = format_text("ROCPROF_BIN=%s", standin);
    char *env[] = {bin_env, NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(env, &out, &err, (const char *[]){"--output", "res", "--collect", "rocprof",
                                                             "--option", "rocprof.summary_units=MSEC",
                                                             "--option", "rocprof.output_format=csv",
                                                             "--dry-run", "--", "./app", NULL}),
                     0);
    char *rocprof_dir = format_text("%s/res/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0/rocprof",
                                    dir);
    json_object *line = parse_json(out);
    expect_argv(line, (const char *[]){standin, "-d", rocprof_dir, "-o", "aorta", "--output-format",
                                       "csv", "--kernel-trace", "--stats", "-S",
                                       "--summary-output-file", "rocprof_summary", "-u", "msec",
                                       "--", "./app", NULL});
    json_object_put(line);
    free(out);
    free(err);
    /* over the recipe's value of the same key */
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                            "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                            "collect:\n  rocprof: {summary_units: \"SEC\", stats: \"off\"}\n");
    ck_assert_int_eq(aorta(env, &out, &err, (const char *[]){"--recipe", "recipe.yaml", "--output", "res",
                                                             "--option", "rocprof.summary_units=usec",
                                                             "--dry-run", "--", "./app", NULL}),
                     0);
    line = parse_json(out);
    expect_argv(line, (const char *[]){standin, "-d", rocprof_dir, "-o", "aorta", "--output-format",
                                       "csv", "--kernel-trace", "-S", "--summary-output-file",
                                       "rocprof_summary", "-u", "usec", "--", "./app", NULL});
    json_object_put(line);
    free(out);
    free(err);
    free(rocprof_dir);
    free(bin_env);
}
END_TEST

START_TEST(option_flag_errors)
{
    const char *cases[][2] = {
        {"rocprof.trace=kernel,gpu",
         "aorta-run: --option: rocprof option 'trace': unknown domain(s) ['gpu']"},
        {"proton.mode=x", "aorta-run: --option: 'proton' is not among the collectors asked "
                          "for (['rocprof']); add it to --collect or the recipe's collect:"},
        {"rocprof_trace=x", "aorta-run: --option: expected NAME.KEY=VALUE, got "
                            "'rocprof_trace=x'"},
        {"rocprof.trace", "aorta-run: --option: expected NAME.KEY=VALUE, got "
                          "'rocprof.trace'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--collect", "rocprof", "--option",
                                                                  cases[i][0], "--dry-run", "--",
                                                                  "./app", NULL}),
                         2);
        ck_assert_msg(strncmp(err, cases[i][1], strlen(cases[i][1])) == 0, "stderr: %s", err);
        ck_assert_msg(strchr(err, '\n') == err + strlen(err) - 1, "not one line: %s", err);
        free(out);
        free(err);
    }
    /* without any collector */
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(aorta(NULL, &out, &err, (const char *[]){"--option", "rocprof.stats=off",
                                                              "--dry-run", "--", "./app", NULL}),
                     2);
    ck_assert_str_eq(err, "aorta-run: --option: 'rocprof' is not among the collectors asked "
                          "for (none); add it to --collect\n");
    free(out);
    free(err);
}
END_TEST

static Suite *cli_suite(void)
{
    Suite *suite = suite_create("rocprof_cli");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, parse_prints_the_metrics);
    tcase_add_test(tc, a_name_with_a_nul_reaches_the_json_whole);
    tcase_add_test(tc, a_missing_column_is_named_by_parse);
    tcase_add_test(tc, a_missing_column_is_named_in_a_run);
    tcase_add_test(tc, dry_run_shows_the_wrapped_argv);
    tcase_add_test(tc, dry_run_without_a_profiler_is_a_setup_failure);
    tcase_add_test(tc, recipe_options_reach_the_argv);
    tcase_add_test(tc, bad_options_stop_the_recipe);
    tcase_add_test(tc, option_flag_reaches_the_argv);
    tcase_add_test(tc, option_flag_errors);
    tcase_add_test(tc, with_proton);
    tcase_add_test(tc, no_environment_bundle);
    tcase_add_test(tc, a_file_at_the_artifact_path_fails_the_setup_and_is_kept);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(cli_suite)
