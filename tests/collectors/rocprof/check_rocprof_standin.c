/* SPDX-License-Identifier: MIT */
/* The stand-in rocprofv3 (examples/no-gpu/rocm/rocprofv3): it takes the argv the
 * collector builds and the real tool's other shapes, refuses malformed ones
 * with the real exit statuses and messages, runs the command with exec
 * semantics, and writes real-format files where rocprofv3 writes them --
 * nothing at all without GPU work.  Its output parses to the metrics its
 * AORTA_FAKE_KERNELS describe. */
#include "config.h"

#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rptest.h"
#include "sweeptest.h"

static char *dir;
static char *standin;

#define KERNELS "AORTA_FAKE_KERNELS=3:1000:sgemm(float const*, int)\n2:4000:void f<\"x\">(int)"

static void setup(void)
{
    dir = tu_tmpdir();
    standin = tu_srcdir("examples/no-gpu/rocm/rocprofv3");
    ck_assert_int_eq(chdir(dir), 0);
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
    free(standin);
}

/* Run the stand-in with args (NULL-terminated) and env changes; returns the
 * status, with stdout and stderr when out and err are given. */
static int run_standin(const char *const *args, char *const *env, char **out, char **err)
{
    size_t n = 0;
    while (args[n])
        n++;
    char **argv = calloc(n + 2, sizeof *argv);
    argv[0] = standin;
    for (size_t i = 0; i < n; i++)
        argv[i + 1] = (char *)args[i];
    char *o = NULL, *e = NULL;
    int status = tu_run(argv, env, &o, &e);
    free(argv);
    if (out)
        *out = o;
    else
        free(o);
    if (err)
        *err = e;
    else
        free(e);
    return status;
}

static void expect_failure(const char *const *args, int status, const char *needle)
{
    char *err = NULL;
    ck_assert_int_eq(run_standin(args, NULL, NULL, &err), status);
    ck_assert_msg(strstr(err, needle) != NULL, "no '%s' in:\n%s", needle, err);
    free(err);
}

static int count_entries(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL)
        n += entry->d_name[0] != '.';
    closedir(d);
    return n;
}

START_TEST(the_collectors_argv_is_accepted)
{
    /* what wrap() builds, with ROCPROF_BIN naming the stand-in */
    aorta_options_t *options = rp_options("trace", "kernel,hip", "summary_units", "msec",
                                          "kernel_include_regex", "sgemm", "pmc", "SQ_WAVES",
                                          NULL);
    ck_assert_int_eq(rp_validate(options, NULL), 0);
    aorta_env_t *env = aorta_env_new();
    aorta_env_set(env, "ROCPROF_BIN", standin);
    char *out_dir = tu_join(dir, "rocprof");
    char *cmd_items[] = {"sh", "-c", "exit 3", NULL};
    aorta_argv_t *cmd = aorta_argv_from(cmd_items, 3);
    aorta_argv_t *argv = aorta_argv_new();
    aorta_error_t *err = aorta_error_new();
    ck_assert_int_eq(rp_collector()->wrap(options, out_dir, cmd, env, argv, err), 0);
    char *run_env[] = {KERNELS, NULL};
    ck_assert_int_eq(tu_run((char *const *)aorta_argv_items(argv), run_env, NULL, NULL), 3);

    const char *files[] = {"aorta_kernel_trace.csv", "aorta_kernel_stats.csv",
                           "aorta_domain_stats.csv", "aorta_agent_info.csv",
                           "aorta_rocprof_summary.txt"};
    ck_assert_int_eq(count_entries(out_dir), 5);
    for (size_t i = 0; i < 5; i++) {
        char *path = tu_join(out_dir, files[i]);
        ck_assert_msg(tu_exists(path), "%s missing", files[i]);
        free(path);
    }
    aorta_metrics_t *m = rp_parse(out_dir);
    ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 5);
    RP_APPROX(rp_double(m, "rocprof_gpu_time_ms"), 0.011);
    RP_APPROX(rp_double(m, "rocprof_top_kernel_ms"), 0.008);
    const aorta_metric_t *top = rp_strings(m, "rocprof_top_kernels");
    ck_assert_uint_eq(top->string_count, 2);
    ck_assert_str_eq(top->strings[0], "void f<x\">(int)\""); /* unescaped quotes, as Python reads them */
    ck_assert_str_eq(top->strings[1], "sgemm(float const*, int)");
    aorta_metrics_free(m);

    aorta_error_free(err);
    aorta_argv_free(argv);
    aorta_argv_free(cmd);
    free(out_dir);
    aorta_env_free(env);
    aorta_options_free(options);
}
END_TEST

