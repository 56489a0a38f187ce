/* SPDX-License-Identifier: MIT */
/* The timeline's two halves below the sweep: the dispatches in the parse
 * reply (their lines, read back the same, cut before the kernel rows past
 * the limit, refused when garbled), and the Chrome trace writer (the
 * format's fields, one process per rank, one thread per track, events by
 * pid then ts, the two alignments, names escaped to valid UTF-8). */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "report/lane_svg.h"
#include "record/timeline.h"
#include "record/parse_reply.h"
#include "sys/json.h"
#include "testutil.h"
#include "xalloc.h"

static aorta_dispatches_t *two_tracks(int clock, uint64_t offset)
{
    aorta_dispatches_t *d = aorta_dispatches_new();
    aorta_dispatches_set_clock(d, clock);
    aorta_dispatches_add(d, "queue 1", "gemm<\"q\">", 9, offset + 5000, offset + 7500);
    aorta_dispatches_add(d, "queue 2", "bad\xff", 4, offset + 1000, offset + 1001);
    aorta_dispatches_add(d, "queue 1", "gemm<\"q\">", 9, offset + 2000, offset + 2000);
    return d;
}

static void expect_same(const aorta_dispatches_t *a, const aorta_dispatches_t *b)
{
    ck_assert_uint_eq(aorta_dispatches_count(a), aorta_dispatches_count(b));
    ck_assert_int_eq(aorta_dispatches_clock(a), aorta_dispatches_clock(b));
    for (size_t i = 0; i < aorta_dispatches_count(a); i++) {
        ck_assert_str_eq(aorta_dispatches_track_name(a, aorta_dispatches_track_at(a, i)),
                         aorta_dispatches_track_name(b, aorta_dispatches_track_at(b, i)));
        ck_assert_uint_eq(aorta_dispatches_start_at(a, i), aorta_dispatches_start_at(b, i));
        ck_assert_uint_eq(aorta_dispatches_end_at(a, i), aorta_dispatches_end_at(b, i));
    }
}

START_TEST(the_reply_carries_the_dispatches_and_reads_them_back)
{
    aorta_metrics_t *m = aorta_metrics_new("c_");
    aorta_metrics_set_int(m, "c_kernel_count", 3);
    aorta_dispatches_t *d = two_tracks(AORTA_CLOCK_HOST, UINT64_C(1) << 60);
    aorta_metrics_set_dispatches(m, d);
    size_t len;
    char *text = ar_parse_reply_text(m, 0, &len);
    ck_assert_ptr_nonnull(strstr(text, "\"dispatches\":3"));
    ck_assert_ptr_nonnull(strstr(text, "\"dispatch_clock\":\"host\""));
    aorta_metrics_t *back = aorta_metrics_new("c_");
    ck_assert_int_eq(ar_parse_reply_read(back, text, len), 0);
    expect_same(d, aorta_metrics_dispatches(back));
    /* The name that was not UTF-8 reads back as what will be written. */
    const aorta_dispatches_t *got = aorta_metrics_dispatches(back);
    ck_assert_str_eq(aorta_dispatches_name(got, aorta_dispatches_name_at(got, 1), NULL),
                     "bad\xef\xbf\xbd");
    ck_assert_str_eq(aorta_dispatches_name(got, aorta_dispatches_name_at(got, 0), NULL),
                     "gemm<\"q\">");
    int64_t kept = -1;
    ck_assert_int_eq(ar_parse_reply_dispatches_cut(text, len, &kept), 0);
    aorta_metrics_free(back);
    /* Garbled: every shortened reply, a line changed, a line more. */
    for (size_t cut = 1; cut < len; cut++) {
        back = aorta_metrics_new("c_");
        ck_assert_int_eq(ar_parse_reply_read(back, text, cut), -1);
        aorta_metrics_free(back);
    }
    const char *edits[][2] = {{"[0,0,", "[0,9,"}, {"[1,1,", "[1,-1,"}, {"[0,0,", "[0,0,x"},
                              {"\"dispatch_clock\":\"host\"", "\"dispatch_clock\":\"wall\""}};
    for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
        char *at = strstr(text, edits[e][0]);
        ck_assert_ptr_nonnull(at);
        char *bad = ar_xasprintf("%.*s%s%s", (int)(at - text), text, edits[e][1],
                                    at + strlen(edits[e][0]));
        back = aorta_metrics_new("c_");
        ck_assert_msg(ar_parse_reply_read(back, bad, strlen(bad)) == -1, "read: %s", bad);
        aorta_metrics_free(back);
        free(bad);
    }
    char *more = ar_xasprintf("%s[0,0,1,2]\n", text);
    back = aorta_metrics_new("c_");
    ck_assert_int_eq(ar_parse_reply_read(back, more, strlen(more)), -1);
    aorta_metrics_free(back);
    free(more);
    free(text);
    aorta_dispatches_free(d);
    aorta_metrics_free(m);
}
END_TEST

