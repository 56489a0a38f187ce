/* aorta-run in a hostile environment: sidecars and recipes that are not
 * what they claim, bytes that are not UTF-8, signals in every state, a
 * payload that leaves processes behind or swaps the run directory's
 * components for symlinks, and a full disk. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "platutil.h"
#include "xalloc.h"

static char *dir;
static char *plugins;

static void setup(void)
{
    dir = tu_tmpdir();
    plugins = tu_builddir("tests/plugins");
    ck_assert_int_eq(chdir(dir), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(chdir("/"), 0);
    tu_rmtree(dir);
    free(dir);
    free(plugins);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t error_lines(const char *err)
{
    return pu_count(err, "aorta-run: ") - pu_count(err, "aorta-run: warning: ");
}

/* ------------------------------------------------------------------------ */
/* Strict UTF-8 everywhere                                                   */
/* ------------------------------------------------------------------------ */

/* Every .json file under path is strict UTF-8 (Python's decoder's rules)
 * and JSON; returns how many were checked. */
static size_t check_json_tree(const char *path)
{
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    size_t checked = 0;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        char *child = tu_join(path, entry->d_name);
        struct stat st;
        ck_assert_int_eq(lstat(child, &st), 0);
        size_t len = strlen(entry->d_name);
        if (S_ISDIR(st.st_mode)) {
            checked += check_json_tree(child);
        } else if (len > 5 && !strcmp(entry->d_name + len - 5, ".json")) {
            char *text = tu_read(child);
            ck_assert_ptr_nonnull(text);
            size_t size = strlen(text);
            ck_assert_msg(aorta_utf8_valid_prefix(text, size, NULL, NULL) == size,
                          "%s is not UTF-8", child);
            aorta_json_t *json = aorta_json_read_file(child, 64u << 20, 64);
            ck_assert_msg(json != NULL, "%s is not JSON", child);
            aorta_json_free(json);
            free(text);
            checked++;
        }
        free(child);
    }
    closedir(d);
    return checked;
}

START_TEST(every_json_file_of_a_hostile_run_is_strict_utf8)
{
    /* Bytes that are not UTF-8 in the command, in aorta-run's environment
     * (host_env.json, the trial JSON's env) and in a cell's variable. */
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                            "mitigation_axis: [m]\ndiagnostic_axis: [none]\n"
                            "mitigations:\n  m: {GOOD: \"caf\\u00e9\"}\n");
    char *args[] = {"--plugin-dir", plugins, "--recipe", "recipe.yaml", "--collect", "good",
                    "--output", "out", "--", "printf", "\xff\xfe%s\xed\xa0\x80", "\xc0\xaf", NULL};
    char *env[] = {"HOSTILE_\xff=\xfe\xff", "HOSTILE_VALUE=a\xe9z", NULL};
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(pu_aorta(args, env, &out, &err), 0);
    ck_assert_uint_ge(check_json_tree("out"), 4);
    free(out);
    free(err);
}
END_TEST

/* A sidecar is checked like a recipe: one line with file:line:column, exit
 * 2, nothing written. */
START_TEST(a_hostile_sidecar_is_refused_before_anything_is_written)
{
    static const char *const SIDECARS[] = {
        "{\"version\": 1, \"mitigations\": {\"m\": {\"A\": \"a\xff\"}}}",
        "{\"version\": 1, \"mitigations\": {\"m\": {\"A\": \"a\\u0000b\"}}}",
        "{\"version\": 1, \"mitigations\": {\"m\": {\"A\": \"1\", \"A\": \"2\"}}}",
        "{\"version\": 1, \"mitigations\": {\"m\": {\"A\": [\"1\"]}}}",
    };
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                            "mitigation_axis: [m]\ndiagnostic_axis: [none]\n");
    for (size_t i = 0; i < sizeof SIDECARS / sizeof SIDECARS[0]; i++) {
        tu_write("s.json", SIDECARS[i]);
        char *out = NULL, *err = NULL;
        ck_assert_int_eq(pu_aorta((char *[]){"--recipe", "recipe.yaml", "--mitigations-file",
                                             "s.json", "--output", "out", "--", "true", NULL},
                                  NULL, &out, &err),
                         2);
        ck_assert_msg(error_lines(err) == 1 && strstr(err, "aorta-run: s.json:1:"), "%s", err);
        ck_assert(!tu_exists("out"));
        free(out);
        free(err);
    }
}
END_TEST

/* ------------------------------------------------------------------------ */
/* User-named files that are not files                                       */
/* ------------------------------------------------------------------------ */

static void expect_not_a_file(const char *flag, const char *path, const char *kind)
{
    tu_write("recipe.yaml", "schema_version: 1\nmode: probe\ntrials: 1\n"
                            "mitigation_axis: [none]\ndiagnostic_axis: [none]\n");
    int sidecar = strcmp(flag, "--recipe") != 0;
    char *args[] = {"--recipe", sidecar ? "recipe.yaml" : (char *)path, "--output", "out",
                    sidecar ? "--mitigations-file" : "--", sidecar ? (char *)path : "true",
                    "--", "true", NULL};
    char *out = NULL, *err = NULL;
    double started = now();
    ck_assert_int_eq(pu_aorta(args, NULL, &out, &err), 2);
    ck_assert(now() - started < 10);
    char *line = aorta_xasprintf("aorta-run: %s: cannot read the %s: it is %s, not a regular "
                                 "file\n",
                                 path, sidecar ? "mitigations file" : "recipe",
                                 kind);
    ck_assert_str_eq(err, line);
    ck_assert(!tu_exists("out"));
    free(line);
    free(out);
    free(err);
}

START_TEST(a_fifo_device_or_socket_named_as_recipe_or_sidecar_is_refused_unopened)
{
    /* A FIFO with no writer: opening it would block for ever. */
    ck_assert_int_eq(mkfifo("fifo", 0644), 0);
    expect_not_a_file("--recipe", "fifo", "a FIFO");
    expect_not_a_file("--mitigations-file", "fifo", "a FIFO");
    expect_not_a_file("--recipe", "/dev/zero", "a character device");
    expect_not_a_file("--mitigations-file", "/dev/null", "a character device");
    int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    strcpy(addr.sun_path, "sock");
    ck_assert_int_eq(bind(sock, (struct sockaddr *)&addr, sizeof addr), 0);
    expect_not_a_file("--recipe", "sock", "a socket");
    close(sock);
}
END_TEST

/* ------------------------------------------------------------------------ */

static Suite *hostile_suite(void)
{
    Suite *suite = suite_create("platform hostile");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, every_json_file_of_a_hostile_run_is_strict_utf8);
    tcase_add_test(tc, a_hostile_sidecar_is_refused_before_anything_is_written);
    tcase_add_test(tc, a_fifo_device_or_socket_named_as_recipe_or_sidecar_is_refused_unopened);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(hostile_suite)
