/* SPDX-License-Identifier: MIT */
/* The .hatchet reader that splits the tree a node at a time
 * (plugins/proton/hatchet_split.c) against the walk of the whole value
 * (hatchet_read.c), on generated trees: the leaves must be the same, bit
 * for bit, and a file refused only where the whole read refuses it.  The
 * generator mixes in what the split must not get wrong: escaped and NUL
 * keys, keys in single quotes, a second "children", children that is not
 * a list, strings full of brackets and escapes, whitespace everywhere, a
 * top-level node, trailing data and truncation; clean trees must take the
 * split, not the fallback.  It links the collector's sources, to reach its
 * readers below the module's one exported symbol. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hatchet.h"
#include "testutil.h"

/* ---- the generator ------------------------------------------------------- */

static uint64_t state = 0x2545f4914f6cdd1dull;
static unsigned pick(unsigned n)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)(state % n);
}

/* What one tree may hold beyond Proton's own shape. */
typedef struct odd {
    int on;
} odd_t;

/* Whitespace between tokens, sometimes. */
static void ws(tu_text_t *t)
{
    static const char *const spaces[] = {"", "", "", " ", "\n    ", "\t", "\r\n", " \t\r\n "};
    tu_text_add(t, "%s", spaces[pick(8)]);
}

static void string(tu_text_t *t)
{
    static const char *const texts[] = {
        "add_kernel", "matmul_kernel", "k", " k ", "", "   ",
        "train.py:10@step", "]}[{,:", "a\\\"b", "back\\\\", "\\\\\\\"]", "\\u00e9t\\u00e9",
        "\\ud83d\\ude00", "\\ud800", "\xc3\xa9\xe2\x9c\x93", "tab\\tnl\\n", "\\/slash", "'quote'",
    };
    tu_text_add(t, "\"%s\"", texts[pick(sizeof texts / sizeof texts[0])]);
}

static void number(tu_text_t *t)
{
    static const char *const numbers[] = {
        "0", "1", "2", "7", "1000", "123456", "-5", "2.5", "1e3", "1E-2", "-0.0", "3.0",
        "NaN", "Infinity", "-Infinity", "9223372036854775807", "18446744073709551616", "1e400",
        "true", "false", "null",
    };
    tu_text_add(t, "%s", numbers[pick(sizeof numbers / sizeof numbers[0])]);
}

static void value(tu_text_t *t, int depth, const odd_t *odd);

/* A key spelt plainly or in a way json-c reads as the same or another key:
 * with an escape, in single quotes (json-c takes them around a key, strict
 * or not), holding a " in single quotes, or a NUL (json-c keeps a key up to
 * an escaped NUL, and refuses a raw one). */
enum spelling { PLAIN, ESCAPED, QUOTED, QUOTED_QUOTE, NUL_ESCAPED, NUL_RAW, SPELLINGS };

static void spelt(tu_text_t *t, const char *name, enum spelling how)
{
    int at = (int)pick((unsigned)strlen(name));
    switch (how) {
    case ESCAPED:
        tu_text_add(t, "\"%.*s\\u00%02x%s\"", at, name, (unsigned char)name[at], name + at + 1);
        break;
    case QUOTED:
        tu_text_add(t, "'%s'", name);
        break;
    case QUOTED_QUOTE:
        tu_text_add(t, "'%.*s\"%s'", at, name, name + at);
        break;
    case NUL_ESCAPED:
        tu_text_add(t, "\"%s\\u0000x\"", name);
        break;
    case NUL_RAW:
        tu_text_add(t, "\"%s@x\"", name);
        t->data[t->len - 3] = '\0';
        break;
    default:
        tu_text_add(t, "\"%s\"", name);
        break;
    }
    ws(t);
    tu_text_add(t, ":");
    ws(t);
}

static void key(tu_text_t *t, const char *name, const odd_t *odd)
{
    spelt(t, name, odd->on && pick(25) == 0 ? (enum spelling)(1 + pick(SPELLINGS - 1)) : PLAIN);
}