START_TEST(past_the_limit_dispatches_are_cut_before_rows)
{
    aorta_kernels_t *k = aorta_kernels_new(0);
    aorta_dispatches_t *d = aorta_dispatches_new();
    for (int i = 0; i < 200; i++) {
        char name[64];
        snprintf(name, sizeof name, "kernel_%03d", i);
        aorta_kernels_add(k, name, strlen(name), 1000.0, 1);
        for (int j = 0; j < 50; j++)
            aorta_dispatches_add(d, "queue 0", name, strlen(name), (uint64_t)(i * 50 + j) * 1000,
                                 (uint64_t)(i * 50 + j) * 1000 + 500);
    }
    aorta_metrics_t *m = aorta_metrics_new("c_");
    aorta_kernels_report(k, m, "c", 1e6, NULL);
    aorta_metrics_set_dispatches(m, d);
    size_t whole_len, len;
    char *whole = ar_parse_reply_text(m, 0, &whole_len);
    char *text = ar_parse_reply_text(m, 65536, &len);
    ck_assert_uint_le(len, 65536);
    int64_t kept = -1, rows = -1;
    ck_assert_int_eq(ar_parse_reply_dispatches_cut(text, len, &kept), 10000);
    ck_assert(kept > 100 && kept < 10000);
    ck_assert_int_eq(ar_parse_reply_rows_cut(text, len, &rows), 0); /* every row */
    ck_assert_int_eq(rows, 200);
    aorta_metrics_t *back = aorta_metrics_new("c_");
    ck_assert_int_eq(ar_parse_reply_read(back, text, len), 0);
    ck_assert_uint_eq(aorta_kernels_count(aorta_metrics_kernels(back)), 200);
    const aorta_dispatches_t *got = aorta_metrics_dispatches(back);
    ck_assert_uint_eq(aorta_dispatches_count(got), (size_t)kept);
    ck_assert_uint_eq(aorta_dispatches_start_at(got, (size_t)kept - 1), (uint64_t)(kept - 1) * 1000);
    aorta_metrics_free(back);
    /* A limit the rows alone pass: no dispatch at all, the rows cut. */
    free(text);
    text = ar_parse_reply_text(m, 2048, &len);
    ck_assert_int_eq(ar_parse_reply_dispatches_cut(text, len, &kept), 10000);
    ck_assert_int_eq(kept, 0);
    ck_assert_int_gt(ar_parse_reply_rows_cut(text, len, &rows), 0);
    back = aorta_metrics_new("c_");
    ck_assert_int_eq(ar_parse_reply_read(back, text, len), 0);
    ck_assert_uint_eq(aorta_dispatches_count(aorta_metrics_dispatches(back)), 0);
    aorta_metrics_free(back);
    free(text);
    free(whole);
    aorta_metrics_free(m);
    aorta_dispatches_free(d);
    aorta_kernels_free(k);
}
END_TEST

