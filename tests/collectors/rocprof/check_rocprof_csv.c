/* SPDX-License-Identifier: MIT */
/* The CSV reader's fast path (plugins/rocprof/csv.c and its windows,
 * csv_window.h) held to the state machine it stands in for: the windows'
 * masks, filled each way the target allows, against a byte loop; then the
 * rows read with each kind of special byte at every offset within a window,
 * with every cut between two reads, across the 1 MiB read buffer's end, from
 * files large enough to be read ahead on a thread, and from random bytes,
 * compared with what csv_reference.c (the same reader built without its
 * fast path and without reading ahead) reads.  The reader is compiled in, as the
 * fuzz harness compiles it.  AORTA_FUZZ_SEED and AORTA_FUZZ_ITERATIONS
 * change the random part. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "csv_window.h"
#include "rocprof.h"
#include "testutil.h"

/* What rocprof.c defines for the module (the allocation helpers name it). */
const char cc_collector_name[] = "rocprof";

rocprof_csv_status_t rocprof_csv_read_reference(int fd, const char *const *names, size_t count,
                                                unsigned required, rocprof_row_fn fn,
                                                void *user);

/* ck_assert() reports every check that passes down a pipe: far too slow for
 * the millions made here, which only speak up when they fail. */
#define CHECK(cond, ...)                 \
    do {                                 \
        if (!(cond))                     \
            ck_abort_msg(__VA_ARGS__);   \
    } while (0)

/* xorshift64*: reproducible from the seed on every platform. */
static uint64_t state;

static uint64_t next_random(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545f4914f6cdd1dULL;
}

static size_t below(size_t n)
{
    return n ? (size_t)(next_random() % n) : 0;
}

static long env_number(const char *name, long fallback)
{
    const char *text = getenv(name);
    return text && *text ? strtol(text, NULL, 10) : fallback;
}

/* ---- the windows ---- */

/* The masks of the 64 bytes at p, worked out here without csv_window.h. */
static void expected_masks(const unsigned char *p, csv_window_t *w)
{
    w->quote = w->comma = w->eol = 0;
    for (unsigned i = 0; i < CSV_WINDOW; i++) {
        if (p[i] == 0x22)
            w->quote |= 1ULL << i;
        if (p[i] == 0x2c)
            w->comma |= 1ULL << i;
        if (p[i] == 0x0a || p[i] == 0x0d)
            w->eol |= 1ULL << i;
    }
}

static void assert_same_masks(const csv_window_t *got, const csv_window_t *want, const char *how,
                              size_t case_number)
{
    CHECK(got->quote == want->quote && got->comma == want->comma && got->eol == want->eol,
                  "%s, case %zu: quote %016llx comma %016llx eol %016llx, want %016llx %016llx "
                  "%016llx",
                  how, case_number, (unsigned long long)got->quote,
                  (unsigned long long)got->comma, (unsigned long long)got->eol,
                  (unsigned long long)want->quote, (unsigned long long)want->comma,
                  (unsigned long long)want->eol);
}

/* Every way this target fills a window, against expected_masks(). */
static void check_window(const unsigned char *p, size_t case_number)
{
    csv_window_t want, got;
    expected_masks(p, &want);
    csv_window_bytes(&got, (const char *)p);
    assert_same_masks(&got, &want, "bytes", case_number);
#if defined(CSV_WINDOW_WORDS)
    csv_window_words(&got, (const char *)p);
    assert_same_masks(&got, &want, "words", case_number);
#endif
#if defined(__SSE2__)
    csv_window_sse2(&got, (const char *)p);
    assert_same_masks(&got, &want, "sse2", case_number);
#endif
    csv_window_load(&got, (const char *)p - 5, 5);
    assert_same_masks(&got, &want, "load", case_number);
    CHECK(got.at == 5, "load: at %zu", got.at);
}

