/* SPDX-License-Identifier: MIT */
/* The Proton collector's parse (docs/collectors/proton.mdH with docs/design.md, Deviations 2-3): the real
 * capture, the leaf, time, count and name rules, merging, ranking, the
 * overflow guard, directory discovery, depth (a 60-frame context: python
 * tree, a tree at the reader's limit, one beyond it), and malformed files
 * of every kind, which must cost only their own contribution. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep/parse_child.h"
#include "protontest.h"

static char *dir;

static void setup(void)
{
    pt_load();
    dir = tu_tmpdir();
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(dir);
    pt_unload();
}

/* ---- building files ------------------------------------------------------ */

/* The spec's leaf(n, t, c): time and count are JSON literals (c NULL: none). */
static char *leaf(const char *name, const char *time_ns, const char *count)
{
    tu_text_t t = {0};
    tu_text_add(&t, "{\"frame\":{\"name\":\"%s\",\"type\":\"function\"},\"metrics\":{", name);
    if (count)
        tu_text_add(&t, "\"count\":%s,", count);
    tu_text_add(&t, "\"time (ns)\":%s},\"children\":[]}", time_ns);
    return t.data;
}

/* The spec's tree(xs): a ROOT frame over the given nodes (consumed). */
static char *tree(const char *first, ...)
{
    tu_text_t t = {0};
    tu_text_add(&t, "[{\"frame\":{\"name\":\"ROOT\"},\"metrics\":{},\"children\":[");
    va_list args;
    va_start(args, first);
    int n = 0;
    for (const char *node = first; node; node = va_arg(args, const char *), n++) {
        tu_text_add(&t, "%s%s", n ? "," : "", node);
        free((char *)node);
    }
    va_end(args);
    tu_text_add(&t, "]}]");
    return t.data;
}

/* Write text (consumed) as dir/name. */
static void put(const char *name, char *text)
{
    char *path = tu_join(dir, name);
    tu_write(path, text);
    free(path);
    free(text);
}

static void put_copy(const char *name, const char *text)
{
    put(name, strdup(text));
}

/* ---- reading metrics ----------------------------------------------------- */

static aorta_metrics_t *parse_dir(const char *where)
{
    aorta_metrics_t *metrics = aorta_metrics_new("proton_");
    pt_collector()->parse(NULL, where, metrics);
    return metrics;
}

static aorta_metrics_t *parse(void)
{
    return parse_dir(dir);
}

static const aorta_metric_t *need(const aorta_metrics_t *metrics, const char *key,
                                  aorta_metric_type_t type)
{
    const aorta_metric_t *metric = aorta_metrics_find(metrics, key);
    ck_assert_msg(metric != NULL, "no %s", key);
    ck_assert_int_eq(metric->type, type);
    return metric;
}

static int64_t count_of(const aorta_metrics_t *metrics)
{
    return need(metrics, "proton_kernel_count", AORTA_METRIC_INT)->int_value;
}

static double gpu_of(const aorta_metrics_t *metrics)
{
    return need(metrics, "proton_gpu_time_ms", AORTA_METRIC_DOUBLE)->double_value;
}

static double top_of(const aorta_metrics_t *metrics)
{
    return need(metrics, "proton_top_kernel_ms", AORTA_METRIC_DOUBLE)->double_value;
}

static const aorta_metric_t *kernels_of(const aorta_metrics_t *metrics)
{
    return need(metrics, "proton_top_kernels", AORTA_METRIC_STRINGS);
}

static int has(const aorta_metrics_t *metrics, const char *key)
{
    return aorta_metrics_find(metrics, key) != NULL;
}

static void expect_top(const aorta_metrics_t *metrics, const char *first, ...)
{
    const aorta_metric_t *top = kernels_of(metrics);
    va_list args;
    va_start(args, first);
    size_t i = 0;
    for (const char *name = first; name; name = va_arg(args, const char *), i++) {
        ck_assert_msg(i < top->string_count, "only %zu top kernels", top->string_count);
        ck_assert_str_eq(top->strings[i], name);
    }
    va_end(args);
    ck_assert_uint_eq(top->string_count, i);
}

/* Only proton_artifact_dir, equal to where. */
static void expect_only_dir(const aorta_metrics_t *metrics, const char *where)
{
    ck_assert_uint_eq(aorta_metrics_count(metrics), 1);
    ck_assert_str_eq(need(metrics, "proton_artifact_dir", AORTA_METRIC_STRING)->string_value,
                     where);
}

/* parse() of dir: only the artifact directory. */
static void expect_nothing_counted(void)
{
    aorta_metrics_t *metrics = parse();
    expect_only_dir(metrics, dir);
    aorta_metrics_free(metrics);
}

/* parse() of dir: one kernel k, count (or -1: none), gpu ms. */
static void expect_k(int64_t count, double gpu)
{
    aorta_metrics_t *metrics = parse();
    if (count < 0)
        ck_assert(!has(metrics, "proton_kernel_count"));
    else
        ck_assert_int_eq(count_of(metrics), count);
    ck_assert_double_eq_tol(gpu_of(metrics), gpu, 1e-12);
    expect_top(metrics, "k", NULL);
    aorta_metrics_free(metrics);
}

/* ---- the real capture ---------------------------------------------------- */

