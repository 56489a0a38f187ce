/* SPDX-License-Identifier: MIT */
/* The core's JSON layer: Python-style floats, atomic writes, strict parsing. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/json.h"
#include "testutil.h"

static void expect_double(double value, const char *text)
{
    ar_json_t *json = ar_json_double(value);
    char *dumped = ar_json_dump(json, 0);
    ck_assert_msg(strcmp(dumped, text) == 0, "%.17g dumped as %s, expected %s", value, dumped,
                  text);
    free(dumped);
    ar_json_free(json);
}

START_TEST(doubles_print_like_python_repr)
{
    expect_double(0.539404, "0.539404");
    expect_double(3.0, "3.0");
    expect_double(0.0, "0.0");
    expect_double(-0.0, "-0.0");
    expect_double(1e-05, "1e-05");
    expect_double(0.0001, "0.0001");
    expect_double(1400.926, "1400.926");
    expect_double(0.05440199999999999, "0.05440199999999999");
    expect_double(1e16, "1e+16");
    expect_double(1e15, "1000000000000000.0");
    expect_double(123456789012.0, "123456789012.0");
    expect_double(-2.5e-300, "-2.5e-300");
    expect_double(0.1 + 0.2, "0.30000000000000004");
    ck_assert_ptr_null(ar_json_double(NAN));
}
END_TEST

START_TEST(objects_keep_order_and_round_trip)
{
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "verdict", ar_json_string("pass"));
    ar_json_set(obj, "exit_code", ar_json_int(0));
    ar_json_set(obj, "peak_vram_mib", NULL);
    char *items[] = {"a/b", "c"};
    ar_json_set(obj, "argv", ar_json_strings(items, 2));
    char *text = ar_json_dump(obj, 0);
    ck_assert_str_eq(text, "{\"verdict\":\"pass\",\"exit_code\":0,\"peak_vram_mib\":null,"
                           "\"argv\":[\"a/b\",\"c\"]}");
    ar_json_t *back = ar_json_parse(text, strlen(text), 32);
    ck_assert_ptr_nonnull(back);
    ck_assert_str_eq(ar_json_get_string(ar_json_get(back, "verdict")), "pass");
    ck_assert_int_eq(ar_json_type(ar_json_get(back, "peak_vram_mib")), AR_JSON_NULL);
    ck_assert(ar_json_has(back, "peak_vram_mib"));
    ck_assert(!ar_json_has(back, "missing"));
    ck_assert_uint_eq(ar_json_length(ar_json_get(back, "argv")), 2);
    ck_assert_uint_eq(ar_json_object_count(back), 4);
    free(text);
    ar_json_free(back);
    ar_json_free(obj);
}
END_TEST

/* A list of strings gets the repair a single string gets (U+FFFD for each
 * byte that is not UTF-8), its NULs kept: a collector's list metric with
 * 0xff made the trial JSON invalid UTF-8. */
START_TEST(a_list_of_strings_is_repaired_as_a_string_is)
{
    char bad[] = "k\xff", nul[] = {'a', '\0', '\xfe', 'b'};
    char *items[] = {bad, nul, "fine"};
    size_t lengths[] = {2, 4, 4};
    ar_json_t *list = ar_json_strings_n(items, lengths, 3);
    char *text = ar_json_dump(list, 0);
    ck_assert_str_eq(text, "[\"k\xef\xbf\xbd\",\"a\\u0000\xef\xbf\xbd" "b\",\"fine\"]");
    ar_json_t *single = ar_json_string(bad);
    ck_assert_str_eq(ar_json_get_string(single), ar_json_get_string(ar_json_at(list, 0)));
    ar_json_free(single);
    free(text);
    ar_json_free(list);
}
END_TEST

START_TEST(parse_rejects_garbage_and_depth)
{
    ck_assert_ptr_null(ar_json_parse("{not json", 9, 32));
    ck_assert_ptr_null(ar_json_parse("{} trailing", 11, 32));
    ck_assert_ptr_null(ar_json_parse("{}\0", 3, 32)); /* a NUL is not whitespace */
    ar_json_t *ok = ar_json_parse("{}  \n", 5, 32);
    ck_assert_ptr_nonnull(ok);
    ar_json_free(ok);
    ck_assert_ptr_null(ar_json_parse("[[[[1]]]]", 9, 3));
    ok = ar_json_parse("[[[[1]]]]", 9, 10);
    ck_assert_ptr_nonnull(ok);
    ar_json_free(ok);
}
END_TEST

