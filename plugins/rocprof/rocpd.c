/* SPDX-License-Identifier: MIT */
/* rocpd.c - kernel dispatches from rocprofv3's rocpd databases
 * (<o>_results.db, SQLite), read through the plain-name views
 * rocpd_kernel_dispatch and rocpd_info_kernel_symbol and nothing else
 * (docs/collectors/rocprof.md, "rocpd databases").
 *
 * The dispatches are visited once, in the order the view yields them, by
 * an aggregate function of this reader's, and summed per (guid, kernel_id)
 * in a table the size of the number of kernels; the symbols then name
 * them.  Memory is flat in the number of dispatches.  A file is opened
 * read-only and immutable (no lock, no journal, nothing written), and what
 * it holds counts only when every row was read: a corrupt, truncated or
 * differently shaped database adds nothing and warns once.  What reading
 * one may cost is bounded by rocpd_guard.c. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rocprof.h"

#if HAVE_SQLITE3

#include <stdio.h>
#include <sqlite3.h>

#include "rocpd_guard.h"

#define DISPATCH_FUNCTION "aorta_rocprof_dispatch"
#define DISPATCH_SQL "SELECT " DISPATCH_FUNCTION "(`guid`, `kernel_id`, `start`, `end`, " \
                     "`queue_id`) FROM `rocpd_kernel_dispatch`"
/* A database whose dispatches have no queue (a view of its own): the
 * timeline then has one track for them. */
#define DISPATCH_SQL_NO_QUEUE "SELECT " DISPATCH_FUNCTION "(`guid`, `kernel_id`, `start`, " \
                              "`end`) FROM `rocpd_kernel_dispatch`"
#define SYMBOL_SQL "SELECT `guid`, `id`, `display_name` FROM `rocpd_info_kernel_symbol`"

/* One (guid, kernel_id) seen in the dispatches, in first-seen order. */
typedef struct slot {
    size_t guid;        /* index into the guid table */
    int64_t kernel_id;
    int64_t count;
    double sum, comp;   /* Neumaier: the total is sum + comp */
    char *name;         /* from the symbols; NULL until named */
    size_t name_len;
} slot_t;

/* Open addressing over indexes + 1 (0: empty). */
typedef struct index_table {
    size_t *cells;
    size_t mask;
} index_table_t;

typedef struct reader {
    char **guids;
    size_t *guid_lens;
    size_t guid_count, guid_cap;
    index_table_t guid_index;
    slot_t *slots;
    size_t slot_count, slot_cap;
    index_table_t slot_index;
    size_t last_guid, last;  /* the previous dispatch's guid and slot; SIZE_MAX: none */
    /* For the timeline (when asked): each dispatch's slot, queue and times,
     * named once the symbols are read; one more than the timeline keeps. */
    struct timed {
        size_t slot;
        int64_t queue;
        uint64_t start, end;
    } *timed;
    size_t timed_count, timed_cap;
    int want_timed;
} reader_t;

static uint64_t hash_bytes(const void *data, size_t len, uint64_t h)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static uint64_t slot_hash(size_t guid, int64_t kernel_id)
{
    return mix((uint64_t)kernel_id * 0x9e3779b97f4a7c15ULL + guid);
}

/* Room for one more entry, keeping the load at most one half. */
static void table_reserve(index_table_t *table, size_t count, uint64_t (*hash_of)(const reader_t *, size_t),
                          const reader_t *r)
{
    size_t cap = table->cells ? table->mask + 1 : 0;
    if ((count + 1) * 2 <= cap)
        return;
    size_t new_cap = cap ? cap * 2 : 64;
    size_t *cells = calloc(new_cap, sizeof *cells);
    if (!cells)
        cells = cc_xcheck(NULL);
    for (size_t i = 0; i < count; i++) {
        size_t at = (size_t)hash_of(r, i) & (new_cap - 1);
        while (cells[at])
            at = (at + 1) & (new_cap - 1);
        cells[at] = i + 1;
    }
    free(table->cells);
    table->cells = cells;
    table->mask = new_cap - 1;
}

static uint64_t guid_hash_at(const reader_t *r, size_t i)
{
    return hash_bytes(r->guids[i], r->guid_lens[i], 0xcbf29ce484222325ULL);
}

static uint64_t slot_hash_at(const reader_t *r, size_t i)
{
    return slot_hash(r->slots[i].guid, r->slots[i].kernel_id);
}