START_TEST(real_format_files)
{
    const char *args[] = {"-d", "out", "-o", "run", "--output-format", "CSV", "--kernel-trace",
                          "--stats", "--", "true", NULL};
    char *env[] = {KERNELS, NULL};
    ck_assert_int_eq(run_standin(args, env, NULL, NULL), 0);
    char *stats = tu_read("out/run_kernel_stats.csv");
    ck_assert_str_eq(stats,
                     "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\","
                     "\"MinNs\",\"MaxNs\",\"StdDev\"\n"
                     "\"void f<\"x\">(int)\",2,8000,4000.000000,72.73,4000,4000,0.00000000e+00\n"
                     "\"sgemm(float const*, int)\",3,3000,1000.000000,27.27,1000,1000,"
                     "0.00000000e+00\n");
    char *trace = tu_read("out/run_kernel_trace.csv");
    ck_assert_ptr_nonnull(strstr(trace, "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\","));
    ck_assert_ptr_nonnull(strstr(trace, "\n\"KERNEL_DISPATCH\",\"Agent 2\",1,0,"));
    ck_assert_ptr_null(strchr(trace, '\r'));
    ck_assert_int_eq(count_entries("out"), 4); /* no summary without -S */
    free(trace);
    free(stats);
}
END_TEST

START_TEST(without_o_files_nest_under_host_and_pid)
{
    const char *args[] = {"-d", "out", "-f", "csv", "--kernel-trace", "--", "true", NULL};
    char *env[] = {KERNELS, NULL};
    ck_assert_int_eq(run_standin(args, env, NULL, NULL), 0);
    char host[256];
    ck_assert_int_eq(gethostname(host, sizeof host), 0);
    char *nested = tu_join("out", host);
    ck_assert_int_eq(count_entries(nested), 2); /* <pid>_kernel_trace.csv, <pid>_agent_info.csv */
    DIR *d = opendir(nested);
    struct dirent *entry;
    int traces = 0;
    while ((entry = readdir(d)) != NULL) {
        char *end = NULL;
        long pid = strtol(entry->d_name, &end, 10);
        if (pid > 0 && strcmp(end, "_kernel_trace.csv") == 0)
            traces++;
    }
    closedir(d);
    ck_assert_int_eq(traces, 1);
    aorta_metrics_t *m = rp_parse("out"); /* the walk finds the nested trace */
    ck_assert_int_eq(rp_int(m, "rocprof_kernel_count"), 5);
    aorta_metrics_free(m);
    free(nested);
}
END_TEST

/* %rank% as the real rocprofv3 expands it: SLURM_PROCID first, then the MPI
 * variables, never torchrun's RANK (why aorta-rank-exec names rank folders
 * itself); %pid%, %ppid% and %hostname% in -d and -o. */