START_TEST(write_file_is_atomic_and_refuses_symlinks)
{
    char *dir = tu_tmpdir();
    char *path = tu_join(dir, "result.json");
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "verdict", ar_json_string("pass"));
    ck_assert_int_eq(ar_json_write_file(path, obj), 0);
    char *text = tu_read(path);
    ck_assert_ptr_nonnull(strstr(text, "\"verdict\": \"pass\""));
    ck_assert_int_eq(text[strlen(text) - 1], '\n');
    ar_json_t *back = ar_json_read_file(path, 1 << 20, 32);
    ck_assert_str_eq(ar_json_get_string(ar_json_get(back, "verdict")), "pass");
    ar_json_free(back);
    /* Too large, or a symlink: not read. */
    ck_assert_ptr_null(ar_json_read_file(path, 4, 32));
    char *link = tu_join(dir, "link.json");
    ck_assert_int_eq(symlink(path, link), 0);
    ck_assert_ptr_null(ar_json_read_file(link, 1 << 20, 32));
    free(text);
    free(link);
    ar_json_free(obj);
    tu_rmtree(dir);
    free(path);
    free(dir);
}
END_TEST

static char *dumped_micro(double value)
{
    ar_json_t *json = ar_json_micro(value);
    char *text = ar_json_dump(json, 0);
    ar_json_free(json);
    return text;
}

static char *written(void (*put)(ar_json_writer_t *, double), double value)
{
    ar_json_writer_t *writer = ar_json_writer_new();
    put(writer, value);
    size_t len;
    char *text = strdup(ar_json_writer_text(writer, &len));
    ck_assert_uint_eq(len, strlen(text));
    ar_json_writer_free(writer);
    return text;
}

START_TEST(micro_rounds_to_six_decimals_the_same_in_a_tree_and_a_writer)
{
    static const struct {
        double value;
        const char *text;
    } cases[] = {{1.5, "1.5"}, {3.0, "3.0"}, {0.0, "0.0"}, {-0.0, "0.0"}, {-1e-9, "0.0"},
                 {1e-6, "0.000001"}, {0.0000015, "0.000002"}, {-2.25, "-2.25"},
                 {123456789.1234567, "123456789.123457"}, {1e10, "10000000000.0"},
                 {9e9, "9000000000.0"}, {4534.798123456, "4534.798123"}, {NAN, "null"},
                 {INFINITY, "null"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *tree = dumped_micro(cases[i].value), *stream = written(ar_json_writer_micro,
                                                                     cases[i].value);
        ck_assert_str_eq(tree, cases[i].text);
        ck_assert_str_eq(stream, cases[i].text);
        free(tree);
        free(stream);
    }
    /* Every magnitude, both signs: the writer's digits are the tree's. */
    unsigned seed = 7;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 1103515245u + 12345u;
        double value = ldexp((double)(seed >> 8) / (1 << 24), (int)(seed % 120) - 30);
        if (seed & 1)
            value = -value;
        char *tree = dumped_micro(value), *stream = written(ar_json_writer_micro, value);
        ck_assert_msg(!strcmp(tree, stream), "%.17g: %s in a tree, %s written", value, tree,
                      stream);
        ck_assert(fabs(strtod(tree, NULL) - value) <= 5e-7 + fabs(value) * 1e-15);
        free(tree);
        free(stream);
    }
}
END_TEST

static void put_int(ar_json_writer_t *writer, double value)
{
    ar_json_writer_int(writer, (int64_t)value);
}

