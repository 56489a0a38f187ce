/* SPDX-License-Identifier: MIT */
/* Units of the run platform: SHA-256, perf.md formatting, the trial
 * metrics overlay, verdict derivation, retention, the lock, rank
 * detection. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "record/host_env.h"
#include "record/lock.h"
#include "report/matrix.h"
#include "record/outcome.h"
#include "report/perf_md.h"
#include "sweeputil.h"
#include "sweep/rank.h"
#include "record/retention.h"
#include "sys/sha256.h"
#include "report/summary.h"
#include "sweep/fingerprint.h"
#include "record/trial_json.h"
#include "xalloc.h"

static void digest_of(const char *data, size_t len, size_t chunk, char out[65])
{
    ar_sha256_t ctx;
    ar_sha256_init(&ctx);
    for (size_t done = 0; done < len; done += chunk)
        ar_sha256_update(&ctx, data + done, len - done < chunk ? len - done : chunk);
    ar_sha256_hex(&ctx, out);
}

START_TEST(sha256_matches_the_fips_vectors)
{
    char out[65];
    digest_of("", 0, 1, out);
    ck_assert_str_eq(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    digest_of("abc", 3, 1, out);
    ck_assert_str_eq(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    digest_of(two_blocks, strlen(two_blocks), 7, out);
    ck_assert_str_eq(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char *million = malloc(1000000);
    memset(million, 'a', 1000000);
    digest_of(million, 1000000, 4099, out);
    ck_assert_str_eq(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(million);
}
END_TEST

/* Padding boundaries, against coreutils' sha256sum as the oracle. */
START_TEST(sha256_agrees_with_sha256sum_at_block_boundaries)
{
    char *dir = tu_tmpdir();
    static const size_t lengths[] = {55, 56, 57, 63, 64, 65, 119, 120, 128, 100000};
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        char *text = malloc(lengths[i] + 1);
        for (size_t j = 0; j < lengths[i]; j++)
            text[j] = (char)('a' + (j * 7 + i) % 26);
        text[lengths[i]] = '\0';
        char *path = tu_join(dir, "data");
        tu_write(path, text);
        char mine[65];
        ck_assert_int_eq(ar_sha256_file(path, mine), 0);
        char *out = NULL;
        ck_assert_int_eq(tu_run((char *[]){"sha256sum", path, NULL}, NULL, &out, NULL), 0);
        ck_assert_msg(strncmp(out, mine, 64) == 0, "length %zu: %s vs %s", lengths[i], mine, out);
        free(out);
        free(path);
        free(text);
    }
    char *missing = tu_join(dir, "missing");
    char *link = tu_join(dir, "link");
    char out[65];
    ck_assert_int_eq(ar_sha256_file(missing, out), -1);
    ck_assert_int_eq(symlink("data", link), 0);
    ck_assert_int_eq(ar_sha256_file(link, out), -1); /* never through a symlink */
    free(missing);
    free(link);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(thousands_separators_follow_python_format)
{
    static const struct {
        double value;
        const char *text;
    } cases[] = {
        {0.0, "0.000"},          {12345.678, "12,345.678"}, {-1234567.5, "-1,234,567.500"},
        {999.9995, "1,000.000"}, {100.0, "100.000"},        {1000.0, "1,000.000"},
        {-0.25, "-0.250"},       {123456.0, "123,456.000"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = ar_perf_thousands(cases[i].value);
        ck_assert_str_eq(text, cases[i].text);
        free(text);
    }
    ck_assert(ar_round3(1400.92566) == 1400.926);
    ck_assert(ar_round3(0.0005) == 0.001 || ar_round3(0.0005) == 0.0); /* binary value */
    ck_assert(ar_round3(2.0) == 2.0);
    /* A resumed trial JSON can hold any wall clock. */
    ck_assert(ar_round3(1e300) == 1e300);
    ck_assert(ar_round3(-1.7976931348623157e308) == -1.7976931348623157e308);
}
END_TEST

static ar_json_t *stats(double mean)
{
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "mean", ar_json_double(mean));
    ar_json_set(obj, "min", ar_json_double(mean));
    ar_json_set(obj, "max", ar_json_double(mean));
    ar_json_set(obj, "n", ar_json_double(1.0));
    return obj;
}

static ar_json_t *timed_cell(const char *name)
{
    ar_json_t *cell = ar_json_object();
    ar_json_set(cell, "name", ar_json_string(name));
    ar_json_set(cell, "trials", ar_json_int(3));
    ar_json_set(cell, "iters_display", ar_json_string("1/1"));
    static const char *const keys[] = {"mean_step_time_ms", "std_step_time_ms",
                                       "min_step_time_ms", "p50_step_time_ms",
                                       "p90_step_time_ms", "p99_step_time_ms",
                                       "max_step_time_ms"};
    static const double values[] = {1400.926, 9.568, 1388.907, 1401.552, 1410.165, 1412.103,
                                    1412.318};
    for (size_t i = 0; i < 7; i++)
        ar_json_set(cell, keys[i], ar_json_double(values[i]));
    ar_json_set(cell, "mean_wall_clock_sec", ar_json_double(1.401));
    ar_json_set(cell, "step_time_source", ar_json_string("wall_clock_total"));
    ar_json_set(cell, "error", NULL);
    ar_json_t *summary = ar_json_object();
    ar_json_set(summary, "rocprof_kernel_count", stats(23.0));
    ar_json_set(summary, "exit_code", stats(0.0));
    ar_json_set(summary, "rocprof_gpu_time_ms", stats(12345.6789));
    ar_json_set(cell, "metrics_summary", summary);
    return cell;
}

