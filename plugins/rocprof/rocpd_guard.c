/* SPDX-License-Identifier: MIT */
/* rocpd_guard.c - the limits, the authorizer, the failing functions and the
 * two budgets a rocpd database is read under (rocpd_guard.h says why). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocprof.h"

#define TIME_BASE 2.0          /* seconds for the databases of one directory... */
#define BYTES_PER_SECOND 10e6  /* ...and one more for each 10 MB they have on disk */

/* One deadline for the databases of one directory (see rocprof_rocpd_pass). */
static struct {
    int started;
    double start, allowed;
} pass;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void rocprof_rocpd_pass(void)
{
    pass.started = 1;
    pass.start = now();
    pass.allowed = TIME_BASE;
}

#if HAVE_SQLITE3

#include "rocpd_guard.h"

/* A value over 1 MiB is an error (the CSV reader's field limit is 128 Ki
 * characters): no single step copies or compares more.  SQLite's heap is
 * capped too (a view can still join and sort). */
#define VALUE_LIMIT (1 << 20)
#define SQL_LIMIT (1 << 20)         /* the text of one view or table */
#define PROGRAM_LIMIT 1000000       /* VM instructions in one statement */
#define HEAP_LIMIT ((sqlite3_int64)64 << 20)

/* The work a plain scan needs, with room to spare: rocprofv3's databases
 * take about 0.1 step per byte on disk (bench/rocpd_parse.py), and a scan
 * reads far faster than 10 MB/s (TIME_BASE, BYTES_PER_SECOND). */
#define PROGRESS_STEP 1000
#define STEP_BASE 20000000.0
#define STEPS_PER_BYTE 64.0

/* The functions replaced when SQLite cannot list its own (before 3.30, or
 * built without PRAGMA function_list): those a value can make slow. */
static const char *const known_functions[] = {
    "printf", "format", "instr", "replace", "substr", "substring", "like", "glob", "zeroblob",
    "randomblob", "hex", "unhex", "quote", "char", "group_concat", "string_agg", "concat",
    "concat_ws", "unistr", "upper", "lower", "trim", "ltrim", "rtrim", "json", "json_extract",
    "json_each", "json_tree", "json_group_array", "json_group_object", "load_extension",
    "sqlite_compileoption_get", "soundex", "regexp", "match", NULL};

void rocpd_guard_begin(rocpd_guard_t *guard, const struct stat *st, const char *own_function)
{
    memset(guard, 0, sizeof *guard);
    guard->own_function = own_function;
    /* Blocks are 512 bytes in st_blocks whatever the file system's block
     * size; a file with blocks past its end (fallocate) counts its size. */
    long long size = st->st_size > 0 ? (long long)st->st_size : 0;
    long long blocks = st->st_blocks > 0 ? (long long)st->st_blocks : 0;
    guard->disk_bytes = blocks <= size / 512 ? blocks * 512 : size;
    guard->step_limit = STEP_BASE + STEPS_PER_BYTE * (double)guard->disk_bytes;
    if (!pass.started)
        rocprof_rocpd_pass();
    pass.allowed += (double)guard->disk_bytes / BYTES_PER_SECOND;
    guard->started = now();
    guard->deadline = pass.start + pass.allowed;
#if SQLITE_VERSION_NUMBER >= 3031000
    guard->heap_limit = sqlite3_hard_heap_limit64(-1);
    if (guard->heap_limit == 0)
        sqlite3_hard_heap_limit64(HEAP_LIMIT);
#endif
}

void rocpd_guard_end(rocpd_guard_t *guard)
{
#if SQLITE_VERSION_NUMBER >= 3031000
    if (guard->heap_limit == 0)
        sqlite3_hard_heap_limit64(0);
#else
    (void)guard;
#endif
}

/* The first refusal: where (a view, the query, a recursive query) and
 * what; the functions called there are collected in guard->functions. */
static void refuse(rocpd_guard_t *guard, const char *where, const char *view, const char *what)
{
    if (guard->why[0])
        return;
    cc_buf_t buf = {0};
    cc_buf_adds(&buf, where);
    if (view) {
        cc_buf_adds(&buf, " ");
        cc_buf_add_repr(&buf, view, strlen(view));
    }
    cc_buf_adds(&buf, what);
    snprintf(guard->why, sizeof guard->why, "%s", buf.data);
    cc_buf_free(&buf);
}

/* Another function the refused statement calls, named once each. */
static void add_function(rocpd_guard_t *guard, const char *name)
{
    char called[80];
    snprintf(called, sizeof called, "%s()", name);
    for (const char *at = guard->functions; (at = strstr(at, called)) != NULL; at++)
        if (at == guard->functions || at[-1] == ' ')
            return;
    size_t len = strlen(guard->functions);
    if (len + strlen(called) + 2 < sizeof guard->functions)
        snprintf(guard->functions + len, sizeof guard->functions - len, "%s%s", len ? ", " : "",
                 called);
}

const char *rocpd_guard_why(rocpd_guard_t *guard)
{
    if (!guard->why[0])
        return NULL;
    if (guard->functions[0] && !guard->explained) {
        size_t len = strlen(guard->why);
        snprintf(guard->why + len, sizeof guard->why - len, " %s", guard->functions);
    }
    if (!guard->explained && guard->refused) {
        size_t len = strlen(guard->why);
        snprintf(guard->why + len, sizeof guard->why - len,
                 "; rocprofv3's views only read tables");
    }
    guard->explained = 1;
    return guard->why;
}

