/* SPDX-License-Identifier: MIT */
/* The Proton collector's wrap and env callbacks: mode cli's accepted argv
 * shapes and refusals, the exact Proton prefix, the interpreter it picks
 * (docs/collectors/proton.md), the HIP/CUDA -> ROCR translation, mode env and
 * its AORTA_PROTON_* bundle (docs/design.md, Deviation 4).  Environments are built
 * as handles, so nothing here depends on the test's own environment. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protontest.h"

/* The spec's T: what follows "-m triton.profiler.proton" by default. */
#define T "-n", "/tmp/o/proton", "--context", "shadow", "--data", "tree"

static pt_bins_t bins;
static char *syspy_dir; /* holds only an executable python3 */
static char *syspy;     /* <syspy_dir>/python3: the fallback interpreter */

static void setup(void)
{
    pt_load();
    pt_bins_make(&bins);
    syspy_dir = tu_join(bins.root, "syspy");
    syspy = tu_join(syspy_dir, "python3");
    tu_write_mode(syspy, "#!/bin/sh\nexit 0\n", 0755);
}

static void teardown(void)
{
    pt_bins_free(&bins);
    free(syspy_dir);
    free(syspy);
    pt_unload();
}

/* Wrap (consuming the handles); the result must be a success. */
static aorta_argv_t *wrapped(aorta_options_t *options, aorta_argv_t *command, aorta_env_t *environ)
{
    aorta_argv_t *out;
    char *error;
    int status = pt_wrap(options, PT_OUT, command, environ, &out, &error, NULL);
    ck_assert_msg(status == 0, "wrap refused: %s", error);
    aorta_options_free(options);
    aorta_argv_free(command);
    aorta_env_free(environ);
    return out;
}

/* Wrap (consuming the handles); the result must be a refusal: its message. */
static char *refused(aorta_options_t *options, aorta_argv_t *command, aorta_env_t *environ)
{
    aorta_argv_t *out;
    char *error;
    int status = pt_wrap(options, PT_OUT, command, environ, &out, &error, NULL);
    char *text = pt_argv_text(out);
    ck_assert_msg(status == -1, "wrap accepted: %s", text);
    free(text);
    ck_assert_ptr_null(strchr(error, '\n')); /* one line */
    aorta_argv_free(out);
    aorta_options_free(options);
    aorta_argv_free(command);
    aorta_env_free(environ);
    return error;
}

static void expect_refused(aorta_options_t *options, aorta_argv_t *command, aorta_env_t *environ,
                           const char *part)
{
    char *error = refused(options, command, environ);
    pt_contains(error, part);
    free(error);
}

/* An environment whose PATH has env(1) and nothing else. */
static aorta_env_t *with_env(void)
{
    return pt_env("PATH", bins.with_env, NULL);
}

/* ---- 7.E: mode cli shapes ------------------------------------------------ */

START_TEST(a_script_launch_gets_the_proton_prefix_and_no_separator)
{
    /* Case 70. */
    aorta_argv_t *out = wrapped(pt_options(NULL), pt_argv("python", "vecadd.py", "--size", "1024",
                                                          NULL),
                                with_env());
    pt_expect_argv(out, "python", "-m", PT_MOD, T, "vecadd.py", "--size", "1024", NULL);
    ck_assert_int_eq(pt_index(out, "--"), -1);
    aorta_argv_free(out);
}
END_TEST

