/* SPDX-License-Identifier: MIT */
/* Every form of a Proton session into the same five metrics and kernel
 * table (docs/collectors/proton.md, Metrics): the Chrome trace of data:
 * trace, the .part_<N> phases periodic flushing writes, hatchet_msgpack;
 * a session counted once whatever forms its directory holds, a missing or
 * unreadable phase named in a warning.  The traces and trees are real H200
 * captures of one payload (fixtures/FIXTURES.md): a tree and a trace of the
 * very same launches must agree (equal launches, GPU time within 1%).  The
 * msgpack and phase forms Triton 3.6 cannot write come from
 * proton_writer.py, which restates Proton's writers, fed the real tree. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "protontest.h"

#ifndef HAVE_MSGPACK
#define HAVE_MSGPACK 0
#endif

static char *dir;
static tu_text_t warnings;

static void on_warning(const char *source, const char *message, void *user)
{
    (void)user;
    tu_text_add(&warnings, "%s: %s\n", source, message);
}

static void setup(void)
{
    pt_load();
    dir = tu_tmpdir();
    free(warnings.data);
    warnings = (tu_text_t){0};
    aorta_warning_set_handler(on_warning, NULL);
}

static void teardown(void)
{
    aorta_warning_set_handler(NULL, NULL);
    tu_rmtree(dir);
    free(dir);
    pt_unload();
}

static char *fixture(const char *rel)
{
    char *base = tu_srcdir("tests/collectors/proton/fixtures");
    char *path = tu_join(base, rel);
    free(base);
    return path;
}

static aorta_metrics_t *parse_at(const char *where)
{
    aorta_metrics_t *metrics = aorta_metrics_new("proton_");
    pt_collector()->parse(NULL, where, metrics);
    return metrics;
}

static aorta_metrics_t *parse_fixture(const char *rel)
{
    char *where = fixture(rel);
    aorta_metrics_t *metrics = parse_at(where);
    free(where);
    return metrics;
}

static int64_t launches(const aorta_metrics_t *metrics)
{
    const aorta_metric_t *count = aorta_metrics_find(metrics, "proton_kernel_count");
    ck_assert_ptr_nonnull(count);
    return count->int_value;
}

static double gpu_ms(const aorta_metrics_t *metrics)
{
    const aorta_metric_t *gpu = aorta_metrics_find(metrics, "proton_gpu_time_ms");
    ck_assert_ptr_nonnull(gpu);
    return gpu->double_value;
}

/* Copy fixture file rel to dir/name. */
static void copy_in(const char *rel, const char *name)
{
    char *from = fixture(rel);
    FILE *in = fopen(from, "rb");
    ck_assert_ptr_nonnull(in);
    char *to = tu_join(dir, name);
    char *slash = strrchr(to, '/');
    *slash = '\0';
    char *mkdir_argv[] = {"mkdir", "-p", to, NULL};
    ck_assert_int_eq(tu_run(mkdir_argv, NULL, NULL, NULL), 0);
    *slash = '/';
    FILE *out = fopen(to, "wb");
    ck_assert_ptr_nonnull(out);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
    free(from);
    free(to);
}

/* Each kernel of a has b's launches and, within tolerance, b's time. */
static void same_table(const aorta_metrics_t *a, const aorta_metrics_t *b, double tolerance)
{
    const aorta_kernels_t *ka = aorta_metrics_kernels(a), *kb = aorta_metrics_kernels(b);
    ck_assert_ptr_nonnull(ka);
    ck_assert_ptr_nonnull(kb);
    ck_assert_uint_eq(aorta_kernels_count(ka), aorta_kernels_count(kb));
    for (size_t i = 0; i < aorta_kernels_count(ka); i++) {
        size_t len;
        const char *name = aorta_kernels_name_at(ka, i, &len);
        size_t j = 0;
        for (; j < aorta_kernels_count(kb); j++) {
            size_t other;
            const char *candidate = aorta_kernels_name_at(kb, j, &other);
            if (other == len && memcmp(candidate, name, len) == 0)
                break;
        }
        ck_assert_msg(j < aorta_kernels_count(kb), "%s missing", name);
        ck_assert_int_eq(aorta_kernels_launches_at(ka, i), aorta_kernels_launches_at(kb, j));
        double ta = aorta_kernels_time_at(ka, i), tb = aorta_kernels_time_at(kb, j);
        ck_assert_msg(fabs(ta - tb) <= tolerance * tb, "%s: %.17g against %.17g", name, ta, tb);
    }
}