static void check_fixture_metrics(const aorta_metrics_t *metrics, const char *where)
{
    /* Case 135 and FIXTURES.md: counts and times from the file's leaves. */
    const double ns[] = {9601, 17520, 7561, 4320, 15400};
    double gpu = 0.0;
    for (size_t i = 0; i < 5; i++)
        gpu += ns[i] * 1e-6;
    ck_assert_int_eq(count_of(metrics), 2 + 6 + 2 + 1 + 1);
    ck_assert(gpu_of(metrics) == gpu); /* summed as upstream: left to right */
    ck_assert_double_eq_tol(gpu_of(metrics), 0.054402, 1e-9);
    ck_assert(top_of(metrics) == 17520 * 1e-6);
    ck_assert(top_of(metrics) < gpu_of(metrics));
    const aorta_metric_t *top = kernels_of(metrics);
    ck_assert_uint_eq(top->string_count, 5);
    ck_assert_str_eq(top->strings[0], "add_kernel");
    ck_assert_ptr_nonnull(strstr(top->strings[1], "reduce_kernel"));
    ck_assert_ptr_nonnull(strstr(top->strings[2], "distribution_elementwise"));
    ck_assert_ptr_nonnull(strstr(top->strings[3], "CUDAFunctor_add"));
    ck_assert_ptr_nonnull(strstr(top->strings[4], "AbsFunctor"));
    ck_assert_int_gt(count_of(metrics), (int64_t)top->string_count);
    ck_assert_str_eq(need(metrics, "proton_artifact_dir", AORTA_METRIC_STRING)->string_value,
                     where);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 5);
    /* The five keys in their order. */
    const char *keys[] = {"proton_artifact_dir", "proton_kernel_count", "proton_gpu_time_ms",
                          "proton_top_kernel_ms", "proton_top_kernels"};
    for (size_t i = 0; i < 5; i++)
        ck_assert_str_eq(aorta_metrics_at(metrics, i)->key, keys[i]);
}

START_TEST(the_real_capture_gives_the_upstream_figures)
{
    char *fixture = tu_srcdir("examples/no-gpu/triton");
    aorta_metrics_t *metrics = parse_dir(fixture);
    check_fixture_metrics(metrics, fixture);
    aorta_metrics_free(metrics);
    free(fixture);
}
END_TEST

START_TEST(parse_in_a_child_gives_the_same_figures)
{
    char *fixture = tu_srcdir("examples/no-gpu/triton");
    aorta_metrics_t *metrics = ar_parse_in_child(pt_plugin(), NULL, fixture);
    check_fixture_metrics(metrics, fixture);
    aorta_metrics_free(metrics);
    free(fixture);
}
END_TEST

/* The captures made on an H200 with Triton 3.6 (FIXTURES.md): each leaf's
 * count and time (ns), in file order, and the names expected on top. */
typedef struct capture_leaf {
    const char *name_part;
    int64_t count;
    double ns;
} capture_leaf_t;

static void check_capture(const char *rel, const capture_leaf_t *leaves, size_t nleaves,
                          const char *const *top_parts, size_t ntop)
{
    char *where = tu_srcdir(rel);
    aorta_metrics_t *metrics = parse_dir(where);
    int64_t count = 0;
    double gpu = 0.0, top = 0.0;
    for (size_t i = 0; i < nleaves; i++) {
        count += leaves[i].count;
        gpu += leaves[i].ns * 1e-6;
        if (leaves[i].ns * 1e-6 > top)
            top = leaves[i].ns * 1e-6;
    }
    ck_assert_int_eq(count_of(metrics), count);
    ck_assert(gpu_of(metrics) == gpu);
    ck_assert(top_of(metrics) == top);
    const aorta_metric_t *names = kernels_of(metrics);
    ck_assert_uint_eq(names->string_count, ntop);
    for (size_t i = 0; i < ntop; i++)
        ck_assert_msg(strstr(names->strings[i], top_parts[i]), "%zu: %s", i, names->strings[i]);
    aorta_metrics_free(metrics);
    free(where);
}

START_TEST(the_h200_captures_give_their_leaves_sums)
{
    const capture_leaf_t cli[] = {{"reduce_kernel", 1, 5536},
                                  {"AbsFunctor", 1, 2336},
                                  {"CUDAFunctor_add", 2, 5056},
                                  {"distribution_elementwise", 2, 8960},
                                  {"add_kernel", 6, 14624}};
    const char *cli_top[] = {"add_kernel", "distribution_elementwise", "reduce_kernel",
                             "CUDAFunctor_add", "AbsFunctor"};
    check_capture("tests/collectors/proton/fixtures/h200_cli", cli, 5, cli_top, 5);
    const capture_leaf_t env[] = {{"add_kernel", 5, 11586}, {"row_sum_kernel", 5, 9793}};
    const char *env_top[] = {"add_kernel", "row_sum_kernel"};
    check_capture("tests/collectors/proton/fixtures/h200_env", env, 2, env_top, 2);
}
END_TEST

/* ---- 7.H: leaves and times ----------------------------------------------- */

START_TEST(one_leaf_gives_the_five_metrics)
{
    /* Cases 136-137. */
    put("proton.hatchet", tree(leaf("k", "1000000", "1"), NULL));
    aorta_metrics_t *metrics = parse();
    ck_assert_uint_eq(aorta_metrics_count(metrics), 5);
    ck_assert_int_eq(count_of(metrics), 1);
    ck_assert(gpu_of(metrics) == 1.0);
    ck_assert(top_of(metrics) == 1.0);
    expect_top(metrics, "k", NULL);
    aorta_metrics_free(metrics);
    put("proton.hatchet", tree(leaf("k", "2500000", "1"), NULL));
    expect_k(1, 2.5);
}
END_TEST

