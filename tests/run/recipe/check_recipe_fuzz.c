/* SPDX-License-Identifier: MIT */
/* Malformed recipes and sidecars never crash or hang the reader: every
 * truncation of the upstream fixtures, deterministic byte mutations of
 * them, binary noise, deep nesting and alias bombs each either load or give
 * one error line naming the file; the hostile ones, run through aorta-run,
 * exit 2 with that one line. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recipe_util.h"
#include "recipe/yaml_tree.h"

static const char *const FIXTURES[] = {
    "examples_profiling_proton_triton-vecadd_recipe.yaml",
    "examples_profiling_rocprof_hip-gemm_recipe.yaml",
    "recipes_probe_example-probe-smoke.yaml",
    "tests_probe_fixtures_probe_minimal.yaml",
    "tests_probe_fixtures_probe_needs_sidecar.yaml",
    "tests_probe_fixtures_probe_sidecar.json",
    "tests_probe_fixtures_probe_two_cell.yaml",
    "tests_probe_fixtures_probe_with_phase_2_keys.yaml",
};
#define FIXTURE_COUNT (sizeof FIXTURES / sizeof FIXTURES[0])

static char *dir;
static char *path;

static void setup(void)
{
    dir = tu_tmpdir();
    path = tu_join(dir, "fuzz.yaml");
}

static void teardown(void)
{
    tu_rmtree(dir);
    free(path);
    free(dir);
}

/* A small deterministic generator (xorshift64). */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static char *read_fixture(size_t index, size_t *len)
{
    char *rel = ar_xasprintf("tests/run/recipe/fixtures/%s", FIXTURES[index]);
    char *file = tu_srcdir(rel);
    char *text = tu_read(file);
    ck_assert_ptr_nonnull(text);
    *len = strlen(text);
    free(file);
    free(rel);
    return text;
}

static void write_bytes(const char *file, const char *bytes, size_t len)
{
    FILE *out = fopen(file, "wb");
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(fwrite(bytes, 1, len, out), len);
    fclose(out);
}

/* Load bytes as a recipe: it loads, or fails with one line naming the file.
 * Returns whether it loaded. */
static int check_recipe_bytes(const char *bytes, size_t len)
{
    write_bytes(path, bytes, len);
    ru_load_t load = ru_load_path(path, NULL);
    int loaded = load.recipe != NULL;
    if (!loaded) {
        ck_assert_ptr_nonnull(load.error);
        ck_assert_ptr_null(strchr(load.error, '\n'));
        ck_assert_msg(strncmp(load.error, path, strlen(path)) == 0 && load.error[strlen(path)]
                                                                           == ':',
                      "error does not name the file: %s", load.error);
    }
    /* The one warning, if any, is one line too. */
    char *newline = strchr(load.warnings, '\n');
    ck_assert(!newline || newline[1] == '\0');
    ru_load_free(&load);
    return loaded;
}

START_TEST(every_truncation_of_the_fixtures)
{
    size_t len = 0;
    char *text = read_fixture((size_t)_i, &len);
    size_t loaded = 0;
    for (size_t cut = 0; cut <= len; cut++)
        loaded += (size_t)check_recipe_bytes(text, cut);
    /* The whole minimal fixture loads, so the check above is not vacuous. */
    if (strcmp(FIXTURES[_i], "tests_probe_fixtures_probe_minimal.yaml") == 0)
        ck_assert_uint_ge(loaded, 1);
    free(text);
}
END_TEST

START_TEST(byte_mutations_of_the_fixtures)
{
    static const char INTERESTING[] = "\x00\xff\x80\xc3\t\n\r []{}:-&*!|>\"'#%@`?,<=~\\";
    size_t len = 0;
    char *text = read_fixture((size_t)_i, &len);
    char *copy = ar_xmalloc(len + 1);
    uint64_t state = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
    for (int round = 0; round < 300; round++) {
        memcpy(copy, text, len);
        int edits = 1 + (int)(next_random(&state) % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)(next_random(&state) % len);
            uint64_t pick = next_random(&state);
            copy[at] = pick & 1 ? INTERESTING[(pick >> 1) % (sizeof INTERESTING - 1)]
                                : (char)(pick >> 8);
        }
        check_recipe_bytes(copy, len);
    }
    free(copy);
    free(text);
}
END_TEST

/* Hostile inputs that must be refused. */
static char *repeat(const char *unit, size_t times, const char *tail)
{
    size_t unit_len = strlen(unit), tail_len = strlen(tail);
    char *out = ar_xmalloc(unit_len * times + tail_len + 1);
    for (size_t i = 0; i < times; i++)
        memcpy(out + i * unit_len, unit, unit_len);
    memcpy(out + unit_len * times, tail, tail_len + 1);
    return out;
}

static char *billion_laughs(void)
{
    char *text = ar_xstrdup("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (int level = 1; level < 10; level++) {
        char *list = repeat("*aN, ", 9, "*aN]\n");
        for (char *c = strchr(list, 'N'); c; c = strchr(c, 'N'))
            *c = (char)('0' + level - 1);
        char *next = ar_xasprintf("%sa%d: &a%d [%s", text, level, level, list);
        free(list);
        free(text);
        text = next;
    }
    return text;
}

typedef struct hostile {
    const char *name;
    char *text;
    size_t len;
} hostile_t;

