/* SPDX-License-Identifier: MIT */
/* The out-of-tree collector template (examples/collector-template) builds
 * against the public header alone, loads, its callbacks behave (a plain
 * metric of its own beside the kernel accumulator's), and
 * `aorta-run --check-collector` finds it keeping the collector contract.
 * Built out of tree as an author builds it, against this build staged with
 * DESTDIR: its `make check` runs --check-collector (and fails a broken
 * copy), its `make install` leaves no libtool archive, its `make uninstall`
 * nothing at all. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "registry/registry.h"
#include "testutil.h"

START_TEST(template_collector_loads_and_works)
{
    ar_registry_t *registry = tu_registry("examples/collector-template");
    const ar_module_t *module = tu_plugin(registry, "mycollector");
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
    ar_registry_free(registry);
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

/* The author's build, as a script: $BUILD staged into $WORK/stage, the
 * template's files from $SRC built in $WORK/src with autoreconf and its
 * configure, then make check, install and uninstall into $WORK/inst, a plain
 * make install (no DESTDIR: into the staged collectordir) that must not
 * print libtool's notice, and a
 * copy that names a metric outside its prefix, whose make check must fail.
 * A step that fails prints its log. */
static const char OUT_OF_TREE[] =
    "set -u\n"
    "for tool in autoreconf pkg-config; do\n"
    "  command -v $tool >/dev/null || { echo \"SKIP: no $tool\"; exit 0; }\n"
    "done\n"
    "make=${AORTA_TEST_MAKE:-make}\n"
    "step() { log=$WORK/$1.log; shift; \"$@\" >\"$log\" 2>&1 || { cat \"$log\"; exit 1; }; }\n"
    "cd \"$BUILD\" && step stage $make -s install DESTDIR=\"$WORK/stage\"\n"
    "pc=$(find \"$WORK/stage\" -name aorta.pc -path '*/pkgconfig/*' | head -1)\n"
    "export PKG_CONFIG_SYSROOT_DIR=\"$WORK/stage\" PKG_CONFIG_PATH=\"${pc%/*}\"\n"
    "mkdir \"$WORK/src\" && cd \"$WORK/src\"\n"
    "cp \"$SRC/configure.ac\" \"$SRC/Makefile.am\" \"$SRC/mycollector.c\" \"$SRC/README.md\" .\n"
    "chmod u+w ./* && mkdir -p m4\n"
    "step autoreconf autoreconf -fi\n"
    "step configure ./configure CC=\"${AORTA_TEST_CC:-cc}\" AORTA_RUN=\"$AORTA_RUN\"\n"
    "step build $make\n"
    "step check $make check\n"
    "cat \"$WORK/check.log\"\n"
    "step install $make install DESTDIR=\"$WORK/inst\"\n"
    "step plain $make install\n"
    "echo \"plain install: $(find \"$WORK/stage\" -name mycollector.so | wc -l) module(s)\"\n"
    "grep -q 'Libraries have been installed' \"$WORK/plain.log\" && echo 'libtool notice shown'\n"
    "step plain_uninstall $make uninstall\n"
    "echo \"installed: $(find \"$WORK/inst\" ! -type d | sed 's|.*/||' | sort | tr '\\n' ' ')\"\n"
    "step uninstall $make uninstall DESTDIR=\"$WORK/inst\"\n"
    "echo \"left: $(find \"$WORK/inst\" ! -type d | wc -l)\"\n"
    "sed 's/\"mycollector_files\"/\"files\"/' mycollector.c >broken.c && mv broken.c mycollector.c\n"
    "if $make check >\"$WORK/broken.log\" 2>&1; then echo 'broken: passed'; "
    "else echo 'broken: failed'; fi\n"
    "grep '^FAIL' \"$WORK/broken.log\"\n"
    "exit 0\n";

START_TEST(template_builds_installs_and_checks_out_of_tree)
{
    char *work = tu_tmpdir();
    char *build = tu_builddir(".");
    char *src = tu_srcdir("examples/collector-template");
    char *binary = tu_aorta_run();
    char *work_env = tu_join("WORK=", work), *build_env = tu_join("BUILD=", build);
    char *src_env = tu_join("SRC=", src), *run_env = tu_join("AORTA_RUN=", binary);
    char *argv[] = {"/bin/sh", "-c", (char *)OUT_OF_TREE, NULL};
    char *env[] = {work_env, build_env, src_env, run_env, "MAKEFLAGS", "MAKELEVEL", "MFLAGS",
                   NULL};
    char *out = NULL, *err = NULL;
    int status = tu_run(argv, env, &out, &err);
    ck_assert_msg(status == 0, "exit %d:\n%s%s", status, out, err);
    if (strncmp(out, "SKIP: ", 6) != 0) {
        ck_assert_msg(strstr(out, "\nok   parse: an empty directory: 2 metrics: "
                                  "mycollector_artifact_dir, mycollector_files\n"),
                      "%s", out);
        ck_assert_msg(strstr(out, "\nmycollector: 0 violations, "), "%s", out);
        ck_assert_msg(strstr(out, "\ninstalled: mycollector.so \n"), "%s", out);
        /* A plain make install (into the staged collectordir): libtool's
         * notice about linking against installed libraries is not printed,
         * a module aorta-run opens by path needs none of it. */
        ck_assert_msg(strstr(out, "\nplain install: 1 module(s)\n"), "%s", out);
        ck_assert_msg(!strstr(out, "libtool notice shown"), "%s", out);
        ck_assert_msg(strstr(out, "\nleft: 0\n"), "%s", out);
        /* The renamed metric leaves both its row and its report outside the
         * prefix: the checker fails each. */
        ck_assert_msg(strstr(out, "\nbroken: failed\nFAIL metrics: metric row 1 'files': not "
                                  "named mycollector_*"),
                      "%s", out);
        ck_assert_msg(strstr(out, "\nFAIL parse: on an empty directory it reports the metric "
                                  "'files', not prefixed by 'mycollector_'"),
                      "%s", out);
    }
    free(out);
    free(err);
    tu_rmtree(work);
    free(work_env);
    free(build_env);
    free(src_env);
    free(run_env);
    free(binary);
    free(src);
    free(build);
    free(work);
}
END_TEST

static Suite *template_suite(void)
{
    Suite *suite = suite_create("template");
    TCase *tc = tcase_create("template");
    tcase_add_test(tc, template_collector_loads_and_works);
    tcase_add_test(tc, template_collector_passes_the_self_check);
    suite_add_tcase(suite, tc);
    /* Staging, autoreconf and two builds: minutes on a loaded machine. */
    TCase *out_of_tree = tcase_create("out_of_tree");
    tcase_set_timeout(out_of_tree, 900);
    tcase_add_test(out_of_tree, template_builds_installs_and_checks_out_of_tree);
    suite_add_tcase(suite, out_of_tree);
    return suite;
}

AORTA_CHECK_MAIN(template_suite)
