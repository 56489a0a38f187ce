/* SPDX-License-Identifier: MIT */
/* The rocprof collector through real sweeps: aorta-run --collect rocprof
 * (or a recipe's collect:) runs real commands under the stand-in rocprofv3
 * (examples/no-gpu/rocm/rocprofv3, first on PATH), which dispatches the "GPU work"
 * AORTA_FAKE_KERNELS describes; every file of the run is then read back:
 * result.json's wrapped argv, the trial JSON's metrics (expected values
 * computed from the kernels each trial was given), the capture in the
 * collector directory, matrix.json's metrics_summary, perf.md, retention,
 * setup failures of an unusable profiler, and resume. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeptest.h"

typedef struct kernel {
    const char *name;
    long calls;
    long ns; /* per dispatch */
} kernel_t;

/* Real-looking names, commas and spaces inside, no two totals equal. */
static const kernel_t gemm[] = {
    {"void gemm_tiled<float, 64, 64, 8>(float const*, float const*, float*, int, int, int)", 20,
     41000},
    {"Cijk_Ailk_Bljk_SB_MT64x64x8_SN_1LDSB0_AMAS0_BL1_GRVW1", 3, 120000},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
     "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
     2, 2500},
    {NULL, 0, 0}};
static const kernel_t reduce[] = {{"reduce_sum_kernel(float const*, float*, int)", 7, 3000},
                                  {NULL, 0, 0}};

static char *dir;      /* the test's working directory, symlinks resolved */
static char *standin;  /* <dir>/bin/rocprofv3, a copy of the stand-in */
static char *path_env; /* PATH=<dir>/bin:$PATH */

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
    char *source = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    char *text = tu_read(source);
    ck_assert_ptr_nonnull(text);
    standin = tu_join(dir, "bin/rocprofv3");
    tu_write_mode(standin, text, 0755);
    free(text);
    free(source);
    const char *path = getenv("PATH");
    path_env = tu_fmt("PATH=%s/bin:%s", dir, path ? path : "/usr/bin:/bin");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(standin);
    free(path_env);
}

/* "AORTA_FAKE_KERNELS=CALLS:NS:NAME\n..." for the stand-in. */
static char *fake_kernels(const kernel_t *kernels)
{
    char *text = strdup("AORTA_FAKE_KERNELS=");
    for (const kernel_t *k = kernels; k->name; k++) {
        char *next = tu_fmt("%s%ld:%ld:%s\n", text, k->calls, k->ns, k->name);
        free(text);
        text = next;
    }
    return text;
}

static int64_t int_at(json_object *obj, const char *key)
{
    json_object *value = tu_at(obj, key, NULL);
    ck_assert_msg(json_object_is_type(value, json_type_int), "%s is not an integer", key);
    return json_object_get_int64(value);
}

static double double_at(json_object *obj, const char *key)
{
    json_object *value = tu_at(obj, key, NULL);
    ck_assert_msg(json_object_is_type(value, json_type_double), "%s is not a float", key);
    return json_object_get_double(value);
}

static void assert_close(double got, double want)
{
    ck_assert_msg(fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want)), "%.17g is not %.17g", got,
                  want);
}

/* Assert metrics hold the five rocprof metrics of kernels (docs/collectors/rocprof.md:
 * counts summed, times summed per name, ranked by total, top five). */