static size_t make_hostile(hostile_t *out)
{
    size_t n = 0;
    out[n++] = (hostile_t){"flow nesting", repeat("[", 100000, ""), 0};
    out[n++] = (hostile_t){"mapping nesting", repeat("{a: ", 20000, "x"), 0};
    out[n++] = (hostile_t){"block nesting", repeat("- ", 5000, "x\n"), 0};
    out[n++] = (hostile_t){"billion laughs", billion_laughs(), 0};
    out[n++] = (hostile_t){"alias fan-out", repeat("*a, ", 200000, "]\n"), 0};
    memcpy(out[n - 1].text, "a: &a x\nb: [", 12); /* the anchor, then the aliases */
    out[n++] = (hostile_t){"recursive alias", ar_xstrdup("a: &a {b: *a}\n"), 0};
    out[n++] = (hostile_t){"undefined alias", ar_xstrdup("schema_version: *nope\n"), 0};
    out[n++] = (hostile_t){"many documents", repeat("---\n", 1000, ""), 0};
    out[n++] = (hostile_t){"unterminated quote", ar_xstrdup("schema_version: 1\nticket: \"x"), 0};
    out[n++] = (hostile_t){"long key", repeat("k", 200000, ": v\n"), 0};
    out[n++] = (hostile_t){"too large", repeat("#", AR_YAML_MAX_BYTES + 1, ""), 0};
    out[n++] = (hostile_t){"yaml 2.0", ar_xstrdup("%YAML 2.0\n---\na: 1\n"), 0};
    char *noise = ar_xmalloc(65536);
    uint64_t state = 0x2545f4914f6cdd1dull;
    for (size_t i = 0; i < 65536; i++)
        noise[i] = (char)next_random(&state);
    out[n++] = (hostile_t){"binary noise", noise, 65536};
    out[n++] = (hostile_t){"nul bytes", ar_xmalloc(8), 8};
    memcpy(out[n - 1].text, "a: b\0\0\0\0", 8);
    out[n++] = (hostile_t){"utf-16 text", ar_xmalloc(8), 8};
    memcpy(out[n - 1].text, "\xff\xfe" "a\0:\0" "\0\xd8", 8); /* a lone surrogate */
    out[n++] = (hostile_t){"bad escape", ar_xstrdup("a: \"\\uD800\"\n"), 0};
    for (size_t i = 0; i < n; i++)
        if (!out[i].len)
            out[i].len = strlen(out[i].text);
    return n;
}

START_TEST(hostile_inputs_are_refused_in_process)
{
    hostile_t cases[32];
    size_t n = make_hostile(cases);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(!check_recipe_bytes(cases[i].text, cases[i].len), "%s loaded",
                      cases[i].name);
        free(cases[i].text);
    }
}
END_TEST

START_TEST(hostile_inputs_through_aorta_run_exit_2_with_one_line)
{
    hostile_t cases[32];
    size_t n = make_hostile(cases);
    char *binary = tu_aorta_run();
    char *modules = tu_builddir("tests/fake-collectors");
    for (size_t i = 0; i < n; i++) {
        write_bytes(path, cases[i].text, cases[i].len);
        char *out = NULL, *err = NULL;
        char *argv[] = {binary, "--plugin-dir", modules, "--recipe", path, "--dry-run", "--",
                        "true", NULL};
        ck_assert_msg(tu_run(argv, NULL, &out, &err) == 2, "%s: %s", cases[i].name, err);
        ck_assert_str_eq(out, "");
        char *first = NULL;
        ck_assert_msg(ru_error_lines(err, &first) == 1, "%s: %s", cases[i].name, err);
        char *prefix = ar_xasprintf("aorta-run: %s:", path);
        ck_assert_msg(strncmp(first, prefix, strlen(prefix)) == 0, "%s: %s", cases[i].name,
                      first);
        free(prefix);
        free(first);
        free(out);
        free(err);
        free(cases[i].text);
    }
    free(modules);
    free(binary);
}
END_TEST

START_TEST(sidecar_truncations_and_mutations)
{
    size_t len = 0;
    char *text = read_fixture(5, &len); /* the sidecar */
    char *file = tu_join(dir, "sidecar.json");
    uint64_t state = 0x853c49e6748fea9bull;
    char *copy = ar_xmalloc(len + 1);
    size_t loaded = 0;
    for (size_t round = 0; round <= len + 300; round++) {
        size_t used = len;
        memcpy(copy, text, len);
        if (round <= len)
            used = round; /* a truncation */
        else
            copy[next_random(&state) % len] = (char)next_random(&state);
        write_bytes(file, copy, used);
        ar_mitigations_t *table = ar_mitigations_new();
        char *error = NULL;
        if (ar_mitigations_load_file(table, file, &error) == 0) {
            loaded++;
        } else {
            ck_assert_ptr_null(strchr(error, '\n'));
            ck_assert(strncmp(error, file, strlen(file)) == 0);
        }
        free(error);
        ar_mitigations_free(table);
    }
    ck_assert_uint_ge(loaded, 1);
    free(copy);
    free(file);
    free(text);
}
END_TEST

static Suite *fuzz_suite(void)
{
    Suite *suite = suite_create("recipe_fuzz");
    TCase *tc = tcase_create("fuzz");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, every_truncation_of_the_fixtures, 0, (int)FIXTURE_COUNT);
    tcase_add_loop_test(tc, byte_mutations_of_the_fixtures, 0, (int)FIXTURE_COUNT);
    tcase_add_test(tc, hostile_inputs_are_refused_in_process);
    tcase_add_test(tc, hostile_inputs_through_aorta_run_exit_2_with_one_line);
    tcase_add_test(tc, sidecar_truncations_and_mutations);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(fuzz_suite)
