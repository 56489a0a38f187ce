/* SPDX-License-Identifier: MIT */
/* The helpers libaorta offers collectors: path joining and expansion,
 * number parsing, whitespace stripping, PATH lookup and the no-follow walk
 * (the text helpers are in check_text.c). */
#include "config.h"

#include <fcntl.h>
#include <pwd.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "aorta/collector.h"
#include "testutil.h"

static void expect_join(const char *base, const char *leaf, const char *expected)
{
    char *joined = aorta_path_join(base, leaf);
    ck_assert_msg(strcmp(joined, expected) == 0, "join(%s, %s) = %s, expected %s", base,
                  leaf ? leaf : "NULL", joined, expected);
    aorta_free(joined);
}

START_TEST(path_join_normalises_like_pathlib)
{
    expect_join("/tmp/o", "proton", "/tmp/o/proton");
    expect_join("/tmp/o/", "proton", "/tmp/o/proton");
    expect_join("relative/out", "proton", "relative/out/proton");
    expect_join("./relative//out/.", "proton", "relative/out/proton");
    expect_join("a/../b", NULL, "a/../b");
    expect_join("", NULL, ".");
    expect_join(".", NULL, ".");
    expect_join("", "proton", "proton");
    expect_join("/a", "/abs", "/abs");
    expect_join("//srv/x", NULL, "//srv/x");
    expect_join("///srv/x", NULL, "/srv/x");
    expect_join("/", NULL, "/");
    expect_join("/tmp/o", "", "/tmp/o");
}
END_TEST

static void expect_expand(const aorta_env_t *env, const char *path, const char *expected)
{
    char *got = aorta_path_expand(path, env);
    ck_assert_msg(strcmp(got, expected) == 0, "expand(%s) = %s, Python says %s", path, got,
                  expected);
    aorta_free(got);
}

/* The home that os.path.expanduser finds in the password database. */
static char *home_of(const struct passwd *entry, const char *rest)
{
    size_t len = strlen(entry->pw_dir);
    while (len > 0 && entry->pw_dir[len - 1] == '/')
        len--;
    char *out = malloc(len + strlen(rest) + 2);
    sprintf(out, "%.*s%s", (int)len, entry->pw_dir, rest);
    if (!out[0])
        strcpy(out, "/");
    return out;
}