static ar_json_t *timeline(const ar_timeline_source_t *sources, size_t count, int one_node)
{
    size_t len;
    char *text = ar_timeline_text(sources, count, one_node, &len);
    ck_assert_uint_eq(strlen(text), len);
    ar_json_t *json = ar_json_parse_strict(text, len, 16, 1);
    ck_assert_msg(json != NULL, "not JSON: %s", text);
    free(text);
    return json;
}

static const char *str(const ar_json_t *event, const char *key)
{
    const char *s = ar_json_get_string(ar_json_get(event, key));
    ck_assert_msg(s != NULL, "no %s", key);
    return s;
}

/* Every event has the format's fields; the X events come by pid, then ts;
 * each rank has one process_name. */
static void expect_format(const ar_json_t *json, size_t ranks, size_t complete)
{
    const ar_json_t *events = ar_json_get(json, "traceEvents");
    ck_assert_int_eq(ar_json_type(events), AR_JSON_ARRAY);
    ck_assert_str_eq(str(json, "displayTimeUnit"), "ns");
    size_t names = 0, x = 0;
    double last_ts = -1;
    int64_t last_pid = -1;
    for (size_t i = 0; i < ar_json_length(events); i++) {
        const ar_json_t *e = ar_json_at(events, i);
        str(e, "name");
        ck_assert_int_eq(ar_json_type(ar_json_get(e, "pid")), AR_JSON_INT);
        ck_assert_int_eq(ar_json_type(ar_json_get(e, "tid")), AR_JSON_INT);
        int64_t pid = ar_json_get_int(ar_json_get(e, "pid"));
        if (!strcmp(str(e, "ph"), "M")) {
            names += !strcmp(str(e, "name"), "process_name");
            continue;
        }
        ck_assert_str_eq(str(e, "ph"), "X");
        ck_assert_str_eq(str(e, "cat"), "kernel");
        double ts = ar_json_get_double(ar_json_get(e, "ts"));
        ck_assert(ar_json_get_double(ar_json_get(e, "dur")) >= 0);
        ck_assert(pid > last_pid || (pid == last_pid && ts >= last_ts));
        last_pid = pid;
        last_ts = ts;
        x++;
    }
    ck_assert_uint_eq(names, ranks);
    ck_assert_uint_eq(x, complete);
}

/* The X events of pid as "name@ts+dur/tid" lines. */
static char *events_of(const ar_json_t *json, int64_t pid)
{
    const ar_json_t *events = ar_json_get(json, "traceEvents");
    char *out = ar_xstrdup("");
    for (size_t i = 0; i < ar_json_length(events); i++) {
        const ar_json_t *e = ar_json_at(events, i);
        if (strcmp(str(e, "ph"), "X") || ar_json_get_int(ar_json_get(e, "pid")) != pid)
            continue;
        char *more = ar_xasprintf("%s%s@%.3f+%.3f/%lld\n", out, str(e, "name"),
                                     ar_json_get_double(ar_json_get(e, "ts")),
                                     ar_json_get_double(ar_json_get(e, "dur")),
                                     (long long)ar_json_get_int(ar_json_get(e, "tid")));
        free(out);
        out = more;
    }
    return out;
}

