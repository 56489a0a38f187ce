/* SPDX-License-Identifier: MIT */
/* The proton collector through real sweeps of the built aorta-run, against
 * the stand-ins of examples/no-gpu/triton (a python3 with Proton's CLI) and
 * tests/collectors/proton/standins (a mode: env payload), which leave one of
 * the real captures (examples/no-gpu/triton/vecadd.hatchet,
 * tests/collectors/proton/fixtures) where Proton would: every passing trial's metrics
 * must agree with the .hatchet beside them, worked out here with json-c.
 * Also: a device pin from a mitigation moved to ROCR_VISIBLE_DEVICES through
 * env(1), unwrappable commands as setup failures (and dry-run errors), and
 * proton composed inside rocprof (the stand-in rocprofv3). */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeptest.h"

#define MOD "triton.profiler.proton"

static char *dir;        /* working directory, symlinks resolved */
static char *standins;   /* tests/collectors/proton/standins (env_payload) */
static char *triton;     /* examples/no-gpu/triton (python3, pytest) */
static char *path_env;   /* PATH=<triton>:$PATH */
static char *log_env;    /* AORTA_STANDIN_LOG=<dir>/standin.log */
static char *cli_env;    /* AORTA_STANDIN_HATCHET=<the h200_cli capture> */
static char *env_env;    /* AORTA_STANDIN_HATCHET=<the h200_env capture> */
static char *env_bin;    /* env(1) as the collector finds it on PATH */

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
    standins = tu_srcdir("tests/collectors/proton/standins");
    triton = tu_srcdir("examples/no-gpu/triton");
    const char *path = getenv("PATH");
    path_env = tu_fmt("PATH=%s:%s", triton, path ? path : "/usr/bin:/bin");
    log_env = tu_fmt("AORTA_STANDIN_LOG=%s/standin.log", dir);
    char *capture = tu_srcdir("tests/collectors/proton/fixtures/h200_cli/proton.hatchet");
    cli_env = tu_fmt("AORTA_STANDIN_HATCHET=%s", capture);
    free(capture);
    capture = tu_srcdir("tests/collectors/proton/fixtures/h200_env/proton.hatchet");
    env_env = tu_fmt("AORTA_STANDIN_HATCHET=%s", capture);
    free(capture);
    env_bin = tu_which("env");
    ck_assert_ptr_nonnull(env_bin);
    tu_write("vecadd.py", "# the stand-in python3 only checks the script exists\n");
    tu_write("train.py", "# the stand-in python3 only checks the script exists\n");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(standins);
    free(triton);
    free(path_env);
    free(log_env);
    free(cli_env);
    free(env_env);
    free(env_bin);
}

/* What a .hatchet says, by the leaf rule of docs/collectors/proton.md: per kernel name
 * (first seen first) its time and launches, over the leaves of every root. */
typedef struct hatchet {
    char *names[64];
    double ms[64];
    int64_t count[64];
    size_t n;
} hatchet_t;

static void add_leaf(hatchet_t *h, json_object *node)
{
    json_object *frame, *metrics, *name, *time, *count;
    if (!json_object_object_get_ex(node, "frame", &frame)
        || !json_object_object_get_ex(node, "metrics", &metrics)
        || !json_object_object_get_ex(frame, "name", &name)
        || !json_object_object_get_ex(metrics, "time (ns)", &time)
        || !json_object_object_get_ex(metrics, "count", &count))
        return;
    const char *text = json_object_get_string(name);
    while (isspace((unsigned char)*text))
        text++;
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    if (!len)
        return;
    size_t i = 0;
    while (i < h->n && (strlen(h->names[i]) != len || strncmp(h->names[i], text, len) != 0))
        i++;
    if (i == h->n) {
        ck_assert_uint_lt(h->n, 64);
        h->names[h->n++] = strndup(text, len);
    }
    h->ms[i] += json_object_get_double(time) * 1e-6;
    h->count[i] += json_object_get_int64(count);
}