START_TEST(window_masks_match_a_byte_loop)
{
    /* Every byte value at every position of a window, the window starting
     * at every offset of a 16-byte step (the loads are unaligned), on a
     * background of plain bytes and one of special ones. */
    unsigned char buffer[16 + CSV_WINDOW + 8];
    size_t n = 0;
    for (unsigned shift = 0; shift < 16; shift++) {
        for (unsigned background = 0; background < 2; background++) {
            for (unsigned at = 0; at < CSV_WINDOW; at++) {
                for (unsigned value = 0; value < 256; value++) {
                    for (size_t i = 0; i < sizeof buffer; i++)
                        buffer[i] = background ? ",\"\n\r"[i % 4] : 'a';
                    buffer[shift + at] = (unsigned char)value;
                    check_window(buffer + shift, n++);
                }
            }
        }
    }
    /* Dense random windows: the bytes that matter, their neighbours in the
     * code table (a borrow or a carry between bytes would show there), the
     * high bit and NUL. */
    static const unsigned char alphabet[] = {'"', ',', '\n', '\r', '!', '#', '+', '-', '\t', '\v',
                                             '\f', 0x0b, 0x0c, 0xa2, 0xac, 0x8a, 0x8d, 0xff, 0x00,
                                             0x80, 0x7f, 'a', '0'};
    state = (uint64_t)env_number("AORTA_FUZZ_SEED", 20240601) | 1;
    for (long i = 0; i < 20000; i++) {
        for (size_t k = 0; k < sizeof buffer; k++)
            buffer[k] = i % 3 ? alphabet[below(sizeof alphabet)] : (unsigned char)below(256);
        check_window(buffer + below(16), n++);
    }
}
END_TEST

/* ---- reading: the fast path against the state machine ---- */

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
        CHECK(rows->data, "out of memory");
    }
    if (len)
        memcpy(rows->data + rows->len, data, len);
    rows->len += len;
}

/* The rows a read reports, flattened: per cell its length and bytes. */
static void record_row(const rocprof_cell_t *cells, void *user)
{
    rows_t *rows = user;
    for (size_t i = 0; i < rows->cells; i++) {
        CHECK(cells[i].data || cells[i].len == 0, "cell %zu: %zu bytes at NULL", i, cells[i].len);
        rows_add(rows, &cells[i].len, sizeof cells[i].len);
        rows_add(rows, cells[i].data, cells[i].len);
    }
    rows_add(rows, "\n", 1);
}

/* One file in memory for the whole reads, rewritten for each input. */
static int memory = -1;

static int memory_fd(const char *data, size_t len)
{
    if (memory < 0)
        memory = memfd_create("csv-input", MFD_CLOEXEC);
    CHECK(memory >= 0, "memfd_create: %s", strerror(errno));
    CHECK(ftruncate(memory, 0) == 0, "ftruncate: %s", strerror(errno));
    for (size_t done = 0; done < len;) {
        ssize_t wrote = pwrite(memory, data + done, len - done, (off_t)done);
        CHECK(wrote > 0, "pwrite: %s", strerror(errno));
        done += (size_t)wrote;
    }
    CHECK(lseek(memory, 0, SEEK_SET) == 0, "lseek: %s", strerror(errno));
    return memory;
}

/* A descriptor whose reads return data cut at cuts[0..count) (ascending,
 * each inside data): a sequenced-packet socket keeps message bounds. */
static int pieces_fd(const char *data, size_t len, const size_t *cuts, size_t count)
{
    int pair[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair), 0);
    size_t at = 0;
    for (size_t i = 0; i <= count; i++) {
        size_t to = i < count ? cuts[i] : len;
        if (to == at)
            continue; /* an empty message would read as the end of the file */
        ck_assert_int_eq(send(pair[1], data + at, to - at, MSG_DONTWAIT), (ssize_t)(to - at));
        at = to;
    }
    close(pair[1]);
    return pair[0];
}

static const char *const TRACE[] = {"Kind", "Kernel_Name", "Start_Timestamp", "End_Timestamp"};
static const char *const STATS[] = {"Name", "Calls", "TotalDurationNs"};

typedef struct read_result {
    rows_t rows;
    rocprof_csv_status_t status;
} read_result_t;

