/* SPDX-License-Identifier: MIT */
/* aorta-run in a hostile environment: sidecars and recipes that are not
 * what they claim, bytes that are not UTF-8, signals in every state, a
 * payload that leaves processes behind or swaps the run directory's
 * components for symlinks, and a full disk. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "sweeputil.h"
#include "sweep/parse_child.h"
#include "xalloc.h"

static char *dir;
static char *plugins;

static void setup(void)
{
    dir = tu_tmpdir();
    plugins = tu_builddir("tests/fake-collectors");
    ck_assert_int_eq(chdir(dir), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(plugins);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t error_lines(const char *err)
{
    return tu_count(err, "aorta-run: ") - tu_count(err, "aorta-run: warning: ");
}

/* ------------------------------------------------------------------------ */
/* Strict UTF-8 everywhere                                                   */
/* ------------------------------------------------------------------------ */

/* Every .json file under path is strict UTF-8 (Python's decoder's rules)
 * and JSON; returns how many were checked. */
static size_t check_json_tree(const char *path)
{
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    size_t checked = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        char *child = tu_join(path, entry->d_name);
        struct stat st;
        ck_assert_int_eq(lstat(child, &st), 0);
        size_t len = strlen(entry->d_name);
        if (S_ISDIR(st.st_mode)) {
            checked += check_json_tree(child);
        } else if (len > 5 && !strcmp(entry->d_name + len - 5, ".json")) {
            char *text = tu_read(child);
            ck_assert_ptr_nonnull(text);
            size_t size = strlen(text);
            ck_assert_msg(aorta_utf8_valid_prefix(text, size, NULL, NULL) == size,
                          "%s is not UTF-8", child);
            ar_json_t *json = ar_json_read_file(child, 64u << 20, 64);
            ck_assert_msg(json != NULL, "%s is not JSON", child);
            ar_json_free(json);
            free(text);
            checked++;
        }
        free(child);
    }
    closedir(d);
    return checked;
}

START_TEST(every_json_file_of_a_hostile_run_is_strict_utf8)
{
    /* Bytes that are not UTF-8 in the command, in aorta-run's environment
     * (host_env.json, the trial JSON's env) and in a cell's variable. */
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                            "mitigation_axis: [m]\ndiagnostic_axis: [none]\n"
                            "mitigations:\n  m: {GOOD: \"caf\\u00e9\"}\n");
    char *args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--collect", "good",
                    "--output", "out", "--", "printf", "\xff\xfe%s\xed\xa0\x80", "\xc0\xaf", NULL};
    char *env[] = {"HOSTILE_\xff=\xfe\xff", "HOSTILE_VALUE=a\xe9z", NULL};
    char *out = NULL, *err = NULL;
    /* good's wrapper is a name, never a program: no trial's command can
     * start, so the run exits 1, its records written all the same. */
    ck_assert_int_eq(su_aorta(env, args, &out, &err), 1);
    ck_assert_ptr_nonnull(strstr(out, "cannot execute '"));
    ck_assert_uint_ge(check_json_tree("out"), 4);
    free(out);
    free(err);
}
END_TEST

/* A sidecar is checked like a recipe: one line with file:line:column, exit
 * 2, nothing written. */
START_TEST(a_hostile_sidecar_is_refused_before_anything_is_written)
{
    static const char *const SIDECARS[] = {
        "{\"version\": 1, \"mitigations\": {\"m\": {\"A\": \"a\xff\"}}}",
        "{\"version\": 1, \"mitigations\": {\"m\": {\"A\": \"a\\u0000b\"}}}",
        "{\"version\": 1, \"mitigations\": {\"m\": {\"A\": \"1\", \"A\": \"2\"}}}",
        "{\"version\": 1, \"mitigations\": {\"m\": {\"A\": [\"1\"]}}}",
    };
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                            "mitigation_axis: [m]\ndiagnostic_axis: [none]\n");
    for (size_t i = 0; i < sizeof SIDECARS / sizeof SIDECARS[0]; i++) {
        tu_write("s.json", SIDECARS[i]);
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(su_aorta(NULL,
                                  (char *[]){"--recipe", "recipe.yaml", "--mitigations-file",
                                             "s.json", "--output", "out", "--", "true", NULL},
                                  &out, &err),
                         2);
        ck_assert_msg(error_lines(err) == 1 && strstr(err, "aorta-run: s.json:1:"), "%s", err);
        ck_assert(!tu_exists("out"));
        free(out);
        free(err);
    }
}
END_TEST

/* ------------------------------------------------------------------------ */
/* User-named files that are not files                                       */
/* ------------------------------------------------------------------------ */

static void expect_not_a_file(const char *flag, const char *path, const char *kind)
{
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                            "mitigation_axis: [none]\ndiagnostic_axis: [none]\n");
    int sidecar = strcmp(flag, "--recipe") != 0;
    char *args[] = {"--recipe", sidecar ? "recipe.yaml" : (char *)path, "--output", "out",
                    sidecar ? "--mitigations-file" : "--", sidecar ? (char *)path : "true",
                    "--", "true", NULL};
    char *out = NULL, *err = NULL;
    double started = now();
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 2);
    ck_assert(now() - started < 10);
    char *line = ar_xasprintf("aorta-run: %s: cannot read the %s: it is %s, not a regular "
                                 "file\n",
                                 path, sidecar ? "mitigations file" : "recipe",
                                 kind);
    ck_assert_str_eq(err, line);
    ck_assert(!tu_exists("out"));
    free(line);
    free(out);
    free(err);
}