START_TEST(rank_pid_and_hostname_keys_expand_as_the_real_tool)
{
    const char *args[] = {"-d", "d_%rank%_%hostname%", "-o", "p%pid%_%ppid%", "-f", "csv",
                          "--kernel-trace", "--", "true", NULL};
    char *slurm[] = {KERNELS, "SLURM_PROCID=3", "OMPI_COMM_WORLD_RANK=1", "RANK=7", NULL};
    ck_assert_int_eq(run_standin(args, slurm, NULL, NULL), 0);
    char host[256];
    ck_assert_int_eq(gethostname(host, sizeof host), 0);
    char *d3 = tu_fmt("d_3_%s", host);
    ck_assert_int_eq(count_entries(d3), 2);
    DIR *d = opendir(d3);
    struct dirent *entry;
    int named = 0;
    char *ppid = tu_fmt("_%ld_kernel_trace.csv", (long)getpid());
    while ((entry = readdir(d)) != NULL) {
        char *end = NULL;
        long pid = entry->d_name[0] == 'p' ? strtol(entry->d_name + 1, &end, 10) : 0;
        named += pid > 0 && strcmp(end, ppid) == 0;
    }
    closedir(d);
    ck_assert_int_eq(named, 1);
    char *mpi[] = {KERNELS, "SLURM_PROCID", "OMPI_COMM_WORLD_RANK=1", "RANK=7", NULL};
    ck_assert_int_eq(run_standin(args, mpi, NULL, NULL), 0);
    char *d1 = tu_fmt("d_1_%s", host);
    ck_assert_int_eq(count_entries(d1), 2);
    char *torchrun[] = {KERNELS, "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "RANK=7",
                        NULL};
    ck_assert_int_eq(run_standin(args, torchrun, NULL, NULL), 0);
    char *d0 = tu_fmt("d_0_%s", host);
    ck_assert_int_eq(count_entries(d0), 2); /* RANK=7 is not read: rank 0 */
    free(d0);
    free(d1);
    free(d3);
    free(ppid);
}
END_TEST

START_TEST(no_gpu_work_writes_nothing)
{
    const char *args[] = {"-d", "out", "-o", "aorta", "--output-format", "csv", "--kernel-trace",
                          "--stats", "-S", "--summary-output-file", "rocprof_summary", "--",
                          "true", NULL};
    char *unset[] = {"AORTA_FAKE_KERNELS", NULL};
    ck_assert_int_eq(run_standin(args, unset, NULL, NULL), 0);
    ck_assert(!tu_exists("out"));
    /* GPU work, but no kernel tracing: nothing this stand-in models */
    const char *hip[] = {"-d", "out", "-o", "aorta", "-f", "csv", "--hip-trace", "--", "true", NULL};
    char *env[] = {KERNELS, NULL};
    ck_assert_int_eq(run_standin(hip, env, NULL, NULL), 0);
    ck_assert(!tu_exists("out"));
}
END_TEST

START_TEST(summary_file_or_stderr)
{
    const char *to_file[] = {"-d", "out", "-o", "aorta", "-f", "csv", "--kernel-trace", "-S",
                             "--summary-output-file", "rocprof_summary", "-u", "msec", "--",
                             "true", NULL};
    char *env[] = {KERNELS, NULL};
    ck_assert_int_eq(run_standin(to_file, env, NULL, NULL), 0);
    char *summary = tu_read("out/aorta_rocprof_summary.txt");
    ck_assert_ptr_nonnull(summary);
    ck_assert_ptr_nonnull(strstr(summary, "ROCPROFV3 SUMMARY"));
    ck_assert_ptr_nonnull(strstr(summary, "DURATION (msec)"));
    free(summary);
    const char *to_stderr[] = {"-d", "out2", "-o", "aorta", "-f", "csv", "--kernel-trace", "-S",
                               "--", "true", NULL};
    char *err = NULL;
    ck_assert_int_eq(run_standin(to_stderr, env, NULL, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "ROCPROFV3 SUMMARY"));
    ck_assert_int_eq(count_entries("out2"), 2);
    free(err);
}
END_TEST

START_TEST(default_format_is_rocpd)
{
    const char *args[] = {"-d", "out", "-o", "aorta", "--kernel-trace", "--stats", "--", "true",
                          NULL};
    char *env[] = {KERNELS, NULL};
    ck_assert_int_eq(run_standin(args, env, NULL, NULL), 0);
    ck_assert(tu_exists("out/aorta_results.db"));
    ck_assert_int_eq(count_entries("out"), 1);
}
END_TEST

