/* SPDX-License-Identifier: MIT */
/* The YAML layer: plain scalars resolve as PyYAML's YAML 1.1 resolver does,
 * nodes keep their positions, merge keys apply, and every malformed input
 * is one "LABEL:LINE:COLUMN: ..." error. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "recipe/yaml_tree.h"
#include "testutil.h"
#include "xalloc.h"

static ar_yaml_doc_t *parse_ok(const char *text)
{
    ar_yaml_doc_t *doc = NULL;
    char *error = NULL;
    int status = ar_yaml_parse("t.yaml", text, strlen(text), &doc, &error);
    ck_assert_msg(status == 0, "unexpected error: %s", error ? error : "(none)");
    ck_assert_ptr_null(error);
    return doc;
}

/* The error for text, which must be one line. */
static char *parse_error(const char *text, size_t len)
{
    ar_yaml_doc_t *doc = NULL;
    char *error = NULL;
    ck_assert_int_eq(ar_yaml_parse("t.yaml", text, len, &doc, &error), -1);
    ck_assert_ptr_null(doc);
    ck_assert_ptr_nonnull(error);
    ck_assert_ptr_null(strchr(error, '\n'));
    return error;
}

static void expect_error(const char *text, const char *expected)
{
    char *error = parse_error(text, strlen(text));
    ck_assert_str_eq(error, expected);
    free(error);
}

/* ------------------------------------------------------------------------ */

typedef struct scalar_case {
    const char *text;          /* the value of "k: <text>" */
    ar_yaml_type_t type;
    int boolean;               /* BOOL */
    long long integer;         /* INT (when integer_ok) */
    int integer_ok;
    double real;               /* FLOAT (NAN: is nan) */
} scalar_case_t;

