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
/* What a run started outlives it                                            */
/* ------------------------------------------------------------------------ */

static int alive(pid_t pid)
{
    return kill(pid, 0) == 0;
}

static pid_t pid_in(const char *path)
{
    char *text = tu_read(path);
    ck_assert_ptr_nonnull(text);
    pid_t pid = (pid_t)atol(text);
    free(text);
    return pid;
}

/* A launcher that starts two ranks and closes every descriptor past
 * stderr in them, as mpirun's daemons and torchrun (subprocess, close_fds)
 * do: what a rank holds, it took itself. */
static void write_launcher_recipe(void)
{
    tu_write("launch.py", "import os, subprocess, sys\n"
                          "procs = [subprocess.Popen(sys.argv[1:], env=dict(os.environ, "
                          "RANK=str(r))) for r in range(2)]\n"
                          "sys.exit(max(p.wait() for p in procs))\n");
    char *wrapper = tu_srcdir("tests/fake-collectors/scribe-wrapper");
    char *recipe = ar_xasprintf("schema_version: 1\nmode: probe\ntrials: 1\n"
                                "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                "collect:\n  scribe: {wrapper: \"%s\"}\n"
                                "launcher: [python3, launch.py]\n",
                                wrapper);
    tu_write("recipe.yaml", recipe);
    free(recipe);
    free(wrapper);
}

/* kill -9 of aorta-run during a launcher trial: the launcher dies with it,
 * its ranks do not (they are the launcher's children).  A run started at
 * once in the same directory is refused, one line, exit 1, while a rank
 * lives; once they are gone it resumes. */
START_TEST(a_run_directory_still_written_by_ranks_of_a_killed_run_is_refused)
{
    char *python = tu_which("python3");
    if (!python)
        return; /* the launcher stand-in needs it */
    free(python);
    write_launcher_recipe();
    char *plugins = tu_builddir("tests/fake-collectors");
    char *args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--output", "out",
                    "--ticket", "K", "--", "sh", "-c", "echo $$ > rank$RANK.pid; exec sleep 60",
                    NULL};
    pid_t pid = su_aorta_start(NULL, args, "out.txt", "err.txt");
    ck_assert(su_wait_for("rank0.pid", 30) && su_wait_for("rank1.pid", 30));
    usleep(100000); /* the pid file is written before the write is complete */
    pid_t ranks[2] = {pid_in("rank0.pid"), pid_in("rank1.pid")};
    kill(pid, SIGKILL);
    tu_wait(pid);
    usleep(300000); /* the launcher's death signal */
    ck_assert(alive(ranks[0]) && alive(ranks[1])); /* what the probe found */

    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 1);
    ck_assert_msg(strstr(err, "aorta-run: the run directory is still held by a process of a run "
                              "that is gone (aorta-run pid "),
                  "%s", err);
    ck_assert_uint_eq(tu_count(err, "\n"), 1);
    free(out);
    free(err);
    kill(ranks[0], SIGKILL);
    kill(ranks[1], SIGKILL);
    for (int i = 0; i < 200 && (alive(ranks[0]) || alive(ranks[1])); i++)
        usleep(10000);
    /* They are gone (and reaped by init): the directory is free. */
    char *quick[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--output", "out",
                     "--ticket", "K", "--", "true", NULL};
    ck_assert_int_eq(su_aorta(NULL, quick, &out, &err), 0);
    ck_assert_msg(strstr(err, "taking over the stale lock"), "%s", err);
    free(out);
    free(err);
    free(plugins);
}
END_TEST

/* A payload that deletes the run's lock file does not let a second
 * aorta-run into the directory: the directory itself stays held. */
START_TEST(a_payload_that_deletes_the_lock_lets_no_second_run_in)
{
    char *args[] = {"--output", "out", "--ticket", "L", "--", "sh", "-c",
                    "rm -f out/L/.aorta-run.lock; touch gone; exec sleep 30", NULL};
    pid_t pid = su_aorta_start(NULL, args, "out.txt", "err.txt");
    ck_assert(su_wait_for("gone", 30));
    ck_assert(!tu_exists("out/L/.aorta-run.lock"));
    char *second[] = {"--output", "out", "--ticket", "L", "--", "true", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, second, &out, &err), 1);
    ck_assert_msg(strstr(err, "aorta-run: the run directory is held by another process and its "
                              "lock file is gone or unreadable"),
                  "%s", err);
    ck_assert_uint_eq(tu_count(err, "\n"), 1);
    ck_assert(!tu_exists("out/L/.aorta-run.lock")); /* it wrote nothing */
    free(out);
    free(err);
    kill(pid, SIGTERM);
    tu_wait(pid);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* A rank list too long for one argument                                     */