START_TEST(a_fifo_device_or_socket_named_as_recipe_or_sidecar_is_refused_unopened)
{
    /* A FIFO with no writer: opening it would block for ever. */
    ck_assert_int_eq(mkfifo("fifo", 0644), 0);
    expect_not_a_file("--recipe", "fifo", "a FIFO");
    expect_not_a_file("--mitigations-file", "fifo", "a FIFO");
    expect_not_a_file("--recipe", "/dev/zero", "a character device");
    expect_not_a_file("--mitigations-file", "/dev/null", "a character device");
    int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    strcpy(addr.sun_path, "sock");
    ck_assert_int_eq(bind(sock, (struct sockaddr *)&addr, sizeof addr), 0);
    expect_not_a_file("--recipe", "sock", "a socket");
    close(sock);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Signals in every state                                                    */
/* ------------------------------------------------------------------------ */

static void write_recipe(const char *behaviour)
{
    char *text = ar_xasprintf("schema_version: 1\nmode: probe\ntrials: 2\n"
                                 "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                 "collect:\n  badparse: {behaviour: %s}\n",
                                 behaviour);
    tu_write("recipe.yaml", text);
    free(text);
}

/* Start aorta-run with args, wait for ready to exist, send sig: it must
 * exit 128 + sig within limit seconds.  Returns its stdout (free it). */
static char *signal_when(const char *ready, int sig, double limit, char *const *args,
                         char *const *env)
{
    pid_t pid = su_aorta_start(env, args, "out.txt", "err.txt");
    ck_assert_msg(su_wait_for(ready, 30), "%s never appeared", ready);
    double sent = now();
    kill(pid, sig);
    int status = tu_wait(pid);
    double took = now() - sent;
    char *err = tu_read("err.txt");
    ck_assert_msg(status == 128 + sig, "exit %d; stderr: %s", status, err);
    ck_assert_msg(took < limit, "took %.1f s after the signal", took);
    free(err);
    return tu_read("out.txt");
}

#define PARSE_DIR "out/T/none-none/_subprocess/trial_d0_m0_t0/badparse"

static void interrupt_a_parse(int sig)
{
    write_recipe("ready");
    char *args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--output", "out",
                    "--ticket", "T", "--", "true", NULL};
    char *out = signal_when(PARSE_DIR "/parsing", sig, 2.0, args, NULL);
    ck_assert_ptr_nonnull(strstr(out, "Sweep interrupted by"));
    free(out);
    /* Recorded as interrupted, left without result.json to be retried. */
    ar_json_t *trial = su_json("out/T", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "result", "failure_details", "0", "type", NULL),
                     "subprocess_interrupted");
    ck_assert_str_eq(su_str(trial, "result", "failure_details", "0", "signal", NULL),
                     sig == SIGINT ? "SIGINT" : "SIGTERM");
    ar_json_free(trial);
    ck_assert(!tu_exists("out/T/none-none/trial_0/result.json"));
    ck_assert(!tu_exists("out/T/none-none/trial_1"));
    ck_assert(tu_exists("out/T/matrix.json"));
}

START_TEST(sigint_ends_a_hung_parse_at_once)
{
    interrupt_a_parse(SIGINT);
}
END_TEST

START_TEST(sigterm_ends_a_hung_parse_at_once)
{
    interrupt_a_parse(SIGTERM);
}
END_TEST

/* The environment snapshot asks the payload's Python for Triton in a child
 * that runs beside the first trial; this stand-in's probe never answers. */
static void python_with_a_hung_probe(char **path_var, char **log_var, char **pids_var)
{
    char *standin = tu_srcdir("tests/run/sweep/python-standin");
    ck_assert_int_eq(mkdir("bin", 0755), 0);
    ck_assert_int_eq(symlink(standin, "bin/python3"), 0);
    free(standin);
    *path_var = ar_xasprintf("PATH=%s/bin:%s", dir, getenv("PATH"));
    *log_var = ar_xasprintf("STANDIN_LOG=%s/probes", dir);
    *pids_var = ar_xasprintf("STANDIN_PIDS=%s/pids", dir);
}

/* Every process the stand-in started is gone (1 s at most). */
static void none_left(void)
{
    char *pids = tu_read("pids");
    ck_assert_ptr_nonnull(pids);
    for (char *cursor = pids; *cursor;) {
        char *end = NULL;
        long pid = strtol(cursor, &end, 10);
        if (end == cursor)
            break;
        cursor = end;
        double until = now() + 1.0;
        while (kill((pid_t)pid, 0) == 0 && now() < until)
            usleep(10000);
        ck_assert_msg(kill((pid_t)pid, 0) != 0, "process %ld is still running", pid);
    }
    free(pids);
}

static void probe_was_interrupted(void)
{
    ar_json_t *env = su_json("out/T", "host_env.json");
    ck_assert_ptr_null(su_at(env, "triton", "package_version", NULL));
    ck_assert_ptr_nonnull(strstr(su_str(env, "partial_reasons", "1", NULL),
                                 "triton: the probe of python3 was interrupted"));
    ar_json_free(env);
}

/* Run two trials of the stand-in with a probe that never answers and sig
 * once the first payload has started (hanging there when payload_hangs);
 * checks nothing is left and the probe is recorded as interrupted.
 * Returns aorta-run's stdout. */
