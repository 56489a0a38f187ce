/* SPDX-License-Identifier: MIT */
/* layout.h - where a trial's files lie in the run directory (docs/design.md,
 * Output tree).  Every path is relative to the run directory:
 *
 *   <cell>/trial_<t>/                      result.json, stdout.log, stderr.log
 *   <cell>/_subprocess/trial_d0_m0_t<t>.json          the trial JSON
 *   <cell>/_subprocess/trial_d0_m0_t<t>/<collector>/  its artifacts
 *
 * and beside the trial JSON its kernel tables (kernel_file.h) and, in an
 * --all-ranks run, the other ranks' records (rank_record.h).  Free each
 * path. */
#ifndef AR_LAYOUT_H
#define AR_LAYOUT_H

/* The workload's name: the cells' folder of trial records, and the
 * "workload" of matrix.json and the trial JSON. */
#define AR_WORKLOAD "_subprocess"

/* Warm-up trials (recipe warmup_trials, --warmup) have negative indices,
 * the k-th (from 1) -k, and names of their own that no statistic reads:
 * "<cell>/warmup_<k>/", "<cell>/_subprocess/trial_d0_m0_w<k>.json".
 * "t<t>", or "w<k>" for a warm-up trial. */
char *ar_trial_tag(int trial_index);
/* "<cell>/trial_<t>" ("<cell>/warmup_<k>") */
char *ar_trial_dir_rel(const char *cell, int trial_index);
/* "<cell>/_subprocess" */
char *ar_workload_dir_rel(const char *cell);
/* "<cell>/_subprocess/trial_d0_m0_t<t>.json" */
char *ar_trial_json_rel(const char *cell, int trial_index);
/* "<cell>/_subprocess/trial_d0_m0_t<t>": the trial's collector directories. */
char *ar_trial_collect_rel(const char *cell, int trial_index);

#endif