/* ------------------------------------------------------------------------ */

/* 32,768 ranks, every other one: legal, but 190 KB written out, and
 * aorta-rank-exec takes the list as one argument (at most 128 KiB): every
 * trial failed with "Argument list too long".  Refused at load now, the
 * run and --dry-run alike, naming the list and the limit. */
START_TEST(a_rank_list_too_long_for_one_argument_is_refused_at_load)
{
    /* In the recipe: on aorta-run's own command line it would not fit
     * either. */
    tu_text_t recipe = {0};
    tu_text_add(&recipe, "schema_version: 1\nmode: probe\ntrials: 1\n"
                         "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                         "collect:\n  scribe: {wrapper: /bin/true}\n"
                         "launcher: [env]\nranks: [");
    for (long r = 0; r < 65536; r += 2)
        tu_text_add(&recipe, "%s%ld", r ? ", " : "", r);
    tu_text_add(&recipe, "]\n");
    tu_write("recipe.yaml", recipe.data);
    free(recipe.data);
    char *plugins = tu_builddir("tests/fake-collectors");
    for (int dry = 0; dry < 2; dry++) {
        char *args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--output", "out",
                        dry ? "--dry-run" : "--", dry ? "--" : "true", dry ? "true" : NULL,
                        NULL};
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 2);
        ck_assert_msg(strstr(err, "aorta-run: ranks: the list of 32768 ranks takes 191052 "
                                  "bytes written out, past the 131071 bytes one argument may "
                                  "hold"),
                      "%s", err);
        ck_assert_uint_eq(tu_count(err, "\n"), 1);
        ck_assert_str_eq(out, "");
        free(out);
        free(err);
    }
    ck_assert(!tu_exists("out"));
    /* The same number of ranks as one range fits. */
    char *args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--output", "out",
                    "--ranks", "0-32767", "--dry-run", "--", "true", NULL};
    char *out = NULL, *err = NULL;
    su_aorta(NULL, args, &out, &err); /* (the stand-in's wrap wants its directory) */
    ck_assert_ptr_null(strstr(err, "one argument may hold"));
    ck_assert_ptr_nonnull(strstr(out, "\"ranks_profiled\":\"0-32767\""));
    free(out);
    free(err);
    free(plugins);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* SIGHUP                                                                    */
/* ------------------------------------------------------------------------ */

/* The terminal closing (SIGHUP) ended aorta-run at once, with no
 * matrix.json and the lock left behind.  It is taken as SIGTERM: the trial
 * is recorded as interrupted, matrix.json written, the lock gone, 143. */
START_TEST(sighup_is_taken_as_sigterm)
{
    char *args[] = {"--output", "out", "--ticket", "H", "--", "sh", "-c",
                    "touch started; exec sleep 30", NULL};
    pid_t pid = su_aorta_start(NULL, args, "out.txt", "err.txt");
    ck_assert(su_wait_for("started", 30));
    kill(pid, SIGHUP);
    ck_assert_int_eq(tu_wait(pid), 143);
    char *out = tu_read("out.txt");
    ck_assert_msg(strstr(out, "Sweep interrupted by SIGTERM"), "%s", out);
    free(out);
    ck_assert(tu_exists("out/H/matrix.json"));
    ck_assert(!tu_exists("out/H/.aorta-run.lock"));
    ck_assert(tu_exists("out/H/none-none/_subprocess/trial_d0_m0_t0.json"));
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
    tcase_add_test(tc, a_run_directory_still_written_by_ranks_of_a_killed_run_is_refused);
    tcase_add_test(tc, a_payload_that_deletes_the_lock_lets_no_second_run_in);
    tcase_add_test(tc, a_rank_list_too_long_for_one_argument_is_refused_at_load);
    tcase_add_test(tc, sighup_is_taken_as_sigterm);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(probe4_suite)