START_TEST(safe_interpreter_flags_stay_before_dash_m)
{
    /* Cases 71-72. */
    aorta_argv_t *out = wrapped(pt_options(NULL), pt_argv("python", "-u", "vecadd.py", NULL),
                                with_env());
    pt_expect_argv(out, "python", "-u", "-m", PT_MOD, T, "vecadd.py", NULL);
    aorta_argv_free(out);
    out = wrapped(pt_options(NULL),
                  pt_argv("python3", "-u", "-B", "-OO", "-E", "-s", "-S", "-O", "-I", "-b", "-q",
                          "train.py", "-x", NULL),
                  with_env());
    pt_expect_argv(out, "python3", "-u", "-B", "-OO", "-E", "-s", "-S", "-O", "-I", "-b", "-q",
                   "-m", PT_MOD, T, "train.py", "-x", NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(python_dash_m_pytest_is_normalised_onto_bare_pytest)
{
    /* Cases 74, 76, 77. */
    aorta_argv_t *out = wrapped(pt_options(NULL), pt_argv("python", "-m", "pytest", "-k", "gemm",
                                                          NULL),
                                with_env());
    pt_expect_argv(out, "python", "-m", PT_MOD, T, "pytest", "-k", "gemm", NULL);
    aorta_argv_free(out);
    out = wrapped(pt_options(NULL), pt_argv("python", "-mpytest", "-k", "gemm", NULL), with_env());
    pt_expect_argv(out, "python", "-m", PT_MOD, T, "pytest", "-k", "gemm", NULL);
    aorta_argv_free(out);
    out = wrapped(pt_options(NULL), pt_argv("python", "-u", "-m", "pytest", "-x", NULL),
                  with_env());
    pt_expect_argv(out, "python", "-u", "-m", PT_MOD, T, "pytest", "-x", NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(bare_pytest_keeps_its_argv_as_the_target)
{
    /* Cases 73 and 75: no pytest on PATH, so python3 on PATH runs Proton. */
    aorta_argv_t *bare = wrapped(pt_options(NULL), pt_argv("pytest", "tests/", "-q", NULL),
                                 pt_env("PATH", syspy_dir, NULL));
    pt_expect_argv(bare, syspy, "-m", PT_MOD, T, "pytest", "tests/", "-q", NULL);
    aorta_argv_t *module = wrapped(pt_options(NULL),
                                   pt_argv("python", "-m", "pytest", "tests/", "-q", NULL),
                                   pt_env("PATH", syspy_dir, NULL));
    ck_assert_uint_eq(aorta_argv_count(bare), aorta_argv_count(module));
    for (size_t i = 1; i < aorta_argv_count(bare); i++)
        ck_assert_str_eq(aorta_argv_at(bare, i), aorta_argv_at(module, i));
    aorta_argv_free(bare);
    aorta_argv_free(module);
}
END_TEST

START_TEST(a_pytest_path_keeps_its_path_and_runs_under_its_shebang)
{
    /* Case 78. */
    char *pytest = tu_join(bins.root, "venv/bin/pytest");
    tu_write_mode(pytest, "#!/opt/venv/bin/python3.12\nimport sys\n", 0755);
    aorta_argv_t *out = wrapped(pt_options(NULL), pt_argv(pytest, "-q", NULL), with_env());
    pt_expect_argv(out, "/opt/venv/bin/python3.12", "-m", PT_MOD, T, pytest, "-q", NULL);
    aorta_argv_free(out);
    free(pytest);
}
END_TEST

START_TEST(nothing_after_the_script_is_inspected)
{
    /* Case 79. */
    aorta_argv_t *out = wrapped(pt_options(NULL),
                                pt_argv("python", "script.py", "-c", "x", "-m", "y", NULL),
                                with_env());
    pt_expect_argv(out, "python", "-m", PT_MOD, T, "script.py", "-c", "x", "-m", "y", NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(every_option_renders_in_the_fixed_order)
{
    /* Case 81: -n, -b, --context, --data, --mode, -k. */
    aorta_argv_t *out = wrapped(pt_options("backend", "instrumentation", "instrumentation_mode",
                                           "mma", "hook", "triton", NULL),
                                pt_argv("python", "k.py", NULL), with_env());
    pt_expect_argv(out, "python", "-m", PT_MOD, "-n", "/tmp/o/proton", "-b", "instrumentation",
                   "--context", "shadow", "--data", "tree", "--mode", "mma", "-k", "triton",
                   "k.py", NULL);
    aorta_argv_free(out);
    /* Case 67. */
    out = wrapped(pt_options("backend", "cupti", "backend_mode", "pcsampling", "hook", "triton",
                             "context", "python", "data", "trace", NULL),
                  pt_argv("python", "k.py", NULL), with_env());
    pt_expect_argv(out, "python", "-m", PT_MOD, "-n", "/tmp/o/proton", "-b", "cupti", "--context",
                   "python", "--data", "trace", "--mode", "pcsampling", "-k", "triton", "k.py",
                   NULL);
    aorta_argv_free(out);
    /* Cases 63, 64-66: --mode and -k only when set. */
    out = wrapped(pt_options("backend", "instrumentation", "granularity", "warp", NULL),
                  pt_argv("python", "k.py", NULL), with_env());
    pt_expect_argv(out, "python", "-m", PT_MOD, "-n", "/tmp/o/proton", "-b", "instrumentation",
                   "--context", "shadow", "--data", "tree", "--mode", "default:granularity=warp",
                   "k.py", NULL);
    aorta_argv_free(out);
    out = wrapped(pt_options("backend", "cupti", NULL), pt_argv("python", "k.py", NULL),
                  with_env());
    ck_assert_int_eq(pt_index(out, "--mode"), -1);
    ck_assert_int_eq(pt_index(out, "-k"), -1);
    aorta_argv_free(out);
    out = wrapped(pt_options("hook", "triton", NULL), pt_argv("python", "k.py", NULL), with_env());
    pt_expect_argv(out, "python", "-m", PT_MOD, T, "-k", "triton", "k.py", NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(backends_render_as_dash_b_except_auto)
{
    /* Cases 60, 61, 96, 97. */
    const char *backends[] = {"rocprofiler", "instrumentation", "cupti"};
    for (size_t i = 0; i < 3; i++) {
        aorta_argv_t *out = wrapped(pt_options("backend", backends[i], NULL),
                                    pt_argv("python", "vecadd.py", NULL), with_env());
        pt_expect_argv(out, "python", "-m", PT_MOD, "-n", "/tmp/o/proton", "-b", backends[i],
                       "--context", "shadow", "--data", "tree", "vecadd.py", NULL);
        aorta_argv_free(out);
    }
    aorta_argv_t *out = wrapped(pt_options("backend", "auto", NULL),
                                pt_argv("python", "vecadd.py", NULL), with_env());
    ck_assert_int_eq(pt_index(out, "-b"), -1);
    ck_assert_int_eq(pt_index(out, "auto"), -1);
    aorta_argv_free(out);
}
END_TEST

START_TEST(the_profile_name_is_the_normalised_out_dir_plus_proton)
{
    /* Case 69. */
    const char *dirs[][2] = {{"relative/out", "relative/out/proton"},
                             {"/tmp/o/", "/tmp/o/proton"},
                             {"/tmp//o/./x/", "/tmp/o/x/proton"},
                             {"a/../b", "a/../b/proton"}};
    for (size_t i = 0; i < 4; i++) {
        aorta_options_t *options = pt_options(NULL);
        aorta_argv_t *command = pt_argv("python", "x.py", NULL);
        aorta_env_t *environ = with_env();
        aorta_argv_t *out;
        ck_assert_int_eq(pt_wrap(options, dirs[i][0], command, environ, &out, NULL, NULL), 0);
        ck_assert_str_eq(aorta_argv_at(out, (size_t)pt_index(out, "-n") + 1), dirs[i][1]);
        aorta_argv_free(out);
        aorta_options_free(options);
        aorta_argv_free(command);
        aorta_env_free(environ);
    }
}
END_TEST

START_TEST(other_launches_are_refused_naming_mode_env)
{
    /* Cases 82-86, 89-91. */
    expect_refused(pt_options(NULL), pt_argv("python", "-m", "torch.distributed.run", "train.py",
                                             NULL),
                   with_env(), "cannot wrap 'python -m torch.distributed.run'");
    char *error = refused(pt_options(NULL), pt_argv("python3", "-m", "http.server", NULL),
                          with_env());
    pt_contains(error, "cannot wrap 'python -m http.server'");
    pt_contains(error, "runpy.run_path");
    pt_contains(error, "['pytest']");
    pt_contains(error, "mode: env");
    free(error);
    error = refused(pt_options(NULL), pt_argv("python", "-m", NULL), with_env());
    pt_contains(error, "no module name in ['python', '-m']. ");
    pt_contains(error, "mode: env");
    free(error);
    error = refused(pt_options(NULL), pt_argv("python", "-c", "print(1)", NULL), with_env());
    pt_contains(error, "interpreter option '-c'");
    pt_contains(error, "(supported: ['-B', '-E', '-I', '-O', '-OO', '-S', '-b', '-q', '-s', "
                       "'-u'], plus '-m' with ['pytest'])");
    pt_contains(error, "mode: env");
    free(error);
    error = refused(pt_options(NULL), pt_argv("/tmp/aorta_hip_gemm", "512", NULL), with_env());
    pt_contains(error, "needs a Python script launch, got '/tmp/aorta_hip_gemm'");
    pt_contains(error, "mode: env");
    free(error);
    expect_refused(pt_options(NULL), pt_argv("torchrun", "--nproc_per_node=8", "train.py", NULL),
                   with_env(), "got 'torchrun'");
    const char *not_python[] = {"python3.12.1", "python3-dbg", "pythonw", "Python3", "pypy3",
                                "py.test", "python3.", "python.3"};
    for (size_t i = 0; i < 8; i++)
        expect_refused(pt_options(NULL), pt_argv(not_python[i], "x.py", NULL), with_env(),
                       "needs a Python script launch");
    expect_refused(pt_options(NULL), pt_argv("python", "-X", "dev", "x.py", NULL), with_env(),
                   "interpreter option '-X'");
    expect_refused(pt_options(NULL), pt_argv("python", "-uB", "x.py", NULL), with_env(),
                   "interpreter option '-uB'");
    expect_refused(pt_options(NULL), pt_argv("python", "-", "x", NULL), with_env(),
                   "interpreter option '-'");
    expect_refused(pt_options(NULL), pt_argv("python", "--", "x.py", NULL), with_env(),
                   "interpreter option '--'");
    /* The argv is quoted as Python's repr() quotes it. */
    expect_refused(pt_options(NULL), pt_argv("it's", NULL), with_env(), "got \"it's\"");
}
END_TEST

START_TEST(interpreter_names_match_the_upstream_pattern)
{
    /* ^python(\d+(\.\d+)?)?$ on the last path component. */
    const char *python[] = {"python", "python3", "python3.12", "python310", "/usr/bin/python3",
                            "python3/", "./python"};
    for (size_t i = 0; i < 7; i++) {
        aorta_argv_t *out = wrapped(pt_options(NULL), pt_argv(python[i], "x.py", NULL),
                                    with_env());
        ck_assert_str_eq(aorta_argv_at(out, 0), python[i]);
        aorta_argv_free(out);
    }
}
END_TEST

START_TEST(a_launch_without_a_script_and_an_empty_one_are_refused)
{
    /* Cases 87-88. */
    /* Like every other refusal, they name the way out: mode env. */
    const char *bare[][3] = {{"python", "-u", "['python', '-u']"}, {"python3", NULL, "['python3']"}};
    for (size_t i = 0; i < 2; i++) {
        char *error = refused(pt_options(NULL), pt_argv(bare[i][0], bare[i][1], NULL), with_env());
        char want[128];
        snprintf(want, sizeof want, "needs a script path after the interpreter; got %s. ",
                 bare[i][2]);
        pt_contains(error, want);
        pt_contains(error, "mode: env");
        free(error);
    }
    expect_refused(pt_options(NULL), pt_argv(NULL), with_env(), "empty argv");
    expect_refused(pt_options("mode", "env", NULL), pt_argv(NULL), with_env(), "empty argv");
}
END_TEST

START_TEST(the_command_is_left_unchanged)
{
    /* Case 92. */
    aorta_options_t *options = pt_options(NULL);
    aorta_argv_t *command = pt_argv("python", "vecadd.py", NULL);
    aorta_env_t *environ = pt_env("PATH", bins.with_env, "HIP_VISIBLE_DEVICES", "1", NULL);
    aorta_argv_t *out;
    ck_assert_int_eq(pt_wrap(options, PT_OUT, command, environ, &out, NULL, NULL), 0);
    pt_expect_argv(command, "python", "vecadd.py", NULL);
    ck_assert_str_eq(aorta_env_get(environ, "HIP_VISIBLE_DEVICES"), "1");
    ck_assert_uint_eq(aorta_env_count(environ), 2);
    aorta_argv_free(out);
    aorta_options_free(options);
    aorta_argv_free(command);
    aorta_env_free(environ);
}
END_TEST

START_TEST(a_pinned_roctracer_is_refused_before_the_shape)
{
    /* Cases 93-95. */
    char *error = refused(pt_options("backend", "roctracer", NULL),
                          pt_argv("python", "vecadd.py", NULL), with_env());
    ck_assert_msg(strncmp(error, "proton mode 'cli' cannot pin backend 'roctracer'.", 49) == 0,
                  "%s", error);
    pt_contains(error, "_select_backend()");
    pt_contains(error, "empty ROOT frame");
    pt_contains(error, "mode: env");
    pt_contains(error, "backend: auto");
    pt_contains(error, "examples/profiling/proton/amd-roctracer");
    free(error);
    expect_refused(pt_options("backend", "roctracer", NULL),
                   pt_argv("/tmp/aorta_hip_gemm", "512", NULL), with_env(), "cannot pin backend");
    expect_refused(pt_options("backend", "  RocTracer", NULL), pt_argv("python", "x.py", NULL),
                   with_env(), "cannot pin backend");
}
END_TEST

START_TEST(the_examples_the_messages_point_at_exist)
{
    char *example = tu_srcdir("examples/profiling/proton/amd-roctracer/recipe.yaml");
    ck_assert_msg(tu_exists(example), "%s is missing", example);
    free(example);
}
END_TEST

/* ---- 7.C: which interpreter runs Proton ---------------------------------- */

/* argv[0] of the wrap of command under environ, or the refusal. */
static char *interpreter(aorta_argv_t *command, aorta_env_t *environ)
{
    aorta_argv_t *out = wrapped(pt_options(NULL), command, environ);
    char *first = strdup(aorta_argv_at(out, 0));
    aorta_argv_free(out);
    return first;
}

static void expect_interpreter(aorta_argv_t *command, aorta_env_t *environ, const char *want)
{
    char *got = interpreter(command, environ);
    ck_assert_str_eq(got, want);
    free(got);
}

/* A pytest console script in bins.root/<dir> with this first line. */
static char *write_pytest(const char *dir, const char *first_line)
{
    char *path = tu_join(bins.root, dir);
    char *script = tu_join(path, "pytest");
    char *text = malloc(strlen(first_line) + 32);
    strcpy(text, first_line);
    strcat(text, "\nimport sys\n");
    tu_write_mode(script, text, 0755);
    free(text);
    free(script);
    return path;
}

START_TEST(argv0_is_used_when_it_is_a_python)
{
    /* Cases 46-47. */
    expect_interpreter(pt_argv("python3.11", "script.py", NULL), with_env(), "python3.11");
    expect_interpreter(pt_argv("/opt/venv/bin/python", "script.py", NULL), with_env(),
                       "/opt/venv/bin/python");
}
END_TEST

START_TEST(aorta_proton_python_overrides_with_expansion)
{
    /* Cases 50, 56, 57, 80. */
    expect_interpreter(pt_argv("python", "script.py", NULL),
                       pt_env("AORTA_PROTON_PYTHON", "/rocm/bin/python", NULL), "/rocm/bin/python");
    expect_interpreter(pt_argv("python3", "x.py", NULL), pt_env("AORTA_PROTON_PYTHON", "", NULL),
                       "python3");
    expect_interpreter(pt_argv("python", "x.py", NULL),
                       pt_env("AORTA_PROTON_PYTHON", "~/venv/bin/python", "HOME", "/home/u/",
                              NULL),
                       "/home/u/venv/bin/python");
    expect_interpreter(pt_argv("python", "x.py", NULL),
                       pt_env("AORTA_PROTON_PYTHON", "~", "HOME", "/", NULL), "/");
    expect_interpreter(pt_argv("python", "x.py", NULL),
                       pt_env("AORTA_PROTON_PYTHON", "$ROCM/bin/${PY}3:$NOPE:${}:$", "ROCM",
                              "/opt/rocm", "PY", "python", NULL),
                       "/opt/rocm/bin/python3:$NOPE:${}:$");
    /* An unknown ${...} stays whole: nothing inside it is expanded. */
    expect_interpreter(pt_argv("python", "x.py", NULL),
                       pt_env("AORTA_PROTON_PYTHON", "/opt/${PY$ROCM}/python", "ROCM",
                              "/opt/rocm", NULL),
                       "/opt/${PY$ROCM}/python");
    expect_interpreter(pt_argv("python", "x.py", NULL),
                       pt_env("AORTA_PROTON_PYTHON", "~no_such_user_here/python", NULL),
                       "~no_such_user_here/python");
    aorta_argv_t *out = wrapped(pt_options(NULL), pt_argv("python", "-u", "x.py", NULL),
                                pt_env("AORTA_PROTON_PYTHON", "/rocm/bin/python", NULL));
    pt_expect_argv(out, "/rocm/bin/python", "-u", "-m", PT_MOD, T, "x.py", NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(a_bare_pytest_runs_under_the_python_of_its_shebang)
{
    /* Cases 51-52, 55. */
    char *dir = write_pytest("venv", "#!/opt/venv/bin/python3.12");
    expect_interpreter(pt_argv("pytest", "-q", NULL), pt_env("PATH", dir, NULL),
                       "/opt/venv/bin/python3.12");
    expect_interpreter(pt_argv("pytest", NULL),
                       pt_env("PATH", dir, "AORTA_PROTON_PYTHON", "/rocm/bin/python", NULL),
                       "/rocm/bin/python");
    free(dir);
    dir = write_pytest("envpy", "#!/usr/bin/env  python3");
    char *script = tu_join(dir, "pytest");
    expect_interpreter(pt_argv(script, "-q", NULL), pt_env("PATH", bins.empty, NULL), "python3");
    free(script);
    free(dir);
}
END_TEST

START_TEST(an_unusable_shebang_falls_back_to_python3_on_path_with_a_warning)
{
    /* Cases 53, 54, 58, and a shebang that is not UTF-8 or not a #! line. */
    const char *lines[] = {"#!/bin/sh", "#!/usr/bin/env -S python3", "#!/opt/\xff/python3",
                           "import sys", "#!", "#!/usr/bin/env"};
    for (size_t i = 0; i < 6; i++) {
        char *dir = write_pytest("bad", lines[i]);
        char *path = malloc(strlen(dir) + strlen(syspy_dir) + 2);
        sprintf(path, "%s:%s", dir, syspy_dir);
        aorta_options_t *options = pt_options(NULL);
        aorta_argv_t *command = pt_argv("pytest", NULL);
        aorta_env_t *environ = pt_env("PATH", path, NULL);
        aorta_argv_t *out;
        char *warnings;
        ck_assert_int_eq(pt_wrap(options, PT_OUT, command, environ, &out, NULL, &warnings), 0);
        ck_assert_str_eq(aorta_argv_at(out, 0), syspy);
        pt_contains(warnings, "aorta-run: warning: proton: could not read an interpreter from "
                              "'pytest'; running Proton under ");
        pt_contains(warnings, "Set $AORTA_PROTON_PYTHON if that is the wrong environment.");
        free(warnings);
        aorta_argv_free(out);
        aorta_options_free(options);
        aorta_argv_free(command);
        aorta_env_free(environ);
        free(path);
        free(dir);
    }
    /* Case 54: no pytest on PATH at all. */
    expect_interpreter(pt_argv("pytest", NULL), pt_env("PATH", syspy_dir, NULL), syspy);
}
END_TEST

START_TEST(no_python3_on_path_is_a_refusal_naming_the_override)
{
    /* docs/design.md, Deviation 1. */
    char *error = refused(pt_options(NULL), pt_argv("pytest", "-q", NULL),
                          pt_env("PATH", bins.empty, NULL));
    pt_contains(error, "found no python3 on $PATH");
    pt_contains(error, "AORTA_PROTON_PYTHON");
    free(error);
}
END_TEST

/* ---- 7.F: device translation --------------------------------------------- */

START_TEST(auto_moves_a_hip_pin_to_rocr_with_a_warning)
{
    /* Case 99. */
    aorta_options_t *options = pt_options("backend", "auto", NULL);
    aorta_argv_t *command = pt_argv("python", "vecadd.py", NULL);
    aorta_env_t *environ = pt_env("PATH", bins.with_env, "HIP_VISIBLE_DEVICES", "1", NULL);
    aorta_argv_t *out;
    char *warnings;
    ck_assert_int_eq(pt_wrap(options, PT_OUT, command, environ, &out, NULL, &warnings), 0);
    pt_expect_argv(out, bins.env, "-u", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES=1", "python",
                   "-m", PT_MOD, T, "vecadd.py", NULL);
    ck_assert_str_eq(warnings,
                     "aorta-run: warning: proton: HIP_VISIBLE_DEVICES='1' not honoured by "
                     "Proton's auto backend; running with ROCR_VISIBLE_DEVICES='1' instead.\n");
    free(warnings);
    aorta_argv_free(out);
    aorta_options_free(options);
    aorta_argv_free(command);
    aorta_env_free(environ);
}
END_TEST

START_TEST(a_lone_cuda_pin_under_auto_is_left_alone)
{
    /* Case 102: no env(1) needed either. */
    aorta_argv_t *out = wrapped(pt_options("backend", "auto", NULL),
                                pt_argv("python", "vecadd.py", NULL),
                                pt_env("PATH", bins.empty, "CUDA_VISIBLE_DEVICES", "2", NULL));
    pt_expect_argv(out, "python", "-m", PT_MOD, T, "vecadd.py", NULL);
    aorta_argv_free(out);
    /* Case 118: ROCR alone needs nothing either. */
    out = wrapped(pt_options(NULL), pt_argv("python", "vecadd.py", NULL),
                  pt_env("PATH", bins.empty, "ROCR_VISIBLE_DEVICES", "0", NULL));
    pt_expect_argv(out, "python", "-m", PT_MOD, T, "vecadd.py", NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(an_amd_signal_makes_the_cuda_pin_move_too)
{
    /* Case 103: ROCR present establishes AMD and keeps its own value. */
    aorta_argv_t *out = wrapped(pt_options(NULL), pt_argv("python", "vecadd.py", NULL),
                                pt_env("PATH", bins.with_env, "ROCR_VISIBLE_DEVICES", "0",
                                       "CUDA_VISIBLE_DEVICES", "2", NULL));
    pt_expect_argv(out, bins.env, "-u", "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES=0", "python",
                   "-m", PT_MOD, T, "vecadd.py", NULL);
    aorta_argv_free(out);
    /* Case 104: HIP first, and HIP's value wins. */
    out = wrapped(pt_options(NULL), pt_argv("python", "vecadd.py", NULL),
                  pt_env("PATH", bins.with_env, "CUDA_VISIBLE_DEVICES", "2",
                         "HIP_VISIBLE_DEVICES", "1", NULL));
    pt_expect_argv(out, bins.env, "-u", "HIP_VISIBLE_DEVICES", "-u", "CUDA_VISIBLE_DEVICES",
                   "ROCR_VISIBLE_DEVICES=1", "python", "-m", PT_MOD, T, "vecadd.py", NULL);
    aorta_argv_free(out);
    /* Case 119: an AMD backend establishes AMD by itself. */
    out = wrapped(pt_options("backend", "rocprofiler", NULL), pt_argv("python", "vecadd.py", NULL),
                  pt_env("PATH", bins.with_env, "CUDA_VISIBLE_DEVICES", "2", NULL));
    pt_expect_argv(out, bins.env, "-u", "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES=2", "python",
                   "-m", PT_MOD, "-n", "/tmp/o/proton", "-b", "rocprofiler", "--context",
                   "shadow", "--data", "tree", "vecadd.py", NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(instrumentation_and_cupti_translate_nothing)
{
    /* Cases 105-107, 117. */
    aorta_argv_t *out = wrapped(pt_options("backend", "instrumentation", NULL),
                                pt_argv("python", "vecadd.py", NULL),
                                pt_env("PATH", bins.with_env, "CUDA_VISIBLE_DEVICES", "2",
                                       "HIP_VISIBLE_DEVICES", "1", NULL));
    pt_expect_argv(out, "python", "-m", PT_MOD, "-n", "/tmp/o/proton", "-b", "instrumentation",
                   "--context", "shadow", "--data", "tree", "vecadd.py", NULL);
    aorta_argv_free(out);
    out = wrapped(pt_options("backend", "cupti", NULL), pt_argv("python", "vecadd.py", NULL),
                  pt_env("PATH", bins.with_env, "HIP_VISIBLE_DEVICES", "1", NULL));
    pt_expect_argv(out, "python", "-m", PT_MOD, "-n", "/tmp/o/proton", "-b", "cupti", "--context",
                   "shadow", "--data", "tree", "vecadd.py", NULL);
    aorta_argv_free(out);
    out = wrapped(pt_options(NULL), pt_argv("python", "vecadd.py", NULL), pt_env(NULL));
    ck_assert_str_eq(aorta_argv_at(out, 0), "python");
    aorta_argv_free(out);
}
END_TEST

START_TEST(env_mode_translates_next_to_the_bundle)
{
    /* Case 100. */
    aorta_argv_t *out = wrapped(pt_options("mode", "env", "backend", "roctracer", NULL),
                                pt_argv("python", "vecadd.py", NULL),
                                pt_env("PATH", bins.with_env, "CUDA_VISIBLE_DEVICES", "2", NULL));
    pt_expect_argv(out, bins.env, "-u", "CUDA_VISIBLE_DEVICES", "AORTA_PROTON_BACKEND=roctracer",
                   "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree",
                   "AORTA_PROTON_DIR=/tmp/o", "AORTA_PROTON_NAME=/tmp/o/proton",
                   "ROCR_VISIBLE_DEVICES=2", "python", "vecadd.py", NULL);
    aorta_argv_free(out);
    /* Case 101. */
    out = wrapped(pt_options("mode", "env", "backend", "rocprofiler", NULL),
                  pt_argv("python", "vecadd.py", NULL),
                  pt_env("PATH", bins.with_env, "HIP_VISIBLE_DEVICES", "1",
                         "CUDA_VISIBLE_DEVICES", "2", NULL));
    pt_expect_argv(out, bins.env, "-u", "HIP_VISIBLE_DEVICES", "-u", "CUDA_VISIBLE_DEVICES",
                   "AORTA_PROTON_BACKEND=rocprofiler", "AORTA_PROTON_CONTEXT=shadow",
                   "AORTA_PROTON_DATA=tree", "AORTA_PROTON_DIR=/tmp/o",
                   "AORTA_PROTON_NAME=/tmp/o/proton", "ROCR_VISIBLE_DEVICES=1", "python",
                   "vecadd.py", NULL);
    aorta_argv_free(out);
    /* Case 111. */
    out = wrapped(pt_options("mode", "env", "backend", "roctracer", NULL),
                  pt_argv("/bin/true", NULL),
                  pt_env("PATH", bins.with_env, "HIP_VISIBLE_DEVICES", "1", NULL));
    pt_expect_argv(out, bins.env, "-u", "HIP_VISIBLE_DEVICES", "AORTA_PROTON_BACKEND=roctracer",
                   "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree",
                   "AORTA_PROTON_DIR=/tmp/o", "AORTA_PROTON_NAME=/tmp/o/proton",
                   "ROCR_VISIBLE_DEVICES=1", "/bin/true", NULL);
    aorta_argv_free(out);
    /* Case 120: cupti leaves HIP alone. */
    out = wrapped(pt_options("mode", "env", "backend", "cupti", NULL),
                  pt_argv("python", "vecadd.py", NULL),
                  pt_env("PATH", bins.with_env, "HIP_VISIBLE_DEVICES", "1", NULL));
    pt_expect_argv(out, bins.env, "AORTA_PROTON_BACKEND=cupti", "AORTA_PROTON_CONTEXT=shadow",
                   "AORTA_PROTON_DATA=tree", "AORTA_PROTON_DIR=/tmp/o",
                   "AORTA_PROTON_NAME=/tmp/o/proton", "python", "vecadd.py", NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(presence_counts_not_the_value)
{
    /* Case 108: an existing ROCR is re-asserted. */
    aorta_argv_t *out = wrapped(pt_options("mode", "env", "backend", "rocprofiler", NULL),
                                pt_argv("python", "vecadd.py", NULL),
                                pt_env("PATH", bins.with_env, "HIP_VISIBLE_DEVICES", "1",
                                       "ROCR_VISIBLE_DEVICES", "0", NULL));
    ck_assert_int_ge(pt_index(out, "ROCR_VISIBLE_DEVICES=0"), 0);
    ck_assert_str_eq(aorta_argv_at(out, (size_t)pt_index(out, "-u") + 1), "HIP_VISIBLE_DEVICES");
    aorta_argv_free(out);
    /* Case 109: an empty HIP list still moves. */
    out = wrapped(pt_options("mode", "env", "backend", "roctracer", NULL),
                  pt_argv("python", "vecadd.py", NULL),
                  pt_env("PATH", bins.with_env, "HIP_VISIBLE_DEVICES", "", NULL));
    ck_assert_int_ge(pt_index(out, "HIP_VISIBLE_DEVICES"), 0);
    ck_assert_int_ge(pt_index(out, "ROCR_VISIBLE_DEVICES="), 0);
    aorta_argv_free(out);
    /* Case 110: an empty ROCR list is kept, not replaced by HIP's. */
    out = wrapped(pt_options("mode", "env", "backend", "roctracer", NULL),
                  pt_argv("python", "vecadd.py", NULL),
                  pt_env("PATH", bins.with_env, "HIP_VISIBLE_DEVICES", "1",
                         "ROCR_VISIBLE_DEVICES", "", NULL));
    ck_assert_int_ge(pt_index(out, "ROCR_VISIBLE_DEVICES="), 0);
    ck_assert_int_eq(pt_index(out, "ROCR_VISIBLE_DEVICES=1"), -1);
    aorta_argv_free(out);
}
END_TEST

START_TEST(no_env_on_path_is_a_refusal_naming_what_it_would_carry)
{
    /* Case 112, exact list. */
    char *error = refused(pt_options("mode", "env", NULL), pt_argv("/tmp/gemm", "512", NULL),
                          pt_env("PATH", bins.empty, NULL));
    pt_contains(error, "proton needs 'env' on $PATH to apply ['AORTA_PROTON_CONTEXT', "
                       "'AORTA_PROTON_DATA', 'AORTA_PROTON_DIR', 'AORTA_PROTON_NAME'], and it was "
                       "not found.");
    pt_contains(error, "Install coreutils, or drop 'proton' from the collect request.");
    free(error);
    /* Case 113. */
    expect_refused(pt_options("backend", "auto", NULL), pt_argv("python", "vecadd.py", NULL),
                   pt_env("PATH", bins.empty, "HIP_VISIBLE_DEVICES", "1", NULL),
                   "['HIP_VISIBLE_DEVICES', 'ROCR_VISIBLE_DEVICES']");
    /* Case 114: nothing to carry, no env needed. */
    aorta_argv_t *out = wrapped(pt_options(NULL), pt_argv("python", "vecadd.py", NULL),
                                pt_env("PATH", bins.empty, NULL));
    pt_expect_argv(out, "python", "-m", PT_MOD, T, "vecadd.py", NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(env_is_looked_up_on_the_commands_path)
{
    /* The first entry holding an executable env wins; no PATH means
     * /bin:/usr/bin, as shutil.which falls back to os.defpath. */
    char *path = malloc(strlen(bins.empty) + strlen(bins.with_env) + 2);
    sprintf(path, "%s:%s", bins.empty, bins.with_env);
    aorta_argv_t *out = wrapped(pt_options("mode", "env", NULL), pt_argv("x", NULL),
                                pt_env("PATH", path, NULL));
    ck_assert_str_eq(aorta_argv_at(out, 0), bins.env);
    aorta_argv_free(out);
    free(path);
    out = wrapped(pt_options("mode", "env", NULL), pt_argv("x", NULL), pt_env(NULL));
    ck_assert(strcmp(aorta_argv_at(out, 0), "/bin/env") == 0
              || strcmp(aorta_argv_at(out, 0), "/usr/bin/env") == 0);
    aorta_argv_free(out);
}
END_TEST

/* ---- 7.G: the bundle and mode env ---------------------------------------- */

/* The env callback's bundle for validated options, as "K=V" lines. */
static char *bundle_text(aorta_options_t *options, const char *out_dir)
{
    ck_assert_int_eq(pt_validate(options, NULL), 0);
    aorta_env_t *bundle = aorta_env_new();
    aorta_error_t *err = aorta_error_new();
    ck_assert_int_eq(pt_collector()->env(options, out_dir, bundle, err), 0);
    size_t len = 1;
    for (size_t i = 0; i < aorta_env_count(bundle); i++)
        len += strlen(aorta_env_name_at(bundle, i)) + strlen(aorta_env_value_at(bundle, i)) + 2;
    char *text = calloc(1, len);
    for (size_t i = 0; i < aorta_env_count(bundle); i++) {
        ck_assert(strncmp(aorta_env_name_at(bundle, i), "AORTA_PROTON_", 13) == 0);
        strcat(text, aorta_env_name_at(bundle, i));
        strcat(text, "=");
        strcat(text, aorta_env_value_at(bundle, i));
        strcat(text, "\n");
    }
    aorta_env_free(bundle);
    aorta_error_free(err);
    aorta_options_free(options);
    return text;
}

static void expect_bundle(aorta_options_t *options, const char *out_dir, const char *want)
{
    char *text = bundle_text(options, out_dir);
    ck_assert_str_eq(text, want);
    free(text);
}

START_TEST(the_bundle_mirrors_the_cli_flags)
{
    /* Cases 121-128: sorted; BACKEND, MODE, HOOK only when set. */
    expect_bundle(pt_options(NULL), PT_OUT,
                  "AORTA_PROTON_CONTEXT=shadow\nAORTA_PROTON_DATA=tree\nAORTA_PROTON_DIR=/tmp/o\n"
                  "AORTA_PROTON_NAME=/tmp/o/proton\n");
    expect_bundle(pt_options("backend", "rocprofiler", NULL), PT_OUT,
                  "AORTA_PROTON_BACKEND=rocprofiler\nAORTA_PROTON_CONTEXT=shadow\n"
                  "AORTA_PROTON_DATA=tree\nAORTA_PROTON_DIR=/tmp/o\n"
                  "AORTA_PROTON_NAME=/tmp/o/proton\n");
    char *text = bundle_text(pt_options("backend", "instrumentation", "granularity", "warp", NULL),
                             PT_OUT);
    pt_contains(text, "AORTA_PROTON_MODE=default:granularity=warp\n");
    free(text);
    text = bundle_text(pt_options("backend", "rocprofiler", "backend_mode", "pcsampling", NULL),
                       PT_OUT);
    pt_contains(text, "AORTA_PROTON_MODE=pcsampling\n");
    free(text);
    text = bundle_text(pt_options("hook", "triton", NULL), PT_OUT);
    pt_contains(text, "AORTA_PROTON_HOOK=triton\n");
    free(text);
    expect_bundle(pt_options(NULL), "relative/out",
                  "AORTA_PROTON_CONTEXT=shadow\nAORTA_PROTON_DATA=tree\n"
                  "AORTA_PROTON_DIR=relative/out\nAORTA_PROTON_NAME=relative/out/proton\n");
    expect_bundle(pt_options("mode", "env", "backend", "rocprofiler", "backend_mode",
                             "pcsampling", "hook", "triton", NULL),
                  "/tmp//o/",
                  "AORTA_PROTON_BACKEND=rocprofiler\nAORTA_PROTON_CONTEXT=shadow\n"
                  "AORTA_PROTON_DATA=tree\nAORTA_PROTON_DIR=/tmp/o\nAORTA_PROTON_HOOK=triton\n"
                  "AORTA_PROTON_MODE=pcsampling\nAORTA_PROTON_NAME=/tmp/o/proton\n");
}
END_TEST

START_TEST(env_mode_accepts_any_command_behind_the_bundle)
{
    /* Case 129. */
    aorta_argv_t *out = wrapped(pt_options("mode", "env", NULL),
                                pt_argv("/tmp/aorta_hip_gemm", "512", NULL), with_env());
    pt_expect_argv(out, bins.env, "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree",
                   "AORTA_PROTON_DIR=/tmp/o", "AORTA_PROTON_NAME=/tmp/o/proton",
                   "/tmp/aorta_hip_gemm", "512", NULL);
    ck_assert_int_eq(pt_index(out, PT_MOD), -1);
    aorta_argv_free(out);
    /* Cases 131-132: no pin refusal, no shape check. */
    const char *backends[] = {"roctracer", "rocprofiler"};
    for (size_t i = 0; i < 2; i++) {
        out = wrapped(pt_options("mode", "env", "backend", backends[i], NULL),
                      pt_argv("python", "pipeline.py", NULL), with_env());
        char want[64];
        snprintf(want, sizeof want, "AORTA_PROTON_BACKEND=%s", backends[i]);
        ck_assert_int_ge(pt_index(out, want), 0);
        aorta_argv_free(out);
    }
    out = wrapped(pt_options("mode", "env", NULL), pt_argv("python", "-c", "print(1)", NULL),
                  with_env());
    pt_expect_argv(out, bins.env, "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree",
                   "AORTA_PROTON_DIR=/tmp/o", "AORTA_PROTON_NAME=/tmp/o/proton", "python", "-c",
                   "print(1)", NULL);
    aorta_argv_free(out);
    /* Case 133. */
    out = wrapped(pt_options("mode", "env", "backend", "rocprofiler", "backend_mode",
                             "periodic_flushing", "hook", "triton", NULL),
                  pt_argv("x", NULL), with_env());
    pt_expect_argv(out, bins.env, "AORTA_PROTON_BACKEND=rocprofiler",
                   "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree",
                   "AORTA_PROTON_DIR=/tmp/o", "AORTA_PROTON_HOOK=triton",
                   "AORTA_PROTON_MODE=periodic_flushing", "AORTA_PROTON_NAME=/tmp/o/proton", "x",
                   NULL);
    aorta_argv_free(out);
}
END_TEST

START_TEST(env_mode_refuses_a_first_word_env_would_misread)
{
    /* docs/design.md, Deviation 4. */
    char *error = refused(pt_options("mode", "env", NULL), pt_argv("A=B", "cmd", NULL),
                          with_env());
    pt_contains(error, "proton mode 'env' cannot run the command 'A=B'");
    pt_contains(error, "containing '='");
    free(error);
    error = refused(pt_options("mode", "env", NULL), pt_argv("-i", "cmd", NULL), with_env());
    pt_contains(error, "'-i'");
    pt_contains(error, "starting with '-'");
    free(error);
    /* Later words may be anything. */
    aorta_argv_t *out = wrapped(pt_options("mode", "env", NULL),
                                pt_argv("./cmd", "A=B", "-x", NULL), with_env());
    ck_assert_str_eq(aorta_argv_at(out, aorta_argv_count(out) - 3), "./cmd");
    aorta_argv_free(out);
}
END_TEST

static Suite *proton_wrap_suite(void)
{
    Suite *suite = suite_create("proton_wrap");
    TCase *cli = tcase_create("cli");
    tcase_add_checked_fixture(cli, setup, teardown);
    tcase_set_timeout(cli, 30);
    tcase_add_test(cli, a_script_launch_gets_the_proton_prefix_and_no_separator);
    tcase_add_test(cli, safe_interpreter_flags_stay_before_dash_m);
    tcase_add_test(cli, python_dash_m_pytest_is_normalised_onto_bare_pytest);
    tcase_add_test(cli, bare_pytest_keeps_its_argv_as_the_target);
    tcase_add_test(cli, a_pytest_path_keeps_its_path_and_runs_under_its_shebang);
    tcase_add_test(cli, nothing_after_the_script_is_inspected);
    tcase_add_test(cli, every_option_renders_in_the_fixed_order);
    tcase_add_test(cli, backends_render_as_dash_b_except_auto);
    tcase_add_test(cli, the_profile_name_is_the_normalised_out_dir_plus_proton);
    tcase_add_test(cli, other_launches_are_refused_naming_mode_env);
    tcase_add_test(cli, interpreter_names_match_the_upstream_pattern);
    tcase_add_test(cli, a_launch_without_a_script_and_an_empty_one_are_refused);
    tcase_add_test(cli, the_command_is_left_unchanged);
    tcase_add_test(cli, a_pinned_roctracer_is_refused_before_the_shape);
    tcase_add_test(cli, the_examples_the_messages_point_at_exist);
    suite_add_tcase(suite, cli);

    TCase *python = tcase_create("interpreter");
    tcase_add_checked_fixture(python, setup, teardown);
    tcase_set_timeout(python, 30);
    tcase_add_test(python, argv0_is_used_when_it_is_a_python);
    tcase_add_test(python, aorta_proton_python_overrides_with_expansion);
    tcase_add_test(python, a_bare_pytest_runs_under_the_python_of_its_shebang);
    tcase_add_test(python, an_unusable_shebang_falls_back_to_python3_on_path_with_a_warning);
    tcase_add_test(python, no_python3_on_path_is_a_refusal_naming_the_override);
    suite_add_tcase(suite, python);

    TCase *devices = tcase_create("devices");
    tcase_add_checked_fixture(devices, setup, teardown);
    tcase_set_timeout(devices, 30);
    tcase_add_test(devices, auto_moves_a_hip_pin_to_rocr_with_a_warning);
    tcase_add_test(devices, a_lone_cuda_pin_under_auto_is_left_alone);
    tcase_add_test(devices, an_amd_signal_makes_the_cuda_pin_move_too);
    tcase_add_test(devices, instrumentation_and_cupti_translate_nothing);
    tcase_add_test(devices, env_mode_translates_next_to_the_bundle);
    tcase_add_test(devices, presence_counts_not_the_value);
    tcase_add_test(devices, no_env_on_path_is_a_refusal_naming_what_it_would_carry);
    tcase_add_test(devices, env_is_looked_up_on_the_commands_path);
    suite_add_tcase(suite, devices);

    TCase *env = tcase_create("env");
    tcase_add_checked_fixture(env, setup, teardown);
    tcase_set_timeout(env, 30);
    tcase_add_test(env, the_bundle_mirrors_the_cli_flags);
    tcase_add_test(env, env_mode_accepts_any_command_behind_the_bundle);
    tcase_add_test(env, env_mode_refuses_a_first_word_env_would_misread);
    suite_add_tcase(suite, env);
    return suite;
}

AORTA_CHECK_MAIN(proton_wrap_suite)