/* The spec's example table, plus a cell with no timing and one that did
 * not run, byte for byte. */
START_TEST(perf_md_is_formatted_byte_for_byte)
{
    ar_json_t *matrix = ar_json_object();
    ar_json_set(matrix, "workload", ar_json_string("_subprocess"));
    ar_json_set(matrix, "ticket", ar_json_string("PROFILING-HIP-GEMM"));
    ar_json_set(matrix, "run_timestamp", ar_json_string("2026-06-01T10-00-00"));
    ar_json_set(matrix, "baseline_cell", ar_json_string("none-none"));
    ar_json_t *cells = ar_json_array();
    ar_json_append(cells, timed_cell("none-none"));
    ar_json_t *untimed = ar_json_object();
    ar_json_set(untimed, "name", ar_json_string("x-none"));
    ar_json_set(untimed, "trials", ar_json_int(2));
    ar_json_set(untimed, "iters_display", ar_json_string("0/1"));
    ar_json_set(untimed, "mean_wall_clock_sec", ar_json_double(0.0125));
    ar_json_set(untimed, "step_time_source", ar_json_string("missing"));
    ar_json_set(untimed, "error", NULL);
    ar_json_t *summary = ar_json_object();
    ar_json_set(summary, "exit_code", stats(-1234.5));
    ar_json_set(untimed, "metrics_summary", summary);
    ar_json_append(cells, untimed);
    ar_json_t *broken = ar_json_object();
    ar_json_set(broken, "name", ar_json_string("y-none"));
    ar_json_set(broken, "trials", ar_json_int(0));
    ar_json_set(broken, "iters_display", ar_json_string(AR_EM_DASH));
    ar_json_set(broken, "step_time_source", ar_json_string("missing"));
    ar_json_set(broken, "error", ar_json_string("not run"));
    ar_json_set(broken, "metrics_summary", ar_json_object());
    ar_json_append(cells, broken);
    ar_json_set(matrix, "cells", cells);
    char *text = ar_perf_md(matrix, 4.25, NULL);
    const char *expected =
        "# Performance Report - \\_subprocess\n"
        "\n"
        "**Ticket**: PROFILING-HIP-GEMM  \n"
        "**Workload**: \\_subprocess  \n"
        "**Run timestamp**: 2026-06-01T10:00:00Z  \n"
        "**Baseline cell**: none-none  \n"
        "**Run wall time**: 4.250 s  \n"
        "\n"
        "Step timing and workload metrics of every cell, aggregated from the trial JSON files "
        "under `<cell>/_subprocess/`. Verdicts, counts, failure hints and the full metric "
        "statistics are in `matrix.json`.\n"
        "\n"
        "## Step timing (ms)\n"
        "\n"
        "| Cell                 | Trials | Iters | Mean     | Std   | Min      | p50      | p90      | p99      | Max      | Wall/trial (s) | Source           |\n"
        "|----------------------|--------|-------|----------|-------|----------|----------|----------|----------|----------|----------------|------------------|\n"
        "| none-none (baseline) | 3      | 1/1   | 1400.926 | 9.568 | 1388.907 | 1401.552 | 1410.165 | 1412.103 | 1412.318 | 1.401          | wall_clock_total |\n"
        "| x-none               | 2      | 0/1   | n/a      | n/a   | n/a      | n/a      | n/a      | n/a      | n/a      | 0.013          | missing          |\n"
        "| y-none               | 0      | \xe2\x80\x94     | error    | error | error    | error    | error    | error    | error    | error          | missing          |\n"
        "\n"
        "## Workload metrics (mean across trials)\n"
        "\n"
        "| Cell                 | exit_code  | rocprof_gpu_time_ms | rocprof_kernel_count |\n"
        "|----------------------|------------|---------------------|----------------------|\n"
        "| none-none (baseline) | 0          | 12,345.679          | 23                   |\n"
        "| x-none               | -1,234.500 | \xe2\x80\x94                   | \xe2\x80\x94                    |\n"
        "| y-none               | \xe2\x80\x94          | \xe2\x80\x94                   | \xe2\x80\x94                    |\n"
        "\n"
        "> Values are means over each cell's passing trials; min, max and n are in "
        "`matrix.json` (`metrics_summary`); \xe2\x80\x94 = not reported.\n"
        "\n"
        "## Against the baseline\n"
        "\n"
        "No cell to compare with the baseline.\n"
        "\n"
        "> Each measure over the cell's passing trials against the baseline's: Welch's t test "
        "on the log values, Holm-corrected over every gated measure (the collectors' GPU times "
        "and declared metrics across the cells), the effect as a ratio in percent with its 98% "
        "interval, at alpha 0.01 and a 5% threshold; `unchanged` needs the whole interval "
        "inside it. `inconclusive`: too few trials to tell (`matrix.json`'s `vs_baseline` says "
        "how many would). The step time moves with the machine's load and is not gated.\n"
        "\n"
        "## Notes\n"
        "\n"
        "- A trial is one step: its step time is the trial's whole wall clock (command, "
        "collectors' parse and bookkeeping), so Iters reads `1/1` for a cell whose trials all "
        "ran.\n"
        "- `Wall/trial (s)` is the mean wall clock of one trial of the cell; the whole run's "
        "wall time is in the header.\n"
        "- `n/a`: no trial of the cell launched its command (no timing sample); `error`: the "
        "cell did not run.\n"
        "- Workload metrics are the collectors' numbers and the platform's `exit_code`; only "
        "passing trials contribute.\n";
    ck_assert_str_eq(text, expected);
    free(text);
    ar_json_free(matrix);
}
END_TEST