START_TEST(time_units_convert_to_milliseconds)
{
    /* Case 138 and 171. */
    const char *metrics_json[][2] = {
        {"\"time (ns)\":1000000", "1.0"}, {"\"time (us)\":1500", "1.5"},
        {"\"time (ms)\":2.5", "2.5"},     {"\"time (s)\":0.25", "250.0"},
        {"\"Time (NS)\":1000000", "1.0"}, {"\"time(ns)\":1000000", "1.0"},
        {"\"time ( ns )\":1000000", "1.0"}, {"\"time (ns\":1000000", "1.0"},
        {"\" TIME\\t(Ms))\":3", "3.0"},  {"\"time (ns)\":\"1e6\"", "1.0"},
        {"\"time (ns)\":\" 1_000_000 \"", "1.0"}, {"\"time (s)\":true", "1000.0"},
        {"\"time (ms)\":-0.0", "0.0"},
    };
    for (size_t i = 0; i < sizeof metrics_json / sizeof metrics_json[0]; i++) {
        char text[256];
        snprintf(text, sizeof text,
                 "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"count\":1,%s},\"children\":[]}]",
                 metrics_json[i][0]);
        put_copy("proton.hatchet", text);
        aorta_metrics_t *metrics = parse();
        ck_assert_msg(has(metrics, "proton_gpu_time_ms"), "%s not read", metrics_json[i][0]);
        ck_assert_msg(gpu_of(metrics) == strtod(metrics_json[i][1], NULL), "%s gave %g",
                      metrics_json[i][0], gpu_of(metrics));
        aorta_metrics_free(metrics);
    }
}
END_TEST

START_TEST(keys_that_are_not_a_time_are_not_read)
{
    /* Cases 139, 171. */
    const char *keys[] = {"cpu_time (ns)", "time (ns) (inc)", "time", "time (min)", "times (ns)",
                          "ti me (ns)", "time ()", "(ns) time",
                          "time (ms) "};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char text[256];
        snprintf(text, sizeof text,
                 "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"count\":1,\"%s\":9000000},"
                 "\"children\":[]}]",
                 keys[i]);
        put_copy("proton.hatchet", text);
        expect_nothing_counted();
    }
}
END_TEST

START_TEST(unusable_time_values_are_skipped_for_the_next_key)
{
    /* Cases 153-155. */
    put("proton.hatchet", tree(leaf("k", "\"n/a\"", "1"), NULL));
    expect_nothing_counted();
    const char *bad[] = {"NaN", "Infinity", "-Infinity", "-1000000", "null", "[1]", "{}",
                         "\"inf\"", "\"nan\"", "1e400",
                         "100000000000000000000000000000000000000000000000000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put("proton.hatchet", tree(leaf("bad", bad[i], "1"), leaf("good", "1000000", "1"), NULL));
        aorta_metrics_t *metrics = parse();
        expect_top(metrics, "good", NULL);
        ck_assert(gpu_of(metrics) == 1.0);
        aorta_metrics_free(metrics);
    }
    put_copy("proton.hatchet", "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"count\":1,"
                               "\"time (s)\":NaN,\"time (ns)\":2000000},\"children\":[]}]");
    expect_k(1, 2.0);
    /* A duplicated key: the last value, as Python's dict keeps it. */
    put_copy("proton.hatchet", "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"count\":1,"
                               "\"time (ns)\":1,\"time (ns)\":2000000},\"children\":[]}]");
    expect_k(1, 2.0);
}
END_TEST

START_TEST(a_sum_that_overflows_reports_no_times)
{
    /* Case 156. */
    put_copy("proton.hatchet",
             "[{\"frame\":{\"name\":\"R\"},\"metrics\":{},\"children\":["
             "{\"frame\":{\"name\":\"a\"},\"metrics\":{\"count\":1,\"time (ms)\":1e308}},"
             "{\"frame\":{\"name\":\"b\"},\"metrics\":{\"count\":1,\"time (ms)\":1e308}},"
             "{\"frame\":{\"name\":\"c\"},\"metrics\":{\"count\":1,\"time (ms)\":1e308}}]}]");
    expect_nothing_counted();
    /* Within one name too. */
    put_copy("proton.hatchet",
             "[{\"frame\":{\"name\":\"R\"},\"metrics\":{},\"children\":["
             "{\"frame\":{\"name\":\"a\"},\"metrics\":{\"count\":1,\"time (ms)\":1e308}},"
             "{\"frame\":{\"name\":\"a\"},\"metrics\":{\"count\":1,\"time (ms)\":1e308}}]}]");
    expect_nothing_counted();
}
END_TEST

