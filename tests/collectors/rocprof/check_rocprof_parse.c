/* SPDX-License-Identifier: MIT */
/* The rocprof collector's parse(): every fixture (docs/collectors/rocprof.md,
 * cases 50-86, and the expectations of fixtures/FIXTURES.md), the CSV as
 * Python's csv.DictReader reads it, the count/omission rules of
 * docs/design.md (Deviation 2), and the seam cases a C port keeps (no-follow walk,
 * FIFOs, descriptors, parse in a child). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep/parse_child.h"
#include "rptest.h"

#define STATS_HEADER "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\"," \
                     "\"MinNs\",\"MaxNs\",\"StdDev\"\n"
#define SGEMM "sgemm_tiled(float const*, float const*, float*, int)"

static char *dir; /* a fresh directory per test */

static void setup(void)
{
    dir = tu_tmpdir();
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
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

/* count < 0: kernel_count must be absent. */
static void expect_metrics(const aorta_metrics_t *metrics, int64_t count, double gpu_ms,
                           double top_ms, const char *const *top)
{
    if (count < 0)
        ck_assert_msg(!rp_has(metrics, "rocprof_kernel_count"), "a kernel_count was reported");
    else
        ck_assert_int_eq(rp_int(metrics, "rocprof_kernel_count"), count);
    RP_APPROX(rp_double(metrics, "rocprof_gpu_time_ms"), gpu_ms);
    RP_APPROX(rp_double(metrics, "rocprof_top_kernel_ms"), top_ms);
    expect_top(metrics, top);
}

/* parse(dir) after writing one stats file with this body under the header. */
static aorta_metrics_t *parse_stats(const char *header, const char *body)
{
    char *text = NULL;
    ck_assert_int_gt(asprintf(&text, "%s%s", header, body), 0);
    rp_write(dir, "aorta_kernel_stats.csv", text);
    free(text);
    return rp_parse(dir);
}

static aorta_metrics_t *parse_fixture_dir(const char *name, char **path)
{
    *path = rp_fixture(name);
    return rp_parse(*path);
}

/* Copy fixture rel into dir as name, then parse dir. */
static aorta_metrics_t *parse_copy(const char *rel, const char *name)
{
    char *src = rp_fixture(rel);
    char *dst = tu_join(dir, name);
    rp_copy(src, dst);
    free(dst);
    free(src);
    return rp_parse(dir);
}

/* ---- the aorta fixtures (50-62, 69) ---- */

START_TEST(flat_with_o)
{
    char *path;
    aorta_metrics_t *m = parse_fixture_dir("flat_with_o", &path);
    ck_assert_uint_eq(aorta_metrics_count(m), 5);
    const char *order[] = {"rocprof_artifact_dir", "rocprof_kernel_count", "rocprof_gpu_time_ms",
                           "rocprof_top_kernel_ms", "rocprof_top_kernels"};
    for (size_t i = 0; i < 5; i++)
        ck_assert_str_eq(aorta_metrics_at(m, i)->key, order[i]);
    ck_assert_str_eq(rp_string(m, "rocprof_artifact_dir"), path);
    const char *top[] = {SGEMM, NULL};
    expect_metrics(m, 23, 0.539404, 0.539404, top); /* stats win over the trace's 5 */
    aorta_metrics_free(m);
    /* 51 */
    char *summary = tu_join(path, "aorta_rocprof_summary.txt");
    char *text = tu_read(summary);
    ck_assert_ptr_nonnull(strstr(text, "ROCPROFV3 SUMMARY"));
    DIR *listing = opendir(path);
    struct dirent *entry;
    while ((entry = readdir(listing)) != NULL)
        ck_assert_msg(entry->d_type != DT_DIR || entry->d_name[0] == '.', "subdir %s", entry->d_name);
    closedir(listing);
    free(text);
    free(summary);
    free(path);
}
END_TEST

START_TEST(nested_no_o)
{
    char *path;
    aorta_metrics_t *m = parse_fixture_dir("nested_no_o", &path);
    const char *top[] = {SGEMM, NULL};
    expect_metrics(m, 8, 0.08172, 0.08172, top);
    aorta_metrics_free(m);
    free(path);
    /* its trace alone: rows out of dispatch order */
    m = parse_copy("nested_no_o/profiling-host-01/4170984_kernel_trace.csv", "4170984_kernel_trace.csv");
    expect_metrics(m, 3, 0.03664, 0.03664, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(trace_only)
{
    aorta_metrics_t *m = parse_copy("flat_with_o/aorta_kernel_trace.csv", "aorta_kernel_trace.csv");
    const char *top[] = {SGEMM, NULL};
    expect_metrics(m, 5, 0.128161, 0.128161, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(broken_stats_fall_back_to_the_trace)
{
    const char *dirs[] = {"stats_truncated_trace_ok", "stats_renamed_columns_trace_ok"};
    const char *top[] = {SGEMM, NULL};
    for (size_t i = 0; i < 2; i++) {
        char *path;
        aorta_metrics_t *m = parse_fixture_dir(dirs[i], &path);
        expect_metrics(m, 5, 0.128161, 0.128161, top);
        aorta_metrics_free(m);
        free(path);
    }
}
END_TEST

/* The timeline's dispatches (ABI 1.3) come from the kernel trace alone,
 * also when the metrics come from the stats: each row's agent and queue as
 * its track, its timestamps exact, the host clock; the metrics unchanged. */
START_TEST(dispatches_come_from_the_kernel_trace)
{
    char *path;
    aorta_metrics_t *m = parse_fixture_dir("flat_with_o", &path);
    ck_assert_uint_eq(aorta_metrics_count(m), 5);
    ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 23); /* the stats' */
    const aorta_dispatches_t *d = aorta_metrics_dispatches(m);
    ck_assert_uint_eq(aorta_dispatches_count(d), 5); /* the trace's */
    ck_assert_int_eq(aorta_dispatches_clock(d), AORTA_CLOCK_HOST);
    ck_assert_uint_eq(aorta_dispatches_track_count(d), 1);
    ck_assert_str_eq(aorta_dispatches_track_name(d, 0), "Agent 2 queue 1");
    ck_assert_str_eq(aorta_dispatches_name(d, aorta_dispatches_name_at(d, 0), NULL), SGEMM);
    ck_assert_uint_eq(aorta_dispatches_start_at(d, 0), UINT64_C(1434937317843317));
    ck_assert_uint_eq(aorta_dispatches_end_at(d, 0), UINT64_C(1434937317879637));
    aorta_metrics_free(m);
    free(path);
    /* rocprofiler-sdk's documented trace: four queues of "Agent 4". */
    m = parse_copy("real_samples/rocprofiler-sdk_docs_kernel_trace.csv", "a_kernel_trace.csv");
    d = aorta_metrics_dispatches(m);
    ck_assert_uint_eq(aorta_dispatches_count(d), 9);
    ck_assert_uint_eq(aorta_dispatches_track_count(d), 4);
    ck_assert_str_eq(aorta_dispatches_track_name(d, 0), "Agent 4 queue 1");
    ck_assert_uint_eq(aorta_dispatches_start_at(d, 0), UINT64_C(1550151853029637));
    ck_assert_uint_eq(aorta_dispatches_end_at(d, 0), UINT64_C(1550151853042437));
    aorta_metrics_free(m);
    /* An older trace names the agent by a bare number. */
    rp_remove(dir, "a_kernel_trace.csv");
    m = parse_copy("real_samples/hpctraining_mi300a_omp_kernel_trace_legacy_head.csv",
                   "b_kernel_trace.csv");
    d = aorta_metrics_dispatches(m);
    ck_assert_uint_eq(aorta_dispatches_count(d), 9);
    ck_assert_str_eq(aorta_dispatches_track_name(d, 0), "Agent 4 queue 1");
    ck_assert_uint_eq(aorta_dispatches_start_at(d, 0), UINT64_C(5329321973213203));
    aorta_metrics_free(m);
    /* Stats alone: no timeline. */
    rp_remove(dir, "b_kernel_trace.csv");
    m = parse_copy("flat_with_o/aorta_kernel_stats.csv", "aorta_kernel_stats.csv");
    ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 23);
    ck_assert_ptr_null(aorta_metrics_dispatches(m));
    aorta_metrics_free(m);
}
END_TEST

START_TEST(garbage_and_malformed)
{
    rp_write(dir, "aorta_kernel_stats.csv", "garbage\n");
    rp_write(dir, "aorta_kernel_trace.csv", "garbage\n");
    aorta_metrics_t *m = rp_parse(dir);
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
    char *path;
    m = parse_fixture_dir("malformed", &path);
    rp_assert_only_artifact_dir(m, path);
    aorta_metrics_free(m);
    free(path);
}
END_TEST

START_TEST(missing_file_and_empty_dirs)
{
    char *missing = tu_join(dir, "nope");
    aorta_metrics_t *m = rp_parse(missing);
    ck_assert_uint_eq(aorta_metrics_count(m), 0);
    aorta_metrics_free(m);
    rp_write(dir, "file", "x");
    char *file = tu_join(dir, "file");
    m = rp_parse(file);
    ck_assert_uint_eq(aorta_metrics_count(m), 0);
    aorta_metrics_free(m);
    char *empty = tu_join(dir, "empty");
    mkdir(empty, 0755);
    m = rp_parse(empty);
    rp_assert_only_artifact_dir(m, empty);
    aorta_metrics_free(m);
    /* the artifact dir is the path as pathlib renders it */
    char *messy = NULL;
    ck_assert_int_gt(asprintf(&messy, "%s//./empty/", dir), 0);
    m = rp_parse(messy);
    rp_assert_only_artifact_dir(m, empty);
    aorta_metrics_free(m);
    m = parse_stats(STATS_HEADER, "");
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
    free(messy);
    free(empty);
    free(file);
    free(missing);
}
END_TEST

/* ---- rows and counts (63-82) ---- */

START_TEST(unusable_rows_skipped)
{
    aorta_metrics_t *m = parse_stats("\"Name\",\"Calls\",\"TotalDurationNs\"\n",
                                     "\"good\",2,1000000\n\"bad\",1,\"not-a-number\"\n,3,5000\n");
    const char *top[] = {"good", NULL};
    expect_metrics(m, 2, 1.0, 1.0, top);
    aorta_metrics_free(m);
    m = parse_stats(STATS_HEADER, "\"good\",2,1000000\n\"nan\",1,NaN\n\"inf\",1,Infinity\n"
                                  "\"negative\",1,-5000\n\"hex\",1,0x10\n");
    expect_metrics(m, 2, 1.0, 1.0, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(overflow_reports_only_the_dir)
{
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\"a\",1,1e308\n\"b\",1,1e308\n\"c\",1,1e308\n");
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
    m = parse_stats(STATS_HEADER, "\"a\",1,1e308\n\"a\",1,1e308\n");
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(unreadable_counts_drop_only_the_count)
{
    const char *top[] = {"k", NULL};
    const char *bodies[] = {
        "\"k\",1.9,1000000\n",                 /* 67: fractional */
        "\"k\",-1,1000000\n",                  /* negative */
        "\"k\",,1000000\n",                    /* empty */
        "\"k\",0x10,1000000\n",                /* hex */
        "\"k\",nan,1000000\n",                 /* not finite */
        "\"k\",1e19,1000000\n",                /* beyond int64 (docs/design.md, Deviation 2) */
        "\"k\",9223372036854775807,1000000\n", /* reads as 2**63: beyond */
        "\"k\",4611686018427387904,500000\n\"k\",4611686018427387904,500000\n", /* sum beyond */
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        aorta_metrics_t *m = parse_stats(STATS_HEADER, bodies[i]);
        expect_metrics(m, -1, 1.0, 1.0, top);
        aorta_metrics_free(m);
    }
    /* 66: no Calls column at all */
    aorta_metrics_t *m = parse_stats("\"Name\",\"TotalDurationNs\"\n", "\"k\",1000000\n");
    expect_metrics(m, -1, 1.0, 1.0, top);
    aorta_metrics_free(m);
    /* the timing of a later row still adds */
    m = parse_stats(STATS_HEADER, "\"k\",x,400000\n\"k\",3,600000\n");
    expect_metrics(m, -1, 1.0, 1.0, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(readable_counts)
{
    const char *top[] = {"k", NULL};
    const char *bodies[][2] = {
        {"\"k\",3.0,1000000\n", "3"},                     /* 68 */
        {"\"k\",1e2,1000000\n", "100"},
        {"\"k\",-0,1000000\n", "0"},
        {"\"k\",\" +7 \",1000000\n", "7"},
        {"\"k\",1_000,1000000\n", "1000"},
        {"\"k\",4611686018427387904,1000000\n", "4611686018427387904"},
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        aorta_metrics_t *m = parse_stats(STATS_HEADER, bodies[i][0]);
        expect_metrics(m, strtoll(bodies[i][1], NULL, 10), 1.0, 1.0, top);
        aorta_metrics_free(m);
    }
    /* 70: a readable zero is taken at its word */
    const char *top2[] = {"real", "idle", NULL};
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\"idle\",0,1000\n\"real\",2,2000\n");
    expect_metrics(m, 2, 0.003, 0.002, top2);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(trace_rows)
{
    /* 71 */
    rp_write(dir, "aorta_kernel_trace.csv",
             "\"Kind\",\"Kernel_Name\",\"Start_Timestamp\",\"End_Timestamp\"\n"
             "\"KERNEL_DISPATCH\",\"k\",100,1100\n\"MEMORY_COPY\",\"memcpy\",0,9999999\n"
             "\"KERNEL_DISPATCH\",\"backwards\",500,100\n"
             "\" KERNEL_DISPATCH \",\"k\",0,0\n" /* 80: start == end; Kind stripped */
             "\"\",\"k\",5,5\n"                 /* empty Kind accepted */
             "\"KERNEL_DISPATCH\",\"\",0,10\n"  /* no name */
             "\"KERNEL_DISPATCH\",\"j\",x,10\n");
    aorta_metrics_t *m = rp_parse(dir);
    const char *top[] = {"k", NULL};
    expect_metrics(m, 3, 0.001, 0.001, top);
    aorta_metrics_free(m);
}
END_TEST

/* The one kernel's time, in ms, of a trace with one row from start to end. */
static double trace_time(const char *start, const char *end, int *found)
{
    char *text = NULL;
    ck_assert_int_gt(asprintf(&text, "Kind,Kernel_Name,Start_Timestamp,End_Timestamp\n"
                                     "KERNEL_DISPATCH,k,%s,%s\n", start, end), 0);
    rp_write(dir, "aorta_kernel_trace.csv", text);
    free(text);
    aorta_metrics_t *m = rp_parse(dir);
    *found = rp_has(m, "rocprof_gpu_time_ms");
    double ms = *found ? rp_double(m, "rocprof_gpu_time_ms") : 0;
    aorta_metrics_free(m);
    return ms;
}

START_TEST(timestamps_of_every_length)
{
    /* Digit strings of 1 to 19 digits are converted without strtod(), 8 to
     * 16 of them as two words of eight: each length must give float()'s
     * value (past 2^53 too), and a non-digit anywhere must not pass. */
    static const char digits[] = "9182736450918273645";
    for (size_t len = 1; len <= 19; len++) {
        char start[24], end[40];
        memcpy(start, digits, len);
        start[len] = '\0';
        memcpy(end, digits, len);
        end[len] = '\0';
        end[0] = '9'; /* end >= start: the first digit of start is 9 */
        end[len - 1] = (char)('0' + (end[len - 1] - '0' + 1) % 10);
        if (strcmp(end, start) < 0)
            snprintf(end, sizeof end, "1%s", start); /* one digit longer */
        int found = 0;
        double ms = trace_time(start, end, &found);
        double want = (strtod(end, NULL) - strtod(start, NULL)) / 1e6;
        ck_assert_msg(found && ms == want, "%s..%s: %.17g ms, want %.17g", start, end, ms, want);
        /* Leading zeros are digits too. */
        char padded[40];
        snprintf(padded, sizeof padded, "000%s", start);
        ms = trace_time(padded, end, &found);
        ck_assert_msg(found && ms == want, "%s..%s: %.17g ms, want %.17g", padded, end, ms, want);
        for (size_t at = 0; at < len; at++) {
            char bad[40];
            memcpy(bad, end, len + 1);
            bad[at] = (char)(at % 2 ? '/' : ':'); /* the bytes around the digits */
            trace_time(start, bad, &found);
            ck_assert_msg(!found, "%s..%s was read as a number", start, bad);
        }
    }
    /* What float() reads that is not a plain digit string. */
    int found = 0;
    ck_assert(trace_time(" 10", "1_000_000_000 ", &found) == (1e9 - 10) / 1e6 && found);
    ck_assert(trace_time("+1e3", "12345678.5", &found) == (12345678.5 - 1e3) / 1e6 && found);
    trace_time("0x10", "12345678", &found);
    ck_assert(!found);
}
END_TEST

START_TEST(trace_without_kind)
{
    /* 79 */
    rp_write(dir, "x_kernel_trace.csv", "\"Kernel_Name\",\"Start_Timestamp\",\"End_Timestamp\"\n"
                                        "\"k\",10,20\n");
    aorta_metrics_t *m = rp_parse(dir);
    const char *top[] = {"k", NULL};
    expect_metrics(m, 1, 1e-05, 1e-05, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(ranks_merge)
{
    /* 72 */
    rp_write(dir, "host0/0_kernel_stats.csv", STATS_HEADER "\"shared\",1,1000000\n");
    rp_write(dir, "host1/1_kernel_stats.csv", STATS_HEADER "\"shared\",1,3000000\n");
    aorta_metrics_t *m = rp_parse(dir);
    const char *top[] = {"shared", NULL};
    expect_metrics(m, 2, 4.0, 4.0, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(ranking)
{
    /* 73 */
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\"small\",100,1000\n\"big\",1,9000000\n"
                                                   "\"medium\",2,4000000\n");
    const char *top[] = {"big", "medium", "small", NULL};
    expect_metrics(m, 103, 13.001, 9.0, top);
    aorta_metrics_free(m);
    /* 74: five at most */
    char body[1024] = "";
    for (int i = 0; i < 12; i++)
        snprintf(body + strlen(body), sizeof body - strlen(body), "\"k%d\",1,%d\n", i, (20 - i) * 1000);
    m = parse_stats(STATS_HEADER, body);
    const char *top5[] = {"k0", "k1", "k2", "k3", "k4", NULL};
    expect_metrics(m, 12, 0.174, 0.02, top5);
    aorta_metrics_free(m);
    /* 77: ties keep first-seen order, across files too */
    m = parse_stats(STATS_HEADER, "\"b\",1,100\n\"a\",1,100\n\"c\",1,200\n");
    const char *ties[] = {"c", "b", "a", NULL};
    expect_metrics(m, 3, 0.0004, 0.0002, ties);
    aorta_metrics_free(m);
    rp_write(dir, "z/z_kernel_stats.csv", STATS_HEADER "\"y\",1,100\n");
    rp_write(dir, "a/a_kernel_stats.csv", STATS_HEADER "\"x\",1,100\n");
    /* Upstream's sorted(rglob()): a/a_..., then aorta_..., then z/z_... */
    m = rp_parse(dir);
    const char *walk[] = {"c", "x", "b", "a", "y", NULL};
    expect_metrics(m, 5, 0.0006, 0.0002, walk);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(zero_total_stats_suppress_the_trace)
{
    /* 78 */
    rp_write(dir, "aorta_kernel_trace.csv", "\"Kind\",\"Kernel_Name\",\"Start_Timestamp\",\"End_Timestamp\"\n"
                                            "\"KERNEL_DISPATCH\",\"t\",0,5000\n");
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\"k\",1,0\n");
    const char *top[] = {"k", NULL};
    expect_metrics(m, 1, 0.0, 0.0, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(names_are_stripped)
{
    /* 81, with Python's Unicode whitespace */
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\" k \",1,100\n\"k\",1,100\n"
                                                   "\"\xc2\xa0k\xe3\x80\x80\",1,100\n\"\t\",1,5\n");
    const char *top[] = {"k", NULL};
    expect_metrics(m, 3, 0.0003, 0.0003, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(file_mode_000)
{
    /* 75: an unreadable file is skipped (root reads it anyway) */
    rp_write(dir, "aorta_kernel_stats.csv", STATS_HEADER "\"k\",1,1000\n");
    char *path = tu_join(dir, "aorta_kernel_stats.csv");
    chmod(path, 0);
    aorta_metrics_t *m = rp_parse(dir);
    if (geteuid() == 0) {
        ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 1);
    } else {
        rp_assert_only_artifact_dir(m, dir);
    }
    aorta_metrics_free(m);
    chmod(path, 0644);
    free(path);
}
END_TEST

/* ---- the CSV as Python reads it ---- */

START_TEST(quoting)
{
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\"a, b\",1,100\n\"say \"\"hi\"\"\",2,200\n"
                                                   "\"multi\nline\",1,300\n");
    const char *top[] = {"multi\nline", "say \"hi\"", "a, b", NULL};
    expect_metrics(m, 4, 0.0006, 0.0003, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(line_endings_and_blank_lines)
{
    const char *top[] = {"multi\r\nline", "j", "k", NULL};
    const char *bodies[] = {
        "\"Name\",\"Calls\",\"TotalDurationNs\"\r\n\"k\",1,100\r\n\r\n\"j\",2,200\r\n"
        "\"multi\r\nline\",1,300\r\n",
        "\"Name\",\"Calls\",\"TotalDurationNs\"\r\"k\",1,100\r\r\"j\",2,200\r"
        "\"multi\r\nline\",1,300",
        "\"Name\",\"Calls\",\"TotalDurationNs\"\n\n\n\"k\",1,100\n\r\n\"j\",2,200\n\n"
        "\"multi\r\nline\",1,300\n\n",
    };
    for (size_t i = 0; i < 3; i++) {
        rp_write(dir, "aorta_kernel_stats.csv", bodies[i]);
        aorta_metrics_t *m = rp_parse(dir);
        expect_metrics(m, 4, 0.0006, 0.0003, top);
        aorta_metrics_free(m);
    }
}
END_TEST

START_TEST(blank_first_line_is_an_empty_header)
{
    aorta_metrics_t *m = parse_stats("\n", STATS_HEADER "\"k\",1,100\n");
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(short_rows_and_duplicate_columns)
{
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\"k\",2\n\"j\",1,50\n\"i\"\n");
    const char *top[] = {"j", NULL};
    expect_metrics(m, 1, 5e-05, 5e-05, top);
    aorta_metrics_free(m);
    /* dict(zip(header, row)): the last "Name" column wins, and a row too
     * short to reach it has no name */
    m = parse_stats("\"Name\",\"Calls\",\"TotalDurationNs\",\"Name\"\n",
                    "\"x\",1,10,\"y\"\n\"x\",1,10\n");
    const char *last[] = {"y", NULL};
    expect_metrics(m, 1, 1e-05, 1e-05, last);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(a_leading_bom_is_dropped)
{
    /* 82, read as encoding="utf-8-sig" reads it (a deliberate difference:
     * upstream's "utf-8" keeps the BOM and loses the header's first name). */
    const char *top[] = {"k", NULL};
    aorta_metrics_t *m = parse_stats("\xef\xbb\xbf" STATS_HEADER, "\"k\",1,100\n");
    expect_metrics(m, 1, 0.0001, 0.0001, top);
    aorta_metrics_free(m);
    /* Only one, and only at the very start: a second BOM is part of the name. */
    m = parse_stats("\xef\xbb\xbf\xef\xbb\xbf" STATS_HEADER, "\"k\",1,100\n");
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
    /* A trace header with a BOM keeps its Kind column: MEMORY_COPY rows go. */
    rp_write(dir, "aorta_kernel_trace.csv", "\xef\xbb\xbfKind,Kernel_Name,Start_Timestamp,End_Timestamp\n"
                                            "MEMORY_COPY,j,0,10\nKERNEL_DISPATCH,k,0,10\n");
    rp_remove(dir, "aorta_kernel_stats.csv");
    m = rp_parse(dir);
    expect_metrics(m, 1, 1e-05, 1e-05, top);
    aorta_metrics_free(m);
    /* A file that is only a BOM, or part of one, has no rows. */
    rp_write(dir, "aorta_kernel_trace.csv", "\xef\xbb\xbf");
    m = rp_parse(dir);
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
}
END_TEST

/* The warnings of one parse of dir, each "SOURCE: MESSAGE\n". */
static void keep_warning(const char *source, const char *message, void *user)
{
    char **all = user;
    char *next = NULL;
    ck_assert_int_gt(asprintf(&next, "%s%s: %s\n", *all ? *all : "", source, message), 0);
    free(*all);
    *all = next;
}

static char *warnings_of_parse(void)
{
    char *all = NULL;
    aorta_warning_set_handler(keep_warning, &all);
    aorta_metrics_t *m = rp_parse(dir);
    aorta_warning_set_handler(NULL, NULL);
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
    return all;
}

START_TEST(files_without_kernels_are_named_in_one_warning)
{
    /* Rows that give nothing, and a header without its columns. */
    rp_write(dir, "aorta_kernel_stats.csv", STATS_HEADER "\"\",1,100\n");
    rp_write(dir, "aorta_kernel_trace.csv", "Kind,Name\nKERNEL_DISPATCH,k\n");
    char *warnings = warnings_of_parse();
    char *expected = NULL;
    ck_assert_int_gt(asprintf(&expected, "rocprof: %s yielded no kernels: %s/aorta_kernel_stats.csv "
                                         "(no row with a kernel name and a readable duration), "
                                         "%s/aorta_kernel_trace.csv (the header lacks the "
                                         "columns 'Kernel_Name', 'Start_Timestamp', "
                                         "'End_Timestamp')\n",
                              dir, dir, dir),
                     0);
    ck_assert_str_eq(warnings, expected);
    free(expected);
    free(warnings);
    /* One column missing is named alone (a renamed duration column). */
    rp_write(dir, "aorta_kernel_stats.csv", "\"Name\",\"Calls\",\"TotalDuration_ns\"\n\"k\",1,100\n");
    rp_remove(dir, "aorta_kernel_trace.csv");
    warnings = warnings_of_parse();
    ck_assert_ptr_nonnull(warnings);
    ck_assert_ptr_nonnull(strstr(warnings, "aorta_kernel_stats.csv (the header lacks the column "
                                           "'TotalDurationNs')\n"));
    free(warnings);
    /* Invalid UTF-8 before any row. */
    rp_write(dir, "aorta_kernel_stats.csv", "Name,Calls\xff\n");
    warnings = warnings_of_parse();
    ck_assert_ptr_nonnull(warnings);
    ck_assert_ptr_nonnull(strstr(warnings, "aorta_kernel_stats.csv (invalid UTF-8)\n"));
    free(warnings);
    /* Header-only files are a command without GPU work: no warning. */
    rp_write(dir, "aorta_kernel_stats.csv", STATS_HEADER);
    rp_write(dir, "aorta_kernel_trace.csv", "Kind,Kernel_Name,Start_Timestamp,End_Timestamp\n");
    warnings = warnings_of_parse();
    ck_assert_ptr_null(warnings);
}
END_TEST

START_TEST(truncated_last_rows)
{
    const char *top2[] = {"k", "j", NULL};
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\"k\",1,100\n\"j\",2,2"); /* no newline */
    expect_metrics(m, 3, 0.000102, 0.0001, top2);
    aorta_metrics_free(m);
    m = parse_stats(STATS_HEADER, "\"k\",1,100\n\"j\",1,\"20"); /* open quote runs to EOF */
    expect_metrics(m, 2, 0.00012, 0.0001, top2);
    aorta_metrics_free(m);
    m = parse_stats(STATS_HEADER, "\"k\",1,100\n\"j\",1,\"20\n"); /* EOF inside quotes keeps the newline */
    expect_metrics(m, 2, 0.00012, 0.0001, top2);
    aorta_metrics_free(m);
    const char *top1[] = {"k", NULL};
    m = parse_stats(STATS_HEADER, "\"k\",1,100\n\"j,1,200\n"); /* the name swallows the rest */
    expect_metrics(m, 1, 0.0001, 0.0001, top1);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(unescaped_quotes_in_names)
{
    /* rocprofv3 writes kernel names without escaping their quotes; Python
     * keeps what follows the stray quote and the rows after it count */
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\"void f<\"x\">(int)\",2,100\n\"k\",1,50\n");
    const char *top[] = {"void f<x\">(int)\"", "k", NULL};
    expect_metrics(m, 3, 0.00015, 0.0001, top);
    aorta_metrics_free(m);
    /* a stray quote then a comma ends the field there: the row shifts */
    m = parse_stats(STATS_HEADER, "\"a\"b,c\",1,7\n\"k\",1,50\n");
    const char *shifted[] = {"k", "ab", NULL};
    expect_metrics(m, -1, 5.1e-05, 5e-05, shifted);
    aorta_metrics_free(m);
    /* and in a trace */
    rp_remove(dir, "aorta_kernel_stats.csv");
    rp_write(dir, "aorta_kernel_trace.csv",
             "\"Kind\",\"Agent_Id\",\"Kernel_Name\",\"Start_Timestamp\",\"End_Timestamp\",\"X\"\n"
             "\"KERNEL_DISPATCH\",\"Agent 2\",\"op<\"a\",\"b\">\",10,30,1\n"
             "\"KERNEL_DISPATCH\",\"Agent 2\",\"k\",0,5,1\n");
    m = rp_parse(dir);
    const char *trace_top[] = {"k", NULL};
    /* the name becomes 'op<a"' and the next field 'b>"', so this row's
     * Start_Timestamp is 'b>"': the row is skipped, the next one counts */
    expect_metrics(m, 1, 5e-06, 5e-06, trace_top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(invalid_utf8_stops_the_file)
{
    const char *top[] = {"k", NULL};
    static const char bad[] = STATS_HEADER "\"k\",1,100\n\"bad\xff\",1,5\n\"j\",1,7\n";
    rp_write_bytes(dir, "aorta_kernel_stats.csv", bad, sizeof bad - 1);
    aorta_metrics_t *m = rp_parse(dir);
    expect_metrics(m, 1, 0.0001, 0.0001, top);
    aorta_metrics_free(m);
    /* a character cut by the end of the file; an overlong form; a surrogate */
    const char *tails[] = {"\"j\xc3", "\"j\xc0\xaf\",1,5\n", "\"j\xed\xa0\x80\",1,5\n"};
    for (size_t i = 0; i < 3; i++) {
        char *text = NULL;
        ck_assert_int_gt(asprintf(&text, STATS_HEADER "\"k\",1,100\n%s", tails[i]), 0);
        rp_write(dir, "aorta_kernel_stats.csv", text);
        free(text);
        m = rp_parse(dir);
        expect_metrics(m, 1, 0.0001, 0.0001, top);
        aorta_metrics_free(m);
    }
    /* only that file stops: another file's rows still count */
    rp_write(dir, "b/b_kernel_stats.csv", STATS_HEADER "\"j\",1,50\n");
    m = rp_parse(dir);
    const char *both[] = {"k", "j", NULL};
    expect_metrics(m, 2, 0.00015, 0.0001, both);
    aorta_metrics_free(m);
}
END_TEST

/* A stats file whose second row's name has n copies of the UTF-8 character c. */
static aorta_metrics_t *parse_long_name(const char *c, size_t n)
{
    size_t clen = strlen(c);
    size_t header = strlen(STATS_HEADER);
    const char *before = "\"k\",1,100\n\"";
    const char *after = "\",2,50\n\"z\",1,1\n";
    size_t len = header + strlen(before) + n * clen + strlen(after);
    char *text = malloc(len + 1);
    char *p = text;
    p = stpcpy(p, STATS_HEADER);
    p = stpcpy(p, before);
    for (size_t i = 0; i < n; i++)
        p = stpcpy(p, c);
    stpcpy(p, after);
    rp_write_bytes(dir, "aorta_kernel_stats.csv", text, len);
    free(text);
    return rp_parse(dir);
}

START_TEST(field_size_limit)
{
    /* csv.field_size_limit() is 131072 characters: one more ends the file */
    const char *chars[] = {"x", "\xc3\xa9", "\xe4\xb8\xad"};
    const char *top1[] = {"k", NULL};
    for (size_t i = 0; i < 3; i++) {
        aorta_metrics_t *m = parse_long_name(chars[i], 131072);
        ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 4);
        const aorta_metric_t *top = rp_strings(m, "rocprof_top_kernels");
        ck_assert_str_eq(top->strings[0], "k");
        ck_assert_uint_eq(strlen(top->strings[1]), 131072 * strlen(chars[i]));
        aorta_metrics_free(m);
        m = parse_long_name(chars[i], 131073);
        expect_metrics(m, 1, 0.0001, 0.0001, top1);
        aorta_metrics_free(m);
    }
}
END_TEST

START_TEST(nul_is_an_ordinary_character)
{
    static const char text[] = STATS_HEADER "\"a\0b\",1,5\n\"a\",1,3\n";
    rp_write_bytes(dir, "aorta_kernel_stats.csv", text, sizeof text - 1);
    aorta_metrics_t *m = rp_parse(dir);
    /* two kernels, each name whole: "a\0b" with its NUL, then "a" */
    const char *top[] = {"a", "a", NULL};
    expect_metrics(m, 2, 8e-06, 5e-06, top);
    const aorta_metric_t *names = rp_strings(m, "rocprof_top_kernels");
    ck_assert_ptr_nonnull(names->string_lengths);
    ck_assert_uint_eq(names->string_lengths[0], 3);
    ck_assert_mem_eq(names->strings[0], "a\0b", 4);
    ck_assert_uint_eq(names->string_lengths[1], 1);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(rows_longer_than_the_buffer)
{
    /* a 3 MB row of empty fields, then a normal row */
    size_t commas = 3u << 20;
    size_t header = strlen(STATS_HEADER);
    char *text = malloc(header + commas + 64);
    memcpy(text, STATS_HEADER, header);
    memset(text + header, ',', commas);
    strcpy(text + header + commas, "\n\"k\",1,5\n");
    rp_write_bytes(dir, "aorta_kernel_stats.csv", text, strlen(text));
    free(text);
    aorta_metrics_t *m = rp_parse(dir);
    const char *top[] = {"k", NULL};
    expect_metrics(m, 1, 5e-06, 5e-06, top);
    aorta_metrics_free(m);
}
END_TEST

/* ---- real rocprofv3 samples (83-86 and FIXTURES.md) ---- */

START_TEST(real_docs_kernel_trace)
{
    aorta_metrics_t *m = parse_copy("real_samples/rocprofiler-sdk_docs_kernel_trace.csv",
                                    "x_kernel_trace.csv");
    const char *top[] = {"void addition_kernel<float>(float*, float const*, float const*, int, int)",
                         "divide_kernel(float*, float const*, float const*, int, int)",
                         "multiply_kernel(float*, float const*, float const*, int, int)",
                         "subtract_kernel(float*, float const*, float const*, int, int)", NULL};
    expect_metrics(m, 9, 0.09616, 0.03404, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(real_docs_truncated_trace)
{
    aorta_metrics_t *m = parse_copy("real_samples/rocprofiler-sdk_docs_kernel_trace_truncated.csv",
                                    "x_kernel_trace.csv");
    ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 4);
    RP_APPROX(rp_double(m, "rocprof_gpu_time_ms"), 0.04404);
    RP_APPROX(rp_double(m, "rocprof_top_kernel_ms"), 0.02208);
    ck_assert_str_eq(rp_strings(m, "rocprof_top_kernels")->strings[0], "addition_kernel");
    aorta_metrics_free(m);
}
END_TEST

START_TEST(real_mi300a_stats)
{
    aorta_metrics_t *m = parse_copy("real_samples/hpctraining_mi300a_omp_kernel_stats.csv",
                                    "x_kernel_stats.csv");
    const char *top[] = {"__omp_offloading_32_2f3c6__QMnorm_modPnorm_l26",
                         "__omp_offloading_32_2f3c7__QMupdate_modPupdate_l23",
                         "__omp_offloading_32_2f3c3__QMlaplacian_modPlaplacian_l23",
                         "__omp_offloading_32_2f3c0__QMboundary_modPboundary_conditions_l24", NULL};
    expect_metrics(m, 4001, 201.048351, 87.995483, top);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(real_mi300a_legacy_trace)
{
    aorta_metrics_t *m = parse_copy("real_samples/hpctraining_mi300a_omp_kernel_trace_legacy_head.csv",
                                    "x_kernel_trace.csv");
    ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 9);
    RP_APPROX(rp_double(m, "rocprof_gpu_time_ms"), 0.50108);
    RP_APPROX(rp_double(m, "rocprof_top_kernel_ms"), 0.2932);
    ck_assert_str_eq(rp_strings(m, "rocprof_top_kernels")->strings[0],
                     "__omp_offloading_32_2f3c6__QMnorm_modPnorm_l26");
    aorta_metrics_free(m);
}
END_TEST

START_TEST(real_files_that_are_not_kernels)
{
    /* 86 */
    aorta_metrics_t *m = parse_copy("real_samples/rocprofiler-sdk_docs_memory_copy_trace.csv",
                                    "x_kernel_trace.csv");
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
    rp_remove(dir, "x_kernel_trace.csv");
    m = parse_copy("real_samples/hpctraining_mi300a_omp_agent_info.csv", "x_kernel_stats.csv");
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
    /* files not named *_kernel_{stats,trace}.csv are never read */
    rp_remove(dir, "x_kernel_stats.csv");
    m = parse_copy("real_samples/rocprofiler-sdk_docs_hip_domain_stats.csv", "x_domain_stats.csv");
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(real_stats_shapes)
{
    /* scientific Percentage/StdDev, no trailing newline */
    aorta_metrics_t *m = parse_copy("real_samples/rocprofiler-sdk_docs_hip_api_stats.csv",
                                    "x_kernel_stats.csv");
    ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 155);
    RP_APPROX(rp_double(m, "rocprof_gpu_time_ms"), 308.269675);
    aorta_metrics_free(m);
    m = parse_copy("real_samples/rocprofiler-sdk_docs_hip_domain_stats.csv", "x_kernel_stats.csv");
    const char *top[] = {"HIP_API", NULL};
    expect_metrics(m, 13, 458.514859, 458.514859, top); /* the file's one row */
    aorta_metrics_free(m);
    rp_remove(dir, "x_kernel_stats.csv");
    m = parse_copy("real_samples/aorta_hipgemm_readme_kernel_stats.csv", "x_kernel_stats.csv");
    const char *sgemm[] = {SGEMM, NULL};
    expect_metrics(m, 23, 0.538601, 0.538601, sgemm);
    aorta_metrics_free(m);
}
END_TEST

/* ---- the seam ---- */

START_TEST(seam_single_row_and_many_ranks)
{
    /* 106 */
    aorta_metrics_t *m = parse_stats(STATS_HEADER, "\"sgemm\",23,539404\n");
    const char *top[] = {"sgemm", NULL};
    expect_metrics(m, 23, 0.539404, 0.539404, top);
    aorta_metrics_free(m);
    /* 113: 16 rank files, half nested */
    rp_remove(dir, "aorta_kernel_stats.csv");
    for (int i = 0; i < 16; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "%srank%02d_kernel_stats.csv", i % 2 ? "nested/" : "", i);
        rp_write(dir, rel, STATS_HEADER "\"sgemm\",1,10\n");
    }
    m = rp_parse(dir);
    expect_metrics(m, 16, 0.00016, 0.00016, top);
    aorta_metrics_free(m);
}
END_TEST

static int open_fds(void)
{
    int n = 0;
    DIR *fds = opendir("/proc/self/fd");
    while (readdir(fds))
        n++;
    closedir(fds);
    return n;
}

START_TEST(no_descriptor_leak)
{
    for (int i = 0; i < 64; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "d%d/r%02d_kernel_stats.csv", i % 8, i);
        rp_write(dir, rel, STATS_HEADER "\"k\",1,10\n");
    }
    int before = open_fds();
    for (int i = 0; i < 10; i++) {
        aorta_metrics_t *m = rp_parse(dir);
        ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 64);
        aorta_metrics_free(m);
    }
    ck_assert_int_eq(open_fds(), before);
}
END_TEST

START_TEST(fifo_ignored)
{
    /* 114: a FIFO with a matching name is neither read nor waited on */
    rp_write(dir, "aorta_kernel_stats.csv", STATS_HEADER "\"sgemm\",4,1000\n");
    char *fifo = tu_join(dir, "trap_kernel_stats.csv");
    ck_assert_int_eq(mkfifo(fifo, 0644), 0);
    aorta_metrics_t *m = rp_parse(dir);
    const char *top[] = {"sgemm", NULL};
    expect_metrics(m, 4, 0.001, 0.001, top);
    aorta_metrics_free(m);
    free(fifo);
}
END_TEST

START_TEST(symlinks_never_followed)
{
    char *outside = tu_tmpdir();
    rp_write(outside, "leak_kernel_stats.csv", STATS_HEADER "\"leak\",999,999\n");
    rp_write(dir, "run/real_kernel_stats.csv", STATS_HEADER "\"real\",1,1000\n");
    char *file_link = tu_join(dir, "run/link_kernel_stats.csv");
    char *leak = tu_join(outside, "leak_kernel_stats.csv");
    ck_assert_int_eq(symlink(leak, file_link), 0);
    char *dir_link = tu_join(dir, "run/sub");
    ck_assert_int_eq(symlink(outside, dir_link), 0);
    char *run = tu_join(dir, "run");
    aorta_metrics_t *m = rp_parse(run);
    const char *top[] = {"real", NULL};
    expect_metrics(m, 1, 0.001, 0.001, top);
    aorta_metrics_free(m);
    /* the directory itself a symlink: nothing at all */
    char *run_link = tu_join(dir, "run-link");
    ck_assert_int_eq(symlink(run, run_link), 0);
    m = rp_parse(run_link);
    ck_assert_uint_eq(aorta_metrics_count(m), 0);
    aorta_metrics_free(m);
    tu_rmtree(outside);
    free(run_link);
    free(run);
    free(dir_link);
    free(leak);
    free(file_link);
    free(outside);
}
END_TEST

START_TEST(out_of_descriptors_reports_the_directory_alone)
{
    /* EMFILE during the walk: totals over some ranks would look complete,
     * so only rocprof_artifact_dir, which the contract asks whenever the
     * directory exists. */
    rp_write(dir, "a/b/c/d/e/f/g/h/deep_kernel_stats.csv", STATS_HEADER "\"k\",1,10\n");
    rp_write(dir, "top_kernel_stats.csv", STATS_HEADER "\"k\",1,10\n");
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        /* Use up the descriptors (under a small limit), then free two:
         * enough to open the directory, not to walk it. */
        struct rlimit limit = {256, 256};
        setrlimit(RLIMIT_NOFILE, &limit);
        int fds[4096], n = 0;
        while (n < 4096 && (fds[n] = open("/dev/null", O_RDONLY)) >= 0)
            n++;
        if (n < 2 || errno != EMFILE)
            _exit(77); /* not out of descriptors the way the kernel runs out */
        close(fds[--n]);
        close(fds[--n]);
        aorta_metrics_t *m = rp_parse(dir);
        const aorta_metric_t *artifact = aorta_metrics_find(m, "rocprof_artifact_dir");
        _exit(aorta_metrics_count(m) == 1 && artifact && !strcmp(artifact->string_value, dir)
                  ? 0
                  : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ck_assert(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) {
        /* only valgrind, which keeps descriptors of its own, gets here */
        char *maps = tu_read("/proc/self/maps");
        ck_assert_msg(maps && strstr(maps, "vgpreload"), "could not run out of descriptors");
        free(maps);
        return;
    }
    ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

START_TEST(parse_in_a_child_keeps_the_types)
{
    char *path = rp_fixture("flat_with_o");
    aorta_metrics_t *m = ar_parse_in_child(rp_plugin(), NULL, path);
    const char *top[] = {SGEMM, NULL};
    expect_metrics(m, 23, 0.539404, 0.539404, top);
    ck_assert_str_eq(rp_string(m, "rocprof_artifact_dir"), path);
    ck_assert_uint_eq(aorta_metrics_count(m), 5);
    aorta_metrics_free(m);
    m = ar_parse_in_child(rp_plugin(), NULL, dir);
    rp_assert_only_artifact_dir(m, dir);
    aorta_metrics_free(m);
    free(path);
}
END_TEST

static Suite *parse_suite(void)
{
    Suite *suite = suite_create("rocprof_parse");
    TCase *tc = tcase_create("parse");
    tcase_add_unchecked_fixture(tc, rp_setup, rp_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, flat_with_o);
    tcase_add_test(tc, nested_no_o);
    tcase_add_test(tc, trace_only);
    tcase_add_test(tc, broken_stats_fall_back_to_the_trace);
    tcase_add_test(tc, garbage_and_malformed);
    tcase_add_test(tc, missing_file_and_empty_dirs);
    tcase_add_test(tc, unusable_rows_skipped);
    tcase_add_test(tc, overflow_reports_only_the_dir);
    tcase_add_test(tc, unreadable_counts_drop_only_the_count);
    tcase_add_test(tc, readable_counts);
    tcase_add_test(tc, trace_rows);
    tcase_add_test(tc, timestamps_of_every_length);
    tcase_add_test(tc, trace_without_kind);
    tcase_add_test(tc, ranks_merge);
    tcase_add_test(tc, ranking);
    tcase_add_test(tc, zero_total_stats_suppress_the_trace);
    tcase_add_test(tc, names_are_stripped);
    tcase_add_test(tc, file_mode_000);
    tcase_add_test(tc, quoting);
    tcase_add_test(tc, line_endings_and_blank_lines);
    tcase_add_test(tc, blank_first_line_is_an_empty_header);
    tcase_add_test(tc, short_rows_and_duplicate_columns);
    tcase_add_test(tc, a_leading_bom_is_dropped);
    tcase_add_test(tc, files_without_kernels_are_named_in_one_warning);
    tcase_add_test(tc, truncated_last_rows);
    tcase_add_test(tc, unescaped_quotes_in_names);
    tcase_add_test(tc, invalid_utf8_stops_the_file);
    tcase_add_test(tc, field_size_limit);
    tcase_add_test(tc, nul_is_an_ordinary_character);
    tcase_add_test(tc, rows_longer_than_the_buffer);
    tcase_add_test(tc, real_docs_kernel_trace);
    tcase_add_test(tc, real_docs_truncated_trace);
    tcase_add_test(tc, real_mi300a_stats);
    tcase_add_test(tc, real_mi300a_legacy_trace);
    tcase_add_test(tc, real_files_that_are_not_kernels);
    tcase_add_test(tc, real_stats_shapes);
    tcase_add_test(tc, seam_single_row_and_many_ranks);
    tcase_add_test(tc, no_descriptor_leak);
    tcase_add_test(tc, fifo_ignored);
    tcase_add_test(tc, symlinks_never_followed);
    tcase_add_test(tc, out_of_descriptors_reports_the_directory_alone);
    tcase_add_test(tc, parse_in_a_child_keeps_the_types);
    tcase_add_test(tc, dispatches_come_from_the_kernel_trace);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(parse_suite)