START_TEST(two_ranks_of_one_clock_share_time_zero)
{
    aorta_dispatches_t *r0 = two_tracks(AORTA_CLOCK_HOST, 1000000);
    aorta_dispatches_t *r1 = two_tracks(AORTA_CLOCK_HOST, 1003000);
    /* Given out of rank order: the file is in it. */
    ar_timeline_source_t sources[] = {{1, "rocprof", r1}, {0, "rocprof", r0}};
    ar_json_t *json = timeline(sources, 2, 1);
    expect_format(json, 2, 6);
    char *zero = events_of(json, 0), *one = events_of(json, 1);
    ck_assert_str_eq(zero, "bad\xef\xbf\xbd@0.000+0.001/2\n"
                           "gemm<\"q\">@1.000+0.000/1\n"
                           "gemm<\"q\">@4.000+2.500/1\n");
    ck_assert_str_eq(one, "bad\xef\xbf\xbd@3.000+0.001/2\n"
                          "gemm<\"q\">@4.000+0.000/1\n"
                          "gemm<\"q\">@7.000+2.500/1\n");
    ck_assert_ptr_nonnull(strstr(ar_json_get_string(ar_json_get(
                                     ar_json_get(json, "otherData"), "alignment")),
                                 "common"));
    free(zero);
    free(one);
    ar_json_free(json);
    /* Not one node: each rank starts at its own first dispatch. */
    json = timeline(sources, 2, 0);
    one = events_of(json, 1);
    ck_assert_str_eq(one, "bad\xef\xbf\xbd@0.000+0.001/2\n"
                          "gemm<\"q\">@1.000+0.000/1\n"
                          "gemm<\"q\">@4.000+2.500/1\n");
    free(one);
    ar_json_free(json);
    aorta_dispatches_free(r0);
    aorta_dispatches_free(r1);
}
END_TEST

START_TEST(session_clocks_are_aligned_per_rank_and_tracks_named_per_collector)
{
    aorta_dispatches_t *r0 = two_tracks(AORTA_CLOCK_SESSION, 0);
    aorta_dispatches_t *r1 = two_tracks(AORTA_CLOCK_SESSION, 500000);
    aorta_dispatches_t *host = two_tracks(AORTA_CLOCK_HOST, 7000);
    ar_timeline_source_t sources[] = {
        {0, "proton", r0}, {3, "proton", r1}, {3, "rocprof", host}, {5, "proton", NULL}};
    ar_json_t *json = timeline(sources, 4, 1);
    expect_format(json, 2, 9); /* rank 5 has nothing: no process */
    char *three = events_of(json, 3);
    /* rank 3's Proton tracks are 1 and 2, rocprof's 3 and 4. */
    ck_assert_str_eq(three, "bad\xef\xbf\xbd@0.000+0.001/2\n"
                            "bad\xef\xbf\xbd@0.000+0.001/4\n"
                            "gemm<\"q\">@1.000+0.000/1\n"
                            "gemm<\"q\">@1.000+0.000/3\n"
                            "gemm<\"q\">@4.000+2.500/1\n"
                            "gemm<\"q\">@4.000+2.500/3\n");
    free(three);
    const ar_json_t *events = ar_json_get(json, "traceEvents");
    size_t threads = 0;
    for (size_t i = 0; i < ar_json_length(events); i++) {
        const ar_json_t *e = ar_json_at(events, i);
        if (strcmp(str(e, "name"), "thread_name") || ar_json_get_int(ar_json_get(e, "pid")) != 3)
            continue;
        const char *want[] = {"proton: queue 1", "proton: queue 2", "rocprof: queue 1",
                              "rocprof: queue 2"};
        ck_assert_int_eq(ar_json_get_int(ar_json_get(e, "tid")), (int64_t)threads + 1);
        ck_assert_str_eq(str(ar_json_get(e, "args"), "name"), want[threads++]);
    }
    ck_assert_uint_eq(threads, 4);
    ck_assert_ptr_nonnull(strstr(str(ar_json_get(json, "otherData"), "alignment"),
                                 "per rank"));
    ar_json_free(json);
    aorta_dispatches_free(r0);
    aorta_dispatches_free(r1);
    aorta_dispatches_free(host);
}
END_TEST