START_TEST(interior_frames_are_never_counted)
{
    /* Case 140. */
    char *child = leaf("child", "4000000", "1");
    tu_text_t t = {0};
    tu_text_add(&t, "[{\"frame\":{\"name\":\"ROOT\"},\"metrics\":{},\"children\":[{\"frame\":{\"name\":"
            "\"parent\"},\"metrics\":{\"count\":1,\"time (ns)\":10000000},\"children\":[%s]}]}]",
        child);
    free(child);
    put("proton.hatchet", t.data);
    aorta_metrics_t *metrics = parse();
    expect_top(metrics, "child", NULL);
    ck_assert(gpu_of(metrics) == 4.0);
    aorta_metrics_free(metrics);
    /* Case 160: a non-empty children list, even of junk, makes it interior. */
    put_copy("proton.hatchet", "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"count\":1,"
                               "\"time (ns)\":1000000},\"children\":[\"junk\"]}]");
    expect_nothing_counted();
    /* A children value that is not a list counts as none. */
    put_copy("proton.hatchet", "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"count\":1,"
                               "\"time (ns)\":1000000},\"children\":{\"a\":1}}]");
    expect_k(1, 1.0);
    /* Case 170: a childless ROOT with a time is a kernel named ROOT. */
    put_copy("proton.hatchet",
             "[{\"frame\":{\"name\":\"ROOT\"},\"metrics\":{\"count\":0,\"time (ns)\":0},"
             "\"children\":[]}]");
    metrics = parse();
    ck_assert_int_eq(count_of(metrics), 0);
    ck_assert(gpu_of(metrics) == 0.0);
    ck_assert(top_of(metrics) == 0.0);
    expect_top(metrics, "ROOT", NULL);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(roots_are_the_list_elements_or_the_value_itself)
{
    /* Case 161: device metadata beside the tree is harmless. */
    char *k = leaf("k", "1000000", "1");
    tu_text_t t = {0};
    tu_text_add(&t, "[{\"frame\":{\"name\":\"ROOT\"},\"metrics\":{},\"children\":[%s]},"
            "{\"device\":{\"0\":{\"arch\":\"gfx950\",\"num_sms\":256}}}, [%s], 7, null]",
        k, k);
    put("proton.hatchet", t.data);
    expect_k(1, 1.0); /* a list nested in the list is not a root */
    /* A lone object is the single root. */
    put("proton.hatchet", k);
    expect_k(1, 1.0);
}
END_TEST

START_TEST(nodes_without_a_name_frame_or_metrics_are_skipped)
{
    /* Case 152. */
    put("proton.hatchet",
        tree(strdup("{\"frame\":{\"name\":\"\"},\"metrics\":{\"time (ns)\":5000000},"
                    "\"children\":[]}"),
             strdup("{\"frame\":{\"name\":\"no-time\"},\"metrics\":{\"count\":1},\"children\":[]}"),
             strdup("{\"frame\":{\"name\":\"   \"},\"metrics\":{\"time (ns)\":5000000}}"),
             strdup("{\"frame\":{},\"metrics\":{\"time (ns)\":5000000}}"),
             strdup("{\"frame\":{\"name\":null},\"metrics\":{\"time (ns)\":5000000}}"),
             strdup("{\"frame\":{\"name\":false},\"metrics\":{\"time (ns)\":5000000}}"),
             strdup("{\"frame\":{\"name\":0},\"metrics\":{\"time (ns)\":5000000}}"),
             strdup("{\"frame\":{\"name\":0.0},\"metrics\":{\"time (ns)\":5000000}}"),
             strdup("{\"frame\":{\"name\":[\"x\"]},\"metrics\":{\"time (ns)\":5000000}}"),
             strdup("{\"frame\":\"k\",\"metrics\":{\"time (ns)\":5000000}}"),
             strdup("{\"frame\":{\"name\":\"k2\"},\"metrics\":[]}"),
             strdup("{\"metrics\":{\"time (ns)\":5000000}}"), strdup("\"text\""), strdup("42"),
             leaf("good", "1000000", "1"), NULL));
    aorta_metrics_t *metrics = parse();
    expect_top(metrics, "good", NULL);
    ck_assert_int_eq(count_of(metrics), 1);
    ck_assert(gpu_of(metrics) == 1.0);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(names_are_stripped_and_non_strings_read_as_python_prints_them)
{
    /* Case 168. */
    put("proton.hatchet", tree(leaf(" k ", "1000000", "1"), leaf("k", "1000000", "2"),
                               leaf("\\tk\\n", "1000000", "3"), NULL));
    expect_k(6, 3.0);
    put("proton.hatchet",
        tree(strdup("{\"frame\":{\"name\":5},\"metrics\":{\"time (ns)\":5000000}}"),
             strdup("{\"frame\":{\"name\":1.5},\"metrics\":{\"time (ns)\":4000000}}"),
             strdup("{\"frame\":{\"name\":true},\"metrics\":{\"time (ns)\":3000000}}"),
             strdup("{\"frame\":{\"name\":1e16},\"metrics\":{\"time (ns)\":2000000}}"),
             strdup("{\"frame\":{\"name\":100.0},\"metrics\":{\"time (ns)\":1000000}}"), NULL));
    aorta_metrics_t *metrics = parse();
    expect_top(metrics, "5", "1.5", "True", "1e+16", "100.0", NULL);
    ck_assert(!has(metrics, "proton_kernel_count"));
    aorta_metrics_free(metrics);
    /* UTF-8 names come through unchanged. */
    put("proton.hatchet", tree(leaf("k\\u00e9rnel \xe2\x9c\x93", "1000000", "1"), NULL));
    metrics = parse();
    expect_top(metrics, "k\xc3\xa9rnel \xe2\x9c\x93", NULL);
    aorta_metrics_free(metrics);
}
END_TEST

/* ---- counts (docs/design.md, Deviation 2) --------------------------------- */

START_TEST(counts_add_up_launches)
{
    /* Case 141. */
    put("proton.hatchet", tree(leaf("k", "1000000", "3"), leaf("k", "2000000", "2"), NULL));
    expect_k(5, 3.0);
    /* Numbers that are counts: integral, within int64. */
    const char *good[][2] = {{"3.0", "3"}, {"1e2", "100"}, {"true", "1"}, {"false", "0"},
                             {"\"7\"", "7"}, {"\" 2.0 \"", "2"}, {"-0", "0"},
                             {"9223372036854775807", "9223372036854775807"}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        put("proton.hatchet", tree(leaf("k", "1000000", good[i][0]), NULL));
        expect_k(strtoll(good[i][1], NULL, 10), 1.0);
    }
}
END_TEST

START_TEST(an_unreadable_count_drops_the_count_not_the_times)
{
    /* Cases 142, 157, 158, and docs/design.md, Deviation 2 for fractions (upstream case
     * 169 truncated them) and for numbers beyond int64. */
    put("proton.hatchet", tree(leaf("k", "1000000", NULL), NULL));
    expect_k(-1, 1.0);
    const char *bad[] = {"Infinity", "-Infinity", "NaN",
                         "10000000000000000000000000000000000000000000000000000000000000000000",
                         "-5", "\"many\"", "2.7", "0.5", "-0.5", "9223372036854775808",
                         "18446744073709551615", "1e19", "null", "[]", "{}", "\"nan\""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        put("proton.hatchet", tree(leaf("k", "1000000", bad[i]), NULL));
        aorta_metrics_t *metrics = parse();
        ck_assert_msg(!has(metrics, "proton_kernel_count"), "count %s was read", bad[i]);
        ck_assert(gpu_of(metrics) == 1.0);
        aorta_metrics_free(metrics);
    }
    /* Case 159: one name's unreadable count drops the total. */
    put("proton.hatchet",
        tree(leaf("good", "2000000", "4"),
             strdup("{\"frame\":{\"name\":\"bad\"},\"metrics\":{\"time (ns)\":1000000},"
                    "\"children\":[]}"),
             NULL));
    aorta_metrics_t *metrics = parse();
    ck_assert(!has(metrics, "proton_kernel_count"));
    ck_assert(gpu_of(metrics) == 3.0);
    expect_top(metrics, "good", "bad", NULL);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(a_count_sum_beyond_int64_is_unreadable)
{
    /* Within one name, and across names. */
    put("proton.hatchet", tree(leaf("k", "1000000", "9223372036854775807"),
                               leaf("k", "1000000", "1"), NULL));
    expect_k(-1, 2.0);
    put("proton.hatchet", tree(leaf("a", "1000000", "9223372036854775807"),
                               leaf("b", "1000000", "1"), NULL));
    aorta_metrics_t *metrics = parse();
    ck_assert(!has(metrics, "proton_kernel_count"));
    aorta_metrics_free(metrics);
    /* Across files. */
    put("proton.hatchet", tree(leaf("k", "1000000", "9223372036854775807"), NULL));
    put("second.hatchet", tree(leaf("k", "1000000", "1"), NULL));
    expect_k(-1, 2.0);
}
END_TEST

START_TEST(a_count_missing_in_one_file_drops_the_total)
{
    /* Case 172. */
    put("a.hatchet", tree(leaf("k", "1000000", "2"), NULL));
    put("b.hatchet", tree(leaf("k", "1000000", NULL), NULL));
    expect_k(-1, 2.0);
}
END_TEST

/* ---- merging and ranking ------------------------------------------------- */

START_TEST(the_five_hottest_names_rank_first_ties_keep_encounter_order)
{
    /* Case 143. */
    char *leaves[12];
    for (int i = 0; i < 12; i++) {
        char name[8], ns[32];
        snprintf(name, sizeof name, "k%d", i);
        snprintf(ns, sizeof ns, "%d", (12 - i) * 1000000);
        leaves[i] = leaf(name, ns, "1");
    }
    put("proton.hatchet", tree(leaves[0], leaves[1], leaves[2], leaves[3], leaves[4], leaves[5],
                               leaves[6], leaves[7], leaves[8], leaves[9], leaves[10], leaves[11],
                               NULL));
    aorta_metrics_t *metrics = parse();
    expect_top(metrics, "k0", "k1", "k2", "k3", "k4", NULL);
    ck_assert(top_of(metrics) == 12.0);
    ck_assert(gpu_of(metrics) == 78.0);
    ck_assert_int_eq(count_of(metrics), 12);
    aorta_metrics_free(metrics);
    /* Case 166. */
    put("proton.hatchet", tree(leaf("b", "1000000", "1"), leaf("a", "1000000", "1"),
                               leaf("c", "2000000", "1"), leaf("d", "1000000", "1"), NULL));
    metrics = parse();
    expect_top(metrics, "c", "b", "a", "d", NULL);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(a_name_merges_across_branches_and_files)
{
    /* Case 167. */
    char *x = leaf("k", "1000000", "1");
    char *y = leaf("k", "2000000", "2");
    tu_text_t t = {0};
    tu_text_add(&t, "[{\"frame\":{\"name\":\"ROOT\"},\"metrics\":{},\"children\":[{\"frame\":{\"name\":"
            "\"X\"},\"metrics\":{},\"children\":[%s]},{\"frame\":{\"name\":\"Y\"},\"metrics\":{},"
            "\"children\":[%s]}]}]",
        x, y);
    free(x);
    free(y);
    put("proton.hatchet", t.data);
    expect_k(3, 3.0);
    /* Case 144. */
    tu_rmtree(dir);
    put("a.hatchet", tree(leaf("k", "1000000", "1"), NULL));
    put("b.hatchet", tree(leaf("k", "3000000", "1"), NULL));
    expect_k(2, 4.0);
}
END_TEST

START_TEST(each_file_is_summed_before_the_run_as_upstream_does)
{
    /* Upstream sums a file's leaves per name, then adds the file's total to
     * the run's: 1 + (b + b), not (1 + b) + b. */
    const double b = 1e-10 * 1e-6;
    double per_file = 1.0 + (b + b);
    double sequential = (1.0 + b) + b;
    ck_assert(per_file != sequential); /* the case tells the two apart */
    put("a.hatchet", tree(leaf("k", "1000000", "1"), NULL));
    put("b.hatchet", tree(leaf("k", "1e-10", "1"), leaf("k", "1e-10", "1"), NULL));
    aorta_metrics_t *metrics = parse();
    ck_assert(gpu_of(metrics) == per_file);
    aorta_metrics_free(metrics);
}
END_TEST

/* ---- the directory ------------------------------------------------------- */

START_TEST(profiles_are_found_anywhere_below_and_only_hatchet_files)
{
    /* Case 145. */
    put("rank0/proton.hatchet", tree(leaf("k", "1000000", "1"), NULL));
    put("rank1/deeper/x.hatchet", tree(leaf("k", "1000000", "1"), NULL));
    put("proton.chrome_trace", tree(leaf("k", "5000000", "1"), NULL));
    put("proton.hatchet.bak", tree(leaf("k", "5000000", "1"), NULL));
    put(".hatchet", tree(leaf("k", "1000000", "1"), NULL));
    char *fake = tu_join(dir, "dir.hatchet/inner.txt");
    tu_write(fake, "not a profile\n");
    free(fake);
    /* A symlinked profile is not followed. */
    char *target = tu_join(dir, "rank0/proton.hatchet");
    char *link = tu_join(dir, "link.hatchet");
    ck_assert_int_eq(symlink(target, link), 0);
    free(target);
    free(link);
    expect_k(3, 3.0);
}
END_TEST

START_TEST(a_missing_or_non_directory_gives_nothing_an_empty_one_the_dir)
{
    /* Cases 146-148, 163. */
    char *missing = tu_join(dir, "nope");
    aorta_metrics_t *metrics = parse_dir(missing);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    aorta_metrics_free(metrics);
    free(missing);
    char *file = tu_join(dir, "file");
    tu_write(file, "x");
    metrics = parse_dir(file);
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    aorta_metrics_free(metrics);
    free(file);
    char *link = tu_join(dir, "link");
    char *sub = tu_join(dir, "sub");
    char *inner = tu_join(sub, "proton.hatchet");
    tu_write(inner, "[]");
    ck_assert_int_eq(symlink(sub, link), 0);
    metrics = parse_dir(link); /* a symlinked directory is refused */
    ck_assert_uint_eq(aorta_metrics_count(metrics), 0);
    aorta_metrics_free(metrics);
    metrics = parse_dir(sub); /* a profile of [] counts nothing */
    expect_only_dir(metrics, sub);
    aorta_metrics_free(metrics);
    /* The directory is echoed as given, not normalised. */
    char *spelled = malloc(strlen(sub) + 4);
    sprintf(spelled, "%s//.", sub);
    metrics = parse_dir(spelled);
    expect_only_dir(metrics, spelled);
    aorta_metrics_free(metrics);
    free(spelled);
    free(inner);
    free(link);
    free(sub);
}
END_TEST

START_TEST(one_profile_is_open_at_a_time)
{
    /* Case 164: with descriptors for only a few files, 64 still all count. */
    for (int i = 0; i < 64; i++) {
        char name[32];
        snprintf(name, sizeof name, "rank%03d.hatchet", i);
        put(name, tree(leaf("k", "1000000", "1"), NULL));
    }
    int highest = 0;
    for (int fd = 0; fd < 1024; fd++)
        if (fcntl(fd, F_GETFD) != -1)
            highest = fd;
    struct rlimit limit = {(rlim_t)highest + 6, (rlim_t)highest + 6};
    ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &limit), 0);
    expect_k(64, 64.0);
}
END_TEST

/* ---- depth --------------------------------------------------------------- */

/* A chain of frames nested frames deep with kernel k at the bottom: JSON
 * nesting of 2 * frames + 1 levels. */
static char *chain(int frames, int python_names)
{
    tu_text_t t = {0};
    tu_text_add(&t, "[");
    for (int i = 0; i < frames - 1; i++) {
        if (python_names)
            tu_text_add(&t, "{\"frame\":{\"name\":\"payload.py:%d@layer_%d\",\"type\":\"function\"},"
                    "\"metrics\":{\"count\":1,\"time (ns)\":%d},\"children\":[",
                i + 10, i, (frames - i) * 1000);
        else
            tu_text_add(&t, "{\"children\":[");
    }
    tu_text_add(&t, "{\"frame\":{\"name\":\"k\"},\"metrics\":{\"count\":3,\"time (ns)\":2000000}}");
    for (int i = 0; i < frames - 1; i++)
        tu_text_add(&t, "]}");
    tu_text_add(&t, "]");
    return t.data;
}

START_TEST(a_python_context_tree_sixty_frames_deep_is_read)
{
    /* context: python nests a frame per Python call; json-c's default depth
     * of 32 would refuse this.  Kernels sit at several depths. */
    tu_text_t t = {0};
    int depth = 60;
    double expected_ms = 0.0;
    int64_t expected_count = 0;
    tu_text_add(&t, "[{\"frame\":{\"name\":\"ROOT\",\"type\":\"function\"},\"metrics\":{\"count\":0,"
            "\"time (ns)\":0},\"children\":[");
    for (int i = 0; i < depth; i++) {
        tu_text_add(&t, "{\"frame\":{\"name\":\"train.py:%d@step_%d\",\"type\":\"function\"},"
                "\"metrics\":{\"count\":%d,\"time (ns)\":%d},\"children\":[",
            100 + i, i, depth - i, 999999);
        if (i % 10 == 9) {
            /* A kernel beside the next frame, at this depth. */
            tu_text_add(&t, "{\"frame\":{\"name\":\"vector_add\",\"type\":\"function\"},\"metrics\":{"
                    "\"count\":2,\"device_id\":\"0\",\"device_type\":\"CUDA\",\"time (ns)\":%d},"
                    "\"children\":[]},",
                1000 * (i + 1));
            expected_ms += 1000 * (i + 1) * 1e-6;
            expected_count += 2;
        }
    }
    const double matmul_ms = 123456 * 1e-6;
    tu_text_add(&t, "{\"frame\":{\"name\":\"matmul_kernel\",\"type\":\"function\"},\"metrics\":{"
            "\"count\":5,\"time (ns)\":123456}}");
    for (int i = 0; i < depth; i++)
        tu_text_add(&t, "]}");
    tu_text_add(&t, "]},{\"CUDA\":{\"0\":{\"arch\":\"90\",\"num_sms\":132}}}]");
    put("proton.hatchet", t.data);
    aorta_metrics_t *metrics = parse();
    ck_assert_int_eq(count_of(metrics), expected_count + 5);
    ck_assert_double_eq_tol(gpu_of(metrics), expected_ms + matmul_ms, 1e-12);
    if (expected_ms > matmul_ms)
        expect_top(metrics, "vector_add", "matmul_kernel", NULL);
    else
        expect_top(metrics, "matmul_kernel", "vector_add", NULL);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(a_tree_at_the_depth_limit_is_read_without_recursion)
{
    /* 4999 frames: 9999 levels of nesting, within the limit of 10,000. */
    put("proton.hatchet", chain(4999, 0));
    expect_k(3, 2.0);
    put("proton.hatchet", chain(2000, 1));
    aorta_metrics_t *metrics = parse();
    ck_assert_int_eq(count_of(metrics), 3);
    aorta_metrics_free(metrics);
}
END_TEST

START_TEST(a_file_nested_deeper_than_the_limit_contributes_nothing)
{
    /* 5000 frames: 10,001 levels. */
    put("deep.hatchet", chain(5000, 0));
    expect_nothing_counted();
    /* Other files still count. */
    put("shallow.hatchet", tree(leaf("k", "1000000", "1"), NULL));
    expect_k(1, 1.0);
    /* Far deeper, and through the child the core runs parse in. */
    put("deep.hatchet", chain(200000, 0));
    aorta_metrics_t *metrics = ar_parse_in_child(pt_plugin(), NULL, dir);
    ck_assert_int_eq(count_of(metrics), 1);
    aorta_metrics_free(metrics);
    /* A deep complete subtree followed by a syntax error. */
    char *deep = chain(4990, 0);
    deep[strlen(deep) - 1] = ',';
    tu_text_t t = {0};
    tu_text_add(&t, "%s oops]", deep);
    free(deep);
    put("deep.hatchet", t.data);
    expect_k(1, 1.0);
}
END_TEST

/* ---- malformed files ----------------------------------------------------- */

START_TEST(malformed_files_contribute_nothing)
{
    /* Cases 149-151 and more: each beside a good profile, which still counts. */
    const char *corpus[] = {
        "{not json at all",
        "{\"totally\":\"different\"}",
        "{\"traceEvents\":[{\"name\":\"k\",\"dur\":5}]}",
        "",
        "   \n",
        "null",
        "123",
        "NaN",
        "\"str\"",
        "[]",
        "[{}]",
        "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":1e6}}] x",
        "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":1e6}}]]",
        "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":1e6}},]",
        "[{\"frame\":{\"name\":'k'},\"metrics\":{\"time (ns)\":1e6}}]",
        "/* c */[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":1e6}}]",
        "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":01}}]",
        "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":nan}}]",
        "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":1e6}}",
        "\xef\xbb\xbf[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":1e6}}]",
        "[{\"frame\":{\"name\":\"k\xff\"},\"metrics\":{\"time (ns)\":1e6}}]",
        "[{\"frame\":{\"name\":\"k\xc0\xaf\"},\"metrics\":{\"time (ns)\":1e6}}]",
        "[{\"frame\":{\"name\":\"k\xed\xa0\x80\"},\"metrics\":{\"time (ns)\":1e6}}]",
        "[{\"frame\":{\"name\":\"k\xf4\x90\x80\x80\"},\"metrics\":{\"time (ns)\":1e6}}]",
        "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":1e6}}]\xe2\x9c",
        "[{\"frame\":{\"name\":\"k\\x41\"},\"metrics\":{\"time (ns)\":1e6}}]",
        "[{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":-}}]",
        "[1,2",
        "[\"a\" \"b\"]",
    };
    for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
        tu_rmtree(dir);
        put_copy("a.hatchet", corpus[i]);
        put("b.hatchet", tree(leaf("good", "1000000", "1"), NULL));
        aorta_metrics_t *metrics = parse();
        const aorta_metric_t *top = kernels_of(metrics);
        ck_assert_msg(top->string_count == 1 && strcmp(top->strings[0], "good") == 0,
                      "corpus %zu counted", i);
        ck_assert_int_eq(count_of(metrics), 1);
        aorta_metrics_free(metrics);
    }
}
END_TEST

