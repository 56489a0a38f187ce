/* SPDX-License-Identifier: MIT */
/* --history FILE end to end under the stand-in rocprofv3: a complete run
 * appends one record per (cell, collector, measure, kernel) with n, the
 * mean and variance of the log values, mean, median, min and max; --import
 * adds existing runs once; two writers at once lose nothing; --list shows
 * the runs, their labels and the blessed one; a file that is no history
 * (garbage, another program's SQLite, a newer schema, empty, a directory)
 * is one line and exit 2; records cannot be rewritten. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweeptest.h"
#include "testutil.h"

static char *dir, *path_env;

static void setup(void)
{
    char *tmp = tu_tmpdir();
    ck_assert_int_eq(chdir(tmp), 0);
    free(tmp);
    dir = tu_cwd();
    char *source = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    char *text = tu_read(source);
    char *standin = tu_join(dir, "bin/rocprofv3");
    tu_write_mode(standin, text, 0755);
    free(standin);
    free(text);
    free(source);
    const char *path = getenv("PATH");
    path_env = tu_fmt("PATH=%s/bin:%s", dir, path ? path : "/usr/bin:/bin");
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(path_env);
}

/* A run N/ticket of three trials; extra: options before "--" (up to 6). */
static tu_result_t run(const char *ticket, const char *const *extra)
{
    char *recipe = tu_fmt("schema_version: 1\nmode: probe\nticket: %s\ntrials: 3\n"
                          "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                          "retain: {on_pass: none}\n"
                          "collect: {rocprof: {trace: \"kernel\"}}\n",
                          ticket);
    tu_write("r.yaml", recipe);
    char *env[] = {path_env, "AORTA_FAKE_KERNELS=20:100000~3:k1\n20:300000~3:k3\n",
                   "ROCPROF_BIN", NULL};
    char *args[20];
    size_t n = 0;
    const char *head[] = {"--recipe", "r.yaml", "--output", "N", "-q"};
    for (size_t i = 0; i < 5; i++)
        args[n++] = (char *)head[i];
    for (size_t i = 0; extra && extra[i] && i < 6; i++)
        args[n++] = (char *)extra[i];
    const char *tail[] = {"--", "/bin/sh", "-c", "exit 0"};
    for (size_t i = 0; i < 4; i++)
        args[n++] = (char *)tail[i];
    args[n] = NULL;
    tu_result_t r = tu_aorta_v(env, args);
    free(recipe);
    return r;
}

