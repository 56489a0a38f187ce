/* SPDX-License-Identifier: MIT */
/* Recipes run end to end through aorta-run: upstream's two-cell recipe
 * with its sidecar, and a two-axis recipe (a sidecar mitigation and an
 * inline one) with a collector, retention, env_passthrough_mode file,
 * a launcher and a timeout; stop_after from a recipe. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeputil.h"
#include "xalloc.h"

static char *dir;
static char *modules;

static void setup(void)
{
    dir = tu_tmpdir();
    ck_assert_int_eq(chdir(dir), 0);
    modules = tu_builddir("tests/fake-collectors");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(modules);
}

static char *read_in(const char *run, const char *rel)
{
    char *path = tu_join(run, rel);
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "%s is missing", path);
    free(path);
    return text;
}

/* The digest sha256sum prints for path. */
static char *sha256sum(const char *path)
{
    char *out = NULL;
    ck_assert_int_eq(tu_run((char *[]){"sha256sum", (char *)path, NULL}, NULL, &out, NULL), 0);
    out[64] = '\0';
    return out;
}

START_TEST(upstreams_sidecar_recipe_runs_its_two_cells)
{
    char *recipe = tu_srcdir("tests/run/recipe/fixtures/tests_probe_fixtures_probe_needs_sidecar.yaml");
    char *sidecar = tu_srcdir("tests/run/recipe/fixtures/tests_probe_fixtures_probe_sidecar.json");
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta((char *[]){"SIDECAR_ONLY_FLAG", NULL},
                              (char *[]){"--recipe", recipe, "--mitigations-file", sidecar,
                                         "--output", "out", "--", "sh", "-c",
                                         "echo \"flag=${SIDECAR_ONLY_FLAG-unset}\"", NULL},
                              &out, &err),
                     0);
    tu_assert_summary(out, "Sweep summary: all 2 cell(s) passed.\n"
                          "Wall time: T\n"
                          "Full matrix: out/PROBE-188-SIDECAR/matrix.json\n"
                          "Performance report: out/PROBE-188-SIDECAR/perf.md\n"
                          "Wrote run artifacts to out/PROBE-188-SIDECAR\n");
    const char *run = "out/PROBE-188-SIDECAR";
    char *text = read_in(run, "none-none/trial_0/stdout.log");
    ck_assert_str_eq(text, "flag=unset\n");
    free(text);
    text = read_in(run, "sidecar_only_mitigation-none/trial_0/stdout.log");
    ck_assert_str_eq(text, "flag=1\n");
    free(text);
    ar_json_t *matrix = su_json(run, "matrix.json");
    ck_assert_str_eq(su_str(matrix, "ticket", NULL), "PROBE-188-SIDECAR");
    ck_assert_str_eq(su_str(matrix, "recipe_source", "path", NULL), recipe);
    char *digest = sha256sum(recipe);
    ck_assert_str_eq(su_str(matrix, "recipe_source", "sha256", NULL), digest);
    free(digest);
    ck_assert_str_eq(su_str(matrix, "baseline_cell", NULL), "none-none");
    ck_assert_str_eq(su_str(matrix, "cells", "1", "name", NULL), "sidecar_only_mitigation-none");
    ck_assert_str_eq(su_str(matrix, "cells", "1", "mitigations", "0", NULL),
                     "sidecar_only_mitigation");
    ck_assert_str_eq(su_str(matrix, "cells", "1", "resolved_env_vars", "SIDECAR_ONLY_FLAG", NULL),
                     "1");
    ck_assert_uint_eq(ar_json_object_count(su_at(matrix, "cells", "0", "resolved_env_vars",
                                                    NULL)),
                      0);
    ar_json_free(matrix);
    ar_json_t *result = su_json(run, "sidecar_only_mitigation-none/trial_0/result.json");
    ck_assert_str_eq(su_str(result, "env", "SIDECAR_ONLY_FLAG", NULL), "1");
    ar_json_free(result);
    free(out);
    free(err);
    free(recipe);
    free(sidecar);
}
END_TEST

static void write_two_axis_recipe(const char *path, const char *wrapper)
{
    char *text = ar_xasprintf(
        "schema_version: 1\n"
        "mode: probe\n"
        "ticket: TWO-AXIS\n"
        "trials: 2\n"
        "timeout_per_trial: 30\n"
        "mitigation_axis: [none, tf32_off]\n"
        "diagnostic_axis: [none, verbose]\n"
        "mitigations:\n"
        "  verbose: {AORTA_VERBOSE: \"1\"}\n"
        "env_passthrough_mode: file\n"
        "collect:\n"
        "  scribe: {wrapper: \"%s\"}\n"
        "retain: {on_pass: summary, on_fail: full}\n"
        "launcher: [env, LAUNCHED=yes]\n",
        wrapper);
    tu_write(path, text);
    free(text);
}

