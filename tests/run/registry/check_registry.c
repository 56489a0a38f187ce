/* SPDX-License-Identifier: MIT */
/* The module loader: every kind of candidate, its status and reason, the
 * search order and shadowing.  Uses the test-only modules of tests/fake-collectors/. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "registry/registry.h"
#include "testutil.h"

/* The ABI this build speaks (and its test collectors are built against). */
#define ABI_STR_(x) #x
#define ABI_STR(x) ABI_STR_(x)
#define ABI_TEXT ABI_STR(AORTA_COLLECTOR_ABI_MAJOR) "." ABI_STR(AORTA_COLLECTOR_ABI_MINOR)
/* tests/fake-collectors/newminor.c claims the minor after this one. */
#define NEXT_MINOR_TEXT ABI_STR(AORTA_COLLECTOR_ABI_MAJOR) "." ABI_STR(AORTA_NEXT_MINOR)
#define AORTA_NEXT_MINOR 5
_Static_assert(AORTA_NEXT_MINOR == AORTA_COLLECTOR_ABI_MINOR + 1, "update AORTA_NEXT_MINOR");

static const ar_module_t *candidate(const ar_registry_t *registry, const char *name,
                                       size_t nth)
{
    for (size_t i = 0; i < registry->count; i++)
        if (strcmp(registry->modules[i].name, name) == 0 && nth-- == 0)
            return &registry->modules[i];
    ck_abort_msg("no candidate named %s", name);
    return NULL;
}

static ar_registry_t *load_test_plugins(void)
{
    char *modules = tu_builddir("tests/fake-collectors");
    char *shadow = tu_builddir("tests/fake-collectors/shadow");
    char *dirs[] = {modules, shadow, NULL};
    ar_registry_t *registry = ar_registry_load(dirs);
    ar_registry_check_all(registry);
    free(modules);
    free(shadow);
    return registry;
}

/* The contract breaker's directory, loaded lazily, with $BREAKER set. */
static ar_registry_t *load_breaker(const char *how)
{
    setenv("BREAKER", how, 1);
    char *dir = tu_builddir("tests/fake-collectors/contract");
    char *dirs[] = {dir, NULL};
    ar_registry_t *registry = ar_registry_load(dirs);
    free(dir);
    return registry;
}

START_TEST(nothing_is_opened_until_a_collector_is_asked_for)
{
    char *modules = tu_builddir("tests/fake-collectors");
    char *dirs[] = {modules, NULL};
    ar_registry_t *registry = ar_registry_load(dirs);
    for (size_t i = 0; i < registry->count; i++) {
        ck_assert_int_eq(registry->modules[i].status, AR_MODULE_UNCHECKED);
        ck_assert_ptr_null(registry->modules[i].handle);
    }
    ck_assert_ptr_nonnull(ar_registry_open(registry, "good"));
    /* Only good's candidate was opened; the broken ones beside it were not. */
    ck_assert_int_eq(candidate(registry, "good", 0)->status, AR_MODULE_OK);
    ck_assert_int_eq(candidate(registry, "badmajor", 0)->status, AR_MODULE_UNCHECKED);
    ck_assert_int_eq(candidate(registry, "nosymbol", 0)->status, AR_MODULE_UNCHECKED);
    ar_registry_free(registry);
    free(modules);
}
END_TEST

START_TEST(a_module_that_crashes_while_loading_is_only_a_failed_candidate)
{
    ar_registry_t *registry = load_breaker("load");
    ck_assert_ptr_null(ar_registry_open(registry, "breaker"));
    const ar_module_t *failed = ar_registry_find_failed(registry, "breaker");
    ck_assert_ptr_nonnull(failed);
    ck_assert_str_eq(failed->reason, TU_CRASHED_WHILE_LOADING);
    ck_assert_ptr_null(failed->handle); /* never opened in this process */
    ar_registry_free(registry);
    unsetenv("BREAKER");
}
END_TEST