typedef rocprof_csv_status_t (*reader_fn)(int, const char *const *, size_t, unsigned,
                                          rocprof_row_fn, void *);

static read_result_t read_with(reader_fn reader, int fd, const char *const *names, size_t count)
{
    read_result_t result = {.rows = {.cells = count}};
    result.status = reader(fd, names, count, 0x6, record_row, &result.rows);
    if (fd != memory)
        close(fd);
    return result;
}

static void free_result(read_result_t *result)
{
    free(result->rows.data);
}

/* data read by the reader with the fast path from fd (-1: whole, from
 * memory) must give what the state machine alone gives from one read. */
static void assert_as_reference(const char *data, size_t len, int fd, const char *const *names,
                                size_t count, const char *what)
{
    read_result_t want = read_with(rocprof_csv_read_reference, memory_fd(data, len), names, count);
    if (fd < 0) {
        CHECK(lseek(memory, 0, SEEK_SET) == 0, "lseek: %s", strerror(errno));
        fd = memory;
    }
    read_result_t got = read_with(rocprof_csv_read, fd, names, count);
    CHECK(got.status == want.status && got.rows.len == want.rows.len
                      && (got.rows.len == 0 || memcmp(got.rows.data, want.rows.data, got.rows.len) == 0),
                  "%s: the fast path read %zu bytes of rows (status %d), the state machine %zu "
                  "(status %d), from %zu bytes: %.*s",
                  what, got.rows.len, (int)got.status, want.rows.len, (int)want.status, len,
                  (int)(len < 400 ? len : 400), data);
    free_result(&got);
    free_result(&want);
}

static void assert_whole_read(const char *data, size_t len, const char *const *names, size_t count,
                              const char *what)
{
    assert_as_reference(data, len, -1, names, count, what);
}

#define TRACE_HEADER \
    "Kind,Agent,Queue,Stream,Kernel_Name,Correlation,Start_Timestamp,End_Timestamp,Grid,Size\n"

/* Rows with one thing the fast path decides on (a field's end, a quote, a
 * line break, a run of fields it skips) after a pad of n bytes, so that,
 * with n and the length of the row before it, that byte lands at every
 * offset of a window.  '@' is the pad, of the byte after the template. */
static const char *const templates[] = {
    /* runs of unwanted fields skipped at once, their last comma moving */
    "KERNEL_DISPATCH,@,2,3,\"k\",4,10,20,5,6\n", "x",
    "KERNEL_DISPATCH,1,2,@,\"k\",4,10,20,5,6\n", "7",
    "KERNEL_DISPATCH,1,2,3,\"k\",@,10,20,5,6\n", "7",
    /* wanted unquoted fields and the name */
    "@,1,2,3,\"k\",4,10,20,5,6\n", "K",
    "KERNEL_DISPATCH,1,2,3,\"@\",4,10,20,5,6\n", "n",
    "KERNEL_DISPATCH,1,2,3,k@,4,10,20,5,6\n", "n",
    "KERNEL_DISPATCH,1,2,3,\"k\",4,1@,20,5,6\n", "0",
    "KERNEL_DISPATCH,1,2,3,\"k\",4,10,2@,5,6\n", "0",
    /* the rest of the row, its newline moving */
    "KERNEL_DISPATCH,1,2,3,\"k\",4,10,20,5,@\n", "6",
    "KERNEL_DISPATCH,1,2,3,\"k\",4,10,20,@,6\n", ",",
    /* short rows: the row ends in a wanted field or in a skipped run */
    "KERNEL_DISPATCH,1,2,3,\"k\",4,1@\n", "0",
    "KERNEL_DISPATCH,1,2,3,\"k\",4,10,2@\n", "0",
    "KERNEL_DISPATCH,1,@\n", "2",
    "KERNEL_DISPATCH,1,2,3,\"k@\"\n", "n",
    /* quoted unwanted fields, and quotes inside unquoted ones */
    "KERNEL_DISPATCH,\"@\",2,3,\"k\",4,10,20,5,6\n", "a",
    "KERNEL_DISPATCH,1,2@\"2,3,\"k\",4,10,20,5,6\n", "2",
    "KERNEL_DISPATCH,1,2,3,\"k\",4,10,20,5,6@\"\n", "6",
    /* what quoted names may hold */
    "KERNEL_DISPATCH,1,2,3,\"k@,\n\r,\",4,10,20,5,6\n", "n",
    "KERNEL_DISPATCH,1,2,3,\"k@\"\"x\",4,10,20,5,6\n", "n",
    "KERNEL_DISPATCH,1,2,3,\"k@\"x\",4,10,20,5,6\n", "n",
    "KERNEL_DISPATCH,1,2,3,\"k@\"\r\n", "n",
    /* carriage returns: in fields, ending fields, ending rows, blank lines */
    "KERNEL_DISPATCH,1,2,3,\"k\",4,10,2@\r\n", "0",
    "KERNEL_DISPATCH,1,2,3,\"k\",4,10,20,5,@\r\n", "6",
    "KERNEL_DISPATCH,1,@\r2,3,\"k\",4,10,20,5,6\n", "2",
    "KERNEL_DISPATCH,1,2,3,\"k\",4,10,20,5,6\n@\n\r\n", "\n",
    /* empty fields */
    "KERNEL_DISPATCH,,,@,\"\",,,,,\n", ",",
};

