/* SPDX-License-Identifier: MIT */
/* The rocprof collector's rocpd databases (docs/collectors/rocprof.md,
 * "rocpd databases"): the databases tests/collectors/rocprof/rocpd_fixtures.py builds
 * from rocprofv3's schema (table sets per process, plain-name views,
 * several files, names with quotes and commas, an empty capture, broken
 * files), which source wins when a directory holds CSVs and databases,
 * that nothing is written next to a database, the stand-in's rocpd output,
 * and the same dispatches as CSV and as rocpd giving the same metrics. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rptest.h"

#define SGEMM "sgemm_tiled(float const*, float const*, float*, int)"
#define FILL "__amd_rocclr_fillBufferAligned"
#define ELEMENTWISE "void at::native::vectorized_elementwise_kernel<4, " \
                    "at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, " \
                    "at::native::FillFunctor<float>, at::detail::Array<char*, 1>)"
#define STATS_HEADER "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\"," \
                     "\"MinNs\",\"MaxNs\",\"StdDev\"\n"
#define TRACE_HEADER "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\"," \
                     "\"Dispatch_Id\",\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\"," \
                     "\"Start_Timestamp\",\"End_Timestamp\"\n"

static char *fixtures; /* built once per suite by rocpd_fixtures.py */
static char *dir;      /* a fresh directory per test */
static char *warnings; /* what the collector warned, one line each */

static char *generator(void)
{
    return tu_srcdir("tests/collectors/rocprof/rocpd_fixtures.py");
}

static void run_generator(const char *const *args)
{
    char *script = generator();
    char *argv[8] = {script};
    for (size_t i = 0; args[i] && i < 6; i++)
        argv[i + 1] = (char *)args[i];
    char *err = NULL;
    int status = tu_run(argv, NULL, NULL, &err);
    ck_assert_msg(status == 0, "rocpd_fixtures.py failed (%d): %s", status, err);
    free(err);
    free(script);
}

static void suite_setup(void)
{
    rp_setup();
    fixtures = tu_tmpdir();
    const char *args[] = {"fixtures", fixtures, NULL};
    run_generator(args);
}

static void suite_teardown(void)
{
    tu_rmtree(fixtures);
    free(fixtures);
    rp_teardown();
}

static void collect_warning(const char *source, const char *message, void *user)
{
    (void)user;
    ck_assert_str_eq(source, "rocprof");
    size_t have = warnings ? strlen(warnings) : 0;
    warnings = realloc(warnings, have + strlen(message) + 2);
    strcpy(warnings + have, message);
    strcat(warnings, "\n");
}

static void setup(void)
{
    dir = tu_tmpdir();
    warnings = NULL;
    aorta_warning_set_handler(collect_warning, NULL);
}

static void teardown(void)
{
    aorta_warning_set_handler(NULL, NULL);
    tu_rmtree(dir);
    free(dir);
    free(warnings);
    warnings = NULL;
}

static size_t warning_count(void)
{
    size_t n = 0;
    for (const char *p = warnings; p && *p; p++)
        n += *p == '\n';
    return n;
}

static void expect_warning(const char *needle)
{
    ck_assert_msg(warnings && strstr(warnings, needle), "no warning with '%s' in: %s", needle,
                  warnings ? warnings : "(none)");
}

static char *fixture(const char *name)
{
    return tu_join(fixtures, name);
}

#if HAVE_SQLITE3

static aorta_metrics_t *parse_fixture(const char *name)
{
    char *path = fixture(name);
    aorta_metrics_t *m = rp_parse(path);
    free(path);
    return m;
}

/* Copy the binary file src to dst (parents made). */
static void copy_file(const char *src, const char *dst)
{
    FILE *in = fopen(src, "rb");
    ck_assert_ptr_nonnull(in);
    tu_write(dst, "");
    FILE *out = fopen(dst, "wb");
    ck_assert_ptr_nonnull(out);
    char buf[65536];
    for (size_t got; (got = fread(buf, 1, sizeof buf, in)) > 0;)
        ck_assert_uint_eq(fwrite(buf, 1, got, out), got);
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
}

