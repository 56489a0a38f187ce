/* SPDX-License-Identifier: MIT */
/* Multi-rank runs, the parts that need no launcher: the rank placeholder,
 * the helper's location, aorta-rank-exec itself, the rank<k>/ listing, and
 * the per-rank parses and their merge (the same whatever order the parse
 * children finish in; the same figures as one parse of the whole
 * directory). */
#include "config.h"

#include <fcntl.h>
#include <time.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "registry/registry.h"
#include "sweep/parse_child.h"
#include "sweep/rank_env.h"
#include "sweep/rank_exec_path.h"
#include "sweep/rank_node.h"
#include "sweep/rank_parse.h"
#include "testutil.h"
#include "xalloc.h"

static ar_registry_t *registry;
static const ar_module_t *ranked;
static char *dir;

static void setup(void)
{
    registry = tu_registry("tests/fake-collectors/ranks");
    ranked = tu_plugin(registry, "ranked");
    dir = tu_tmpdir();
    setenv("AORTA_PARSE_TIMEOUT", "20", 1);
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
    ar_registry_free(registry);
}

START_TEST(the_placeholder_is_replaced_everywhere)
{
    char *out = ar_rank_expand("/r/rank%AORTA_RANK%/x%AORTA_RANK%", 12);
    ck_assert_str_eq(out, "/r/rank12/x12");
    free(out);
    out = ar_rank_expand("no placeholder %AORTA_RANK", 3);
    ck_assert_str_eq(out, "no placeholder %AORTA_RANK");
    free(out);
}
END_TEST

START_TEST(the_first_rank_variable_set_wins)
{
    unsetenv("RANK");
    unsetenv("OMPI_COMM_WORLD_RANK");
    unsetenv("PMI_RANK");
    unsetenv("SLURM_PROCID");
    long rank = -1;
    const char *var = NULL, *text = NULL;
    ck_assert_int_eq(ar_rank_read(&rank, &var, &text), 0);
    setenv("SLURM_PROCID", "5", 1);
    setenv("OMPI_COMM_WORLD_RANK", "2", 1);
    ck_assert_int_eq(ar_rank_read(&rank, &var, &text), 1);
    ck_assert_int_eq(rank, 2);
    ck_assert_str_eq(var, "OMPI_COMM_WORLD_RANK");
    setenv("RANK", "-1", 1);
    ck_assert_int_eq(ar_rank_read(&rank, &var, &text), -1);
    ck_assert_str_eq(var, "RANK");
    /* A rank past the documented maximum is not a rank either. */
    setenv("RANK", "65535", 1);
    ck_assert_int_eq(ar_rank_read(&rank, &var, &text), 1);
    ck_assert_int_eq(rank, 65535);
    setenv("RANK", "65536", 1);
    ck_assert_int_eq(ar_rank_read(&rank, &var, &text), -1);
    setenv("RANK", "9223372036854775808", 1);
    ck_assert_int_eq(ar_rank_read(&rank, &var, &text), -1);
    unsetenv("RANK");
    unsetenv("OMPI_COMM_WORLD_RANK");
    unsetenv("SLURM_PROCID");
}
END_TEST

/* A world size past AR_RANK_MAX is -1, naming the variable that was past
 * it; garbage is skipped for the next variable. */
START_TEST(the_world_size_is_capped)
{
    const char *var = NULL, *text = NULL;
    setenv("WORLD_SIZE", "4", 1);
    ck_assert_int_eq(ar_rank_world_size(&var, &text), 4);
    ck_assert_ptr_null(var);
    setenv("WORLD_SIZE", "65536", 1);
    ck_assert_int_eq(ar_rank_world_size(&var, &text), 65536);
    ck_assert_ptr_null(var);
    setenv("WORLD_SIZE", "9223372036854775807", 1);
    ck_assert_int_eq(ar_rank_world_size(&var, &text), -1);
    ck_assert_str_eq(var, "WORLD_SIZE");
    ck_assert_str_eq(text, "9223372036854775807");
    setenv("WORLD_SIZE", "65537", 1);
    ck_assert_int_eq(ar_rank_world_size(&var, &text), -1);
    setenv("WORLD_SIZE", "99999999999999999999999", 1);
    ck_assert_int_eq(ar_rank_world_size(&var, &text), -1);
    setenv("WORLD_SIZE", "x", 1);
    setenv("PMI_SIZE", "3", 1);
    ck_assert_int_eq(ar_rank_world_size(&var, &text), 3);
    unsetenv("WORLD_SIZE");
    unsetenv("PMI_SIZE");
}
END_TEST