START_TEST(the_writer_writes_what_the_tree_dumps)
{
    ar_json_t *tree = ar_json_object();
    ar_json_t *inner = ar_json_object();
    ar_json_set(inner, "n", ar_json_int(INT64_MIN));
    ar_json_set(inner, "s", ar_json_string("q\"u\\o/te\x01\t\xc3\xa9 \xff"));
    ar_json_set(inner, "empty", ar_json_object());
    ar_json_set(tree, "in\xfener", inner);
    ar_json_set(tree, "null", NULL);
    ar_json_set(tree, "big", ar_json_int(INT64_MAX));
    ar_json_set(tree, "list", ar_json_strings((char *[]){"a", "b/c"}, 2));
    ar_json_set(tree, "plain_key_of_some_length_0123456789", ar_json_micro(0.5));
    char *want = ar_json_dump(tree, 0);

    ar_json_writer_t *writer = ar_json_writer_new();
    for (int pass = 0; pass < 2; pass++) { /* reused: the second document is the same */
        ar_json_writer_reset(writer);
        ar_json_writer_begin_object(writer);
        ar_json_writer_key(writer, "in\xfener");
        ar_json_writer_begin_object(writer);
        ar_json_writer_key(writer, "n");
        ar_json_writer_int(writer, INT64_MIN);
        ar_json_writer_key(writer, "s");
        ar_json_writer_string(writer, "q\"u\\o/te\x01\t\xc3\xa9 \xff");
        ar_json_writer_key(writer, "empty");
        ar_json_writer_begin_object(writer);
        ar_json_writer_end_object(writer);
        ar_json_writer_end_object(writer);
        ar_json_writer_key(writer, "null");
        ar_json_writer_null(writer);
        ar_json_writer_key(writer, "big");
        ar_json_writer_int(writer, INT64_MAX);
        ar_json_writer_key(writer, "list");
        ar_json_writer_value(writer, ar_json_get(tree, "list"));
        ar_json_writer_key(writer, "plain_key_of_some_length_0123456789");
        ar_json_writer_micro(writer, 0.5);
        ar_json_writer_end_object(writer);
        size_t len;
        ck_assert_str_eq(ar_json_writer_text(writer, &len), want);
        ck_assert_uint_eq(len, strlen(want));
    }
    char *zero = written(put_int, 0), *minus = written(put_int, -42);
    ck_assert_str_eq(zero, "0");
    ck_assert_str_eq(minus, "-42");
    free(zero);
    free(minus);
    ck_assert(ar_json_key_is_kept("\xc3\xa9t\xc3\xa9"));
    ck_assert(!ar_json_key_is_kept("a\xff"));

    /* To a file: the text and a newline, the writer's text unchanged. */
    char *dir = tu_tmpdir();
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    ck_assert_int_eq(ar_json_writer_write_at(writer, fd, "out.json"), 0);
    char *path = tu_join(dir, "out.json"), *text = tu_read(path);
    char *line = malloc(strlen(want) + 2);
    sprintf(line, "%s\n", want);
    ck_assert_str_eq(text, line);
    size_t len;
    ck_assert_str_eq(ar_json_writer_text(writer, &len), want);
    free(line);
    free(text);
    free(path);
    close(fd);
    tu_rmtree(dir);
    free(dir);
    ar_json_writer_free(writer);
    free(want);
    ar_json_free(tree);
}
END_TEST

/* One reader, file after file: a bad file or a missing one leaves nothing
 * behind for the next, a larger file grows the buffer, the depth holds. */
START_TEST(a_reader_reads_file_after_file)
{
    char *dir = tu_tmpdir();
    char *small = tu_join(dir, "small.json"), *bad = tu_join(dir, "bad.json");
    char *deep = tu_join(dir, "deep.json"), *large = tu_join(dir, "large.json");
    tu_write(small, "{\"a\": 1}\n");
    tu_write(bad, "{\"a\": [1, ");
    tu_write(deep, "[[[[1]]]]");
    char big[8192] = "{\"k\": \"";
    memset(big + 7, 'x', 8000);
    strcpy(big + 8007, "\"}");
    tu_write(large, big);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    ar_json_reader_t *reader = ar_json_reader_new(3);
    for (int round = 0; round < 2; round++) {
        ar_json_t *json = ar_json_reader_read_at(reader, fd, "small.json", 1 << 20);
        ck_assert_int_eq(ar_json_get_int(ar_json_get(json, "a")), 1);
        ar_json_free(json);
        ck_assert_ptr_null(ar_json_reader_read_at(reader, fd, "bad.json", 1 << 20));
        ck_assert_ptr_null(ar_json_reader_read_at(reader, fd, "deep.json", 1 << 20));
        errno = 0;
        ck_assert_ptr_null(ar_json_reader_read_at(reader, fd, "missing.json", 1 << 20));
        ck_assert_int_eq(errno, ENOENT);
        ck_assert_ptr_null(ar_json_reader_read_at(reader, fd, "large.json", 100));
        json = ar_json_reader_read_at(reader, fd, "large.json", 1 << 20);
        ck_assert_uint_eq(strlen(ar_json_get_string(ar_json_get(json, "k"))), 8000);
        ar_json_free(json);
    }
    ar_json_reader_free(reader);
    close(fd);
    tu_rmtree(dir);
    free(small);
    free(bad);
    free(deep);
    free(large);
    free(dir);
}
END_TEST

/* The fewest significant digits that read back to value, found by printing. */
static int fewest_digits(double value)
{
    char text[40];
    for (int digits = 1; digits < 17; digits++) {
        snprintf(text, sizeof text, "%.*e", digits - 1, value);
        if (strtod(text, NULL) == value)
            return digits;
    }
    return 17;
}