/* fixtures/<name>/<file> copied to dir/<as>. */
static void copy_fixture(const char *name, const char *file, const char *as)
{
    char *from_dir = fixture(name);
    char *from = tu_join(from_dir, file);
    char *to = tu_join(dir, as);
    copy_file(from, to);
    free(to);
    free(from);
    free(from_dir);
}

static void expect_top(const aorta_metrics_t *metrics, const char *const *names)
{
    const aorta_metric_t *top = rp_strings(metrics, "rocprof_top_kernels");
    size_t n = 0;
    while (names[n])
        n++;
    ck_assert_uint_eq(top->string_count, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(top->strings[i], names[i]);
}

static void expect_metrics(const aorta_metrics_t *metrics, int64_t count, double gpu_ms,
                           double top_ms, const char *const *top)
{
    ck_assert_uint_eq(aorta_metrics_count(metrics), 5);
    ck_assert_int_eq(rp_int(metrics, "rocprof_kernel_count"), count);
    RP_APPROX(rp_double(metrics, "rocprof_gpu_time_ms"), gpu_ms);
    RP_APPROX(rp_double(metrics, "rocprof_top_kernel_ms"), top_ms);
    expect_top(metrics, top);
}

static void expect_single(const aorta_metrics_t *m)
{
    const char *top[] = {SGEMM, ELEMENTWISE, FILL, NULL};
    expect_metrics(m, 9, 0.47, 0.4, top);
}

/* Two metric sets are the same, bit for bit. */
static void expect_same(const aorta_metrics_t *a, const aorta_metrics_t *b)
{
    ck_assert_uint_eq(aorta_metrics_count(a), aorta_metrics_count(b));
    for (size_t i = 0; i < aorta_metrics_count(a); i++) {
        const aorta_metric_t *x = aorta_metrics_at(a, i), *y = aorta_metrics_at(b, i);
        ck_assert_str_eq(x->key, y->key);
        ck_assert_int_eq(x->type, y->type);
        if (strcmp(x->key, "rocprof_artifact_dir") == 0)
            continue;
        switch (x->type) {
        case AORTA_METRIC_INT:
            ck_assert_int_eq(x->int_value, y->int_value);
            break;
        case AORTA_METRIC_DOUBLE:
            ck_assert_msg(x->double_value == y->double_value, "%s: %.17g vs %.17g", x->key,
                          x->double_value, y->double_value);
            break;
        case AORTA_METRIC_STRINGS:
            ck_assert_uint_eq(x->string_count, y->string_count);
            for (size_t k = 0; k < x->string_count; k++)
                ck_assert_str_eq(x->strings[k], y->strings[k]);
            break;
        default:
            ck_assert_str_eq(x->string_value, y->string_value);
        }
    }
}

/* ---- what a database holds ---- */

START_TEST(one_process)
{
    aorta_metrics_t *m = parse_fixture("single");
    /* dispatches with end < start, a non-numeric end or no symbol are not counted */
    expect_single(m);
    char *path = fixture("single");
    ck_assert_str_eq(rp_string(m, "rocprof_artifact_dir"), path);
    ck_assert_str_eq(aorta_metrics_at(m, 0)->key, "rocprof_artifact_dir");
    ck_assert_uint_eq(warning_count(), 0);
    free(path);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(several_processes_as_the_views_present_them)
{
    /* views over both table sets: kernel ids repeat across processes, the
     * guid tells them apart; equal totals keep first-seen order */
    aorta_metrics_t *m = parse_fixture("multi_process_union");
    const char *both[] = {"beta", "gamma", "alpha", NULL};
    expect_metrics(m, 5, 0.0085, 0.003, both);
    aorta_metrics_free(m);
    /* rocprofv3's own views (IF NOT EXISTS) show the first process only */
    m = parse_fixture("multi_process_first");
    const char *first[] = {"beta", "alpha", NULL};
    expect_metrics(m, 3, 0.005, 0.003, first);
    aorta_metrics_free(m);
    ck_assert_uint_eq(warning_count(), 0);
}
END_TEST

START_TEST(rocprofv3s_own_ddl_passes_the_guard)
{
    /* AUTOINCREMENT, double-quoted defaults, CHECK, foreign keys, an
     * index: nothing the authorizer or the replaced functions refuse */
    aorta_metrics_t *m = parse_fixture("real_ddl");
    const char *top[] = {SGEMM, NULL};
    expect_metrics(m, 2, 0.2, 0.2, top);
    ck_assert_uint_eq(warning_count(), 0);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(several_files_are_summed)
{
    aorta_metrics_t *m = parse_fixture("several_files");
    const char *top[] = {"k_two", "k_shared", NULL};
    expect_metrics(m, 5, 0.009, 0.005, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(names_kept_whole)
{
    aorta_metrics_t *m = parse_fixture("quoted_name");
    const char *top[] = {"void k<\"a,b\">(int, \"x, y\")", "plain", "padded", NULL};
    expect_metrics(m, 4, 0.0085, 0.007, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(empty_capture)
{
    char *path = fixture("empty_capture");
    aorta_metrics_t *m = rp_parse(path);
    rp_assert_only_artifact_dir(m, path);
    ck_assert_uint_eq(warning_count(), 0);
    aorta_metrics_free(m);
    free(path);
}
END_TEST

/* ---- broken files: their kernels and one warning each, never more ---- */

START_TEST(broken_databases_warn_once)
{
    const char *names[][2] = {{"truncated", "malformed"},
                              {"not_sqlite", "not a database"},
                              {"schema_changed", "no such column: display_name"},
                              {"no_views", "no such table: rocpd_kernel_dispatch"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        free(warnings);
        warnings = NULL;
        char *path = fixture(names[i][0]);
        aorta_metrics_t *m = rp_parse(path);
        rp_assert_only_artifact_dir(m, path);
        ck_assert_uint_eq(warning_count(), 1);
        expect_warning(names[i][1]);
        expect_warning("aorta_results.db: not read as a rocpd database");
        aorta_metrics_free(m);
        free(path);
    }
    /* a bad file costs its own kernels only */
    free(warnings);
    warnings = NULL;
    aorta_metrics_t *m = parse_fixture("truncated_plus_good");
    const char *top[] = {"survivor", NULL};
    expect_metrics(m, 3, 0.003, 0.003, top);
    ck_assert_uint_eq(warning_count(), 1);
    expect_warning("a_results.db");
    aorta_metrics_free(m);
}
END_TEST

/* The one dispatch of the trace CSV each hostile database lies beside. */
static void expect_from_trace(const aorta_metrics_t *m)
{
    const char *trace[] = {"from_trace", NULL};
    expect_metrics(m, 1, 0.0006, 0.0006, trace);
}

/* Databases that ask for expensive work (rocpd_fixtures.py, hostile()):
 * each is refused or cut with one warning that says why, and the trace CSV
 * beside it counts.  Before the budget was bounded, the printf, blob and
 * generated-column views spent 20-60 s and the sparse cross join ran until
 * the parse timeout (10 minutes), losing the CSV's metrics. */
static const char *const hostile_cases[][2] = {
    {"printf_view", "view 'rocpd_kernel_dispatch' calls length(); rocprofv3's views only read tables"},
    {"blob_view", "view 'rocpd_kernel_dispatch' calls length(); rocprofv3's views only read tables"},
    {"recursive_view", "the recursive query 'c' is refused; rocprofv3's views only read tables"},
    {"generated_column", "the schema calls printf(); rocprofv3's tables compute nothing"},
    {"cross_join", " bytes on disk needs: cut after 2"},
    /* 100 GB of holes: the work allowed is that of its 8 KiB on disk
     * ("more work than a database of 8192 bytes on disk needs: cut after
     * 21 million SQLite steps") */
    {"sparse", " bytes on disk needs: cut after 2"},
    /* few steps, each one copying a megabyte: the time budget */
    {"slow_steps", "s, the time budget of the databases of its directory (2 s and 1 s per 10 MB on disk)"},
    /* a sort of gigabytes: SQLite's heap limit */
    {"sort_view", "(out of memory)"},
};

START_TEST(hostile_databases_are_bounded)
{
    const char *name = hostile_cases[_i][0];
    char *rel = tu_join("hostile", name);
    char *path = fixture(rel);
    aorta_metrics_t *m = rp_parse(path);
    expect_from_trace(m);
    ck_assert_uint_eq(warning_count(), 1);
    expect_warning(hostile_cases[_i][1]);
    expect_warning("aorta_results.db: not read as a rocpd database (");
    aorta_metrics_free(m);
    free(path);
    free(rel);
}
END_TEST

START_TEST(the_sparse_file_is_sparse)
{
    /* the case above holds only if the file claims far more than it holds */
    char *path = fixture("hostile/sparse/aorta_results.db");
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_ge(st.st_size, (off_t)1000000000);
    ck_assert_int_le(st.st_blocks * 512, 1 << 20);
    free(path);
}
END_TEST

static size_t occurrences(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *at = text; (at = strstr(at, needle)) != NULL; at += strlen(needle))
        n++;
    return n;
}

START_TEST(hostile_databases_together_within_the_parse_timeout)
{
    /* All of them under one directory, through aorta-run --parse (the
     * parse child): one time budget for them all, and every trace CSV
     * still counts within AORTA_PARSE_TIMEOUT. */
    char *aorta_run = tu_aorta_run();
    char *modules = tu_builddir("plugins");
    char *hostile = fixture("hostile");
    char *argv[] = {aorta_run, "--plugin-dir", modules, "--parse", "rocprof", hostile, NULL};
    char *env[] = {"AORTA_PARSE_TIMEOUT=30", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(tu_run(argv, env, &out, &err), 0);
    ck_assert_msg(strstr(out, "\"rocprof_kernel_count\":8") != NULL, "%s\n%s", out, err);
    ck_assert_msg(strstr(out, "\"rocprof_top_kernels\":[\"from_trace\"]") != NULL, "%s", out);
    ck_assert_uint_eq(occurrences(err, "not read as a rocpd database"), 8);
    ck_assert_ptr_null(strstr(err, "interrupted"));
    free(out);
    free(err);
    free(hostile);
    free(modules);
    free(aorta_run);
}
END_TEST

START_TEST(garbage_bytes)
{
    /* an empty file, a SQLite header alone, NULs */
    static const char header[] = "SQLite format 3";
    const struct { const char *data; size_t len; } files[] = {
        {"", 0}, {header, sizeof header}, {"\0\0\0\0\0\0\0\0", 8}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        rp_write_bytes(dir, "x_results.db", files[i].data, files[i].len);
        aorta_metrics_t *m = rp_parse(dir);
        rp_assert_only_artifact_dir(m, dir);
        aorta_metrics_free(m);
    }
    ck_assert_uint_eq(warning_count(), 3);
}
END_TEST

/* ---- how files are found and opened ---- */

static void list_dir(const char *path, char *out, size_t size)
{
    out[0] = '\0';
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        strncat(out, e->d_name, size - strlen(out) - 2);
        strncat(out, "/", size - strlen(out) - 1);
    }
    closedir(d);
}

START_TEST(nothing_written_next_to_a_database)
{
    copy_fixture("single", "aorta_results.db", "aorta_results.db");
    char *db = tu_join(dir, "aorta_results.db");
    struct stat before, after;
    ck_assert_int_eq(stat(db, &before), 0);
    /* a read-only file in a read-only directory reads the same */
    ck_assert_int_eq(chmod(db, 0444), 0);
    ck_assert_int_eq(chmod(dir, 0555), 0);
    aorta_metrics_t *m = rp_parse(dir);
    expect_single(m);
    aorta_metrics_free(m);
    ck_assert_int_eq(chmod(dir, 0755), 0);
    /* writable again: still nothing created (no journal, no -wal, no -shm) */
    ck_assert_int_eq(chmod(db, 0644), 0);
    m = rp_parse(dir);
    expect_single(m);
    aorta_metrics_free(m);
    char listing[256];
    list_dir(dir, listing, sizeof listing);
    ck_assert_uint_eq(strlen(listing), strlen("./../aorta_results.db/"));
    ck_assert_ptr_nonnull(strstr(listing, "aorta_results.db/"));
    ck_assert_int_eq(stat(db, &after), 0);
    ck_assert_int_eq(after.st_size, before.st_size);
    ck_assert(after.st_mtim.tv_sec == before.st_mtim.tv_sec
              && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
    free(db);
}
END_TEST

START_TEST(odd_characters_in_the_path)
{
    const char *sub = "we?ird#na%20me&mode=rw";
    char *rel = tu_join(sub, "aorta_results.db");
    copy_fixture("single", "aorta_results.db", rel);
    char *path = tu_join(dir, sub);
    aorta_metrics_t *m = rp_parse(path);
    expect_single(m);
    ck_assert_str_eq(rp_string(m, "rocprof_artifact_dir"), path);
    ck_assert_uint_eq(warning_count(), 0);
    aorta_metrics_free(m);
    /* and nothing was created beside it */
    char listing[256];
    list_dir(path, listing, sizeof listing);
    ck_assert_uint_eq(strlen(listing), strlen("./../aorta_results.db/"));
    free(path);
    free(rel);
}
END_TEST

START_TEST(symlinks_not_followed)
{
    char *target_dir = fixture("single");
    char *target = tu_join(target_dir, "aorta_results.db");
    char *link = tu_join(dir, "link_results.db");
    ck_assert_int_eq(symlink(target, link), 0);
    aorta_metrics_t *m = rp_parse(dir);
    rp_assert_only_artifact_dir(m, dir);
    ck_assert_uint_eq(warning_count(), 0);
    aorta_metrics_free(m);
    free(link);
    free(target);
    free(target_dir);
}
END_TEST

/* ---- SQLite's companions of a database ---- */

START_TEST(a_write_ahead_log_is_named_not_read)
{
    /* the capture's last dispatches are in its -wal: what the file holds
     * counts, and one warning says the rest is left out */
    char *path = fixture("wal");
    aorta_metrics_t *m = rp_parse(path);
    const char *top[] = {SGEMM, NULL};
    expect_metrics(m, 2, 0.2, 0.2, top);
    ck_assert_uint_eq(warning_count(), 1);
    expect_warning("aorta_results.db-wal, its write-ahead log, is not read (SQLite would write a "
                   "-shm file beside the capture to read it); dispatches still in it are left out");
    aorta_metrics_free(m);
    free(path);
    /* an empty one (a log checkpointed and kept) says nothing; nothing is
     * written beside either */
    copy_fixture("single", "aorta_results.db", "aorta_results.db");
    rp_write(dir, "aorta_results.db-wal", "");
    rp_write(dir, "aorta_results.db-shm", "");
    free(warnings);
    warnings = NULL;
    m = rp_parse(dir);
    expect_single(m);
    ck_assert_uint_eq(warning_count(), 0);
    aorta_metrics_free(m);
    char listing[256];
    list_dir(dir, listing, sizeof listing);
    ck_assert_uint_eq(strlen(listing), strlen("./../aorta_results.db/aorta_results.db-wal/"
                                              "aorta_results.db-shm/"));
}
END_TEST

START_TEST(a_rollback_journal_is_named)
{
    char *path = fixture("journal");
    aorta_metrics_t *m = rp_parse(path);
    const char *top[] = {SGEMM, NULL};
    expect_metrics(m, 2, 0.2, 0.2, top);
    ck_assert_uint_eq(warning_count(), 1);
    expect_warning("aorta_results.db-journal, a rollback journal left by a write cut short, is "
                   "not applied; the database is read as it is");
    aorta_metrics_free(m);
    free(path);
}
END_TEST

/* ---- which source wins ---- */

START_TEST(stats_then_database_then_trace)
{
    /* stats CSV + database + trace CSV: the stats */
    rp_write(dir, "aorta_kernel_stats.csv", STATS_HEADER "\"from_stats\",2,3000,1500,100,1,1,0\n");
    rp_write(dir, "aorta_kernel_trace.csv",
             TRACE_HEADER "\"KERNEL_DISPATCH\",\"Agent 2\",1,0,1,1,1,\"from_trace\",1,100,700\n");
    copy_fixture("single", "aorta_results.db", "host/aorta_results.db");
    aorta_metrics_t *m = rp_parse(dir);
    const char *stats[] = {"from_stats", NULL};
    expect_metrics(m, 2, 0.003, 0.003, stats);
    aorta_metrics_free(m);
    /* database + trace CSV: the database */
    rp_remove(dir, "aorta_kernel_stats.csv");
    m = rp_parse(dir);
    expect_single(m);
    aorta_metrics_free(m);
    /* stats with no usable row count as absent */
    rp_write(dir, "aorta_kernel_stats.csv", STATS_HEADER);
    m = rp_parse(dir);
    expect_single(m);
    aorta_metrics_free(m);
    /* a database that cannot be read: the trace, and its warning */
    rp_remove(dir, "host/aorta_results.db");
    rp_write(dir, "host/aorta_results.db", "not a database");
    m = rp_parse(dir);
    const char *trace[] = {"from_trace", NULL};
    expect_metrics(m, 1, 0.0006, 0.0006, trace);
    ck_assert_uint_eq(warning_count(), 1);
    aorta_metrics_free(m);
    /* an empty capture yields no kernel either */
    rp_remove(dir, "host/aorta_results.db");
    copy_fixture("empty_capture", "aorta_results.db", "host/aorta_results.db");
    m = rp_parse(dir);
    expect_metrics(m, 1, 0.0006, 0.0006, trace);
    aorta_metrics_free(m);
}
END_TEST

/* The stand-in with its args (NULL-terminated) under AORTA_FAKE_KERNELS=kernels,
 * writing into dir/out. */
static char *run_standin(const char *kernels, const char *const *args)
{
    char *standin = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    char *out = tu_join(dir, "out");
    char *argv[24] = {standin, "-d", out, "-o", "aorta"};
    size_t n = 5;
    for (size_t i = 0; args[i]; i++)
        argv[n++] = (char *)args[i];
    argv[n++] = "--";
    argv[n++] = "true";
    char *setting = NULL;
    ck_assert_int_gt(asprintf(&setting, "AORTA_FAKE_KERNELS=%s", kernels), 0);
    char *env[] = {setting, NULL};
    char *err = NULL;
    ck_assert_msg(tu_run(argv, env, NULL, &err) == 0, "stand-in failed: %s", err);
    free(err);
    free(setting);
    free(standin);
    return out;
}

START_TEST(one_capture_as_csv_and_rocpd_counts_once)
{
    const char *args[] = {"--output-format", "csv", "rocpd", "--kernel-trace", "--stats", NULL};
    char *out = run_standin("3:1000:sgemm(float const*, int)\n2:4000:fill", args);
    ck_assert(tu_exists(out));
    char *db = tu_join(out, "aorta_results.db");
    ck_assert(tu_exists(db));
    aorta_metrics_t *all = rp_parse(out);
    const char *top[] = {"fill", "sgemm(float const*, int)", NULL};
    expect_metrics(all, 5, 0.011, 0.008, top);
    /* each source alone says the same */
    rp_remove(out, "aorta_kernel_stats.csv");
    aorta_metrics_t *no_stats = rp_parse(out);
    expect_same(all, no_stats);
    ck_assert_int_eq(unlink(db), 0);
    aorta_metrics_t *trace = rp_parse(out);
    expect_same(all, trace);
    aorta_metrics_free(trace);
    aorta_metrics_free(no_stats);
    aorta_metrics_free(all);
    free(db);
    free(out);
}
END_TEST

START_TEST(standin_writes_a_database)
{
    const char *args[] = {"-f", "rocpd", "--kernel-trace", NULL};
    /* a quote in a name: the database keeps it, where rocprofv3's CSV
     * cannot (it writes quotes unescaped) */
    char *out = run_standin("2:4000:void f<\"x\">(int)\n1:1000:k", args);
    char *db = tu_join(out, "aorta_results.db");
    ck_assert(tu_exists(db));
    char *csv = tu_join(out, "aorta_kernel_trace.csv");
    ck_assert(!tu_exists(csv));
    aorta_metrics_t *m = rp_parse(out);
    const char *top[] = {"void f<\"x\">(int)", "k", NULL};
    expect_metrics(m, 3, 0.009, 0.008, top);
    aorta_metrics_free(m);
    free(csv);
    free(db);
    free(out);
}
END_TEST

/* ---- the same dispatches as CSV and as rocpd ---- */

START_TEST(differential_csv_and_rocpd)
{
    for (int seed = 1; seed <= 8; seed++) {
        char *work = tu_join(dir, "diff");
        char seed_text[16];
        snprintf(seed_text, sizeof seed_text, "%d", seed);
        const char *args[] = {"differential", work, seed_text, seed % 2 ? "300" : "40", NULL};
        run_generator(args);
        char *csv = tu_join(work, "csv");
        char *db = tu_join(work, "db");
        aorta_metrics_t *from_csv = rp_parse(csv);
        aorta_metrics_t *from_db = rp_parse(db);
        ck_assert_uint_eq(aorta_metrics_count(from_csv), 5);
        expect_same(from_csv, from_db);
        ck_assert_uint_eq(warning_count(), 0);
        aorta_metrics_free(from_db);
        aorta_metrics_free(from_csv);
        free(db);
        free(csv);
        tu_rmtree(work);
        free(work);
    }
}
END_TEST

START_TEST(describe_says_rocpd_is_read)
{
    ck_assert_ptr_nonnull(strstr(rp_collector()->description, "rocpd databases"));
    ck_assert_ptr_null(strstr(rp_collector()->description, "without SQLite"));
}
END_TEST

#else /* !HAVE_SQLITE3 */

START_TEST(without_sqlite_databases_are_named_not_read)
{
    char *path = fixture("single");
    aorta_metrics_t *m = rp_parse(path);
    rp_assert_only_artifact_dir(m, path);
    ck_assert_uint_eq(warning_count(), 1);
    expect_warning("1 rocpd database(s)");
    expect_warning("built without SQLite");
    aorta_metrics_free(m);
    free(path);
    ck_assert_ptr_nonnull(strstr(rp_collector()->description, "without SQLite"));
}
END_TEST

#endif

static Suite *rocpd_suite(void)
{
    Suite *suite = suite_create("rocprof_rocpd");
    TCase *tc = tcase_create("rocpd");
    tcase_add_unchecked_fixture(tc, suite_setup, suite_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
#if HAVE_SQLITE3
    tcase_add_test(tc, one_process);
    tcase_add_test(tc, several_processes_as_the_views_present_them);
    tcase_add_test(tc, rocprofv3s_own_ddl_passes_the_guard);
    tcase_add_test(tc, several_files_are_summed);
    tcase_add_test(tc, names_kept_whole);
    tcase_add_test(tc, empty_capture);
    tcase_add_test(tc, broken_databases_warn_once);
    tcase_add_loop_test(tc, hostile_databases_are_bounded, 0,
                        (int)(sizeof hostile_cases / sizeof hostile_cases[0]));
    tcase_add_test(tc, the_sparse_file_is_sparse);
    tcase_add_test(tc, hostile_databases_together_within_the_parse_timeout);
    tcase_add_test(tc, a_write_ahead_log_is_named_not_read);
    tcase_add_test(tc, a_rollback_journal_is_named);
    tcase_add_test(tc, garbage_bytes);
    tcase_add_test(tc, nothing_written_next_to_a_database);
    tcase_add_test(tc, odd_characters_in_the_path);
    tcase_add_test(tc, symlinks_not_followed);
    tcase_add_test(tc, stats_then_database_then_trace);
    tcase_add_test(tc, one_capture_as_csv_and_rocpd_counts_once);
    tcase_add_test(tc, standin_writes_a_database);
    tcase_add_test(tc, differential_csv_and_rocpd);
    tcase_add_test(tc, describe_says_rocpd_is_read);
#else
    tcase_add_test(tc, without_sqlite_databases_are_named_not_read);
#endif
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(rocpd_suite)
