/* SPDX-License-Identifier: MIT */
/* The order of a sweep's trials (sweep/order.c, sweep/rounds.c): rounds by
 * default, each a seeded permutation of the cells; sequential and random;
 * --order over the recipe's order:, matrix.json's record of it, each trial
 * JSON's round; and a run killed in the middle of round 3 that resumes to
 * the same records, in the same order, as a run never killed. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep/order.h"
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

/* A plan of 6 cells and 5 trials (nothing runs it). */
static ar_plan_t *six_by_five(ar_order_t order, uint64_t seed)
{
    ar_plan_t *plan = su_plan("unused", (char *[]){"true", NULL});
    static const char *const names[] = {"a", "b", "c", "d", "e"};
    for (size_t i = 0; i < 5; i++)
        su_plan_cell(plan, names[i], "none", NULL);
    plan->trials = 5;
    plan->order = order;
    plan->order_seed = seed;
    return plan;
}

START_TEST(each_round_runs_every_cell_once_in_an_order_of_its_own)
{
    ar_plan_t *plan = six_by_five(AR_ORDER_INTERLEAVED, 12345);
    size_t count = 0;
    ar_slot_t *slots = ar_order_sequence(plan, &count);
    ck_assert_uint_eq(count, 30);
    size_t distinct_orders = 0;
    for (long r = 0; r < 5; r++) {
        int seen[6] = {0};
        for (size_t k = 0; k < 6; k++) {
            ck_assert_int_eq(slots[r * 6 + k].trial, r);
            seen[slots[r * 6 + k].cell]++;
        }
        for (size_t c = 0; c < 6; c++)
            ck_assert_int_eq(seen[c], 1);
        /* a round unlike the one before it */
        distinct_orders += r > 0 && memcmp(&slots[r * 6], &slots[(r - 1) * 6],
                                           6 * sizeof *slots) != 0;
    }
    ck_assert_uint_ge(distinct_orders, 3);
    /* One seed, one order; another seed, another. */
    size_t again_count = 0;
    ar_slot_t *again = ar_order_sequence(plan, &again_count);
    ck_assert_int_eq(memcmp(slots, again, count * sizeof *slots), 0);
    free(again);
    plan->order_seed = 54321;
    again = ar_order_sequence(plan, &again_count);
    ck_assert_int_ne(memcmp(slots, again, count * sizeof *slots), 0);
    free(again);
    free(slots);
    ar_plan_free(plan);
}
END_TEST

START_TEST(sequential_runs_cell_by_cell_and_random_keeps_each_cells_trials_in_order)
{
    ar_plan_t *plan = six_by_five(AR_ORDER_SEQUENTIAL, 7);
    size_t count = 0;
    ar_slot_t *slots = ar_order_sequence(plan, &count);
    for (size_t i = 0; i < count; i++) {
        ck_assert_uint_eq(slots[i].cell, i / 5);
        ck_assert_int_eq(slots[i].trial, (long)(i % 5));
    }
    free(slots);
    plan->order = AR_ORDER_RANDOM;
    slots = ar_order_sequence(plan, &count);
    ck_assert_uint_eq(count, 30);
    long next[6] = {0};
    size_t cell_changes = 0;
    for (size_t i = 0; i < count; i++) {
        ck_assert_int_eq(slots[i].trial, next[slots[i].cell]++);
        cell_changes += i && slots[i].cell != slots[i - 1].cell;
    }
    for (size_t c = 0; c < 6; c++)
        ck_assert_int_eq(next[c], 5);
    ck_assert_uint_gt(cell_changes, 10); /* not cell by cell */
    free(slots);
    ar_plan_free(plan);
}
END_TEST

static void write_recipe(const char *path, const char *ticket, long trials, long warmup,
                         const char *order)
{
    char *text = ar_xasprintf("schema_version: 1\nmode: probe\nticket: %s\ntrials: %ld\n"
                              "warmup_trials: %ld\n%s%s%s"
                              "mitigation_axis: [none, a, b]\ndiagnostic_axis: [none]\n"
                              "mitigations:\n  a: {X: \"a\"}\n  b: {X: \"b\"}\n",
                              ticket, trials, warmup, order ? "order: " : "",
                              order ? order : "", order ? "\n" : "");
    tu_write(path, text);
    free(text);
}

