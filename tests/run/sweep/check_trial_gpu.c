/* SPDX-License-Identifier: MIT */
/* What each trial ran on (record/gpu_state.c, docs/design.md, Trial
 * order): the trial JSON's gpu from the stand-in nvidia-smi
 * (examples/no-gpu/nvidia/), one query per trial, killed when it hangs,
 * its failure said, null without nvidia-smi; the stand-in refuses what the
 * real tool refuses; --compare makes another GPU model or driver
 * incomparable and lists a GPU busy or hot before a trial. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sweeputil.h"
#include "xalloc.h"

static char *dir, *smi_dir, *path_with_smi;

static void setup(void)
{
    dir = tu_tmpdir();
    ck_assert_int_eq(chdir(dir), 0);
    smi_dir = tu_srcdir("examples/no-gpu/nvidia");
    path_with_smi = ar_xasprintf("PATH=%s:%s", smi_dir, getenv("PATH"));
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(smi_dir);
    free(path_with_smi);
}

static ar_json_t *trial_json(const char *ticket, const char *name)
{
    char *run = ar_xasprintf("out/%s", ticket);
    char *rel = ar_xasprintf("none-none/_subprocess/%s", name);
    ar_json_t *json = su_json(run, rel);
    free(rel);
    free(run);
    return json;
}

START_TEST(each_trial_records_the_gpus_nvidia_smi_reports_in_one_query)
{
    char *env[] = {path_with_smi, "AORTA_FAKE_SMI_LOG=smi.log", "AORTA_FAKE_GPU_COUNT=2",
                   "AORTA_FAKE_GPU_UTIL=3", NULL};
    ck_assert_int_eq(su_aorta(env, (char *[]){"--output", "out", "--ticket", "G", "--trials",
                                              "2", "--warmup", "1", "--", "true", NULL},
                              NULL, NULL),
                     0);
    static const char *const names[] = {"trial_d0_m0_w1.json", "trial_d0_m0_t0.json",
                                        "trial_d0_m0_t1.json"};
    for (size_t i = 0; i < 3; i++) {
        ar_json_t *trial = trial_json("G", names[i]);
        ck_assert_str_eq(su_str(trial, "gpu", "tool", NULL), "nvidia-smi");
        ck_assert(ar_json_type(su_at(trial, "gpu", "error", NULL)) == AR_JSON_NULL
                  || !su_at(trial, "gpu", "error", NULL));
        ck_assert_uint_eq(ar_json_length(su_at(trial, "gpu", "devices", NULL)), 2);
        ck_assert_str_eq(su_str(trial, "gpu", "devices", "1", "name", NULL), "NVIDIA H200");
        ck_assert_str_eq(su_str(trial, "gpu", "devices", "0", "driver_version", NULL),
                         "570.124.06");
        ck_assert_int_eq(ar_json_get_int(su_at(trial, "gpu", "devices", "1", "index", NULL)), 1);
        ck_assert_int_eq(
            ar_json_get_int(su_at(trial, "gpu", "devices", "0", "utilization_pct", NULL)), 3);
        ck_assert_double_eq_tol(
            ar_json_get_double(su_at(trial, "gpu", "devices", "0", "power_draw_w", NULL)), 75.23,
            1e-9);
        ck_assert_str_eq(su_str(trial, "gpu", "devices", "0", "pstate", NULL), "P0");
        ck_assert_ptr_nonnull(su_str(trial, "node", NULL));
        ar_json_free(trial);
    }
    /* One query per trial, warm-up included (and the provenance's own). */
    char *log = tu_read("smi.log");
    ck_assert_uint_eq(tu_count(log, "--query-gpu=index,"), 3);
    free(log);
    ar_json_t *matrix = su_json("out/G", "matrix.json");
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "provenance", "gpu_before_trials", "trials",
                                           NULL)),
                     2);
    ck_assert_int_eq(ar_json_get_int(su_at(matrix, "provenance", "gpu_before_trials",
                                           "busy_trials", NULL)),
                     0);
    ar_json_free(matrix);
}
END_TEST

START_TEST(gpu_is_null_without_nvidia_smi)
{
    if (access("/usr/bin/nvidia-smi", X_OK) == 0 || access("/bin/nvidia-smi", X_OK) == 0)
        return; /* a machine with the real tool: nothing to prove here */
    ck_assert_int_eq(su_aorta((char *[]){"PATH=/usr/bin:/bin", NULL},
                              (char *[]){"--output", "out", "--ticket", "N", "--", "true", NULL},
                              NULL, NULL),
                     0);
    ar_json_t *trial = trial_json("N", "trial_d0_m0_t0.json");
    ar_json_t *gpu = ar_json_get(trial, "gpu");
    ck_assert(gpu == NULL || ar_json_type(gpu) == AR_JSON_NULL);
    /* present, as null */
    char *text = ar_json_dump(trial, 0);
    ck_assert_ptr_nonnull(strstr(text, "\"gpu\":null"));
    free(text);
    ar_json_free(trial);
}
END_TEST