START_TEST(malformed_argv_fails_like_rocprofv3)
{
    const char *bogus[] = {"--bogus", "--", "true", NULL};
    expect_failure(bogus, 2, "rocprofv3: error: unrecognized arguments: --bogus");
    const char *abbreviated[] = {"--kernel", "--", "true", NULL};
    expect_failure(abbreviated, 2, "unrecognized arguments: --kernel");
    const char *value_no_dashes[] = {"--kernel-trace", "-d", "out", "./app", NULL};
    expect_failure(value_no_dashes, 2, "unrecognized arguments: ./app");
    const char *bool_swallows[] = {"--kernel-trace", "./app", NULL};
    expect_failure(bool_swallows, 1, "ValueError: invalid truth value ./app");
    const char *pmc_swallows[] = {"--kernel-trace", "--pmc", "SQ_WAVES", "./app", NULL};
    expect_failure(pmc_swallows, 1, "Fatal error: No application provided");
    const char *no_app[] = {"--kernel-trace", "--", NULL};
    expect_failure(no_app, 1, "Fatal error: No application provided");
    const char *no_tracing[] = {"--stats", "--", "true", NULL};
    expect_failure(no_tracing, 1, "Warning: No tracing options were enabled.\n"
                                  "Fatal error: No tracing options were enabled for --stats option.");
    const char *units_alone[] = {"-u", "msec", "--", "true", NULL};
    expect_failure(units_alone, 1, "No tracing options were enabled for --summary-units option.");
    const char *two_formats[] = {"--kernel-trace", "-f", "csv,json", "--", "true", NULL};
    expect_failure(two_formats, 2, "invalid choice: 'csv,json'");
    const char *upper_units[] = {"--kernel-trace", "-u", "MSEC", "--", "true", NULL};
    expect_failure(upper_units, 2, "invalid choice: 'MSEC'");
    const char *empty_format[] = {"--kernel-trace", "-f", "--", "true", NULL};
    expect_failure(empty_format, 2, "expected at least one argument");
    const char *d_no_value[] = {"--kernel-trace", "-d", "--", "true", NULL};
    expect_failure(d_no_value, 2, "expected one argument");
    const char *bad_bool[] = {"--kernel-trace=maybe", "--", "true", NULL};
    expect_failure(bad_bool, 1, "invalid truth value maybe");
}
END_TEST

START_TEST(other_real_shapes_accepted)
{
    char *env[] = {KERNELS, NULL};
    const char *shapes[][16] = {
        {"--kernel-trace=yes", "--stats", "no", "-f", "csv", "json", "-d", "a", "-o", "x", "--", "true"},
        {"-s", "--hsa-trace=false", "-f", "CSV", "-d", "b", "-o", "x", "--", "true"},
        {"--kernel-trace", "--pmc", "A", "B", "--kernel-include-regex", "k", "-d", "c", "-o", "x", "-f", "csv", "--", "true"},
        {"-r", "-T", "-M", "no", "--output-config", "-d", "d", "-o", "x", "-f", "csv", "--", "true"},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char *err = NULL;
        int status = run_standin(shapes[i], env, NULL, &err);
        ck_assert_msg(status == 0, "shape %zu: %d\n%s", i, status, err);
        free(err);
    }
    ck_assert(tu_exists("a/x_kernel_trace.csv") && tu_exists("a/x_results.json"));
    ck_assert(!tu_exists("a/x_kernel_stats.csv")); /* --stats no */
    ck_assert(tu_exists("b/x_kernel_trace.csv"));  /* -s implies kernel tracing */
    ck_assert(tu_exists("c/x_kernel_trace.csv"));
    ck_assert(tu_exists("d/x_config.json") && tu_exists("d/x_kernel_trace.csv"));
    const char *version[] = {"-v", NULL};
    char *out = NULL;
    ck_assert_int_eq(run_standin(version, NULL, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "version"));
    free(out);
}
END_TEST

