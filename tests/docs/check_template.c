/* SPDX-License-Identifier: MIT */
/* The out-of-tree collector template (examples/collector-template) builds
 * against the public header alone, loads, its callbacks behave (a plain
 * metric of its own beside the kernel accumulator's), and
 * `aorta-run --check-collector` finds it keeping the collector contract. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "registry/registry.h"
#include "testutil.h"

START_TEST(template_collector_loads_and_works)
{
    aorta_registry_t *registry = tu_registry("examples/collector-template");
    const aorta_module_t *module = tu_plugin(registry, "mycollector");
    const struct aorta_collector *c = &module->collector;

    aorta_error_t *err = aorta_error_new();
    aorta_options_t *options = aorta_options_new();
    ck_assert_int_eq(c->validate(options, err), 0);
    ck_assert_str_eq(aorta_options_get(options, "verbosity"), "quiet");
    aorta_options_t *bad = aorta_options_new();
    aorta_options_set(bad, "verbose", "1");
    ck_assert_int_eq(c->validate(bad, err), -1);
    ck_assert_ptr_nonnull(strstr(aorta_error_message(err), "unknown option(s) ['verbose']"));

    char *path_env[] = {"PATH=/usr/bin:/bin", NULL};
    aorta_env_t *environ_handle = aorta_env_from_environ(path_env);
    aorta_argv_t *cmd = aorta_argv_new(), *out = aorta_argv_new();
    aorta_argv_push(cmd, "./app");
    ck_assert_int_eq(c->wrap(options, "/tmp/out/mycollector", cmd, environ_handle, out, err), 0);
    ck_assert_ptr_nonnull(strstr(aorta_argv_at(out, 0), "/env"));
    ck_assert_str_eq(aorta_argv_at(out, 1), "MYCOLLECTOR_DIR=/tmp/out/mycollector");
    ck_assert_str_eq(aorta_argv_at(out, 3), "./app");

    /* A value outside the table, in the table's own wording. */
    aorta_options_t *loud = tu_options("verbosity", "LOUD", NULL);
    ck_assert_int_eq(c->validate(loud, err), -1);
    ck_assert_str_eq(aorta_error_message(err),
                     "mycollector option 'verbosity': 'LOUD' is not one of ['loud', 'quiet']");
    aorta_options_free(loud);

    /* The five standard metrics, from two files and a line it must skip. */
    char *tmp = tu_tmpdir();
    char *file = tu_join(tmp, "a/b.kernels.tsv");
    tu_write(file, "gemm\t3000000\t4\nrelu\t1000000\t4\nnot a row\ngemm\t1000000\t2\n");
    char *other = tu_join(tmp, "c.kernels.tsv");
    tu_write(other, "relu\t500000\n");
    aorta_metrics_t *metrics = aorta_metrics_new("mycollector_");
    c->parse(options, tmp, metrics);
    ck_assert_str_eq(aorta_metrics_find(metrics, "mycollector_artifact_dir")->string_value, tmp);
    ck_assert_double_eq(aorta_metrics_find(metrics, "mycollector_gpu_time_ms")->double_value, 5.5);
    ck_assert_double_eq(aorta_metrics_find(metrics, "mycollector_top_kernel_ms")->double_value,
                        4.0);
    const aorta_metric_t *top = aorta_metrics_find(metrics, "mycollector_top_kernels");
    ck_assert_uint_eq(top->string_count, 2);
    ck_assert_str_eq(top->strings[0], "gemm");
    ck_assert_str_eq(top->strings[1], "relu");
    /* c.kernels.tsv gives no launch count: the count is omitted, not guessed. */
    ck_assert_ptr_null(aorta_metrics_find(metrics, "mycollector_kernel_count"));
    /* Its own plain metric, beside the accumulator's. */
    const aorta_metric_t *files = aorta_metrics_find(metrics, "mycollector_files");
    ck_assert_ptr_nonnull(files);
    ck_assert_int_eq(files->type, AORTA_METRIC_INT);
    ck_assert_int_eq(files->int_value, 2);
    free(other);

    aorta_metrics_free(metrics);
    tu_rmtree(tmp);
    free(tmp);
    free(file);
    aorta_argv_free(cmd);
    aorta_argv_free(out);
    aorta_env_free(environ_handle);
    aorta_options_free(bad);
    aorta_options_free(options);
    aorta_error_free(err);
    aorta_registry_free(registry);
}
END_TEST

START_TEST(template_collector_passes_the_self_check)
{
    char *binary = tu_aorta_run();
    char *modules = tu_builddir("examples/collector-template");
    char *argv[] = {binary, "--plugin-dir", modules, "--check-collector", "mycollector", NULL};
    char *out = NULL, *err = NULL;
    int status = tu_run(argv, NULL, &out, &err);
    ck_assert_msg(status == 0, "exit %d:\n%s%s", status, out, err);
    ck_assert_ptr_nonnull(strstr(out, "\nmycollector: 0 violations, "));
    /* The three slips it once made: a path it cannot hold is refused, the
     * directory is reported when the walk runs out of descriptors, and no
     * descriptor is left open (no FAIL line says so). */
    ck_assert_ptr_nonnull(strstr(out, "\nok   wrap: refuses an output directory of 4090 bytes: "
                                      "mycollector: the output directory is too long (4090 "
                                      "bytes)\n"));
    ck_assert_ptr_nonnull(strstr(out, "\nok   parse: a directory while no file descriptor is "
                                      "left: 1 metric: mycollector_artifact_dir\n"));
    free(out);
    free(err);
    free(modules);
    free(binary);
}
END_TEST

static Suite *template_suite(void)
{
    Suite *suite = suite_create("template");
    TCase *tc = tcase_create("template");
    tcase_add_test(tc, template_collector_loads_and_works);
    tcase_add_test(tc, template_collector_passes_the_self_check);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(template_suite)
