/* SPDX-License-Identifier: MIT */
/* The text helpers libaorta offers collectors: Python's repr() of a str
 * and of a list, and UTF-8 validation with Python's strict rules. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "testutil.h"

/* Computed with Python 3.11.7 (Unicode 14.0):
 *   repr(data.decode("utf-8", "surrogateescape")).encode("utf-8")
 * surrogateescape is how Python holds undecodable bytes of sys.argv,
 * os.environ and file names. */
static const struct {
    const char *data;
    size_t len;
    const char *repr;
} REPRS[] = {
    {"", 0, "''"},
    {"plain", 5, "'plain'"},
    {"it's", 4, "\"it's\""},
    {"say \"hi\"", 8, "'say \"hi\"'"},
    {"both ' and \"", 12, "'both \\' and \"'"},
    {"back\\slash", 10, "'back\\\\slash'"},
    {"tab\tnl\ncr\r", 10, "'tab\\tnl\\ncr\\r'"},
    {"\x01\x1f\x7f", 3, "'\\x01\\x1f\\x7f'"},
    {"a\x00" "b", 3, "'a\\x00b'"},
    {"caf\xc3\xa9", 5, "'caf\xc3\xa9'"},
    {"\xc2\xa0nbsp", 6, "'\\xa0nbsp'"},
    {"\xc2\x85", 2, "'\\x85'"},
    {"\xc2\xad", 2, "'\\xad'"},
    {"\xe2\x80\xa8", 3, "'\\u2028'"},
    {"\xe2\x80\x8b", 3, "'\\u200b'"},
    {"\xef\xbb\xbf", 3, "'\\ufeff'"},
    {"\xcd\xb8", 2, "'\\u0378'"},
    {"\xd8\x80", 2, "'\\u0600'"},
    {"\xe3\x80\x80", 3, "'\\u3000'"},
    {"\xee\x80\x80", 3, "'\\ue000'"},
    {"\xe4\xb8\xad\xe6\x96\x87", 6, "'\xe4\xb8\xad\xe6\x96\x87'"},
    {"\xef\xbc\xa1", 3, "'\xef\xbc\xa1'"},
    {"\xf0\x9f\x98\x80", 4, "'\xf0\x9f\x98\x80'"},
    {"\xf3\xa0\x80\x81", 4, "'\\U000e0001'"},
    {"\xf3\xa0\x87\xaf", 4, "'\xf3\xa0\x87\xaf'"},
    {"\xf4\x8f\xbf\xbf", 4, "'\\U0010ffff'"},
    {"\xff", 1, "'\\udcff'"},
    {"x\xc3", 2, "'x\\udcc3'"},
    {"a\xe2\x82" "b", 4, "'a\\udce2\\udc82b'"},
    {"\xc0\xaf", 2, "'\\udcc0\\udcaf'"},
    {"\xed\xa0\x80", 3, "'\\udced\\udca0\\udc80'"},
    {"\xf4\x90\x80\x80", 4, "'\\udcf4\\udc90\\udc80\\udc80'"},
    {"\xf0\x9f\x98x", 4, "'\\udcf0\\udc9f\\udc98x'"},
    {"it's \xff", 6, "\"it's \\udcff\""},
    {"\xe2(\xa1", 3, "'\\udce2(\\udca1'"},
    {"\x80\xbf", 2, "'\\udc80\\udcbf'"},
    {"\xf8\x88\x80\x80\x80", 5, "'\\udcf8\\udc88\\udc80\\udc80\\udc80'"},
};

START_TEST(repr_matches_python)
{
    for (size_t i = 0; i < sizeof REPRS / sizeof REPRS[0]; i++) {
        char *got = aorta_text_repr(REPRS[i].data, REPRS[i].len);
        ck_assert_msg(strcmp(got, REPRS[i].repr) == 0, "case %zu: repr is %s, Python says %s", i,
                      got, REPRS[i].repr);
        aorta_free(got);
    }
}
END_TEST

