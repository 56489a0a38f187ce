/* SPDX-License-Identifier: MIT */
/* fuzz_proton_hatchet.c - the Proton collector's parse over one .hatchet.
 *
 * The input is written twice (proton.hatchet and a rank's copy in a
 * subdirectory), so the per-file totals are merged as for a multi-rank run;
 * the metrics must be what the collector promises.  Then the reader runs
 * twice over the bytes, in whole reads and in pieces cut at places drawn
 * from the input, and must build the same value (compared without
 * recursion: the reader accepts 10,000 levels). */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse_directory(data, size);
    read_both_ways(data, size);
    return 0;
}