static char *interrupt_beside_a_hung_probe(int sig, int payload_hangs)
{
    char *path_var, *log_var, *pids_var;
    python_with_a_hung_probe(&path_var, &log_var, &pids_var);
    char *args[] = {"--output", "out", "--ticket", "T", "--trials", "2", "--", "python3",
                    "payload.py", NULL};
    char *env[] = {path_var, log_var, pids_var, "STANDIN_HANG=1", "STANDIN_PAYLOAD_TOUCH=started",
                   payload_hangs ? "STANDIN_PAYLOAD_HANG=1" : NULL, NULL};
    char *out = signal_when("started", sig, 2.0, args, env);
    ck_assert(!tu_exists("out/T/none-none/trial_1"));
    none_left();
    probe_was_interrupted();
    free(pids_var);
    free(log_var);
    free(path_var);
    return out;
}

START_TEST(a_signal_during_the_first_trial_stops_the_probe_too)
{
    char *out = interrupt_beside_a_hung_probe(SIGTERM, 1);
    ck_assert_ptr_nonnull(strstr(out, "Sweep interrupted by SIGTERM"));
    free(out);
}
END_TEST

START_TEST(a_signal_while_the_probe_is_awaited_is_prompt)
{
    /* The trial is over; aorta-run waits for the probe to record the
     * trial's environment. */
    char *out = interrupt_beside_a_hung_probe(SIGINT, 0);
    ck_assert_ptr_nonnull(strstr(out, "Sweep interrupted by SIGINT"));
    free(out);
}
END_TEST

/* A run directory of many cells with kernel tables, as a sweep leaves it,
 * written directly (a real sweep of that size would take minutes here):
 * its reports take long enough to be interrupted. */
static void write_big_run(const char *run, int cells, int kernels)
{
    char *matrix = ar_xasprintf("{\"workload\": \"_subprocess\", \"ticket\": \"T\", "
                                   "\"run_timestamp\": \"now\", \"cells\": [");
    for (int c = 0; c < cells; c++) {
        char *sub = ar_xasprintf("%s/c%05d-none/_subprocess", run, c);
        char *trial = ar_xasprintf("%s/trial_d0_m0_t0.json", sub);
        tu_write(trial, "{\"exit_status\": \"ok\", \"result\": {\"metrics\": "
                        "{\"verdict\": \"pass\"}}}");
        char *table = ar_xasprintf("%s/trial_d0_m0_t0.kernels.json", sub);
        FILE *out = fopen(table, "w");
        ck_assert_ptr_nonnull(out);
        fprintf(out, "{\"schema_version\": 1, \"trial_index\": 0, \"collectors\": "
                     "{\"rocprof\": {\"kernels\": {");
        for (int k = 0; k < kernels; k++)
            fprintf(out, "%s\"_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_%d"
                         "FunctorIfEESt5arrayIPcLm3EEEEviT0_T1_\": [%d.5, %d]",
                    k ? ", " : "", k, (c + k) % 97 + 1, k % 5 + 1);
        fprintf(out, "}}}}\n");
        ck_assert_int_eq(fclose(out), 0);
        char *more = ar_xasprintf("%s%s{\"name\": \"c%05d-none\", \"trials\": 1, "
                                     "\"passed_count\": 1, \"iters_display\": \"1/1\", "
                                     "\"step_time_source\": \"missing\"}",
                                     matrix, c ? ", " : "", c);
        free(matrix);
        matrix = more;
        free(table);
        free(trial);
        free(sub);
    }
    char *path = ar_xasprintf("%s/matrix.json", run);
    char *text = ar_xasprintf("%s]}", matrix);
    tu_write(path, text);
    free(text);
    free(path);
    free(matrix);
}

START_TEST(a_signal_during_the_reports_is_prompt)
{
    /* --report rebuilds every cell's kernels.json, perf.md and report.html;
     * a signal once the first cell's table is written stops it there. */
    write_big_run("out/T", 4000, 60);
    char *args[] = {"--report", "out/T", NULL};
    char *out = signal_when("out/T/c00000-none/kernels.json", SIGINT, 2.0, args, NULL);
    char *err = tu_read("err.txt");
    ck_assert_msg(strstr(err, "aorta-run: the reports were interrupted by SIGINT"), "%s", err);
    ck_assert_msg(strstr(err, "aorta-run --report out/T"), "%s", err);
    ck_assert_uint_eq(error_lines(err), 1);
    /* Neither claimed nor written. */
    ck_assert_ptr_null(strstr(out, "perf.md"));
    ck_assert(!tu_exists("out/T/perf.md"));
    ck_assert(!tu_exists("out/T/report.html"));
    ck_assert(!tu_exists("out/T/c03999-none/kernels.json"));
    free(err);
    free(out);
}
END_TEST

/* A demangler bomb in a capture: 30 levels of B<P, P> through
 * back-references, about 300 bytes that demangle to 14 GB.  --report shows
 * it raw, fast, with one warning, and its files stay small. */