static void walk(hatchet_t *h, json_object *node)
{
    json_object *children;
    if (json_object_object_get_ex(node, "children", &children)
        && json_object_is_type(children, json_type_array) && json_object_array_length(children)) {
        for (size_t i = 0; i < json_object_array_length(children); i++)
            walk(h, json_object_array_get_idx(children, i));
    } else {
        add_leaf(h, node);
    }
}

static void read_hatchet(hatchet_t *h, const char *path)
{
    memset(h, 0, sizeof *h);
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "no profile at %s", path);
    json_tokener *tok = json_tokener_new_ex(10000);
    json_object *root = json_tokener_parse_ex(tok, text, (int)strlen(text));
    ck_assert_msg(root != NULL, "%s is not JSON", path);
    json_tokener_free(tok);
    free(text);
    if (json_object_is_type(root, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(root); i++)
            walk(h, json_object_array_get_idx(root, i));
    } else {
        walk(h, root);
    }
    json_object_put(root);
    ck_assert_msg(h->n > 0, "%s has no kernel", path);
}

static void hatchet_free(hatchet_t *h)
{
    for (size_t i = 0; i < h->n; i++)
        free(h->names[i]);
}

static void assert_close(double got, double want)
{
    ck_assert_msg(fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want)), "%.17g is not %.17g", got,
                  want);
}

/* metrics' proton_* keys agree with the .hatchet in collect_dir/proton. */
static void expect_proton_metrics(json_object *metrics, const char *collect_dir)
{
    char *proton_dir = tu_fmt("%s/proton", collect_dir);
    char *listing = tu_listing(proton_dir);
    ck_assert_str_eq(listing, "proton.hatchet\n");
    free(listing);
    char *file = tu_fmt("%s/proton.hatchet", proton_dir);
    hatchet_t h;
    read_hatchet(&h, file);
    ck_assert_str_eq(tu_str(metrics, "proton_artifact_dir", NULL), proton_dir);
    int64_t count = 0;
    double total = 0, top = 0;
    for (size_t i = 0; i < h.n; i++) {
        count += h.count[i];
        total += h.ms[i];
        top = fmax(top, h.ms[i]);
    }
    json_object *value = tu_at(metrics, "proton_kernel_count", NULL);
    ck_assert(json_object_is_type(value, json_type_int));
    ck_assert_int_eq(json_object_get_int64(value), count);
    value = tu_at(metrics, "proton_gpu_time_ms", NULL);
    ck_assert(json_object_is_type(value, json_type_double));
    assert_close(json_object_get_double(value), total);
    value = tu_at(metrics, "proton_top_kernel_ms", NULL);
    ck_assert(json_object_is_type(value, json_type_double));
    assert_close(json_object_get_double(value), top);
    /* Hottest first, ties in first-seen order, at most five. */
    const char *ranked[6] = {NULL};
    int used[64] = {0};
    size_t shown = h.n < 5 ? h.n : 5;
    for (size_t r = 0; r < shown; r++) {
        size_t best = h.n;
        for (size_t i = 0; i < h.n; i++)
            if (!used[i] && (best == h.n || h.ms[i] > h.ms[best]))
                best = i;
        used[best] = 1;
        ranked[r] = h.names[best];
    }
    tu_expect_strings(tu_at(metrics, "proton_top_kernels", NULL), ranked);
    hatchet_free(&h);
    free(file);
    free(proton_dir);
}

/* The trial's JSON: passed, its metrics exactly the keys given (sorted,
 * space-separated) and the proton ones agreeing with the capture. */
static json_object *expect_passing_trial(const char *cell_dir, int t, const char *metric_keys)
{
    char *path = tu_fmt("%s/_subprocess/trial_d0_m0_t%d.json", cell_dir, t);
    json_object *trial = tu_json(path);
    ck_assert_str_eq(tu_str(trial, "exit_status", NULL), "ok");
    json_object *metrics = tu_at(trial, "result", "metrics", NULL);
    ck_assert_str_eq(tu_str(metrics, "verdict", NULL), "pass");
    char *keys = tu_keys(metrics);
    ck_assert_str_eq(keys, metric_keys);
    free(keys);
    char *collect = tu_fmt("%s/_subprocess/trial_d0_m0_t%d", cell_dir, t);
    expect_proton_metrics(metrics, collect);
    free(collect);
    free(path);
    return trial;
}

