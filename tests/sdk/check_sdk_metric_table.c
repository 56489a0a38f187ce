/* SPDX-License-Identifier: MIT */
/* A collector's metric table (ABI 1.2) as hosts read it: which rows
 * declare something, the reason a row declares nothing, and the row that
 * declares a metric. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "testutil.h"

static struct aorta_collector collector_with(const aorta_metric_spec_t *table)
{
    struct aorta_collector c = {.abi_major = 1, .abi_minor = 2, .name = "mine",
                                .metrics = table};
    return c;
}

/* check()'s message for row index, or "" when it accepts the row. */
static char *verdict(const struct aorta_collector *c, size_t index)
{
    aorta_error_t *err = aorta_error_new();
    int status = aorta_collector_metric_check(c, index, err);
    const char *message = aorta_error_message(err);
    ck_assert_int_eq(status, message ? -1 : 0);
    char *copy = strdup(message ? message : "");
    aorta_error_free(err);
    return copy;
}

#define ck_assert_verdict(c, index, want)     \
    do {                                      \
        char *got_ = verdict((c), (index));   \
        ck_assert_str_eq(got_, want);         \
        free(got_);                           \
    } while (0)

static const aorta_metric_spec_t good_table[] = {
    {"mine_max_rss_kb", "KiB", AORTA_BETTER_LOWER, "peak resident set size"},
    {"mine_rate", "GB/s", AORTA_BETTER_HIGHER, NULL},
    {"mine_files", NULL, AORTA_BETTER_NONE, NULL},
    {NULL, "ignored", AORTA_BETTER_LOWER, "a NULL key ends the table"},
    {"mine_after_the_end", NULL, AORTA_BETTER_LOWER, NULL},
};

START_TEST(the_table_is_the_rows_before_the_null_key)
{
    struct aorta_collector c = collector_with(good_table);
    ck_assert_uint_eq(aorta_collector_metric_count(&c), 3);
    ck_assert_ptr_eq(aorta_collector_metric_at(&c, 0), &good_table[0]);
    ck_assert_ptr_eq(aorta_collector_metric_at(&c, 2), &good_table[2]);
    ck_assert_ptr_null(aorta_collector_metric_at(&c, 3));
    ck_assert_ptr_null(aorta_collector_metric_at(&c, (size_t)-1));
    for (size_t i = 0; i < 3; i++)
        ck_assert_verdict(&c, i, "");
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_after_the_end"));
}
END_TEST

START_TEST(no_table_no_collector_and_older_minors_have_no_rows)
{
    struct aorta_collector c = collector_with(NULL);
    ck_assert_uint_eq(aorta_collector_metric_count(&c), 0);
    ck_assert_ptr_null(aorta_collector_metric_at(&c, 0));
    ck_assert_uint_eq(aorta_collector_metric_count(NULL), 0);
    ck_assert_ptr_null(aorta_collector_metric_at(NULL, 0));
    ck_assert_ptr_null(aorta_collector_metric_find(NULL, "mine_files"));
    ck_assert_int_eq(aorta_collector_metric_check(NULL, 0, NULL), -1);
    c = collector_with(good_table);
    c.abi_minor = 1;
    ck_assert_uint_eq(aorta_collector_metric_count(&c), 0);
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_files"));
    ck_assert_verdict(&c, 0, "no metric row 0");
    /* A newer minor reads its table the same way. */
    c.abi_minor = 3;
    ck_assert_uint_eq(aorta_collector_metric_count(&c), 3);
}
END_TEST

START_TEST(check_names_the_row_out_of_range)
{
    struct aorta_collector c = collector_with(good_table);
    ck_assert_verdict(&c, 3, "no metric row 3");
    ck_assert_int_eq(aorta_collector_metric_check(&c, 3, NULL), -1);
    ck_assert_int_eq(aorta_collector_metric_check(&c, 0, NULL), 0);
}
END_TEST

START_TEST(a_key_is_the_whole_name_under_the_collectors_prefix)
{
    static const aorta_metric_spec_t table[] = {
        {"other_x", "ms", AORTA_BETTER_LOWER, NULL},
        {"mine_", "ms", AORTA_BETTER_LOWER, NULL},
        {"minex", "ms", AORTA_BETTER_LOWER, NULL},
        {"max_rss_kb", "KiB", AORTA_BETTER_LOWER, NULL},
        {"", NULL, AORTA_BETTER_NONE, NULL},
        {"mine_it's", NULL, AORTA_BETTER_NONE, NULL},
        {NULL, NULL, AORTA_BETTER_NONE, NULL},
    };
    struct aorta_collector c = collector_with(table);
    ck_assert_uint_eq(aorta_collector_metric_count(&c), 6);
    ck_assert_verdict(&c, 0, "metric row 0 'other_x': not named mine_* (a key is the whole metric name)");
    ck_assert_verdict(&c, 1, "metric row 1 'mine_': not named mine_* (a key is the whole metric name)");
    ck_assert_verdict(&c, 2, "metric row 2 'minex': not named mine_* (a key is the whole metric name)");
    /* A suffix is not a key. */
    ck_assert_verdict(&c, 3,
                      "metric row 3 'max_rss_kb': not named mine_* (a key is the whole metric name)");
    ck_assert_verdict(&c, 4, "metric row 4 '': not named mine_* (a key is the whole metric name)");
    ck_assert_verdict(&c, 5, "");
    /* A refused row declares nothing, even for its own key. */
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "other_x"));
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_max_rss_kb"));
    ck_assert_ptr_eq(aorta_collector_metric_find(&c, "mine_it's"), &table[5]);
    /* A collector without a name has no prefix: no row declares. */
    c.name = NULL;
    ck_assert_verdict(&c, 5,
                      "metric row 5 \"mine_it's\": not named <name>_* (a key is the whole metric name)");
}
END_TEST

