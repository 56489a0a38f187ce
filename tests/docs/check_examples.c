/* SPDX-License-Identifier: MIT */
/* Every recipe shipped under examples/profiling loads and wraps the command
 * its header documents with the collector options it promises (rocprof.md
 * case 146, and the proton examples alike): aorta-run --dry-run through
 * the stand-in rocprofv3, trial 0's argv compared whole.  A recipe added
 * without an entry here, or an entry whose recipe is not shipped, fails. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweeptest.h"

/* In argv templates: @ROCPROF@ is the stand-in, @ENV@ env(1) on PATH,
 * @COLLECT@ the cell's collector directory, @RUN@ the run directory. */
typedef struct example {
    const char *recipe; /* under examples/profiling */
    const char *ticket;
    const char *command[10];
    const char *argv[32];
} example_t;

static const example_t examples[] = {
    {"proton/amd-instrumentation/recipe.yaml",
     "PROFILING-PROTON-INSTRUMENTATION",
     {"python3", "examples/profiling/proton/amd-instrumentation/pipeline.py", NULL},
     {"@ENV@", "AORTA_PROTON_BACKEND=instrumentation", "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree", "AORTA_PROTON_DIR=@COLLECT@/proton", "AORTA_PROTON_MODE=default", "AORTA_PROTON_NAME=@COLLECT@/proton/proton", "python3",
      "examples/profiling/proton/amd-instrumentation/pipeline.py", NULL}},
    {"proton/amd-rocprofiler/recipe.yaml",
     "PROFILING-PROTON-ROCPROFILER",
     {"python3", "examples/profiling/proton/amd-rocprofiler/pipeline.py", NULL},
     {"@ENV@", "AORTA_PROTON_BACKEND=rocprofiler", "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree", "AORTA_PROTON_DIR=@COLLECT@/proton", "AORTA_PROTON_NAME=@COLLECT@/proton/proton", "python3",
      "examples/profiling/proton/amd-rocprofiler/pipeline.py", NULL}},
    {"proton/amd-roctracer/recipe.yaml",
     "PROFILING-PROTON-ROCTRACER",
     {"python3", "examples/profiling/proton/amd-roctracer/pipeline.py", NULL},
     {"@ENV@", "AORTA_PROTON_BACKEND=roctracer", "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree", "AORTA_PROTON_DIR=@COLLECT@/proton", "AORTA_PROTON_NAME=@COLLECT@/proton/proton", "python3",
      "examples/profiling/proton/amd-roctracer/pipeline.py", NULL}},
    {"proton/env-bundle/recipe.yaml",
     "PROFILING-PROTON-ENV",
     {"python3", "examples/profiling/proton/env-bundle/pipeline.py", NULL},
     {"@ENV@", "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree",
      "AORTA_PROTON_DIR=@COLLECT@/proton", "AORTA_PROTON_NAME=@COLLECT@/proton/proton", "python3",
      "examples/profiling/proton/env-bundle/pipeline.py", NULL}},
    {"proton/nvidia-cupti/recipe.yaml",
     "PROFILING-PROTON-CUPTI",
     {"python3", "examples/profiling/proton/nvidia-cupti/pipeline.py", NULL},
     {"@ENV@", "AORTA_PROTON_BACKEND=cupti", "AORTA_PROTON_CONTEXT=shadow", "AORTA_PROTON_DATA=tree", "AORTA_PROTON_DIR=@COLLECT@/proton", "AORTA_PROTON_NAME=@COLLECT@/proton/proton", "python3",
      "examples/profiling/proton/nvidia-cupti/pipeline.py", NULL}},
    /* Under a launcher: aorta-rank-exec just inside it, where each rank
     * notes its node, every collector directory a rank%AORTA_RANK% folder
     * (docs/multi-rank.md). */
    {"proton/torchrun-ranks/recipe.yaml",
     "PROFILING-PROTON-TORCHRUN-RANKS",
     {"python3", "examples/profiling/proton/torchrun-ranks/ranks.py", NULL},
     {"torchrun", "--nproc_per_node=2", "--no-python", "@HELPER@", "--node-file",
      "@COLLECT@/rank%AORTA_RANK%.node", "--mkdir", "@COLLECT@/proton/rank%AORTA_RANK%", "--hold", "@RUN@", "--", "@ENV@", "AORTA_PROTON_CONTEXT=shadow",
      "AORTA_PROTON_DATA=tree", "AORTA_PROTON_DIR=@COLLECT@/proton/rank%AORTA_RANK%",
      "AORTA_PROTON_NAME=@COLLECT@/proton/rank%AORTA_RANK%/proton", "python3",
      "examples/profiling/proton/torchrun-ranks/ranks.py", NULL}},
    {"proton/triton-softmax/recipe.yaml",
     "PROFILING-PROTON-SOFTMAX",
     {"python3", "examples/profiling/proton/triton-softmax/softmax.py", NULL},
     {"python3", "-m", "triton.profiler.proton", "-n", "@COLLECT@/proton/proton", "--context",
      "shadow", "--data", "tree", "examples/profiling/proton/triton-softmax/softmax.py", NULL}},
    {"proton/triton-vecadd/recipe.yaml",
     "PROFILING-PROTON-VECADD",
     {"python3", "examples/profiling/proton/triton-vecadd/vecadd.py", NULL},
     {"python3", "-m", "triton.profiler.proton", "-n", "@COLLECT@/proton/proton", "--context",
      "shadow", "--data", "tree", "examples/profiling/proton/triton-vecadd/vecadd.py", NULL}},
    /* rocprof.md case 38 */
    {"rocprof/hip-gemm/recipe.yaml",
     "PROFILING-HIP-GEMM",
     {"/tmp/hip_gemm", "512", "20", NULL},
     {"@ROCPROF@", "-d", "@COLLECT@/rocprof", "-o", "aorta", "--output-format", "csv",
      "--kernel-trace", "--stats", "-S", "--summary-output-file", "rocprof_summary", "-u", "msec",
      "--", "/tmp/hip_gemm", "512", "20", NULL}},
    /* rocprof.md case 39 */
    {"rocprof/torch-matmul/recipe.yaml",
     "PROFILING-TORCH-MATMUL",
     {"python3", "examples/profiling/rocprof/torch-matmul/matmul.py", "--size", "2048", "--iters",
      "20", "--dtype", "float16"},
     {"@ROCPROF@", "-d", "@COLLECT@/rocprof", "-o", "aorta", "--output-format", "csv",
      "--kernel-trace", "--hip-trace", "--stats", "-S", "--summary-output-file", "rocprof_summary",
      "-u", "msec", "--kernel-include-regex", "Cijk|gemm|matmul", "--",
      "python3", "examples/profiling/rocprof/torch-matmul/matmul.py", "--size", "2048", "--iters",
      "20", "--dtype", "float16", NULL}},
};
#define N_EXAMPLES (sizeof examples / sizeof examples[0])

