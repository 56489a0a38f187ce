/* SPDX-License-Identifier: MIT */
/* The rocprof parse on hostile input and at scale: random and mutated CSV
 * bytes never crash it and always give a well-formed result (docs/design.md,
 * Reliability); its memory does not grow with the number of rows (only with the
 * number of distinct kernels).  Sizes stay small enough for ASan/valgrind;
 * AORTA_FUZZ_SEED and AORTA_FUZZ_ITERATIONS change the run. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rptest.h"

static char *dir;

static void setup(void)
{
    dir = tu_tmpdir();
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
}

/* xorshift64*: reproducible from the seed on every platform. */
static uint64_t state;

static uint64_t next_random(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dULL;
}

static size_t below(size_t n)
{
    return n ? (size_t)(next_random() % n) : 0;
}

static long env_number(const char *name, long fallback)
{
    const char *text = getenv(name);
    return text && *text ? strtol(text, NULL, 10) : fallback;
}

typedef struct bytes {
    char *data;
    size_t len;
} bytes_t;

static const char *const templates[] = {
    "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\"\n"
    "\"sgemm_tiled(float const*, float const*, float*, int)\",23,539404,23452.347826,100.00,22560,36320,2813.800546\n"
    "\"void f<\"x\">(int)\",2,1000,500.000000,0.18,400,600,1.000000e+02\n",
    "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\",\"Kernel_Id\","
    "\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\",\"LDS_Block_Size\"\n"
    "\"KERNEL_DISPATCH\",\"Agent 2\",1,0,4170503,1,11,\"sgemm_tiled(float const*, float const*, float*, int)\",1,1434937317843317,1434937317879637,2048\n"
    "\"KERNEL_DISPATCH\",\"Agent 2\",1,0,4170503,2,11,\"a, \"\"b\"\"\nc\",2,1434937317879637,1434937317902677,2048\n"
    "\"MEMORY_COPY\",\"Agent 2\",1,0,4170503,3,11,\"copy\",3,1,2,0\n",
    "Name,Calls,TotalDurationNs\r\nk,1,100\r\n\r\nj,\"2\",\"1e3\"\r\n",
    "Kernel_Name,Start_Timestamp,End_Timestamp\nk,10,20\nk,20,10\n,1,2\n",
};

static const char *const noise[] = {"\"", ",", "\n", "\r", "\r\n", "\"\"", " ", "\t",
                                    "\xff", "\xc3", "\xe2\x80", "\xef\xbb\xbf", "1e308",
                                    "-0", "nan", "KERNEL_DISPATCH", "Name", "\xc2\xa0"};

static void insert(bytes_t *b, size_t at, const char *data, size_t len)
{
    b->data = realloc(b->data, b->len + len + 1);
    memmove(b->data + at + len, b->data + at, b->len - at);
    memcpy(b->data + at, data, len);
    b->len += len;
}

static void mutate(bytes_t *b)
{
    size_t at = below(b->len + 1);
    switch (below(6)) {
    case 0: /* flip a byte */
        if (b->len)
            b->data[below(b->len)] ^= (char)(1u << below(8));
        break;
    case 1: { /* insert something CSV cares about */
        const char *piece = noise[below(sizeof noise / sizeof noise[0])];
        insert(b, at, piece, strlen(piece));
        break;
    }
    case 2: { /* a NUL or a random byte */
        char c = below(2) ? '\0' : (char)below(256);
        insert(b, at, &c, 1);
        break;
    }
    case 3: /* delete a range */
        if (at < b->len) {
            size_t n = below(b->len - at) + 1;
            memmove(b->data + at, b->data + at + n, b->len - at - n);
            b->len -= n;
        }
        break;
    case 4: /* duplicate a range */
        if (at < b->len) {
            size_t n = below(b->len - at < 64 ? b->len - at : 64) + 1;
            char *copy = malloc(n);
            memcpy(copy, b->data + at, n);
            insert(b, at, copy, n);
            free(copy);
        }
        break;
    default: /* truncate */
        b->len = at;
        break;
    }
}

static bytes_t random_input(void)
{
    bytes_t b = {NULL, 0};
    if (below(8) == 0) { /* bytes from an alphabet CSV cares about */
        size_t n = below(600);
        b.data = malloc(n + 1);
        static const char alphabet[] = "\",\r\n k9.e-+_\xff\xc3\xa9\0";
        for (size_t i = 0; i < n; i++)
            b.data[i] = alphabet[below(sizeof alphabet)];
        b.len = n;
        return b;
    }
    const char *base = templates[below(sizeof templates / sizeof templates[0])];
    b.len = strlen(base);
    b.data = malloc(b.len + 1);
    memcpy(b.data, base, b.len);
    for (size_t i = below(6); i > 0; i--)
        mutate(&b);
    return b;
}