START_TEST(repr_list_matches_python)
{
    /* repr([]), repr(["a"]), repr(["a", "it's", "\t", ""]) in Python. */
    char *got = aorta_text_repr_list(NULL, 0);
    ck_assert_str_eq(got, "[]");
    aorta_free(got);
    const char *one[] = {"a"};
    got = aorta_text_repr_list(one, 1);
    ck_assert_str_eq(got, "['a']");
    aorta_free(got);
    const char *many[] = {"a", "it's", "\t", ""};
    got = aorta_text_repr_list(many, 4);
    ck_assert_str_eq(got, "['a', \"it's\", '\\t', '']");
    aorta_free(got);
}
END_TEST

START_TEST(repr_of_the_worst_case_fits)
{
    /* Every byte undecodable: the longest repr per byte (\udcNN). */
    char data[64];
    memset(data, 0xff, sizeof data);
    char *got = aorta_text_repr(data, sizeof data);
    ck_assert_uint_eq(strlen(got), 2 + 6 * sizeof data);
    aorta_free(got);
    const char *items[] = {"\xff\xff", "\xf4\x8f\xbf\xbf"};
    got = aorta_text_repr_list(items, 2);
    ck_assert_str_eq(got, "['\\udcff\\udcff', '\\U0010ffff']");
    aorta_free(got);
}
END_TEST

/* Computed with Python 3.11.7: data.decode("utf-8") either succeeds (the
 * whole length is valid) or raises UnicodeDecodeError e, and then the valid
 * prefix is e.start and "truncated" is e.reason == "unexpected end of data". */
static const struct {
    const char *data;
    size_t len;
    size_t valid;
    int truncated;
    int ascii;
} UTF8[] = {
    {"", 0, 0, 0, 1},
    {"ascii only", 10, 10, 0, 1},
    {"caf\xc3\xa9", 5, 5, 0, 0},
    {"\xc3", 1, 0, 1, 1},
    {"ab\xe2\x82", 4, 2, 1, 1},
    {"\xe2\x82" "A", 3, 0, 0, 1},
    {"\xf0", 1, 0, 1, 1},
    {"\xf0\x9f", 2, 0, 1, 1},
    {"\xf0\x9f\x98", 3, 0, 1, 1},
    {"\xf0\x9f\x98\x80", 4, 4, 0, 0},
    {"\xf0\x8f\xbf\xbf", 4, 0, 0, 1},
    {"\xe0\x80\x80", 3, 0, 0, 1},
    {"\xe0\x9f", 2, 0, 0, 1},
    {"\xe0\xa0", 2, 0, 1, 1},
    {"\xed\x9f\xbf", 3, 3, 0, 0},
    {"\xed\xa0\x80", 3, 0, 0, 1},
    {"\xed\xa0", 2, 0, 0, 1},
    {"\xf4\x8f\xbf\xbf", 4, 4, 0, 0},
    {"\xf4\x90\x80\x80", 4, 0, 0, 1},
    {"\xf4\x90", 2, 0, 0, 1},
    {"\xf5\x80", 2, 0, 0, 1},
    {"\xc0\x80", 2, 0, 0, 1},
    {"\xc1\xbf", 2, 0, 0, 1},
    {"\xc2\x80", 2, 2, 0, 0},
    {"\x80", 1, 0, 0, 1},
    {"ok\xbf", 3, 2, 0, 1},
    {"\xfe", 1, 0, 0, 1},
    {"\xff", 1, 0, 0, 1},
    {"a\x00" "b", 3, 3, 0, 1},
    {"x\xc3\xa9\xe2", 4, 3, 1, 0},
    {"0123456789abcdef\xc3\xa9", 18, 18, 0, 0},
    {"0123456789abcde\xc3\xa9", 17, 17, 0, 0},
    {"0123456789abcdefghijklmnopqrstu\xe2\x82", 33, 31, 1, 1},
};