START_TEST(a_demangler_bomb_leaves_the_reports_small_and_fast)
{
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    char *bomb = ar_xstrdup("_Z1f1A");
    for (int k = 1; k <= 30; k++) {
        int id = 2 * k - 2;
        char ref[16];
        if (id == 0)
            snprintf(ref, sizeof ref, "S_");
        else if (id - 1 < 36)
            snprintf(ref, sizeof ref, "S%c_", digits[id - 1]);
        else
            snprintf(ref, sizeof ref, "S%c%c_", digits[(id - 1) / 36], digits[(id - 1) % 36]);
        char *next = ar_xasprintf("%s1BI%s%sE", bomb, ref, ref);
        free(bomb);
        bomb = next;
    }
    tu_write("out/B/c-none/_subprocess/trial_d0_m0_t0.json",
             "{\"exit_status\": \"ok\", \"result\": {\"metrics\": {\"verdict\": \"pass\"}}}");
    char *table = ar_xasprintf("{\"schema_version\": 1, \"trial_index\": 0, \"collectors\": "
                                  "{\"rocprof\": {\"kernels\": {\"%s\": [2.5, 1], "
                                  "\"_Z6kernelv\": [1.0, 1]}}}}\n",
                                  bomb);
    tu_write("out/B/c-none/_subprocess/trial_d0_m0_t0.kernels.json", table);
    tu_write("out/B/matrix.json",
             "{\"workload\": \"_subprocess\", \"ticket\": \"B\", \"run_timestamp\": \"now\", "
             "\"cells\": [{\"name\": \"c-none\", \"trials\": 1, \"passed_count\": 1, "
             "\"iters_display\": \"1/1\", \"step_time_source\": \"missing\"}]}");
    char *args[] = {"--report", "out/B", NULL};
    char *out = NULL, *err = NULL;
    double started = now();
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    ck_assert_msg(now() - started < 20, "%.1f s", now() - started);
    const char *note = strstr(err, "aorta-run: warning: a kernel name of ");
    ck_assert_msg(note && !strstr(note + 40, "a kernel name of "), "%s", err);
    ck_assert_uint_eq(error_lines(err), 0);
    struct stat st;
    ck_assert_int_eq(stat("out/B/report.html", &st), 0);
    ck_assert_msg(st.st_size < (1 << 20), "report.html: %lld bytes", (long long)st.st_size);
    ck_assert_int_eq(stat("out/B/perf.md", &st), 0);
    ck_assert_msg(st.st_size < (1 << 20), "perf.md: %lld bytes", (long long)st.st_size);
    /* The raw name is there; the ordinary one is demangled as ever. */
    char *html = tu_read("out/B/report.html");
    ck_assert_ptr_nonnull(strstr(html, bomb));
    ck_assert_ptr_nonnull(strstr(html, "kernel()"));
    free(html);
    free(out);
    free(err);
    free(table);
    free(bomb);
}
END_TEST

START_TEST(a_signal_during_a_trial_is_prompt)
{
    char *args[] = {"--output", "out", "--ticket", "T", "--", "sh", "-c",
                    "touch started; exec sleep 30", NULL};
    char *out = signal_when("started", SIGTERM, 2.0, args, NULL);
    ck_assert_ptr_nonnull(strstr(out, "Sweep interrupted by SIGTERM"));
    free(out);
}
END_TEST

START_TEST(a_payload_that_ignores_sigterm_is_killed_after_the_grace)
{
    char *args[] = {"--output", "out", "--ticket", "T", "--", "sh", "-c",
                    "trap '' TERM; touch started; sleep 30", NULL};
    char *env[] = {"AORTA_KILL_GRACE=1", NULL};
    char *out = signal_when("started", SIGINT, 1.0 + 2.0, args, env);
    ck_assert_ptr_nonnull(strstr(out, "Sweep interrupted by SIGINT"));
    free(out);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* No orphans                                                                */
/* ------------------------------------------------------------------------ */

static int alive(pid_t pid)
{
    /* A zombie is dead: read its state. */
    char path[64], state = 0;
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *stat_file = fopen(path, "r");
    if (!stat_file)
        return 0;
    int got = fscanf(stat_file, "%*d (%*[^)]) %c", &state);
    fclose(stat_file);
    return got == 1 && state != 'Z';
}

static pid_t pid_in(const char *path)
{
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "%s is missing", path);
    pid_t pid = (pid_t)atol(text);
    free(text);
    return pid;
}

START_TEST(what_a_payload_leaves_running_is_killed_with_a_warning)
{
    char *args[] = {"--output", "out", "--ticket", "T", "--", "sh", "-c",
                    "sleep 60 & echo $! > left.pid; setsid sleep 61 & echo $! > daemon.pid", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    pid_t left = pid_in("left.pid"), daemon = pid_in("daemon.pid");
    int left_alive = alive(left), daemon_alive = alive(daemon);
    if (left_alive)
        kill(left, SIGKILL);
    if (daemon_alive)
        kill(daemon, SIGKILL);
    ck_assert(!left_alive && !daemon_alive);
    ck_assert_msg(strstr(err, "aorta-run: warning: out/T/none-none/trial_0: the payload left 2 "
                              "process(es) running; killed with their process groups: "),
                  "%s", err);
    /* Named by pid (the name is what it ran when it was found). */
    char *named = ar_xasprintf("%ld (", (long)left);
    ck_assert_ptr_nonnull(strstr(err, named));
    free(named);
    named = ar_xasprintf("%ld (", (long)daemon);
    ck_assert_ptr_nonnull(strstr(err, named));
    free(named);
    free(out);
    free(err);
}
END_TEST

START_TEST(a_daemon_a_parse_starts_is_killed_and_its_stdout_kept_apart)
{
    write_recipe("daemon");
    char *args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--output", "out",
                    "--ticket", "T", "--", "true", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    pid_t daemon = pid_in(PARSE_DIR "/daemon.pid");
    int daemon_alive = alive(daemon);
    if (daemon_alive)
        kill(daemon, SIGKILL);
    ck_assert(!daemon_alive);
    ck_assert_ptr_nonnull(strstr(err, "collect: badparse's parse of "));
    free(out);
    free(err);

    /* A collector's stdout: one warning, never aorta-run's stdout. */
    write_recipe("noise");
    args[7] = "N";
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    ck_assert_ptr_null(strstr(out, "not json"));
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: collect: badparse printed 17 byte(s) "
                                      "on stdout while parsing "));
    ck_assert_ptr_null(strstr(err, "skipping its metrics"));
    /* Its stderr: its own warning lines as they are, anything else one warning. */
    ck_assert_ptr_nonnull(strstr(err, "\naorta-run: warning: badparse: a warning of its own\n"));
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: collect: badparse printed 14 byte(s) "
                                      "on stderr while parsing "));
    ck_assert_ptr_null(strstr(err, "\nnot a warning"));
    free(out);
    free(err);
}
END_TEST

