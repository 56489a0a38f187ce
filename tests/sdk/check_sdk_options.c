/* SPDX-License-Identifier: MIT */
/* aorta_options_apply_table(): the whole validate() of a collector whose
 * options are exactly its table: unknown keys, allowed values, defaults. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "testutil.h"

static const char *const modes[] = {"fast", "deep", "Ünicode", NULL};

static const aorta_option_spec_t table[] = {
    {"mode", modes, "fast", "how to collect"},
    {"label", NULL, NULL, "free text, no default"},
    {"rate", NULL, "100", "free text with a default"},
    {NULL, NULL, NULL, NULL},
};

/* "key=value,key=value" of options, in order (free it). */
static char *listing(const aorta_options_t *options)
{
    size_t size = 1;
    for (size_t i = 0; i < aorta_options_count(options); i++)
        size += strlen(aorta_options_key_at(options, i)) + strlen(aorta_options_value_at(options, i)) + 2;
    char *text = calloc(1, size);
    for (size_t i = 0; i < aorta_options_count(options); i++) {
        if (i)
            strcat(text, ",");
        strcat(text, aorta_options_key_at(options, i));
        strcat(text, "=");
        strcat(text, aorta_options_value_at(options, i));
    }
    return text;
}

/* apply_table's status on options; *message gets the error (or NULL). */
static int apply(aorta_options_t *options, char **message)
{
    aorta_error_t *err = aorta_error_new();
    int status = aorta_options_apply_table(options, table, "demo", err);
    const char *text = aorta_error_message(err);
    *message = text ? strdup(text) : NULL;
    aorta_error_free(err);
    return status;
}

START_TEST(defaults_are_appended_in_table_order_after_the_given_keys)
{
    aorta_options_t *options = tu_options("label", "L", NULL);
    char *message = NULL;
    ck_assert_int_eq(apply(options, &message), 0);
    ck_assert_ptr_null(message);
    char *text = listing(options);
    ck_assert_str_eq(text, "label=L,mode=fast,rate=100");
    free(text);
    aorta_options_free(options);
}
END_TEST

START_TEST(given_values_are_kept_and_free_text_takes_anything)
{
    aorta_options_t *options = tu_options("rate", "anything at all", "mode", "deep", NULL);
    char *message = NULL;
    ck_assert_int_eq(apply(options, &message), 0);
    char *text = listing(options);
    ck_assert_str_eq(text, "rate=anything at all,mode=deep");
    free(text);
    aorta_options_free(options);
}
END_TEST

START_TEST(an_unknown_key_is_refused_as_check_keys_words_it)
{
    aorta_options_t *options = tu_options("mode", "fast", "speed", "1", NULL);
    char *message = NULL;
    ck_assert_int_eq(apply(options, &message), -1);
    ck_assert_str_eq(message, "demo: unknown option(s) ['speed']; valid: ['mode', 'label', 'rate']");
    free(message);
    aorta_options_free(options);
}
END_TEST

START_TEST(a_value_outside_the_table_names_the_sorted_values_and_changes_nothing)
{
    aorta_options_t *options = tu_options("mode", "Fast", NULL);
    char *message = NULL;
    ck_assert_int_eq(apply(options, &message), -1);
    /* Sorted by bytes (code points): 'deep' < 'fast' < 'Ünicode'. */
    ck_assert_str_eq(message, "demo option 'mode': 'Fast' is not one of ['deep', 'fast', 'Ünicode']");
    free(message);
    char *text = listing(options);
    ck_assert_str_eq(text, "mode=Fast"); /* no default was filled in */
    free(text);
    aorta_options_free(options);
}
END_TEST

START_TEST(null_arguments_are_refused)
{
    aorta_options_t *options = aorta_options_new();
    aorta_error_t *err = aorta_error_new();
    ck_assert_int_eq(aorta_options_apply_table(NULL, table, "demo", err), -1);
    ck_assert_int_eq(aorta_options_apply_table(options, NULL, "demo", err), -1);
    ck_assert_int_eq(aorta_options_apply_table(options, table, NULL, err), -1);
    ck_assert_uint_eq(aorta_options_count(options), 0);
    aorta_error_free(err);
    aorta_options_free(options);
}
END_TEST

static Suite *options_suite(void)
{
    Suite *suite = suite_create("sdk-options");
    TCase *tc = tcase_create("apply_table");
    tcase_add_test(tc, defaults_are_appended_in_table_order_after_the_given_keys);
    tcase_add_test(tc, given_values_are_kept_and_free_text_takes_anything);
    tcase_add_test(tc, an_unknown_key_is_refused_as_check_keys_words_it);
    tcase_add_test(tc, a_value_outside_the_table_names_the_sorted_values_and_changes_nothing);
    tcase_add_test(tc, null_arguments_are_refused);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(options_suite)