static void object(tu_text_t *t, int depth, const odd_t *odd, const char *const *keys, size_t nkeys)
{
    tu_text_add(t, "{");
    ws(t);
    size_t n = pick((unsigned)nkeys + 1);
    for (size_t i = 0; i < n; i++) {
        if (i) {
            tu_text_add(t, ",");
            ws(t);
        }
        key(t, keys[pick((unsigned)nkeys)], odd);
        value(t, depth + 1, odd);
        ws(t);
    }
    tu_text_add(t, "}");
}

static void value(tu_text_t *t, int depth, const odd_t *odd)
{
    static const char *const keys[] = {"name", "type", "count", "time (ns)", "x", "children"};
    switch (depth > 6 ? pick(2) : pick(5)) {
    case 0:
        string(t);
        break;
    case 1:
        number(t);
        break;
    case 2:
        object(t, depth, odd, keys, sizeof keys / sizeof keys[0]);
        break;
    case 3: {
        tu_text_add(t, "[");
        ws(t);
        size_t n = pick(3);
        for (size_t i = 0; i < n; i++) {
            if (i) {
                tu_text_add(t, ",");
                ws(t);
            }
            value(t, depth + 1, odd);
            ws(t);
        }
        tu_text_add(t, "]");
        break;
    }
    default:
        string(t);
        break;
    }
}

static void node(tu_text_t *t, int depth, const odd_t *odd);

static void children(tu_text_t *t, int depth, const odd_t *odd)
{
    if (odd->on && pick(12) == 0) {
        value(t, depth, odd); /* children that may not be a list */
        return;
    }
    tu_text_add(t, "[");
    ws(t);
    size_t n = depth > 4 ? 0 : pick(4);
    for (size_t i = 0; i < n; i++) {
        if (i) {
            tu_text_add(t, ",");
            ws(t);
        }
        if (odd->on && pick(10) == 0)
            value(t, depth + 1, odd); /* a child that is no node */
        else
            node(t, depth + 1, odd);
        ws(t);
    }
    tu_text_add(t, "]");
}

static void frame(tu_text_t *t, const odd_t *odd)
{
    tu_text_add(t, "{");
    ws(t);
    key(t, "name", odd);
    if (pick(6) == 0)
        number(t);
    else
        string(t);
    ws(t);
    tu_text_add(t, ",");
    ws(t);
    key(t, "type", odd);
    tu_text_add(t, "\"function\"}");
}

static void metrics(tu_text_t *t, const odd_t *odd)
{
    static const char *const times[] = {"time (ns)", "time (us)", "Time (MS)", "time (s)",
                                        "cpu_time (ns)", "time (ns) (inc)"};
    tu_text_add(t, "{");
    ws(t);
    key(t, "count", odd);
    number(t);
    ws(t);
    tu_text_add(t, ",");
    ws(t);
    key(t, times[pick(6)], odd);
    if (pick(8) == 0)
        string(t);
    else
        tu_text_add(t, "%u", 1 + pick(100000));
    if (pick(3) == 0) {
        tu_text_add(t, ",");
        ws(t);
        key(t, "time (ns)", odd);
        tu_text_add(t, "%u", pick(5000));
    }
    ws(t);
    tu_text_add(t, "}");
}

/* A node: its members in any order; odd ones sometimes get a second
 * "children". */