START_TEST(utf8_prefix_matches_python)
{
    for (size_t i = 0; i < sizeof UTF8 / sizeof UTF8[0]; i++) {
        int truncated = -1, ascii = -1;
        size_t valid = aorta_utf8_valid_prefix(UTF8[i].data, UTF8[i].len, &truncated, &ascii);
        ck_assert_msg(valid == UTF8[i].valid && truncated == UTF8[i].truncated
                          && ascii == UTF8[i].ascii,
                      "case %zu: prefix %zu truncated %d ascii %d, expected %zu %d %d", i, valid,
                      truncated, ascii, UTF8[i].valid, UTF8[i].truncated, UTF8[i].ascii);
        /* Both reports are optional. */
        ck_assert_uint_eq(aorta_utf8_valid_prefix(UTF8[i].data, UTF8[i].len, NULL, NULL),
                          UTF8[i].valid);
    }
}
END_TEST

START_TEST(utf8_fast_path_stops_at_the_bad_byte)
{
    /* A bad byte at every offset around the 64- and 16-byte steps of the
     * ASCII fast path: Python's e.start is that offset. */
    char data[160];
    for (size_t at = 0; at < sizeof data; at++) {
        memset(data, 'a', sizeof data);
        data[at] = (char)0xff;
        int truncated = -1, ascii = -1;
        ck_assert_uint_eq(aorta_utf8_valid_prefix(data, sizeof data, &truncated, &ascii), at);
        ck_assert_int_eq(truncated, 0);
        ck_assert_int_eq(ascii, 1);
        /* The same place as the start of a character cut by the end. */
        data[at] = (char)0xe2;
        ck_assert_uint_eq(aorta_utf8_valid_prefix(data, at + 1, &truncated, NULL), at);
        ck_assert_int_eq(truncated, 1);
    }
}
END_TEST

/* Whether text reads as UTF-8 when it comes in chunks of the given size
 * and the cut-short tail of each is kept for the next. */
static int valid_in_chunks(const char *text, size_t len, size_t chunk)
{
    char buffer[64];
    size_t carry = 0;
    for (size_t at = 0; at < len;) {
        size_t take = len - at < chunk ? len - at : chunk;
        memcpy(buffer + carry, text + at, take);
        at += take;
        size_t have = carry + take;
        int truncated = 0;
        size_t valid = aorta_utf8_valid_prefix(buffer, have, &truncated, NULL);
        if (valid < have && !truncated)
            return 0;
        carry = have - valid;
        memmove(buffer, buffer + valid, carry);
    }
    return carry == 0; /* else the text ends inside a character */
}

START_TEST(utf8_chunks_carry_a_split_character)
{
    const char *good = "a\xc3\xa9z\xe2\x82\xac\xf0\x9f\x98\x80!\xed\x9f\xbf";
    const char *bad = "a\xc3\xa9z\xe2\x82!\xf0\x9f\x98\x80";
    const char *cut = "a\xc3\xa9z\xf0\x9f\x98";
    for (size_t chunk = 1; chunk <= 16; chunk++) {
        ck_assert_msg(valid_in_chunks(good, strlen(good), chunk), "good, chunks of %zu", chunk);
        ck_assert_msg(!valid_in_chunks(bad, strlen(bad), chunk), "bad, chunks of %zu", chunk);
        ck_assert_msg(!valid_in_chunks(cut, strlen(cut), chunk), "cut, chunks of %zu", chunk);
    }
}
END_TEST

static Suite *text_suite(void)
{
    Suite *suite = suite_create("text");
    TCase *tc = tcase_create("text");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, repr_matches_python);
    tcase_add_test(tc, repr_list_matches_python);
    tcase_add_test(tc, repr_of_the_worst_case_fits);
    tcase_add_test(tc, utf8_prefix_matches_python);
    tcase_add_test(tc, utf8_fast_path_stops_at_the_bad_byte);
    tcase_add_test(tc, utf8_chunks_carry_a_split_character);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(text_suite)