static void check_well_formed(const aorta_metrics_t *m)
{
    static const char *const order[] = {"rocprof_artifact_dir", "rocprof_kernel_count",
                                        "rocprof_gpu_time_ms", "rocprof_top_kernel_ms",
                                        "rocprof_top_kernels"};
    ck_assert_str_eq(rp_string(m, "rocprof_artifact_dir"), dir);
    size_t k = 0;
    for (size_t i = 0; i < aorta_metrics_count(m); i++) {
        while (k < 5 && strcmp(order[k], aorta_metrics_at(m, i)->key) != 0)
            k++;
        ck_assert_msg(k < 5, "unexpected or misplaced key %s", aorta_metrics_at(m, i)->key);
    }
    if (!rp_has(m, "rocprof_gpu_time_ms")) {
        ck_assert_uint_eq(aorta_metrics_count(m), 1);
        return;
    }
    double gpu = rp_double(m, "rocprof_gpu_time_ms"), top = rp_double(m, "rocprof_top_kernel_ms");
    ck_assert(isfinite(gpu) && isfinite(top) && top >= 0 && gpu >= 0);
    ck_assert(top <= gpu * (1 + 1e-12) + 1e-300);
    const aorta_metric_t *names = rp_strings(m, "rocprof_top_kernels");
    ck_assert(names->string_count >= 1 && names->string_count <= 5);
    if (rp_has(m, "rocprof_kernel_count"))
        ck_assert_int_ge(rp_int(m, "rocprof_kernel_count"), 0);
}

START_TEST(random_and_mutated_csv)
{
    state = (uint64_t)env_number("AORTA_FUZZ_SEED", 20240601) | 1;
    long iterations = env_number("AORTA_FUZZ_ITERATIONS", 1500);
    static const char *const names[] = {"aorta_kernel_stats.csv", "aorta_kernel_trace.csv",
                                        "h/1_kernel_stats.csv", "h/1_kernel_trace.csv"};
    for (long i = 0; i < iterations; i++) {
        size_t files = below(3) + 1;
        for (size_t f = 0; f < files; f++) {
            bytes_t b = random_input();
            rp_write_bytes(dir, names[below(4)], b.data ? b.data : "", b.len);
            free(b.data);
        }
        aorta_metrics_t *first = rp_parse(dir);
        check_well_formed(first);
        aorta_metrics_t *again = rp_parse(dir); /* deterministic */
        ck_assert_uint_eq(aorta_metrics_count(again), aorta_metrics_count(first));
        for (size_t k = 0; k < aorta_metrics_count(first); k++)
            ck_assert_str_eq(aorta_metrics_at(again, k)->key, aorta_metrics_at(first, k)->key);
        aorta_metrics_free(again);
        aorta_metrics_free(first);
        for (size_t f = 0; f < 4; f++) {
            char *path = tu_join(dir, names[f]);
            unlink(path);
            free(path);
        }
    }
}
END_TEST

/* A kernel trace of rows dispatches over four kernels, written streaming. */
static char *write_trace(const char *name, long rows)
{
    char *path = tu_join(dir, name);
    FILE *out = fopen(path, "w");
    ck_assert_ptr_nonnull(out);
    fputs("\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\","
          "\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\","
          "\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\","
          "\"Workgroup_Size_X\",\"Workgroup_Size_Y\",\"Workgroup_Size_Z\",\"Grid_Size_X\","
          "\"Grid_Size_Y\",\"Grid_Size_Z\"\n", out);
    for (long i = 0; i < rows; i++)
        fprintf(out, "\"KERNEL_DISPATCH\",\"Agent 2\",1,0,4170503,%ld,11,\"void at::native::"
                     "vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                     "at::detail::Array<char*, 3> >(int, kernel%ld)\",%ld,%ld,%ld,2048,0,20,0,"
                     "32,256,1,1,1024,1,1\n",
                i, i % 4, i, 1434937317843317 + i * 3000, 1434937317843317 + i * 3000 + 2000);
    fclose(out);
    return path;
}

/* Peak RSS (kB) of a child that parses the directory holding only file. */
static long parse_peak_rss(const char *file, long rows)
{
    char *sub = tu_join(dir, "capture");
    mkdir(sub, 0755);
    char *target = tu_join(sub, "aorta_kernel_trace.csv");
    ck_assert_int_eq(rename(file, target), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        aorta_metrics_t *m = rp_parse(sub);
        int ok = rp_has(m, "rocprof_kernel_count") && rp_int(m, "rocprof_kernel_count") == rows;
        aorta_metrics_free(m);
        free(target);
        free(sub);
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    struct rusage usage;
    ck_assert_int_eq(wait4(pid, &status, 0, &usage), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child's parse was wrong");
    ck_assert_int_eq(rename(target, file), 0);
    free(target);
    free(sub);
    return usage.ru_maxrss;
}

START_TEST(memory_does_not_grow_with_rows)
{
    /* ~2.3 MB and ~23 MB; keeping the file would cost the difference,
     * 20 MB.  The one thing kept per row is the timeline's dispatch, 24
     * bytes, and its copy in the sink (bounded by AORTA_DISPATCHES_MAX). */
    char *small = write_trace("small.csv", 10000);
    char *large = write_trace("large.csv", 100000);
    long small_rss = parse_peak_rss(small, 10000);
    long large_rss = parse_peak_rss(large, 100000);
    long dispatches_kb = 90000L * 2 * 24 / 1024;
#if defined(__SANITIZE_ADDRESS__)
    /* AddressSanitizer keeps freed blocks in quarantine: each array the
     * dispatches outgrew stays resident, about three times their size. */
    dispatches_kb *= 4;
#endif
    ck_assert_msg(large_rss - small_rss < 2048 + dispatches_kb,
                  "peak RSS %ld kB for 10x the rows, %ld kB before", large_rss, small_rss);
    free(large);
    free(small);
}
END_TEST

static Suite *robust_suite(void)
{
    Suite *suite = suite_create("rocprof_robust");
    TCase *tc = tcase_create("robust");
    tcase_add_unchecked_fixture(tc, rp_setup, rp_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, random_and_mutated_csv);
    tcase_add_test(tc, memory_does_not_grow_with_rows);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(robust_suite)