static void node(tu_text_t *t, int depth, const odd_t *odd)
{
    int order[4] = {0, 1, 2, 0};
    for (int i = 2; i > 0; i--) {
        int j = (int)pick((unsigned)i + 1), swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
    int members = 3, seen_children = 0;
    if (odd->on && pick(8) == 0) {
        int at = (int)pick(4);
        memmove(order + at + 1, order + at, (size_t)(3 - at) * sizeof *order);
        order[at] = 0;
        members = 4;
    }
    tu_text_add(t, "{");
    ws(t);
    for (int i = 0; i < members; i++) {
        if (i) {
            tu_text_add(t, ",");
            ws(t);
        }
        switch (order[i]) {
        case 0:
            /* A second "children", spelt any way. */
            if (seen_children)
                spelt(t, "children", (enum spelling)pick(SPELLINGS));
            else
                key(t, "children", odd);
            seen_children = 1;
            children(t, depth, odd);
            break;
        case 1:
            key(t, "frame", odd);
            frame(t, odd);
            break;
        default:
            key(t, "metrics", odd);
            metrics(t, odd);
            break;
        }
        ws(t);
    }
    tu_text_add(t, "}");
}

/* A profile: a list of a tree and device metadata (or, sometimes, one node
 * or a scalar); odd ones also get trailing data or are cut short. */
static char *profile(const odd_t *odd, size_t *len)
{
    tu_text_t t = {0};
    ws(&t);
    unsigned shape = pick(10);
    if (shape == 0) {
        node(&t, 0, odd);
    } else if (shape == 1 && odd->on) {
        value(&t, 0, odd);
    } else {
        tu_text_add(&t, "[");
        ws(&t);
        node(&t, 0, odd);
        ws(&t);
        tu_text_add(&t, ",");
        ws(&t);
        tu_text_add(&t, "{\"CUDA\":{\"0\":{\"arch\":\"90\",\"num_sms\":132}}}");
        if (odd->on && pick(6) == 0) {
            tu_text_add(&t, ",");
            value(&t, 1, odd);
        }
        ws(&t);
        tu_text_add(&t, "]");
    }
    ws(&t);
    if (odd->on && pick(15) == 0)
        tu_text_add(&t, "%s", pick(2) ? " x" : "{}");
    if (odd->on && pick(15) == 0 && t.len > 1)
        t.len = 1 + pick((unsigned)t.len - 1);
    *len = t.len;
    return t.data;
}

/* ---- the comparison ------------------------------------------------------ */

static int same_kernels(const aorta_kernels_t *a, const aorta_kernels_t *b)
{
    if (aorta_kernels_count(a) != aorta_kernels_count(b))
        return 0;
    for (size_t i = 0; i < aorta_kernels_count(a); i++) {
        size_t len_a, len_b;
        const char *name_a = aorta_kernels_name_at(a, i, &len_a);
        const char *name_b = aorta_kernels_name_at(b, i, &len_b);
        double time_a = aorta_kernels_time_at(a, i), time_b = aorta_kernels_time_at(b, i);
        if (len_a != len_b || memcmp(name_a, name_b, len_a) != 0
            || memcmp(&time_a, &time_b, sizeof time_a) != 0
            || aorta_kernels_launches_at(a, i) != aorta_kernels_launches_at(b, i))
            return 0;
    }
    return 1;
}

/* The whole value's leaves, or NULL when the whole read refuses the file. */
static aorta_kernels_t *whole(const char *data, size_t len)
{
    struct json_object *root = proton_hatchet_read_bytes((const unsigned char *)data, len);
    if (!root)
        return NULL;
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    proton_hatchet_walk(root, kernels);
    proton_json_free(root);
    return kernels;
}

/* The collector's reader, through a descriptor. */
static int count(const char *data, size_t len, aorta_kernels_t *kernels)
{
    FILE *file = tmpfile();
    ck_assert_ptr_nonnull(file);
    ck_assert_uint_eq(fwrite(data, 1, len, file), len);
    fflush(file);
    rewind(file);
    int status = proton_hatchet_count(fileno(file), kernels);
    fclose(file);
    return status;
}

/* Compare the readers on one input; the split's verdict. */
static proton_split_t compare(const char *data, size_t len, unsigned round)
{
    aorta_kernels_t *expected = whole(data, len);
    aorta_kernels_t *counted = aorta_kernels_new(0);
    int status = count(data, len, counted);
    ck_assert_msg((status == 0) == (expected != NULL), "round %u: read %s:\n%.*s", round,
                  expected ? "refused" : "accepted", (int)(len < 400 ? len : 400), data);
    if (expected)
        ck_assert_msg(same_kernels(expected, counted), "round %u: leaves differ:\n%.*s", round,
                      (int)(len < 400 ? len : 400), data);
    aorta_kernels_free(counted);

    /* The split reads valid UTF-8 only; its caller checks. */
    int truncated;
    if (aorta_utf8_valid_prefix(data, len, &truncated, NULL) != len) {
        aorta_kernels_free(expected);
        return PROTON_SPLIT_REFUSED;
    }
    aorta_kernels_t *split = aorta_kernels_new(0);
    proton_split_t verdict = proton_hatchet_split((const unsigned char *)data, len, split,
                                                  2 + pick(40));
    if (verdict == PROTON_SPLIT_OK)
        ck_assert_msg(expected && same_kernels(expected, split),
                      "round %u: the split's leaves differ:\n%.*s", round, (int)(len < 400 ? len : 400), data);
    if (verdict == PROTON_SPLIT_REFUSED)
        ck_assert_msg(!expected, "round %u: the split refused a readable file:\n%.*s", round,
                      (int)(len < 400 ? len : 400), data);
    aorta_kernels_free(split);
    aorta_kernels_free(expected);
    return verdict;
}

START_TEST(clean_trees_are_split_and_count_what_the_whole_value_counts)
{
    odd_t odd = {0};
    for (unsigned round = 0; round < 2000; round++) {
        size_t len;
        char *data = profile(&odd, &len);
        ck_assert_msg(compare(data, len, round) == PROTON_SPLIT_OK,
                      "round %u: a clean tree was not split:\n%.*s", round, (int)(len < 400 ? len : 400), data);
        free(data);
    }
}
END_TEST

START_TEST(odd_trees_count_what_the_whole_value_counts)
{
    odd_t odd = {1};
    unsigned verdicts[3] = {0};
    for (unsigned round = 0; round < 6000; round++) {
        size_t len;
        char *data = profile(&odd, &len);
        verdicts[compare(data, len, round)]++;
        free(data);
    }
    /* Each way out is taken. */
    ck_assert_uint_gt(verdicts[PROTON_SPLIT_OK], 100);
    ck_assert_uint_gt(verdicts[PROTON_SPLIT_REFUSED], 100);
    ck_assert_uint_gt(verdicts[PROTON_SPLIT_UNSURE], 100);
}
END_TEST

/* A chain of nodes putting innermost at level 2 * frames - 1. */
static char *chain(int frames, const char *innermost, size_t *len)
{
    tu_text_t t = {0};
    tu_text_add(&t, "[");
    for (int i = 0; i < frames - 1; i++)
        tu_text_add(&t, "{\"children\":[");
    tu_text_add(&t, "%s", innermost);
    for (int i = 0; i < frames - 1; i++)
        tu_text_add(&t, "]}");
    tu_text_add(&t, "]");
    *len = t.len;
    return t.data;
}

START_TEST(the_depth_limit_is_json_c_s)
{
    /* A container at level 9999 may only be empty: json-c refuses any value
     * at level 10,000. */
    static const struct {
        int frames;
        const char *innermost;
        int readable;
    } cases[] = {
        {4999, "{\"children\":[{}]},{\"frame\":{\"name\":\"k\"},\"metrics\":{\"time (ns)\":5}}", 1},
        {4999, "{\"children\":[[ ]]}", 1},
        {4995, "{\"metrics\":{\"a\":[[[[[[[[[]]]]]]]]]}}", 1},
        {4999, "{\"children\":[{\"frame\":{}}]}", 0},
        {4999, "{\"children\":[[1]]}", 0},
        {4995, "{\"metrics\":{\"a\":[[[[[[[[[0]]]]]]]]]}}", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        char *data = chain(cases[i].frames, cases[i].innermost, &len);
        proton_split_t verdict = compare(data, len, (unsigned)i);
        aorta_kernels_t *expected = whole(data, len);
        ck_assert_msg((expected != NULL) == cases[i].readable, "case %zu", i);
        /* Within the limit the split reads it; beyond, the whole read refuses. */
        ck_assert_int_eq(verdict, cases[i].readable ? PROTON_SPLIT_OK : PROTON_SPLIT_UNSURE);
        if (i == 0)
            ck_assert_uint_eq(aorta_kernels_count(expected), 1);
        aorta_kernels_free(expected);
        free(data);
    }
}
END_TEST

static Suite *proton_split_suite(void)
{
    Suite *suite = suite_create("proton_split");
    TCase *tc = tcase_create("differential");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, clean_trees_are_split_and_count_what_the_whole_value_counts);
    tcase_add_test(tc, odd_trees_count_what_the_whole_value_counts);
    tcase_add_test(tc, the_depth_limit_is_json_c_s);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(proton_split_suite)
