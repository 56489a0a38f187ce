/* SPDX-License-Identifier: MIT */
/* rank_record.c - per-rank trial records of an --all-ranks run
 * (rank_record.h). */
#include "config.h"

#include "record/rank_record.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "sys/clock.h"
#include "sys/knobs.h"
#include "sys/spawn.h"
#include "sys/rank_list.h"
#include "record/trial_json.h"
#include "xalloc.h"

#define RECORD_MAX_BYTES (1u << 20)
#define RECORD_MAX_DEPTH 16
/* How often rank 0 looks for the records it waits for (seconds). */
#define POLL_SEC 0.05

double ar_rank_wait_sec(double trial_timeout_sec)
{
    return ar_knob_seconds("AORTA_RANK_WAIT", trial_timeout_sec > 0 ? trial_timeout_sec + 60 : 600,
                              0);
}

/* The launcher's id of this job, and whether it is one every job of that
 * launcher gets (torchrun's TORCHELASTIC_RUN_ID=none without --rdzv-id or
 * --standalone): such an id says nothing about which run wrote a record. */
static const char *job_token(int *a_default)
{
    static char slurm[128];
    *a_default = 0;
    const char *job = getenv("SLURM_JOB_ID"), *step = getenv("SLURM_STEP_ID");
    if (job && job[0]) {
        snprintf(slurm, sizeof slurm, "slurm:%s.%s", job, step ? step : "");
        return slurm;
    }
    static const char *const vars[] = {"PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid",
                                       "TORCHELASTIC_RUN_ID", NULL};
    for (size_t i = 0; vars[i]; i++) {
        const char *value = getenv(vars[i]);
        if (value && value[0]) {
            *a_default = !strcmp(vars[i], "TORCHELASTIC_RUN_ID") && !strcmp(value, "none");
            return value;
        }
    }
    return NULL;
}

const char *ar_rank_job_token(void)
{
    int a_default = 0;
    return job_token(&a_default);
}

char *ar_rank_record_rel(const char *cell, int trial, long rank)
{
    char *tag = ar_trial_tag(trial);
    char *rel = ar_xasprintf("%s/" AR_WORKLOAD "/trial_d0_m0_%s.rank%ld.json", cell, tag,
                                rank);
    free(tag);
    return rel;
}

ar_json_t *ar_rank_record_json(long rank, long world_size, const char *cell, int trial,
                                     const char *verdict, const ar_spawn_result_t *spawn,
                                     const char *error)
{
    ar_json_t *json = ar_json_object();
    ar_json_set(json, "schema_version", ar_json_int(AR_RANK_RECORD_SCHEMA));
    ar_json_set(json, "rank", ar_json_int(rank));
    ar_json_set(json, "world_size", ar_json_int(world_size));
    const char *token = ar_rank_job_token();
    ar_json_set(json, "job", token ? ar_json_string(token) : NULL);
    ar_json_set(json, "cell", ar_json_string(cell));
    ar_json_set(json, "trial", ar_json_int(trial));
    ar_json_set(json, "verdict", ar_json_string(verdict));
    ar_json_set(json, "written_at", ar_json_double(ar_clock_wall()));
    if (spawn) {
        ar_json_set(json, "launched", ar_json_bool(spawn->launched));
        ar_json_set(json, "exit_code", ar_json_int(spawn->exit_code));
        ar_json_set(json, "timed_out", ar_json_bool(spawn->timed_out));
        ar_json_set(json, "elapsed_sec", ar_json_double(spawn->walltime_sec));
    }
    if (error)
        ar_json_set(json, "error", ar_json_string(error));
    return json;
}

ar_json_t *ar_rank_record_load(const char *path, long rank, const char *cell, int trial,
                                     double not_before)
{
    ar_json_t *json = ar_json_read_file(path, RECORD_MAX_BYTES, RECORD_MAX_DEPTH);
    if (!json)
        return NULL;
    const char *verdict = ar_json_get_string(ar_json_get(json, "verdict"));
    const char *token = ar_json_get_string(ar_json_get(json, "job"));
    int a_default = 0;
    const char *mine = job_token(&a_default);
    const char *its_cell = ar_json_get_string(ar_json_get(json, "cell"));
    int ok = ar_json_get_int(ar_json_get(json, "schema_version")) == AR_RANK_RECORD_SCHEMA
          && ar_json_get_int(ar_json_get(json, "rank")) == rank
          && ar_json_get_int(ar_json_get(json, "trial")) == trial && its_cell
          && strcmp(its_cell, cell) == 0 && verdict && verdict[0];
    if (ok && not_before > 0) {
        /* A record of this job: the same launcher id, and (no id, or one
         * every job gets) written since rank 0 began this run.  A rank
         * that never ran leaves only an earlier run's record. */
        if (mine || token)
            ok = mine && token && strcmp(mine, token) == 0;
        if (ok && (!mine || a_default))
            ok = ar_json_get_double(ar_json_get(json, "written_at")) >= not_before;
    }
    if (!ok) {
        ar_json_free(json);
        return NULL;
    }
    return json;
}