static const scalar_case_t SCALARS[] = {
    /* null: ~, null in three casings, empty; "none" is a string */
    {"", AR_YAML_NULL, 0, 0, 0, 0},
    {"~", AR_YAML_NULL, 0, 0, 0, 0},
    {"null", AR_YAML_NULL, 0, 0, 0, 0},
    {"Null", AR_YAML_NULL, 0, 0, 0, 0},
    {"NULL", AR_YAML_NULL, 0, 0, 0, 0},
    {"nULL", AR_YAML_STR, 0, 0, 0, 0},
    {"none", AR_YAML_STR, 0, 0, 0, 0},
    /* booleans: six words in three casings; PyYAML has no y/n */
    {"yes", AR_YAML_BOOL, 1, 0, 0, 0},
    {"Yes", AR_YAML_BOOL, 1, 0, 0, 0},
    {"YES", AR_YAML_BOOL, 1, 0, 0, 0},
    {"no", AR_YAML_BOOL, 0, 0, 0, 0},
    {"No", AR_YAML_BOOL, 0, 0, 0, 0},
    {"NO", AR_YAML_BOOL, 0, 0, 0, 0},
    {"true", AR_YAML_BOOL, 1, 0, 0, 0},
    {"True", AR_YAML_BOOL, 1, 0, 0, 0},
    {"TRUE", AR_YAML_BOOL, 1, 0, 0, 0},
    {"false", AR_YAML_BOOL, 0, 0, 0, 0},
    {"False", AR_YAML_BOOL, 0, 0, 0, 0},
    {"FALSE", AR_YAML_BOOL, 0, 0, 0, 0},
    {"on", AR_YAML_BOOL, 1, 0, 0, 0},
    {"On", AR_YAML_BOOL, 1, 0, 0, 0},
    {"ON", AR_YAML_BOOL, 1, 0, 0, 0},
    {"off", AR_YAML_BOOL, 0, 0, 0, 0},
    {"Off", AR_YAML_BOOL, 0, 0, 0, 0},
    {"OFF", AR_YAML_BOOL, 0, 0, 0, 0},
    {"y", AR_YAML_STR, 0, 0, 0, 0},
    {"n", AR_YAML_STR, 0, 0, 0, 0},
    {"yEs", AR_YAML_STR, 0, 0, 0, 0},
    {"tRUE", AR_YAML_STR, 0, 0, 0, 0},
    /* integers: decimal, sign, underscores, 0b, 0x, 0-octal, base 60 */
    {"0", AR_YAML_INT, 0, 0, 1, 0},
    {"12", AR_YAML_INT, 0, 12, 1, 0},
    {"-12", AR_YAML_INT, 0, -12, 1, 0},
    {"+12", AR_YAML_INT, 0, 12, 1, 0},
    {"1_000", AR_YAML_INT, 0, 1000, 1, 0},
    {"0x1F", AR_YAML_INT, 0, 31, 1, 0},
    {"0x_1f", AR_YAML_INT, 0, 31, 1, 0},
    {"0b101", AR_YAML_INT, 0, 5, 1, 0},
    {"-0b11", AR_YAML_INT, 0, -3, 1, 0},
    {"0755", AR_YAML_INT, 0, 493, 1, 0},
    {"190:20:30", AR_YAML_INT, 0, 685230, 1, 0},
    {"-1:30", AR_YAML_INT, 0, -90, 1, 0},
    {"9223372036854775807", AR_YAML_INT, 0, 9223372036854775807LL, 1, 0},
    {"-9223372036854775808", AR_YAML_INT, 0, -9223372036854775807LL - 1, 1, 0},
    {"9223372036854775808", AR_YAML_INT, 0, 0, 0, 0},
    {"0x8000000000000000", AR_YAML_INT, 0, 0, 0, 0},
    {"0o17", AR_YAML_STR, 0, 0, 0, 0},  /* YAML 1.2 octal: a string in 1.1 */
    {"0789", AR_YAML_STR, 0, 0, 0, 0},
    {"1e5", AR_YAML_STR, 0, 0, 0, 0},   /* 1.1 floats need a dot */
    {"12abc", AR_YAML_STR, 0, 0, 0, 0},
    /* floats: a dot, signed exponents, .inf/.nan, base 60 */
    {"1.5", AR_YAML_FLOAT, 0, 0, 0, 1.5},
    {"1.", AR_YAML_FLOAT, 0, 0, 0, 1.0},
    {".5", AR_YAML_FLOAT, 0, 0, 0, 0.5},
    {"-2.5", AR_YAML_FLOAT, 0, 0, 0, -2.5},
    {"1_000.5", AR_YAML_FLOAT, 0, 0, 0, 1000.5},
    {"1.0e+5", AR_YAML_FLOAT, 0, 0, 0, 100000.0},
    {"1.0e5", AR_YAML_STR, 0, 0, 0, 0},
    {"-.5", AR_YAML_STR, 0, 0, 0, 0},   /* PyYAML: no sign before a bare dot */
    {".inf", AR_YAML_FLOAT, 0, 0, 0, INFINITY},
    {"-.Inf", AR_YAML_FLOAT, 0, 0, 0, -INFINITY},
    {"+.INF", AR_YAML_FLOAT, 0, 0, 0, INFINITY},
    {".NaN", AR_YAML_FLOAT, 0, 0, 0, NAN},
    {".nan", AR_YAML_FLOAT, 0, 0, 0, NAN},
    {"190:20:30.15", AR_YAML_FLOAT, 0, 0, 0, 685230.15},
    /* timestamps */
    {"2001-12-14", AR_YAML_TIMESTAMP, 0, 0, 0, 0},
    {"2001-12-14t21:59:43.10-05:00", AR_YAML_TIMESTAMP, 0, 0, 0, 0},
    {"2001-12-14 21:59:43.10 -5", AR_YAML_TIMESTAMP, 0, 0, 0, 0},
    {"2001-1-1", AR_YAML_STR, 0, 0, 0, 0},
    /* quoting and tags */
    {"\"1\"", AR_YAML_STR, 0, 0, 0, 0},
    {"'yes'", AR_YAML_STR, 0, 0, 0, 0},
    {"\"\"", AR_YAML_STR, 0, 0, 0, 0},
    {"!!str 12", AR_YAML_STR, 0, 0, 0, 0},
    {"!!int \"12\"", AR_YAML_INT, 0, 12, 1, 0},
    {"!!float 3", AR_YAML_FLOAT, 0, 0, 0, 3.0},
    {"!!bool yes", AR_YAML_BOOL, 1, 0, 0, 0},
    {"!!null ''", AR_YAML_NULL, 0, 0, 0, 0},
    {"! 12", AR_YAML_INT, 0, 12, 1, 0},  /* PyYAML resolves '!' implicitly */
    {"plain text, spaces", AR_YAML_STR, 0, 0, 0, 0},
};