/* The recipe's and the command line's names in perf.md's header, cells and
 * tables: escaped as Markdown, code spans that a backtick cannot end. */
START_TEST(perf_md_escapes_the_names_it_shows)
{
    const char *cell = "c`|x\r";
    ar_json_t *matrix = ar_json_object();
    ar_json_set(matrix, "workload", ar_json_string("w*"));
    ar_json_set(matrix, "ticket", ar_json_string("T\n# forged <script>x</script>"));
    ar_json_set(matrix, "baseline_cell", ar_json_string(cell));
    ar_json_t *cells = ar_json_array();
    ar_json_append(cells, timed_cell(cell));
    ar_json_set(matrix, "cells", cells);
    ar_json_t *provenance = ar_json_object();
    ar_json_t *command = ar_json_array();
    ar_json_append(command, ar_json_string("sh"));
    ar_json_append(command, ar_json_string("a`b``c\x1b[2J"));
    ar_json_set(provenance, "command", command);
    ar_json_t *vars = ar_json_object();
    ar_json_set(vars, "V", ar_json_string("<b>\xe2\x80\xae"));
    ar_json_t *by_cell = ar_json_object();
    ar_json_set(by_cell, cell, vars);
    ar_json_set(provenance, "cells", by_cell);
    ar_json_set(matrix, "provenance", provenance);
    char *text = ar_perf_md(matrix, -1, NULL);
    /* The title names the command (provenance), shell-quoted, in a code
     * span too: the word with a control character in Bash's $'...' form,
     * so that what is shown pastes to the same bytes. */
    ck_assert_ptr_nonnull(strstr(text, "# Performance Report - ```sh $'a`b``c\\x1b[2J'```\n"));
    ck_assert_ptr_nonnull(strstr(text, "**Workload**: w\\*  \n"));
    ck_assert_ptr_nonnull(strstr(text, "**Ticket**: T\\\\n\\# forged &lt;script&gt;x&lt;/script&gt;  \n"));
    ck_assert_ptr_nonnull(strstr(text, "**Baseline cell**: c\\`\\|x\\\\r  \n"));
    ck_assert_ptr_nonnull(strstr(text, "**Command**: ```sh $'a`b``c\\x1b[2J'```  \n"));
    ck_assert_ptr_nonnull(strstr(text, "- ``c`|x\\r``: `V=<b>\\u202e`\n"));
    ck_assert_ptr_nonnull(strstr(text, "| c\\`\\|x\\\\r (baseline) |"));
    ck_assert_ptr_null(strchr(text, '\r'));
    ck_assert_ptr_null(strchr(text, '\x1b'));
    free(text);
    ar_json_free(matrix);
}
END_TEST

START_TEST(a_collector_key_never_shadows_a_platform_key)
{
    /* A collector named "exit" could report "exit_code" through its own
     * prefix: the platform's value wins, the collector's other keys stay
     * first, in their order. */
    aorta_metrics_t *collected = aorta_metrics_new(NULL);
    aorta_metrics_set_int(collected, "exit_count", 4);
    aorta_metrics_set_int(collected, "exit_code", 99);
    aorta_metrics_set_string(collected, "verdict", "pass");
    ar_classification_t classification = {"fail", {"tier1:exit_nonzero", NULL}, {NULL}};
    ar_json_t *metrics = ar_trial_metrics(collected, &classification, 3, "/r/result.json");
    ck_assert_int_eq(ar_json_get_int(ar_json_get(metrics, "exit_code")), 3);
    ck_assert_str_eq(su_str(metrics, "verdict", NULL), "fail");
    ck_assert_str_eq(su_str(metrics, "result_json_path", NULL), "/r/result.json");
    ck_assert_str_eq(su_str(metrics, "failure_detectors_fired", "0", NULL), "tier1:exit_nonzero");
    ck_assert_uint_eq(ar_json_length(ar_json_get(metrics, "error_detectors_fired")), 0);
    ck_assert_uint_eq(ar_json_length(ar_json_get(metrics, "warn_detectors_fired")), 0);
    char *text = ar_json_dump(metrics, 0);
    ck_assert_ptr_nonnull(strstr(text, "{\"exit_count\":4,\"exit_code\":3,\"verdict\":\"fail\","
                                       "\"result_json_path\""));
    free(text);
    ar_json_free(metrics);
    aorta_metrics_free(collected);
}
END_TEST

START_TEST(a_verdict_comes_from_the_metrics_or_the_exit_status)
{
    static const struct {
        const char *status, *verdict;
    } cases[] = {
        {"ok", "pass"},
        {"workload_failed", "fail"},
        {"workload_setup_failed", "error"},
        {"infrastructure_failed", "error"},
    };
    for (size_t i = 0; i < 4; i++) {
        ar_json_t *trial = ar_json_object();
        ar_json_t *result = ar_json_object();
        ar_json_set(result, "metrics", ar_json_object());
        ar_json_set(trial, "result", result);
        ar_json_set(trial, "exit_status", ar_json_string(cases[i].status));
        ck_assert_str_eq(ar_outcome_verdict(trial), cases[i].verdict);
        /* The recorded verdict wins when there is one. */
        ar_json_set(ar_json_get(result, "metrics"), "verdict", ar_json_string("error"));
        ck_assert_str_eq(ar_outcome_verdict(trial), "error");
        ar_json_free(trial);
    }
    ar_outcome_t outcome;
    ar_json_t *empty = ar_json_object();
    ck_assert_int_eq(ar_outcome_from_json(empty, 0, "x", &outcome), -1);
    ar_json_free(empty);
}
END_TEST