static int interrupt_pending(void)
{
    return ar_spawn_peek_interrupt() != 0; /* SIGHUP too, as SIGTERM */
}

/* How many ranks one round looks at between two looks at the clock and
 * the pending signals: a round over a large world stays within the wait. */
#define CHECK_EVERY 256

static int past(double deadline)
{
    return ar_clock_monotonic() >= deadline || interrupt_pending();
}

size_t ar_rank_records_wait(const char *run_dir, const char *cell, int trial,
                               long world_size, double not_before, double wait_sec,
                               ar_json_t **records)
{
    double deadline = ar_clock_monotonic() + wait_sec;
    for (;;) {
        size_t missing = 0;
        int stopped = 0;
        for (long k = 1; k < world_size; k++) {
            if (records[k])
                continue;
            if (!stopped) {
                char *rel = ar_rank_record_rel(cell, trial, k);
                char *path = ar_xasprintf("%s/%s", run_dir, rel);
                records[k] = ar_rank_record_load(path, k, cell, trial, not_before);
                free(path);
                free(rel);
                stopped = k % CHECK_EVERY == 0 && past(deadline);
            }
            missing += records[k] == NULL;
        }
        if (missing == 0 || stopped || past(deadline))
            return missing;
        struct timespec ts = {0, (long)(POLL_SEC * 1e9)};
        nanosleep(&ts, NULL);
    }
}

char *ar_rank_missing_list(ar_json_t *const *records, long world_size)
{
    long *missing = ar_xcalloc(world_size > 1 ? (size_t)world_size : 1, sizeof *missing);
    size_t count = 0;
    for (long k = 1; k < world_size; k++)
        if (!records[k])
            missing[count++] = k;
    char *list = ar_rank_list_format(missing, count, ", ");
    free(missing);
    return list;
}

int ar_rank_records_complete_at(const char *run_dir, const char *cell, long t,
                                long world_size)
{
    for (long k = 1; k < world_size; k++) {
        char *rel = ar_rank_record_rel(cell, (int)t, k);
        char *path = ar_xasprintf("%s/%s", run_dir, rel);
        ar_json_t *json = ar_rank_record_load(path, k, cell, (int)t, 0);
        free(path);
        free(rel);
        if (!json)
            return 0;
        ar_json_free(json);
    }
    return 1;
}

int ar_rank_records_complete(const char *run_dir, const char *cell, long trials,
                                long world_size)
{
    for (long t = 0; t < trials; t++)
        if (!ar_rank_records_complete_at(run_dir, cell, t, world_size))
            return 0;
    return 1;
}

long ar_rank_complete_prefix(const char *run_dir, const char *cell, long trials,
                             long world_size)
{
    long t = 0;
    while (t < trials && ar_rank_results_complete_from(run_dir, cell, t, t + 1)
           && ar_rank_records_complete_at(run_dir, cell, t, world_size))
        t++;
    return t;
}

int ar_rank_results_complete(const char *run_dir, const char *cell, long trials)
{
    return ar_rank_results_complete_from(run_dir, cell, 0, trials);
}

int ar_rank_results_complete_from(const char *run_dir, const char *cell, long first,
                                  long trials)
{
    for (long t = first; t < trials; t++) {
        char *path = ar_xasprintf("%s/%s/trial_%ld/result.json", run_dir, cell, t);
        ar_json_t *json = ar_json_read_file(path, RECORD_MAX_BYTES << 2, 64);
        const char *verdict = ar_json_get_string(ar_json_get(json, "verdict"));
        int complete = verdict && verdict[0];
        ar_json_free(json);
        free(path);
        /* rank 0 also needs its trial JSON to resume (resume.c) */
        path = ar_xasprintf("%s/%s/" AR_WORKLOAD "/trial_d0_m0_t%ld.json", run_dir, cell, t);
        json = complete ? ar_json_read_file(path, RECORD_MAX_BYTES << 2, 64) : NULL;
        complete = json != NULL;
        ar_json_free(json);
        free(path);
        if (!complete)
            return 0;
    }
    return 1;
}
