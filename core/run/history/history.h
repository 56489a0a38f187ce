/* SPDX-License-Identifier: MIT */
/* history.h - the history store of nightly runs (--history FILE): one
 * SQLite file, append-only, one record per (run, cell, collector, measure,
 * kernel) with what a comparison is rebuilt from (n, the mean and variance
 * of the log values) and what people read (mean, median, min, max), and
 * each run's provenance and label (docs/design.md, History).  history.c is
 * the only file of aorta-run that speaks SQL; a build without SQLite
 * refuses every call with one line. */
#ifndef AR_HISTORY_H
#define AR_HISTORY_H

#include <stddef.h>
#include <stdio.h>

/* The schema this aorta-run writes and reads (meta.schema_version); an
 * older one is read, a newer one refused. */
#define AR_HISTORY_SCHEMA 1

typedef struct ar_history ar_history_t;

/* Whether this build has SQLite. */
int ar_history_available(void);

/* Open path: create it when create and it does not exist.  NULL with
 * *error set (one line: not SQLite, another program's database, a newer
 * schema, not writable, no such file). */
ar_history_t *ar_history_open(const char *path, int create, char **error);
void ar_history_close(ar_history_t *history);

/* A run as it is stored (the strings are the caller's; NULL where unknown). */
typedef struct ar_history_run {
    const char *key;          /* sha256 of its matrix.json: a run is stored once */
    const char *label;        /* --label: a commit, a branch */
    const char *run_dir;      /* absolute, as it was recorded */
    const char *ticket, *run_timestamp, *command, *aorta_version, *host, *gpu;
    const char *fingerprint;  /* sha256 of the request (command, cells, collectors) */
    const char *scope;        /* what a blessing is the baseline of: sha256 of the cells */
    const char *provenance;   /* matrix.json's provenance, compact JSON */
    size_t cells;
} ar_history_run_t;

typedef struct ar_history_record {
    const char *cell, *collector, *measure, *kernel; /* "" where none */
    int better;               /* ar_stats_better_t */
    int headline, gated;
    size_t n;
    int log_scale;            /* mean_log and var_log hold (every value > 0) */
    double mean_log, var_log, mean, var, median, min, max;
} ar_history_record_t;

/* Append run and its records in one transaction (waiting for another
 * writer).  0 added, 1 when that run was already stored (nothing written),
 * -1 with *error set.  bless: mark it the baseline of its scope too. */
int ar_history_append(ar_history_t *history, const ar_history_run_t *run,
                      const ar_history_record_t *records, size_t count, int bless,
                      char **error);

/* Bless the newest run labelled label (a new row: nothing is rewritten).
 * 0, or -1 with *error set (no such label). */
int ar_history_bless(ar_history_t *history, const char *label, char **error);

/* The stored runs, oldest first: label, time, cells, blessed, directory.
 * 0, or -1 with *error set. */
int ar_history_list(ar_history_t *history, FILE *out, char **error);

/* scope's runs, newest first, at most limit of them into ids: blessed,
 * the run of its newest blessing only.  0, or -1 with *error set. */
int ar_history_runs(ar_history_t *history, const char *scope, int blessed, size_t limit,
                    long long *ids, size_t *count, char **error);
/* The records of run_id (ar_history_records_free()).  0, or -1 with
 * *error set. */
int ar_history_records(ar_history_t *history, long long run_id, ar_history_record_t **records,
                       size_t *count, char **error);
/* How many records each (cell, collector, measure, kernel) of scope has,
 * in n (what arming counts).  0, or -1 with *error set. */
int ar_history_counts(ar_history_t *history, const char *scope, ar_history_record_t **records,
                      size_t *count, char **error);
void ar_history_records_free(ar_history_record_t *records, size_t count);
/* Run run_id's "label" or "provenance" (compact JSON), or NULL (free it). */
char *ar_history_run_text(ar_history_t *history, long long run_id, const char *column);

#endif