/* kill -9 of aorta-run takes the payload and a parse child with it. */
START_TEST(the_payload_and_a_parse_die_with_aorta_run)
{
    char *args[] = {"--output", "out", "--ticket", "T", "--", "sh", "-c",
                    "echo $$ > payload.pid; exec sleep 60", NULL};
    pid_t pid = su_aorta_start(NULL, args, "out.txt", "err.txt");
    ck_assert(su_wait_for("payload.pid", 30));
    pid_t payload = pid_in("payload.pid");
    kill(pid, SIGKILL);
    tu_wait(pid);
    for (int i = 0; i < 200 && alive(payload); i++)
        usleep(10000);
    int payload_alive = alive(payload);
    if (payload_alive)
        kill(payload, SIGKILL);
    ck_assert(!payload_alive);

    write_recipe("ready");
    char *parse_args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--output", "out",
                          "--ticket", "U", "--", "true", NULL};
    pid = su_aorta_start(NULL, parse_args, "out.txt", "err.txt");
    ck_assert(su_wait_for("out/U/none-none/_subprocess/trial_d0_m0_t0/badparse/parsing", 30));
    /* The parse child is aorta-run's only child now. */
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
    char *children = tu_read(path);
    ck_assert_ptr_nonnull(children);
    pid_t parse = (pid_t)atol(children);
    free(children);
    ck_assert(parse > 0 && alive(parse));
    kill(pid, SIGKILL);
    tu_wait(pid);
    for (int i = 0; i < 200 && alive(parse); i++)
        usleep(10000);
    int parse_alive = alive(parse);
    if (parse_alive)
        kill(parse, SIGKILL);
    ck_assert(!parse_alive);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Bounded parse memory                                                      */
/* ------------------------------------------------------------------------ */

START_TEST(a_parse_past_its_memory_limit_costs_only_its_metrics)
{
    if (ar_parse_memory_limit() == 0)
        return; /* a sanitizer build: no limit (see aorta-run(1)) */
    write_recipe("hog");
    char *args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--output", "out",
                    "--ticket", "T", "--", "true", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta((char *[]){"AORTA_PARSE_MEMORY=256M", NULL}, args, &out, &err), 0);
    ck_assert_uint_eq(tu_count(err, "aorta-run: warning: collect: badparse summary parsing "), 2);
    ck_assert_ptr_nonnull(strstr(err, "AORTA_PARSE_MEMORY = 268435456 bytes"));
    ar_json_t *trial = su_json("out/T", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert(ar_json_get_bool(su_at(trial, "result", "passed", NULL)));
    ck_assert_ptr_null(su_at(trial, "result", "metrics", "badparse_kernel_count", NULL));
    ar_json_free(trial);
    free(out);
    free(err);
}
END_TEST

START_TEST(the_parse_memory_limit_reads_bytes_and_suffixes)
{
    if (ar_parse_memory_limit() == 0)
        return;
    static const struct {
        const char *text;
        uint64_t bytes;
    } CASES[] = {
        {"1048576", 1048576}, {"64K", 64u << 10}, {"256M", 256u << 20},
        {"8G", UINT64_C(8) << 30}, {"", AR_PARSE_MEMORY_DEFAULT},
        {"-1", AR_PARSE_MEMORY_DEFAULT}, {"12T", AR_PARSE_MEMORY_DEFAULT},
        {"M", AR_PARSE_MEMORY_DEFAULT}, {"0", AR_PARSE_MEMORY_DEFAULT},
        {"99999999999999999999", AR_PARSE_MEMORY_DEFAULT},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        setenv("AORTA_PARSE_MEMORY", CASES[i].text, 1);
        ck_assert_msg(ar_parse_memory_limit() == CASES[i].bytes, "%s", CASES[i].text);
    }
    unsetenv("AORTA_PARSE_MEMORY");
    ck_assert(ar_parse_memory_limit() == AR_PARSE_MEMORY_DEFAULT);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Nothing written or deleted outside the run directory                      */
/* ------------------------------------------------------------------------ */

/* "outside" holds only its marker, unchanged. */
static void expect_outside_untouched(void)
{
    DIR *d = opendir("outside");
    ck_assert_ptr_nonnull(d);
    size_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL)
        if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, ".."))
            count++;
    closedir(d);
    char *marker = tu_read("outside/keep");
    ck_assert_msg(count == 1 && marker && !strcmp(marker, "keep\n"),
                  "outside holds %zu entries", count);
    free(marker);
}