START_TEST(a_module_that_hangs_while_loading_times_out)
{
    setenv("AORTA_LOAD_TIMEOUT", "0.5", 1);
    ar_registry_t *registry = load_breaker("loadhang");
    ck_assert_ptr_null(ar_registry_open(registry, "breaker"));
    const ar_module_t *failed = ar_registry_find_failed(registry, "breaker");
    ck_assert_ptr_nonnull(failed);
    ck_assert_str_eq(failed->reason, "timed out while loading (after 0.5 s; AORTA_LOAD_TIMEOUT)");
    ar_registry_free(registry);
    unsetenv("BREAKER");
    unsetenv("AORTA_LOAD_TIMEOUT");
}
END_TEST

START_TEST(a_module_whose_entry_returns_garbage_is_a_failed_candidate)
{
    ar_registry_t *registry = load_breaker("bogus");
    ck_assert_ptr_null(ar_registry_open(registry, "breaker"));
    const ar_module_t *failed = ar_registry_find_failed(registry, "breaker");
    ck_assert_ptr_nonnull(failed);
    ck_assert_str_eq(failed->reason, TU_CRASHED_WHILE_LOADING);
    ar_registry_free(registry);
    unsetenv("BREAKER");
}
END_TEST

START_TEST(the_load_check_reply_is_read_strictly)
{
    char *reason = NULL;
    ck_assert_int_eq(ar_registry_parse_check_reply("ok\n", 3, &reason), 0);
    ck_assert_ptr_null(reason);
    ck_assert_int_eq(ar_registry_parse_check_reply("failed\tno symbol x\n", 19, &reason), 0);
    ck_assert_str_eq(reason, "no symbol x");
    free(reason);
    static const char *const garbage[] = {"", "ok", "ok\n\n", "OK\n", "failed\t\n",
                                          "failed\tx", "failed\ta\nb\n", "failed x\n"};
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        ck_assert_int_eq(ar_registry_parse_check_reply(garbage[i], strlen(garbage[i]), &reason),
                         -1);
        ck_assert_ptr_null(reason);
    }
    ck_assert_int_eq(ar_registry_parse_check_reply("failed\ta\0b\n", 11, &reason), -1);
    ck_assert_int_eq(ar_registry_parse_check_reply(NULL, 0, &reason), -1);
}
END_TEST

START_TEST(good_plugin_loads_with_defaults_filled)
{
    ar_registry_t *registry = load_test_plugins();
    const ar_module_t *good = ar_registry_open(registry, "good");
    ck_assert_ptr_nonnull(good);
    ck_assert_int_eq(good->status, AR_MODULE_OK);
    ck_assert_ptr_null(good->reason);
    ck_assert_str_eq(good->collector.version, "1.0");
    ck_assert_int_eq(good->collector.wrap_rank, 50);
    ck_assert_ptr_nonnull(strstr(good->path, "tests/fake-collectors/good.la"));
    /* Optional slots the module left empty get the core's defaults. */
    ck_assert_ptr_nonnull(good->collector.env);
    ck_assert_ptr_nonnull(good->collector.conflicts);
    ck_assert_ptr_nonnull(good->collector.queue_interceptor);
    char why[16] = "", remedy[16] = "";
    ck_assert_int_eq(good->collector.queue_interceptor(NULL, why, sizeof why, remedy,
                                                       sizeof remedy),
                     0);
    ck_assert_ptr_null(good->collector.queue_interceptor_why);
    ar_registry_free(registry);
}
END_TEST

START_TEST(a_1_0_collector_keeps_its_interceptor_slot)
{
    ar_registry_t *registry = load_test_plugins();
    /* interceptor_a is described as a 1.0 collector is, interceptor_b as
     * a 1.1 one that sets both slots. */
    const ar_module_t *a = ar_registry_open(registry, "interceptor_a");
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(a->collector.abi_minor, 0);
    ck_assert_ptr_nonnull(a->collector.queue_interceptor);
    ck_assert_ptr_null(a->collector.queue_interceptor_why);
    const ar_module_t *b = ar_registry_open(registry, "interceptor_b");
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(b->collector.queue_interceptor_why);
    ar_registry_free(registry);
}
END_TEST