/* The template with n pad bytes. */
static char *fill(const char *template, char pad, size_t n, size_t *len)
{
    const char *at = strchr(template, '@');
    size_t head = (size_t)(at - template), tail = strlen(at + 1);
    char *row = malloc(head + n + tail + 1);
    CHECK(row, "out of memory");
    memcpy(row, template, head);
    memset(row + head, pad, n);
    memcpy(row + head + n, at + 1, tail + 1);
    *len = head + n + tail;
    return row;
}

START_TEST(special_bytes_at_every_offset_of_a_window)
{
    size_t cases = 0;
    for (size_t t = 0; t < sizeof templates / sizeof *templates; t += 2) {
        for (size_t before = 0; before < CSV_WINDOW; before++) {
            for (size_t n = 0; n < 2 * CSV_WINDOW + 8; n++) {
                /* A plain row of 0..63 more bytes before the one tested moves
                 * it against the windows, which run on from the first row. */
                size_t prefix_len, row_len;
                char *prefix = fill("KERNEL_DISPATCH,1,2,3,\"@\",4,10,20,5,6\n", 'p', before,
                                    &prefix_len);
                char *row = fill(templates[t], templates[t + 1][0], n, &row_len);
                static const char last[] = "KERNEL_DISPATCH,1,2,3,\"z\",4,30,40,5,6\n";
                size_t len = strlen(TRACE_HEADER) + prefix_len + row_len + strlen(last);
                char *data = malloc(len + 1);
                CHECK(data, "out of memory");
                snprintf(data, len + 1, "%s%s%s%s", TRACE_HEADER, prefix, row, last);
                char what[96];
                snprintf(what, sizeof what, "template %zu, %zu bytes before, pad %zu", t / 2,
                         before, n);
                assert_whole_read(data, len, TRACE, 4, what);
                cases++;
                free(data);
                free(row);
                free(prefix);
            }
        }
    }
    ck_assert_uint_gt(cases, 200000);
}
END_TEST

/* A few rows of each kind the fast path meets. */
static const char split_input[] =
    "Name,Calls,TotalDurationNs,Extra\n"
    "\"void kernel<float>(float*, int)\",3,1500,x\n"
    "plain_name,1,10\n"
    "\"with \"\"quotes\"\"\",2,20,y\n"
    "\"a, b\nc\",4,40,z\r\n"
    "\n"
    "\"stray \"quote,5,50,w\n"
    "last,6,60,v";