/* Run a payload script (sh -c) that does something to the run directory
 * mid-run: expect status, outside untouched, and err to hold expected. */
static void swap_case(const char *script, int collect, int status, const char *expected)
{
    tu_rmtree("out");
    tu_rmtree("outside");
    tu_write("outside/keep", "keep\n");
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                            "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                            "retain: {on_pass: none, on_fail: none, on_error: none}\n");
    if (collect)
        tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                                "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                                "retain: {on_pass: none, on_fail: none, on_error: none}\n"
                                "collect:\n  badparse: {}\n");
    char *args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--output", "out",
                    "--ticket", "T", "--", "sh", "-c", (char *)script, NULL};
    char *out = NULL, *err = NULL;
    int got = su_aorta(NULL, args, &out, &err);
    ck_assert_msg(got == status, "%s: exit %d; stderr: %s", script, got, err);
    ck_assert_msg(strstr(err, expected), "%s: stderr: %s", script, err);
    if (status == 1)
        ck_assert_msg(!strstr(out, "Wrote run artifacts"), "%s", out);
    expect_outside_untouched();
    free(out);
    free(err);
}

#define CELL "out/T/none-none"

START_TEST(a_payload_that_swaps_a_directory_for_a_symlink_writes_nothing_outside)
{
    swap_case("rm -rf " CELL "/trial_0 && ln -s ../../../outside " CELL "/trial_0", 0, 1,
              "aorta-run: cannot write out/T/none-none/trial_0/result.json: 'trial_0' in "
              "'none-none/trial_0' is a symbolic link (refused)");
    /* The trial was recorded as aorta-run's failure. */
    ar_json_t *trial = su_json("out/T", "none-none/_subprocess/trial_d0_m0_t0.json");
    ck_assert_str_eq(su_str(trial, "result", "failure_details", "0", "type", NULL),
                     "record_failed");
    ar_json_free(trial);
    swap_case("rm -rf " CELL "/_subprocess && ln -s ../../../outside " CELL "/_subprocess", 0, 1,
              "aorta-run: cannot write out/T/none-none/_subprocess/trial_d0_m0_t0.json: "
              "'_subprocess' in 'none-none/_subprocess' is a symbolic link (refused)");
    swap_case("mv " CELL " out/T/moved && ln -s ../../outside " CELL, 0, 1,
              "'none-none' in 'none-none/trial_0' is a symbolic link (refused)");
    /* A trial directory the payload removed is made again for result.json. */
    swap_case("rm -rf " CELL "/trial_0", 0, 0, "");
    ck_assert(tu_exists(CELL "/trial_0/result.json"));
    /* The collector's directory: neither parsed nor pruned through it. */
    swap_case("cp outside/keep outside/artifact; d=" CELL "/_subprocess/trial_d0_m0_t0/badparse; "
              "rm -rf $d && ln -s ../../../../../outside $d; rm outside/artifact",
              1, 0, "refusing to parse artifacts through it");
}
END_TEST

/* Rank k > 0 of an --all-ranks run writes its record beside rank 0's
 * trial JSON: through descriptors opened from the run directory down, so a
 * payload that swaps the cell's _subprocess (or the cell) for a symlink
 * makes the record an error of that rank, never a file elsewhere. */
static void follower_case(const char *script, const char *expected)
{
    tu_rmtree("out");
    tu_rmtree("outside");
    tu_write("outside/keep", "keep\n");
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\nall_ranks: true\n"
                            "mitigation_axis: [none]\ndiagnostic_axis: [none]\n");
    char *args[] = {"--recipe", "recipe.yaml", "--output", "out", "--ticket", "T", "--", "sh",
                    "-c", (char *)script, NULL};
    char *out = NULL, *err = NULL;
    su_aorta((char *[]){"RANK=1", "WORLD_SIZE=2", NULL}, args, &out, &err);
    ck_assert_msg(strstr(err, expected), "%s: stderr: %s", script, err);
    expect_outside_untouched();
    free(out);
    free(err);
}

START_TEST(an_all_ranks_follower_never_writes_through_a_swapped_symlink)
{
    follower_case("rm -rf " CELL "/_subprocess && ln -s ../../../outside " CELL "/_subprocess",
                  "aorta-run: warning: rank 1: cannot write "
                  "out/T/none-none/_subprocess/trial_d0_m0_t0.rank1.json: '_subprocess' in "
                  "'none-none/_subprocess' is a symbolic link (refused)");
    /* A second run finds the link left there: a setup failure, nothing run. */
    tu_rmtree("outside");
    tu_write("outside/keep", "keep\n");
    char *args[] = {"--recipe", "recipe.yaml", "--output", "out", "--ticket", "T", "--", "sh",
                    "-c", "touch outside/ran", NULL};
    char *out = NULL, *err = NULL;
    su_aorta((char *[]){"RANK=1", "WORLD_SIZE=2", NULL}, args, &out, &err);
    ck_assert_msg(strstr(err, "rank 1: none-none/trial_0: setup failed: '_subprocess' in "
                              "'none-none/_subprocess' is a symbolic link (refused)"),
                  "%s", err);
    expect_outside_untouched();
    free(out);
    free(err);
    follower_case("mv " CELL " out/T/moved && ln -s ../../outside " CELL,
                  "'none-none' in 'none-none/_subprocess' is a symbolic link (refused)");
}
END_TEST