/* The index of the guid (add: interned when new), or SIZE_MAX. */
static size_t guid_find(reader_t *r, const void *data, size_t len, int add)
{
    if (r->guid_count) {
        size_t at = (size_t)hash_bytes(data, len, 0xcbf29ce484222325ULL) & r->guid_index.mask;
        for (size_t cell; (cell = r->guid_index.cells[at]) != 0; at = (at + 1) & r->guid_index.mask)
            if (r->guid_lens[cell - 1] == len && (len == 0 || memcmp(r->guids[cell - 1], data, len) == 0))
                return cell - 1;
    }
    if (!add)
        return SIZE_MAX;
    table_reserve(&r->guid_index, r->guid_count, guid_hash_at, r);
    if (r->guid_count == r->guid_cap) {
        cc_xgrow((void **)&r->guids, &r->guid_cap, r->guid_count + 1, sizeof *r->guids);
        r->guid_lens = cc_xrealloc(r->guid_lens, r->guid_cap * sizeof *r->guid_lens);
    }
    size_t i = r->guid_count++;
    r->guids[i] = cc_xstrndup(data ? data : "", len);
    r->guid_lens[i] = len;
    size_t at = (size_t)guid_hash_at(r, i) & r->guid_index.mask;
    while (r->guid_index.cells[at])
        at = (at + 1) & r->guid_index.mask;
    r->guid_index.cells[at] = i + 1;
    return i;
}

static slot_t *slot_find(reader_t *r, size_t guid, int64_t kernel_id, int add)
{
    if (r->slot_count) {
        size_t at = (size_t)slot_hash(guid, kernel_id) & r->slot_index.mask;
        for (size_t cell; (cell = r->slot_index.cells[at]) != 0; at = (at + 1) & r->slot_index.mask)
            if (r->slots[cell - 1].guid == guid && r->slots[cell - 1].kernel_id == kernel_id)
                return &r->slots[cell - 1];
    }
    if (!add)
        return NULL;
    table_reserve(&r->slot_index, r->slot_count, slot_hash_at, r);
    cc_xgrow((void **)&r->slots, &r->slot_cap, r->slot_count + 1, sizeof *r->slots);
    size_t i = r->slot_count++;
    slot_t *slot = &r->slots[i];
    memset(slot, 0, sizeof *slot);
    slot->guid = guid;
    slot->kernel_id = kernel_id;
    size_t at = (size_t)slot_hash(guid, kernel_id) & r->slot_index.mask;
    while (r->slot_index.cells[at])
        at = (at + 1) & r->slot_index.mask;
    r->slot_index.cells[at] = i + 1;
    return slot;
}

static void reader_free(reader_t *r)
{
    for (size_t i = 0; i < r->guid_count; i++)
        free(r->guids[i]);
    free(r->guids);
    free(r->guid_lens);
    free(r->guid_index.cells);
    for (size_t i = 0; i < r->slot_count; i++)
        free(r->slots[i].name);
    free(r->slots);
    free(r->slot_index.cells);
    free(r->timed);
}

/* A timestamp as the CSV path reads one: a finite number.  Integers (what
 * rocprofv3 stores) and reals count; text, blobs and NULL do not. */
static int timestamp(sqlite3_value *value, double *out)
{
    switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER:
        *out = (double)sqlite3_value_int64(value);
        return 0;
    case SQLITE_FLOAT:
        *out = sqlite3_value_double(value);
        return isfinite(*out) ? 0 : -1;
    default:
        return -1;
    }
}

/* A dispatch's integer times and queue for the timeline (rocprofv3 stores
 * nanoseconds as integers; another form is no timestamp to draw). */
static void keep_timed(reader_t *r, size_t slot, sqlite3_value **argv, sqlite3_value *queue)
{
    if (!r->want_timed || sqlite3_value_type(argv[2]) != SQLITE_INTEGER
        || sqlite3_value_type(argv[3]) != SQLITE_INTEGER || sqlite3_value_int64(argv[2]) < 0)
        return;
    /* One past the SDK's bound is kept, so that aorta_dispatches_add()
     * says once, as for any collector, that the rest is dropped. */
    if (r->timed_count > AORTA_DISPATCHES_MAX)
        return;
    cc_xgrow((void **)&r->timed, &r->timed_cap, r->timed_count + 1, sizeof *r->timed);
    r->timed[r->timed_count++] = (struct timed){
        slot, queue && sqlite3_value_type(queue) == SQLITE_INTEGER ? sqlite3_value_int64(queue) : -1,
        (uint64_t)sqlite3_value_int64(argv[2]), (uint64_t)sqlite3_value_int64(argv[3])};
}

/* One dispatch (guid, kernel_id, start, end, queue_id) into its slot.  Called by
 * SQLite for each row as an aggregate's step, inside the scan: about twice
 * as fast as handing every row back through sqlite3_step(), and SQLite's
 * own GROUP BY would sort (docs/collectors/rocprof.md, "Speed"). */
