/* SPDX-License-Identifier: MIT */
/* parse.c - the metrics of a rocprofv3 output directory (docs/collectors/rocprof.md), from the
 * first of these that yields a kernel: the *_kernel_stats.csv files, the
 * rocpd databases (*_results.db), the *_kernel_trace.csv files.  One source
 * for the whole directory, so a capture written both as CSV and as rocpd
 * counts each dispatch once (docs/collectors/rocprof.md, "Which files").
 * Never fails: what cannot be read reports fewer metrics. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocprof.h"

#define NS_PER_MS 1000000.0

enum { STATS_NAME, STATS_CALLS, STATS_TOTAL };
static const char *const stats_columns[] = {"Name", "Calls", "TotalDurationNs"};
#define STATS_REQUIRED ((1u << STATS_NAME) | (1u << STATS_TOTAL))

enum { TRACE_KIND, TRACE_NAME, TRACE_START, TRACE_END, TRACE_AGENT, TRACE_QUEUE };
static const char *const trace_columns[] = {"Kind",          "Kernel_Name", "Start_Timestamp",
                                            "End_Timestamp", "Agent_Id",    "Queue_Id"};
#define TRACE_REQUIRED ((1u << TRACE_NAME) | (1u << TRACE_START) | (1u << TRACE_END))

#define KERNEL_DISPATCH "KERNEL_DISPATCH"

/* cell.strip(); most cells need nothing stripped, which is checked first. */
static rocprof_cell_t strip(rocprof_cell_t cell)
{
    if (cell.len == 0)
        return cell;
    unsigned char first = (unsigned char)cell.data[0];
    unsigned char last = (unsigned char)cell.data[cell.len - 1];
    if (first > ' ' && first < 0x80 && last > ' ' && last < 0x80)
        return cell;
    size_t len = 0;
    cell.data = aorta_text_strip(cell.data, cell.len, &len);
    cell.len = len;
    return cell;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LE_DIGITS 1
#define ZERO_DIGITS 0x3030303030303030ULL
/* Eight ASCII digits at once (the value of the word's bytes, the first the
 * most significant, as a decimal), or -1 when one of them is not a digit. */
static int64_t word_digits(uint64_t v)
{
    if (((v & 0xf0f0f0f0f0f0f0f0ULL) | (((v + 0x0606060606060606ULL) & 0xf0f0f0f0f0f0f0f0ULL) >> 4))
        != 0x3333333333333333ULL)
        return -1;
    v = ((v & 0x0f0f0f0f0f0f0f0fULL) * 2561) >> 8;
    v = ((v & 0x00ff00ff00ff00ffULL) * 6553601) >> 16;
    return (int64_t)(((v & 0x0000ffff0000ffffULL) * 42949672960001ULL) >> 32);
}

static int64_t eight_digits(const char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return word_digits(v);
}
#else
static int64_t eight_digits(const char *p)
{
    int64_t v = 0;
    for (int i = 0; i < 8; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        v = v * 10 + (p[i] - '0');
    }
    return v;
}
#endif

/* float(cell.strip()), finite only.  Plain digit strings (every timestamp)
 * are converted directly: up to 19 digits the integer is exact, and its
 * conversion rounds as strtod would. */
static int number(rocprof_cell_t cell, double *out)
{
#ifdef LE_DIGITS
    if (cell.len >= 8 && cell.len <= 16) {
        /* Timestamps: the last eight digits, and the digits before them
         * shifted into a word after '0's, two conversions that do not wait
         * for each other (no loop). */
        uint64_t head, tail;
        memcpy(&head, cell.data, 8);
        memcpy(&tail, cell.data + cell.len - 8, 8);
        unsigned shift = 8 * (unsigned)(16 - cell.len);
        head = shift < 64 ? head << shift | (shift ? ZERO_DIGITS >> (64 - shift) : 0) : ZERO_DIGITS;
        int64_t high = word_digits(head), low = word_digits(tail);
        if (high >= 0 && low >= 0) {
            *out = (double)((uint64_t)high * 100000000u + (uint64_t)low);
            return 0;
        }
    }
#endif
    if (cell.len > 0 && cell.len <= 19) {
        uint64_t value = 0;
        size_t i = 0, head = cell.len % 8;
        while (i < head && cell.data[i] >= '0' && cell.data[i] <= '9')
            value = value * 10 + (uint64_t)(cell.data[i++] - '0');
        if (i == head) {
            for (; i < cell.len; i += 8) {
                int64_t eight = eight_digits(cell.data + i);
                if (eight < 0)
                    break;
                value = value * 100000000u + (uint64_t)eight;
            }
            if (i >= cell.len) {
                *out = (double)value;
                return 0;
            }
        }
    }
    return cell.len ? aorta_number_parse_n(cell.data, cell.len, out) : -1;
}

/* The last row's track ("Agent 4 queue 1"): rows of one queue follow each
 * other, so its name is built once per run of rows. */
typedef struct track {
    char agent[32], queue[32];
    size_t agent_len, queue_len;
    char name[96];
} track_t;

static const char *track_of(track_t *track, rocprof_cell_t agent, rocprof_cell_t queue)
{
    agent = strip(agent);
    queue = strip(queue);
    if (agent.len >= sizeof track->agent || queue.len >= sizeof track->queue)
        return "queue ?";
    if (track->name[0] && agent.len == track->agent_len && queue.len == track->queue_len
        && (!agent.len || memcmp(agent.data, track->agent, agent.len) == 0)
        && (!queue.len || memcmp(queue.data, track->queue, queue.len) == 0))
        return track->name;
    if (agent.len) /* an empty cell may have no data at all */
        memcpy(track->agent, agent.data, agent.len);
    if (queue.len)
        memcpy(track->queue, queue.data, queue.len);
    track->agent_len = agent.len;
    track->queue_len = queue.len;
    /* Older traces write the agent as a bare number, newer ones "Agent 4". */
    int bare = agent.len && agent.data[0] >= '0' && agent.data[0] <= '9';
    snprintf(track->name, sizeof track->name, "%s%.*s%squeue %.*s", bare ? "Agent " : "",
             (int)agent.len, agent.data, agent.len ? " " : "", queue.len ? (int)queue.len : 1,
             queue.len ? queue.data : "?");
    return track->name;
}

/* A timestamp exactly, as an integer of ns: plain digits (every real one)
 * read whole, else the number already read when it is a whole one. */
static int ns_of(rocprof_cell_t cell, double parsed, uint64_t *out)
{
    cell = strip(cell);
    uint64_t value = 0;
    size_t i = 0;
    for (; i < cell.len && i < 19 && cell.data[i] >= '0' && cell.data[i] <= '9'; i++)
        value = value * 10 + (uint64_t)(cell.data[i] - '0');
    if (i && i == cell.len) {
        *out = value;
        return 0;
    }
    if (!(parsed >= 0 && parsed < 18446744073709551616.0) || parsed != floor(parsed))
        return -1;
    *out = (uint64_t)parsed;
    return 0;
}

typedef struct pass {
    const char *suffix;
    const char *const *columns; /* NULL: rocpd databases */
    size_t count;
    unsigned required;
    rocprof_row_fn row;
    aorta_kernels_t *kernels;
    size_t files;
    size_t rows;            /* CSV data rows read, over the pass's files */
    cc_buf_t why;           /* "FILE (why no kernel came of it)", for the warning */
    size_t unusable;        /* files with more wrong than no rows */
    aorta_dispatches_t *dispatches; /* the trace pass: each dispatch, for the timeline */
    track_t track;
} pass_t;

static void stats_row(const rocprof_cell_t *cells, void *user)
{
    aorta_kernels_t *kernels = ((pass_t *)user)->kernels;
    rocprof_cell_t name = strip(cells[STATS_NAME]);
    double total = 0;
    if (name.len == 0 || number(cells[STATS_TOTAL], &total) != 0 || total < 0)
        return;
    /* A per-kernel row stands for any number of dispatches: a count that is
     * unreadable, negative, fractional or beyond int64 cannot be guessed, so
     * it is unknown (the count is dropped while the timings stay). */
    double calls = 0;
    int64_t count = 0;
    if (number(cells[STATS_CALLS], &calls) != 0 || aorta_count_from_double(calls, &count) != 0)
        count = -1;
    aorta_kernels_add(kernels, name.data, name.len, total, count);
}

/* Whether cell is exactly KERNEL_DISPATCH: a comparison of constant length,
 * which compilers do inline (every trace row asks). */
static int is_dispatch(rocprof_cell_t cell)
{
    return cell.len == sizeof KERNEL_DISPATCH - 1
           && memcmp(cell.data, KERNEL_DISPATCH, sizeof KERNEL_DISPATCH - 1) == 0;
}

static void trace_row(const rocprof_cell_t *cells, void *user)
{
    pass_t *pass = user;
    rocprof_cell_t kind = cells[TRACE_KIND];
    if (kind.len && !is_dispatch(kind)) {
        kind = strip(kind);
        if (kind.len && !is_dispatch(kind))
            return;
    }
    rocprof_cell_t name = strip(cells[TRACE_NAME]);
    double start = 0, end = 0;
    if (name.len == 0 || number(cells[TRACE_START], &start) != 0
        || number(cells[TRACE_END], &end) != 0 || end < start)
        return;
    aorta_kernels_add(pass->kernels, name.data, name.len, end - start, 1);
    uint64_t start_ns, end_ns;
    if (pass->dispatches && ns_of(cells[TRACE_START], start, &start_ns) == 0
        && ns_of(cells[TRACE_END], end, &end_ns) == 0)
        aorta_dispatches_add(pass->dispatches,
                             track_of(&pass->track, cells[TRACE_AGENT], cells[TRACE_QUEUE]),
                             name.data, name.len, start_ns, end_ns);
}


static void counted_row(const rocprof_cell_t *cells, void *user)
{
    pass_t *pass = user;
    pass->rows++;
    pass->row(cells, pass);
}

/* "the header lacks the column 'X'" (or "the columns 'X', 'Y'"), the
 * names as the CSV must spell them. */
static void add_missing(cc_buf_t *why, const pass_t *pass)
{
    unsigned missing = rocprof_csv_missing();
    size_t n = 0;
    for (size_t i = 0; i < pass->count; i++)
        n += (missing >> i) & 1u;
    cc_buf_addf(why, "the header lacks the column%s ", n > 1 ? "s" : "");
    for (size_t i = 0, k = 0; i < pass->count; i++)
        if ((missing >> i) & 1u)
            cc_buf_addf(why, "%s'%s'", k++ ? ", " : "", pass->columns[i]);
}

static const char *why_no_rows(rocprof_csv_status_t status, size_t rows)
{
    switch (status) {
    case ROCPROF_CSV_NO_COLUMN: return NULL; /* add_missing() */
    case ROCPROF_CSV_BAD_UTF8: return "invalid UTF-8";
    case ROCPROF_CSV_LONG_FIELD: return "a field over the CSV field size limit";
    case ROCPROF_CSV_READ_ERROR: return "a read error";
    case ROCPROF_CSV_END: break;
    }
    return rows ? "no row with a kernel name and a readable duration" : "no data rows";
}

static int read_file(const char *path, int fd, void *user)
{
    pass_t *pass = user;
    pass->files++;
    const char *why = "no kernel dispatch in the database";
    rocprof_csv_status_t status = ROCPROF_CSV_END;
    if (pass->columns) {
        size_t before = pass->rows;
        status = rocprof_csv_read(fd, pass->columns, pass->count, pass->required, counted_row,
                                  pass);
        /* Used only when no file of the run yields a kernel: then each one
         * says why it gave none. */
        pass->unusable += status != ROCPROF_CSV_END || pass->rows > before;
        why = why_no_rows(status, pass->rows - before);
    } else {
        rocprof_rocpd_read(path, fd, pass->kernels, pass->dispatches);
    }
    if (pass->files <= 8) {
        cc_buf_addf(&pass->why, "%s%s (", pass->files > 1 ? ", " : "", path);
        if (status == ROCPROF_CSV_NO_COLUMN)
            add_missing(&pass->why, pass);
        else
            cc_buf_adds(&pass->why, why);
        cc_buf_adds(&pass->why, ")");
    }
    return 0;
}

/* Walk dir for one family of files: 0; 1 when only the directory may be
 * reported (it is there, but its totals would be partial); -1 when nothing
 * may be. */
static int run_pass(const char *dir, pass_t *pass)
{
    /* Rows go straight into the run's totals (no per-file group), and the
     * totals are summed as upstream's sum() does on CPython >= 3.12. */
    pass->kernels = aorta_kernels_new(AORTA_KERNELS_SUM_COMPENSATED);
    if (!pass->columns)
        rocprof_rocpd_pass();
    aorta_walk_status_t status = aorta_walk_files_sorted(dir, pass->suffix, read_file, pass);
    if (status == AORTA_WALK_NO_FDS) {
        /* Totals over some of the ranks' files would look complete. */
        aorta_warn("rocprof", "out of file descriptors while reading %s; no rocprof metrics "
                              "for it", dir);
        return 1;
    }
    if (status == AORTA_WALK_SYMLINK) {
        aorta_warn("rocprof", "%s is a symbolic link; refusing to parse artifacts through it",
                   dir);
        return -1;
    }
    return status == AORTA_WALK_NOT_DIR ? -1 : 0;
}

void rocprof_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options;
    pass_t passes[] = {
        {"_kernel_stats.csv", stats_columns, 3, STATS_REQUIRED, stats_row, NULL, 0, 0, {0}, 0,
         NULL, {{0}, {0}, 0, 0, {0}}},
        {"_results.db", NULL, 0, 0, NULL, NULL, 0, 0, {0}, 0, NULL, {{0}, {0}, 0, 0, {0}}},
        {"_kernel_trace.csv", trace_columns, 6, TRACE_REQUIRED, trace_row, NULL, 0, 0, {0}, 0,
         NULL, {{0}, {0}, 0, 0, {0}}},
    };
    enum { PASSES = sizeof passes / sizeof passes[0] };
    pass_t *trace = &passes[PASSES - 1], *rocpd = &passes[1];
    /* rocprofv3 stamps dispatches with the host's monotonic clock, in its
     * CSVs and its databases alike. */
    trace->dispatches = aorta_dispatches_new();
    aorta_dispatches_set_clock(trace->dispatches, AORTA_CLOCK_HOST);
    rocpd->dispatches = aorta_dispatches_new();
    aorta_dispatches_set_clock(rocpd->dispatches, AORTA_CLOCK_HOST);
    pass_t *used = NULL;
    int partial = 0; /* out of descriptors: the directory alone is reported */
    for (size_t i = 0; i < PASSES && !used; i++) {
        int ran = run_pass(dir, &passes[i]);
        if (ran < 0)
            goto done;
        if (ran > 0) {
            /* An accumulator of no kernels reports the directory alone. */
            aorta_kernels_free(passes[i].kernels);
            passes[i].kernels = aorta_kernels_new(0);
            used = &passes[i];
            partial = 1;
            break;
        }
        if (!passes[i].columns && passes[i].files && !rocprof_rocpd_available())
            aorta_warn("rocprof", "%zu rocpd database(s) under %s not read: rocprof was built "
                                  "without SQLite", passes[i].files, dir);
        if (aorta_kernels_count(passes[i].kernels) > 0 || i + 1 == PASSES)
            used = &passes[i];
    }
    /* Files that are there but give nothing: say which and why (header-only
     * files are a command without GPU work, not a problem). */
    size_t unusable = 0, more = 0;
    for (size_t i = 0; i < PASSES; i++) {
        unusable += passes[i].unusable;
        more += passes[i].files > 8 ? passes[i].files - 8 : 0;
    }
    if (!partial && aorta_kernels_count(used->kernels) == 0 && unusable > 0) {
        cc_buf_t all = {0};
        for (size_t i = 0; i < PASSES; i++)
            if (passes[i].why.data)
                cc_buf_addf(&all, "%s%s", all.data ? ", " : "", passes[i].why.data);
        aorta_warn("rocprof", "%s yielded no kernels: %s%s", dir, all.data ? all.data : "",
                   more ? " and more" : "");
        cc_buf_free(&all);
    }
    char *artifact_dir = aorta_path_join(dir, NULL);
    aorta_kernels_report(used->kernels, metrics, "rocprof", NS_PER_MS, artifact_dir);
    aorta_free(artifact_dir);
    /* The timeline's dispatches come from the source of the metrics when
     * it has them (a rocpd database, a kernel trace), else from the kernel
     * trace, read for them then. */
    pass_t *timed = used == rocpd && aorta_dispatches_count(rocpd->dispatches) > 0 ? rocpd : trace;
    if (!partial && timed == trace && used != trace && run_pass(dir, trace) != 0) {
        aorta_dispatches_free(trace->dispatches); /* some files only: no timeline */
        trace->dispatches = NULL;
    }
    if (!partial && aorta_dispatches_count(timed->dispatches) > 0)
        aorta_metrics_set_dispatches(metrics, timed->dispatches);
done:
    for (size_t i = 0; i < PASSES; i++) {
        aorta_kernels_free(passes[i].kernels);
        aorta_dispatches_free(passes[i].dispatches);
        cc_buf_free(&passes[i].why);
    }
}