/* FIFOs planted at the names aorta-run writes (the payload knows its pid)
 * would block an open for ever, in the report phase too. */
START_TEST(fifos_planted_where_aorta_run_writes_block_nothing)
{
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 2\n"
                            "mitigation_axis: [none]\ndiagnostic_axis: [none]\n"
                            "env_passthrough_mode: file\n");
    char *args[] = {"--recipe", "recipe.yaml", "--output", "out", "--ticket", "T", "--", "sh",
                    "-c",
                    "for n in 0 1 2; do for f in out/T/matrix.json out/T/perf.md " CELL
                    "/trial_0/result.json " CELL "/_subprocess/trial_d0_m0_t0.json; do "
                    "mkfifo $f.tmp.$PPID.$n $f.tmp.$PPID; done; done; mkdir -p " CELL "/trial_1; mkfifo "
                    CELL "/trial_1/probe.env " CELL "/trial_1/stdout.log; true",
                    NULL};
    double started = now();
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(su_aorta(NULL, args, &out, &err), 0);
    ck_assert(now() - started < 20);
    ck_assert_ptr_nonnull(strstr(out, "Wrote run artifacts to out/T"));
    /* The planted probe.env is a setup failure of trial 1, not a hang. */
    ck_assert_msg(strstr(err, "trial_1: setup failed: cannot write ") && strstr(err, "probe.env"),
                  "%s", err);
    check_json_tree("out/T");
    free(out);
    free(err);
}
END_TEST

START_TEST(symlinks_planted_before_the_run_are_never_written_through)
{
    static const char *const PLANTED[] = {CELL, CELL "/trial_0", CELL "/_subprocess",
                                          CELL "/_subprocess/trial_d0_m0_t0"};
    for (size_t i = 0; i < sizeof PLANTED / sizeof PLANTED[0]; i++) {
        tu_rmtree("out");
        tu_rmtree("outside");
        tu_write("outside/keep", "keep\n");
        ck_assert_int_eq(tu_run((char *[]){"mkdir", "-p", (char *)PLANTED[i], NULL}, NULL, NULL,
                                NULL),
                         0);
        tu_rmtree(PLANTED[i]);
        char *target = ar_xasprintf("%s/outside", dir);
        ck_assert_int_eq(symlink(target, PLANTED[i]), 0);
        free(target);
        char *args[] = {"--plugin-dir", plugins, "--output", "out", "--ticket", "T",
                        "--collect", "badparse", "--", "true", NULL};
        char *out = NULL, *err = NULL;
        int status = su_aorta(NULL, args, &out, &err);
        ck_assert_msg(strstr(err, "symbolic link (refused)"), "%s: %s", PLANTED[i], err);
        ck_assert_msg(status == 0 || status == 1, "%s: exit %d", PLANTED[i], status);
        expect_outside_untouched();
        free(out);
        free(err);
    }
    /* A report replaced by a symlink: the link is replaced, not followed. */
    tu_rmtree("out");
    ck_assert_int_eq(tu_run((char *[]){"mkdir", "-p", "out/T", NULL}, NULL, NULL, NULL), 0);
    ck_assert_int_eq(symlink("../../outside/keep", "out/T/matrix.json"), 0);
    ck_assert_int_eq(su_aorta(NULL,
                              (char *[]){"--output", "out", "--ticket", "T", "--", "true", NULL},
                              NULL, NULL),
                     0);
    struct stat st;
    ck_assert_int_eq(lstat("out/T/matrix.json", &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    expect_outside_untouched();
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Failed writes are loud and honest                                         */
/* ------------------------------------------------------------------------ */

static off_t size_of(const char *path)
{
    struct stat st;
    ck_assert_msg(stat(path, &st) == 0, "%s is missing", path);
    return st.st_size;
}

/* aorta-run under a file size limit of limit bytes (SIGXFSZ ignored: a
 * write past it fails with EFBIG, as on a full disk). */
static char *read_all(int fd)
{
    size_t len = 0, capacity = 4096;
    char *text = malloc(capacity + 1);
    ssize_t got;
    while ((got = read(fd, text + len, capacity - len)) > 0) {
        len += (size_t)got;
        if (len == capacity)
            text = realloc(text, (capacity *= 2) + 1);
    }
    text[len] = '\0';
    close(fd);
    return text;
}

static int run_limited(const char *ticket, rlim_t limit, char **out, char **err)
{
    char *aorta = tu_aorta_run();
    char *args[] = {aorta, "--output", "out", "--ticket", (char *)ticket, "--", "sh", "-c",
                    "head -c 100000 /dev/zero", NULL};
    /* Pipes, not files: the limit would cut aorta-run's own messages. */
    int out_pipe[2], err_pipe[2];
    ck_assert_int_eq(pipe(out_pipe), 0);
    ck_assert_int_eq(pipe(err_pipe), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(out_pipe[1], 1);
        dup2(err_pipe[1], 2);
        struct rlimit lowered;
        getrlimit(RLIMIT_FSIZE, &lowered);
        lowered.rlim_cur = limit;
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &lowered);
        execv(aorta, args);
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    /* What aorta-run prints fits the pipes; read them once it is done. */
    int status = tu_wait(pid);
    *out = read_all(out_pipe[0]);
    *err = read_all(err_pipe[0]);
    free(aorta);
    return status;
}

/* No temporary left, every JSON file there whole. */
static void expect_no_partial_file(const char *path)
{
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        ck_assert_msg(!strstr(entry->d_name, ".tmp."), "%s/%s left", path, entry->d_name);
        char *child = tu_join(path, entry->d_name);
        struct stat st;
        ck_assert_int_eq(lstat(child, &st), 0);
        if (S_ISDIR(st.st_mode))
            expect_no_partial_file(child);
        free(child);
    }
    closedir(d);
    check_json_tree(path);
}

START_TEST(a_write_past_a_file_size_limit_is_one_line_and_exit_1)
{
    char *out = NULL, *err = NULL;
    /* The sizes of a run with no limit, for limits that fail one file each. */
    ck_assert_int_eq(run_limited("A", RLIM_INFINITY, &out, &err), 0);
    free(out);
    free(err);
    off_t trial_json = size_of("out/A/none-none/_subprocess/trial_d0_m0_t0.json");
    off_t matrix = size_of("out/A/matrix.json"), perf = size_of("out/A/perf.md");
    off_t host_env = size_of("out/A/host_env.json");
    off_t result = size_of("out/A/none-none/trial_0/result.json");
    ck_assert(trial_json > matrix && matrix > perf && perf > result && host_env < matrix);

    /* matrix.json and the trial JSON fail; perf.md, result.json are written. */
    off_t limit = matrix - 1 > host_env ? matrix - 1 : host_env;
    ck_assert_int_eq(run_limited("B", (rlim_t)limit, &out, &err), 1);
    ck_assert_msg(strstr(err, "aorta-run: cannot write out/B/none-none/trial_0/stdout.log: the "
                              "payload's output may be cut short"),
                  "%s", err);
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: cannot write "
                                      "out/B/none-none/_subprocess/trial_d0_m0_t0.json: File too "
                                      "large"));
    char *matrix_path = ar_xasprintf("aorta-run: cannot write %s/out/B/matrix.json: File too "
                                        "large",
                                        dir);
    ck_assert_msg(strstr(err, matrix_path), "%s", err);
    free(matrix_path);
    ck_assert_ptr_null(strstr(out, "Full matrix:"));
    ck_assert_ptr_nonnull(strstr(out, "Performance report: out/B/perf.md"));
    ck_assert_ptr_null(strstr(out, "Wrote run artifacts"));
    ck_assert_ptr_nonnull(strstr(out, "incomplete"));
    ck_assert(!tu_exists("out/B/matrix.json"));
    expect_no_partial_file("out/B");
    free(out);
    free(err);

    /* host_env.json first. */
    ck_assert_int_eq(run_limited("C", (rlim_t)(host_env - 1), &out, &err), 1);
    ck_assert_msg(strstr(err, "aorta-run: cannot write out/C/host_env.json: File too large"), "%s", err);
    ck_assert_ptr_null(strstr(out, "Full matrix:"));
    ck_assert_ptr_null(strstr(out, "Wrote run artifacts"));
    expect_no_partial_file("out/C");
    free(out);
    free(err);

    /* The lock. */
    ck_assert_int_eq(run_limited("D", 8, &out, &err), 1);
    ck_assert_msg(strstr(err, "aorta-run: cannot write the lock ") && strstr(err, "File too large"),
                  "%s", err);
    ck_assert_ptr_null(strstr(out, "Wrote run artifacts"));
    free(out);
    free(err);
}
END_TEST