static void add_dispatch(sqlite3_context *context, int argc, sqlite3_value **argv)
{
    reader_t *r = sqlite3_user_data(context);
    if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER)
        return; /* no kernel to name it by */
    double start = 0, end = 0;
    if (timestamp(argv[2], &start) != 0 || timestamp(argv[3], &end) != 0 || end < start)
        return; /* the CSV path's rule for a trace row */
    int64_t kernel_id = sqlite3_value_int64(argv[1]);
    const void *guid = sqlite3_value_blob(argv[0]);
    size_t guid_len = (size_t)sqlite3_value_bytes(argv[0]);
    /* Dispatches of one process, often of one kernel, come in runs. */
    if (r->last_guid == SIZE_MAX || guid_len != r->guid_lens[r->last_guid]
        || (guid_len && memcmp(guid, r->guids[r->last_guid], guid_len) != 0)) {
        r->last_guid = guid_find(r, guid, guid_len, 1);
        r->last = SIZE_MAX;
    }
    slot_t *slot = r->last != SIZE_MAX ? &r->slots[r->last] : NULL;
    if (!slot || slot->kernel_id != kernel_id) {
        slot = slot_find(r, r->last_guid, kernel_id, 1);
        r->last = (size_t)(slot - r->slots);
    }
    double x = end - start, t = slot->sum + x;
    if (fabs(slot->sum) >= fabs(x))
        slot->comp += (slot->sum - t) + x;
    else
        slot->comp += (x - t) + slot->sum;
    slot->sum = t;
    slot->count++;
    keep_timed(r, (size_t)(slot - r->slots), argv, argc > 4 ? argv[4] : NULL);
}

static void add_dispatch_end(sqlite3_context *context)
{
    (void)context;
}

/* Every dispatch into the slots.  SQLITE_DONE, or the error. */
static int read_dispatches(sqlite3 *db, reader_t *r)
{
    int flags = SQLITE_UTF8;
#ifdef SQLITE_DIRECTONLY
    flags |= SQLITE_DIRECTONLY; /* not callable from the file's own views */
#endif
    int rc = sqlite3_create_function_v2(db, DISPATCH_FUNCTION, -1, flags, r, NULL, add_dispatch,
                                        add_dispatch_end, NULL);
    if (rc != SQLITE_OK)
        return rc;
    sqlite3_stmt *stmt = NULL;
    rc = sqlite3_prepare_v2(db, DISPATCH_SQL, -1, &stmt, NULL);
    if (rc == SQLITE_ERROR && strstr(sqlite3_errmsg(db), "no such column: queue_id"))
        rc = sqlite3_prepare_v2(db, DISPATCH_SQL_NO_QUEUE, -1, &stmt, NULL);
    if (rc != SQLITE_OK)
        return rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        ;
    sqlite3_finalize(stmt);
    return rc;
}

/* Name the slots: the first symbol row of each (guid, id) wins. */
static int read_symbols(sqlite3 *db, reader_t *r)
{
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, SYMBOL_SQL, -1, &stmt, NULL);
    if (rc != SQLITE_OK)
        return rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (sqlite3_column_type(stmt, 1) != SQLITE_INTEGER
            || sqlite3_column_type(stmt, 2) != SQLITE_TEXT)
            continue;
        size_t guid = guid_find(r, sqlite3_column_blob(stmt, 0),
                                (size_t)sqlite3_column_bytes(stmt, 0), 0);
        if (guid == SIZE_MAX)
            continue; /* no dispatch of that process */
        slot_t *slot = slot_find(r, guid, sqlite3_column_int64(stmt, 1), 0);
        if (!slot || slot->name)
            continue;
        const char *text = (const char *)sqlite3_column_text(stmt, 2);
        size_t len = (size_t)sqlite3_column_bytes(stmt, 2);
        slot->name = cc_xstrndup(text ? text : "", len);
        slot->name_len = len;
    }
    sqlite3_finalize(stmt);
    return rc;
}

/* Percent-encode everything but unreserved characters and '/', so '?',
 * '#' and '%' in a path stay part of it. */
static char *file_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    static const char tail[] = "?mode=ro&immutable=1";
    size_t len = strlen(path);
    char *uri = cc_xmalloc(5 + 3 * len + sizeof tail);
    char *o = uri;
    memcpy(o, "file:", 5);
    o += 5;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)path[i];
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
            || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            *o++ = (char)c;
        } else {
            *o++ = '%';
            *o++ = hex[c >> 4];
            *o++ = hex[c & 15];
        }
    }
    memcpy(o, tail, sizeof tail);
    return uri;
}

char *rocprof_rocpd_uri(const char *path)
{
    return file_uri(path);
}

/* The name SQLite should open: the walk's descriptor through /proc when
 * that is the same file (the payload cannot swap it for a link between the
 * walk's open and SQLite's), else the path. */
