/* SPDX-License-Identifier: MIT */
/* rocprof.h - what the files of the rocprof collector share.  Private to the
 * module: everything declared here has hidden visibility, so rocprof.so
 * exports only aorta_collector_rocprof_get(). */
#ifndef ROCPROF_H
#define ROCPROF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "aorta/collector.h"
#include "collector_common.h"

#pragma GCC visibility push(hidden)

/* ---- rocprof.c: the option table (--describe, and the known keys) ---- */
extern const aorta_option_spec_t rocprof_options[];

/* ---- options.c: the six options of docs/collectors/rocprof.md ---- */
typedef struct rocprof_opts {
    char *trace;                 /* normalised: tokens de-duplicated, joined by ',' */
    const char *trace_flags[8];  /* the rocprofv3 flag of each token, in token order */
    size_t trace_count;
    char *output_format;         /* normalised: lower-case tokens joined by ' ' */
    char **format_tokens;        /* the --output-format values, in order */
    size_t format_count;
    char *stats;                 /* as the user spelled it */
    int stats_on;
    char *pmc;                   /* verbatim, or NULL */
    char **pmc_tokens;           /* split, duplicates and case kept */
    size_t pmc_count;
    char *kernel_include_regex;  /* verbatim, or NULL */
    char *summary_units;         /* normalised, or NULL */
    const char *extra_order[3];  /* the optional keys in the order given */
    size_t extra_count;
} rocprof_opts_t;

/* The effective options of @p given (defaults overlaid by the user's values,
 * normalised).  Returns 0, or -1 with upstream's message in @p err. */
int rocprof_opts_read(const aorta_options_t *given, rocprof_opts_t *opts, aorta_error_t *err);
/* Replace the content of @p options with @p opts, in upstream's key order. */
void rocprof_opts_write(const rocprof_opts_t *opts, aorta_options_t *options);
void rocprof_opts_free(rocprof_opts_t *opts);

/* ---- resolve.c: which rocprofv3 to run (docs/collectors/rocprof.md) ---- */
/* The profiler binary for the environment @p env (ROCPROF_BIN, PATH and
 * HOME are read from it), or NULL with upstream's message in @p err.  Free
 * the result with free(). */
char *rocprof_resolve_binary(const aorta_env_t *env, aorta_error_t *err);

/* ---- wrap.c ---- */
int rocprof_wrap(const aorta_options_t *options, const char *out_dir,
                 const aorta_argv_t *command, const aorta_env_t *env,
                 aorta_argv_t *out, aorta_error_t *err);

/* ---- csv.c: CSV read as Python's csv.DictReader reads it ---- */
/* The value of one selected column in one row: the field after quote
 * processing; len 0 when empty or when the row is too short to have it
 * (upstream treats both alike). */
typedef struct rocprof_cell {
    const char *data;
    size_t len;
} rocprof_cell_t;

typedef void (*rocprof_row_fn)(const rocprof_cell_t *cells, void *user);

/* Read the CSV file open at @p fd and call @p fn for each data row with the
 * cells of the columns named in @p names (header names match exactly; a
 * duplicated name means its last column).  When the header lacks a column
 * whose bit is set in @p required, no row is reported.  Reading stops,
 * keeping the rows already reported, at the first invalid UTF-8 byte, at a
 * field longer than Python's field_size_limit, or at a read error.
 * Returns why reading ended (for the "no kernels" warning). */
typedef enum rocprof_csv_status {
    ROCPROF_CSV_END,            /* the whole file was read */
    ROCPROF_CSV_NO_COLUMN,      /* the header lacks a required column */
    ROCPROF_CSV_BAD_UTF8,       /* an invalid UTF-8 byte (or the file ends inside one) */
    ROCPROF_CSV_LONG_FIELD,     /* a field over the field size limit */
    ROCPROF_CSV_READ_ERROR
} rocprof_csv_status_t;
rocprof_csv_status_t rocprof_csv_read(int fd, const char *const *names, size_t count,
                                      unsigned required, rocprof_row_fn fn, void *user);
unsigned rocprof_csv_missing(void); /* after ROCPROF_CSV_NO_COLUMN: the required bits the header lacked */

/* ---- read_ahead.c: the reads csv.c parses ---- */
#define ROCPROF_READ_SIZE (1u << 20) /* bytes a read asks for */
#define ROCPROF_READ_HEAD 8          /* free bytes before each read's data */
#define ROCPROF_READ_TAIL 64         /* free bytes after them */
typedef struct rocprof_reads rocprof_reads_t;
/* Read fd from its current offset; with @p ahead, a large regular file on
 * a thread one read ahead of the caller. */
rocprof_reads_t *rocprof_reads_start(int fd, int ahead);
/* The next read: its byte count with the bytes at *data (ROCPROF_READ_HEAD
 * bytes before them and ROCPROF_READ_TAIL after are the caller's to
 * write), 0 at the end of the file, -1 on an error (and the same from then
 * on).  The bytes are good until the next call. */
ssize_t rocprof_reads_next(rocprof_reads_t *reads, char **data);
void rocprof_reads_stop(rocprof_reads_t *reads);

/* ---- rocpd.c: rocprofv3's SQLite databases (<o>_results.db) ---- */
/* Add the kernel dispatches of the database at @p path (open at @p fd, or
 * -1) to @p kernels, and when @p dispatches is not NULL each one with its
 * times for the timeline (track "queue Q").  Returns 0, or -1 with
 * one warning and nothing added when the file is not a readable rocpd
 * database (or SQLite is not built in, without a warning). */
int rocprof_rocpd_read(const char *path, int fd, aorta_kernels_t *kernels,
                       aorta_dispatches_t *dispatches);
/* The read-only, immutable SQLite URI of @p path; free() it. */
char *rocprof_rocpd_uri(const char *path);
/* Whether this build reads databases (it was built with SQLite). */
int rocprof_rocpd_available(void);
void rocprof_rocpd_pass(void); /* the databases read from now on share one time budget */

/* ---- parse.c ---- */
void rocprof_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics);

#pragma GCC visibility pop

#endif