/* The significant digits of a number's text (no sign, point, exponent or
 * leading zeros; trailing zeros of a whole number's ".0" left out). */
static int digits_in(const char *text)
{
    const char *end = strpbrk(text, "eE");
    end = end ? end : text + strlen(text);
    int count = 0, leading = 1, zeros = 0;
    for (const char *c = text; c < end; c++) {
        if (*c < '0' || *c > '9')
            continue;
        if (leading && *c == '0')
            continue;
        leading = 0;
        count++;
        zeros = *c == '0' ? zeros + 1 : 0;
    }
    return count - zeros > 0 ? count - zeros : 1;
}

START_TEST(numbers_are_python_s_shortest_repr_without_printing_them)
{
    /* Short decimals of every length and scale (the fast path) and
     * arbitrary doubles (the printed one): each reads back to itself, sign
     * included, in the fewest digits that can. */
    uint64_t state = 0x2545f4914f6cdd1dULL;
    for (int i = 0; i < 200000; i++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        double value;
        if (i % 2) {
            int places = (int)((state >> 33) % 16);
            double digits = (double)((state >> 3) % 10000000000ULL);
            value = digits / pow(10.0, places) * ((state >> 44) % 2 ? -1 : 1);
        } else {
            uint64_t bits = state;
            memcpy(&value, &bits, sizeof value);
            if (!isfinite(value))
                continue;
        }
        ar_json_t *json = ar_json_double(value);
        char *text = ar_json_dump(json, 0);
        double back = strtod(text, NULL);
        ck_assert_msg(back == value && signbit(back) == signbit(value), "%.17g wrote %s", value,
                      text);
        ck_assert_msg(value == 0 || digits_in(text) == fewest_digits(value),
                      "%.17g wrote %s, not %d digits", value, text, fewest_digits(value));
        free(text);
        ar_json_free(json);
    }
}
END_TEST

/* A comparison's output: printed as dumped (with its newline), its member
 * keys kept as literals, freed with its cells spread over the CPUs. */
START_TEST(a_large_tree_prints_as_dumped_and_frees_across_threads)
{
    ar_json_t *root = ar_json_object();
    ar_json_set_literal(root, "schema_version", ar_json_int(2));
    ar_json_t *cells = ar_json_array();
    for (int i = 0; i < 5000; i++) {
        ar_json_t *cell = ar_json_object();
        ar_json_set_literal(cell, "index", ar_json_int(i));
        ar_json_set_literal(cell, "mean", ar_json_double(i / 7.0));
        ar_json_set_literal(cell, "mean", ar_json_double(i / 3.0)); /* replaced */
        ar_json_append(cells, cell);
    }
    ar_json_set(root, "cells", cells);
    ck_assert(ar_json_get_double(ar_json_get(ar_json_at(cells, 9), "mean")) == 3.0);
    char *dumped = ar_json_dump(root, 1);
    FILE *out = tmpfile();
    ck_assert_int_eq(ar_json_print(out, root, 1), 0);
    long size = ftell(out);
    ck_assert_int_eq(size, (long)strlen(dumped) + 1);
    char *printed = calloc(1, (size_t)size + 1);
    rewind(out);
    ck_assert_int_eq(fread(printed, 1, (size_t)size, out), (size_t)size);
    fclose(out);
    ck_assert_int_eq(strncmp(printed, dumped, strlen(dumped)), 0);
    ck_assert_int_eq(printed[size - 1], '\n');
    free(printed);
    free(dumped);
    ar_json_free_spread(root, "cells");
}
END_TEST

static Suite *json_suite(void)
{
    Suite *suite = suite_create("json");
    TCase *tc = tcase_create("json");
    tcase_add_test(tc, doubles_print_like_python_repr);
    tcase_add_test(tc, objects_keep_order_and_round_trip);
    tcase_add_test(tc, parse_rejects_garbage_and_depth);
    tcase_add_test(tc, a_list_of_strings_is_repaired_as_a_string_is);
    tcase_add_test(tc, write_file_is_atomic_and_refuses_symlinks);
    tcase_add_test(tc, micro_rounds_to_six_decimals_the_same_in_a_tree_and_a_writer);
    tcase_add_test(tc, the_writer_writes_what_the_tree_dumps);
    tcase_add_test(tc, a_reader_reads_file_after_file);
    tcase_add_test(tc, numbers_are_python_s_shortest_repr_without_printing_them);
    tcase_add_test(tc, a_large_tree_prints_as_dumped_and_frees_across_threads);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(json_suite)