START_TEST(no_dispatch_is_an_empty_trace_and_the_file_is_written_whole)
{
    ar_timeline_source_t none[] = {{0, "rocprof", NULL}};
    ck_assert_int_eq(ar_timeline_has_dispatches(none, 1), 0);
    ar_json_t *json = timeline(none, 1, 1);
    expect_format(json, 0, 0);
    ar_json_free(json);
    char *path = ar_timeline_path("cell/_subprocess/trial_d0_m0_t3.json");
    ck_assert_str_eq(path, "cell/_subprocess/trial_d0_m0_t3.timeline.json");
    free(path);
    aorta_dispatches_t *d = two_tracks(AORTA_CLOCK_HOST, 0);
    ar_timeline_source_t one[] = {{0, "rocprof", d}};
    ck_assert_int_eq(ar_timeline_has_dispatches(one, 1), 1);
    char dir[] = "/tmp/aorta-timeline-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    ck_assert_int_eq(ar_timeline_write_at(fd, "t.timeline.json", one, 1, 1), 0);
    char *file = ar_xasprintf("%s/t.timeline.json", dir);
    json = ar_json_read_file(file, 1 << 20, 16);
    ck_assert_ptr_nonnull(json);
    expect_format(json, 1, 3);
    ar_json_free(json);
    unlink(file);
    free(file);
    close(fd);
    rmdir(dir);
    aorta_dispatches_free(d);
}
END_TEST