/* ------------------------------------------------------------------------ */

static Suite *hostile_suite(void)
{
    Suite *suite = suite_create("platform hostile");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, every_json_file_of_a_hostile_run_is_strict_utf8);
    tcase_add_test(tc, a_hostile_sidecar_is_refused_before_anything_is_written);
    tcase_add_test(tc, a_fifo_device_or_socket_named_as_recipe_or_sidecar_is_refused_unopened);
    tcase_add_test(tc, sigint_ends_a_hung_parse_at_once);
    tcase_add_test(tc, sigterm_ends_a_hung_parse_at_once);
    tcase_add_test(tc, a_signal_during_the_first_trial_stops_the_probe_too);
    tcase_add_test(tc, a_signal_while_the_probe_is_awaited_is_prompt);
    tcase_add_test(tc, a_signal_during_a_trial_is_prompt);
    tcase_add_test(tc, a_signal_during_the_reports_is_prompt);
    tcase_add_test(tc, a_demangler_bomb_leaves_the_reports_small_and_fast);
    tcase_add_test(tc, a_payload_that_ignores_sigterm_is_killed_after_the_grace);
    tcase_add_test(tc, what_a_payload_leaves_running_is_killed_with_a_warning);
    tcase_add_test(tc, a_daemon_a_parse_starts_is_killed_and_its_stdout_kept_apart);
    tcase_add_test(tc, the_payload_and_a_parse_die_with_aorta_run);
    tcase_add_test(tc, a_parse_past_its_memory_limit_costs_only_its_metrics);
    tcase_add_test(tc, the_parse_memory_limit_reads_bytes_and_suffixes);
    tcase_add_test(tc, a_payload_that_swaps_a_directory_for_a_symlink_writes_nothing_outside);
    tcase_add_test(tc, an_all_ranks_follower_never_writes_through_a_swapped_symlink);
    tcase_add_test(tc, symlinks_planted_before_the_run_are_never_written_through);
    tcase_add_test(tc, fifos_planted_where_aorta_run_writes_block_nothing);
    tcase_add_test(tc, a_write_past_a_file_size_limit_is_one_line_and_exit_1);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(hostile_suite)