/* A trial directory and a collector tree with one file of every class. */
typedef struct tree {
    char *dir, *trial, *collect, *victim;
    int trial_fd, collect_fd;
} tree_t;

static void tree_make(tree_t *tree, const char *manifest)
{
    tree->dir = tu_tmpdir();
    tree->trial = tu_join(tree->dir, "cell/trial_0");
    tree->collect = tu_join(tree->dir, "cell/_subprocess/trial_d0_m0_t0");
    tree->victim = tu_join(tree->dir, "victim.txt");
    tu_write(tree->victim, "outside the trees\n");
    static const char *const trial_files[][2] = {
        {"result.json", "{}\n"},      {"stdout.log", "12345\n"},  {"stderr.log", "1234\n"},
        {"probe.env", "A=1\n"},       {"run.summary.txt", "s\n"}, {"heavy.bin", "0123456789"},
        {"sub/deep/more.bin", "xy"},  {"named.dat", "nnn"},
    };
    for (size_t i = 0; i < sizeof trial_files / sizeof trial_files[0]; i++) {
        char *path = tu_join(tree->trial, trial_files[i][0]);
        tu_write(path, trial_files[i][1]);
        free(path);
    }
    if (manifest) {
        char *path = tu_join(tree->trial, "artifacts.json");
        tu_write(path, manifest);
        free(path);
    }
    char *link = tu_join(tree->trial, "escape");
    ck_assert_int_eq(symlink(tree->victim, link), 0);
    free(link);
    char *csv = tu_join(tree->collect, "rocprof/aorta_kernel_stats.csv");
    char *txt = tu_join(tree->collect, "rocprof/aorta_rocprof_summary.txt");
    char *hatchet = tu_join(tree->collect, "proton/proton.summary.json");
    tu_write(csv, "Name,Calls\n");
    tu_write(txt, "summary\n");
    tu_write(hatchet, "{}\n");
    free(csv);
    free(txt);
    free(hatchet);
    tree->trial_fd = open(tree->trial, O_RDONLY | O_DIRECTORY);
    tree->collect_fd = open(tree->collect, O_RDONLY | O_DIRECTORY);
    ck_assert(tree->trial_fd >= 0 && tree->collect_fd >= 0);
}

static void tree_free(tree_t *tree)
{
    close(tree->trial_fd);
    close(tree->collect_fd);
    tu_rmtree(tree->dir);
    free(tree->dir);
    free(tree->trial);
    free(tree->collect);
    free(tree->victim);
}

static int exists_in(const char *dir, const char *rel)
{
    char *path = tu_join(dir, rel);
    int found = tu_exists(path);
    free(path);
    return found;
}

static const char *const names[] = {"proton", "rocprof"};

static char *joined(const ar_retention_t *kept)
{
    size_t len = 1;
    for (size_t i = 0; i < kept->count; i++)
        len += strlen(kept->deleted[i]) + 1;
    char *text = calloc(1, len);
    for (size_t i = 0; i < kept->count; i++) {
        strcat(text, kept->deleted[i]);
        strcat(text, i + 1 < kept->count ? " " : "");
    }
    return text;
}

START_TEST(retention_none_keeps_only_the_record)
{
    tree_t tree;
    tree_make(&tree, NULL);
    ar_retention_t kept;
    ar_retention_apply(tree.trial_fd, tree.collect_fd, "../_subprocess/trial_d0_m0_t0/", names,
                          2, AR_RETAIN_NONE, "cell/trial_0", &kept);
    char *list = joined(&kept);
    ck_assert_str_eq(list, "heavy.bin named.dat probe.env run.summary.txt stderr.log "
                           "stdout.log sub/deep/more.bin "
                           "../_subprocess/trial_d0_m0_t0/proton/proton.summary.json "
                           "../_subprocess/trial_d0_m0_t0/rocprof/aorta_kernel_stats.csv "
                           "../_subprocess/trial_d0_m0_t0/rocprof/aorta_rocprof_summary.txt");
    /* 10+3+4+2+5+6+2 in the trial, 11+8+3 in the collector tree. */
    ck_assert_int_eq(kept.freed_bytes, 32 + 22);
    ck_assert(exists_in(tree.trial, "result.json"));
    ck_assert(!exists_in(tree.trial, "sub")); /* emptied directories go */
    ck_assert(!exists_in(tree.collect, "rocprof"));
    ck_assert(tu_exists(tree.collect)); /* the roots stay */
    /* The symlink is neither followed nor deleted. */
    ck_assert(exists_in(tree.trial, "escape"));
    char *victim = tu_read(tree.victim);
    ck_assert_str_eq(victim, "outside the trees\n");
    free(victim);
    free(list);
    ar_retention_clear(&kept);
    tree_free(&tree);
}
END_TEST