START_TEST(an_unreadable_file_contributes_nothing)
{
    if (geteuid() == 0)
        return; /* root reads anything */
    put("a.hatchet", tree(leaf("k", "1000000", "1"), NULL));
    char *path = tu_join(dir, "a.hatchet");
    chmod(path, 0);
    free(path);
    expect_nothing_counted();
}
END_TEST

START_TEST(a_character_split_between_read_chunks_is_still_utf8)
{
    /* The reader takes 256 KiB at a time; put a 2-, 3- and 4-byte character
     * across that boundary (and across the next ones). */
    const char *chars[] = {"\xc3\xa9", "\xe2\x9c\x93", "\xf0\x9f\x98\x80"};
    for (size_t c = 0; c < 3; c++) {
        for (size_t shift = 1; shift < strlen(chars[c]); shift++) {
            const char *head = "[{\"frame\":{\"name\":\"k";
            size_t boundary = 256 * 1024;
            size_t pad = boundary - shift - strlen(head);
            tu_text_t t = {0};
            tu_text_add(&t, "[");
            char *spaces = malloc(pad + 1);
            memset(spaces, ' ', pad);
            spaces[pad] = '\0';
            tu_text_add(&t, "%s%s%s\"},\"metrics\":{\"count\":1,\"time (ns)\":1e6}}]", spaces, head + 1,
                chars[c]);
            free(spaces);
            ck_assert(memcmp(t.data + boundary - shift, chars[c], strlen(chars[c])) == 0);
            put("proton.hatchet", t.data);
            aorta_metrics_t *metrics = parse();
            char want[16];
            snprintf(want, sizeof want, "k%s", chars[c]);
            expect_top(metrics, want, NULL);
            aorta_metrics_free(metrics);
        }
    }
}
END_TEST