static void expect_failed(const ar_registry_t *registry, const char *name, const char *reason)
{
    const ar_module_t *module = candidate(registry, name, 0);
    ck_assert_int_eq(module->status, AR_MODULE_FAILED);
    ck_assert_msg(module->reason && strstr(module->reason, reason),
                  "%s: reason '%s' lacks '%s'", name, module->reason ? module->reason : "", reason);
    ck_assert_ptr_null(ar_registry_open(registry, name));
    ck_assert_ptr_eq(ar_registry_find_failed(registry, name), module);
}

START_TEST(each_broken_plugin_fails_with_its_reason)
{
    ar_registry_t *registry = load_test_plugins();
    expect_failed(registry, "badmajor", "collector ABI 2.0, but this aorta speaks ABI " ABI_TEXT);
    expect_failed(registry, "newminor", "collector ABI " NEXT_MINOR_TEXT " is newer than this aorta's " ABI_TEXT);
    expect_failed(registry, "nosymbol", "no symbol aorta_collector_nosymbol_get");
    expect_failed(registry, "wrongname",
                  "collector calls itself 'othername', but its file is named 'wrongname'");
    expect_failed(registry, "noparse", "missing mandatory callback 'parse'");
    expect_failed(registry, "notalib", "cannot load module: ");
    ck_assert_ptr_nonnull(strstr(candidate(registry, "notalib", 0)->reason, "notalib.so"));
    ar_registry_free(registry);
}
END_TEST

START_TEST(the_same_name_later_on_the_path_is_shadowed)
{
    ar_registry_t *registry = load_test_plugins();
    const ar_module_t *first = candidate(registry, "good", 0);
    const ar_module_t *second = candidate(registry, "good", 1);
    ck_assert_int_eq(first->status, AR_MODULE_OK);
    ck_assert_int_eq(second->status, AR_MODULE_SHADOWED);
    ck_assert_str_eq(second->collector.version, "shadow");
    ck_assert_ptr_eq(ar_registry_open(registry, "good"), first);
    ar_registry_free(registry);

    /* Reversed order: the shadow directory's copy wins. */
    char *modules = tu_builddir("tests/fake-collectors");
    char *shadow = tu_builddir("tests/fake-collectors/shadow");
    char *dirs[] = {shadow, modules, NULL};
    registry = ar_registry_load(dirs);
    ck_assert_str_eq(ar_registry_open(registry, "good")->collector.version, "shadow");
    ar_registry_free(registry);
    free(modules);
    free(shadow);
}
END_TEST

START_TEST(a_broken_first_candidate_does_not_hide_a_good_one)
{
    char *dir = tu_tmpdir();
    char *fake = tu_join(dir, "good.so");
    tu_write(fake, "this is not an ELF file\n");
    char *modules = tu_builddir("tests/fake-collectors");
    char *dirs[] = {dir, modules, NULL};
    ar_registry_t *registry = ar_registry_load(dirs);
    ar_registry_check_all(registry);
    ck_assert_int_eq(candidate(registry, "good", 0)->status, AR_MODULE_FAILED);
    const ar_module_t *used = ar_registry_open(registry, "good");
    ck_assert_ptr_nonnull(used);
    ck_assert_ptr_nonnull(strstr(used->path, "tests/fake-collectors/good.la"));
    ar_registry_free(registry);
    tu_rmtree(dir);
    free(modules);
    free(fake);
    free(dir);
}
END_TEST