static int warned(const char *needle)
{
    return warnings.data && strstr(warnings.data, needle) != NULL;
}

static size_t warning_lines(void)
{
    size_t n = 0;
    for (const char *p = warnings.data ? warnings.data : ""; *p; p++)
        n += *p == '\n';
    return n;
}

/* ---- the trace of data: trace -------------------------------------------- */

START_TEST(a_trace_and_a_tree_of_one_payload_agree)
{
    /* Two Proton sessions over the same launches of a small model on the
     * H200: the tree and the trace, with shadow and with python contexts. */
    const char *const pairs[][2] = {{"h200_model_shadow/tree", "h200_model_shadow/trace"},
                                    {"h200_model_python/tree", "h200_model_python/trace"}};
    for (size_t i = 0; i < 2; i++) {
        aorta_metrics_t *tree = parse_fixture(pairs[i][0]);
        aorta_metrics_t *trace = parse_fixture(pairs[i][1]);
        ck_assert_int_eq(launches(tree), 96);
        ck_assert_int_eq(launches(trace), launches(tree));
        ck_assert(fabs(gpu_ms(trace) - gpu_ms(tree)) <= 0.01 * gpu_ms(tree));
        same_table(trace, tree, 0.01);
        aorta_metrics_free(tree);
        aorta_metrics_free(trace);
    }
    ck_assert_uint_eq(warning_lines(), 0);
}
END_TEST

START_TEST(the_trace_of_a_data_trace_run_gives_its_launches)
{
    /* aorta-run's own mode cli data: trace trial on the H200 (vecadd.py):
     * 12 launches, add_kernel's 6 the hottest. */
    aorta_metrics_t *metrics = parse_fixture("h200_cli_trace");
    ck_assert_int_eq(launches(metrics), 12);
    ck_assert_double_eq_tol(gpu_ms(metrics), 0.035457, 1e-9);
    const aorta_metric_t *top = aorta_metrics_find(metrics, "proton_top_kernels");
    ck_assert_ptr_nonnull(top);
    ck_assert_str_eq(top->strings[0], "add_kernel");
    ck_assert_double_eq_tol(aorta_metrics_find(metrics, "proton_top_kernel_ms")->double_value,
                            0.014208, 1e-9);
    aorta_metrics_free(metrics);
    /* Two torchrun ranks, each its own trace: 10 and 20 launches. */
    metrics = parse_fixture("h200_torchrun_trace");
    ck_assert_int_eq(launches(metrics), 30);
    ck_assert_double_eq_tol(gpu_ms(metrics), 0.022655 + 0.045408, 1e-9);
    aorta_metrics_free(metrics);
}
END_TEST

/* Each launch of a Chrome trace is a dispatch for the timeline (ABI 1.3):
 * its ts and dur to the ns, its tid as the stream, Proton's session clock;
 * a tree has none. */
