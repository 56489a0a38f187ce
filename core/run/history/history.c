/* SPDX-License-Identifier: MIT */
/* history.c - the history store in SQLite, and the only SQL of aorta-run.
 * Append-only: triggers refuse any UPDATE or DELETE of a run, a record or a
 * blessing, and a blessing is a row of its own (the newest of a scope
 * wins).  Concurrent writers wait for each other (busy_timeout, BEGIN
 * IMMEDIATE) in SQLite's rollback journal, which leaves no file beside the
 * store once a transaction is over (WAL would keep -wal and -shm files). */
#include "config.h"

#include "history/history.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

void ar_history_records_free(ar_history_record_t *records, size_t count)
{
    for (size_t i = 0; records && i < count; i++) {
        free((char *)records[i].cell);
        free((char *)records[i].collector);
        free((char *)records[i].measure);
        free((char *)records[i].kernel);
    }
    free(records);
}

#if HAVE_SQLITE3
#include <sqlite3.h>

/* How long a writer waits for another (ms). */
#define BUSY_MS 60000

struct ar_history {
    sqlite3 *db;
    char *path;
};

static const char SCHEMA[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT INTO meta VALUES('application', 'aorta-run history');"
    "INSERT INTO meta VALUES('schema_version', '1');"
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, run_key TEXT NOT NULL UNIQUE, label TEXT,"
    " recorded_at TEXT NOT NULL, run_dir TEXT, ticket TEXT, run_timestamp TEXT,"
    " command TEXT, aorta_version TEXT, host TEXT, gpu TEXT, fingerprint TEXT,"
    " scope TEXT, provenance TEXT, cells INTEGER NOT NULL);"
    "CREATE TABLE records(run_id INTEGER NOT NULL REFERENCES runs(id), cell TEXT NOT NULL,"
    " collector TEXT NOT NULL, measure TEXT NOT NULL, kernel TEXT NOT NULL,"
    " better INTEGER NOT NULL, headline INTEGER NOT NULL, gated INTEGER NOT NULL,"
    " n INTEGER NOT NULL, mean_log REAL, var_log REAL, mean REAL, var REAL, median REAL,"
    " min REAL, max REAL, PRIMARY KEY(run_id, cell, collector, measure, kernel))"
    " WITHOUT ROWID;"
    "CREATE INDEX records_series ON records(cell, collector, measure, kernel, run_id);"
    "CREATE TABLE blessings(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES"
    " runs(id), scope TEXT, blessed_at TEXT NOT NULL);"
    "CREATE TRIGGER runs_kept BEFORE UPDATE ON runs BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
    "CREATE TRIGGER runs_kept_d BEFORE DELETE ON runs BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
    "CREATE TRIGGER records_kept BEFORE UPDATE ON records BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
    "CREATE TRIGGER records_kept_d BEFORE DELETE ON records BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
    "CREATE TRIGGER blessings_kept BEFORE UPDATE ON blessings BEGIN SELECT RAISE(ABORT, 'append-only'); END;"
    "CREATE TRIGGER blessings_kept_d BEFORE DELETE ON blessings BEGIN SELECT RAISE(ABORT, 'append-only'); END;";

int ar_history_available(void)
{
    return 1;
}

static char *db_error(const ar_history_t *h, const char *what)
{
    return ar_xasprintf("--history %s: %s: %s", h->path, what, sqlite3_errmsg(h->db));
}

/* The value of meta's key, or NULL (free it). */
static char *meta_value(ar_history_t *h, const char *key)
{
    sqlite3_stmt *st = NULL;
    char *value = NULL;
    if (sqlite3_prepare_v2(h->db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL)
        == SQLITE_OK) {
        sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
            value = ar_xstrdup((const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    return value;
}

/* The count of tables in the file, or -1 when it is no SQLite database. */
static int table_count(ar_history_t *h)
{
    sqlite3_stmt *st = NULL;
    int count = -1;
    if (sqlite3_prepare_v2(h->db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
                           -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        count = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return count;
}

/* An empty file gets the schema; one of ours is checked. */
static int check_schema(ar_history_t *h, int create, char **error)
{
    int tables = table_count(h);
    if (tables < 0) {
        *error = ar_xasprintf("--history %s: not a history file (not an SQLite database: %s)",
                              h->path, sqlite3_errmsg(h->db));
        return -1;
    }
    if (tables == 0) {
        if (!create) {
            *error = ar_xasprintf("--history %s: an empty file, not a history", h->path);
            return -1;
        }
        char *message = NULL;
        if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK
            || (table_count(h) == 0 && sqlite3_exec(h->db, SCHEMA, NULL, NULL, &message)
                                           != SQLITE_OK)
            || sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
            *error = db_error(h, "cannot create the store");
            sqlite3_free(message);
            sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    char *app = meta_value(h, "application"), *version = meta_value(h, "schema_version");
    int status = 0;
    if (!app || strcmp(app, "aorta-run history") != 0 || !version) {
        *error = ar_xasprintf("--history %s: an SQLite database of another program, not an "
                              "aorta-run history",
                              h->path);
        status = -1;
    } else if (atoi(version) > AR_HISTORY_SCHEMA || atoi(version) < 1) {
        *error = ar_xasprintf("--history %s: written by a newer aorta-run (schema %s; this one "
                              "reads up to %d)",
                              h->path, version, AR_HISTORY_SCHEMA);
        status = -1;
    }
    free(app);
    free(version);
    return status;
}

ar_history_t *ar_history_open(const char *path, int create, char **error)
{
    struct stat st;
    if (stat(path, &st) != 0 && (!create || errno != ENOENT)) {
        *error = ar_xasprintf("--history %s: %s", path, strerror(errno));
        return NULL;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        *error = ar_xasprintf("--history %s: not a regular file", path);
        return NULL;
    }
    ar_history_t *h = ar_xcalloc(1, sizeof *h);
    h->path = ar_xstrdup(path);
    int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    if (sqlite3_open_v2(path, &h->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        *error = db_error(h, "cannot open");
        ar_history_close(h);
        return NULL;
    }
    sqlite3_busy_timeout(h->db, BUSY_MS);
    if (check_schema(h, create, error) != 0) {
        ar_history_close(h);
        return NULL;
    }
    return h;
}

void ar_history_close(ar_history_t *h)
{
    if (!h)
        return;
    sqlite3_close(h->db);
    free(h->path);
    free(h);
}

static void bind_text(sqlite3_stmt *st, int i, const char *text)
{
    if (text)
        sqlite3_bind_text(st, i, text, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static void bind_real(sqlite3_stmt *st, int i, double value, int present)
{
    if (present && value == value)
        sqlite3_bind_double(st, i, value);
    else
        sqlite3_bind_null(st, i);
}

/* The run's row; its id, 0 when its key is stored already, -1 on error. */
static sqlite3_int64 insert_run(ar_history_t *h, const ar_history_run_t *run)
{
    sqlite3_stmt *st = NULL;
    const char *sql = "INSERT OR IGNORE INTO runs(run_key, label, recorded_at, run_dir, ticket,"
                      " run_timestamp, command, aorta_version, host, gpu, fingerprint, scope,"
                      " provenance, cells) VALUES(?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'),"
                      " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    const char *texts[] = {run->key, run->label, run->run_dir, run->ticket, run->run_timestamp,
                           run->command, run->aorta_version, run->host, run->gpu,
                           run->fingerprint, run->scope, run->provenance};
    for (int i = 0; i < 12; i++)
        bind_text(st, i + 1, texts[i]);
    sqlite3_bind_int64(st, 13, (sqlite3_int64)run->cells);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return -1;
    return sqlite3_changes(h->db) ? sqlite3_last_insert_rowid(h->db) : 0;
}

static int insert_records(ar_history_t *h, sqlite3_int64 id, const ar_history_record_t *r,
                          size_t count)
{
    sqlite3_stmt *st = NULL;
    const char *sql = "INSERT INTO records VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    for (size_t i = 0; i < count; i++, r++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, id);
        bind_text(st, 2, r->cell);
        bind_text(st, 3, r->collector ? r->collector : "");
        bind_text(st, 4, r->measure);
        bind_text(st, 5, r->kernel ? r->kernel : "");
        sqlite3_bind_int(st, 6, r->better);
        sqlite3_bind_int(st, 7, r->headline);
        sqlite3_bind_int(st, 8, r->gated);
        sqlite3_bind_int64(st, 9, (sqlite3_int64)r->n);
        bind_real(st, 10, r->mean_log, r->log_scale);
        bind_real(st, 11, r->var_log, r->log_scale);
        bind_real(st, 12, r->mean, 1);
        bind_real(st, 13, r->var, 1);
        bind_real(st, 14, r->median, 1);
        bind_real(st, 15, r->min, 1);
        bind_real(st, 16, r->max, 1);
        /* A key met twice (two kernels whose names differ only past what
         * the collector kept) is stored once. */
        int rc = sqlite3_step(st);
        if (rc != SQLITE_DONE && rc != SQLITE_CONSTRAINT) {
            sqlite3_finalize(st);
            return -1;
        }
    }
    sqlite3_finalize(st);
    return 0;
}

static int insert_blessing(ar_history_t *h, sqlite3_int64 id)
{
    sqlite3_stmt *st = NULL;
    const char *sql = "INSERT INTO blessings(run_id, scope, blessed_at) SELECT id, scope,"
                      " strftime('%Y-%m-%dT%H:%M:%SZ', 'now') FROM runs WHERE id = ?";
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int ar_history_append(ar_history_t *h, const ar_history_run_t *run,
                      const ar_history_record_t *records, size_t count, int bless,
                      char **error)
{
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        *error = db_error(h, "cannot write");
        return -1;
    }
    sqlite3_int64 id = insert_run(h, run);
    int status = id < 0 ? -1 : id == 0 ? 1 : 0;
    if (status == 0 && insert_records(h, id, records, count) != 0)
        status = -1;
    if (status == 0 && bless && insert_blessing(h, id) != 0)
        status = -1;
    if (status >= 0 && sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return status;
    *error = db_error(h, "cannot write");
    sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

int ar_history_bless(ar_history_t *h, const char *label, char **error)
{
    sqlite3_stmt *st = NULL;
    sqlite3_int64 id = 0;
    if (sqlite3_prepare_v2(h->db, "SELECT max(id) FROM runs WHERE label = ?", -1, &st, NULL)
        == SQLITE_OK) {
        sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            id = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (!id) {
        *error = ar_xasprintf("--bless: %s holds no run labelled '%s' (see --list)", h->path,
                              label);
        return -1;
    }
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK
        || insert_blessing(h, id) != 0
        || sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        *error = db_error(h, "cannot write");
        sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

static const char *text_or(sqlite3_stmt *st, int column, const char *none)
{
    const unsigned char *text = sqlite3_column_text(st, column);
    return text ? (const char *)text : none;
}

int ar_history_list(ar_history_t *h, FILE *out, char **error)
{
    sqlite3_stmt *st = NULL;
    const char *sql = "SELECT r.label, r.recorded_at, r.cells, (SELECT count(*) FROM blessings b"
                      " WHERE b.id = (SELECT max(id) FROM blessings WHERE scope IS r.scope)"
                      " AND b.run_id = r.id), r.run_dir FROM runs r ORDER BY r.id";
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        *error = db_error(h, "cannot read");
        return -1;
    }
    fprintf(out, "%-24s %-20s %5s %-7s %s\n", "label", "recorded", "cells", "blessed",
            "run directory");
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        fprintf(out, "%-24s %-20s %5d %-7s %s\n", text_or(st, 0, "-"), text_or(st, 1, "-"),
                sqlite3_column_int(st, 2), sqlite3_column_int(st, 3) ? "yes" : "",
                text_or(st, 4, "-"));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        *error = db_error(h, "cannot read");
        return -1;
    }
    return 0;
}

/* The records a statement yields, a row at a time: cell, collector, measure,
 * kernel, then n or a count, and the moments when there are 15 columns. */
static int read_records(ar_history_t *h, sqlite3_stmt *st, ar_history_record_t **records,
                        size_t *count, char **error)
{
    size_t capacity = 16;
    *records = ar_xcalloc(capacity, sizeof **records);
    *count = 0;
    int rc, full = sqlite3_column_count(st) >= 15;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*count == capacity)
            *records = ar_xrealloc(*records, (capacity *= 2) * sizeof **records);
        ar_history_record_t *r = &(*records)[(*count)++];
        memset(r, 0, sizeof *r);
        r->cell = ar_xstrdup(text_or(st, 0, ""));
        r->collector = ar_xstrdup(text_or(st, 1, ""));
        r->measure = ar_xstrdup(text_or(st, 2, ""));
        r->kernel = ar_xstrdup(text_or(st, 3, ""));
        r->n = (size_t)sqlite3_column_int64(st, 4);
        if (!full)
            continue;
        r->better = sqlite3_column_int(st, 5);
        r->headline = sqlite3_column_int(st, 6);
        r->gated = sqlite3_column_int(st, 7);
        r->log_scale = sqlite3_column_type(st, 8) != SQLITE_NULL;
        r->mean_log = sqlite3_column_double(st, 8);
        r->var_log = sqlite3_column_double(st, 9);
        r->mean = sqlite3_column_double(st, 10);
        r->var = sqlite3_column_double(st, 11);
        r->median = sqlite3_column_double(st, 12);
        r->min = sqlite3_column_double(st, 13);
        r->max = sqlite3_column_double(st, 14);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE)
        return 0;
    *error = db_error(h, "cannot read");
    ar_history_records_free(*records, *count);
    *records = NULL;
    *count = 0;
    return -1;
}

int ar_history_records(ar_history_t *h, long long run_id, ar_history_record_t **records,
                       size_t *count, char **error)
{
    sqlite3_stmt *st = NULL;
    const char *sql = "SELECT cell, collector, measure, kernel, n, better, headline, gated,"
                      " mean_log, var_log, mean, var, median, min, max FROM records"
                      " WHERE run_id = ?";
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        *error = db_error(h, "cannot read");
        return -1;
    }
    sqlite3_bind_int64(st, 1, run_id);
    return read_records(h, st, records, count, error);
}

int ar_history_counts(ar_history_t *h, const char *scope, ar_history_record_t **records,
                      size_t *count, char **error)
{
    sqlite3_stmt *st = NULL;
    const char *sql = "SELECT cell, collector, measure, kernel, count(*) FROM records"
                      " JOIN runs ON runs.id = records.run_id WHERE runs.scope IS ?"
                      " GROUP BY cell, collector, measure, kernel";
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        *error = db_error(h, "cannot read");
        return -1;
    }
    sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
    return read_records(h, st, records, count, error);
}

int ar_history_runs(ar_history_t *h, const char *scope, int blessed, size_t limit,
                    long long *ids, size_t *count, char **error)
{
    sqlite3_stmt *st = NULL;
    const char *sql = blessed ? "SELECT run_id FROM blessings WHERE scope IS ?"
                                " ORDER BY id DESC LIMIT 1"
                              : "SELECT id FROM runs WHERE scope IS ? ORDER BY id DESC LIMIT ?";
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
        *error = db_error(h, "cannot read");
        return -1;
    }
    sqlite3_bind_text(st, 1, scope, -1, SQLITE_STATIC);
    if (!blessed)
        sqlite3_bind_int64(st, 2, (sqlite3_int64)limit);
    int rc;
    *count = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && *count < limit)
        ids[(*count)++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE)
        return 0;
    *error = db_error(h, "cannot read");
    return -1;
}

char *ar_history_run_text(ar_history_t *h, long long run_id, const char *column)
{
    sqlite3_stmt *st = NULL;
    char *text = NULL;
    char *sql = ar_xasprintf("SELECT %s FROM runs WHERE id = ?",
                             !strcmp(column, "label") ? "label" : "provenance");
    if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, run_id);
        if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
            text = ar_xstrdup((const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
    free(sql);
    return text;
}

#else /* !HAVE_SQLITE3 */

int ar_history_available(void)
{
    return 0;
}

ar_history_t *ar_history_open(const char *path, int create, char **error)
{
    (void)create;
    *error = ar_xasprintf("--history %s: this aorta-run was built without SQLite (install "
                          "libsqlite3-dev and configure again)",
                          path);
    return NULL;
}

void ar_history_close(ar_history_t *history)
{
    (void)history;
}

int ar_history_append(ar_history_t *history, const ar_history_run_t *run,
                      const ar_history_record_t *records, size_t count, int bless,
                      char **error)
{
    (void)history, (void)run, (void)records, (void)count, (void)bless;
    *error = ar_xstrdup("--history: built without SQLite");
    return -1;
}

int ar_history_bless(ar_history_t *history, const char *label, char **error)
{
    (void)history, (void)label;
    *error = ar_xstrdup("--history: built without SQLite");
    return -1;
}

int ar_history_list(ar_history_t *history, FILE *out, char **error)
{
    (void)history, (void)out;
    *error = ar_xstrdup("--history: built without SQLite");
    return -1;
}

int ar_history_records(ar_history_t *history, long long run_id, ar_history_record_t **records,
                       size_t *count, char **error)
{
    (void)history, (void)run_id, (void)records, (void)count;
    *error = ar_xstrdup("--history: built without SQLite");
    return -1;
}

int ar_history_counts(ar_history_t *history, const char *scope, ar_history_record_t **records,
                      size_t *count, char **error)
{
    (void)history, (void)scope, (void)records, (void)count;
    *error = ar_xstrdup("--history: built without SQLite");
    return -1;
}

int ar_history_runs(ar_history_t *history, const char *scope, int blessed, size_t limit,
                    long long *ids, size_t *count, char **error)
{
    (void)history, (void)scope, (void)blessed, (void)limit, (void)ids, (void)count;
    *error = ar_xstrdup("--history: built without SQLite");
    return -1;
}

char *ar_history_run_text(ar_history_t *history, long long run_id, const char *column)
{
    (void)history, (void)run_id, (void)column;
    return NULL;
}

#endif