static const char *const cells[] = {"none-none", "none-verbose", "tf32_off-none",
                                    "tf32_off-verbose"};

START_TEST(a_two_axis_recipe_with_a_sidecar_collects_retains_and_launches)
{
    char *wrapper = tu_srcdir("tests/fake-collectors/scribe-wrapper");
    write_two_axis_recipe("recipe.yaml", wrapper);
    tu_write("sidecar.json", "{\"version\": 1, \"mitigations\": {\"tf32_off\": {\"TF32\": \"0\"}}}");
    char *out = NULL, *err = NULL;
    char *script = "echo \"tf32=${TF32-} verbose=${AORTA_VERBOSE-} launched=$LAUNCHED\"; "
                   "test -z \"$TF32\"";
    ck_assert_int_eq(su_aorta((char *[]){"TF32", "AORTA_VERBOSE", "LAUNCHED", NULL},
                              (char *[]){"--plugin-dir", modules, "--recipe", "recipe.yaml",
                                         "--mitigations-file", "sidecar.json", "--output", "out",
                                         "--", "sh", "-c", script, NULL}, &out, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(out, "Sweep summary: 4 cell(s) -- 2 clean, 2 with failing "
                                      "trials, 0 with errors.\n"
                                      "  [fail] tf32_off-none: 2 failed of 2 trial(s) (exit code 1) "
                                      "-> tf32_off-none/\n"
                                      "  [fail] tf32_off-verbose: 2 failed of 2 trial(s) (exit code "
                                      "1) -> tf32_off-verbose/\n"));
    const char *run = "out/TWO-AXIS";
    ar_json_t *matrix = su_json(run, "matrix.json");
    ck_assert_uint_eq(ar_json_length(ar_json_get(matrix, "cells")), 4);
    for (size_t c = 0; c < 4; c++) {
        char index[4];
        snprintf(index, sizeof index, "%zu", c);
        ar_json_t *cell = su_at(matrix, "cells", index, NULL);
        int fails = c >= 2;
        ck_assert_str_eq(su_str(cell, "name", NULL), cells[c]);
        ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "trials")), 2);
        ck_assert_int_eq(ar_json_get_int(ar_json_get(cell, "failed_count")), fails ? 2 : 0);
        ar_json_t *summary = ar_json_get(cell, "metrics_summary");
        if (fails) {
            ck_assert_uint_eq(ar_json_object_count(summary), 0);
        } else {
            ck_assert(ar_json_get_double(su_at(summary, "scribe_file_count", "mean", NULL))
                      == 4.0);
            ck_assert(ar_json_get_double(su_at(summary, "scribe_attempts", "max", NULL)) == 1.0);
            ck_assert_ptr_nonnull(ar_json_get(summary, "exit_code"));
        }
        for (int t = 0; t < 2; t++) {
            char *rel = ar_xasprintf("%s/trial_%d/stdout.log", cells[c], t);
            char *text = read_in(run, rel);
            char *expected = ar_xasprintf("tf32=%s verbose=%s launched=yes\n",
                                             c >= 2 ? "0" : "", c % 2 ? "1" : "");
            ck_assert_str_eq(text, expected);
            free(expected);
            free(text);
            free(rel);
            /* probe.env: the cell's variables, sorted. */
            rel = ar_xasprintf("%s/trial_%d/probe.env", cells[c], t);
            text = read_in(run, rel);
            static const char *const env_files[] = {"", "AORTA_VERBOSE=1\n", "TF32=0\n",
                                                    "AORTA_VERBOSE=1\nTF32=0\n"};
            ck_assert_str_eq(text, env_files[c]);
            free(text);
            free(rel);
            /* Retention by verdict, on both trees. */
            rel = ar_xasprintf("%s/trial_%d/result.json", cells[c], t);
            ar_json_t *result = su_json(run, rel);
            ck_assert_str_eq(su_str(result, "capture", "retention", "level", NULL),
                             fails ? "full" : "summary");
            ck_assert_str_eq(su_str(result, "argv", "0", NULL), "env");
            ck_assert_str_eq(su_str(result, "env_passthrough_mode", NULL), "file");
            ar_json_free(result);
            free(rel);
            /* Under a launcher, the collector's artifacts are per rank; env(1)
             * starts one process, which is rank 0. */
            char *trace = ar_xasprintf("%s/%s/_subprocess/trial_d0_m0_t%d/scribe/rank0/"
                                          "trace.csv",
                                          run, cells[c], t);
            char *stats = ar_xasprintf("%s/%s/_subprocess/trial_d0_m0_t%d/scribe/rank0/"
                                          "stats.summary.json",
                                          run, cells[c], t);
            ck_assert_int_eq(tu_exists(trace), fails);
            ck_assert(tu_exists(stats));
            free(trace);
            free(stats);
            rel = ar_xasprintf("%s/_subprocess/trial_d0_m0_t%d.json", cells[c], t);
            ar_json_t *trial = su_json(run, rel);
            ck_assert_str_eq(su_str(trial, "config", "_aorta_collect_options", "scribe", "wrapper",
                                    NULL),
                             wrapper);
            ck_assert(ar_json_get_double(su_at(trial, "config", "_aorta_probe_extras",
                                                  "timeout_per_trial", NULL))
                      == 30.0);
            ck_assert_str_eq(su_str(trial, "config", "_aorta_probe_extras", "retain", "on_error",
                                    NULL),
                             "full");
            ar_json_free(trial);
            free(rel);
        }
    }
    ar_json_free(matrix);
    char *perf = read_in(run, "perf.md");
    /* Under the launcher the per-rank keys come with the collector's own. */
    ck_assert_ptr_nonnull(strstr(perf, "| Cell                 | exit_code | scribe_attempts | "
                                       "scribe_bytes | scribe_file_count | "
                                       "scribe_gpu_time_ms_rank_max | scribe_gpu_time_ms_rank_min | "
                                       "scribe_rank_count | scribe_ranks_with_data |\n"));
    ck_assert_ptr_nonnull(strstr(perf, "| tf32_off-none        | \xe2\x80\x94         |"));
    free(perf);
    free(out);
    free(err);
    free(wrapper);
}
END_TEST