/* Reading tables and views is all a rocpd database needs; the schema
 * itself is read by SQLite without asking. */
static int authorize(void *user, int action, const char *arg1, const char *arg2,
                     const char *database, const char *view)
{
    (void)arg1, (void)database;
    rocpd_guard_t *guard = user;
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
        return SQLITE_OK;
    case SQLITE_FUNCTION:
        if (arg2 && strcmp(arg2, guard->own_function) == 0)
            return SQLITE_OK;
        refuse(guard, view ? "view" : "the query", view, " calls");
        if (strstr(guard->why, " calls"))
            add_function(guard, arg2 ? arg2 : "a function");
        break;
#ifdef SQLITE_RECURSIVE
    case SQLITE_RECURSIVE:
        /* view: the name of the common table expression */
        refuse(guard, "the recursive query", view, " is refused");
        break;
#endif
    default:
        refuse(guard, view ? "view" : "the query", view, " asks for more than reading tables");
        break;
    }
    guard->refused = 1;
    return SQLITE_DENY;
}

/* Every step of the reader's statements, PROGRESS_STEP at a time. */
static int progress(void *user)
{
    rocpd_guard_t *guard = user;
    guard->steps += PROGRESS_STEP;
    if (guard->steps > guard->step_limit) {
        snprintf(guard->why, sizeof guard->why,
                 "more work than a database of %lld bytes on disk needs: cut after %.0f "
                 "million SQLite steps", guard->disk_bytes, guard->steps / 1e6);
        return 1;
    }
    double t = now();
    if (t > guard->deadline) {
        if (guard->started >= guard->deadline)
            snprintf(guard->why, sizeof guard->why,
                     "the databases before it in its directory spent their time budget "
                     "(%.0f s and 1 s per 10 MB on disk)", TIME_BASE);
        else
            snprintf(guard->why, sizeof guard->why,
                     "cut after %.1f s, the time budget of the databases of its directory "
                     "(%.0f s and 1 s per 10 MB on disk)", t - guard->started, TIME_BASE);
        return 1;
    }
    return 0;
}

/* What the schema calls where the authorizer does not look (generated
 * columns, index expressions) comes here, and fails. */
static void refused_function(sqlite3_context *context, int argc, sqlite3_value **argv)
{
    (void)argc, (void)argv;
    char message[160];
    snprintf(message, sizeof message,
             "the schema calls %s(); rocprofv3's tables compute nothing",
             (const char *)sqlite3_user_data(context));
    sqlite3_result_error(context, message, -1);
}

static int replace_function(sqlite3 *db, const char *name, int narg)
{
    /* Usable wherever a schema may call a function (generated columns
     * need deterministic ones), so that it runs there and says why. */
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
#ifdef SQLITE_INNOCUOUS
    flags |= SQLITE_INNOCUOUS;
#endif
    char *copy = sqlite3_mprintf("%s", name);
    if (!copy)
        return SQLITE_NOMEM;
    return sqlite3_create_function_v2(db, copy, narg, flags, copy, refused_function, NULL, NULL,
                                      sqlite3_free);
}

/* Replace every function SQLite lists (or, when it lists none, the known
 * slow ones) by refused_function.  The list is read whole first: a
 * function cannot be replaced while a statement runs. */
static int replace_functions(sqlite3 *db)
{
    typedef struct { char *name; int narg; } entry_t;
    entry_t *list = NULL;
    size_t count = 0, cap = 0;
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA function_list", -1, &stmt, NULL) == SQLITE_OK) {
        while (sqlite3_step(stmt) == SQLITE_ROW) {
            const char *name = (const char *)sqlite3_column_text(stmt, 0);
            if (!name)
                continue;
            cc_xgrow((void **)&list, &cap, count + 1, sizeof *list);
            list[count].name = cc_xstrdup(name);
            list[count++].narg = sqlite3_column_int(stmt, 4);
        }
    }
    sqlite3_finalize(stmt);
    int rc = SQLITE_OK;
    for (size_t i = 0; i < count; i++) {
        if (rc == SQLITE_OK)
            rc = replace_function(db, list[i].name, list[i].narg);
        free(list[i].name);
    }
    free(list);
    for (size_t i = 0; count == 0 && rc == SQLITE_OK && known_functions[i]; i++)
        rc = replace_function(db, known_functions[i], -1);
    return rc;
}

int rocpd_guard_arm(rocpd_guard_t *guard, sqlite3 *db)
{
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, VALUE_LIMIT);
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, SQL_LIMIT);
    sqlite3_limit(db, SQLITE_LIMIT_VDBE_OP, PROGRAM_LIMIT);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(db, SQLITE_LIMIT_WORKER_THREADS, 0);
#ifdef SQLITE_DBCONFIG_DEFENSIVE
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
#endif
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
#endif
#ifdef SQLITE_DBCONFIG_DQS_DML
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)NULL);
#endif
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)NULL);
    /* A plain scan needs no temporary storage; a view that does gets
     * memory (never a file), within the heap limit. */
    int rc = sqlite3_exec(db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = replace_functions(db);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_set_authorizer(db, authorize, guard);
    sqlite3_progress_handler(db, PROGRESS_STEP, progress, guard);
    return SQLITE_OK;
}

#endif /* HAVE_SQLITE3 */