/* The cell names of matrix.json's order.sequence, and its mode. */
static char *sequence_of(const char *run, char **mode)
{
    ar_json_t *matrix = su_json(run, "matrix.json");
    ar_json_t *sequence = su_at(matrix, "order", "sequence", NULL);
    tu_text_t text = {0};
    for (size_t i = 0; i < ar_json_length(sequence); i++) {
        const char *cell = ar_json_get_string(ar_json_at(ar_json_at(sequence, i), 0));
        /* the command below logs X, empty in none-none */
        tu_text_add(&text, "%s\n", !strcmp(cell, "none-none") ? "" : cell[0] == 'a' ? "a" : "b");
    }
    *mode = ar_xstrdup(su_str(matrix, "order", "mode", NULL));
    ar_json_free(matrix);
    return text.data ? text.data : ar_xstrdup("");
}

#define LOG_X "echo \"$X\" >> \"$0\""

START_TEST(a_sweep_runs_in_the_order_matrix_json_records)
{
    write_recipe("r.yaml", "R", 4, 0, NULL);
    char *log = tu_join(dir, "log");
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--recipe", "r.yaml", "--output", "out", "--",
                                               "sh", "-c", LOG_X, log, NULL},
                              NULL, NULL),
                     0);
    char *mode = NULL;
    char *expected = sequence_of("out/R", &mode);
    ck_assert_str_eq(mode, "interleaved");
    char *ran = tu_read(log);
    ck_assert_str_eq(ran, expected);
    /* Each trial JSON: its round, and when it started, in the order run. */
    ar_json_t *matrix = su_json("out/R", "matrix.json");
    ar_json_t *sequence = su_at(matrix, "order", "sequence", NULL);
    char last[64] = "";
    for (size_t i = 0; i < ar_json_length(sequence); i++) {
        ar_json_t *slot = ar_json_at(sequence, i);
        char *rel = ar_xasprintf("%s/_subprocess/trial_d0_m0_t%ld.json",
                                 ar_json_get_string(ar_json_at(slot, 0)),
                                 (long)ar_json_get_int(ar_json_at(slot, 1)));
        ar_json_t *trial = su_json("out/R", rel);
        ck_assert_int_eq(ar_json_get_int(ar_json_get(trial, "round")),
                         ar_json_get_int(ar_json_at(slot, 1)));
        const char *started = su_str(trial, "started_at", NULL);
        ck_assert_uint_eq(strlen(started), 24); /* 2026-12-07T05:01:02.345Z */
        ck_assert_int_ge(strcmp(started, last), 0);
        snprintf(last, sizeof last, "%s", started);
        ar_json_free(trial);
        free(rel);
    }
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "order", "seed", NULL)) > 0, 1);
    ar_json_free(matrix);
    free(ran);
    free(expected);
    free(mode);
    free(log);
}
END_TEST

START_TEST(order_flag_overrides_the_recipe_and_warmups_come_first_for_each_cell)
{
    write_recipe("seq.yaml", "S", 2, 1, "sequential");
    char *log = tu_join(dir, "log");
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--recipe", "seq.yaml", "--output", "out", "--",
                                               "sh", "-c", LOG_X, log, NULL},
                              NULL, NULL),
                     0);
    char *ran = tu_read(log);
    ck_assert_str_eq(ran, "\n\n\na\na\na\nb\nb\nb\n"); /* a warm-up, then 2, cell by cell */
    free(ran);
    unlink(log);
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--recipe", "seq.yaml", "--order", "random",
                                               "--ticket", "S2", "--output", "out", "--", "sh",
                                               "-c", LOG_X, log, NULL},
                              NULL, NULL),
                     0);
    char *mode = NULL;
    char *planned = sequence_of("out/S2", &mode);
    ck_assert_str_eq(mode, "random");
    /* What ran: the planned sequence with each cell's warm-up just before
     * its first trial. */
    tu_text_t expected = {0};
    int begun[3] = {0};
    for (char *line = planned, *end; (end = strchr(line, '\n')); line = end + 1) {
        *end = '\0';
        int c = line[0] ? line[0] - 'a' + 1 : 0;
        if (!begun[c]++)
            tu_text_add(&expected, "%s\n", line);
        tu_text_add(&expected, "%s\n", line);
    }
    ran = tu_read(log);
    ck_assert_str_eq(ran, expected.data);
    free(expected.data);
    free(ran);
    free(planned);
    free(mode);
    free(log);
}
END_TEST