static void expect_rocprof_metrics(json_object *metrics, const kernel_t *kernels,
                                   const char *artifact_dir)
{
    ck_assert_str_eq(tu_str(metrics, "rocprof_artifact_dir", NULL), artifact_dir);
    size_t n = 0;
    int64_t calls = 0;
    double total = 0, top = 0;
    while (kernels[n].name) {
        calls += kernels[n].calls;
        double ns = (double)(kernels[n].calls * kernels[n].ns);
        total += ns;
        top = fmax(top, ns);
        n++;
    }
    ck_assert_int_eq(int_at(metrics, "rocprof_kernel_count"), calls);
    assert_close(double_at(metrics, "rocprof_gpu_time_ms"), total / 1e6);
    assert_close(double_at(metrics, "rocprof_top_kernel_ms"), top / 1e6);
    /* Ranking: hottest first; the tables above have distinct totals. */
    const char *ranked[6] = {NULL};
    size_t used[8] = {0};
    ck_assert_uint_le(n, 8);
    size_t shown = n < 5 ? n : 5;
    for (size_t r = 0; r < shown; r++) {
        long best = -1;
        size_t at = 0;
        for (size_t i = 0; i < n; i++) {
            if (!used[i] && kernels[i].calls * kernels[i].ns > best) {
                best = kernels[i].calls * kernels[i].ns;
                at = i;
            }
        }
        used[at] = 1;
        ranked[r] = kernels[at].name;
    }
    tu_expect_strings(tu_at(metrics, "rocprof_top_kernels", NULL), ranked);
}

/* The six platform keys every trial's metrics carry. */
static void expect_platform_keys(json_object *metrics, const char *verdict, int exit_code,
                                 const char *result_json)
{
    ck_assert_str_eq(tu_str(metrics, "verdict", NULL), verdict);
    ck_assert_int_eq(int_at(metrics, "exit_code"), exit_code);
    ck_assert_str_eq(tu_str(metrics, "result_json_path", NULL), result_json);
    const char *lists[] = {"failure_detectors_fired", "error_detectors_fired",
                           "warn_detectors_fired"};
    for (size_t i = 0; i < 3; i++)
        ck_assert(json_object_is_type(tu_at(metrics, lists[i], NULL), json_type_array));
}

/* docs/collectors/rocprof.md with the defaults (extra trace flags and -u when given),
 * then the command. */
static void expect_wrapped_argv(json_object *argv, const char *rocprof_dir, int hip_and_msec,
                                const char *const *command)
{
    const char *expected[40] = {standin, "-d", rocprof_dir, "-o", "aorta", "--output-format",
                                "csv", "--kernel-trace"};
    size_t n = 8;
    if (hip_and_msec)
        expected[n++] = "--hip-trace";
    expected[n++] = "--stats";
    expected[n++] = "-S";
    expected[n++] = "--summary-output-file";
    expected[n++] = "rocprof_summary";
    if (hip_and_msec) {
        expected[n++] = "-u";
        expected[n++] = "msec";
    }
    expected[n++] = "--";
    for (size_t i = 0; command[i]; i++)
        expected[n++] = command[i];
    expected[n] = NULL;
    tu_expect_strings(argv, expected);
}

/* matrix.json's summary of one cell: exactly the given metric names, every
 * statistic a float, n the number of passing trials. */
static void expect_summary(json_object *cell, const char *names, double n)
{
    json_object *summary = tu_at(cell, "metrics_summary", NULL);
    char *keys = tu_keys(summary);
    ck_assert_str_eq(keys, names);
    free(keys);
    json_object_object_foreach(summary, name, stats)
    {
        const char *fields[] = {"mean", "min", "max", "n"};
        for (size_t i = 0; i < 4; i++)
            ck_assert_msg(json_object_is_type(tu_at(stats, fields[i], NULL), json_type_double),
                          "%s.%s is not a float", name, fields[i]);
        ck_assert(json_object_get_double(tu_at(stats, "n", NULL)) == n);
    }
}

/* The header row of perf.md's metrics table, cells trimmed, joined by
 * spaces; NULL when there is no such table (free it). */
static char *perf_metric_columns(const char *perf)
{
    const char *table = strstr(perf, "## Workload metrics (mean across trials)\n\n");
    if (!table)
        return NULL;
    table = strchr(table, '\n') + 2;
    const char *end = strchr(table, '\n');
    char *row = strndup(table, (size_t)(end - table));
    char *joined = calloc(1, strlen(row) + 1);
    for (char *save = NULL, *cell = strtok_r(row, "|", &save); cell;
         cell = strtok_r(NULL, "|", &save)) {
        while (*cell == ' ')
            cell++;
        size_t len = strlen(cell);
        while (len && cell[len - 1] == ' ')
            cell[--len] = '\0';
        if (joined[0])
            strcat(joined, " ");
        strcat(joined, cell);
    }
    free(row);
    return joined;
}

