/* SPDX-License-Identifier: MIT */
/* aorta-run --list-collectors when no collector is found: one warning
 * naming every directory searched, nothing on stdout, exit 0. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static char *concat(const char *a, const char *b)
{
    char *out = malloc(strlen(a) + strlen(b) + 1);
    ck_assert_ptr_nonnull(out);
    strcpy(out, a);
    strcat(out, b);
    return out;
}

static int list(char **out, char **err, char *const *env)
{
    char *binary = tu_aorta_run();
    char *argv[] = {binary, "--list-collectors", NULL};
    int status = tu_run(argv, env, out, err);
    free(binary);
    return status;
}

START_TEST(empty_system_dir_is_named)
{
    char *dir = tu_tmpdir();
    char *user = tu_tmpdir();
    char *system_env = concat("AORTA_PLUGIN_SYSTEM_PATH=", dir);
    char *user_env = concat("AORTA_PLUGIN_PATH=", user);
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(list(&out, &err, (char *[]){system_env, "AORTA_PLUGIN_PATH", NULL}), 0);
    ck_assert_str_eq(out, "");
    char *expected = concat("aorta-run: warning: no collectors found; searched ", dir);
    ck_assert_msg(strncmp(err, expected, strlen(expected)) == 0, "stderr: %s", err);
    ck_assert_str_eq(err + strlen(expected), "\n");
    free(expected);
    free(out);
    free(err);

    /* Every directory, in search order. */
    ck_assert_int_eq(list(&out, &err, (char *[]){system_env, user_env, NULL}), 0);
    ck_assert_str_eq(out, "");
    char *both = concat(user, ", ");
    char *both_dirs = concat(both, dir);
    ck_assert_msg(strstr(err, both_dirs) != NULL, "stderr: %s", err);
    free(both);
    free(both_dirs);
    free(out);
    free(err);

    free(system_env);
    free(user_env);
    tu_rmtree(dir);
    tu_rmtree(user);
    free(dir);
    free(user);
}
END_TEST

START_TEST(no_directory_at_all_is_said)
{
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(list(&out, &err, (char *[]){"AORTA_PLUGIN_SYSTEM_PATH=", "AORTA_PLUGIN_PATH",
                                                 NULL}),
                     0);
    ck_assert_str_eq(out, "");
    ck_assert_ptr_nonnull(strstr(err, "aorta-run: warning: no collectors found: no directory"));
    free(out);
    free(err);
}
END_TEST

static Suite *list_empty_suite(void)
{
    Suite *suite = suite_create("list-empty");
    TCase *tc = tcase_create("list-empty");
    tcase_add_test(tc, empty_system_dir_is_named);
    tcase_add_test(tc, no_directory_at_all_is_said);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(list_empty_suite)