START_TEST(registry_names_lists_usable_collectors_sorted)
{
    ar_registry_t *registry = load_test_plugins();
    char *names = ar_registry_names(registry);
    ck_assert_str_eq(names, "badparse, good, interceptor_a, interceptor_b, scribe");
    free(names);
    ar_registry_free(registry);
    char *empty[] = {NULL};
    registry = ar_registry_load(empty);
    names = ar_registry_names(registry);
    ck_assert_str_eq(names, "(none)");
    free(names);
    ar_registry_free(registry);
}
END_TEST

static void expect_path(char **dirs, const char *const *expected)
{
    size_t i = 0;
    for (; expected[i]; i++) {
        ck_assert_msg(dirs[i] != NULL, "search path too short at %zu", i);
        ck_assert_str_eq(dirs[i], expected[i]);
    }
    ck_assert_msg(dirs[i] == NULL, "extra search path entry %s", dirs[i]);
}

START_TEST(search_order_cli_then_env_then_system)
{
    char *cli[] = {"/cli/one", "", "/cli/two"};
    setenv("AORTA_PLUGIN_PATH", "/user/a::/user/b", 1);
    setenv("AORTA_PLUGIN_SYSTEM_PATH", "/system/x", 1);
    char **dirs = ar_search_path(cli, 3);
    expect_path(dirs, (const char *const[]){"/cli/one", "/cli/two", "/user/a", "/user/b",
                                            "/system/x", NULL});
    ar_search_path_free(dirs);

    /* Set but empty: no system directory at all. */
    setenv("AORTA_PLUGIN_SYSTEM_PATH", "", 1);
    unsetenv("AORTA_PLUGIN_PATH");
    dirs = ar_search_path(cli, 1);
    expect_path(dirs, (const char *const[]){"/cli/one", NULL});
    ar_search_path_free(dirs);

    /* Unset: the compiled-in collectordir. */
    unsetenv("AORTA_PLUGIN_SYSTEM_PATH");
    dirs = ar_search_path(NULL, 0);
    expect_path(dirs, (const char *const[]){AR_COLLECTORDIR, NULL});
    ar_search_path_free(dirs);
}
END_TEST

START_TEST(env_path_plugins_come_after_plugin_dir)
{
    char *modules = tu_builddir("tests/fake-collectors");
    char *shadow = tu_builddir("tests/fake-collectors/shadow");
    setenv("AORTA_PLUGIN_PATH", modules, 1);
    setenv("AORTA_PLUGIN_SYSTEM_PATH", "", 1);
    char *cli[] = {shadow};
    char **dirs = ar_search_path(cli, 1);
    ar_registry_t *registry = ar_registry_load(dirs);
    ck_assert_str_eq(ar_registry_open(registry, "good")->collector.version, "shadow");
    ar_registry_free(registry);
    ar_search_path_free(dirs);
    free(modules);
    free(shadow);
}
END_TEST

static Suite *loader_suite(void)
{
    Suite *suite = suite_create("loader");
    TCase *tc = tcase_create("loader");
    tcase_add_test(tc, good_plugin_loads_with_defaults_filled);
    tcase_add_test(tc, nothing_is_opened_until_a_collector_is_asked_for);
    tcase_add_test(tc, a_module_that_crashes_while_loading_is_only_a_failed_candidate);
    tcase_add_test(tc, a_module_that_hangs_while_loading_times_out);
    tcase_add_test(tc, a_module_whose_entry_returns_garbage_is_a_failed_candidate);
    tcase_add_test(tc, the_load_check_reply_is_read_strictly);
    tcase_add_test(tc, a_1_0_collector_keeps_its_interceptor_slot);
    tcase_add_test(tc, each_broken_plugin_fails_with_its_reason);
    tcase_add_test(tc, the_same_name_later_on_the_path_is_shadowed);
    tcase_add_test(tc, a_broken_first_candidate_does_not_hide_a_good_one);
    tcase_add_test(tc, registry_names_lists_usable_collectors_sorted);
    tcase_add_test(tc, search_order_cli_then_env_then_system);
    tcase_add_test(tc, env_path_plugins_come_after_plugin_dir);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(loader_suite)