/* Sorted: the platform's six around the collector's five. */
/* The profile of that trial is the capture hatchet_env names. */
static void expect_capture(const char *cell_dir, int t, const char *hatchet_env)
{
    char *path = tu_fmt("%s/_subprocess/trial_d0_m0_t%d/proton/proton.hatchet", cell_dir, t);
    char *got = tu_read(path);
    char *want = tu_read(strchr(hatchet_env, '=') + 1);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(want);
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    free(path);
}

#define PROTON_KEYS                                                                       \
    "error_detectors_fired exit_code failure_detectors_fired proton_artifact_dir "      \
    "proton_gpu_time_ms proton_kernel_count proton_top_kernel_ms proton_top_kernels " \
    "result_json_path verdict warn_detectors_fired"

START_TEST(mode_cli_trials_carry_the_figures_of_their_hatchet)
{
    char *env[] = {path_env, log_env, cli_env, "AORTA_PROTON_PYTHON", "HIP_VISIBLE_DEVICES",
                   "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", NULL};
    tu_result_t r = tu_aorta(env, "--collect", "proton", "--output", "D", "--trials", "2", "--",
                             "python3", "vecadd.py", "--size", "1024", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_assert_summary(r.out, "Sweep summary: all 1 cell(s) passed.\n"
                            "Wall time: T\n"
                            "Full matrix: D/_no_ticket_/matrix.json\n"
                            "Performance report: D/_no_ticket_/perf.md\n"
                            "Wrote run artifacts to D/_no_ticket_\n");
    char *cell = tu_fmt("%s/D/_no_ticket_/none-none", dir);
    for (int t = 0; t < 2; t++) {
        char *record = tu_fmt("%s/trial_%d/result.json", cell, t);
        json_object *result = tu_json(record);
        ck_assert_str_eq(tu_str(result, "verdict", NULL), "pass");
        char *name = tu_fmt("%s/_subprocess/trial_d0_m0_t%d/proton/proton", cell, t);
        tu_expect_strings(tu_at(result, "argv", NULL),
                          (const char *[]){"python3", "-m", MOD, "-n", name, "--context", "shadow",
                                           "--data", "tree", "vecadd.py", "--size", "1024",
                                           NULL});
        json_object_put(result);
        json_object *trial = expect_passing_trial(cell, t, PROTON_KEYS);
        ck_assert_str_eq(tu_str(trial, "result", "metrics", "result_json_path", NULL), record);
        expect_capture(cell, t, cli_env);
        json_object_put(trial);
        free(name);
        free(record);
    }
    /* Proton ran the script, twice. */
    char *log = tu_read("standin.log");
    ck_assert_uint_eq(tu_count(log, "run_path: vecadd.py --size 1024\n"), 2);
    free(log);
    json_object *matrix = tu_json("D/_no_ticket_/matrix.json");
    char *keys = tu_keys(tu_at(matrix, "cells", "0", "metrics_summary", NULL));
    ck_assert_str_eq(keys, "exit_code proton_gpu_time_ms proton_kernel_count "
                           "proton_top_kernel_ms");
    free(keys);
    json_object_put(matrix);
    char *perf = tu_read("D/_no_ticket_/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "| Cell                 | exit_code | proton_gpu_time_ms "
                                       "| proton_kernel_count | proton_top_kernel_ms |\n"));
    ck_assert_ptr_null(strstr(perf, "proton_top_kernels"));
    free(perf);
    free(cell);
    tu_result_free(&r);
}
END_TEST