START_TEST(the_trace_s_launches_are_dispatches)
{
    aorta_metrics_t *metrics = parse_fixture("h200_torchrun_trace/rank0");
    const aorta_dispatches_t *d = aorta_metrics_dispatches(metrics);
    ck_assert_uint_eq(aorta_dispatches_count(d), 10);
    ck_assert_int_eq(aorta_dispatches_clock(d), AORTA_CLOCK_SESSION);
    ck_assert_uint_eq(aorta_dispatches_track_count(d), 1);
    ck_assert_str_eq(aorta_dispatches_track_name(d, 0), "stream 7");
    ck_assert_str_eq(aorta_dispatches_name(d, aorta_dispatches_name_at(d, 0), NULL), "add_kernel");
    ck_assert_uint_eq(aorta_dispatches_start_at(d, 0), 0);
    ck_assert_uint_eq(aorta_dispatches_end_at(d, 0), 2400);
    ck_assert_uint_eq(aorta_dispatches_start_at(d, 9), 36574939);
    ck_assert_uint_eq(aorta_dispatches_end_at(d, 9), 36574939 + 2240);
    ck_assert_int_eq(launches(metrics), 10); /* the metrics as they were */
    aorta_metrics_free(metrics);
    metrics = parse_fixture("h200_torchrun_trace/rank1");
    ck_assert_uint_eq(aorta_dispatches_count(aorta_metrics_dispatches(metrics)), 20);
    aorta_metrics_free(metrics);
    metrics = parse_fixture("h200_model_shadow/tree");
    ck_assert_ptr_null(aorta_metrics_dispatches(metrics));
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(the_later_trace_layout_gives_the_same_launches)
{
    /* One object for the session, lanes, CPU scopes and flows beside the
     * kernels (proton_writer.py from the real trace's events). */
    aorta_metrics_t *later = parse_fixture("generated/trace_session");
    aorta_metrics_t *old = parse_fixture("h200_model_shadow/trace");
    ck_assert_int_eq(launches(later), launches(old));
    ck_assert(gpu_ms(later) == gpu_ms(old));
    same_table(later, old, 0);
    aorta_metrics_free(later);
    aorta_metrics_free(old);
}
END_TEST

static void write_text(const char *name, const char *text)
{
    char *path = tu_join(dir, name);
    tu_write(path, text);
    free(path);
}

#define EVENT(name, cat, ph, dur) \
    "{\"name\":\"" name "\",\"cat\":\"" cat "\",\"ph\":\"" ph "\",\"dur\":" dur "}"

START_TEST(only_complete_kernel_events_are_launches)
{
    write_text("proton.chrome_trace",
               "{\"displayTimeUnit\":\"us\",\"traceEvents\":[" EVENT("k", "kernel", "X", "2.5") ","
               /* No "ph": nothing carried over from the event before. */
               "{\"name\":\"k\",\"cat\":\"kernel\",\"dur\":100},"
               EVENT("k", "scope", "X", "100") "," EVENT("k", "kernel", "B", "100") ","
               EVENT("k", "flow", "s", "100") "," EVENT(" k ", "kernel", "X", "\"1.5\"") ","
               EVENT("", "kernel", "X", "100") "," EVENT("k", "kernel", "X", "-1") ","
               "{\"ph\":\"M\",\"name\":\"thread_name\",\"args\":{\"name\":\"GPU\"}}]}\n"
               "{\"displayTimeUnit\":\"us\",\"traceEvents\":[" EVENT("j", "kernel", "X", "1") "]}\n"
               /* The instrumentation backend's intra-kernel trace. */
               "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[" EVENT("x", "kernel", "X", "9") "]}\n");
    aorta_metrics_t *metrics = parse_at(dir);
    ck_assert_int_eq(launches(metrics), 3);
    ck_assert_double_eq_tol(gpu_ms(metrics), (2.5 + 1.5 + 1) * 1e-3, 1e-15);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(a_trace_one_pass_cannot_read_is_refused_with_a_warning)
{
    write_text("proton.chrome_trace",
               "{\"traceEvents\":[" EVENT("k", "kernel", "X", "2") "],\"traceEvents\":[]}\n");
    aorta_metrics_t *metrics = parse_at(dir);
    ck_assert(!aorta_metrics_find(metrics, "proton_kernel_count"));
    ck_assert_uint_eq(warning_lines(), 1);
    ck_assert(warned("proton.chrome_trace: a member repeated"));
    aorta_metrics_free(metrics);
}
END_TEST

/* ---- hatchet_msgpack ----------------------------------------------------- */

START_TEST(hatchet_msgpack_reads_as_its_tree)
{
    aorta_metrics_t *tree = parse_fixture("h200_model_shadow/tree");
    aorta_metrics_t *metrics = parse_fixture("generated/msgpack");
#if HAVE_MSGPACK
    /* The same tree, laid out as Proton's msgpack writer lays it: the same
     * table, bit for bit. */
    ck_assert_int_eq(launches(metrics), launches(tree));
    ck_assert(gpu_ms(metrics) == gpu_ms(tree));
    same_table(metrics, tree, 0);
    ck_assert_uint_eq(warning_lines(), 0);
#else
    /* Built without msgpack-c: one warning, never a failure. */
    ck_assert(!aorta_metrics_find(metrics, "proton_kernel_count"));
    ck_assert_ptr_nonnull(aorta_metrics_find(metrics, "proton_artifact_dir"));
    ck_assert_uint_eq(warning_lines(), 1);
    ck_assert(warned("proton: 1 .hatchet_msgpack file(s) not read"));
    ck_assert(warned("built without msgpack-c"));
#endif
    aorta_metrics_free(metrics);
    aorta_metrics_free(tree);
}
END_TEST

START_TEST(hatchet_msgpack_phases_sum_to_the_tree)
{
    aorta_metrics_t *tree = parse_fixture("h200_model_shadow/tree");
    aorta_metrics_t *metrics = parse_fixture("generated/msgpack_phases");
#if HAVE_MSGPACK
    ck_assert_int_eq(launches(metrics), launches(tree));
    same_table(metrics, tree, 1e-12);
    ck_assert_uint_eq(warning_lines(), 0);
#else
    ck_assert(!aorta_metrics_find(metrics, "proton_kernel_count"));
    ck_assert_uint_eq(warning_lines(), 1);
    ck_assert(warned("proton: 2 .hatchet_msgpack file(s) not read"));
#endif
    aorta_metrics_free(metrics);
    aorta_metrics_free(tree);
}
END_TEST

START_TEST(what_python_s_msgpack_refuses_is_no_profile)
{
#if HAVE_MSGPACK
    static const struct {
        const char *bytes;
        size_t len;
    } cases[] = {
        {"\x91\x81\xa5" "frame", 8},                 /* cut short */
        {"\x90\x01", 2},                              /* bytes after the value */
        {"\x91\x81\x01\x02", 4},                      /* an int key */
        {"\x91\x81\xa2\xff\xfe\x01", 6},              /* a key that is not UTF-8 */
        {"\xc1", 1},                                  /* no type has this byte */
        {"\x91\x81\x91\x01\x02", 5},                  /* a list as a key */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = tu_join(dir, "proton.hatchet_msgpack");
        FILE *out = fopen(path, "wb");
        fwrite(cases[i].bytes, 1, cases[i].len, out);
        fclose(out);
        free(path);
        /* Beside a trace of the same session: never read (the msgpack form
         * was there), and the msgpack file adds nothing. */
        write_text("proton.chrome_trace",
                   "{\"traceEvents\":[" EVENT("k", "kernel", "X", "2") "]}");
        aorta_metrics_t *metrics = parse_at(dir);
        ck_assert_msg(!aorta_metrics_find(metrics, "proton_kernel_count"), "case %zu", i);
        aorta_metrics_free(metrics);
    }
#endif
}
END_TEST

/* ---- periodic flushing's phases ------------------------------------------ */

START_TEST(phases_sum_to_the_session_s_tree)
{
    aorta_metrics_t *tree = parse_fixture("h200_model_shadow/tree");
    aorta_metrics_t *phases = parse_fixture("generated/phases");
    ck_assert_int_eq(launches(phases), launches(tree));
    ck_assert(fabs(gpu_ms(phases) - gpu_ms(tree)) <= 1e-12 * gpu_ms(tree));
    same_table(phases, tree, 1e-12);
    ck_assert_uint_eq(warning_lines(), 0);
    aorta_metrics_free(phases);
    aorta_metrics_free(tree);
}
END_TEST

/* The launches of the fixture files rel..., read on their own. */
static int64_t launches_of(const char *first, ...)
{
    char *saved = dir;
    dir = tu_tmpdir();
    va_list args;
    va_start(args, first);
    for (const char *rel = first; rel; rel = va_arg(args, const char *)) {
        const char *base = strrchr(rel, '/') + 1;
        copy_in(rel, base);
    }
    va_end(args);
    aorta_metrics_t *metrics = parse_at(dir);
    int64_t n = launches(metrics);
    aorta_metrics_free(metrics);
    tu_rmtree(dir);
    free(dir);
    dir = saved;
    free(warnings.data); /* its own phases' warnings are not the test's */
    warnings = (tu_text_t){0};
    return n;
}

START_TEST(a_missing_phase_is_named_and_the_others_count)
{
    int64_t zero = launches_of("generated/phases/proton.part_0.hatchet", NULL);
    int64_t two = launches_of("generated/phases/proton.part_2.hatchet", NULL);
    copy_in("generated/phases/proton.part_0.hatchet", "proton.part_0.hatchet");
    copy_in("generated/phases/proton.part_2.hatchet", "proton.part_2.hatchet");
    /* Another rank's session, whole. */
    copy_in("generated/phases/proton.part_0.hatchet", "rank1/proton.part_0.hatchet");
    aorta_metrics_t *metrics = parse_at(dir);
    ck_assert_uint_eq(warning_lines(), 1);
    char *want = tu_join(dir, "proton: phase(s) 1 missing (no ");
    ck_assert_msg(warned(want), "%s", warnings.data ? warnings.data : "");
    free(want);
    ck_assert_int_eq(launches(metrics), 2 * zero + two);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(an_unreadable_phase_is_named_and_left_out)
{
    copy_in("generated/phases/proton.part_0.hatchet", "proton.part_0.hatchet");
    write_text("proton.part_1.hatchet", "[{\"frame\": 'not json'}]");
    copy_in("generated/phases/proton.part_2.hatchet", "proton.part_2.hatchet");
    aorta_metrics_t *metrics = parse_at(dir);
    ck_assert_uint_eq(warning_lines(), 1);
    ck_assert(warned("proton.part_1.hatchet: not a readable profile; phase 1 of "));
    ck_assert_int_eq(launches(metrics),
                     launches_of("generated/phases/proton.part_0.hatchet",
                                 "generated/phases/proton.part_2.hatchet", NULL));
    aorta_metrics_free(metrics);
}
END_TEST

/* A capture rejected whole is named once (it was left out silently), and a
 * sparse one (all zeros on read, nothing on disk) is refused in its first
 * bytes: it was read to its end, 2 GB of memory and 12 s for 20 GiB. */
START_TEST(a_sparse_or_junk_capture_is_refused_at_once_with_one_warning)
{
    char *path = tu_join(dir, "proton.hatchet");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)16 << 30), 0); /* 16 GiB, none of it on disk */
    close(fd);
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    aorta_metrics_t *metrics = parse_at(dir);
    getrusage(RUSAGE_SELF, &after);
    ck_assert_msg(after.ru_maxrss - before.ru_maxrss < 64 << 10, "%ld KiB more",
                  after.ru_maxrss - before.ru_maxrss); /* it was the whole file */
    ck_assert_uint_eq(warning_lines(), 1);
    ck_assert_msg(warned("proton.hatchet: not a readable profile; it is left out of the totals"),
                  "%s", warnings.data ? warnings.data : "");
    ck_assert_ptr_null(aorta_metrics_find(metrics, "proton_kernel_count"));
    aorta_metrics_free(metrics);
    write_text("proton.hatchet", "{\"frame\": \xff junk");
    metrics = parse_at(dir);
    ck_assert_uint_eq(warning_lines(), 2);
    aorta_metrics_free(metrics);
    free(path);
}
END_TEST