START_TEST(relative_dir_from_bindir_to_libexec)
{
    char *rel = ar_relative_dir("/usr/bin", "/usr/libexec/aorta");
    ck_assert_str_eq(rel, "../libexec/aorta");
    free(rel);
    rel = ar_relative_dir("/opt/a/bin", "/opt/a/lib/x86_64-linux-gnu/aorta");
    ck_assert_str_eq(rel, "../lib/x86_64-linux-gnu/aorta");
    free(rel);
    rel = ar_relative_dir("/usr/binx", "/usr/bin/aorta");
    ck_assert_str_eq(rel, "../bin/aorta");
    free(rel);
}
END_TEST

START_TEST(libexec_override_is_used_alone)
{
    char *error = NULL;
    setenv("AORTA_LIBEXEC_DIR", dir, 1);
    ck_assert_ptr_null(ar_rank_exec_path(&error));
    ck_assert_ptr_nonnull(strstr(error, "AORTA_LIBEXEC_DIR"));
    free(error);
    char *core = tu_builddir("core");
    setenv("AORTA_LIBEXEC_DIR", core, 1);
    char *path = ar_rank_exec_path(&error);
    ck_assert_ptr_nonnull(path);
    ck_assert_ptr_nonnull(strstr(path, "core/aorta-rank-exec"));
    free(path);
    free(core);
    unsetenv("AORTA_LIBEXEC_DIR");
}
END_TEST