START_TEST(a_mode_env_payload_reads_the_bundle_and_a_pinned_cell_moves_to_rocr)
{
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\nticket: ENV\ntrials: 1\n"
                            "mitigation_axis: [none, pin]\ndiagnostic_axis: [none]\n"
                            "mitigations:\n  pin: {HIP_VISIBLE_DEVICES: \"1\"}\n"
                            "collect:\n  proton: {mode: env}\n");
    char *payload = tu_join(standins, "env_payload");
    char *env[] = {path_env, log_env, env_env, "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
                   "ROCR_VISIBLE_DEVICES", "AORTA_PROTON_PYTHON", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "recipe.yaml", "--output", "D", "--", payload,
                             "--steps", "2", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "Sweep summary: all 2 cell(s) passed.\n"));
    ck_assert_str_eq(r.err, "aorta-run: warning: proton: HIP_VISIBLE_DEVICES='1' not honoured by "
                            "Proton's auto backend; running with ROCR_VISIBLE_DEVICES='1' "
                            "instead.\n");
    char *log = tu_read("standin.log");
    const char *cells[] = {"none-none", "pin-none"};
    for (size_t c = 0; c < 2; c++) {
        char *cell = tu_fmt("%s/D/ENV/%s", dir, cells[c]);
        char *out = tu_fmt("AORTA_PROTON_DIR=%s/_subprocess/trial_d0_m0_t0/proton", cell);
        char *name = tu_fmt("AORTA_PROTON_NAME=%s/_subprocess/trial_d0_m0_t0/proton/proton",
                            cell);
        char *record = tu_fmt("%s/trial_0/result.json", cell);
        json_object *result = tu_json(record);
        if (c == 0) {
            tu_expect_strings(tu_at(result, "argv", NULL),
                              (const char *[]){env_bin, "AORTA_PROTON_CONTEXT=shadow",
                                               "AORTA_PROTON_DATA=tree", out, name, payload,
                                               "--steps", "2", NULL});
        } else {
            tu_expect_strings(tu_at(result, "argv", NULL),
                              (const char *[]){env_bin, "-u", "HIP_VISIBLE_DEVICES",
                                               "AORTA_PROTON_CONTEXT=shadow",
                                               "AORTA_PROTON_DATA=tree", out, name,
                                               "ROCR_VISIBLE_DEVICES=1", payload, "--steps", "2",
                                               NULL});
            ck_assert_str_eq(tu_str(result, "env", "HIP_VISIBLE_DEVICES", NULL), "1");
        }
        json_object_put(result);
        json_object_put(expect_passing_trial(cell, 0, PROTON_KEYS));
        expect_capture(cell, 0, env_env);
        /* The payload saw the bundle (the stand-in logs it). */
        char *seen = tu_fmt("bundle: %s\n", name);
        ck_assert_msg(strstr(log, seen) != NULL, "%s", log);
        free(seen);
        free(record);
        free(name);
        free(out);
        free(cell);
    }
    ck_assert_uint_eq(tu_count(log, "args: --steps 2\n"), 2);
    free(log);
    free(payload);
    tu_result_free(&r);
}
END_TEST

START_TEST(a_device_pin_from_a_mitigation_reaches_a_cli_trial_as_rocr)
{
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\nticket: PIN\ntrials: 2\n"
                            "mitigation_axis: [pin]\ndiagnostic_axis: [none]\n"
                            "mitigations:\n  pin: {HIP_VISIBLE_DEVICES: \"1\"}\n"
                            "collect: [proton]\n");
    char *env[] = {path_env, log_env, cli_env, "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
                   "ROCR_VISIBLE_DEVICES", "AORTA_PROTON_PYTHON", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "recipe.yaml", "--output", "D", "--", "python3",
                             "vecadd.py", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *warning = "aorta-run: warning: proton: HIP_VISIBLE_DEVICES='1' not honoured by "
                          "Proton's auto backend; running with ROCR_VISIBLE_DEVICES='1' "
                          "instead.\n";
    ck_assert_uint_eq(tu_count(r.err, warning), 2);
    ck_assert_uint_eq(tu_count(r.err, "\n"), 2);
    char *cell = tu_fmt("%s/D/PIN/pin-none", dir);
    for (int t = 0; t < 2; t++) {
        char *record = tu_fmt("%s/trial_%d/result.json", cell, t);
        json_object *result = tu_json(record);
        char *name = tu_fmt("%s/_subprocess/trial_d0_m0_t%d/proton/proton", cell, t);
        tu_expect_strings(tu_at(result, "argv", NULL),
                          (const char *[]){env_bin, "-u", "HIP_VISIBLE_DEVICES",
                                           "ROCR_VISIBLE_DEVICES=1", "python3", "-m", MOD, "-n",
                                           name, "--context", "shadow", "--data", "tree",
                                           "vecadd.py", NULL});
        json_object_put(result);
        json_object_put(expect_passing_trial(cell, t, PROTON_KEYS));
        free(name);
        free(record);
    }
    /* What Proton saw: ROCR set, HIP gone. */
    char *log = tu_read("standin.log");
    ck_assert_uint_eq(tu_count(log, "env: ROCR_VISIBLE_DEVICES=1\n"), 2);
    ck_assert_ptr_null(strstr(log, "env: HIP_VISIBLE_DEVICES"));
    free(log);
    free(cell);
    tu_result_free(&r);
}
END_TEST