static char *dir;

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
}

/* Every recipe.yaml below root/rel, relative to root, into found[]. */
static void find_recipes(const char *root, const char *rel, char **found, size_t *n)
{
    char *path = rel[0] ? tu_join(root, rel) : strdup(root);
    struct dirent **entries = NULL;
    int count = scandir(path, &entries, NULL, alphasort);
    ck_assert_msg(count >= 0, "cannot list %s", path);
    for (int i = 0; i < count; i++) {
        const char *name = entries[i]->d_name;
        char *child = rel[0] ? tu_join(rel, name) : strdup(name);
        char *full = tu_join(root, child);
        struct stat st;
        if (name[0] != '.' && lstat(full, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                find_recipes(root, child, found, n);
            } else if (strcmp(name, "recipe.yaml") == 0) {
                ck_assert_uint_lt(*n, 64);
                found[(*n)++] = strdup(child);
            }
        }
        free(full);
        free(child);
        free(entries[i]);
    }
    free(entries);
    free(path);
}

/* template with @ROCPROF@, @ENV@, @COLLECT@, @HELPER@ (aorta-rank-exec
 * in the build tree) and @RUN@ replaced (free it). */
static char *expand(const char *template, const char *rocprof, const char *env,
                    const char *collect, const char *helper, const char *run)
{
    const char *names[] = {"@ROCPROF@", "@ENV@", "@COLLECT@", "@HELPER@", "@RUN@"};
    const char *values[] = {rocprof, env, collect, helper, run};
    char *text = strdup(template);
    for (size_t k = 0; k < 5; k++) {
        char *at = strstr(text, names[k]);
        if (at) {
            *at = '\0';
            char *next = tu_fmt("%s%s%s", text, values[k], at + strlen(names[k]));
            free(text);
            text = next;
        }
    }
    return text;
}

