/* SPDX-License-Identifier: MIT */
/* A list of ranks (sys/rank_list.h): "0,3" and "0-3, 8" read sorted, each
 * rank once; every malformed item refused with a message naming it; the
 * list written as "0, 3-7, 9" and read back. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sys/rank_list.h"
#include "testutil.h"

/* text parsed and written back with ","; NULL (and *error) when refused. */
static char *round_trip(const char *text, char **error)
{
    long *ranks = NULL;
    size_t count = 0;
    *error = NULL;
    if (ar_rank_list_parse(text, &ranks, &count, error) != 0) {
        ck_assert_ptr_null(ranks);
        ck_assert_uint_eq(count, 0);
        return NULL;
    }
    char *out = ar_rank_list_format(ranks, count, ",");
    free(ranks);
    return out;
}

#define ACCEPTS(text, want)                                                                  \
    do {                                                                                     \
        char *error_ = NULL;                                                                 \
        char *got_ = round_trip(text, &error_);                                              \
        ck_assert_msg(got_ != NULL, "%s refused: %s", text, error_);                         \
        ck_assert_str_eq(got_, want);                                                        \
        free(got_);                                                                          \
    } while (0)

#define REFUSES(text, want)                                                                  \
    do {                                                                                     \
        char *error_ = NULL;                                                                 \
        ck_assert_ptr_null(round_trip(text, &error_));                                       \
        ck_assert_ptr_nonnull(error_);                                                       \
        ck_assert_msg(strstr(error_, want) != NULL, "'%s': '%s' lacks '%s'", text, error_,   \
                      want);                                                                 \
        free(error_);                                                                        \
    } while (0)

START_TEST(lists_and_ranges_are_read_sorted)
{
    ACCEPTS("0,3", "0,3");
    ACCEPTS("3,0", "0,3");
    ACCEPTS("0-3,8", "0-3,8");
    ACCEPTS(" 1 , 3-7 ,9 ", "1,3-7,9");
    ACCEPTS("5", "5");
    ACCEPTS("4-4", "4");
    ACCEPTS("0-1", "0,1"); /* a pair is two items, as in the missing ranks */
    ACCEPTS("65535", "65535");
    ACCEPTS("0-65535", "0-65535");
}
END_TEST

START_TEST(every_malformed_item_is_named)
{
    REFUSES("", "no rank given");
    REFUSES("  ", "no rank given");
    REFUSES("0,,3", "an empty item");
    REFUSES("0,", "an empty item");
    REFUSES(",0", "an empty item");
    REFUSES("x", "'x' is not a rank (an integer from 0 to 65535)");
    REFUSES("0,-1", "'-1' is not a rank");
    REFUSES("1.5", "'1.5' is not a rank");
    REFUSES("+1", "'+1' is not a rank");
    REFUSES("0x10", "'0x10' is not a rank");
    REFUSES("65536", "'65536' is not a rank");
    REFUSES("99999999999999999999", "is not a rank");
    REFUSES("1-", "'1-' is not a rank");
    REFUSES("1-2-3", "'1-2-3' is not a rank");
    REFUSES("1 2", "'1 2' is not a rank");
    REFUSES("5-3", "'5-3' is not a range: it ends before it starts");
    REFUSES("0,3,0", "rank 0 is listed twice");
    REFUSES("0-3,2", "rank 2 is listed twice");
    REFUSES("0-65535,0-65535", "more than 65536 ranks");
}
END_TEST

START_TEST(the_written_form_groups_runs_of_three)
{
    long ranks[] = {1, 3, 4, 5, 6, 7, 9, 11, 12};
    char *text = ar_rank_list_format(ranks, 9, ", ");
    ck_assert_str_eq(text, "1, 3-7, 9, 11, 12");
    free(text);
    text = ar_rank_list_format(NULL, 0, ", ");
    ck_assert_str_eq(text, "");
    free(text);
}
END_TEST

START_TEST(membership_and_sorting)
{
    long ranks[] = {9, 0, 3};
    ck_assert_int_eq(ar_rank_list_sort(ranks, 3), -1);
    ck_assert_int_eq(ranks[0], 0);
    ck_assert_int_eq(ranks[2], 9);
    ck_assert(ar_rank_list_has(ranks, 3, 0));
    ck_assert(ar_rank_list_has(ranks, 3, 3));
    ck_assert(ar_rank_list_has(ranks, 3, 9));
    ck_assert(!ar_rank_list_has(ranks, 3, 1));
    ck_assert(!ar_rank_list_has(ranks, 3, 10));
    ck_assert(!ar_rank_list_has(ranks, 0, 0));
    long twice[] = {4, 2, 4};
    ck_assert_int_eq(ar_rank_list_sort(twice, 3), 4);
}
END_TEST

static Suite *rank_list_suite(void)
{
    Suite *suite = suite_create("rank_list");
    TCase *tc = tcase_create("rank_list");
    tcase_add_test(tc, lists_and_ranges_are_read_sorted);
    tcase_add_test(tc, every_malformed_item_is_named);
    tcase_add_test(tc, the_written_form_groups_runs_of_three);
    tcase_add_test(tc, membership_and_sorting);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(rank_list_suite)
