/* SPDX-License-Identifier: MIT */
/* README.md's "Try it without a GPU": its commands, read from the README,
 * run as a user runs them after the build (sh -c, in a directory whose
 * core/, plugins/ and examples/ are this build's and this source tree's),
 * and what the README says they leave must be there: perf.md and
 * report.html of both runs with both cells, the small tiles' sgemm_tiled
 * about 60% above the baseline, and a comparison of both cells about 45%
 * slower at N=576; and examples/no-gpu/README.md's Proton line.  The stand-ins' noise is deterministic (seeded by the
 * place of each capture in the run), so the figures are the same on every
 * machine; the test still reads them as ranges. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweeptest.h"

#define SECTION "## Try it without a GPU\n"

static char *dir;

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
    /* the README runs from the top of an in-tree build */
    const char *links[][2] = {{"core", "b"}, {"plugins", "b"}, {"examples", "s"}};
    for (size_t i = 0; i < 3; i++) {
        char *target = links[i][1][0] == 'b' ? tu_builddir(links[i][0]) : tu_srcdir(links[i][0]);
        ck_assert_int_eq(symlink(target, links[i][0]), 0);
        free(target);
    }
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
}

/* The command lines of the first ```sh block of the section headed
 * heading (comments skipped), at most max; returns the count. */
static size_t section_commands(const char *readme, const char *heading, char **lines,
                               size_t max)
{
    const char *section = strstr(readme, heading);
    ck_assert_msg(section != NULL, "no '%.*s' section", (int)strlen(heading) - 1, heading);
    const char *block = strstr(section, "```sh\n");
    const char *next = strstr(section + strlen(heading), "\n## ");
    ck_assert_msg(block != NULL && (next == NULL || block < next), "no sh block in the section");
    size_t n = 0;
    for (const char *line = strchr(block, '\n') + 1; *line && strncmp(line, "```", 3) != 0;
         line = strchr(line, '\n') + 1) {
        const char *end = strchr(line, '\n');
        ck_assert_ptr_nonnull(end);
        if (line[0] != '#' && end > line) {
            ck_assert_uint_lt(n, max);
            lines[n++] = strndup(line, (size_t)(end - line));
        }
    }
    return n;
}

/* perf.md of a run: both cells, the small tiles' sgemm_tiled about 60%
 * above the baseline's. */
static void expect_perf(const char *run)
{
    char *path = tu_fmt("nogpu_results/%s/perf.md", run);
    char *perf = tu_read(path);
    ck_assert_msg(perf != NULL, "no %s", path);
    ck_assert_ptr_nonnull(strstr(perf, "\n| none-none (baseline) | 3      |"));
    ck_assert_ptr_nonnull(strstr(perf, "\n| small_tiles-none     | 3      |"));
    ck_assert_ptr_nonnull(strstr(perf, "### small_tiles-none — rocprof"));
    const char *small = strstr(perf, "### small_tiles-none — rocprof");
    const char *row = strstr(small, "| 1 | sgemm_tiled(");
    ck_assert_ptr_nonnull(row);
    const char *plus = strstr(row, "| +");
    plus = plus ? strstr(plus + 3, "| +") : NULL; /* Δ ms, then Δ % */
    ck_assert_msg(plus != NULL, "no growth in: %.200s", row);
    double percent = strtod(plus + 3, NULL);
    ck_assert_msg(percent > 50 && percent < 70, "small tiles: %+.1f%%", percent);
    free(perf);
    free(path);
    path = tu_fmt("nogpu_results/%s/report.html", run);
    char *html = tu_read(path);
    ck_assert_msg(html != NULL, "no %s", path);
    ck_assert_ptr_nonnull(strstr(html, "none-none"));
    ck_assert_ptr_nonnull(strstr(html, "small_tiles-none"));
    ck_assert_ptr_nonnull(strstr(html, "sgemm_tiled(float const*, float const*, float*, int)"));
    free(html);
    free(path);
}