START_TEST(every_shipped_recipe_loads_and_wraps_as_documented)
{
    char *root = tu_srcdir("examples/profiling");
    char *found[64];
    size_t n = 0;
    find_recipes(root, "", found, &n);
    ck_assert_uint_eq(n, N_EXAMPLES);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(found[i], examples[i].recipe); /* both sorted */

    char *source = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    char *text = tu_read(source);
    char *rocprof = tu_join(dir, "bin/rocprofv3");
    tu_write_mode(rocprof, text, 0755);
    const char *system = getenv("PATH");
    char *path = tu_fmt("PATH=%s/bin:%s", dir, system ? system : "/usr/bin:/bin");
    char *env_bin = tu_which("env");
    ck_assert_ptr_nonnull(env_bin);
    char *helper = tu_builddir("core/aorta-rank-exec");
    char *env[] = {path, "ROCPROF_BIN", "AORTA_PROTON_PYTHON", "HIP_VISIBLE_DEVICES",
                   "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", NULL};
    for (size_t i = 0; i < N_EXAMPLES; i++) {
        const example_t *example = &examples[i];
        char *recipe = tu_join(root, example->recipe);
        char *args[24] = {"--recipe", recipe, "--output", "D", "--dry-run", "--"};
        for (size_t k = 0; k < 10 && example->command[k]; k++)
            args[6 + k] = (char *)example->command[k];
        tu_result_t r = tu_aorta_v(env, args);
        ck_assert_msg(r.status == 0, "%s: %s", example->recipe, r.err);
        ck_assert_msg(tu_count(r.out, "\n") == 1, "%s: not one cell: %s", example->recipe, r.out);
        json_object *cell = json_tokener_parse(r.out);
        ck_assert_ptr_nonnull(cell);
        char *collect = tu_fmt("%s/D/%s/none-none/_subprocess/trial_d0_m0_t0", dir,
                               example->ticket);
        char *run = tu_fmt("%s/D/%s", dir, example->ticket);
        ck_assert_str_eq(tu_str(cell, "cell", NULL), "none-none");
        ck_assert_str_eq(tu_str(cell, "collect_dir", NULL), collect);
        ck_assert_ptr_null(tu_at(cell, "error", NULL));
        char *expected[32];
        size_t count = 0;
        for (; example->argv[count]; count++)
            expected[count] = expand(example->argv[count], rocprof, env_bin, collect, helper, run);
        expected[count] = NULL;
        tu_expect_strings(tu_at(cell, "argv", NULL), (const char *const *)expected);
        for (size_t k = 0; k < count; k++)
            free(expected[k]);
        ck_assert(!tu_exists("D"));
        json_object_put(cell);
        free(collect);
        free(run);
        tu_result_free(&r);
        free(recipe);
    }
    for (size_t i = 0; i < n; i++)
        free(found[i]);
    free(env_bin);
    free(helper);
    free(path);
    free(rocprof);
    free(text);
    free(source);
    free(root);
}
END_TEST

START_TEST(the_hip_gemm_recipe_is_upstreams_byte_for_byte)
{
    char *shipped = tu_srcdir("examples/profiling/rocprof/hip-gemm/recipe.yaml");
    char *fixture = tu_srcdir("tests/run/recipe/fixtures/examples_profiling_rocprof_hip-gemm_recipe.yaml");
    char *a = tu_read(shipped);
    char *b = tu_read(fixture);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    free(fixture);
    free(shipped);
}
END_TEST

/* The line number (1-based) of the first line of text that starts with one
 * of the prefixes (an import statement), or 0. */
static size_t first_line_starting(const char *text, const char *const *prefixes)
{
    size_t number = 1;
    for (const char *line = text; *line; number++) {
        for (size_t i = 0; prefixes[i]; i++)
            if (strncmp(line, prefixes[i], strlen(prefixes[i])) == 0)
                return number;
        const char *end = strchr(line, '\n');
        if (!end)
            break;
        line = end + 1;
    }
    return 0;
}

/* Every Proton payload that starts Proton itself imports triton.profiler
 * before torch: on AMD the other order left Proton's finaliser waiting
 * forever at exit (Triton 3.8.0), so the rule holds on every example. */
START_TEST(proton_payloads_import_triton_profiler_before_torch)
{
    static const char *const payloads[] = {
        "amd-instrumentation/pipeline.py", "amd-rocprofiler/pipeline.py",
        "amd-roctracer/pipeline.py",       "env-bundle/pipeline.py",
        "nvidia-cupti/pipeline.py",        "torchrun-ranks/ranks.py",
    };
    static const char *const proton_imports[] = {"import triton.profiler",
                                                 "from triton.profiler", "from triton import profiler",
                                                 NULL};
    static const char *const torch_imports[] = {"import torch", "from torch", NULL};
    for (size_t i = 0; i < sizeof payloads / sizeof payloads[0]; i++) {
        char *rel = tu_fmt("examples/profiling/proton/%s", payloads[i]);
        char *path = tu_srcdir(rel);
        char *text = tu_read(path);
        ck_assert_msg(text != NULL, "cannot read %s", rel);
        ck_assert_msg(strstr(text, "proton.start(") != NULL, "%s does not start Proton", rel);
        size_t proton_line = first_line_starting(text, proton_imports);
        size_t torch_line = first_line_starting(text, torch_imports);
        ck_assert_msg(proton_line > 0, "%s never imports triton.profiler", rel);
        ck_assert_msg(torch_line == 0 || proton_line < torch_line,
                      "%s imports torch (line %zu) before triton.profiler (line %zu)", rel,
                      torch_line, proton_line);
        free(text);
        free(path);
        free(rel);
    }
}
END_TEST

static Suite *examples_suite(void)
{
    Suite *suite = suite_create("examples");
    TCase *tc = tcase_create("recipes");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, every_shipped_recipe_loads_and_wraps_as_documented);
    tcase_add_test(tc, the_hip_gemm_recipe_is_upstreams_byte_for_byte);
    tcase_add_test(tc, proton_payloads_import_triton_profiler_before_torch);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(examples_suite)