/* ---- one session, several forms ------------------------------------------ */

START_TEST(a_session_in_several_forms_counts_once)
{
    /* The tree, its msgpack form and a trace of the same launches under
     * one name: the tree's totals, once. */
    copy_in("h200_model_shadow/tree/model.hatchet", "a/proton.hatchet");
    copy_in("generated/msgpack/proton.hatchet_msgpack", "a/proton.hatchet_msgpack");
    copy_in("h200_model_shadow/trace/model_trace.chrome_trace", "a/proton.chrome_trace");
    /* The msgpack form and the trace: msgpack's (the trace without msgpack-c). */
    copy_in("generated/msgpack/proton.hatchet_msgpack", "b/proton.hatchet_msgpack");
    copy_in("h200_model_shadow/trace/model_trace.chrome_trace", "b/proton.chrome_trace");
    /* The trace alone. */
    copy_in("h200_model_shadow/trace/model_trace.chrome_trace", "c/proton.chrome_trace");
    aorta_metrics_t *tree = parse_fixture("h200_model_shadow/tree");
    const char *const sub[] = {"a", "b", "c"};
    for (size_t i = 0; i < 3; i++) {
        char *where = tu_join(dir, sub[i]);
        aorta_metrics_t *metrics = parse_at(where);
        ck_assert_int_eq(launches(metrics), launches(tree));
        same_table(metrics, tree, i == 0 ? 0 : 1e-12);
        aorta_metrics_free(metrics);
        free(where);
    }
    /* All three at once: three sessions (one per directory). */
    aorta_metrics_t *all = parse_at(dir);
    ck_assert_int_eq(launches(all), 3 * launches(tree));
    aorta_metrics_free(all);
    aorta_metrics_free(tree);
    ck_assert_uint_eq(warning_lines(), HAVE_MSGPACK ? 0 : 2);
}
END_TEST