START_TEST(retention_log_and_summary_keep_their_classes)
{
    tree_t tree;
    tree_make(&tree, NULL);
    ar_retention_t kept;
    ar_retention_apply(tree.trial_fd, tree.collect_fd, "../c/", names, 2, AR_RETAIN_LOG,
                          "t", &kept);
    char *list = joined(&kept);
    ck_assert_str_eq(list, "heavy.bin named.dat run.summary.txt sub/deep/more.bin "
                           "../c/proton/proton.summary.json ../c/rocprof/aorta_kernel_stats.csv "
                           "../c/rocprof/aorta_rocprof_summary.txt");
    ck_assert(exists_in(tree.trial, "stdout.log") && exists_in(tree.trial, "probe.env"));
    free(list);
    ar_retention_clear(&kept);
    tree_free(&tree);

    tree_make(&tree, NULL);
    ar_retention_apply(tree.trial_fd, tree.collect_fd, "../c/", names, 2, AR_RETAIN_SUMMARY,
                          "t", &kept);
    list = joined(&kept);
    /* rocprof's "_summary." is not ".summary.": heavy, as upstream. */
    ck_assert_str_eq(list, "heavy.bin named.dat sub/deep/more.bin "
                           "../c/rocprof/aorta_kernel_stats.csv "
                           "../c/rocprof/aorta_rocprof_summary.txt");
    ck_assert(exists_in(tree.trial, "run.summary.txt"));
    ck_assert(exists_in(tree.collect, "proton/proton.summary.json"));
    free(list);
    ar_retention_clear(&kept);
    ar_retention_apply(tree.trial_fd, tree.collect_fd, "../c/", names, 2, AR_RETAIN_FULL,
                          "t", &kept);
    ck_assert_uint_eq(kept.count, 0);
    ck_assert_int_eq(kept.freed_bytes, 0);
    ar_retention_clear(&kept);
    tree_free(&tree);
}
END_TEST

START_TEST(a_manifest_reclassifies_all_but_the_record)
{
    tree_t tree;
    tree_make(&tree, "{\"artifacts\": [{\"path\": \"heavy.bin\", \"class\": \"log\"},"
                     " {\"path\": \"result.json\", \"class\": \"heavy\"},"
                     " {\"path\": \"stdout.log\", \"class\": \"heavy\"},"
                     " {\"path\": \"named.dat\", \"class\": \"weird\"}]}");
    ar_retention_t kept;
    ar_retention_apply(tree.trial_fd, -1, "", NULL, 0, AR_RETAIN_LOG, "t", &kept);
    char *list = joined(&kept);
    ck_assert_str_eq(list, "artifacts.json named.dat run.summary.txt stdout.log sub/deep/more.bin");
    ck_assert(exists_in(tree.trial, "heavy.bin"));
    ck_assert(exists_in(tree.trial, "result.json"));
    ck_assert(exists_in(tree.collect, "rocprof/aorta_kernel_stats.csv")); /* not asked */
    free(list);
    ar_retention_clear(&kept);
    tree_free(&tree);

    /* A malformed manifest: the names decide. */
    tree_make(&tree, "[not a manifest");
    char *err_path = tu_join(tree.dir, "stderr");
    su_quiet(err_path);
    ar_retention_apply(tree.trial_fd, -1, "", NULL, 0, AR_RETAIN_LOG, "t", &kept);
    fflush(stderr);
    char *err = tu_read(err_path);
    ck_assert_ptr_nonnull(strstr(err, "retention: t/artifacts.json is malformed"));
    ck_assert_ptr_nonnull(strstr(err, "kept the symlink t/escape"));
    ck_assert(exists_in(tree.trial, "stdout.log"));
    ck_assert(!exists_in(tree.trial, "heavy.bin"));
    free(err);
    free(err_path);
    ar_retention_clear(&kept);
    tree_free(&tree);

    /* A symlinked manifest is not followed, and not worth a warning. */
    tree_make(&tree, NULL);
    char *target = tu_join(tree.dir, "manifest.json");
    tu_write(target, "{\"artifacts\": [{\"path\": \"heavy.bin\", \"class\": \"log\"}]}");
    char *manifest = tu_join(tree.trial, "artifacts.json");
    ck_assert_int_eq(symlink(target, manifest), 0);
    err_path = tu_join(tree.dir, "stderr");
    su_quiet(err_path);
    ar_retention_apply(tree.trial_fd, -1, "", NULL, 0, AR_RETAIN_LOG, "t", &kept);
    fflush(stderr);
    err = tu_read(err_path);
    ck_assert_ptr_null(strstr(err, "malformed"));
    ck_assert(!exists_in(tree.trial, "heavy.bin"));
    free(err);
    free(err_path);
    free(manifest);
    free(target);
    ar_retention_clear(&kept);
    tree_free(&tree);
}
END_TEST

START_TEST(a_symlinked_collector_directory_keeps_the_collector_tree)
{
    tree_t tree;
    tree_make(&tree, NULL);
    char *proton = tu_join(tree.collect, "proton");
    tu_rmtree(proton);
    ck_assert_int_eq(symlink(tree.dir, proton), 0);
    ar_retention_t kept;
    ar_retention_apply(tree.trial_fd, tree.collect_fd, "../c/", names, 2, AR_RETAIN_NONE,
                          "t", &kept);
    for (size_t i = 0; i < kept.count; i++)
        ck_assert_msg(strncmp(kept.deleted[i], "../", 3) != 0, "%s deleted", kept.deleted[i]);
    ck_assert(exists_in(tree.collect, "rocprof/aorta_kernel_stats.csv"));
    ck_assert(tu_exists(tree.victim));
    ar_retention_clear(&kept);
    free(proton);
    tree_free(&tree);
}
END_TEST