/* The first row of sql on the store h.db, as text (or NULL). */
static char *query(const char *sql)
{
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open_v2("h.db", &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st = NULL;
    ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK, "%s",
                  sqlite3_errmsg(db));
    char *value = NULL;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        value = strdup((const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return value;
}

static double query_double(const char *sql)
{
    char *text = query(sql);
    ck_assert_ptr_nonnull(text);
    double value = strtod(text, NULL);
    free(text);
    return value;
}

static int one_line(const char *text)
{
    const char *nl = strchr(text, '\n');
    return nl && !nl[1];
}

START_TEST(a_complete_run_appends_its_records_once)
{
    const char *extra[] = {"--history", "h.db", "--label", "abc123", "--bless", NULL};
    tu_result_t r = run("A", extra);
    ck_assert_msg(r.status == 0, "%s", r.err);
    tu_result_free(&r);
    /* The cell's GPU time: n, and the log moments of the trials' values. */
    const char *gpu = "FROM records WHERE collector = 'rocprof' AND measure = 'gpu_time_ms'";
    char *sql = tu_fmt("SELECT n %s", gpu);
    ck_assert_int_eq((int)query_double(sql), 3);
    free(sql);
    sql = tu_fmt("SELECT mean %s", gpu);
    double mean = query_double(sql);
    free(sql);
    json_object *cell = tu_json("N/A/none-none/kernels.json");
    double expect = json_object_get_double(tu_at(cell, "collectors", "rocprof", "gpu_time_ms",
                                                 "mean", NULL));
    double low = json_object_get_double(tu_at(cell, "collectors", "rocprof", "gpu_time_ms",
                                              "min", NULL));
    double high = json_object_get_double(tu_at(cell, "collectors", "rocprof", "gpu_time_ms",
                                               "max", NULL));
    json_object_put(cell);
    ck_assert_msg(fabs(mean - expect) < 1e-6 * expect, "%g vs %g", mean, expect);
    sql = tu_fmt("SELECT exp(mean_log) %s", gpu);
    char *text = query(sql);
    free(sql);
    if (text) { /* SQLite without its math functions answers NULL */
        double geo = strtod(text, NULL);
        ck_assert(geo >= low - 1e-9 && geo <= high + 1e-9);
        free(text);
    }
    text = query("SELECT (min <= median AND median <= max) || ' ' || (var_log >= 0) || ' ' "
                 "|| label FROM records JOIN runs ON runs.id = run_id WHERE collector = "
                 "'rocprof' AND measure = 'gpu_time_ms'");
    ck_assert_str_eq(text, "1 1 abc123");
    free(text);
    /* Each kernel has its record. */
    ck_assert_int_eq((int)query_double("SELECT count(*) FROM records WHERE kernel = 'k3'"), 1);
    /* Imported again: stored already, nothing added. */
    r = tu_aorta(NULL, "--history", "h.db", "--import", "N/A", NULL);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.err, "stored already"));
    tu_result_free(&r);
    ck_assert_int_eq((int)query_double("SELECT count(*) FROM runs"), 1);
    /* --list: the label, blessed. */
    r = tu_aorta(NULL, "--history", "h.db", "--list", NULL);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "abc123"));
    ck_assert_ptr_nonnull(strstr(r.out, " yes "));
    tu_result_free(&r);
    /* Append-only: a record cannot be rewritten or deleted. */
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open("h.db", &db), SQLITE_OK);
    ck_assert_int_ne(sqlite3_exec(db, "UPDATE records SET n = 9", NULL, NULL, NULL), SQLITE_OK);
    ck_assert_int_ne(sqlite3_exec(db, "DELETE FROM runs", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    /* Nothing beside the store once done (no journal left). */
    ck_assert(!tu_exists("h.db-journal"));
    ck_assert(!tu_exists("h.db-wal"));
}
END_TEST

START_TEST(two_writers_at_once_lose_nothing)
{
    const char *tickets[] = {"A", "B", "C", "D", "E", "F"};
    for (size_t i = 0; i < 6; i++) {
        tu_result_t r = run(tickets[i], NULL);
        ck_assert_msg(r.status == 0, "%s", r.err);
        tu_result_free(&r);
    }
    pid_t pids[2];
    for (int w = 0; w < 2; w++) {
        pids[w] = fork();
        ck_assert_int_ge(pids[w], 0);
        if (pids[w] == 0) {
            tu_result_t r = w ? tu_aorta(NULL, "--history", "h.db", "--import", "N/A", "N/B",
                                         "N/C", NULL)
                              : tu_aorta(NULL, "--history", "h.db", "--import", "N/D", "N/E",
                                         "N/F", NULL);
            _exit(r.status);
        }
    }
    for (int w = 0; w < 2; w++) {
        int status = 0;
        ck_assert_int_eq(waitpid(pids[w], &status, 0), pids[w]);
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    ck_assert_int_eq((int)query_double("SELECT count(*) FROM runs"), 6);
    tu_result_t r = tu_aorta(NULL, "--history", "h.db", "--list", NULL);
    for (size_t i = 0; i < 6; i++) {
        char *name = tu_fmt("/N/%s\n", tickets[i]);
        ck_assert_msg(strstr(r.out, name), "%s missing:\n%s", name, r.out);
        free(name);
    }
    tu_result_free(&r);
}
END_TEST

/* aorta-run --history FILE --list: exit 2, one line naming want. */
static void refused(const char *file, const char *want)
{
    tu_result_t r = tu_aorta(NULL, "--history", file, "--list", NULL);
    ck_assert_msg(r.status == 2, "%s: %d %s", file, r.status, r.err);
    ck_assert_msg(one_line(r.err) && strstr(r.err, want), "%s: %s", file, r.err);
    tu_result_free(&r);
}

START_TEST(a_file_that_is_no_history_is_one_line)
{
    tu_write("garbage.db", "this is not a database\n");
    refused("garbage.db", "not a history file (not an SQLite database");
    sqlite3 *db = NULL;
    ck_assert_int_eq(sqlite3_open("foreign.db", &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    refused("foreign.db", "an SQLite database of another program");
    tu_result_t r = run("A", (const char *const[]){"--history", "h.db", NULL});
    ck_assert_int_eq(r.status, 0);
    tu_result_free(&r);
    ck_assert_int_eq(sqlite3_open("h.db", &db), SQLITE_OK);
    ck_assert_int_eq(sqlite3_exec(db, "UPDATE meta SET value = '7' WHERE key = "
                                      "'schema_version'", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    refused("h.db", "written by a newer aorta-run (schema 7");
    /* A run refuses it before any trial. */
    r = run("B", (const char *const[]){"--history", "h.db", NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert(!tu_exists("N/B"));
    tu_result_free(&r);
    tu_write("empty.db", "");
    refused("empty.db", "an empty file, not a history");
    refused("N", "not a regular file");
    refused("missing.db", "No such file or directory");
    ck_assert(!tu_exists("missing.db"));
    /* The options of the store need it, and a mode of their own. */
    r = tu_aorta(NULL, "--list", NULL);
    ck_assert_int_eq(r.status, 2);
    tu_result_free(&r);
    r = tu_aorta(NULL, "--history", "x.db", NULL);
    ck_assert_int_eq(r.status, 2);
    ck_assert(!tu_exists("x.db"));
    tu_result_free(&r);
    r = tu_aorta(NULL, "--history", "x.db", "--list", "--", "true", NULL);
    ck_assert_int_eq(r.status, 2);
    tu_result_free(&r);
}
END_TEST

START_TEST(an_unfinished_run_records_nothing_and_bless_names_a_label)
{
    char *env[] = {path_env, NULL};
    tu_result_t r = tu_aorta(env, "--output", "N", "--ticket", "X", "-q", "--history", "h.db",
                             "--", "/no/such/command", NULL);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "nothing recorded"));
    tu_result_free(&r);
    ck_assert_int_eq((int)query_double("SELECT count(*) FROM runs"), 0);
    r = run("A", (const char *const[]){"--history", "h.db", "--label", "v1", NULL});
    tu_result_free(&r);
    r = tu_aorta(NULL, "--history", "h.db", "--bless", "v2", NULL);
    ck_assert_int_eq(r.status, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "no run labelled 'v2'"));
    tu_result_free(&r);
    r = tu_aorta(NULL, "--history", "h.db", "--bless", "v1", "--list", NULL);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, " yes "));
    tu_result_free(&r);
    ck_assert_int_eq((int)query_double("SELECT count(*) FROM blessings"), 1);
}
END_TEST

static Suite *history_suite(void)
{
    Suite *suite = suite_create("rocprof_history");
    TCase *tc = tcase_create("history");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, a_complete_run_appends_its_records_once);
    tcase_add_test(tc, two_writers_at_once_lose_nothing);
    tcase_add_test(tc, a_file_that_is_no_history_is_one_line);
    tcase_add_test(tc, an_unfinished_run_records_nothing_and_bless_names_a_label);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(history_suite)