/* argv cannot be wrapped under mode cli: the sweep records a setup failure
 * carrying the refusal (which holds each of needles), and --dry-run prints
 * the same refusal as the cell's error; both exit 1. */
static void expect_refused(char *const *command, const char *const *needles)
{
    char *run[16] = {"--collect", "proton", "--output", "D", "--"};
    char *dry[16] = {"--collect", "proton", "--output", "DRY", "--dry-run", "--"};
    for (size_t i = 0; command[i]; i++) {
        ck_assert_uint_lt(i, 9);
        run[5 + i] = dry[6 + i] = command[i];
    }
    char *env[] = {path_env, "AORTA_PROTON_PYTHON", NULL};
    tu_result_t r = tu_aorta_v(env, run);
    /* The only trial failed its setup: nothing ran, exit 1. */
    ck_assert_msg(r.status == 1, "%s", r.err);
    json_object *trial = tu_json("D/_no_ticket_/none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(tu_str(trial, "exit_status", NULL), "workload_setup_failed");
    ck_assert_str_eq(tu_str(trial, "result", "failure_details", "0", "phase", NULL), "setup");
    const char *refusal = tu_str(trial, "result", "failure_details", "0", "error", NULL);
    for (size_t i = 0; needles[i]; i++)
        ck_assert_msg(strstr(refusal, needles[i]) != NULL, "'%s' not in: %s", needles[i], refusal);
    char *line = tu_fmt("aorta-run: warning: D/_no_ticket_/none-none/trial_0: setup failed: %s\n",
                        refusal);
    ck_assert_str_eq(r.err, line);
    free(line);
    ck_assert(!tu_exists("D/_no_ticket_/none-none/trial_0/result.json"));
    json_object *matrix = tu_json("D/_no_ticket_/matrix.json");
    ck_assert_int_eq(json_object_get_int(tu_at(matrix, "cells", "0", "error_count", NULL)), 1);
    json_object_put(matrix);
    tu_result_free(&r);

    r = tu_aorta_v(env, dry);
    ck_assert_int_eq(r.status, 1);
    json_object *cell = json_tokener_parse(r.out);
    ck_assert_msg(cell != NULL && tu_count(r.out, "\n") == 1, "%s", r.out);
    char *keys = tu_keys(cell);
    ck_assert_str_eq(keys, "cell error resumed");
    free(keys);
    ck_assert_str_eq(tu_str(cell, "cell", NULL), "none-none");
    ck_assert_str_eq(tu_str(cell, "error", NULL), refusal);
    ck_assert(!tu_exists("DRY"));
    json_object_put(cell);
    json_object_put(trial);
    tu_result_free(&r);
    tu_rmtree("D");
}

START_TEST(an_unwrappable_command_is_a_setup_failure_and_a_dry_run_error)
{
    expect_refused((char *[]){"python3", "-c", "print(1)", NULL},
                   (const char *[]){"proton mode 'cli' cannot wrap interpreter option '-c' "
                                    "(supported: ['-B', '-E', '-I', '-O', '-OO', '-S', '-b', "
                                    "'-q', '-s', '-u'], plus '-m' with ['pytest']).",
                                    "'proton: {mode: env}'", NULL});
    expect_refused((char *[]){"torchrun", "--nproc_per_node=2", "train.py", NULL},
                   (const char *[]){"proton mode 'cli' needs a Python script launch, got "
                                    "'torchrun'.",
                                    "mode: env", NULL});
}
END_TEST

START_TEST(a_python_without_triton_is_a_setup_failure_with_the_reason)
{
    /* The stand-in python3 answers the version probe as a Python without
     * Triton does (ModuleNotFoundError, exit 1): the probe beside the first
     * trial tells, and every trial is a setup failure naming it. */
    tu_write("s.py", "print(1)\n");
    char *env[] = {path_env, "AORTA_STANDIN_NO_TRITON=1", "AORTA_PROTON_PYTHON", NULL};
    tu_result_t r = tu_aorta(env, "--collect", "proton", "--trials", "2", "--output", "N", "--",
                             "python3", "s.py", NULL);
    ck_assert_msg(r.status == 1, "%d %s %s", r.status, r.out, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "setup failed: proton: python3 cannot import triton "
                                        "(exit 1), so Proton cannot profile it; install Triton "
                                        "into that interpreter"));
    for (int t = 0; t < 2; t++) {
        char *rel = tu_fmt("N/_no_ticket_/none-none/_subprocess/trial_d0_m0_t%d.json", t);
        json_object *trial = tu_json(rel);
        ck_assert_str_eq(tu_str(trial, "exit_status", NULL), "workload_setup_failed");
        json_object_put(trial);
        free(rel);
    }
    tu_result_free(&r);
    /* With Triton there (the stand-in's default), the same run profiles. */
    char *with[] = {path_env, "AORTA_STANDIN_NO_TRITON", "AORTA_PROTON_PYTHON", NULL};
    r = tu_aorta(with, "--collect", "proton", "--output", "Y", "--", "python3", "s.py", NULL);
    ck_assert_msg(r.status == 0, "%d %s %s", r.status, r.out, r.err);
    json_object *env_json = tu_json("Y/_no_ticket_/host_env.json");
    ck_assert_str_eq(tu_str(env_json, "triton", "package_version", NULL), "3.6.0");
    json_object_put(env_json);
    tu_result_free(&r);
}
END_TEST

