/* SPDX-License-Identifier: MIT */
/* fuzz_proton_hatchet.c - the Proton collector's parse over one .hatchet.
 *
 * The input is written twice (proton.hatchet and a rank's copy in a
 * subdirectory), so the per-file totals are merged as for a multi-rank run;
 * the metrics must be what the collector promises.  Then the whole-value
 * reader runs twice over the bytes, in whole reads and in pieces cut at
 * places drawn from the input, and must build the same value (compared
 * without recursion: the reader accepts 10,000 levels).  Last, the streaming
 * reader the collector uses is held to the json-c reader: whatever it reads
 * (through a descriptor whose reads end at places drawn from the input, in
 * blocks of a size drawn too) it reads as json-c's walk counts it, bit for
 * bit; whatever json-c refuses it refuses (it is stricter, as Python is:
 * check_proton_stream holds that side to Python); and two different read
 * patterns give the same verdict and the same table.  The same bytes are
 * read as a Chrome trace and as hatchet_msgpack too: the verdict and table
 * of each must not depend on where reads end either. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "aorta/collector.h"
#include "hatchet.h"
#include "json_stream.h"

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

/* Whether the text is the JSON null and whitespace, which json-c gives as
 * NULL (and Python reads, finding no leaves). */
static int is_null_document(const uint8_t *data, size_t size)
{
    size_t at = 0;
    while (at < size && strchr(" \t\r\n", data[at]) && data[at])
        at++;
    if (size - at < 4 || memcmp(data + at, "null", 4) != 0)
        return 0;
    for (at += 4; at < size; at++)
        if (!strchr(" \t\r\n", data[at]) || !data[at])
            return 0;
    return 1;
}

/* The streaming reader, its reads ending at places drawn from the input:
 * pieces of a socket read in whole blocks, or a file read in small ones (a
 * read shorter than a socket's piece would lose the rest of it). */
static proton_read_t streamed(const uint8_t *data, size_t size, uint32_t seed,
                              aorta_kernels_t *kernels)
{
    static const size_t blocks[] = {1, 3, 64, 65, 1000};
    int pieces = seed % 2;
    int fd = pieces ? fz_chunked_fd(data, size, 2 + (seed >> 1) % 20, seed)
                    : fz_chunked_fd(data, size, 1, 0);
    size_t block = pieces ? JSON_STREAM_BLOCK : blocks[(seed >> 8) % 5];
    proton_read_t status = proton_hatchet_stream(fd, kernels, block);
    close(fd);
    return status;
}

static void stream_matches_whole(const uint8_t *data, size_t size)
{
    uint32_t seed = fz_hash(data, size) * 2654435761u;
    struct json_object *root = proton_hatchet_read_bytes(data, size);
    int readable = root != NULL || is_null_document(data, size);
    aorta_kernels_t *whole = aorta_kernels_new(0);
    if (root)
        proton_hatchet_walk(root, whole);
    proton_json_free(root);

    aorta_kernels_t *first = aorta_kernels_new(0), *second = aorta_kernels_new(0);
    proton_read_t status = streamed(data, size, seed, first);
    proton_read_t again = streamed(data, size, seed ^ 0x5bd1e995u, second);
    if (status != again || (status == PROTON_READ_OK && !same_kernels(first, second)))
        fz_fail("the streaming reader depends on where reads end");
    if (status == PROTON_READ_OK && !readable)
        fz_fail("the streaming reader read what json-c refuses");
    if (status == PROTON_READ_OK && !same_kernels(whole, first))
        fz_fail("the streamed leaves differ from the whole value's");
    if (!readable && status != PROTON_READ_REFUSED)
        fz_fail("the streaming reader did not refuse what json-c refuses");
    aorta_kernels_free(first);
    aorta_kernels_free(second);

    /* The collector's reader (the fallback included) on a regular file. */
    aorta_kernels_t *counted = aorta_kernels_new(0);
    int fd = fz_chunked_fd(data, size, 1, 0);
    proton_read_t verdict = proton_hatchet_count(fd, counted);
    close(fd);
    if (verdict == PROTON_READ_OK && (!readable || !same_kernels(whole, counted)))
        fz_fail("the collector's reader differs from json-c's");
    if (verdict != PROTON_READ_OK && verdict != PROTON_READ_REFUSED)
        fz_fail("the collector's reader gave %d", (int)verdict);
    aorta_kernels_free(counted);
    aorta_kernels_free(whole);
}

typedef proton_read_t (*reader_fn)(int fd, aorta_kernels_t *kernels, size_t block);

/* With the dispatches taken too: one per launch counted, never more. */
static proton_read_t trace_reader(int fd, aorta_kernels_t *kernels, size_t block)
{
    aorta_dispatches_t *dispatches = aorta_dispatches_new();
    proton_read_t status = proton_trace_stream(fd, kernels, dispatches, block);
    int64_t launches = 0;
    for (size_t i = 0; i < aorta_kernels_count(kernels); i++)
        launches += aorta_kernels_launches_at(kernels, i);
    if (status == PROTON_READ_OK && aorta_dispatches_count(dispatches) > (size_t)launches)
        fz_fail("more dispatches (%zu) than launches (%lld)", aorta_dispatches_count(dispatches),
                (long long)launches);
    aorta_dispatches_free(dispatches);
    return status;
}

static proton_read_t msgpack_reader(int fd, aorta_kernels_t *kernels, size_t block)
{
    (void)block;
    return proton_msgpack_read(fd, kernels);
}

/* The other forms: whole reads against reads cut where the input says. */
static void other_forms_are_stable(const uint8_t *data, size_t size)
{
    static const reader_fn readers[] = {trace_reader, msgpack_reader};
    uint32_t seed = fz_hash(data, size) * 40503u;
    for (size_t i = 0; i < 2; i++) {
        aorta_kernels_t *whole = aorta_kernels_new(0), *cut = aorta_kernels_new(0);
        int fd = fz_chunked_fd(data, size, 1, 0);
        proton_read_t a = readers[i](fd, whole, JSON_STREAM_BLOCK);
        close(fd);
        fd = fz_chunked_fd(data, size, 2 + seed % 20, seed);
        proton_read_t b = readers[i](fd, cut, JSON_STREAM_BLOCK);
        close(fd);
        if (a != b || (a == PROTON_READ_OK && !same_kernels(whole, cut)))
            fz_fail("the %s reader depends on where reads end", i ? "msgpack" : "trace");
        aorta_kernels_free(whole);
        aorta_kernels_free(cut);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse_directory(data, size);
    read_both_ways(data, size);
    stream_matches_whole(data, size);
    other_forms_are_stable(data, size);
    return 0;
}