static size_t count_of(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

START_TEST(the_lane_chart_has_a_lane_per_rank_and_track_and_stays_small)
{
    /* 64 ranks x 10,000 dispatches of 60 kernels on two queues. */
    aorta_dispatches_t *d[64];
    ar_timeline_source_t sources[64];
    for (int r = 0; r < 64; r++) {
        d[r] = aorta_dispatches_new();
        aorta_dispatches_set_clock(d[r], AORTA_CLOCK_HOST);
        uint64_t t = 1000000 + (uint64_t)r * 10;
        for (int i = 0; i < 10000; i++) {
            char name[64];
            snprintf(name, sizeof name, i % 60 ? "kernel_%d" : "<script>k%d</script>", i % 60);
            aorta_dispatches_add(d[r], i % 3 ? "queue 1" : "queue 2", name, strlen(name), t,
                                 t + 800 + (uint64_t)(i % 7) * 100);
            t += 1500;
        }
        sources[r] = (ar_timeline_source_t){r, "rocprof", d[r]};
    }
    size_t len;
    char *text = ar_timeline_text(sources, 64, 1, &len);
    char *svg = ar_lane_svg(text, len);
    ck_assert_ptr_nonnull(svg);
    ck_assert_uint_eq(count_of(svg, "<g class=\"lane\">"), 128);
    ck_assert_uint_eq(count_of(svg, "<title>"), 128);
    ck_assert_ptr_nonnull(strstr(svg, "<title>rank 63 \xc2\xb7 rocprof: queue 2: 3334 dispatch(es)"
                                      "</title>"));
    /* At most a rectangle a column a lane, whatever the dispatches. */
    ck_assert_uint_le(count_of(svg, "h-"), (size_t)128 * AR_LANE_COLUMNS);
    ck_assert_uint_lt(strlen(svg), (size_t)3 << 20);
    /* The legend: eight kernels and the rest; markup in a name is text. */
    ck_assert_uint_eq(count_of(svg, "class=\"key\""), AR_LANE_COLOURS + 1);
    ck_assert_ptr_null(strstr(svg, "<script>"));
    ck_assert_ptr_nonnull(strstr(svg, "52 other kernel(s)"));
    free(svg);
    free(text);
    for (int r = 0; r < 64; r++)
        aorta_dispatches_free(d[r]);
}
END_TEST

START_TEST(the_lane_chart_skips_what_is_not_an_event_line)
{
    ck_assert_ptr_null(ar_lane_svg("", 0));
    const char *junk = "{\"traceEvents\":[\n{\"name\":\"k\",\"cat\":\"kernel\",\"ph\":\"X\","
                       "\"pid\":-1,\"tid\":1,\"ts\":1.0,\"dur\":1.0},\n{\"name\":\"k\",\"cat\":"
                       "\"kernel\",\"ph\":\"X\",\"pid\":0,\"tid\":1,\"ts\":nan,\"dur\":1.0},\n"
                       "{\"name\":\"unclosed,\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0";
    ck_assert_ptr_null(ar_lane_svg(junk, strlen(junk)));
    const char *one = "{\"name\":\"k\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":0,\"tid\":1,"
                      "\"ts\":0.000,\"dur\":0.000}";
    char *svg = ar_lane_svg(one, strlen(one));
    ck_assert_ptr_nonnull(svg);
    ck_assert_uint_eq(count_of(svg, "<g class=\"lane\">"), 1);
    ck_assert_ptr_nonnull(strstr(svg, "rank 0 \xc2\xb7 ?")); /* a track without a name */
    free(svg);
}
END_TEST

/* Doubles out of an integer's range are never converted (undefined
 * behaviour, which the sanitizer build stops): a pid or tid of NaN or
 * 1e300 leaves its event or its lane's name out, and a chart end of
 * 5e-324 (an infinite scale) draws no column rather than converting inf. */
START_TEST(the_lane_chart_converts_no_double_out_of_range)
{
    const char *ids = "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1e300,\"tid\":1,"
                      "\"args\":{\"name\":\"huge\"}}\n"
                      "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":-nan,"
                      "\"args\":{\"name\":\"nan\"}}\n"
                      "{\"name\":\"k\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":-nan,"
                      "\"tid\":1,\"ts\":1.0,\"dur\":1.0}\n"
                      "{\"name\":\"k\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":0,"
                      "\"tid\":-nan,\"ts\":1.0,\"dur\":1.0}\n"
                      "{\"name\":\"k\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":2,"
                      "\"tid\":3,\"ts\":1.0,\"dur\":1.0}";
    char *svg = ar_lane_svg(ids, strlen(ids));
    ck_assert_ptr_nonnull(svg);
    /* One lane, rank 2's: the NaN ids made no lane of their own (a NaN
     * converted read as rank -9223372036854775808). */
    ck_assert_uint_eq(count_of(svg, "<g class=\"lane\">"), 1);
    ck_assert_ptr_nonnull(strstr(svg, "rank 2 \xc2\xb7 ?"));
    ck_assert_ptr_null(strstr(svg, "rank -"));
    ck_assert_ptr_null(strstr(svg, "huge"));
    free(svg);
    const char *tiny = "{\"name\":\"k\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":0,"
                       "\"tid\":1,\"ts\":0,\"dur\":5e-324}\n"
                       "{\"name\":\"k\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":0,"
                       "\"tid\":1,\"ts\":5e-324,\"dur\":0}";
    svg = ar_lane_svg(tiny, strlen(tiny));
    ck_assert_ptr_nonnull(svg);
    ck_assert_uint_eq(count_of(svg, "<g class=\"lane\">"), 1);
    free(svg);
}
END_TEST

static Suite *timeline_suite(void)
{
    Suite *suite = suite_create("timeline");
    TCase *tc = tcase_create("timeline");
    tcase_add_test(tc, the_reply_carries_the_dispatches_and_reads_them_back);
    tcase_add_test(tc, past_the_limit_dispatches_are_cut_before_rows);
    tcase_add_test(tc, two_ranks_of_one_clock_share_time_zero);
    tcase_add_test(tc, session_clocks_are_aligned_per_rank_and_tracks_named_per_collector);
    tcase_add_test(tc, no_dispatch_is_an_empty_trace_and_the_file_is_written_whole);
    tcase_add_test(tc, the_lane_chart_has_a_lane_per_rank_and_track_and_stays_small);
    tcase_add_test(tc, the_lane_chart_skips_what_is_not_an_event_line);
    tcase_add_test(tc, the_lane_chart_converts_no_double_out_of_range);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(timeline_suite)