START_TEST(a_command_that_dispatches_gpu_work_is_measured_in_every_file)
{
    char *kernels = fake_kernels(gemm);
    char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--collect", "rocprof", "--output", "D", "--trials", "2", "--",
                             "sh", "-c", "echo computing; echo slow >&2", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_assert_summary(r.out, "Sweep summary: all 1 cell(s) passed.\n"
                            "Wall time: T\n"
                            "Full matrix: D/_no_ticket_/matrix.json\n"
                            "Performance report: D/_no_ticket_/perf.md\n"
                            "Wrote run artifacts to D/_no_ticket_\n");
    ck_assert_str_eq(r.err, "");
    const char *command[] = {"sh", "-c", "echo computing; echo slow >&2", NULL};
    for (int t = 0; t < 2; t++) {
        char *cell = tu_fmt("%s/D/_no_ticket_/none-none", dir);
        char *record = tu_fmt("%s/trial_%d/result.json", cell, t);
        char *collect = tu_fmt("%s/_subprocess/trial_d0_m0_t%d/rocprof", cell, t);

        json_object *result = tu_json(record);
        ck_assert_str_eq(tu_str(result, "verdict", NULL), "pass");
        ck_assert_int_eq(int_at(result, "exit_code"), 0);
        expect_wrapped_argv(tu_at(result, "argv", NULL), collect, 0, command);
        json_object_object_foreach(result, key, value)
        {
            (void)value;
            ck_assert_msg(strncmp(key, "rocprof_", 8) != 0, "%s in result.json", key);
        }
        json_object_put(result);

        char *trial_path = tu_fmt("%s/_subprocess/trial_d0_m0_t%d.json", cell, t);
        json_object *trial = tu_json(trial_path);
        ck_assert_str_eq(tu_str(trial, "exit_status", NULL), "ok");
        json_object *metrics = tu_at(trial, "result", "metrics", NULL);
        char *keys = tu_keys(metrics);
        ck_assert_str_eq(keys, "error_detectors_fired exit_code failure_detectors_fired "
                               "result_json_path rocprof_artifact_dir rocprof_gpu_time_ms "
                               "rocprof_kernel_count rocprof_top_kernel_ms rocprof_top_kernels "
                               "verdict warn_detectors_fired");
        free(keys);
        expect_rocprof_metrics(metrics, gemm, collect);
        expect_platform_keys(metrics, "pass", 0, record);
        json_object_put(trial);

        /* The capture stays where rocprofv3 wrote it, as the stand-in names
         * rocprofv3's files under -d with -o aorta. */
        char *listing = tu_listing(collect);
        ck_assert_str_eq(listing, "aorta_agent_info.csv\naorta_domain_stats.csv\n"
                                  "aorta_kernel_stats.csv\naorta_kernel_trace.csv\n"
                                  "aorta_rocprof_summary.txt\n");
        free(listing);
        char *log_path = tu_fmt("%s/trial_%d/stdout.log", cell, t);
        char *log = tu_read(log_path);
        ck_assert_str_eq(log, "computing\n");
        free(log);
        free(log_path);
        log_path = tu_fmt("%s/trial_%d/stderr.log", cell, t);
        log = tu_read(log_path);
        ck_assert_str_eq(log, "slow\n");
        free(log);
        free(log_path);
        free(trial_path);
        free(collect);
        free(record);
        free(cell);
    }
    json_object *matrix = tu_json("D/_no_ticket_/matrix.json");
    json_object *cell = tu_at(matrix, "cells", "0", NULL);
    expect_summary(cell, "exit_code rocprof_gpu_time_ms rocprof_kernel_count rocprof_top_kernel_ms",
                   2.0);
    assert_close(json_object_get_double(tu_at(cell, "metrics_summary", "rocprof_kernel_count",
                                               "mean", NULL)),
                 25.0);
    json_object_put(matrix);
    char *perf = tu_read("D/_no_ticket_/perf.md");
    char *columns = perf_metric_columns(perf);
    ck_assert_str_eq(columns, "Cell exit_code rocprof_gpu_time_ms rocprof_kernel_count "
                              "rocprof_top_kernel_ms");
    ck_assert_ptr_null(strstr(perf, "rocprof_top_kernels"));
    ck_assert_ptr_null(strstr(perf, "rocprof_artifact_dir"));
    ck_assert_ptr_nonnull(strstr(perf, "| 25 ")); /* a count prints as an integer */
    free(columns);
    free(perf);
    tu_result_free(&r);
    free(kernels);
}
END_TEST