START_TEST(plain_scalars_resolve_like_yaml_1_1)
{
    const scalar_case_t *c = &SCALARS[_i];
    char *text = ar_xasprintf("k: %s\n", c->text);
    ar_yaml_doc_t *doc = parse_ok(text);
    const ar_yaml_node_t *node = ar_yaml_get(doc->root, "k");
    ck_assert_ptr_nonnull(node);
    ck_assert_int_eq(node->kind, AR_YAML_SCALAR);
    ck_assert_msg(node->type == c->type, "'%s' resolved to type %d, expected %d", c->text,
                  (int)node->type, (int)c->type);
    if (c->type == AR_YAML_BOOL)
        ck_assert_int_eq(node->boolean, c->boolean);
    if (c->type == AR_YAML_INT) {
        ck_assert_int_eq(node->integer_ok, c->integer_ok);
        if (c->integer_ok)
            ck_assert(node->integer == c->integer);
    }
    if (c->type == AR_YAML_FLOAT) {
        if (isnan(c->real))
            ck_assert(isnan(node->real));
        else
            ck_assert_msg(node->real == c->real || fabs(node->real - c->real) < 1e-9,
                          "'%s' read as %g", c->text, node->real);
    }
    ck_assert_int_eq(ar_yaml_is_string(node), c->type == AR_YAML_STR);
    ar_yaml_free(doc);
    free(text);
}
END_TEST

START_TEST(nodes_keep_their_positions)
{
    ar_yaml_doc_t *doc = parse_ok("# comment\n"
                                     "a: 1\n"
                                     "list:\n"
                                     "  - x\n"
                                     "  -   \"y\"\n"
                                     "map: {k: v}\n");
    const ar_yaml_node_t *root = doc->root;
    ck_assert_int_eq(root->kind, AR_YAML_MAPPING);
    ck_assert_uint_eq(root->line, 2);
    ck_assert_uint_eq(root->column, 1);
    ck_assert_uint_eq(root->keys[1]->line, 3);
    const ar_yaml_node_t *list = ar_yaml_get(root, "list");
    ck_assert_uint_eq(list->count, 2);
    ck_assert_uint_eq(list->items[0]->line, 4);
    ck_assert_uint_eq(list->items[0]->column, 5);
    ck_assert_uint_eq(list->items[1]->line, 5);
    ck_assert_uint_eq(list->items[1]->column, 7);
    const ar_yaml_node_t *map = ar_yaml_get(root, "map");
    ck_assert_uint_eq(map->column, 6);
    ck_assert_uint_eq(map->keys[0]->column, 7);
    ck_assert_uint_eq(map->items[0]->column, 10);
    ck_assert_str_eq(map->items[0]->text, "v");
    ar_yaml_free(doc);
}
END_TEST

START_TEST(empty_streams_have_no_root)
{
    ar_yaml_doc_t *doc = parse_ok("");
    ck_assert_ptr_null(doc->root);
    ar_yaml_free(doc);
    doc = parse_ok("# only a comment\n\n");
    ck_assert_ptr_null(doc->root);
    ar_yaml_free(doc);
    doc = parse_ok("---\n");
    ck_assert_ptr_nonnull(doc->root);
    ck_assert_int_eq(doc->root->type, AR_YAML_NULL);
    ar_yaml_free(doc);
}
END_TEST

START_TEST(merge_keys_apply_with_pyyaml_precedence)
{
    ar_yaml_doc_t *doc = parse_ok("base: &b {x: '1', y: '2'}\n"
                                     "other: &o {y: '3', z: '4'}\n"
                                     "one:\n"
                                     "  <<: *b\n"
                                     "  y: own\n"
                                     "list:\n"
                                     "  <<: [*b, *o]\n"
                                     "eq: {=: v}\n");
    const ar_yaml_node_t *one = ar_yaml_get(doc->root, "one");
    ck_assert_uint_eq(one->count, 2);
    ck_assert_str_eq(one->keys[0]->text, "x");
    ck_assert_str_eq(one->items[0]->text, "1");
    ck_assert_str_eq(one->keys[1]->text, "y");
    ck_assert_str_eq(one->items[1]->text, "own");
    /* In a list of merged mappings the first one wins. */
    const ar_yaml_node_t *list = ar_yaml_get(doc->root, "list");
    ck_assert_uint_eq(list->count, 3);
    ck_assert_str_eq(ar_yaml_get(list, "y")->text, "2");
    ck_assert_str_eq(ar_yaml_get(list, "z")->text, "4");
    /* '=' as a key is the string "=". */
    ck_assert_str_eq(ar_yaml_get(ar_yaml_get(doc->root, "eq"), "=")->text, "v");
    ar_yaml_free(doc);
}
END_TEST

START_TEST(aliases_share_their_anchor)
{
    ar_yaml_doc_t *doc = parse_ok("a: &x [p, q]\nb: *x\n");
    ck_assert_ptr_eq(ar_yaml_get(doc->root, "a"), ar_yaml_get(doc->root, "b"));
    ar_yaml_free(doc);
}
END_TEST