START_TEST(exec_semantics)
{
    char *env[] = {KERNELS, NULL};
    const char *missing[] = {"--kernel-trace", "-d", "out", "--", "aorta-no-such-program", NULL};
    char *err = NULL;
    ck_assert_int_eq(run_standin(missing, env, NULL, &err), 1);
    ck_assert_ptr_nonnull(strstr(err, "FileNotFoundError"));
    ck_assert(!tu_exists("out"));
    free(err);
    const char *status[] = {"--kernel-trace", "--", "sh", "-c", "exit 7", NULL};
    ck_assert_int_eq(run_standin(status, NULL, NULL, NULL), 7);
    /* SIGTERM: the tool flushes its files, then dies of the signal */
    const char *term[] = {"-d", "t", "-o", "x", "-f", "csv", "--kernel-trace", "--", "sh", "-c",
                          "kill -TERM $$", NULL};
    ck_assert_int_eq(run_standin(term, env, NULL, NULL), 128 + 15);
    ck_assert(tu_exists("t/x_kernel_trace.csv"));
    /* SIGSEGV: no flush */
    const char *segv[] = {"-d", "s", "-o", "x", "-f", "csv", "--kernel-trace", "--", "sh", "-c",
                          "kill -SEGV $$", NULL};
    ck_assert_int_eq(run_standin(segv, env, NULL, NULL), 128 + 11);
    ck_assert(!tu_exists("s"));
    /* the application sees its own arguments, a later "--" included */
    const char *args[] = {"--kernel-trace", "--", "sh", "-c", "test \"$1\" = -- && exit 5", "sh",
                          "--", NULL};
    ck_assert_int_eq(run_standin(args, NULL, NULL, NULL), 5);
}
END_TEST

/* The durations (End - Start) of the trace rows of path, in order. */
static size_t trace_durations(const char *path, long long *out, size_t max)
{
    char *text = tu_read(path);
    ck_assert_ptr_nonnull(text);
    size_t n = 0;
    for (char *line = strchr(text, '\n'); line && line[1] && n < max; line = strchr(line + 1, '\n')) {
        /* ...,"NAME",CORRELATION,START,END,... : fields 10 and 11 (1-based) */
        char *field = line + 1;
        long long values[22];
        size_t k = 0;
        for (char *at = field; k < 22 && *at && *at != '\n'; k++) {
            values[k] = strtoll(at, NULL, 10);
            at = strchr(at, ',');
            if (!at)
                break;
            at++;
        }
        out[n++] = values[10] - values[9];
    }
    free(text);
    return n;
}

START_TEST(noise_is_seeded_by_the_seed_and_the_place)
{
    /* examples/no-gpu/README.md: ~PCT gives each kernel of a capture a
     * factor and each dispatch a jitter, the same for the same seed and
     * place (outside a run's layout, the last five components of -d),
     * others elsewhere */
    char *env[] = {"AORTA_FAKE_KERNELS=40:100000~5:k", NULL};
    const char *a[] = {"-d", "run/t0", "-o", "aorta", "-f", "csv", "--kernel-trace", "--", "true", NULL};
    const char *b[] = {"-d", "run/t1", "-o", "aorta", "-f", "csv", "--kernel-trace", "--", "true", NULL};
    long long first[40], again[40], other[40], seeded[40];
    ck_assert_int_eq(run_standin(a, env, NULL, NULL), 0);
    ck_assert_uint_eq(trace_durations("run/t0/aorta_kernel_trace.csv", first, 40), 40);
    tu_rmtree("run");
    ck_assert_int_eq(run_standin(a, env, NULL, NULL), 0);
    ck_assert_uint_eq(trace_durations("run/t0/aorta_kernel_trace.csv", again, 40), 40);
    ck_assert_int_eq(run_standin(b, env, NULL, NULL), 0);
    ck_assert_uint_eq(trace_durations("run/t1/aorta_kernel_trace.csv", other, 40), 40);
    char *reseed[] = {"AORTA_FAKE_KERNELS=40:100000~5:k", "AORTA_FAKE_SEED=3", NULL};
    tu_rmtree("run");
    ck_assert_int_eq(run_standin(a, reseed, NULL, NULL), 0);
    ck_assert_uint_eq(trace_durations("run/t0/aorta_kernel_trace.csv", seeded, 40), 40);
    ck_assert(memcmp(first, again, sizeof first) == 0);
    ck_assert(memcmp(first, other, sizeof first) != 0);
    ck_assert(memcmp(first, seeded, sizeof first) != 0);
    long long low = first[0], high = first[0], sum = 0;
    for (size_t i = 0; i < 40; i++) {
        low = first[i] < low ? first[i] : low;
        high = first[i] > high ? first[i] : high;
        sum += first[i];
    }
    /* within three spreads of the factor (2.5%) and of the jitter (5%) */
    ck_assert_int_ge(low, (long long)(100000 * 0.925 * 0.85));
    ck_assert_int_le(high, (long long)(100000 * 1.075 * 1.15));
    ck_assert_int_gt(high, low);
    ck_assert_int_gt(sum, 40LL * 100000 * 0.9);
    ck_assert_int_lt(sum, 40LL * 100000 * 1.1);
}
END_TEST

