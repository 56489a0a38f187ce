/* SPDX-License-Identifier: MIT */
/* rocpd_guard.h - what reading one rocpd database may cost (rocpd.c).
 *
 * A rocpd file is written by the payload's side of the run, so its views,
 * tables and values may be hostile.  A real one needs nothing but plain
 * reads: its views are `SELECT *` over tables.  So a database may read its
 * tables and nothing else (no SQL function, no recursive query, nothing
 * but SELECT), every SQL function SQLite has is replaced on the connection
 * by one that fails (a generated column or an index expression calls it
 * without the authorizer seeing it), values are capped, and the work is
 * bounded twice: in SQLite steps by the bytes the file has on disk
 * (st_blocks, not st_size: a sparse file is large and empty), and in time
 * by one deadline that all the databases of a directory share
 * (docs/collectors/rocprof.md, "Bounded work"). */
#ifndef ROCPD_GUARD_H
#define ROCPD_GUARD_H

#include <sqlite3.h>
#include <sys/stat.h>

#pragma GCC visibility push(hidden)

typedef struct rocpd_guard {
    const char *own_function;   /* the one function the reader's statements call */
    long long disk_bytes;       /* what the file has on disk */
    double steps, step_limit;   /* SQLite steps done and allowed */
    double started, deadline;   /* CLOCK_MONOTONIC seconds */
    long long heap_limit;       /* the host's hard heap limit, restored at the end */
    int refused, explained;     /* the authorizer said no; why[] is complete */
    char functions[160];        /* "f(), g()": what the refused statement calls */
    char why[400];              /* why the read was refused or cut; "" while it was not */
} rocpd_guard_t;

/* Before the database described by @p st is opened: its budgets, and
 * SQLite's heap capped unless the host capped it. */
void rocpd_guard_begin(rocpd_guard_t *guard, const struct stat *st, const char *own_function);
/* On the freshly opened connection, before the reader prepares anything:
 * the limits, the failing functions, the authorizer and the progress
 * handler.  Returns SQLITE_OK or SQLite's error. */
int rocpd_guard_arm(rocpd_guard_t *guard, sqlite3 *db);
/* Why the read was refused or cut, in words, or NULL when it was not. */
const char *rocpd_guard_why(rocpd_guard_t *guard);
/* After the connection is closed: the heap limit as it was. */
void rocpd_guard_end(rocpd_guard_t *guard);

#pragma GCC visibility pop

#endif