START_TEST(the_first_row_of_a_key_wins)
{
    static const aorta_metric_spec_t table[] = {
        {"mine_x", "ms", AORTA_BETTER_LOWER, NULL},
        {"mine_y", "ms", (aorta_metric_better_t)7, NULL},
        {"mine_x", "s", AORTA_BETTER_HIGHER, NULL},
        {"mine_y", "ms", AORTA_BETTER_LOWER, NULL},
        {NULL, NULL, AORTA_BETTER_NONE, NULL},
    };
    struct aorta_collector c = collector_with(table);
    ck_assert_verdict(&c, 0, "");
    ck_assert_verdict(&c, 2, "metric row 2 'mine_x': declared already in row 0");
    ck_assert_ptr_eq(aorta_collector_metric_find(&c, "mine_x"), &table[0]);
    /* The first row of mine_y is refused, so mine_y is undeclared: a later
     * row cannot repair it. */
    ck_assert_verdict(&c, 3, "metric row 3 'mine_y': declared already in row 1");
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_y"));
}
END_TEST

START_TEST(better_is_one_of_the_three)
{
    static const aorta_metric_spec_t table[] = {
        {"mine_a", NULL, (aorta_metric_better_t)3, NULL},
        {"mine_b", NULL, (aorta_metric_better_t)-1, NULL},
        {NULL, NULL, AORTA_BETTER_NONE, NULL},
    };
    struct aorta_collector c = collector_with(table);
    ck_assert_verdict(&c, 0,
                      "metric row 0 'mine_a': better is 3, not AORTA_BETTER_NONE, "
                      "AORTA_BETTER_LOWER or AORTA_BETTER_HIGHER");
    ck_assert_verdict(&c, 1,
                      "metric row 1 'mine_b': better is -1, not AORTA_BETTER_NONE, "
                      "AORTA_BETTER_LOWER or AORTA_BETTER_HIGHER");
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_a"));
    ck_assert_int_eq(AORTA_BETTER_NONE, 0);
}
END_TEST

START_TEST(unit_and_help_are_printable_utf8)
{
    static const aorta_metric_spec_t table[] = {
        {"mine_us", "\xc2\xb5s", AORTA_BETTER_LOWER, "microseconds"},
        {"mine_empty", "", AORTA_BETTER_LOWER, ""},
        {"mine_nl", "ms\n", AORTA_BETTER_LOWER, NULL},
        {"mine_del", "ms\x7f", AORTA_BETTER_LOWER, NULL},
        {"mine_c1", "\xc2\x85ms", AORTA_BETTER_LOWER, NULL},
        {"mine_bytes", "\xff", AORTA_BETTER_LOWER, NULL},
        {"mine_surrogate", "\xed\xa0\x80", AORTA_BETTER_LOWER, NULL},
        {"mine_help", "ms", AORTA_BETTER_LOWER, "two\tcolumns"},
        {NULL, NULL, AORTA_BETTER_NONE, NULL},
    };
    struct aorta_collector c = collector_with(table);
    ck_assert_verdict(&c, 0, "");
    ck_assert_verdict(&c, 1, "");
    ck_assert_verdict(&c, 2, "metric row 2 'mine_nl': its unit is not printable UTF-8");
    ck_assert_verdict(&c, 3, "metric row 3 'mine_del': its unit is not printable UTF-8");
    ck_assert_verdict(&c, 4, "metric row 4 'mine_c1': its unit is not printable UTF-8");
    ck_assert_verdict(&c, 5, "metric row 5 'mine_bytes': its unit is not printable UTF-8");
    ck_assert_verdict(&c, 6, "metric row 6 'mine_surrogate': its unit is not printable UTF-8");
    ck_assert_verdict(&c, 7, "metric row 7 'mine_help': its help is not printable UTF-8");
    ck_assert_ptr_eq(aorta_collector_metric_find(&c, "mine_us"), &table[0]);
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_nl"));
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_help"));
}
END_TEST

START_TEST(find_is_by_the_whole_name)
{
    struct aorta_collector c = collector_with(good_table);
    const aorta_metric_spec_t *row = aorta_collector_metric_find(&c, "mine_max_rss_kb");
    ck_assert_ptr_eq(row, &good_table[0]);
    ck_assert_str_eq(row->unit, "KiB");
    ck_assert_int_eq(row->better, AORTA_BETTER_LOWER);
    ck_assert_int_eq(aorta_collector_metric_find(&c, "mine_rate")->better, AORTA_BETTER_HIGHER);
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "max_rss_kb"));
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_max_rss"));
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_max_rss_kb_"));
    ck_assert_ptr_null(aorta_collector_metric_find(&c, "mine_undeclared"));
    ck_assert_ptr_null(aorta_collector_metric_find(&c, NULL));
}
END_TEST

static Suite *metric_table_suite(void)
{
    Suite *suite = suite_create("sdk_metric_table");
    TCase *tc = tcase_create("metric_table");
    tcase_add_test(tc, the_table_is_the_rows_before_the_null_key);
    tcase_add_test(tc, no_table_no_collector_and_older_minors_have_no_rows);
    tcase_add_test(tc, check_names_the_row_out_of_range);
    tcase_add_test(tc, a_key_is_the_whole_name_under_the_collectors_prefix);
    tcase_add_test(tc, the_first_row_of_a_key_wins);
    tcase_add_test(tc, better_is_one_of_the_three);
    tcase_add_test(tc, unit_and_help_are_printable_utf8);
    tcase_add_test(tc, find_is_by_the_whole_name);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(metric_table_suite)