START_TEST(rows_split_between_two_reads)
{
    /* Each cut of the file into two reads: a row split anywhere comes out
     * as from one read (where a read ends is no part of a file's meaning). */
    size_t len = sizeof split_input - 1;
    for (size_t cut = 1; cut < len; cut++) {
        char what[64];
        snprintf(what, sizeof what, "cut at %zu", cut);
        assert_as_reference(split_input, len, pieces_fd(split_input, len, &cut, 1), STATS, 3,
                            what);
    }
    /* ... and into three, the second one byte long. */
    for (size_t cut = 1; cut + 1 < len; cut++) {
        size_t cuts[2] = {cut, cut + 1};
        char what[64];
        snprintf(what, sizeof what, "cuts at %zu and %zu", cut, cut + 1);
        assert_as_reference(split_input, len, pieces_fd(split_input, len, cuts, 2), STATS, 3,
                            what);
    }
}
END_TEST

START_TEST(rows_across_the_read_buffer)
{
    /* Files a little over the 1 MiB read buffer, with its end at every
     * offset of a row and of a window: the row that spans two reads goes
     * to the state machine, the rows after it back to the fast path. */
    const size_t buffer = 1u << 20;
    static const char row[] = "KERNEL_DISPATCH,1,2,3,\"void k<int>(int*)\",4,100,250,5,6\n";
    size_t row_len = sizeof row - 1;
    char *data = malloc(buffer + 4096);
    ck_assert_ptr_nonnull(data);
    for (size_t shift = 0; shift < row_len + 2; shift++) {
        size_t len = 0;
        memcpy(data, TRACE_HEADER, strlen(TRACE_HEADER));
        len += strlen(TRACE_HEADER);
        /* A first row whose name moves the rest by shift bytes. */
        size_t prefix_len;
        char *prefix = fill("KERNEL_DISPATCH,1,2,3,\"@\",4,10,20,5,6\n", 'p', shift, &prefix_len);
        memcpy(data + len, prefix, prefix_len);
        len += prefix_len;
        free(prefix);
        while (len + row_len < buffer + 2048) {
            memcpy(data + len, row, row_len);
            len += row_len;
        }
        char what[64];
        snprintf(what, sizeof what, "shift %zu", shift);
        assert_whole_read(data, len, TRACE, 4, what);
    }
    free(data);
}
END_TEST

/* A trace of about size bytes: rows of names with two-byte characters (some
 * fall across the end of a read), then tail appended. */
static char *large_trace(size_t size, const char *tail, size_t *len)
{
    char *data = malloc(size + strlen(tail) + 512);
    CHECK(data, "out of memory");
    size_t at = (size_t)sprintf(data, "%s", TRACE_HEADER);
    for (size_t i = 0; at < size; i++)
        at += (size_t)sprintf(data + at, "KERNEL_DISPATCH,1,2,3,\"k\xc3\xa9rnel_%zu<%.*s>\",4,%zu,%zu,5,6\n",
                              i % 97, (int)(i % 23), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
                              1000 + i, 2000 + 3 * i);
    at += (size_t)sprintf(data + at, "%s", tail);
    *len = at;
    return data;
}

START_TEST(large_files_read_ahead_alike)
{
    /* Files large enough to be read ahead on a thread (read_ahead.c), read
     * to their end and stopped early: the same rows and the same status as
     * plain reads give. */
    static const char *const tails[] = {
        "", "KERNEL_DISPATCH,1,2,3,\"cut\xc3", /* ends inside a character */
        "KERNEL_DISPATCH,1,2,3,\"bad\xff\",4,1,2,5,6\nKERNEL_DISPATCH,1,2,3,\"k\",4,1,2,5,6\n",
        "KERNEL_DISPATCH,1,2,3,\"unterminated"};
    for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
        size_t len;
        char *data = large_trace(5u << 20, tails[t], &len);
        char what[64];
        snprintf(what, sizeof what, "5 MiB with tail %zu", t);
        assert_whole_read(data, len, TRACE, 4, what);
        free(data);
    }
    /* Stopped in the first read, while the thread reads the next: a bad
     * byte, a field over the size limit, a header without the columns. */
    size_t len;
    char *data = large_trace(6u << 20, "", &len);
    data[strlen(TRACE_HEADER) + 1000] = (char)0xff;
    assert_whole_read(data, len, TRACE, 4, "invalid UTF-8 in the first read");
    memset(data + strlen(TRACE_HEADER) + 1000, 'x', 200000);
    assert_whole_read(data, len, TRACE, 4, "a long field in the first reads");
    data[0] = 'X';
    assert_whole_read(data, len, TRACE, 4, "no Kind column");
    assert_whole_read(data, len, STATS, 3, "no stats columns at all");
    free(data);
    /* A BOM, and a byte order mark's worth of bytes that is not one. */
    data = large_trace(5u << 20, "", &len);
    char *bom = malloc(len + 3);
    CHECK(bom, "out of memory");
    memcpy(bom, "\xef\xbb\xbf", 3);
    memcpy(bom + 3, data, len);
    assert_whole_read(bom, len + 3, TRACE, 4, "a BOM");
    bom[2] = (char)0xbe;
    assert_whole_read(bom, len + 3, TRACE, 4, "almost a BOM");
    free(bom);
    free(data);
}
END_TEST