/* In an aorta run's layout the place is the whole trial path from the
 * ticket on: two tickets' rank0/ captures differ (the last five components
 * leave the ticket out under a rank), one ticket's under two output roots
 * (two machines) are the same, and two ranks differ. */
START_TEST(noise_covers_the_ticket_and_the_rank)
{
    char *env[] = {"AORTA_FAKE_KERNELS=40:100000~5:k", NULL};
    static const char *const dirs[] = {
        "root1/before/none-none/_subprocess/trial_d0_m0_t0/rocprof/rank0",
        "root1/after/none-none/_subprocess/trial_d0_m0_t0/rocprof/rank0",
        "elsewhere/root2/before/none-none/_subprocess/trial_d0_m0_t0/rocprof/rank0",
        "root1/before/none-none/_subprocess/trial_d0_m0_t0/rocprof/rank1",
    };
    long long got[4][40];
    for (size_t i = 0; i < 4; i++) {
        const char *args[] = {"-d", dirs[i], "-o", "aorta", "-f", "csv", "--kernel-trace", "--",
                              "true", NULL};
        ck_assert_int_eq(run_standin(args, env, NULL, NULL), 0);
        char *trace = tu_fmt("%s/aorta_kernel_trace.csv", dirs[i]);
        ck_assert_uint_eq(trace_durations(trace, got[i], 40), 40);
        free(trace);
    }
    ck_assert_msg(memcmp(got[0], got[1], sizeof got[0]) != 0, "two tickets, the same numbers");
    ck_assert_msg(memcmp(got[0], got[2], sizeof got[0]) == 0, "one place, two output roots");
    ck_assert_msg(memcmp(got[0], got[3], sizeof got[0]) != 0, "two ranks, the same numbers");
}
END_TEST

START_TEST(the_application_reports_its_kernels_on_the_pipe)
{
    const char *args[] = {"-d", "out", "-o", "aorta", "-f", "csv", "--kernel-trace", "--stats",
                          "--", "sh", "-c",
                          "echo '2:500:from_app' >/dev/fd/$AORTA_FAKE_KERNEL_FD; "
                          "echo 'junk' >/dev/fd/$AORTA_FAKE_KERNEL_FD", NULL};
    char *unset[] = {"AORTA_FAKE_KERNELS", NULL};
    char *err = NULL;
    ck_assert_int_eq(run_standin(args, unset, NULL, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "Warning: rocprofv3 (aorta stand-in): the application's pipe "
                                      "line 2: 'junk' is not CALLS:NS[~PCT]:NAME"));
    free(err);
    char *stats = tu_read("out/aorta_kernel_stats.csv");
    ck_assert_ptr_nonnull(strstr(stats, "\n\"from_app\",2,1000,"));
    free(stats);
    /* AORTA_FAKE_KERNEL_PIPE=0: no pipe, so no GPU work and no files */
    tu_rmtree("out");
    char *no_pipe[] = {"AORTA_FAKE_KERNELS", "AORTA_FAKE_KERNEL_PIPE=0", NULL};
    const char *plain[] = {"-d", "out", "-o", "aorta", "-f", "csv", "--kernel-trace", "--", "sh",
                           "-c", "test -z \"$AORTA_FAKE_KERNEL_FD\"", NULL};
    ck_assert_int_eq(run_standin(plain, no_pipe, NULL, NULL), 0);
    ck_assert(!tu_exists("out"));
}
END_TEST