START_TEST(parts_beside_a_whole_file_are_named_and_left_out)
{
    copy_in("h200_model_shadow/tree/model.hatchet", "proton.hatchet");
    copy_in("generated/phases/proton.part_0.hatchet", "proton.part_0.hatchet");
    aorta_metrics_t *metrics = parse_at(dir);
    ck_assert_int_eq(launches(metrics), 96);
    ck_assert_uint_eq(warning_lines(), 1);
    ck_assert(warned(".hatchet and 1 of its .part_<N>.hatchet phases: the phases are left out"));
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(the_describe_text_names_the_files_read)
{
    const struct aorta_collector *collector = pt_collector();
    const aorta_option_spec_t *data = NULL;
    for (const aorta_option_spec_t *spec = collector->options; spec->key; spec++)
        if (strcmp(spec->key, "data") == 0)
            data = spec;
    ck_assert_ptr_nonnull(data);
    const char *files[] = {".hatchet", ".part_<N>.hatchet", ".hatchet_msgpack", ".chrome_trace"};
    for (size_t i = 0; i < 4; i++)
        ck_assert_msg(strstr(data->help, files[i]) != NULL, "%s", files[i]);
}
END_TEST

static Suite *proton_formats_suite(void)
{
    Suite *suite = suite_create("proton_formats");
    TCase *tc = tcase_create("formats");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_trace_and_a_tree_of_one_payload_agree);
    tcase_add_test(tc, the_trace_of_a_data_trace_run_gives_its_launches);
    tcase_add_test(tc, the_trace_s_launches_are_dispatches);
    tcase_add_test(tc, the_later_trace_layout_gives_the_same_launches);
    tcase_add_test(tc, only_complete_kernel_events_are_launches);
    tcase_add_test(tc, a_trace_one_pass_cannot_read_is_refused_with_a_warning);
    tcase_add_test(tc, hatchet_msgpack_reads_as_its_tree);
    tcase_add_test(tc, hatchet_msgpack_phases_sum_to_the_tree);
    tcase_add_test(tc, what_python_s_msgpack_refuses_is_no_profile);
    tcase_add_test(tc, phases_sum_to_the_session_s_tree);
    tcase_add_test(tc, a_missing_phase_is_named_and_the_others_count);
    tcase_add_test(tc, an_unreadable_phase_is_named_and_left_out);
    tcase_add_test(tc, a_sparse_or_junk_capture_is_refused_at_once_with_one_warning);
    tcase_add_test(tc, a_session_in_several_forms_counts_once);
    tcase_add_test(tc, parts_beside_a_whole_file_are_named_and_left_out);
    tcase_add_test(tc, the_describe_text_names_the_files_read);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(proton_formats_suite)