START_TEST(random_bytes_read_alike)
{
    /* Random rows over the bytes CSV cares about (and UTF-8, NULs), read
     * whole and in random pieces. */
    static const char *const atoms[] = {",", ",", ",", "\"", "\"", "\n", "\n", "\r", "\r\n",
                                        "\"\"", "a", "bc", "12", "3.5", " ", "\xc3\xa9", "\0",
                                        "KERNEL_DISPATCH", "longer_kernel_name<int, float>"};
    static const char *const headers[] = {
        "Name,Calls,TotalDurationNs\n", "Calls,X,Name,TotalDurationNs,Y\n",
        "\"Name\",\"Calls\",\"TotalDurationNs\"\r\n", "Name,Calls,Name,TotalDurationNs\n"};
    state = (uint64_t)env_number("AORTA_FUZZ_SEED", 20240601) | 1;
    long iterations = env_number("AORTA_FUZZ_ITERATIONS", 3000);
    char data[2048];
    for (long i = 0; i < iterations; i++) {
        const char *header = headers[below(4)];
        size_t len = strlen(header);
        memcpy(data, header, len);
        size_t target = len + below(sizeof data - len - 64);
        /* Plain rows now and then, so that the fast path has rows to take
         * between the odd ones. */
        while (len < target) {
            if (below(3) == 0) {
                static const char plain[] = "\"kernel(int)\",1,100\n";
                memcpy(data + len, plain, sizeof plain - 1);
                len += sizeof plain - 1;
                continue;
            }
            const char *atom = atoms[below(sizeof atoms / sizeof *atoms)];
            size_t atom_len = *atom ? strlen(atom) : 1;
            memcpy(data + len, atom, atom_len);
            len += atom_len;
        }
        char what[64];
        snprintf(what, sizeof what, "random input %ld", i);
        assert_whole_read(data, len, STATS, 3, what);
        size_t cuts[8], count = 1 + below(8);
        for (size_t k = 0; k < count; k++)
            cuts[k] = below(len);
        for (size_t a = 1; a < count; a++) /* ascending */
            for (size_t b = a; b > 0 && cuts[b - 1] > cuts[b]; b--) {
                size_t swap = cuts[b];
                cuts[b] = cuts[b - 1];
                cuts[b - 1] = swap;
            }
        snprintf(what, sizeof what, "random input %ld in pieces", i);
        assert_as_reference(data, len, pieces_fd(data, len, cuts, count), STATS, 3, what);
    }
}
END_TEST

static Suite *csv_suite(void)
{
    Suite *suite = suite_create("rocprof_csv");
    TCase *tc = tcase_create("csv");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, window_masks_match_a_byte_loop);
    tcase_add_test(tc, special_bytes_at_every_offset_of_a_window);
    tcase_add_test(tc, rows_split_between_two_reads);
    tcase_add_test(tc, rows_across_the_read_buffer);
    tcase_add_test(tc, large_files_read_ahead_alike);
    tcase_add_test(tc, random_bytes_read_alike);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(csv_suite)