START_TEST(a_nul_escape_is_kept_but_not_a_c_string)
{
    ar_yaml_doc_t *doc = parse_ok("k: \"a\\0b\"\n");
    const ar_yaml_node_t *node = ar_yaml_get(doc->root, "k");
    ck_assert_uint_eq(node->length, 3);
    ck_assert_int_eq(node->text[2], 'b');
    ck_assert_int_eq(ar_yaml_is_string(node), 0);
    ar_yaml_free(doc);
}
END_TEST

/* ------------------------------------------------------------------------ */

typedef struct error_case {
    const char *text;
    const char *expected;
} error_case_t;

static const error_case_t ERRORS[] = {
    {"a: 1\nb: 2\na: 3\n", "t.yaml:3:1: duplicate key 'a' (first at line 1, column 1)"},
    {"a: {k: 1, k: 2}\n", "t.yaml:1:11: duplicate key 'k' (first at line 1, column 5)"},
    {"yes: 1\nYES: 2\n", "t.yaml:2:1: duplicate key 'YES' (first at line 1, column 1)"},
    {"a: &x 1\nb: &x 2\n", "t.yaml:2:4: duplicate anchor '&x' (first at line 1, column 4)"},
    {"a: *nope\n", "t.yaml:1:4: undefined alias '*nope'"},
    {"a: &x [1, *x]\n", "t.yaml:1:11: recursive alias '*x' (it is used inside its own anchor)"},
    {"a: 1\n---\nb: 2\n", "t.yaml:2:1: a second YAML document; a recipe is one document"},
    {"? [a, b]\n: 1\n", "t.yaml:1:3: a mapping key must be a scalar, got a list"},
    {"k: !!int abc\n", "t.yaml:1:4: 'abc' cannot be read as !!int"},
    {"k: !!binary aGVsbG8=\n",
     "t.yaml:1:4: unsupported tag 'tag:yaml.org,2002:binary' (a recipe uses plain YAML values)"},
    {"k: !custom {}\n", "t.yaml:1:4: unsupported tag '!custom' (a recipe uses plain YAML values)"},
    {"k: <<\n", "t.yaml:1:4: a plain '<<' is only meaningful as a mapping key; quote it"},
    {"- =\n", "t.yaml:1:3: a plain '=' is only meaningful as a mapping key; quote it"},
    {"a: {<<: [x]}\n", "t.yaml:1:10: a merge key '<<' takes a mapping or a list of mappings, got "
                       "a string ('x')"},
    {"a: [1, 2\nb: 3\n", "t.yaml:2:2: YAML syntax error: did not find expected ',' or ']' (while "
                         "parsing a flow sequence at line 1, column 4)"},
    {"a:\n\t- b\n", "t.yaml:2:1: YAML syntax error: found character that cannot start any token "
                    "(while scanning for the next token at line 2, column 1)"},
    {"a: b: c\n", "t.yaml:1:5: YAML syntax error: mapping values are not allowed in this context"},
    {"a: \"\\q\"\n", "t.yaml:1:5: YAML syntax error: found unknown escape character (while "
                     "parsing a quoted scalar at line 1, column 4)"},
    {"key: \x01\n", "t.yaml:1:6: YAML syntax error: control characters are not allowed (byte "
                    "0x01)"},
    {"ok: 1\nk: \xff\n", "t.yaml:2:4: YAML syntax error: invalid leading UTF-8 octet (byte 0xff)"},
};

START_TEST(malformed_yaml_is_one_positioned_error)
{
    expect_error(ERRORS[_i].text, ERRORS[_i].expected);
}
END_TEST

START_TEST(nesting_is_bounded)
{
    size_t depth = AR_YAML_MAX_DEPTH + 1;
    char *deep = ar_xmalloc(depth * 2 + 2);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    deep[2 * depth] = '\0';
    char *expected = ar_xasprintf("t.yaml:1:%zu: nested deeper than %d levels", depth,
                                     AR_YAML_MAX_DEPTH);
    expect_error(deep, expected);
    free(expected);
    /* One level less is fine. */
    deep[depth - 1] = ' ';
    deep[depth] = ' ';
    ar_yaml_free(parse_ok(deep));
    free(deep);
}
END_TEST

