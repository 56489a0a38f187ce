/* SPDX-License-Identifier: MIT */
/* The fourth reliability probe's failures (docs/design.md, Reliability),
 * each run through aorta-run for real: records a payload overwrote, run
 * directories whose matrix.json lies, a rank view the tables no longer
 * hold, ranks that outlive their run. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweeputil.h"
#include "xalloc.h"

static char *dir;

static void setup(void)
{
    dir = tu_tmpdir();
    ck_assert_int_eq(chdir(dir), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
}

static size_t error_lines(const char *err)
{
    return tu_count(err, "aorta-run: ") - tu_count(err, "aorta-run: warning: ");
}

/* ------------------------------------------------------------------------ */
/* A trial JSON without the keys a record needs                              */
/* ------------------------------------------------------------------------ */

#define EMPTIED "out/T/none-none/_subprocess/trial_d0_m0_t0.json"
#define NOT_A_RECORD "none-none/_subprocess/trial_d0_m0_t0.json: not a trial record"

/* Trial 1's payload writes {} over trial 0's record (the probe's attack):
 * the report phase, --report and --compare each read it as an error trial
 * with one warning, write their reports and leave no lock. */
START_TEST(a_trial_json_of_braces_is_an_error_record_never_a_crash)
{
    char *args[] = {"--output", "out", "--ticket", "T", "--trials", "3", "--", "sh", "-c",
                    "f=" EMPTIED "; [ -f $f ] && printf '{}' > $f; exit 0", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    ck_assert_msg(tu_count(err, NOT_A_RECORD) == 1, "%s", err);
    ck_assert_uint_eq(error_lines(err), 0);
    ck_assert(tu_exists("out/T/perf.md"));
    ck_assert(tu_exists("out/T/report.html"));
    ck_assert(!tu_exists("out/T/.aorta-run.lock"));
    char *text = tu_read(EMPTIED);
    ck_assert_str_eq(text, "{}");
    free(text);
    free(out);
    free(err);

    /* Missing keys, not only none: an exit_status without a result. */
    tu_write("out/T/none-none/_subprocess/trial_d0_m0_t1.json", "{\"exit_status\": \"ok\"}");
    char *report[] = {"--report", "out/T", NULL};
    ck_assert_int_eq(su_aorta(NULL, report, &out, &err), 0);
    ck_assert_msg(tu_count(err, NOT_A_RECORD) == 1, "%s", err);
    ck_assert_msg(tu_count(err, "trial_d0_m0_t1.json: not a trial record") == 1, "%s", err);
    ck_assert_uint_eq(error_lines(err), 0);
    ck_assert(!tu_exists("out/T/.aorta-run.lock"));
    free(out);
    free(err);

    char *compare[] = {"--compare", "out/T", "out/T", NULL};
    su_aorta(NULL, compare, &out, &err);
    ck_assert_msg(tu_count(err, "out/T/" NOT_A_RECORD) == 2, "%s", err);
    ck_assert_msg(strstr(out, "none-none") != NULL, "%s", out);
    free(out);
    free(err);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* matrix.json's cells, read back                                            */
/* ------------------------------------------------------------------------ */

/* matrix.json with its cells as given (a JSON array's members). */
static void plant_cells(const char *run, const char *cells)
{
    char *path = tu_join(run, "matrix.json");
    ar_json_t *matrix = su_json(run, "matrix.json");
    ar_json_t *array = ar_json_parse(cells, strlen(cells), 16);
    ck_assert_ptr_nonnull(array);
    ar_json_set(matrix, "cells", array);
    char *text = ar_json_dump(matrix, 1);
    tu_write(path, text);
    free(text);
    ar_json_free(matrix);
    free(path);
}

/* One cell listed 1,000 times joined the comparison's family 1,000 times
 * and turned a clear regression inconclusive; a name with a '/' reaches
 * another cell's records.  --compare and --report refuse both, one line,
 * exit 1, naming the file and the cell. */
START_TEST(a_matrix_json_that_repeats_a_cell_is_refused_with_one_line)
{
    char *args[] = {"--output", "out", "--ticket", "A", "--trials", "1", "--", "true", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    free(out);
    free(err);
    ar_json_t *matrix = su_json("out/A", "matrix.json");
    char *cell = ar_json_dump(su_at(matrix, "cells", "0", NULL), 0);
    ar_json_free(matrix);
    tu_text_t cells = {0};
    tu_text_add(&cells, "[");
    for (int i = 0; i < 1000; i++)
        tu_text_add(&cells, "%s%s", i ? ", " : "", cell);
    tu_text_add(&cells, "]");
    ck_assert_int_eq(system("cp -r out/A out/B"), 0);
    plant_cells("out/B", cells.data);
    free(cells.data);

    char *compare[] = {"--compare", "out/A", "out/B", NULL};
    ck_assert_int_eq(su_aorta(NULL, compare, &out, &err), 1);
    ck_assert_msg(strstr(err, "aorta-run: out/B is not a run directory: out/B/matrix.json: cell "
                              "'none-none' is listed twice (entries 1 and 2)"),
                  "%s", err);
    ck_assert_uint_eq(tu_count(err, "\n"), 1);
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
    char *report[] = {"--report", "out/B", NULL};
    ck_assert_int_eq(su_aorta(NULL, report, &out, &err), 1);
    ck_assert_msg(strstr(err, "out/B/matrix.json: cell 'none-none' is listed twice"), "%s", err);
    ck_assert_uint_eq(tu_count(err, "\n"), 1);
    free(out);
    free(err);

    /* Another cell's records reached by a path. */
    plant_cells("out/B", "[{\"name\": \"none-none\", \"trials\": 1},"
                         " {\"name\": \"./none-none\", \"trials\": 1}]");
    ck_assert_int_eq(su_aorta(NULL, compare, &out, &err), 1);
    ck_assert_msg(strstr(err, "out/B/matrix.json: cell 2 is named './none-none', a path, not a "
                              "cell"), "%s", err);
    ck_assert_uint_eq(tu_count(err, "\n"), 1);
    free(out);
    free(err);
    free(cell);
}
END_TEST

/* --report rebuilds matrix.json's rank views from the tables it reads: a
 * "ranks" the tables do not give (a stale one, or one planted) is dropped,
 * so matrix.json never shows a straggler that perf.md and report.html do
 * not. */
START_TEST(report_drops_a_rank_view_the_tables_do_not_give)
{
    char *args[] = {"--output", "out", "--ticket", "R", "--trials", "1", "--", "true", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    free(out);
    free(err);
    plant_cells("out/R", "[{\"name\": \"none-none\", \"trials\": 1, \"passed\": 1,"
                         " \"ranks\": {\"rocprof\": {\"straggler\": {\"rank\": 3}}}}]");
    char *report[] = {"--report", "out/R", NULL};
    ck_assert_int_eq(su_aorta(NULL, report, &out, &err), 0);
    ar_json_t *matrix = su_json("out/R", "matrix.json");
    ck_assert_ptr_null(su_at(matrix, "cells", "0", "ranks", NULL));
    ck_assert_str_eq(su_str(matrix, "cells", "0", "name", NULL), "none-none");
    ar_json_free(matrix);
    free(out);
    free(err);
}
END_TEST

/* ------------------------------------------------------------------------ */

static Suite *probe4_suite(void)
{
    Suite *suite = suite_create("probe round four");
    TCase *tc = tcase_create("probe4");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_trial_json_of_braces_is_an_error_record_never_a_crash);
    tcase_add_test(tc, a_matrix_json_that_repeats_a_cell_is_refused_with_one_line);
    tcase_add_test(tc, report_drops_a_rank_view_the_tables_do_not_give);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(probe4_suite)