START_TEST(stop_after_from_a_recipe_bounds_each_cell)
{
    tu_write("stop.yaml", "schema_version: 1\n"
                          "mode: probe\n"
                          "ticket: STOP\n"
                          "trials: 1\n"
                          "mitigation_axis: [none, other]\n"
                          "diagnostic_axis: [none]\n"
                          "mitigations: {other: {OTHER: \"1\"}}\n"
                          "stop_after: {events: 2, max_trials: 4}\n");
    char *out = NULL, *err = NULL;
    /* "other" fails every trial; none passes every trial. */
    ck_assert_int_eq(su_aorta((char *[]){"OTHER", NULL},
                              (char *[]){"--recipe", "stop.yaml", "--output", "out", "-v", "--",
                                         "sh", "-c", "test -z \"$OTHER\"", NULL}, &out, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(err, "stop_after: 2 'fail' event(s) observed in 2 trial(s) "
                                      "(target 2, cap 4) -- stopping cell early"));
    ar_json_t *matrix = su_json("out/STOP", "matrix.json");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(matrix, "trials_per_cell")), 4);
    ck_assert_str_eq(su_str(matrix, "stop_after", "event_verdict", NULL), "fail");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "trials", NULL)), 4);
    ck_assert_ptr_null(su_at(matrix, "cells", "0", "stop_after_note", NULL));
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "1", "trials", NULL)), 2);
    ck_assert_ptr_nonnull(su_str(matrix, "cells", "1", "stop_after_note", NULL));
    ar_json_free(matrix);
    char *perf = read_in("out/STOP", "perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "| other-none           | 2      |"));
    free(perf);
    free(out);
    free(err);
    /* --trials replaces the cap, and says so. */
    ck_assert_int_eq(su_aorta((char *[]){"OTHER", NULL},
                              (char *[]){"--recipe", "stop.yaml", "--output", "out", "--ticket",
                                         "STOP3", "--trials", "3", "--", "sh", "-c",
                                         "test -z \"$OTHER\"", NULL}, &out, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: --trials 3 overrides the recipe's "
                                      "stop_after.max_trials (4)\n"));
    matrix = su_json("out/STOP3", "matrix.json");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(matrix, "trials_per_cell")), 3);
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "cells", "0", "trials", NULL)), 3);
    ar_json_free(matrix);
    free(out);
    free(err);
}
END_TEST

static Suite *recipes_suite(void)
{
    Suite *suite = suite_create("platform recipes");
    TCase *tc = tcase_create("recipes");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, upstreams_sidecar_recipe_runs_its_two_cells);
    tcase_add_test(tc, a_two_axis_recipe_with_a_sidecar_collects_retains_and_launches);
    tcase_add_test(tc, stop_after_from_a_recipe_bounds_each_cell);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(recipes_suite)