START_TEST(alias_expansion_is_bounded)
{
    /* Nine levels of ten aliases each would be a billion nodes. */
    char *text = ar_xstrdup("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int level = 1; level < 10; level++) {
        char *next = ar_xasprintf("%sa%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, "
                                     "*a%d, *a%d, *a%d]\n",
                                     text, level, level, level - 1, level - 1, level - 1,
                                     level - 1, level - 1, level - 1, level - 1, level - 1,
                                     level - 1, level - 1);
        free(text);
        text = next;
    }
    /* a3 holds 11111 nodes: the fifth alias of it in a4 (line 5, column
     * 30) takes the count past the bound. */
    char *error = parse_error(text, strlen(text));
    ck_assert_str_eq(error, "t.yaml:5:30: the document expands to more than 50000 nodes "
                            "(aliases counted each time they are used); a recipe is far smaller");
    free(error);
    free(text);
}
END_TEST

START_TEST(a_file_that_cannot_be_read_names_itself)
{
    char *dir = tu_tmpdir();
    char *missing = tu_join(dir, "missing.yaml");
    ar_yaml_doc_t *doc = NULL;
    char *error = NULL;
    ck_assert_int_eq(ar_yaml_load(missing, &doc, &error), -1);
    char *expected = ar_xasprintf("%s: cannot read the recipe: No such file or directory",
                                     missing);
    ck_assert_str_eq(error, expected);
    free(expected);
    free(error);
    ck_assert_int_eq(ar_yaml_load(dir, &doc, &error), -1);
    expected = ar_xasprintf("%s: cannot read the recipe: Is a directory", dir);
    ck_assert_str_eq(error, expected);
    free(expected);
    free(error);
    /* Too large to be a recipe. */
    char *big = tu_join(dir, "big.yaml");
    char *text = ar_xmalloc(AR_YAML_MAX_BYTES + 2);
    memset(text, '#', AR_YAML_MAX_BYTES + 1);
    text[AR_YAML_MAX_BYTES + 1] = '\0';
    tu_write(big, text);
    ck_assert_int_eq(ar_yaml_load(big, &doc, &error), -1);
    expected = ar_xasprintf("%s: the recipe is larger than %u bytes", big,
                               AR_YAML_MAX_BYTES);
    ck_assert_str_eq(error, expected);
    free(expected);
    free(error);
    /* Exactly the limit is read. */
    text[AR_YAML_MAX_BYTES] = '\0';
    tu_write(big, text);
    ck_assert_int_eq(ar_yaml_load(big, &doc, &error), 0);
    ck_assert_ptr_null(doc->root);
    ar_yaml_free(doc);
    free(text);
    free(big);
    tu_rmtree(dir);
    free(missing);
    free(dir);
}
END_TEST

START_TEST(describe_says_what_a_node_is_on_one_line)
{
    ar_yaml_doc_t *doc = parse_ok("a: \"x\\ny\"\nb: 5\nc: yes\nd:\ne: [1]\nf: {}\ng: ~\n"
                                     "h: 1.5\ni: 2001-12-14\n");
    static const char *const expected[] = {
        "a string ('x\\ny')", "an integer (5)", "a boolean (yes)", "null", "a list",
        "a mapping",          "null (~)",       "a float (1.5)",   "a timestamp (2001-12-14)",
    };
    ck_assert_uint_eq(doc->root->count, 9);
    for (size_t i = 0; i < doc->root->count; i++) {
        char *what = ar_yaml_describe(doc->root->items[i]);
        ck_assert_str_eq(what, expected[i]);
        free(what);
    }
    ar_yaml_free(doc);
}
END_TEST

static Suite *yaml_suite(void)
{
    Suite *suite = suite_create("recipe_yaml");
    TCase *tc = tcase_create("resolution");
    tcase_add_loop_test(tc, plain_scalars_resolve_like_yaml_1_1, 0,
                        (int)(sizeof SCALARS / sizeof SCALARS[0]));
    tcase_add_test(tc, nodes_keep_their_positions);
    tcase_add_test(tc, empty_streams_have_no_root);
    tcase_add_test(tc, merge_keys_apply_with_pyyaml_precedence);
    tcase_add_test(tc, aliases_share_their_anchor);
    tcase_add_test(tc, a_nul_escape_is_kept_but_not_a_c_string);
    tcase_add_test(tc, describe_says_what_a_node_is_on_one_line);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);
    tc = tcase_create("errors");
    tcase_add_loop_test(tc, malformed_yaml_is_one_positioned_error, 0,
                        (int)(sizeof ERRORS / sizeof ERRORS[0]));
    tcase_add_test(tc, nesting_is_bounded);
    tcase_add_test(tc, alias_expansion_is_bounded);
    tcase_add_test(tc, a_file_that_cannot_be_read_names_itself);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(yaml_suite)