START_TEST(a_query_that_hangs_is_killed_and_one_that_fails_says_why)
{
    char *hang[] = {path_with_smi, "AORTA_FAKE_SMI_HANG=1", "AORTA_GPU_QUERY_TIMEOUT=0.5", NULL};
    time_t started = time(NULL);
    ck_assert_int_eq(su_aorta(hang, (char *[]){"--output", "out", "--ticket", "H", "--", "true",
                                               NULL},
                              NULL, NULL),
                     0);
    ck_assert(time(NULL) - started < 30); /* not the stand-in's hour */
    ar_json_t *trial = trial_json("H", "trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "gpu", "error", NULL), "nvidia-smi: no answer within 0.5 s "
                                                           "(killed)");
    ck_assert_uint_eq(ar_json_length(su_at(trial, "gpu", "devices", NULL)), 0);
    ck_assert_str_eq(su_str(trial, "result", "metrics", "verdict", NULL), "pass");
    ar_json_free(trial);
    char *fail[] = {path_with_smi, "AORTA_FAKE_SMI_FAIL=1", NULL};
    ck_assert_int_eq(su_aorta(fail, (char *[]){"--output", "out", "--ticket", "F", "--", "true",
                                               NULL},
                              NULL, NULL),
                     0);
    trial = trial_json("F", "trial_d0_m0_t0.json");
    ck_assert_ptr_nonnull(strstr(su_str(trial, "gpu", "error", NULL),
                                 "nvidia-smi: exit status 9: NVIDIA-SMI has failed"));
    ar_json_free(trial);
}
END_TEST

/* A slow query (the real tool initialising the driver) is not the trial's
 * time: its wall clock, the step time --compare judges, leaves it out. */
START_TEST(the_query_is_left_out_of_the_trials_wall_clock)
{
    char *env[] = {path_with_smi, "AORTA_FAKE_SMI_DELAY=1.5", NULL};
    ck_assert_int_eq(su_aorta(env, (char *[]){"--output", "out", "--ticket", "D", "--", "true",
                                              NULL},
                              NULL, NULL),
                     0);
    ar_json_t *trial = trial_json("D", "trial_d0_m0_t0.json");
    ck_assert_uint_eq(ar_json_length(su_at(trial, "gpu", "devices", NULL)), 1);
    double wall = ar_json_get_double(ar_json_get(trial, "wall_clock_sec"));
    ck_assert_msg(wall < 1.4, "wall_clock_sec %g includes the 1.5 s query", wall);
    ar_json_free(trial);
}
END_TEST

static int smi(const char *query, const char *format)
{
    char *smi_path = tu_join(smi_dir, "nvidia-smi");
    char *argv[] = {smi_path, (char *)query, (char *)format, NULL};
    char *out = NULL, *err = NULL;
    int status = tu_run(argv, NULL, &out, &err);
    free(out);
    free(err);
    free(smi_path);
    return status;
}

/* nvidia-smi's return value 2: "a supplied argument or flag is invalid". */
START_TEST(the_standin_refuses_what_nvidia_smi_refuses)
{
    ck_assert_int_eq(smi("--query-gpu=name,driver_version", "--format=csv,noheader"), 0);
    ck_assert_int_eq(smi("--query-gpu=name,clocks.sm,clocks.mem", "--format=csv"), 0);
    ck_assert_int_eq(smi("--query-gpu=name,gpu_temperature", "--format=csv"), 2);
    ck_assert_int_eq(smi("--query-gpu=", "--format=csv"), 2);
    ck_assert_int_eq(smi("--query-gpu=name", "--format=noheader"), 2);
    ck_assert_int_eq(smi("--query-gpu=name", "--format=csv,json"), 2);
    ck_assert_int_eq(smi("--query-gpu=name", "--formats=csv"), 2);
    ck_assert_int_eq(smi("--query-gpu=name", NULL), 2);
}
END_TEST

