/* SPDX-License-Identifier: MIT */
/* Kernel tables end to end through the Python stand-in with Proton: a
 * two-cell recipe whose cells replay different real captures (h200_cli and
 * tree_capture); each trial's .kernels.json holds every kernel of its
 * hatchet, the cells' tables and perf.md's section name them demangled,
 * and --compare of the run with itself finds nothing past a 0% threshold. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeptest.h"

#define REDUCE "_ZN2at6native13reduce_kernelILi512ELi1ENS0_8ReduceOpIfNS0_14func_wrapper_tIfNS0_" \
               "13MaxNanFunctorIfEEEEjfLi4ELi4EEEEEvT1_"

static char *dir, *path_env, *cli_capture, *tree_capture;

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
    char *standins = tu_srcdir("examples/no-gpu/triton");
    const char *path = getenv("PATH");
    path_env = tu_fmt("PATH=%s:%s", standins, path ? path : "/usr/bin:/bin");
    free(standins);
    cli_capture = tu_srcdir("tests/collectors/proton/fixtures/h200_cli/proton.hatchet");
    tree_capture = tu_srcdir("examples/no-gpu/triton/vecadd.hatchet");
    tu_write("vecadd.py", "# the stand-in python3 only checks the script exists\n");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(path_env);
    free(cli_capture);
    free(tree_capture);
}

START_TEST(two_cells_of_real_captures_keep_and_report_every_kernel)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: P\ntrials: 2\n"
                          "mitigation_axis: [none, tree]\ndiagnostic_axis: [none]\n"
                          "mitigations:\n  tree: {AORTA_STANDIN_HATCHET: \"%s\"}\n"
                          "retain: {on_pass: none}\n"
                          "collect: {proton: {}}\n",
                          tree_capture);
    tu_write("recipe.yaml", recipe);
    char *hatchet = tu_fmt("AORTA_STANDIN_HATCHET=%s", cli_capture);
    char *env[] = {path_env, hatchet, "AORTA_PROTON_PYTHON", "HIP_VISIBLE_DEVICES",
                   "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", NULL};
    tu_result_t r = tu_aorta(env, "--recipe", "recipe.yaml", "--output", "D", "--", "python3",
                             "vecadd.py", NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    const char *cells[] = {"none-none", "tree-none"};
    for (size_t c = 0; c < 2; c++) {
        for (int t = 0; t < 2; t++) {
            char *path = tu_fmt("D/P/%s/_subprocess/trial_d0_m0_t%d.kernels.json", cells[c], t);
            json_object *file = tu_json(path);
            json_object *names = tu_at(file, "collectors", "proton", "names", NULL);
            ck_assert_ptr_nonnull(names);
            int reduce = 0, add = 0;
            for (size_t i = 0; i < json_object_array_length(names); i++) {
                const char *name = json_object_get_string(json_object_array_get_idx(names, i));
                reduce |= !strcmp(name, REDUCE);
                add |= !strcmp(name, "add_kernel");
            }
            ck_assert(reduce && add);
            json_object_put(file);
            free(path);
        }
        char *path = tu_fmt("D/P/%s/kernels.json", cells[c]);
        json_object *cell = tu_json(path);
        ck_assert_int_eq(json_object_get_int(tu_at(cell, "collectors", "proton", "kernels",
                                                   REDUCE, "trials", NULL)),
                         2);
        json_object_put(cell);
        free(path);
    }
    char *perf = tu_read("D/P/perf.md");
    ck_assert_ptr_nonnull(strstr(perf, "### none-none (baseline) \xe2\x80\x94 proton\n"));
    ck_assert_ptr_nonnull(strstr(perf, "### tree-none \xe2\x80\x94 proton\n"));
    ck_assert_ptr_nonnull(strstr(perf, "reduce_kernel&lt;512, 1, ReduceOp&lt;...&gt; &gt;(...)"));
    free(perf);
    char *html = tu_read("D/P/report.html");
    ck_assert_ptr_nonnull(strstr(html, "GPU time per cell: proton"));
    ck_assert_ptr_nonnull(strstr(html, "tree-none"));
    free(html);
    /* Two trials a side give no verdict, even against the run itself. */
    r = tu_aorta(NULL, "--compare", "D/P", "D/P", "--fail-above", "0", NULL);
    ck_assert_msg(r.status == 4, "%d %s", r.status, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "tree-none\n  trials passed: A 2 of 2, B 2 of 2\n"
                                        "  proton GPU time: "));
    ck_assert_ptr_nonnull(strstr(r.out, "No verdict:\n"));
    tu_result_free(&r);
    free(hatchet);
    free(recipe);
}
END_TEST

static Suite *proton_kreport_suite(void)
{
    Suite *suite = suite_create("proton_kreport");
    TCase *tc = tcase_create("kreport");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, two_cells_of_real_captures_keep_and_report_every_kernel);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(proton_kreport_suite)