START_TEST(path_expand_follows_python)
{
    /* Computed with Python 3.11.7 as
     *   env -i HOME=/home/u/ A=x B=/b/ E= C='$A' python3 -c \
     *     'import os; print(os.path.expandvars(os.path.expanduser(p)))'
     * for each p. */
    aorta_env_t *env = aorta_env_new();
    aorta_env_set(env, "HOME", "/home/u/");
    aorta_env_set(env, "A", "x");
    aorta_env_set(env, "B", "/b/");
    aorta_env_set(env, "E", "");
    aorta_env_set(env, "C", "$A");
    static const char *const cases[][2] = {
        {"~", "/home/u"},
        {"~/bin/tool", "/home/u/bin/tool"},
        {"~nosuchuser-aorta/x", "~nosuchuser-aorta/x"},
        {"x~", "x~"},
        {"$A/y", "x/y"},
        {"${A}y", "xy"},
        {"$Ay", "$Ay"},
        {"$UNSET/z", "$UNSET/z"},
        {"${A$B}", "${A$B}"},
        {"$$A", "$x"},
        {"$", "$"},
        {"${}", "${}"},
        {"${E}end", "end"},
        {"~/$A", "/home/u/x"},
        {"$B~", "/b/~"},
        {"${A", "${A"},
        {"a$A$A", "axx"},
        {"$A_1", "$A_1"},
        {"$C", "$A"},
        {"${B}${A}", "/b/x"},
        {"~$A", "~x"},
        {"~/${UNSET}", "/home/u/${UNSET}"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_expand(env, cases[i][0], cases[i][1]);
    /* env -i HOME=/ python3: expanduser gives "/", "/x" and "/" */
    aorta_env_set(env, "HOME", "/");
    expect_expand(env, "~", "/");
    expect_expand(env, "~/x", "/x");
    expect_expand(env, "~/", "/");
    aorta_env_free(env);

    /* Without HOME (and with no environment at all) the password database
     * names the current user's home; ~user is looked up there too. */
    struct passwd *me = getpwuid(getuid());
    if (me) {
        char *expected = home_of(me, "/bin");
        env = aorta_env_new();
        expect_expand(env, "~/bin", expected);
        expect_expand(NULL, "~/bin", expected);
        expect_expand(NULL, "$HOME/bin", "$HOME/bin");
        aorta_env_free(env);
        free(expected);
    }
    struct passwd *root = getpwnam("root");
    if (root) {
        char *expected = home_of(root, "/x");
        expect_expand(NULL, "~root/x", expected);
        free(expected);
    }
}
END_TEST

START_TEST(unknown_option_keys_are_refused_as_upstream_words_it)
{
    static const char *const levels[] = {"low", "high", NULL};
    static const aorta_option_spec_t table[] = {
        {"zeta", NULL, NULL, "listed first"},
        {"alpha", levels, "low", "listed second"},
        {NULL, NULL, NULL, NULL},
    };
    aorta_error_t *err = aorta_error_new();
    aorta_options_t *options = aorta_options_new();
    ck_assert_int_eq(aorta_options_check_keys(options, table, "demo", err), 0);
    aorta_options_set(options, "alpha", "anything");
    ck_assert_int_eq(aorta_options_check_keys(options, table, "demo", err), 0);
    ck_assert_ptr_null(aorta_error_message(err));
    /* Python: f"demo: unknown option(s) {sorted(bad)}; valid: {list(table)}"
     * with bad = {"it's", "Zeta", "caf\u00e9", "b"}. */
    aorta_options_set(options, "it's", "1");
    aorta_options_set(options, "Zeta", "1");
    aorta_options_set(options, "caf\xc3\xa9", "1");
    aorta_options_set(options, "b", "1");
    ck_assert_int_eq(aorta_options_check_keys(options, table, "demo", err), -1);
    ck_assert_str_eq(aorta_error_message(err),
                     "demo: unknown option(s) ['Zeta', 'b', 'caf\xc3\xa9', \"it's\"]; "
                     "valid: ['zeta', 'alpha']");
    aorta_options_free(options);
    aorta_error_free(err);
}
END_TEST

static void expect_number(const char *text, double expected)
{
    double value = -12345;
    ck_assert_msg(aorta_number_parse(text, &value) == 0, "'%s' should parse", text);
    ck_assert_msg(value == expected, "'%s' = %.17g, expected %.17g", text, value, expected);
}

static void expect_not_number(const char *text)
{
    double value;
    ck_assert_msg(aorta_number_parse(text, &value) == -1, "'%s' should not parse", text);
}

START_TEST(numbers_follow_python_float)
{
    expect_number("539404", 539404);
    expect_number(" 42 ", 42);
    expect_number("\t-5000\n", -5000);
    expect_number("+1.5", 1.5);
    expect_number("1e2", 100);
    expect_number("1E+2", 100);
    expect_number(".5", 0.5);
    expect_number("5.", 5);
    expect_number("1_000", 1000);
    expect_number("1_0.2_5e1_0", 10.25e10);
    expect_number("0.00000000e+00", 0);
    expect_number("2.920e-03", 2.92e-3);
    expect_number("-0", 0);
    expect_number("\xc2\xa0" "7" "\xe3\x80\x80", 7);
    expect_not_number("");
    expect_not_number("   ");
    expect_not_number("not-a-number");
    expect_not_number("0x10");
    expect_not_number("nan");
    expect_not_number("NaN");
    expect_not_number("inf");
    expect_not_number("-Infinity");
    expect_not_number("1e400");
    expect_not_number("_1");
    expect_not_number("1_");
    expect_not_number("1__0");
    expect_not_number("1e");
    expect_not_number(".");
    expect_not_number("1 2");
    expect_not_number("1,5");
    double value;
    ck_assert_int_eq(aorta_number_parse_n("12abc", 2, &value), 0);
    ck_assert(value == 12);
    /* No length limit, as Python's float(): 5,000 zeros, then a fraction
     * and an exponent that bring it back; padded with spaces. */
    size_t n = 12000;
    char *text = malloc(n + 1);
    size_t at = 0;
    at += (size_t)sprintf(text + at, "  0.");
    for (int i = 0; i < 5000; i++)
        text[at++] = '0';
    at += (size_t)sprintf(text + at, "1e5000  ");
    ck_assert_int_eq(aorta_number_parse_n(text, at, &value), 0);
    ck_assert_msg(fabs(value - 0.1) < 1e-15, "%.17g", value);
    at = 0;
    for (int i = 0; i < 9000; i++)
        text[at++] = i % 2 ? '_' : '7';
    text[at - 1] = '7'; /* 7_7_..._7 ends on a digit */
    ck_assert_int_eq(aorta_number_parse_n(text, at, &value), -1); /* 4501 sevens: inf */
    text[0] = 'x';
    ck_assert_int_eq(aorta_number_parse_n(text, at, &value), -1);
    free(text);
}
END_TEST

START_TEST(counts_are_integral_non_negative_int64)
{
    int64_t count = -1;
    ck_assert_int_eq(aorta_count_from_double(3.0, &count), 0);
    ck_assert_int_eq(count, 3);
    ck_assert_int_eq(aorta_count_from_double(-0.0, &count), 0);
    ck_assert_int_eq(count, 0);
    ck_assert_int_eq(aorta_count_from_double(1e2, &count), 0);
    ck_assert_int_eq(count, 100);
    ck_assert_int_eq(aorta_count_from_double(1.9, &count), -1);
    ck_assert_int_eq(aorta_count_from_double(-1, &count), -1);
    ck_assert_int_eq(aorta_count_from_double(1e19, &count), -1);
    ck_assert_int_eq(aorta_count_from_double(9223372036854775808.0, &count), -1);
    ck_assert_int_eq(aorta_count_from_double(9223372036854774784.0, &count), 0);
}
END_TEST

START_TEST(strip_matches_python)
{
    size_t len;
    const char *text = " \t k \x1c\n";
    const char *start = aorta_text_strip(text, strlen(text), &len);
    ck_assert_uint_eq(len, 1);
    ck_assert_int_eq(start[0], 'k');
    text = "\xe2\x80\x83name(x)\xc2\x85";
    start = aorta_text_strip(text, strlen(text), &len);
    ck_assert_uint_eq(len, 7);
    ck_assert_int_eq(memcmp(start, "name(x)", 7), 0);
    start = aorta_text_strip("   ", 3, &len);
    ck_assert_uint_eq(len, 0);
    /* A lone continuation byte or a different 3-byte character is not space. */
    text = "\xe2\x82\xac";
    start = aorta_text_strip(text, 3, &len);
    ck_assert_uint_eq(len, 3);
}
END_TEST

START_TEST(which_searches_path_like_shutil)
{
    char *dir = tu_tmpdir();
    char *tool = tu_join(dir, "fake-tool");
    char *plain = tu_join(dir, "plain-file");
    tu_write_mode(tool, "#!/bin/sh\n", 0755);
    tu_write_mode(plain, "data\n", 0644);
    char *sub = tu_join(dir, "sub-dir");
    mkdir(sub, 0755);

    char *path_value = malloc(strlen(dir) * 2 + 16);
    sprintf(path_value, "/nonexistent:%s", dir);
    char *found = aorta_which("fake-tool", path_value);
    ck_assert_str_eq(found, tool);
    aorta_free(found);
    ck_assert_ptr_null(aorta_which("plain-file", path_value));
    ck_assert_ptr_null(aorta_which("sub-dir", path_value));
    ck_assert_ptr_null(aorta_which("fake-tool", ""));
    ck_assert_ptr_null(aorta_which("", path_value));
    found = aorta_which(tool, "");
    ck_assert_str_eq(found, tool);
    aorta_free(found);
    ck_assert_ptr_null(aorta_which(plain, path_value));
    found = aorta_which("sh", NULL); /* PATH unset: /bin:/usr/bin */
    ck_assert_ptr_nonnull(found);
    aorta_free(found);

    free(path_value);
    tu_rmtree(dir);
    free(sub);
    free(plain);
    free(tool);
    free(dir);
}
END_TEST

typedef struct seen {
    char paths[32][512];
    size_t count;
    int stop_after;
} seen_t;

static int record(const char *path, int fd, void *user)
{
    seen_t *seen = user;
    char buffer[8];
    ck_assert(read(fd, buffer, sizeof buffer) >= 0);
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    ck_assert(!(fcntl(fd, F_GETFL) & O_NONBLOCK));
    snprintf(seen->paths[seen->count++], sizeof seen->paths[0], "%s", path);
    return seen->stop_after && seen->count >= (size_t)seen->stop_after;
}

START_TEST(walk_is_sorted_files_first_and_never_follows_links)
{
    char *dir = tu_tmpdir();
    char *outside = tu_tmpdir();
    char path[1024];
#define MK(rel) (snprintf(path, sizeof path, "%s/%s", dir, rel), path)
    tu_write(MK("b_kernel_stats.csv"), "x");
    tu_write(MK("a_kernel_stats.csv"), "x");
    tu_write(MK("a_kernel_trace.csv"), "x");
    tu_write(MK("host/9_kernel_stats.csv"), "x");
    tu_write(MK("aa/deeper/1_kernel_stats.csv"), "x");
    mkdir(MK("dir_kernel_stats.csv"), 0755);
    snprintf(path, sizeof path, "%s/secret_kernel_stats.csv", outside);
    tu_write(path, "secret");
    ck_assert_int_eq(symlink(path, MK("link_kernel_stats.csv")), 0);
    ck_assert_int_eq(symlink(outside, MK("linked_dir")), 0);
    ck_assert_int_eq(mkfifo(MK("fifo_kernel_stats.csv"), 0644), 0);

    seen_t seen = {.count = 0};
    ck_assert_int_eq(aorta_walk_files(dir, "_kernel_stats.csv", record, &seen), AORTA_WALK_OK);
    ck_assert_uint_eq(seen.count, 4);
    char expected[4][1024];
    snprintf(expected[0], sizeof expected[0], "%s/a_kernel_stats.csv", dir);
    snprintf(expected[1], sizeof expected[1], "%s/b_kernel_stats.csv", dir);
    snprintf(expected[2], sizeof expected[2], "%s/aa/deeper/1_kernel_stats.csv", dir);
    snprintf(expected[3], sizeof expected[3], "%s/host/9_kernel_stats.csv", dir);
    for (size_t i = 0; i < 4; i++)
        ck_assert_str_eq(seen.paths[i], expected[i]);

    seen_t stopped = {.count = 0, .stop_after = 1};
    ck_assert_int_eq(aorta_walk_files(dir, "_kernel_stats.csv", record, &stopped),
                     AORTA_WALK_STOPPED);
    ck_assert_uint_eq(stopped.count, 1);

    /* The root itself: missing, a file, a symlink. */
    seen_t none = {.count = 0};
    ck_assert_int_eq(aorta_walk_files(MK("missing"), ".csv", record, &none), AORTA_WALK_NOT_DIR);
    ck_assert_int_eq(aorta_walk_files(MK("a_kernel_stats.csv"), ".csv", record, &none),
                     AORTA_WALK_NOT_DIR);
    ck_assert_int_eq(aorta_walk_files(MK("linked_dir"), ".csv", record, &none),
                     AORTA_WALK_SYMLINK);
    ck_assert_uint_eq(none.count, 0);
#undef MK
    tu_rmtree(dir);
    tu_rmtree(outside);
    free(dir);
    free(outside);
}
END_TEST

START_TEST(walk_sorted_is_the_order_of_whole_paths)
{
    /* Python's sorted(Path.rglob()): components compared in turn, so a
     * directory's files sort among its files by its name. */
    char *dir = tu_tmpdir();
    char *outside = tu_tmpdir();
    char path[1024];
#define MK(rel) (snprintf(path, sizeof path, "%s/%s", dir, rel), path)
    const char *files[] = {"a0_kernel_stats.csv", "a/1_kernel_stats.csv", "a/t_kernel_stats.csv",
                           "a/b/t_kernel_stats.csv", "Z_kernel_stats.csv", "a_kernel_stats.csv",
                           "b/x_kernel_trace.csv"};
    for (size_t i = 0; i < 7; i++)
        tu_write(MK(files[i]), "x");
    ck_assert_int_eq(symlink(outside, MK("a/linked")), 0);
    seen_t seen = {.count = 0};
    ck_assert_int_eq(aorta_walk_files_sorted(dir, "_kernel_stats.csv", record, &seen),
                     AORTA_WALK_OK);
    const char *order[] = {"Z_kernel_stats.csv", "a/1_kernel_stats.csv", "a/b/t_kernel_stats.csv",
                           "a/t_kernel_stats.csv", "a0_kernel_stats.csv", "a_kernel_stats.csv"};
    ck_assert_uint_eq(seen.count, 6);
    for (size_t i = 0; i < 6; i++) {
        char want[1024];
        snprintf(want, sizeof want, "%s/%s", dir, order[i]);
        ck_assert_str_eq(seen.paths[i], want);
    }
    /* The files-first walk keeps its documented order. */
    seen_t first = {.count = 0};
    ck_assert_int_eq(aorta_walk_files(dir, "_kernel_stats.csv", record, &first), AORTA_WALK_OK);
    ck_assert_uint_eq(first.count, 6);
    snprintf(path, sizeof path, "%s/a0_kernel_stats.csv", dir);
    ck_assert_str_eq(first.paths[1], path);
    /* Stopping, and the root's refusals, as aorta_walk_files(). */
    seen_t stopped = {.count = 0, .stop_after = 1};
    ck_assert_int_eq(aorta_walk_files_sorted(dir, ".csv", record, &stopped), AORTA_WALK_STOPPED);
    ck_assert_int_eq(aorta_walk_files_sorted(MK("a/linked"), ".csv", record, &stopped),
                     AORTA_WALK_SYMLINK);
    ck_assert_int_eq(aorta_walk_files_sorted(MK("missing"), ".csv", record, &stopped),
                     AORTA_WALK_NOT_DIR);
#undef MK
    tu_rmtree(dir);
    tu_rmtree(outside);
    free(dir);
    free(outside);
}
END_TEST

START_TEST(walk_trailing_slash_and_depth_limit)
{
    char *dir = tu_tmpdir();
    char path[4096];
    size_t len = (size_t)snprintf(path, sizeof path, "%s", dir);
    for (int depth = 0; depth < 70; depth++)
        len += (size_t)snprintf(path + len, sizeof path - len, "/d");
    snprintf(path + len, sizeof path - len, "/deep.hatchet");
    tu_write(path, "{}");
    snprintf(path, sizeof path, "%s/d/shallow.hatchet", dir);
    tu_write(path, "{}");
    char with_slash[1024];
    snprintf(with_slash, sizeof with_slash, "%s/", dir);
    seen_t seen = {.count = 0};
    ck_assert_int_eq(aorta_walk_files(with_slash, ".hatchet", record, &seen), AORTA_WALK_OK);
    ck_assert_uint_eq(seen.count, 1);
    ck_assert_str_eq(seen.paths[0], path);
    tu_rmtree(dir);
    free(dir);
}
END_TEST

static Suite *helpers_suite(void)
{
    Suite *suite = suite_create("helpers");
    TCase *tc = tcase_create("helpers");
    tcase_add_test(tc, path_join_normalises_like_pathlib);
    tcase_add_test(tc, path_expand_follows_python);
    tcase_add_test(tc, unknown_option_keys_are_refused_as_upstream_words_it);
    tcase_add_test(tc, numbers_follow_python_float);
    tcase_add_test(tc, counts_are_integral_non_negative_int64);
    tcase_add_test(tc, strip_matches_python);
    tcase_add_test(tc, which_searches_path_like_shutil);
    tcase_add_test(tc, walk_is_sorted_files_first_and_never_follows_links);
    tcase_add_test(tc, walk_trailing_slash_and_depth_limit);
    tcase_add_test(tc, walk_sorted_is_the_order_of_whole_paths);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(helpers_suite)