static char *open_name(const char *path, int fd, struct stat *st)
{
    if (fd >= 0 && fstat(fd, st) == 0) {
        char proc[64];
        struct stat via;
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        if (stat(proc, &via) == 0 && via.st_dev == st->st_dev && via.st_ino == st->st_ino)
            return file_uri(proc);
        return file_uri(path);
    }
    if (stat(path, st) != 0)
        memset(st, 0, sizeof *st);
    return file_uri(path);
}

/* Kernels a database holds: the sums of the slots that have a name. */
static void report_slots(const reader_t *r, aorta_kernels_t *kernels)
{
    for (size_t i = 0; i < r->slot_count; i++) {
        const slot_t *slot = &r->slots[i];
        if (!slot->name)
            continue; /* a dispatch of no known kernel */
        size_t len = 0;
        const char *name = aorta_text_strip(slot->name, slot->name_len, &len);
        int truncated = 0;
        /* Metrics are JSON: a name that is not UTF-8 names nothing,
         * as such a byte ends a CSV. */
        if (len == 0 || aorta_utf8_valid_prefix(name, len, &truncated, NULL) != len)
            continue;
        aorta_kernels_add(kernels, name, len, slot->sum + slot->comp, slot->count);
    }
}

/* The kept dispatches of named kernels into dispatches, each on its
 * queue's track, in the order the database gave them. */
static void report_timed(const reader_t *r, aorta_dispatches_t *dispatches)
{
    char track[48];
    for (size_t i = 0; i < r->timed_count; i++) {
        const struct timed *d = &r->timed[i];
        const slot_t *slot = &r->slots[d->slot];
        size_t len = 0;
        const char *name = slot->name ? aorta_text_strip(slot->name, slot->name_len, &len) : NULL;
        if (!name || len == 0 || d->end < d->start
            || aorta_utf8_valid_prefix(name, len, NULL, NULL) != len)
            continue; /* what report_slots() leaves out */
        if (d->queue >= 0)
            snprintf(track, sizeof track, "queue %lld", (long long)d->queue);
        else
            snprintf(track, sizeof track, "queue ?");
        aorta_dispatches_add(dispatches, track, name, len, d->start, d->end);
    }
}

/* SQLite's companions of a database: a write-ahead log that is not empty
 * may hold dispatches the file itself lacks, and reading it would make
 * SQLite write a -shm index beside the capture; a rollback journal means
 * a write was cut short.  Neither is read: each is named once. */
static int companion(const char *path, const char *suffix, char **name)
{
    *name = cc_xasprintf("%s%s", path, suffix);
    struct stat st;
    return lstat(*name, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

static void warn_companions(const char *path)
{
    char *name;
    if (companion(path, "-wal", &name))
        aorta_warn("rocprof", "%s: %s, its write-ahead log, is not read (SQLite would write a "
                              "-shm file beside the capture to read it); dispatches still in it "
                              "are left out", path, name);
    free(name);
    if (companion(path, "-journal", &name))
        aorta_warn("rocprof", "%s: %s, a rollback journal left by a write cut short, is not "
                              "applied; the database is read as it is", path, name);
    free(name);
}

int rocprof_rocpd_read(const char *path, int fd, aorta_kernels_t *kernels,
                       aorta_dispatches_t *dispatches)
{
    struct stat st;
    char *uri = open_name(path, fd, &st);
    sqlite3 *db = NULL;
    reader_t r;
    memset(&r, 0, sizeof r);
    r.last_guid = r.last = SIZE_MAX;
    r.want_timed = dispatches != NULL;
    rocpd_guard_t guard;
    rocpd_guard_begin(&guard, &st, DISPATCH_FUNCTION);
    int rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                             NULL);
    free(uri);
    if (rc == SQLITE_OK)
        rc = rocpd_guard_arm(&guard, db);
    if (rc == SQLITE_OK)
        rc = read_dispatches(db, &r);
    if (rc == SQLITE_DONE)
        rc = read_symbols(db, &r);
    int status = 0;
    if (rc != SQLITE_DONE) {
        const char *why = rocpd_guard_why(&guard);
        if (!why)
            why = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        aorta_warn("rocprof", "%s: not read as a rocpd database (%s); its kernels are left out",
                   path, why);
        status = -1;
    } else {
        report_slots(&r, kernels);
        if (dispatches)
            report_timed(&r, dispatches);
    }
    sqlite3_close(db);
    rocpd_guard_end(&guard);
    warn_companions(path);
    reader_free(&r);
    return status;
}

int rocprof_rocpd_available(void)
{
    return 1;
}

#else /* !HAVE_SQLITE3 */

int rocprof_rocpd_read(const char *path, int fd, aorta_kernels_t *kernels,
                       aorta_dispatches_t *dispatches)
{
    (void)path, (void)fd, (void)kernels, (void)dispatches;
    return -1;
}

char *rocprof_rocpd_uri(const char *path)
{
    return cc_xstrdup(path);
}

int rocprof_rocpd_available(void)
{
    return 0;
}

#endif