START_TEST(the_helper_creates_the_rank_dir_and_fills_argv_and_env)
{
    char *helper = tu_builddir("core/aorta-rank-exec");
    char *mk = ar_xasprintf("%s/c/rank%%AORTA_RANK%%", dir);
    char *parent = tu_join(dir, "c");
    mkdir(parent, 0755);
    char *argv[] = {helper, "--mkdir", mk, "--", "/usr/bin/printenv", "PROBE", NULL};
    char *env[] = {"OMPI_COMM_WORLD_RANK=3", "RANK", "PMI_RANK", "SLURM_PROCID",
                   "PROBE=at/rank%AORTA_RANK%/x", NULL};
    char *out = NULL;
    ck_assert_int_eq(tu_run(argv, env, &out, NULL), 0);
    ck_assert_str_eq(out, "at/rank3/x\n");
    char *made = tu_join(dir, "c/rank3");
    struct stat st;
    ck_assert_int_eq(stat(made, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    free(out);
    /* Two processes claiming one rank are told, not silently mixed. */
    char *err = NULL;
    ck_assert_int_eq(tu_run(argv, env, NULL, &err), 0);
    ck_assert_ptr_nonnull(strstr(err, "another process of this job has rank 3"));
    free(err);
    char *bad[] = {"RANK=x", NULL};
    ck_assert_int_eq(tu_run(argv, bad, NULL, NULL), 125);
    char *missing[] = {helper, "--", "/nonexistent/program", NULL};
    ck_assert_int_eq(tu_run(missing, NULL, NULL, NULL), 127);
    /* --node-file: a profiled rank notes its node; an unlisted one does not. */
    char *node_file = ar_xasprintf("%s/c/rank%%AORTA_RANK%%.node", dir);
    char *noted[] = {helper, "--node-file", node_file, "--", "/bin/true", NULL};
    ck_assert_int_eq(tu_run(noted, env, NULL, NULL), 0);
    char *note_path = tu_join(dir, "c/rank3.node");
    char *note = tu_read(note_path);
    struct utsname host;
    ck_assert_int_eq(uname(&host), 0);
    char *expected = ar_xasprintf("%s\n", host.nodename);
    ck_assert_str_eq(note, expected);
    unlink(note_path);
    char *unlisted[] = {helper, "--node-file", node_file, "--ranks", "0", "--bare-at", "0", "--",
                        "/bin/true", NULL};
    ck_assert_int_eq(tu_run(unlisted, env, NULL, NULL), 0);
    ck_assert(!tu_exists(note_path));
    free(expected);
    free(note);
    free(note_path);
    free(node_file);
    free(made);
    free(parent);
    free(mk);
    free(helper);
}
END_TEST

/* --ranks: a listed rank wraps and gets its rank<k>/; an unlisted one execs
 * the bare command (words --bare-at on), without the variables the wrap
 * carried (env NAME=VALUE in the argv) and without a rank<k>/; with
 * --wrapped-end the wrapped command ends there and the bare one follows. */
START_TEST(the_helper_runs_an_unlisted_rank_bare)
{
    char *helper = tu_builddir("core/aorta-rank-exec");
    char *mk = ar_xasprintf("%s/c/rank%%AORTA_RANK%%", dir);
    char *parent = tu_join(dir, "c");
    mkdir(parent, 0755);
    char *argv[] = {helper, "--mkdir", mk, "--ranks", "0,3-4", "--bare-at", "2", "--",
                    "/usr/bin/env", "WRAP=rank%AORTA_RANK%", "/bin/sh", "-c",
                    "echo \"${WRAP-unset} $PROBE\"", NULL};
    char *listed[] = {"OMPI_COMM_WORLD_RANK=3", "RANK", "PMI_RANK", "SLURM_PROCID", "WRAP",
                      "PROBE=p%AORTA_RANK%", NULL};
    char *out = NULL;
    ck_assert_int_eq(tu_run(argv, listed, &out, NULL), 0);
    ck_assert_str_eq(out, "rank3 p3\n");
    free(out);
    char *made = tu_join(dir, "c/rank3");
    ck_assert(tu_exists(made));
    char *unlisted[] = {"OMPI_COMM_WORLD_RANK=1", "RANK", "PMI_RANK", "SLURM_PROCID", "WRAP",
                        "PROBE=p%AORTA_RANK%", NULL};
    ck_assert_int_eq(tu_run(argv, unlisted, &out, NULL), 0);
    ck_assert_str_eq(out, "unset p1\n");
    free(out);
    char *not_made = tu_join(dir, "c/rank1");
    ck_assert(!tu_exists(not_made));
    /* A collector that rewrote the command: wrapped words 0..1, bare 2.. */
    char *split[] = {helper, "--ranks", "3", "--bare-at", "2", "--wrapped-end", "2", "--",
                     "/bin/echo", "wrapped", "/bin/echo", "bare", NULL};
    ck_assert_int_eq(tu_run(split, listed, &out, NULL), 0);
    ck_assert_str_eq(out, "wrapped\n");
    free(out);
    ck_assert_int_eq(tu_run(split, unlisted, &out, NULL), 0);
    ck_assert_str_eq(out, "bare\n");
    free(out);
    /* Its own mistakes: exit 125, said. */
    char *err = NULL;
    char *no_at[] = {helper, "--ranks", "3", "--", "/bin/true", NULL};
    ck_assert_int_eq(tu_run(no_at, listed, NULL, &err), 125);
    ck_assert_ptr_nonnull(strstr(err, "--ranks needs --bare-at N"));
    free(err);
    char *past[] = {helper, "--ranks", "3", "--bare-at", "1", "--", "/bin/true", NULL};
    ck_assert_int_eq(tu_run(past, listed, NULL, &err), 125);
    ck_assert_ptr_nonnull(strstr(err, "--ranks needs --bare-at N"));
    free(err);
    char *bad_index[] = {helper, "--ranks", "3", "--bare-at", "9", "--", "/bin/true", NULL};
    ck_assert_int_eq(tu_run(bad_index, listed, NULL, &err), 125);
    ck_assert_ptr_nonnull(strstr(err, "--bare-at: expected a word index from 0 to 1, got '9'"));
    free(err);
    char *bad_list[] = {helper, "--ranks", "3,3", "--bare-at", "0", "--", "/bin/true", NULL};
    ck_assert_int_eq(tu_run(bad_list, listed, NULL, &err), 125);
    ck_assert_ptr_nonnull(strstr(err, "--ranks: rank 3 is listed twice"));
    free(err);
    char *unknown[] = {helper, "--bare-unset", "X", "--", "/bin/true", NULL};
    ck_assert_int_eq(tu_run(unknown, listed, NULL, &err), 125);
    ck_assert_ptr_nonnull(strstr(err, "usage: aorta-rank-exec"));
    free(err);
    free(not_made);
    free(made);
    free(parent);
    free(mk);
    free(helper);
}
END_TEST

static void write_rank(const char *root, long rank, const char *ms, const char *delay)
{
    char *sub = ar_xasprintf("%s/rank%ld", root, rank);
    mkdir(sub, 0755);
    if (ms) {
        char *path = tu_join(sub, "ms");
        tu_write(path, ms);
        free(path);
    }
    if (delay) {
        char *path = tu_join(sub, "delay");
        tu_write(path, delay);
        free(path);
    }
    free(sub);
}

START_TEST(rank_dirs_are_listed_in_rank_order_without_symlinks)
{
    write_rank(dir, 10, NULL, NULL);
    write_rank(dir, 2, NULL, NULL);
    write_rank(dir, 0, NULL, NULL);
    char *odd = tu_join(dir, "rank01");
    mkdir(odd, 0755);
    free(odd);
    char *other = tu_join(dir, "ranks");
    mkdir(other, 0755);
    free(other);
    char *link = tu_join(dir, "rank7");
    ck_assert_int_eq(symlink(dir, link), 0);
    free(link);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    long *ranks = NULL;
    ck_assert_uint_eq(ar_rank_dirs(fd, &ranks), 3);
    ck_assert_int_eq(ranks[0], 0);
    ck_assert_int_eq(ranks[1], 2);
    ck_assert_int_eq(ranks[2], 10);
    free(ranks);
    close(fd);
}
END_TEST

static double metric_double(const aorta_metrics_t *metrics, const char *key)
{
    const aorta_metric_t *metric = aorta_metrics_find(metrics, key);
    ck_assert_msg(metric != NULL, "%s missing", key);
    return metric->type == AORTA_METRIC_DOUBLE ? metric->double_value : (double)metric->int_value;
}

static aorta_metrics_t *rank_metrics_with(size_t jobs)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    long *ranks = NULL;
    size_t count = ar_rank_dirs(fd, &ranks);
    close(fd);
    ar_rank_result_t *results = ar_xcalloc(count, sizeof *results);
    ar_rank_parse_all(ranked, NULL, dir, ranks, count, jobs, results);
    aorta_metrics_t *metrics = aorta_metrics_new("ranked_");
    ar_rank_merge("ranked", results, count, metrics);
    ar_rank_set_clear(&(ar_rank_set_t){results, count});
    free(ranks);
    return metrics;
}

START_TEST(merge_is_the_same_whatever_order_the_parses_finish)
{
    /* Rank 0 sleeps longest, so in parallel the children finish last rank
     * first; rank 3 wrote nothing (0 ms). */
    write_rank(dir, 0, "1.5", "400");
    write_rank(dir, 1, "2.5", "250");
    write_rank(dir, 2, "4.0", "100");
    write_rank(dir, 3, NULL, NULL);
    write_rank(dir, 4, "0.5", "0");
    aorta_metrics_t *serial = rank_metrics_with(1);
    aorta_metrics_t *parallel = rank_metrics_with(5);
    const char *keys[] = {"ranked_rank_count", "ranked_ranks_with_data",
                          "ranked_gpu_time_ms_rank_min", "ranked_gpu_time_ms_rank_max", NULL};
    for (size_t i = 0; keys[i]; i++)
        ck_assert_double_eq(metric_double(serial, keys[i]), metric_double(parallel, keys[i]));
    ck_assert_double_eq(metric_double(parallel, "ranked_rank_count"), 5);
    ck_assert_double_eq(metric_double(parallel, "ranked_ranks_with_data"), 4);
    ck_assert_double_eq(metric_double(parallel, "ranked_gpu_time_ms_rank_min"), 0.0);
    ck_assert_double_eq(metric_double(parallel, "ranked_gpu_time_ms_rank_max"), 4.0);
    aorta_metrics_free(serial);
    aorta_metrics_free(parallel);
}
END_TEST

/* Each rank's kernel table comes back with its figures; one too large for
 * the reply is cut with one warning, its metrics whole. */
static void parse_two_ranks(void *user)
{
    ar_rank_set_t *set = user;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    aorta_metrics_t *metrics = aorta_metrics_new("ranked_");
    ar_rank_metrics(ranked, NULL, fd, dir, NULL, 0, metrics, set);
    close(fd);
    aorta_metrics_free(metrics);
}

START_TEST(each_ranks_table_comes_back_and_a_huge_one_is_cut_with_one_warning)
{
    write_rank(dir, 0, NULL, NULL);
    write_rank(dir, 1, NULL, NULL);
    char *small = tu_join(dir, "rank0/kernels"), *huge = tu_join(dir, "rank1/kernels");
    tu_write(small, "3");
    tu_write(huge, "60000"); /* 60,000 rows of 300-byte names: past 16 MiB */
    ar_rank_set_t set = {0};
    char *err = tu_stderr_of(parse_two_ranks, &set);
    ck_assert_uint_eq(set.count, 2);
    const aorta_kernels_t *k0 = aorta_metrics_kernels(set.results[0].metrics);
    ck_assert_ptr_nonnull(k0);
    ck_assert_uint_eq(aorta_kernels_count(k0), 3);
    const aorta_kernels_t *k1 = aorta_metrics_kernels(set.results[1].metrics);
    ck_assert_ptr_nonnull(k1);
    ck_assert(aorta_kernels_count(k1) > 1000 && aorta_kernels_count(k1) < 60000);
    ck_assert(set.results[1].has_data);
    ck_assert(fabs(set.results[1].gpu_ms - 60.0) < 1e-6); /* 60,000 x 1 us: whole */
    ck_assert_msg(strstr(err, "kernel table of ") && strstr(err, "/rank1 cut to ")
                      && strstr(err, "of its 60000 kernels"),
                  "%s", err);
    ck_assert_ptr_null(strstr(strstr(err, "cut to ") + 1, "cut to ")); /* once */
    ar_rank_set_clear(&set);
    ck_assert_ptr_null(set.results);
    free(err);
    free(small);
    free(huge);
}
END_TEST

/* The timeline's one clock needs every rank to have noted one node. */
START_TEST(ranks_share_a_node_only_when_every_one_noted_the_same)
{
    int run_fd = open(dir, O_RDONLY | O_DIRECTORY);
    ck_assert_int_eq(ar_rank_node_note(run_fd, "t", 0), 0);
    ck_assert_int_eq(ar_rank_node_note(run_fd, "t", 1), 0);
    long both[] = {0, 1}, three[] = {0, 1, 2};
    ck_assert_int_eq(ar_rank_nodes_one(run_fd, "t", both, 2), 1);
    ck_assert_int_eq(ar_rank_nodes_one(run_fd, "t", three, 3), 0); /* rank 2 noted nothing */
    ck_assert_int_eq(ar_rank_nodes_one(run_fd, "t", both, 0), 0);
    ck_assert_int_eq(ar_rank_nodes_one(run_fd, "absent", both, 2), 0);
    char *other = tu_join(dir, "t/rank1.node");
    tu_write(other, "another-node\n");
    ck_assert_int_eq(ar_rank_nodes_one(run_fd, "t", both, 2), 0);
    free(other);
    char *name = ar_rank_node_file(-1);
    ck_assert_str_eq(name, "rank%AORTA_RANK%.node");
    free(name);
    close(run_fd);
}
END_TEST

START_TEST(parallel_parses_overlap)
{
    for (long r = 0; r < 4; r++)
        write_rank(dir, r, "1", "500");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    aorta_metrics_t *metrics = rank_metrics_with(4);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    /* Four half-second parses, serial, would take two seconds. */
    ck_assert_msg(seconds < 1.6, "4 parses of 0.5 s took %.2f s with 4 jobs", seconds);
    aorta_metrics_free(metrics);
}
END_TEST

/* Chosen ranks: only their rank<k>/ count (a stale one of another rank is
 * not this attempt's), and <c>_ranks_profiled names them. */
START_TEST(only_the_chosen_ranks_folders_count)
{
    write_rank(dir, 0, "1.0", NULL);
    write_rank(dir, 1, "2.0", NULL);
    write_rank(dir, 3, "4.0", NULL);
    long listed[] = {1, 3, 4, 5, 6};
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    aorta_metrics_t *metrics = aorta_metrics_new("ranked_");
    ar_rank_metrics(ranked, NULL, fd, dir, listed, 5, metrics, NULL);
    ck_assert_double_eq(metric_double(metrics, "ranked_rank_count"), 2);
    ck_assert_double_eq(metric_double(metrics, "ranked_gpu_time_ms_rank_min"), 2.0);
    ck_assert_double_eq(metric_double(metrics, "ranked_gpu_time_ms_rank_max"), 4.0);
    const aorta_metric_t *profiled = aorta_metrics_find(metrics, "ranked_ranks_profiled");
    ck_assert_ptr_nonnull(profiled);
    ck_assert_int_eq(profiled->type, AORTA_METRIC_STRING);
    ck_assert_str_eq(profiled->string_value, "1, 3-6");
    aorta_metrics_free(metrics);
    /* Without a list: every folder, no ranks_profiled. */
    metrics = aorta_metrics_new("ranked_");
    ar_rank_metrics(ranked, NULL, fd, dir, NULL, 0, metrics, NULL);
    ck_assert_double_eq(metric_double(metrics, "ranked_rank_count"), 3);
    ck_assert_ptr_null(aorta_metrics_find(metrics, "ranked_ranks_profiled"));
    aorta_metrics_free(metrics);
    close(fd);
}
END_TEST

START_TEST(per_rank_figures_agree_with_one_parse_of_the_whole_directory)
{
    write_rank(dir, 0, "1.25", NULL);
    write_rank(dir, 1, "2.5", NULL);
    write_rank(dir, 2, NULL, NULL);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    long *ranks = NULL;
    size_t count = ar_rank_dirs(fd, &ranks);
    close(fd);
    ar_rank_result_t *results = ar_xcalloc(count, sizeof *results);
    ar_rank_parse_all(ranked, NULL, dir, ranks, count, 0, results);
    double sum = 0;
    for (size_t i = 0; i < count; i++)
        sum += results[i].gpu_ms;
    aorta_metrics_t *whole = ar_parse_in_child(ranked, NULL, dir);
    ck_assert_double_eq_tol(metric_double(whole, "ranked_gpu_time_ms"), sum, 1e-9);
    aorta_metrics_free(whole);
    ar_rank_set_clear(&(ar_rank_set_t){results, count});
    free(ranks);
}
END_TEST

START_TEST(a_crashing_or_missing_rank_costs_only_its_figures)
{
    write_rank(dir, 0, "3", NULL);
    write_rank(dir, 1, "1", "60000"); /* past the parse timeout below */
    setenv("AORTA_PARSE_TIMEOUT", "1", 1);
    aorta_metrics_t *metrics = rank_metrics_with(2);
    ck_assert_double_eq(metric_double(metrics, "ranked_rank_count"), 2);
    ck_assert_double_eq(metric_double(metrics, "ranked_ranks_with_data"), 1);
    ck_assert_double_eq(metric_double(metrics, "ranked_gpu_time_ms_rank_min"), 0);
    ck_assert_double_eq(metric_double(metrics, "ranked_gpu_time_ms_rank_max"), 3);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(parse_jobs_reads_its_variable)
{
    setenv("AORTA_PARSE_JOBS", "3", 1);
    ck_assert_uint_eq(ar_parse_jobs(), 3);
    unsetenv("AORTA_PARSE_JOBS");
    ck_assert_uint_ge(ar_parse_jobs(), 1);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ranks");
    TCase *tc = tcase_create("ranks");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, the_placeholder_is_replaced_everywhere);
    tcase_add_test(tc, the_first_rank_variable_set_wins);
    tcase_add_test(tc, the_world_size_is_capped);
    tcase_add_test(tc, relative_dir_from_bindir_to_libexec);
    tcase_add_test(tc, libexec_override_is_used_alone);
    tcase_add_test(tc, the_helper_creates_the_rank_dir_and_fills_argv_and_env);
    tcase_add_test(tc, the_helper_runs_an_unlisted_rank_bare);
    tcase_add_test(tc, only_the_chosen_ranks_folders_count);
    tcase_add_test(tc, rank_dirs_are_listed_in_rank_order_without_symlinks);
    tcase_add_test(tc, merge_is_the_same_whatever_order_the_parses_finish);
    tcase_add_test(tc, parallel_parses_overlap);
    tcase_add_test(tc, ranks_share_a_node_only_when_every_one_noted_the_same);
    tcase_add_test(tc, each_ranks_table_comes_back_and_a_huge_one_is_cut_with_one_warning);
    tcase_add_test(tc, per_rank_figures_agree_with_one_parse_of_the_whole_directory);
    tcase_add_test(tc, a_crashing_or_missing_rank_costs_only_its_figures);
    tcase_add_test(tc, parse_jobs_reads_its_variable);
    suite_add_tcase(s, tc);
    return s;
}

AORTA_CHECK_MAIN(suite)
