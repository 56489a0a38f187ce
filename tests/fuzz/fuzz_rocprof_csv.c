/* SPDX-License-Identifier: MIT */
/* fuzz_rocprof_csv.c - the rocprof collector's parse over one CSV.
 *
 * The input is written both as a *_kernel_stats.csv and, in a rank
 * subdirectory, as a *_kernel_trace.csv: the stats pass reads it, and when
 * it yields no kernel the trace pass reads it too.  The metrics must be what
 * the collector promises (finite, non-negative, at most five top kernels).
 * Then the CSV reader itself runs twice over the bytes, once in whole reads
 * and once in pieces cut at places drawn from the input, and must report the
 * same rows: where a read ends is no part of a file's meaning.  Those must
 * also be the rows the reader without its fast path (the state machine
 * alone: tests/collectors/rocprof/csv_reference.c) reports. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "aorta/collector.h"
#include "rocprof.h"

const struct aorta_collector *aorta_collector_rocprof_get(void);
rocprof_csv_status_t rocprof_csv_read_reference(int fd, const char *const *names, size_t count,
                                                unsigned required, rocprof_row_fn fn,
                                                void *user);

static void parse_directory(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"host_kernel_stats.csv", "rank1/host_kernel_trace.csv", NULL};
    fz_parse_collector(aorta_collector_rocprof_get(), files, data, size);
}

/* The rows a read reports, flattened: per cell its length and bytes. */
typedef struct rows {
    char *data;
    size_t len, cap;
    size_t cells;
} rows_t;

static void rows_add(rows_t *rows, const void *data, size_t len)
{
    if (rows->len + len > rows->cap) {
        rows->cap = (rows->len + len) * 2 + 64;
        rows->data = realloc(rows->data, rows->cap);
    }
    if (len)
        memcpy(rows->data + rows->len, data, len);
    rows->len += len;
}

static void record_row(const rocprof_cell_t *cells, void *user)
{
    rows_t *rows = user;
    for (size_t i = 0; i < rows->cells; i++) {
        if (cells[i].len && !cells[i].data)
            fz_fail("cell %zu: %zu bytes at NULL", i, cells[i].len);
        rows_add(rows, &cells[i].len, sizeof cells[i].len);
        rows_add(rows, cells[i].data, cells[i].len);
    }
    rows_add(rows, "\n", 1);
}

static const char *const STATS[] = {"Name", "Calls", "TotalDurationNs"};
static const char *const TRACE[] = {"Kind", "Kernel_Name", "Start_Timestamp", "End_Timestamp"};
static const char *const MIXED[] = {"Kernel_Name", "Name", "Agent_Id", "End_Timestamp",
                                    "Calls", "Kind", "Start_Timestamp", "TotalDurationNs"};

static void read_both_ways(const uint8_t *data, size_t size)
{
    uint32_t seed = fz_hash(data, size);
    const char *const *names = seed % 3 == 0 ? STATS : seed % 3 == 1 ? TRACE : MIXED;
    size_t count = seed % 3 == 0 ? 3 : seed % 3 == 1 ? 4 : 8;
    unsigned required = (seed >> 2) & ((1u << count) - 1);
    rows_t whole = {.cells = count}, pieces = {.cells = count}, reference = {.cells = count};
    int fd = fz_chunked_fd(data, size, 1, 0);
    rocprof_csv_status_t status = rocprof_csv_read(fd, names, count, required, record_row, &whole);
    close(fd);
    fd = fz_chunked_fd(data, size, 2 + (seed >> 12) % 40, seed);
    rocprof_csv_read(fd, names, count, required, record_row, &pieces);
    close(fd);
    if (whole.len != pieces.len || (whole.len && memcmp(whole.data, pieces.data, whole.len)))
        fz_fail("the rows depend on where reads end (%zu vs %zu bytes of rows)", whole.len,
                pieces.len);
    fd = fz_chunked_fd(data, size, 1, 0);
    rocprof_csv_status_t want = rocprof_csv_read_reference(fd, names, count, required, record_row,
                                                           &reference);
    close(fd);
    if (status != want || whole.len != reference.len
        || (whole.len && memcmp(whole.data, reference.data, whole.len)))
        fz_fail("the fast path read %zu bytes of rows (status %d), the state machine %zu "
                "(status %d)",
                whole.len, (int)status, reference.len, (int)want);
    free(whole.data);
    free(pieces.data);
    free(reference.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse_directory(data, size);
    read_both_ways(data, size);
    return 0;
}
