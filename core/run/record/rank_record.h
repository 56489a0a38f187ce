/* SPDX-License-Identifier: MIT */
/* rank_record.h - the per-rank trial record of an --all-ranks run
 * (docs/design.md, Multi-rank runs): rank k > 0 writes
 * <cell>/_subprocess/trial_d0_m0_t<t>.rank<k>.json beside rank 0's trial
 * JSON, whole or not at all; rank 0 waits for them, bounded. */
#ifndef AR_RANK_RECORD_H
#define AR_RANK_RECORD_H

#include "sys/json.h"
#include "sys/spawn.h"

#define AR_RANK_RECORD_SCHEMA 1

/* Seconds rank 0 waits for the other ranks' records after its own trial:
 * AORTA_RANK_WAIT, else the trial timeout plus 60, else 600. */
double ar_rank_wait_sec(double trial_timeout_sec);

/* What names this job to every rank (the launcher's own id:
 * SLURM_JOB_ID.SLURM_STEP_ID, PMIX_NAMESPACE, OMPI_MCA_ess_base_jobid,
 * TORCHELASTIC_RUN_ID), so rank 0 never takes a record a former job left;
 * NULL when there is none.  torchrun's default "none" is returned too, but
 * names no job: its records must also be fresh (ar_rank_record_load()).  Borrowed from the environment or static. */
const char *ar_rank_job_token(void);

/* "<cell>/_subprocess/trial_d0_m0_t<t>.rank<k>.json", relative to the run
 * directory.  Free it. */
char *ar_rank_record_rel(const char *cell, int trial, long rank);

/* Rank rank's record of one trial: its verdict ("pass", "fail", "error"),
 * the spawn result (NULL for a setup failure, with error set). */
ar_json_t *ar_rank_record_json(long rank, long world_size, const char *cell, int trial,
                                     const char *verdict, const ar_spawn_result_t *spawn,
                                     const char *error);

/* The record at path when it is one of ours for this rank, cell and trial
 * and this job: the same launcher id, and, without one or with one every
 * job gets (torchrun's TORCHELASTIC_RUN_ID=none), written at or after
 * not_before, the wall-clock time rank 0 began the run; not_before 0 takes
 * any job's.  NULL otherwise.  Free it. */
ar_json_t *ar_rank_record_load(const char *path, long rank, const char *cell, int trial,
                                     double not_before);

/* Wait until every rank 1..world_size-1 has its record of this trial, or
 * wait_sec pass, or an interrupt is pending.  records[k] (k >= 1) gets each
 * one found (NULL for a missing rank); returns how many are missing. */
size_t ar_rank_records_wait(const char *run_dir, const char *cell, int trial,
                               long world_size, double not_before, double wait_sec,
                               ar_json_t **records);

/* The ranks 1..world_size-1 without a record, in order, runs of three or
 * more as a range: "1, 3-7, 9" (linear in world_size).  Free it. */
char *ar_rank_missing_list(ar_json_t *const *records, long world_size);


/* Whether every rank 1..world_size-1 has a record of each of trials trials
 * of cell (any job): half of the resume rule of an --all-ranks run, the
 * other half being rank 0's result.json files.  Every rank asks the same
 * question of the same files, so all resume the same cells. */
int ar_rank_records_complete(const char *run_dir, const char *cell, long trials,
                                long world_size);

/* Whether trial_<t>/result.json of each of trials trials of cell holds a
 * verdict and its trial JSON reads (rank 0's half). */
int ar_rank_results_complete(const char *run_dir, const char *cell, long trials);

/* Trial t of cell: every rank's record from 1 to world_size - 1 loads. */
int ar_rank_records_complete_at(const char *run_dir, const char *cell, long t,
                                long world_size);

/* ar_rank_results_complete() for trials first..trials-1. */
int ar_rank_results_complete_from(const char *run_dir, const char *cell, long first,
                                  long trials);

/* How many of cell's first trials (at most trials) are complete for every
 * rank: rank 0's result and trial JSON, the others' records.  The prefix a
 * follower takes as done in rounds, as rank 0 does (sweep/resume.c). */
long ar_rank_complete_prefix(const char *run_dir, const char *cell, long trials,
                             long world_size);

#endif