START_TEST(a_process_left_holding_the_pipe_does_not_hold_the_capture)
{
    /* The application leaves a process that keeps the pipe open: the
     * stand-in writes what it was told within its two-second grace, not
     * when that process ends (the case's timeout is far shorter). */
    const char *args[] = {"-d", "out", "-o", "aorta", "-f", "csv", "--kernel-trace", "--", "sh",
                          "-c",
                          "echo '1:700:before_exit' >/dev/fd/$AORTA_FAKE_KERNEL_FD; "
                          "sleep 600 </dev/null >/dev/null 2>&1 & echo $! >holder.pid", NULL};
    char *unset[] = {"AORTA_FAKE_KERNELS", NULL};
    ck_assert_int_eq(run_standin(args, unset, NULL, NULL), 0);
    char *pid_text = tu_read("holder.pid");
    ck_assert_ptr_nonnull(pid_text);
    kill((pid_t)atoi(pid_text), SIGKILL);
    free(pid_text);
    char *trace = tu_read("out/aorta_kernel_trace.csv");
    ck_assert_ptr_nonnull(strstr(trace, "\"before_exit\""));
    free(trace);
}
END_TEST

START_TEST(kernel_lines_it_cannot_read_stop_it_before_the_application)
{
    const char *args[] = {"-d", "out", "-f", "csv", "--kernel-trace", "--", "touch", "ran", NULL};
    const char *bad[] = {"2:fast:k", "0:10:k", "2:10~150:k", "2:10", NULL};
    for (size_t i = 0; bad[i]; i++) {
        char *setting = NULL;
        ck_assert_int_gt(asprintf(&setting, "AORTA_FAKE_KERNELS=1:5:ok\n%s", bad[i]), 0);
        char *env[] = {setting, NULL};
        char *err = NULL;
        ck_assert_int_eq(run_standin(args, env, NULL, &err), 1);
        char *expected = NULL;
        ck_assert_int_gt(asprintf(&expected, "Fatal error: rocprofv3 (aorta stand-in): "
                                             "AORTA_FAKE_KERNELS line 2: '%s' is not "
                                             "CALLS:NS[~PCT]:NAME", bad[i]), 0);
        ck_assert_msg(strstr(err, expected) != NULL, "no '%s' in: %s", expected, err);
        ck_assert(!tu_exists("ran"));
        ck_assert(!tu_exists("out"));
        free(expected);
        free(err);
        free(setting);
    }
}
END_TEST

START_TEST(help_says_what_it_is)
{
    const char *args[] = {"--help", NULL};
    char *out = NULL;
    ck_assert_int_eq(run_standin(args, NULL, &out, NULL), 0);
    ck_assert_ptr_nonnull(strstr(out, "A stand-in for ROCm's rocprofv3"));
    ck_assert_ptr_nonnull(strstr(out, "AORTA_FAKE_KERNELS"));
    ck_assert_ptr_nonnull(strstr(out, "AORTA_FAKE_SEED"));
    free(out);
}
END_TEST

static Suite *standin_suite(void)
{
    Suite *suite = suite_create("rocprof_standin");
    TCase *tc = tcase_create("standin");
    tcase_add_unchecked_fixture(tc, rp_setup, rp_teardown);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, the_collectors_argv_is_accepted);
    tcase_add_test(tc, real_format_files);
    tcase_add_test(tc, without_o_files_nest_under_host_and_pid);
    tcase_add_test(tc, rank_pid_and_hostname_keys_expand_as_the_real_tool);
    tcase_add_test(tc, no_gpu_work_writes_nothing);
    tcase_add_test(tc, summary_file_or_stderr);
    tcase_add_test(tc, default_format_is_rocpd);
    tcase_add_test(tc, malformed_argv_fails_like_rocprofv3);
    tcase_add_test(tc, other_real_shapes_accepted);
    tcase_add_test(tc, exec_semantics);
    tcase_add_test(tc, noise_is_seeded_by_the_seed_and_the_place);
    tcase_add_test(tc, noise_covers_the_ticket_and_the_rank);
    tcase_add_test(tc, the_application_reports_its_kernels_on_the_pipe);
    tcase_add_test(tc, a_process_left_holding_the_pipe_does_not_hold_the_capture);
    tcase_add_test(tc, kernel_lines_it_cannot_read_stop_it_before_the_application);
    tcase_add_test(tc, help_says_what_it_is);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(standin_suite)
