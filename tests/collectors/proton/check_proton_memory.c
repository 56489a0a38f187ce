/* SPDX-License-Identifier: MIT */
/* The Proton parse's memory: a compact profile of some 20 MB, whose whole
 * json-c tree takes over 400 MB, parses in the child the core runs parse in
 * under an AORTA_PARSE_MEMORY (its address space) that only a reader holding
 * one node at a time fits in (docs/design.md, Budgets).  The whole-tree
 * reader left the file out (json-c out of memory): no kernel count.  And a
 * file that does need the whole tree (a second "children" after the first's
 * leaves) costs the parse its metrics with one warning, as aorta-run(1)
 * promises, where it used to count silently as unreadable.  Sanitizer
 * builds run the child without a limit: this program then skips (exit
 * 77). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/parse_child.h"
#include "protontest.h"

/* Fan-out and depth of the tree: FANOUT^DEPTH leaves. */
#define FANOUT 20
#define DEPTH 4
#define KERNELS 8
/* The child's address space: the test's own, the file read whole and one
 * node at a time fit in 32 MB; the file's whole tree needs over 400 MB. */
#define LIMIT "160M"

static char *dir;

static void setup(void)
{
    pt_load();
    dir = tu_tmpdir();
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
    pt_unload();
}

/* Proton's tree, compact: frames named as context: python names them, the
 * kernels at the leaves, each with count 2 and (1 + its index) us. */
static void node(tu_text_t *text, int level, int *leaves)
{
    if (level == DEPTH) {
        int kernel = (*leaves)++ % KERNELS;
        tu_text_add(text, "{\"children\":[],\"frame\":{\"name\":\"kernel_%d\",\"type\":\"function\"},"
                   "\"metrics\":{\"count\":2,\"device_id\":\"0\",\"time (ns)\":%d}}",
             kernel, 1000 * (kernel + 1));
        return;
    }
    tu_text_add(text, "{\"children\":[");
    for (int i = 0; i < FANOUT; i++) {
        if (i)
            tu_text_add(text, ",");
        node(text, level + 1, leaves);
    }
    tu_text_add(text, "],\"frame\":{\"name\":\"/workspace/model/layers.py:%d@forward_%d\",\"type\":"
               "\"function\"},\"metrics\":{\"count\":%d,\"time (ns)\":1}}",
         10 + level, level, *leaves);
}

/* The compact profile as dir/proton.hatchet; its leaves' number.  With
 * repeat, the root's "children" is given again, empty, after its leaves. */
static int write_profile(int repeat)
{
    tu_text_t text = {0};
    int leaves = 0;
    tu_text_add(&text, "[");
    node(&text, 0, &leaves);
    if (repeat) {
        text.len--; /* the root's closing brace */
        tu_text_add(&text, ",\"children\":[]}");
    }
    const char *devices = ",{\"CUDA\":{\"0\":{\"arch\":\"90\",\"num_sms\":132}}}]";
    tu_text_add(&text, "%s", devices);
    ck_assert_uint_gt(text.len, 18u << 20);
    char *path = tu_join(dir, "proton.hatchet");
    tu_write(path, text.data);
    free(path);
    free(text.data);
    return leaves;
}

START_TEST(a_compact_profile_parses_under_a_limit_its_whole_tree_exceeds)
{
    int leaves = write_profile(0);

    setenv("AORTA_PARSE_MEMORY", LIMIT, 1);
    aorta_metrics_t *metrics = ar_parse_in_child(pt_plugin(), NULL, dir);
    unsetenv("AORTA_PARSE_MEMORY");
    const aorta_metric_t *count = aorta_metrics_find(metrics, "proton_kernel_count");
    ck_assert_msg(count != NULL, "the profile was not read under AORTA_PARSE_MEMORY=" LIMIT);
    ck_assert_int_eq(count->int_value, 2 * leaves);
    double ms = 0.0;
    for (int k = 0; k < KERNELS; k++)
        ms += (leaves / KERNELS) * (k + 1) * 1e-3;
    const aorta_metric_t *gpu = aorta_metrics_find(metrics, "proton_gpu_time_ms");
    ck_assert_ptr_nonnull(gpu);
    ck_assert_double_eq_tol(gpu->double_value, ms, 1e-6 * ms);
    const aorta_metric_t *top = aorta_metrics_find(metrics, "proton_top_kernels");
    ck_assert_ptr_nonnull(top);
    ck_assert_str_eq(top->strings[0], "kernel_7");
    aorta_metrics_free(metrics);
}
END_TEST

/* aorta-run --parse proton dir under limit (NULL: none); its exit status. */
static int parse_with(const char *limit, char **out, char **err)
{
    char *aorta = tu_aorta_run();
    char *plugins = tu_builddir("plugins");
    char setting[64];
    snprintf(setting, sizeof setting, "AORTA_PARSE_MEMORY=%s", limit ? limit : "");
    char *argv[] = {aorta, "--plugin-dir", plugins, "--parse", "proton", dir, NULL};
    char *env[] = {limit ? setting : "AORTA_PARSE_MEMORY", NULL};
    int status = tu_run(argv, env, out, err);
    free(aorta);
    free(plugins);
    return status;
}

START_TEST(a_profile_past_the_limit_costs_its_metrics_with_one_warning)
{
    write_profile(1);
    /* Without a limit it reads (json-c's whole value: the root, whose last
     * "children" is empty, is the one leaf). */
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(parse_with(NULL, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\"proton_kernel_count\""));
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    /* Under it: the artifact directory only, and one line saying why. */
    ck_assert_int_eq(parse_with(LIMIT, &out, &err), 0);
    ck_assert_ptr_null(strstr(out, "proton_kernel_count"));
    ck_assert_ptr_nonnull(strstr(out, "\"proton_artifact_dir\""));
    size_t lines = 0;
    for (const char *p = err; *p; p++)
        lines += *p == '\n';
    ck_assert_msg(lines == 1, "%s", err);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: proton: "));
    ck_assert_ptr_nonnull(strstr(err, "proton.hatchet: out of memory while reading it"));
    ck_assert_ptr_nonnull(strstr(err, "AORTA_PARSE_MEMORY, is 167772160 bytes"));
    free(out);
    free(err);
}
END_TEST

static Suite *proton_memory_suite(void)
{
    Suite *suite = suite_create("proton_memory");
    TCase *tc = tcase_create("limit");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_compact_profile_parses_under_a_limit_its_whole_tree_exceeds);
    tcase_add_test(tc, a_profile_past_the_limit_costs_its_metrics_with_one_warning);
    suite_add_tcase(suite, tc);
    return suite;
}

int main(void)
{
    if (ar_parse_memory_limit() == 0) {
        fprintf(stderr, "check_proton_memory: the parse child has no memory limit here "
                        "(a sanitizer build): skipped\n");
        return 77;
    }
    SRunner *runner = srunner_create(proton_memory_suite());
    srunner_run_all(runner, CK_ENV);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