START_TEST(the_no_gpu_section_runs_as_written)
{
    char *path = tu_srcdir("README.md");
    char *readme = tu_read(path);
    ck_assert_ptr_nonnull(readme);
    char *lines[8];
    size_t n = section_commands(readme, SECTION, lines, 8);
    ck_assert_uint_eq(n, 3);
    /* The stand-ins' own variables are the README's, not this shell's. */
    char *env[] = {"AORTA_FAKE_KERNELS", "AORTA_FAKE_SEED", "AORTA_FAKE_KERNEL_PIPE",
                   "ROCPROF_BIN", "GEMM_TILE", NULL};
    char *out[8] = {NULL}, *err[8] = {NULL};
    for (size_t i = 0; i < n; i++) {
        char *argv[] = {"/bin/sh", "-c", lines[i], NULL};
        int status = tu_run(argv, env, &out[i], &err[i]);
        /* The sweeps pass; the comparison's gate fails on their regression. */
        int expected = i == 2 ? 3 : 0;
        ck_assert_msg(status == expected, "'%s' exited %d:\n%s%s", lines[i], status, out[i],
                      err[i]);
    }
    /* the two sweeps, as their summaries say */
    ck_assert_ptr_nonnull(strstr(out[0], "Sweep summary: all 2 cell(s) passed.\n"));
    ck_assert_ptr_nonnull(strstr(out[0], "Wrote run artifacts to nogpu_results/before\n"));
    ck_assert_ptr_nonnull(strstr(out[1], "Wrote run artifacts to nogpu_results/after\n"));
    expect_perf("before");
    expect_perf("after");
    /* the comparison: both cells, each about 45% slower, regressed at three
     * trials a side, the command's difference shown */
    const char *compare = out[2];
    ck_assert_ptr_nonnull(strstr(compare, "Comparing nogpu_results/before -> nogpu_results/after ("));
    const char *cells[] = {"\nnone-none\n", "\nsmall_tiles-none\n"};
    for (size_t i = 0; i < 2; i++) {
        const char *cell = strstr(compare, cells[i]);
        ck_assert_msg(cell != NULL, "no '%s' in:\n%s", cells[i] + 1, compare);
        const char *gpu = strstr(cell, "  rocprof GPU time: ");
        ck_assert_ptr_nonnull(gpu);
        char *line = strndup(gpu, (size_t)(strchr(gpu, '\n') - gpu));
        const char *percent = strstr(line, " ms  regressed +");
        ck_assert_msg(percent != NULL, "no regression in '%s'", line);
        double growth = strtod(percent + 15, NULL);
        ck_assert_msg(growth > 35 && growth < 55, "'%s': %+.1f%%", line, growth);
        ck_assert_ptr_nonnull(strstr(line, "(n 3 vs 3)"));
        free(line);
    }
    ck_assert_ptr_nonnull(strstr(compare, "  command: A [\"examples/no-gpu/gemm\",\"512\"], B "));
    ck_assert_ptr_nonnull(strstr(compare, "Gate FAILED:\n  cell none-none: rocprof GPU time "
                                          "regressed +"));
    ck_assert_ptr_nonnull(strstr(compare, "sgemm_tiled(float const*, float const*, float*, int)"));
    for (size_t i = 0; i < n; i++) {
        free(lines[i]);
        free(out[i]);
        free(err[i]);
    }
    free(readme);
    free(path);
}
END_TEST

START_TEST(the_proton_try_runs_as_written)
{
    /* examples/no-gpu/README.md, "Proton the same way": the python3
     * stand-in leaves the real vecadd profile in each trial */
    char *path = tu_srcdir("examples/no-gpu/README.md");
    char *text = tu_read(path);
    ck_assert_ptr_nonnull(text);
    char *lines[4];
    ck_assert_uint_eq(section_commands(text, "## Proton the same way\n", lines, 4), 1);
    char *env[] = {"AORTA_FAKE_KERNELS", "AORTA_STANDIN_HATCHET", "AORTA_PROTON_PYTHON", NULL};
    char *argv[] = {"/bin/sh", "-c", lines[0], NULL};
    char *out = NULL, *err = NULL;
    ck_assert_msg(tu_run(argv, env, &out, &err) == 0, "%s\n%s", out, err);
    ck_assert_ptr_nonnull(strstr(out, "Sweep summary: all 1 cell(s) passed.\n"));
    char *perf = tu_read("nogpu_results/proton/perf.md");
    ck_assert_ptr_nonnull(perf);
    ck_assert_ptr_nonnull(strstr(perf, "### none-none (baseline) — proton"));
    ck_assert_ptr_nonnull(strstr(perf, "over 3 passing trial(s), 5 kernel(s)."));
    ck_assert_ptr_nonnull(strstr(perf, "| 1 | add_kernel "));
    free(perf);
    free(out);
    free(err);
    free(lines[0]);
    free(text);
    free(path);
}
END_TEST

START_TEST(the_pretend_gemm_says_what_is_wrong)
{
    char *gemm = tu_srcdir("examples/no-gpu/gemm");
    char *unset[] = {"AORTA_FAKE_KERNEL_FD", "GEMM_TILE", NULL};
    char *out = NULL, *err = NULL;
    /* alone, without the stand-in: it runs, and says nothing was recorded */
    char *alone[] = {gemm, "64", "2", NULL};
    ck_assert_int_eq(tu_run(alone, unset, &out, &err), 0);
    ck_assert_str_eq(out, "gemm: N=64, 2 iterations, tile 16: PASS\n");
    ck_assert_ptr_nonnull(strstr(err, "no profiler stand-in is listening"));
    free(out);
    free(err);
    char *small[] = {gemm, "8", NULL};
    ck_assert_int_eq(tu_run(small, unset, &out, &err), 2);
    ck_assert_str_eq(err, "usage: gemm [N] [ITERATIONS]  (N from 16 to 8192, ITERATIONS from 1 "
                          "to 100000)\n");
    free(out);
    free(err);
    char *tile[] = {"GEMM_TILE=12", NULL};
    ck_assert_int_eq(tu_run(alone, tile, &out, &err), 2);
    ck_assert_str_eq(err, "gemm: GEMM_TILE='12' is not 8, 16 or 32\n");
    free(out);
    free(err);
    free(gemm);
}
END_TEST

static Suite *nogpu_suite(void)
{
    Suite *suite = suite_create("nogpu");
    TCase *tc = tcase_create("readme");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, the_no_gpu_section_runs_as_written);
    tcase_add_test(tc, the_proton_try_runs_as_written);
    tcase_add_test(tc, the_pretend_gemm_says_what_is_wrong);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(nogpu_suite)