START_TEST(a_command_without_gpu_work_reports_only_the_artifact_dir)
{
    char *env[] = {path_env, "AORTA_FAKE_KERNELS", "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--collect", "rocprof", "--output", "D", "--", "true", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *collect = tu_fmt("%s/D/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0/rocprof", dir);
    char *record = tu_fmt("%s/D/_no_ticket_/none-none/trial_0/result.json", dir);
    json_object *result = tu_json(record);
    expect_wrapped_argv(tu_at(result, "argv", NULL), collect, 0, (const char *[]){"true", NULL});
    json_object_put(result);
    json_object *trial = tu_json("D/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0.json");
    json_object *metrics = tu_at(trial, "result", "metrics", NULL);
    char *keys = tu_keys(metrics);
    ck_assert_str_eq(keys, "error_detectors_fired exit_code failure_detectors_fired "
                           "result_json_path rocprof_artifact_dir verdict warn_detectors_fired");
    free(keys);
    ck_assert_str_eq(tu_str(metrics, "rocprof_artifact_dir", NULL), collect);
    expect_platform_keys(metrics, "pass", 0, record);
    json_object_put(trial);
    /* rocprofv3 writes nothing when no GPU work was dispatched. */
    char *listing = tu_listing(collect);
    ck_assert_str_eq(listing, "");
    free(listing);
    json_object *matrix = tu_json("D/_no_ticket_/matrix.json");
    expect_summary(tu_at(matrix, "cells", "0", NULL), "exit_code", 1.0);
    json_object_put(matrix);
    char *perf = tu_read("D/_no_ticket_/perf.md");
    char *columns = perf_metric_columns(perf);
    ck_assert_str_eq(columns, "Cell exit_code");
    free(columns);
    free(perf);
    free(record);
    free(collect);
    tu_result_free(&r);
}
END_TEST

/* rocpd alone (ROCm 7's default), and with csv: one capture in two
 * formats counts each dispatch once. */
START_TEST(rocpd_captures_are_measured_once)
{
    const char *formats[] = {"rocpd", "CSV rocpd"};
    /* Without SQLite only the stats CSV of the second capture counts. */
#if HAVE_SQLITE3
    const size_t first = 0;
#else
    const size_t first = 1;
#endif
    for (size_t f = first; f < 2; f++) {
        char *recipe = tu_fmt("schema_version: 1\nmode: probe\ntrials: 1\n"
                              "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                              "collect: {rocprof: {output_format: \"%s\"}}\n", formats[f]);
        tu_write("rocpd.yaml", recipe);
        char *kernels = fake_kernels(gemm);
        char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
        char *out = tu_fmt("D%zu", f);
        tu_result_t r = tu_aorta(env, "--recipe", "rocpd.yaml", "--output", out, "--", "sh", "-c",
                                 "exit 0", NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_ptr_nonnull(strstr(r.out, "Sweep summary: all 1 cell(s) passed.\n"));
        char *base = tu_fmt("%s/%s/_no_ticket_/none-none", dir, out);
        char *collect = tu_fmt("%s/_subprocess/trial_d0_m0_t0/rocprof", base);
        char *db = tu_fmt("%s/aorta_results.db", collect);
        char *stats = tu_fmt("%s/aorta_kernel_stats.csv", collect);
        ck_assert(tu_exists(db));
        ck_assert(tu_exists(stats) == (f == 1));
        char *trial_path = tu_fmt("%s/_subprocess/trial_d0_m0_t0.json", base);
        json_object *trial = tu_json(trial_path);
        expect_rocprof_metrics(tu_at(trial, "result", "metrics", NULL), gemm, collect);
        json_object_put(trial);
        free(trial_path);
        free(stats);
        free(db);
        free(collect);
        free(base);
        free(out);
        tu_result_free(&r);
        free(kernels);
        free(recipe);
    }
}
END_TEST

START_TEST(recipe_options_reach_every_trial_of_every_cell)
{
    /* The reduce cell's variables replace the GPU work the environment
     * describes for the none cell. */
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: ROC-SWEEP\ntrials: 2\n"
                          "mitigation_axis: [none, reduce]\ndiagnostic_axis: [none]\n"
                          "mitigations:\n  reduce: {AORTA_FAKE_KERNELS: \"%ld:%ld:%s\"}\n"
                          "collect: {rocprof: {trace: \"kernel,hip\", summary_units: \"msec\"}}\n",
                          reduce[0].calls, reduce[0].ns, reduce[0].name);
    tu_write("recipe.yaml", recipe);
    char *kernels = fake_kernels(gemm);
    char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "recipe.yaml", "--output", "D", "--", "sh", "-c",
                             "exit 0", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "Sweep summary: all 2 cell(s) passed.\n"));
    const char *cells[] = {"none-none", "reduce-none"};
    const kernel_t *expected[] = {gemm, reduce};
    for (size_t c = 0; c < 2; c++) {
        for (int t = 0; t < 2; t++) {
            char *base = tu_fmt("%s/D/ROC-SWEEP/%s", dir, cells[c]);
            char *record = tu_fmt("%s/trial_%d/result.json", base, t);
            char *collect = tu_fmt("%s/_subprocess/trial_d0_m0_t%d/rocprof", base, t);
            json_object *result = tu_json(record);
            expect_wrapped_argv(tu_at(result, "argv", NULL), collect, 1,
                                (const char *[]){"sh", "-c", "exit 0", NULL});
            json_object_put(result);
            char *trial_path = tu_fmt("%s/_subprocess/trial_d0_m0_t%d.json", base, t);
            json_object *trial = tu_json(trial_path);
            json_object *metrics = tu_at(trial, "result", "metrics", NULL);
            expect_rocprof_metrics(metrics, expected[c], collect);
            expect_platform_keys(metrics, "pass", 0, record);
            json_object_put(trial);
            /* -u msec reached rocprofv3: its summary is in milliseconds. */
            char *summary_path = tu_fmt("%s/aorta_rocprof_summary.txt", collect);
            char *summary = tu_read(summary_path);
            ck_assert_ptr_nonnull(summary);
            ck_assert_ptr_nonnull(strstr(summary, "ROCPROFV3 SUMMARY:"));
            ck_assert_ptr_nonnull(strstr(summary, " DURATION (msec) "));
            free(summary);
            free(summary_path);
            free(trial_path);
            free(collect);
            free(record);
            free(base);
        }
    }
    json_object *matrix = tu_json("D/ROC-SWEEP/matrix.json");
    ck_assert_uint_eq(json_object_array_length(tu_at(matrix, "cells", NULL)), 2);
    for (size_t c = 0; c < 2; c++) {
        json_object *cell = tu_at(matrix, "cells", c ? "1" : "0", NULL);
        ck_assert_str_eq(tu_str(cell, "name", NULL), cells[c]);
        expect_summary(cell, "exit_code rocprof_gpu_time_ms rocprof_kernel_count "
                             "rocprof_top_kernel_ms", 2.0);
    }
    json_object_put(matrix);
    char *perf = tu_read("D/ROC-SWEEP/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "| reduce-none "));
    ck_assert_ptr_nonnull(strstr(perf, "| 7 ")); /* reduce's kernel count, an integer */
    free(perf);
    tu_result_free(&r);
    free(kernels);
    free(recipe);
}
END_TEST

START_TEST(retention_deletes_the_capture_after_its_metrics_were_read)
{
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\nticket: RET\ntrials: 1\n"
                            "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                            "collect: [rocprof]\nretain: {on_pass: none}\n");
    char *kernels = fake_kernels(gemm);
    char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "recipe.yaml", "--output", "D", "--", "true", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char *collect = tu_fmt("%s/D/RET/none-none/_subprocess/trial_d0_m0_t0/rocprof", dir);
    char *record = tu_fmt("%s/D/RET/none-none/trial_0/result.json", dir);
    ck_assert(!tu_exists(collect));
    char *listing = tu_listing("D/RET/none-none/_subprocess/trial_d0_m0_t0");
    ck_assert_str_eq(listing, "");
    free(listing);
    listing = tu_listing("D/RET/none-none/trial_0");
    ck_assert_str_eq(listing, "result.json\n");
    free(listing);
    json_object *trial = tu_json("D/RET/none-none/_subprocess/trial_d0_m0_t0.json");
    expect_rocprof_metrics(tu_at(trial, "result", "metrics", NULL), gemm, collect);
    json_object_put(trial);
    json_object *result = tu_json(record);
    json_object *retention = tu_at(result, "capture", "retention", NULL);
    ck_assert_str_eq(tu_str(retention, "level", NULL), "none");
    ck_assert_int_gt(int_at(retention, "freed_bytes"), 0);
    json_object *deleted = tu_at(retention, "deleted", NULL);
    const char *capture[] = {"aorta_agent_info.csv", "aorta_domain_stats.csv",
                             "aorta_kernel_stats.csv", "aorta_kernel_trace.csv",
                             "aorta_rocprof_summary.txt"};
    size_t found = 0, above = 0;
    for (size_t i = 0; i < json_object_array_length(deleted); i++) {
        const char *entry = json_object_get_string(json_object_array_get_idx(deleted, i));
        if (strncmp(entry, "../", 3) != 0)
            continue;
        above++;
        for (size_t k = 0; k < 5; k++) {
            char *want = tu_fmt("../_subprocess/trial_d0_m0_t0/rocprof/%s", capture[k]);
            found += strcmp(entry, want) == 0;
            free(want);
        }
    }
    ck_assert_uint_eq(found, 5);
    ck_assert_uint_eq(above, 5);
    json_object_put(result);
    free(record);
    free(collect);
    tu_result_free(&r);
    free(kernels);
}
END_TEST

START_TEST(a_failing_command_still_gets_its_metrics)
{
    char *kernels = fake_kernels(gemm);
    char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
    tu_result_t r = tu_aorta(env, "--collect", "rocprof", "--output", "D", "--", "sh", "-c",
                             "exit 3", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "  [fail] none-none: 1 failed of 1 trial(s) (exit code 3)"));
    char *collect = tu_fmt("%s/D/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0/rocprof", dir);
    char *record = tu_fmt("%s/D/_no_ticket_/none-none/trial_0/result.json", dir);
    json_object *result = tu_json(record);
    ck_assert_str_eq(tu_str(result, "verdict", NULL), "fail");
    ck_assert_int_eq(int_at(result, "exit_code"), 3);
    json_object_put(result);
    json_object *trial = tu_json("D/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(tu_str(trial, "exit_status", NULL), "workload_failed");
    json_object *metrics = tu_at(trial, "result", "metrics", NULL);
    expect_rocprof_metrics(metrics, gemm, collect);
    expect_platform_keys(metrics, "fail", 3, record);
    json_object_put(trial);
    /* Only passing trials feed the summary, so there is none. */
    json_object *matrix = tu_json("D/_no_ticket_/matrix.json");
    expect_summary(tu_at(matrix, "cells", "0", NULL), "", 0);
    json_object_put(matrix);
    char *perf = tu_read("D/_no_ticket_/perf.md");
    ck_assert_ptr_null(perf_metric_columns(perf));
    free(perf);
    free(record);
    free(collect);
    tu_result_free(&r);
    free(kernels);
}
END_TEST

/* Each trial's setup fails with the message: recorded in its trial JSON, no
 * result.json, counted as an error, one stderr line per trial; the sweep
 * goes on, and as nothing ran it says so and exits 1. */
static void expect_setup_failures(char *const *env, const char *message)
{
    tu_result_t r = tu_aorta(env, "--collect", "rocprof", "--output", "D", "--trials", "2", "--",
                             "true", NULL);
    ck_assert_msg(r.status == 1, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\nNothing ran: every trial was a setup failure (reasons below); "
                                "the command was never started, so aorta-run exits 1.\n"),
                  "%s", r.out);
    char *summary = tu_fmt("  [error] none-none: 2 errored of 2 trial(s) (setup failed: %s)",
                           message);
    ck_assert_msg(strstr(r.out, summary) != NULL, "%s", r.out);
    free(summary);
    for (int t = 0; t < 2; t++) {
        char *line = tu_fmt("aorta-run: warning: D/_no_ticket_/none-none/trial_%d: setup failed: "
                            "%s\n", t, message);
        ck_assert_msg(tu_count(r.err, line) == 1, "%s", r.err);
        free(line);
        char *trial_path = tu_fmt("D/_no_ticket_/none-none/_subprocess/trial_d0_m0_t%d.json", t);
        json_object *trial = tu_json(trial_path);
        ck_assert_str_eq(tu_str(trial, "exit_status", NULL), "workload_setup_failed");
        ck_assert_str_eq(tu_str(trial, "result", "failure_details", "0", "error", NULL), message);
        ck_assert_str_eq(tu_str(trial, "result", "failure_details", "0", "phase", NULL), "setup");
        ck_assert_uint_eq(json_object_object_length(tu_at(trial, "result", "metrics", NULL)), 0);
        json_object_put(trial);
        free(trial_path);
        char *record = tu_fmt("D/_no_ticket_/none-none/trial_%d/result.json", t);
        ck_assert(!tu_exists(record));
        free(record);
    }
    ck_assert_uint_eq(tu_count(r.err, "\n"), 2);
    json_object *matrix = tu_json("D/_no_ticket_/matrix.json");
    json_object *cell = tu_at(matrix, "cells", "0", NULL);
    ck_assert_int_eq(int_at(cell, "error_count"), 2);
    ck_assert_int_eq(int_at(cell, "passed_count"), 0);
    ck_assert_int_eq(int_at(tu_at(cell, "exit_status_counts", NULL), "workload_setup_failed"), 2);
    json_object_put(matrix);
    tu_rmtree("D");
    tu_result_free(&r);
}

START_TEST(an_unusable_profiler_is_a_setup_failure_of_each_trial)
{
    char *not_exec = tu_join(dir, "bin/not-executable");
    tu_write(not_exec, "#!/bin/sh\n");
    char *missing = tu_join(dir, "bin/missing");
    char *bin = tu_join(dir, "bin");
    const char *paths[] = {bin, not_exec, missing};
    for (size_t i = 0; i < 3; i++) {
        char *bin_env = tu_fmt("ROCPROF_BIN=%s", paths[i]);
        char *message = tu_fmt("rocprof: ROCPROF_BIN='%s' looks like a path but does not point "
                               "to an executable file.", paths[i]);
        expect_setup_failures((char *[]){path_env, bin_env, NULL}, message);
        free(message);
        free(bin_env);
    }
    /* No ROCPROF_BIN and no rocprofv3 on PATH: the system's PATH without
     * any directory that holds one (a ROCm machine's). */
    const char *system = getenv("PATH");
    char *copy = strdup(system ? system : "/usr/bin:/bin");
    char *path = strdup("PATH=");
    for (char *save = NULL, *entry = strtok_r(copy, ":", &save); entry;
         entry = strtok_r(NULL, ":", &save)) {
        char *candidate = tu_join(entry, "rocprofv3");
        if (access(candidate, X_OK) != 0) {
            char *next = tu_fmt("%s%s%s", path, path[5] ? ":" : "", entry);
            free(path);
            path = next;
        }
        free(candidate);
    }
    expect_setup_failures((char *[]){path, "ROCPROF_BIN", NULL},
                          "rocprofv3 not found: set $ROCPROF_BIN to the profiler binary, or put "
                          "'rocprofv3' on $PATH (it ships with ROCm). Required by "
                          "'--collect rocprof'.");
    free(path);
    free(copy);
    free(bin);
    free(missing);
    free(not_exec);
}
END_TEST

START_TEST(a_second_identical_run_resumes_without_profiling_again)
{
    /* bin/rocprofv3 counts the calls that profile (not the --version each
     * run asks for its provenance), then runs the stand-in. */
    char *real = tu_join(dir, "bin/real-rocprofv3");
    ck_assert_int_eq(rename(standin, real), 0);
    char *wrapper = tu_fmt("#!/bin/sh\n[ \"$1\" = --version ] || echo call >>'%s/calls'\n"
                           "exec '%s' \"$@\"\n",
                           dir, real);
    tu_write_mode(standin, wrapper, 0755);
    char *kernels = fake_kernels(gemm);
    char *env[] = {path_env, kernels, "ROCPROF_BIN", NULL};
    tu_result_t first = tu_aorta(env, "--collect", "rocprof", "--output", "D", "--trials", "2",
                                 "--", "true", NULL);
    ck_assert_msg(first.status == 0, "%s", first.err);
    char *calls = tu_read("calls");
    ck_assert_str_eq(calls, "call\ncall\n");
    free(calls);
    char *before = tu_read("D/_no_ticket_/none-none/_subprocess/trial_d0_m0_t1.json");

    tu_result_t second = tu_aorta(env, "--collect", "rocprof", "--output", "D", "--trials", "2",
                                  "--", "true", NULL);
    ck_assert_msg(second.status == 0, "%s", second.err);
    ck_assert_ptr_nonnull(strstr(second.out, "Sweep summary: all 1 cell(s) passed. 1 resumed "
                                             "from a prior run (no trials re-executed).\n"));
    calls = tu_read("calls");
    ck_assert_str_eq(calls, "call\ncall\n");
    free(calls);
    char *after = tu_read("D/_no_ticket_/none-none/_subprocess/trial_d0_m0_t1.json");
    ck_assert_str_eq(after, before);
    json_object *matrix = tu_json("D/_no_ticket_/matrix.json");
    json_object *cell = tu_at(matrix, "cells", "0", NULL);
    ck_assert(json_object_get_boolean(tu_at(cell, "resumed", NULL)));
    /* The resumed cell's summary is rebuilt from the trial files. */
    expect_summary(cell, "exit_code rocprof_gpu_time_ms rocprof_kernel_count rocprof_top_kernel_ms",
                   2.0);
    json_object_put(matrix);
    char *capture = tu_listing("D/_no_ticket_/none-none/_subprocess/trial_d0_m0_t1/rocprof");
    ck_assert_ptr_nonnull(strstr(capture, "aorta_kernel_stats.csv\n"));
    free(capture);
    free(after);
    free(before);
    tu_result_free(&second);
    tu_result_free(&first);
    free(kernels);
    free(wrapper);
    free(real);
}
END_TEST

static Suite *rocprof_sweep_suite(void)
{
    Suite *suite = suite_create("rocprof_sweep");
    TCase *tc = tcase_create("sweep");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_command_that_dispatches_gpu_work_is_measured_in_every_file);
    tcase_add_test(tc, a_command_without_gpu_work_reports_only_the_artifact_dir);
    tcase_add_test(tc, recipe_options_reach_every_trial_of_every_cell);
    tcase_add_test(tc, rocpd_captures_are_measured_once);
    tcase_add_test(tc, retention_deletes_the_capture_after_its_metrics_were_read);
    tcase_add_test(tc, a_failing_command_still_gets_its_metrics);
    tcase_add_test(tc, an_unusable_profiler_is_a_setup_failure_of_each_trial);
    tcase_add_test(tc, a_second_identical_run_resumes_without_profiling_again);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(rocprof_sweep_suite)