/* A small deterministic generator, so failures reproduce. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

START_TEST(mutations_of_the_real_capture_never_crash_and_stay_consistent)
{
    char *fixture_path = tu_srcdir("examples/no-gpu/triton/vecadd.hatchet");
    char *original = tu_read(fixture_path);
    free(fixture_path);
    size_t len = strlen(original);
    const char tokens[] = "{}[]\",:0123456789.eE-+ \ntruefalsnulNIify\\\xff\xc3";
    for (int round = 0; round < 400; round++) {
        char *mutant = malloc(len + 64);
        memcpy(mutant, original, len + 1);
        size_t mlen = len;
        int edits = 1 + (int)(rng() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)(rng() % mlen);
            switch (rng() % 4) {
            case 0: /* replace a byte */
                mutant[at] = tokens[rng() % (sizeof tokens - 1)];
                break;
            case 1: /* delete a byte */
                memmove(mutant + at, mutant + at + 1, mlen - at);
                mlen--;
                break;
            case 2: /* insert a byte */
                memmove(mutant + at + 1, mutant + at, mlen - at + 1);
                mutant[at] = tokens[rng() % (sizeof tokens - 1)];
                mlen++;
                break;
            default: /* truncate */
                mutant[at] = '\0';
                mlen = at;
                break;
            }
            if (mlen == 0)
                break;
        }
        mutant[mlen] = '\0';
        put("proton.hatchet", mutant);
        aorta_metrics_t *metrics = parse();
        ck_assert(has(metrics, "proton_artifact_dir"));
        if (has(metrics, "proton_gpu_time_ms")) {
            ck_assert(isfinite(gpu_of(metrics)) && gpu_of(metrics) >= 0);
            ck_assert(top_of(metrics) <= gpu_of(metrics));
            ck_assert_uint_ge(kernels_of(metrics)->string_count, 1);
            ck_assert_uint_le(kernels_of(metrics)->string_count, 5);
        }
        if (has(metrics, "proton_kernel_count"))
            ck_assert_int_ge(count_of(metrics), 0);
        aorta_metrics_free(metrics);
    }
    free(original);
}
END_TEST

