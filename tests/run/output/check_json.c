/* SPDX-License-Identifier: MIT */
/* The core's JSON layer: Python-style floats, atomic writes, strict parsing. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/json.h"
#include "testutil.h"

static void expect_double(double value, const char *text)
{
    aorta_json_t *json = aorta_json_double(value);
    char *dumped = aorta_json_dump(json, 0);
    ck_assert_msg(strcmp(dumped, text) == 0, "%.17g dumped as %s, expected %s", value, dumped,
                  text);
    free(dumped);
    aorta_json_free(json);
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
    ck_assert_ptr_null(aorta_json_double(NAN));
}
END_TEST

START_TEST(objects_keep_order_and_round_trip)
{
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "verdict", aorta_json_string("pass"));
    aorta_json_set(obj, "exit_code", aorta_json_int(0));
    aorta_json_set(obj, "peak_vram_mib", NULL);
    char *items[] = {"a/b", "c"};
    aorta_json_set(obj, "argv", aorta_json_strings(items, 2));
    char *text = aorta_json_dump(obj, 0);
    ck_assert_str_eq(text, "{\"verdict\":\"pass\",\"exit_code\":0,\"peak_vram_mib\":null,"
                           "\"argv\":[\"a/b\",\"c\"]}");
    aorta_json_t *back = aorta_json_parse(text, strlen(text), 32);
    ck_assert_ptr_nonnull(back);
    ck_assert_str_eq(aorta_json_get_string(aorta_json_get(back, "verdict")), "pass");
    ck_assert_int_eq(aorta_json_type(aorta_json_get(back, "peak_vram_mib")), AORTA_JSON_NULL);
    ck_assert(aorta_json_has(back, "peak_vram_mib"));
    ck_assert(!aorta_json_has(back, "missing"));
    ck_assert_uint_eq(aorta_json_length(aorta_json_get(back, "argv")), 2);
    ck_assert_uint_eq(aorta_json_object_count(back), 4);
    free(text);
    aorta_json_free(back);
    aorta_json_free(obj);
}
END_TEST

START_TEST(parse_rejects_garbage_and_depth)
{
    ck_assert_ptr_null(aorta_json_parse("{not json", 9, 32));
    ck_assert_ptr_null(aorta_json_parse("{} trailing", 11, 32));
    ck_assert_ptr_null(aorta_json_parse("{}\0", 3, 32)); /* a NUL is not whitespace */
    aorta_json_t *ok = aorta_json_parse("{}  \n", 5, 32);
    ck_assert_ptr_nonnull(ok);
    aorta_json_free(ok);
    ck_assert_ptr_null(aorta_json_parse("[[[[1]]]]", 9, 3));
    ok = aorta_json_parse("[[[[1]]]]", 9, 10);
    ck_assert_ptr_nonnull(ok);
    aorta_json_free(ok);
}
END_TEST

START_TEST(write_file_is_atomic_and_refuses_symlinks)
{
    char *dir = tu_tmpdir();
    char *path = tu_join(dir, "result.json");
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "verdict", aorta_json_string("pass"));
    ck_assert_int_eq(aorta_json_write_file(path, obj), 0);
    char *text = tu_read(path);
    ck_assert_ptr_nonnull(strstr(text, "\"verdict\": \"pass\""));
    ck_assert_int_eq(text[strlen(text) - 1], '\n');
    aorta_json_t *back = aorta_json_read_file(path, 1 << 20, 32);
    ck_assert_str_eq(aorta_json_get_string(aorta_json_get(back, "verdict")), "pass");
    aorta_json_free(back);
    /* Too large, or a symlink: not read. */
    ck_assert_ptr_null(aorta_json_read_file(path, 4, 32));
    char *link = tu_join(dir, "link.json");
    ck_assert_int_eq(symlink(path, link), 0);
    ck_assert_ptr_null(aorta_json_read_file(link, 1 << 20, 32));
    free(text);
    free(link);
    aorta_json_free(obj);
    tu_rmtree(dir);
    free(path);
    free(dir);
}
END_TEST

static Suite *json_suite(void)
{
    Suite *suite = suite_create("json");
    TCase *tc = tcase_create("json");
    tcase_add_test(tc, doubles_print_like_python_repr);
    tcase_add_test(tc, objects_keep_order_and_round_trip);
    tcase_add_test(tc, parse_rejects_garbage_and_depth);
    tcase_add_test(tc, write_file_is_atomic_and_refuses_symlinks);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(json_suite)