static void write_lock(const char *dir, long pid, const char *host)
{
    char *path = tu_join(dir, AR_LOCK_NAME);
    char text[512];
    snprintf(text, sizeof text, "{\"pid\": %ld, \"host\": \"%s\", \"started_at\": \"then\"}", pid,
             host);
    tu_write(path, text);
    free(path);
}

static long dead_pid(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    waitpid(pid, NULL, 0);
    return (long)pid;
}

START_TEST(the_lock_refuses_live_and_foreign_holders_and_takes_over_stale_ones)
{
    char *dir = tu_tmpdir();
    char *err_path = tu_join(dir, "stderr");
    su_quiet(err_path);
    char host[256];
    gethostname(host, sizeof host);
    char *lock_path = tu_join(dir, AR_LOCK_NAME);

    ar_lock_t *lock = ar_lock_acquire(dir);
    ck_assert_ptr_nonnull(lock);
    struct stat st;
    ck_assert_int_eq(lstat(lock_path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    ar_json_t *held = su_json(dir, AR_LOCK_NAME);
    ck_assert_int_eq(ar_json_get_int(ar_json_get(held, "pid")), getpid());
    ck_assert_str_eq(su_str(held, "host", NULL), host);
    ck_assert_ptr_nonnull(su_str(held, "started_at", NULL));
    ar_json_free(held);
    ar_lock_release(lock);
    ck_assert(!tu_exists(lock_path));

    write_lock(dir, (long)getppid(), host); /* alive, this host */
    ck_assert_ptr_null(ar_lock_acquire(dir));
    write_lock(dir, (long)getppid(), "elsewhere.example"); /* another host */
    ck_assert_ptr_null(ar_lock_acquire(dir));
    write_lock(dir, dead_pid(), host); /* stale */
    lock = ar_lock_acquire(dir);
    ck_assert_ptr_nonnull(lock);
    ar_lock_release(lock);
    tu_write(lock_path, "garbage"); /* unreadable */
    lock = ar_lock_acquire(dir);
    ck_assert_ptr_nonnull(lock);
    ar_lock_release(lock);

    fflush(stderr);
    char *err = tu_read(err_path);
    ck_assert_ptr_nonnull(strstr(err, "the run directory is in use by aorta-run pid"));
    ck_assert_ptr_nonnull(strstr(err, "locked by aorta-run pid"));
    ck_assert_ptr_nonnull(strstr(err, "on host elsewhere.example"));
    ck_assert_ptr_nonnull(strstr(err, "taking over the stale lock"));
    ck_assert_ptr_nonnull(strstr(err, "taking over the unreadable lock"));
    free(err);
    free(lock_path);
    free(err_path);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(the_rank_comes_from_the_first_variable_set)
{
    unsetenv("RANK");
    unsetenv("OMPI_COMM_WORLD_RANK");
    unsetenv("PMI_RANK");
    unsetenv("SLURM_PROCID");
    ck_assert_int_eq(ar_rank_detect(), 0);
    setenv("SLURM_PROCID", "5", 1);
    ck_assert_int_eq(ar_rank_detect(), 5);
    setenv("PMI_RANK", "4", 1);
    ck_assert_int_eq(ar_rank_detect(), 4);
    setenv("OMPI_COMM_WORLD_RANK", "3", 1);
    ck_assert_int_eq(ar_rank_detect(), 3);
    setenv("RANK", "0", 1);
    ck_assert_int_eq(ar_rank_detect(), 0);
    setenv("RANK", "one", 1); /* not an integer: rank 0, with a warning */
    ck_assert_int_eq(ar_rank_detect(), 0);
}
END_TEST

START_TEST(python_interpreters_are_recognised)
{
    ck_assert(ar_host_env_is_python("python"));
    ck_assert(ar_host_env_is_python("python3"));
    ck_assert(ar_host_env_is_python("python3.12"));
    ck_assert(ar_host_env_is_python("/opt/venv/bin/python3"));
    ck_assert(!ar_host_env_is_python("ipython"));
    ck_assert(!ar_host_env_is_python("python3-config"));
    ck_assert(!ar_host_env_is_python("/usr/bin/python3/"));
    ck_assert(!ar_host_env_is_python("./hip_gemm"));
}
END_TEST

/* A cell result whose trials ended with these exit statuses. */
static void add_trials(ar_cell_result_t *result, const char *const *statuses)
{
    for (int t = 0; statuses[t]; t++) {
        ar_outcome_t outcome = {.trial_index = t,
                                   .verdict = ar_xstrdup("error"),
                                   .exit_status = ar_xstrdup(statuses[t]),
                                   .launched = strcmp(statuses[t], "workload_setup_failed") != 0};
        ar_cell_result_add(result, &outcome);
    }
}

START_TEST(a_run_of_setup_failures_only_says_nothing_ran)
{
    ar_plan_t plan = {.cell_count = 2, .run_dir = "R"};
    ar_cell_t cells[2] = {{.name = "none-none"}, {.name = "a-none"}};
    plan.cells = cells;
    ar_cell_result_t results[2] = {{0}};
    add_trials(&results[0], (const char *[]){"workload_setup_failed", NULL});
    add_trials(&results[1], (const char *[]){"workload_setup_failed", "workload_setup_failed",
                                             NULL});
    ck_assert(ar_summary_all_setup_failed(&plan, results));
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ar_summary_print(out, &plan, results, "R", 0, 0, 3.25);
    fclose(out);
    ck_assert_ptr_nonnull(strstr(text, "\nNothing ran: every trial was a setup failure"));
    ck_assert_ptr_nonnull(strstr(text, "\nWall time: 3.2s\nFull matrix: R/matrix.json\n"));
    free(text);
    /* One trial that ran (whatever its verdict) is a completed run. */
    add_trials(&results[1], (const char *[]){"workload_failed", NULL});
    ck_assert(!ar_summary_all_setup_failed(&plan, results));
    out = open_memstream(&text, &len);
    ar_summary_print(out, &plan, results, "R", 0, 0, 3.25);
    fclose(out);
    ck_assert_ptr_null(strstr(text, "Nothing ran"));
    free(text);
    /* No trial at all (every cell interrupted before it ran) is not "setup". */
    ar_cell_result_t none[2] = {{0}};
    ck_assert(!ar_summary_all_setup_failed(&plan, none));
    ck_assert(!ar_summary_none_started(&plan, none));
    for (int i = 0; i < 2; i++)
        ar_cell_result_clear(&results[i]);
}
END_TEST

/* The summary shows a cell name and the run directory with their controls
 * visible: a name cannot clear the screen or forge a line. */
START_TEST(the_summary_shows_a_hostile_cell_name_visibly)
{
    ar_plan_t plan = {.cell_count = 1, .run_dir = "R"};
    ar_cell_t cells[1] = {{.name = "c\x1b[2J\nSweep summary: all passed\xe2\x80\xae"}};
    plan.cells = cells;
    ar_cell_result_t results[1] = {{0}};
    add_trials(&results[0], (const char *[]){"workload_failed", NULL});
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ar_summary_print(out, &plan, results, "R\r", 0, 0, 1.0);
    fclose(out);
    ck_assert_ptr_nonnull(strstr(text, "  [error] c\\x1b[2J\\nSweep summary: all passed\\u202e: "));
    ck_assert_ptr_nonnull(strstr(text, "Wrote run artifacts to R\\r\n"));
    ck_assert_ptr_null(strchr(text, '\x1b'));
    ck_assert_ptr_null(strchr(text, '\r'));
    ck_assert_ptr_null(strstr(text, "\nSweep summary: all passed"));
    free(text);
    ar_cell_result_clear(&results[0]);
}
END_TEST

START_TEST(a_run_whose_commands_never_started_says_nothing_ran)
{
    ar_plan_t plan = {.cell_count = 1, .run_dir = "R"};
    ar_cell_t cells[1] = {{.name = "none-none"}};
    plan.cells = cells;
    ar_cell_result_t results[1] = {{0}};
    /* A command that cannot be executed: workload_failed, never launched. */
    ar_outcome_t outcome = {.verdict = ar_xstrdup("error"),
                               .exit_status = ar_xstrdup("workload_failed"),
                               .hint = ar_xstrdup("cannot execute 'nosuchcmd_xyz': No such "
                                                     "file or directory")};
    ar_cell_result_add(&results[0], &outcome);
    ck_assert(ar_summary_none_started(&plan, results));
    ck_assert(!ar_summary_all_setup_failed(&plan, results));
    ck_assert_uint_eq(ar_summary_failed_trials(&plan, results), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ar_summary_print(out, &plan, results, "R", 0, 0, 1.0);
    fclose(out);
    ck_assert_ptr_nonnull(strstr(text, "\nNothing ran: no trial's command could start"));
    ck_assert_ptr_nonnull(strstr(text, "(cannot execute 'nosuchcmd_xyz': No such file or "
                                       "directory)"));
    free(text);
    ar_cell_result_clear(&results[0]);
}
END_TEST

START_TEST(a_request_fingerprint_names_each_part_that_changed)
{
    ar_registry_t *registry = tu_registry("tests/fake-collectors");
    ar_plan_t *plan = su_plan("R", (char *[]){"true", NULL});
    su_plan_cell(plan, "tf32", "none", (char *[]){"TF32=0", NULL});
    ar_request_t *before = ar_request_compute(plan);
    /* Same plan, same fingerprints; the cells differ by their variables. */
    ar_request_t *again = ar_request_compute(plan);
    ck_assert_str_eq(before[0].fingerprint, again[0].fingerprint);
    ck_assert_str_ne(before[0].fingerprint, before[1].fingerprint);
    ck_assert_str_eq(before[0].command, before[1].command);
    free(again);
    ar_json_t *recorded = ar_json_object();
    ar_json_set(recorded, "request_fingerprint", ar_json_string(before[1].fingerprint));
    ar_json_t *config = ar_json_object();
    ar_json_set(config, "_aorta_request", ar_request_json(&before[1]));
    ar_json_set(recorded, "config", config);
    ck_assert_ptr_null(ar_request_mismatch(&before[1], recorded));

    /* The cell's variables, then the collectors and their options. */
    aorta_env_set(plan->cells[1].env, "TF32", "1");
    ar_request_t *now = ar_request_compute(plan);
    char *changed = ar_request_mismatch(&now[1], recorded);
    ck_assert_str_eq(changed, "the cell's variables changed");
    free(changed);
    free(now);
    su_plan_collect(plan, registry, "good", NULL);
    now = ar_request_compute(plan);
    changed = ar_request_mismatch(&now[1], recorded);
    ck_assert_str_eq(changed, "the cell's variables and the collectors or their options changed");
    free(changed);
    free(now);
    /* The command, and a recipe where there was none. */
    plan->recipe_path = tu_srcdir("configure.ac");
    aorta_argv_free(plan->command);
    plan->command = aorta_argv_from((char *[]){"false", NULL}, 1);
    now = ar_request_compute(plan);
    ck_assert_uint_eq(strlen(now[0].recipe), 64);
    changed = ar_request_mismatch(&now[1], recorded);
    ck_assert_str_eq(changed, "the command, the recipe, the cell's variables and the collectors "
                              "or their options changed");
    free(changed);
    /* aorta's version alone. */
    ar_json_set(ar_json_get(config, "_aorta_request"), "aorta_version",
                   ar_json_string("0.0.1"));
    ar_json_set(recorded, "request_fingerprint", ar_json_string("0"));
    changed = ar_request_mismatch(&before[1], recorded);
    ck_assert_str_eq(changed, "aorta's version changed");
    free(changed);
    /* Another fingerprint, its parts not on record. */
    ar_json_t *bare = ar_json_object();
    ar_json_set(bare, "request_fingerprint", ar_json_string("0"));
    changed = ar_request_mismatch(&before[1], bare);
    ck_assert_str_eq(changed, "it was recorded for another request (its parts are not on "
                              "record)");
    free(changed);
    ar_json_free(bare);
    /* An older record: no fingerprint at all. */
    ar_json_set(recorded, "request_fingerprint", NULL);
    changed = ar_request_mismatch(&before[1], recorded);
    ck_assert_ptr_nonnull(strstr(changed, "without a request fingerprint"));
    free(changed);
    free(now);
    free(before);
    ar_json_free(recorded);
    ar_plan_free(plan);
    ar_registry_free(registry);
}
END_TEST

/* Chosen ranks are part of the request: without them the fingerprint is
 * what it always was (no ranks part), with them it changes and the
 * mismatch names them. */
START_TEST(chosen_ranks_are_part_of_the_request_fingerprint)
{
    ar_plan_t *plan = su_plan("R", (char *[]){"true", NULL});
    ar_request_t *every = ar_request_compute(plan);
    ck_assert_str_eq(every[0].ranks, "");
    ar_json_t *part = ar_request_json(&every[0]);
    ck_assert_ptr_null(ar_json_get(part, "ranks_sha256"));
    ar_json_free(part);
    ar_json_t *recorded = ar_json_object();
    ar_json_set(recorded, "request_fingerprint", ar_json_string(every[0].fingerprint));
    ar_json_t *config = ar_json_object();
    ar_json_set(config, "_aorta_request", ar_request_json(&every[0]));
    ar_json_set(recorded, "config", config);

    plan->ranks = ar_xcalloc(2, sizeof *plan->ranks);
    plan->ranks[0] = 0;
    plan->ranks[1] = 3;
    plan->rank_count = 2;
    ar_request_t *chosen = ar_request_compute(plan);
    ck_assert_uint_eq(strlen(chosen[0].ranks), 64);
    ck_assert_str_ne(chosen[0].fingerprint, every[0].fingerprint);
    ck_assert_str_eq(chosen[0].collectors, every[0].collectors);
    char *changed = ar_request_mismatch(&chosen[0], recorded);
    ck_assert_str_eq(changed, "the chosen ranks changed");
    free(changed);
    /* ... and back: a run of every rank after one of chosen ranks. */
    ar_json_set(recorded, "request_fingerprint", ar_json_string(chosen[0].fingerprint));
    ar_json_set(config, "_aorta_request", ar_request_json(&chosen[0]));
    changed = ar_request_mismatch(&every[0], recorded);
    ck_assert_str_eq(changed, "the chosen ranks changed");
    free(changed);
    plan->ranks[1] = 4;
    ar_request_t *other = ar_request_compute(plan);
    ck_assert_str_ne(other[0].fingerprint, chosen[0].fingerprint);
    ck_assert_ptr_null(ar_request_mismatch(&chosen[0], recorded));
    free(other);
    free(chosen);
    free(every);
    ar_json_free(recorded);
    ar_plan_free(plan);
}
END_TEST

static Suite *units_suite(void)
{
    Suite *suite = suite_create("platform units");
    TCase *tc = tcase_create("units");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sha256_matches_the_fips_vectors);
    tcase_add_test(tc, sha256_agrees_with_sha256sum_at_block_boundaries);
    tcase_add_test(tc, thousands_separators_follow_python_format);
    tcase_add_test(tc, perf_md_is_formatted_byte_for_byte);
    tcase_add_test(tc, perf_md_escapes_the_names_it_shows);
    tcase_add_test(tc, a_collector_key_never_shadows_a_platform_key);
    tcase_add_test(tc, a_verdict_comes_from_the_metrics_or_the_exit_status);
    tcase_add_test(tc, retention_none_keeps_only_the_record);
    tcase_add_test(tc, retention_log_and_summary_keep_their_classes);
    tcase_add_test(tc, a_manifest_reclassifies_all_but_the_record);
    tcase_add_test(tc, a_symlinked_collector_directory_keeps_the_collector_tree);
    tcase_add_test(tc, the_lock_refuses_live_and_foreign_holders_and_takes_over_stale_ones);
    tcase_add_test(tc, the_rank_comes_from_the_first_variable_set);
    tcase_add_test(tc, python_interpreters_are_recognised);
    tcase_add_test(tc, a_run_of_setup_failures_only_says_nothing_ran);
    tcase_add_test(tc, the_summary_shows_a_hostile_cell_name_visibly);
    tcase_add_test(tc, a_run_whose_commands_never_started_says_nothing_ran);
    tcase_add_test(tc, a_request_fingerprint_names_each_part_that_changed);
    tcase_add_test(tc, chosen_ranks_are_part_of_the_request_fingerprint);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(units_suite)