static Suite *proton_parse_suite(void)
{
    Suite *suite = suite_create("proton_parse");
    TCase *fixture = tcase_create("fixture");
    tcase_add_checked_fixture(fixture, setup, teardown);
    tcase_set_timeout(fixture, 30);
    tcase_add_test(fixture, the_real_capture_gives_the_upstream_figures);
    tcase_add_test(fixture, parse_in_a_child_gives_the_same_figures);
    tcase_add_test(fixture, the_h200_captures_give_their_leaves_sums);
    suite_add_tcase(suite, fixture);

    TCase *rules = tcase_create("rules");
    tcase_add_checked_fixture(rules, setup, teardown);
    tcase_set_timeout(rules, 30);
    tcase_add_test(rules, one_leaf_gives_the_five_metrics);
    tcase_add_test(rules, time_units_convert_to_milliseconds);
    tcase_add_test(rules, keys_that_are_not_a_time_are_not_read);
    tcase_add_test(rules, unusable_time_values_are_skipped_for_the_next_key);
    tcase_add_test(rules, a_sum_that_overflows_reports_no_times);
    tcase_add_test(rules, interior_frames_are_never_counted);
    tcase_add_test(rules, roots_are_the_list_elements_or_the_value_itself);
    tcase_add_test(rules, nodes_without_a_name_frame_or_metrics_are_skipped);
    tcase_add_test(rules, names_are_stripped_and_non_strings_read_as_python_prints_them);
    tcase_add_test(rules, counts_add_up_launches);
    tcase_add_test(rules, an_unreadable_count_drops_the_count_not_the_times);
    tcase_add_test(rules, a_count_sum_beyond_int64_is_unreadable);
    tcase_add_test(rules, a_count_missing_in_one_file_drops_the_total);
    tcase_add_test(rules, the_five_hottest_names_rank_first_ties_keep_encounter_order);
    tcase_add_test(rules, a_name_merges_across_branches_and_files);
    tcase_add_test(rules, each_file_is_summed_before_the_run_as_upstream_does);
    suite_add_tcase(suite, rules);

    TCase *files = tcase_create("files");
    tcase_add_checked_fixture(files, setup, teardown);
    tcase_set_timeout(files, 60);
    tcase_add_test(files, profiles_are_found_anywhere_below_and_only_hatchet_files);
    tcase_add_test(files, a_missing_or_non_directory_gives_nothing_an_empty_one_the_dir);
    tcase_add_test(files, one_profile_is_open_at_a_time);
    tcase_add_test(files, a_python_context_tree_sixty_frames_deep_is_read);
    tcase_add_test(files, a_tree_at_the_depth_limit_is_read_without_recursion);
    tcase_add_test(files, a_file_nested_deeper_than_the_limit_contributes_nothing);
    tcase_add_test(files, malformed_files_contribute_nothing);
    tcase_add_test(files, an_unreadable_file_contributes_nothing);
    tcase_add_test(files, a_character_split_between_read_chunks_is_still_utf8);
    tcase_add_test(files, mutations_of_the_real_capture_never_crash_and_stay_consistent);
    suite_add_tcase(suite, files);
    return suite;
}

AORTA_CHECK_MAIN(proton_parse_suite)