/* Every trial JSON of run's three cells, as "cell/t: round verdict" lines. */
static char *records_of(const char *run, long trials)
{
    static const char *const cells[] = {"none-none", "a-none", "b-none"};
    tu_text_t text = {0};
    for (size_t c = 0; c < 3; c++)
        for (long t = 0; t < trials; t++) {
            char *rel = ar_xasprintf("%s/_subprocess/trial_d0_m0_t%ld.json", cells[c], t);
            ar_json_t *trial = su_json(run, rel);
            tu_text_add(&text, "%s/%ld: round %ld %s %s\n", cells[c], t,
                        (long)ar_json_get_int(ar_json_get(trial, "round")),
                        su_str(trial, "result", "metrics", "verdict", NULL),
                        su_str(trial, "request_fingerprint", NULL));
            ar_json_free(trial);
            free(rel);
        }
    return text.data;
}

/* The payload kills aorta-run (SIGKILL: nothing of it runs after) at the
 * 8th trial of 3 cells x 4, the middle of round 3; the run again resumes
 * the 7 complete trials and runs the rest in the same order: its records
 * and the order that ran are those of a run never killed. */
START_TEST(a_run_killed_in_round_three_resumes_to_the_records_of_one_never_killed)
{
    write_recipe("r.yaml", "K", 4, 0, NULL);
    char *script = ar_xstrdup(LOG_X "; n=$(wc -l < \"$0\"); "
                              "if [ \"$n\" = \"$KILL_AT\" ]; then kill -9 $PPID; fi");
    /* One command (the request's fingerprint holds it) for all three runs:
     * each run's log moved aside after it. */
    char *log = tu_join(dir, "log");
    ck_assert_int_ne(su_aorta((char *[]){"KILL_AT=8", NULL},
                              (char *[]){"--recipe", "r.yaml", "--output", "killed", "--", "sh",
                                         "-c", script, log, NULL},
                              NULL, NULL),
                     0);
    ck_assert(!tu_exists("killed/K/matrix.json"));
    char *first = tu_read(log);
    ck_assert_uint_eq(tu_count(first, "\n"), 8);
    unlink(log);
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--recipe", "r.yaml", "--output", "killed", "--",
                                               "sh", "-c", script, log, NULL},
                              NULL, NULL),
                     0);
    char *second = tu_read(log);
    ck_assert_uint_eq(tu_count(second, "\n"), 5); /* the killed trial again, and 4 more */
    unlink(log);
    ck_assert_int_eq(su_aorta(NULL, (char *[]){"--recipe", "r.yaml", "--output", "whole", "--",
                                               "sh", "-c", script, log, NULL},
                              NULL, NULL),
                     0);
    /* What ran: the first 7 trials, then from the killed one on. */
    *strrchr(first, '\n') = '\0';
    *(strrchr(first, '\n') + 1) = '\0';
    char *joined = ar_xasprintf("%s%s", first, second);
    char *whole = tu_read(log);
    ck_assert_str_eq(joined, whole);
    char *a = records_of("killed/K", 4), *b = records_of("whole/K", 4);
    ck_assert_str_eq(a, b);
    ar_json_t *ma = su_json("killed/K", "matrix.json"), *mb = su_json("whole/K", "matrix.json");
    char *oa = ar_json_dump(ar_json_get(ma, "order"), 0);
    char *ob = ar_json_dump(ar_json_get(mb, "order"), 0);
    ck_assert_str_eq(oa, ob);
    for (size_t c = 0; c < 3; c++)
        ck_assert_int_eq(ar_json_get_int(su_at(ma, "cells", c == 0 ? "0" : c == 1 ? "1" : "2",
                                               "passed_count", NULL)),
                         4);
    free(oa);
    free(ob);
    ar_json_free(ma);
    ar_json_free(mb);
    free(a);
    free(b);
    free(whole);
    free(joined);
    free(second);
    free(first);
    free(log);
    free(script);
}
END_TEST

static Suite *order_suite(void)
{
    Suite *suite = suite_create("trial order");
    TCase *tc = tcase_create("order");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, each_round_runs_every_cell_once_in_an_order_of_its_own);
    tcase_add_test(tc, sequential_runs_cell_by_cell_and_random_keeps_each_cells_trials_in_order);
    tcase_add_test(tc, a_sweep_runs_in_the_order_matrix_json_records);
    tcase_add_test(tc, order_flag_overrides_the_recipe_and_warmups_come_first_for_each_cell);
    tcase_add_test(tc, a_run_killed_in_round_three_resumes_to_the_records_of_one_never_killed);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(order_suite)
