/* SPDX-License-Identifier: MIT */
/* fuzz_proton_hatchet.c - the Proton collector's parse over one .hatchet.
 *
 * The input is written twice (proton.hatchet and a rank's copy in a
 * subdirectory), so the per-file totals are merged as for a multi-rank run;
 * the metrics must be what the collector promises.  Then the whole-value
 * reader runs twice over the bytes, in whole reads and in pieces cut at
 * places drawn from the input, and must build the same value (compared
 * without recursion: the reader accepts 10,000 levels).  Last, the reader
 * that splits the tree a node at a time must count exactly the leaves the
 * walk of the whole value counts, or refuse the file when that is
 * unreadable: through the descriptor in pieces, and split directly with
 * json-c fed a few bytes at a time (so its reads end everywhere). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "aorta/collector.h"
#include "hatchet.h"

const struct aorta_collector *aorta_collector_proton_get(void);

static void parse_directory(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"proton.hatchet", "rank1/proton.hatchet", NULL};
    fz_parse_collector(aorta_collector_proton_get(), files, data, size);
}

static int same_scalar(struct json_object *a, struct json_object *b)
{
    switch (json_object_get_type(a)) {
    case json_type_null:
        return 1;
    case json_type_boolean:
        return json_object_get_boolean(a) == json_object_get_boolean(b);
    case json_type_int:
        return json_object_get_int64(a) == json_object_get_int64(b)
            && json_object_get_uint64(a) == json_object_get_uint64(b);
    case json_type_double: {
        double x = json_object_get_double(a), y = json_object_get_double(b);
        return (isnan(x) && isnan(y)) || memcmp(&x, &y, sizeof x) == 0;
    }
    case json_type_string:
        return json_object_get_string_len(a) == json_object_get_string_len(b)
            && memcmp(json_object_get_string(a), json_object_get_string(b),
                      (size_t)json_object_get_string_len(a)) == 0;
    default:
        return 1; /* containers: their members are compared one by one */
    }
}

/* Whether two values are equal, members in order; iterative. */
static int same_value(struct json_object *a, struct json_object *b)
{
    size_t cap = 64, count = 0;
    struct json_object **stack = malloc(cap * 2 * sizeof *stack);
    stack[count++] = a;
    stack[count++] = b;
    int same = 1;
    while (same && count > 0) {
        struct json_object *y = stack[--count], *x = stack[--count];
        if (json_object_get_type(x) != json_object_get_type(y) || !same_scalar(x, y)) {
            same = 0;
            break;
        }
        size_t n = 0;
        if (json_object_is_type(x, json_type_array)) {
            n = json_object_array_length(x);
            same = n == json_object_array_length(y);
        } else if (json_object_is_type(x, json_type_object)) {
            n = (size_t)json_object_object_length(x);
            same = (int)n == json_object_object_length(y);
        }
        if (!same)
            break;
        if (count + 2 * n > cap) {
            cap = (count + 2 * n) * 2;
            stack = realloc(stack, cap * sizeof *stack);
        }
        if (json_object_is_type(x, json_type_array)) {
            for (size_t i = 0; i < n; i++) {
                stack[count++] = json_object_array_get_idx(x, i);
                stack[count++] = json_object_array_get_idx(y, i);
            }
        } else if (json_object_is_type(x, json_type_object)) {
            struct json_object_iterator ix = json_object_iter_begin(x);
            struct json_object_iterator iy = json_object_iter_begin(y);
            for (size_t i = 0; i < n && same; i++) {
                same = strcmp(json_object_iter_peek_name(&ix), json_object_iter_peek_name(&iy)) == 0;
                stack[count++] = json_object_iter_peek_value(&ix);
                stack[count++] = json_object_iter_peek_value(&iy);
                json_object_iter_next(&ix);
                json_object_iter_next(&iy);
            }
        }
    }
    free(stack);
    return same;
}

static void read_both_ways(const uint8_t *data, size_t size)
{
    uint32_t seed = fz_hash(data, size);
    int fd = fz_chunked_fd(data, size, 1, 0);
    struct json_object *whole = proton_hatchet_read(fd);
    close(fd);
    fd = fz_chunked_fd(data, size, 2 + seed % 40, seed);
    struct json_object *pieces = proton_hatchet_read(fd);
    close(fd);
    if ((whole == NULL) != (pieces == NULL))
        fz_fail("read in pieces the file is %s", whole ? "unreadable" : "readable");
    if (whole && !same_value(whole, pieces))
        fz_fail("the value depends on where reads end");
    proton_json_free(whole);
    proton_json_free(pieces);
}

/* Whether two tables hold the same kernels, in the same order, with the
 * same totals to the bit. */
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

static void split_matches_whole(const uint8_t *data, size_t size)
{
    uint32_t seed = fz_hash(data, size) * 2654435761u;
    struct json_object *root = proton_hatchet_read_bytes(data, size);
    aorta_kernels_t *whole = aorta_kernels_new(0);
    if (root)
        proton_hatchet_walk(root, whole);
    proton_json_free(root);

    aorta_kernels_t *counted = aorta_kernels_new(0);
    int fd = fz_chunked_fd(data, size, 2 + seed % 20, seed);
    int status = proton_hatchet_count(fd, counted);
    close(fd);
    if ((status == 0) != (root != NULL))
        fz_fail("split, the file is %s", root ? "unreadable" : "readable");
    if (!same_kernels(whole, counted))
        fz_fail("split, the leaves differ from the whole value's");
    aorta_kernels_free(counted);

    int truncated;
    if (aorta_utf8_valid_prefix(data, size, &truncated, NULL) == size) {
        aorta_kernels_t *split = aorta_kernels_new(0);
        switch (proton_hatchet_split(data, size, split, 2 + (seed >> 8) % 30)) {
        case PROTON_SPLIT_OK:
            if (!root || !same_kernels(whole, split))
                fz_fail("split in small reads, the leaves differ from the whole value's");
            break;
        case PROTON_SPLIT_REFUSED:
            if (root)
                fz_fail("split in small reads, a readable file was refused");
            break;
        case PROTON_SPLIT_UNSURE:
            break; /* the whole value decides, as above */
        }
        aorta_kernels_free(split);
    }
    aorta_kernels_free(whole);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse_directory(data, size);
    read_both_ways(data, size);
    split_matches_whole(data, size);
    return 0;
}