/* Two runs of one command, B's environment changed by changes. */
static ar_json_t *compare_with(char *const *changes, char **text)
{
    char *a_env[] = {path_with_smi, NULL};
    char *args_a[] = {"--output", "out", "--ticket", "A", "--trials", "3", "--", "true", NULL};
    char *args_b[] = {"--output", "out", "--ticket", "B", "--trials", "3", "--", "true", NULL};
    tu_rmtree("out");
    ck_assert_int_eq(su_aorta(a_env, args_a, NULL, NULL), 0);
    char *b_env[8] = {path_with_smi};
    for (size_t i = 0; changes[i] && i < 6; i++)
        b_env[i + 1] = changes[i];
    ck_assert_int_eq(su_aorta(b_env, args_b, NULL, NULL), 0);
    char *out = NULL;
    su_aorta(NULL, (char *[]){"--compare", "out/A", "out/B", "--json", NULL}, &out, NULL);
    ar_json_t *json = ar_json_parse(out, strlen(out), 64);
    ck_assert_ptr_nonnull(json);
    free(out);
    su_aorta(NULL, (char *[]){"--compare", "out/A", "out/B", NULL}, text, NULL);
    return json;
}

/* The mismatch of what, or NULL. */
static ar_json_t *mismatch(ar_json_t *cmp, const char *what)
{
    ar_json_t *list = ar_json_get(cmp, "mismatches");
    for (size_t i = 0; i < ar_json_length(list); i++)
        if (!strcmp(su_str(ar_json_at(list, i), "what", NULL), what))
            return ar_json_at(list, i);
    return NULL;
}

START_TEST(compare_makes_another_gpu_incomparable_and_warns_of_a_busy_one)
{
    char *text = NULL;
    ar_json_t *cmp = compare_with((char *[]){"AORTA_FAKE_GPU_NAME=NVIDIA H100 80GB HBM3", NULL},
                                  &text);
    ar_json_t *model = mismatch(cmp, "gpu model");
    ck_assert_ptr_nonnull(model);
    ck_assert(ar_json_get_bool(ar_json_get(model, "incomparable")));
    ck_assert_str_eq(su_str(model, "collector", NULL), "*");
    ck_assert_ptr_null(mismatch(cmp, "gpu driver"));
    ck_assert_ptr_nonnull(strstr(text, "gpu model: A \"NVIDIA H200\", B \"NVIDIA H100 80GB "
                                       "HBM3\" -> incomparable"));
    ar_json_free(cmp);
    free(text);

    cmp = compare_with((char *[]){"AORTA_FAKE_GPU_DRIVER=550.54.15", NULL}, &text);
    ck_assert(ar_json_get_bool(ar_json_get(mismatch(cmp, "gpu driver"), "incomparable")));
    ar_json_free(cmp);
    free(text);

    /* Busy before every trial of B: listed, not incomparable. */
    cmp = compare_with((char *[]){"AORTA_FAKE_GPU_UTIL=97", NULL}, &text);
    ar_json_t *busy = mismatch(cmp, "gpu busy or hot before a trial");
    ck_assert_ptr_nonnull(busy);
    ck_assert(!ar_json_get_bool(ar_json_get(busy, "incomparable")));
    ck_assert_int_eq(ar_json_get_int(su_at(busy, "b", "busy_trials", NULL)), 3);
    ck_assert_int_eq(ar_json_get_int(su_at(busy, "a", "busy_trials", NULL)), 0);
    ck_assert_ptr_null(mismatch(cmp, "gpu model"));
    ck_assert_ptr_nonnull(strstr(text, "gpu busy or hot before a trial: A "));
    ar_json_free(cmp);
    free(text);

    /* Hot: 90 C before a trial. */
    cmp = compare_with((char *[]){"AORTA_FAKE_GPU_TEMP=90", NULL}, &text);
    busy = mismatch(cmp, "gpu busy or hot before a trial");
    ck_assert_int_eq(ar_json_get_int(su_at(busy, "b", "hot_trials", NULL)), 3);
    ar_json_free(cmp);
    free(text);
}
END_TEST

static Suite *gpu_suite(void)
{
    Suite *suite = suite_create("trial gpu");
    TCase *tc = tcase_create("gpu");
    tcase_set_timeout(tc, 180);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, each_trial_records_the_gpus_nvidia_smi_reports_in_one_query);
    tcase_add_test(tc, gpu_is_null_without_nvidia_smi);
    tcase_add_test(tc, a_query_that_hangs_is_killed_and_one_that_fails_says_why);
    tcase_add_test(tc, the_standin_refuses_what_nvidia_smi_refuses);
    tcase_add_test(tc, the_query_is_left_out_of_the_trials_wall_clock);
    tcase_add_test(tc, compare_makes_another_gpu_incomparable_and_warns_of_a_busy_one);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(gpu_suite)