START_TEST(with_rocprof_only_the_instrumentation_backend_runs_inside_it)
{
    const char *refusal = "'rocprof' and 'proton' cannot run together with proton backend 'auto' "
                          "(which resolves to rocprofiler or roctracer on AMD) -- both install an "
                          "HSA queue interceptor and the second one to attach will fail or report "
                          "nothing. Use 'proton: {backend: instrumentation}' (intra-kernel "
                          "measurement, no queue interception) to combine them, or run rocprof "
                          "and proton as two separate runs (--collect rocprof, then --collect proton).";
    char *python = tu_join(triton, "python3");
    char *env_plain[] = {"AORTA_PROTON_PYTHON", NULL};
    tu_result_t r = tu_aorta(env_plain, "--collect", "rocprof,proton", "--output", "D", "--",
                             python, "train.py", NULL);
    ck_assert_int_eq(r.status, 2);
    char *line = tu_fmt("aorta-run: --collect: %s\n", refusal);
    ck_assert_str_eq(r.err, line);
    free(line);
    ck_assert_str_eq(r.out, "");
    ck_assert(!tu_exists("D"));
    tu_result_free(&r);
    tu_write("auto.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                          "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                          "collect: [rocprof, proton]\n");
    r = tu_aorta(env_plain, "--recipe", "auto.yaml", "--output", "D", "--", python, "train.py",
                 NULL);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, refusal) != NULL && tu_count(r.err, "\n") == 1, "%s", r.err);
    ck_assert(!tu_exists("D"));
    tu_result_free(&r);

    /* backend: instrumentation installs no queue interceptor: proton runs
     * inside the stand-in rocprofv3, which dispatches one kernel. */
    char *source = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    char *text = tu_read(source);
    char *rocprof = tu_join(dir, "bin/rocprofv3");
    tu_write_mode(rocprof, text, 0755);
    free(text);
    free(source);
    char *bin_env = tu_fmt("ROCPROF_BIN=%s", rocprof);
    tu_write("both.yaml", "schema_version: 1\nmode: probe\nticket: BOTH\ntrials: 1\n"
                          "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                          "collect:\n  rocprof:\n  proton: {backend: instrumentation}\n");
    const long calls = 6, ns = 2437;
    char *kernels = tu_fmt("AORTA_FAKE_KERNELS=%ld:%ld:add_kernel\n", calls, ns);
    char *env[] = {bin_env, kernels, log_env, "AORTA_PROTON_PYTHON", NULL};
    r = tu_aorta(env, "--recipe", "both.yaml", "--output", "D", "--", python, "train.py",
                 "--steps", "10", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "Sweep summary: all 1 cell(s) passed.\n"));
    char *cell = tu_fmt("%s/D/BOTH/none-none", dir);
    char *collect = tu_fmt("%s/_subprocess/trial_d0_m0_t0", cell);
    char *rocprof_dir = tu_fmt("%s/rocprof", collect);
    char *name = tu_fmt("%s/proton/proton", collect);
    char *record = tu_fmt("%s/trial_0/result.json", cell);
    json_object *result = tu_json(record);
    tu_expect_strings(tu_at(result, "argv", NULL),
                      (const char *[]){rocprof, "-d", rocprof_dir, "-o", "aorta",
                                       "--output-format", "csv", "--kernel-trace", "--stats",
                                       "-S", "--summary-output-file", "rocprof_summary", "--",
                                       python, "-m", MOD, "-n", name, "-b", "instrumentation",
                                       "--context", "shadow", "--data", "tree", "train.py",
                                       "--steps", "10", NULL});
    json_object_put(result);
    json_object *trial = expect_passing_trial(
        cell, 0,
        "error_detectors_fired exit_code failure_detectors_fired proton_artifact_dir "
        "proton_gpu_time_ms proton_kernel_count proton_top_kernel_ms proton_top_kernels "
        "result_json_path rocprof_artifact_dir rocprof_gpu_time_ms rocprof_kernel_count "
        "rocprof_top_kernel_ms rocprof_top_kernels verdict warn_detectors_fired");
    json_object *metrics = tu_at(trial, "result", "metrics", NULL);
    ck_assert_str_eq(tu_str(metrics, "rocprof_artifact_dir", NULL), rocprof_dir);
    ck_assert_int_eq(json_object_get_int64(tu_at(metrics, "rocprof_kernel_count", NULL)), calls);
    assert_close(json_object_get_double(tu_at(metrics, "rocprof_gpu_time_ms", NULL)),
                 (double)(calls * ns) / 1e6);
    tu_expect_strings(tu_at(metrics, "rocprof_top_kernels", NULL),
                      (const char *[]){"add_kernel", NULL});
    json_object_put(trial);
    char *log = tu_read("standin.log");
    ck_assert_ptr_nonnull(strstr(log, "proton: name="));
    ck_assert_ptr_nonnull(strstr(log, " backend=instrumentation "));
    free(log);
    free(record);
    free(name);
    free(rocprof_dir);
    free(collect);
    free(cell);
    free(kernels);
    free(bin_env);
    free(rocprof);
    free(python);
    tu_result_free(&r);
}
END_TEST

static Suite *proton_sweep_suite(void)
{
    Suite *suite = suite_create("proton_sweep");
    TCase *tc = tcase_create("sweep");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, mode_cli_trials_carry_the_figures_of_their_hatchet);
    tcase_add_test(tc, a_mode_env_payload_reads_the_bundle_and_a_pinned_cell_moves_to_rocr);
    tcase_add_test(tc, a_device_pin_from_a_mitigation_reaches_a_cli_trial_as_rocr);
    tcase_add_test(tc, an_unwrappable_command_is_a_setup_failure_and_a_dry_run_error);
    tcase_add_test(tc, a_python_without_triton_is_a_setup_failure_with_the_reason);
    tcase_add_test(tc, with_rocprof_only_the_instrumentation_backend_runs_inside_it);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(proton_sweep_suite)
