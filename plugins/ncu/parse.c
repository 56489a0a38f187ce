/* SPDX-License-Identifier: MIT */
/* parse.c - the ncu collector's metrics from Nsight Compute's raw page
 * (docs/collectors/ncu.md): a header row (the launch's ID, process, kernel
 * name, ... then one column per metric, each named UNIT__NAME.ROLLUP), a
 * units row, then a row per profiled launch, numbers grouped by thousands
 * ("1,234.5") or "n/a".  The page comes from `ncu --import ncu.ncu-rep
 * --csv --page raw`, run with the trial's environment (so an ncu found
 * through the cell's PATH is found again), or from ncu.csv (--log-file). */
#include "config.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ncu.h"

extern char **environ;

/* One metric column of the page, totalled over the launches. */
typedef struct column {
    size_t index;
    const char *name;
    char *unit;
    double total;
    size_t values;
} column_t;

typedef struct page {
    size_t kernel_col, time_col;  /* (size_t)-1 when absent */
    double ns_per_unit;            /* of the time column; 0: not a time */
    column_t *columns;             /* the other metric columns */
    size_t column_count;
    char **names;                  /* the header, kept for the columns */
    size_t name_count;
} page_t;

static int is_directory(const char *dir)
{
    struct stat st;
    return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The header row's columns into page. */
static void read_header(aorta_csv_t *csv, page_t *page)
{
    page->kernel_col = page->time_col = (size_t)-1;
    page->name_count = aorta_csv_field_count(csv);
    page->names = cc_xmalloc((page->name_count ? page->name_count : 1) * sizeof *page->names);
    page->columns = cc_xmalloc((page->name_count ? page->name_count : 1) * sizeof *page->columns);
    for (size_t i = 0; i < page->name_count; i++) {
        size_t len;
        const char *name = aorta_csv_field(csv, i, &len);
        page->names[i] = cc_xstrndup(name, len);
        if (!strcmp(page->names[i], "Kernel Name"))
            page->kernel_col = i;
        else if (!strcmp(page->names[i], NCU_TIME_METRIC))
            page->time_col = i;
        else if (strstr(page->names[i], "__")) /* a metric: UNIT__NAME */
            page->columns[page->column_count++] =
                (column_t){i, page->names[i], cc_xstrdup(""), 0, 0};
    }
}

/* The units row (its ID field empty), when the next row is one: each
 * column's unit, and the time column's in ns.  1 when it was the units
 * row, 0 when the row is a launch (the page has no units row), -1 at the
 * end. */
static int read_units(aorta_csv_t *csv, page_t *page)
{
    if (aorta_csv_next(csv) == 0)
        return -1;
    size_t len = 1;
    aorta_csv_field(csv, 0, &len);
    if (len != 0)
        return 0;
    for (size_t c = 0; c < page->column_count; c++) {
        const char *unit = aorta_csv_field(csv, page->columns[c].index, NULL);
        free(page->columns[c].unit);
        page->columns[c].unit = cc_xstrdup(unit ? unit : "");
    }
    const char *unit = aorta_csv_field(csv, page->time_col, NULL);
    double ms = 0;
    page->ns_per_unit = unit && aorta_unit_to_ms(unit, &ms) == 0 ? ms * 1e6 : 0;
    if (page->time_col != (size_t)-1 && !page->ns_per_unit)
        aorta_warn("ncu", "the unit %s%s%s of " NCU_TIME_METRIC " is not a time unit; no GPU "
                          "time is read",
                   unit ? "'" : "", unit ? unit : "(none)", unit ? "'" : "");
    return 1;
}

static int mentions_nccl(const char *name, size_t len)
{
    for (size_t i = 0; i + 4 <= len; i++)
        if (tolower((unsigned char)name[i]) == 'n' && !strncasecmp(name + i, "nccl", 4))
            return 1;
    return 0;
}

/* One launch's row into the accumulator and the columns' totals. */
static void read_launch(aorta_csv_t *csv, page_t *page, aorta_kernels_t *kernels, int *nccl)
{
    size_t name_len = 0, time_len = 0;
    const char *name = aorta_csv_field(csv, page->kernel_col, &name_len);
    const char *time = aorta_csv_field(csv, page->time_col, &time_len);
    double value = 0;
    if (name && time && page->ns_per_unit
        && aorta_number_parse_grouped(time, time_len, &value) == 0 && value >= 0)
        aorta_kernels_add(kernels, name, name_len, value * page->ns_per_unit, 1);
    if (name && !*nccl && mentions_nccl(name, name_len))
        *nccl = 1;
    for (size_t c = 0; c < page->column_count; c++) {
        size_t len = 0;
        const char *field = aorta_csv_field(csv, page->columns[c].index, &len);
        if (field && aorta_number_parse_grouped(field, len, &value) == 0) {
            page->columns[c].total += value;
            page->columns[c].values++;
        }
    }
}

/* Each other metric's total ("ncu_<metric>", in its unit) and the units
 * ("ncu_metric_units": "<metric>=<unit>"). */
static void report_columns(const page_t *page, aorta_metrics_t *metrics)
{
    char **units = cc_xmalloc((page->column_count ? page->column_count : 1) * sizeof *units);
    size_t count = 0;
    for (size_t c = 0; c < page->column_count; c++) {
        const column_t *column = &page->columns[c];
        if (!column->values)
            continue;
        char *key = cc_xasprintf("ncu_%s", column->name);
        aorta_metrics_set_double(metrics, key, column->total);
        free(key);
        units[count++] = cc_xasprintf("%s=%s", column->name, column->unit);
    }
    if (count)
        aorta_metrics_set_strings(metrics, "ncu_metric_units", (const char *const *)units, count);
    for (size_t i = 0; i < count; i++)
        free(units[i]);
    free(units);
}

static void free_page(page_t *page)
{
    for (size_t c = 0; c < page->column_count; c++)
        free(page->columns[c].unit);
    for (size_t i = 0; i < page->name_count; i++)
        free(page->names[i]);
    free(page->columns);
    free(page->names);
}

/* Where the page starts: the first line that begins with "ID", past
 * ncu's ==PROF== and ==WARNING== lines; NULL when there is none. */
static const char *page_start(const char *text, size_t len)
{
    const char *line = text, *end = text + len;
    while (line < end) {
        if ((size_t)(end - line) >= 5 && !memcmp(line, "\"ID\",", 5))
            return line;
        const char *newline = memchr(line, '\n', (size_t)(end - line));
        if (!newline)
            break;
        line = newline + 1;
    }
    return NULL;
}

void ncu_read_raw_page(const char *text, size_t len, const char *dir, aorta_metrics_t *metrics)
{
    const char *start = page_start(text, len);
    aorta_kernels_t *kernels = aorta_kernels_new(AORTA_KERNELS_SUM_COMPENSATED);
    page_t page = {0};
    int64_t rows = 0;
    int nccl = 0;
    if (start) {
        aorta_csv_t *csv = aorta_csv_new(start, len - (size_t)(start - text));
        aorta_csv_next(csv);
        read_header(csv, &page);
        int units = read_units(csv, &page);
        if (units == 0)
            page.ns_per_unit = 1; /* no units row: ncu's base unit, ns */
        for (int more = units >= 0; more; more = aorta_csv_next(csv) != 0) {
            if (units == 1) {
                units = 2;
                continue;
            }
            if (aorta_csv_field_count(csv) == 0)
                continue;
            read_launch(csv, &page, kernels, &nccl);
            rows++;
        }
        aorta_csv_free(csv);
    }
    aorta_kernels_report(kernels, metrics, "ncu", 1e6, dir);
    if (start)
        aorta_metrics_set_int(metrics, "ncu_profiled_launches", rows);
    report_columns(&page, metrics);
    if (nccl)
        aorta_warn("ncu", "%s: the payload launched NCCL kernels: ncu serialises kernel "
                          "launches, so its collectives were timed alone (and may hang)",
                   dir);
    free_page(&page);
    aorta_kernels_free(kernels);
}

/* A whole regular file below dir (not followed through a link), or NULL. */
static char *read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)
        || (uint64_t)st.st_size > NCU_EXPORT_MAX_BYTES) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *data = cc_xmalloc((size_t)st.st_size + 1);
    size_t got = 0;
    ssize_t n;
    while (got < (size_t)st.st_size && (n = read(fd, data + got, (size_t)st.st_size - got)) > 0)
        got += (size_t)n;
    close(fd);
    data[got] = '\0';
    *len = got;
    return data;
}

/* The raw page of dir's report through `ncu --import`, or NULL (warned). */
static char *export_report(const char *report, const char *dir, const aorta_env_t *trial_env,
                           size_t *len)
{
    aorta_env_t *own = trial_env ? NULL : aorta_env_from_environ(environ);
    aorta_argv_t *argv = aorta_argv_new();
    const char *args[] = {"ncu", "--import", report, "--csv", "--page", "raw"};
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++)
        aorta_argv_push(argv, args[i]);
    aorta_error_t *err = aorta_error_new();
    char *text = NULL;
    int status = aorta_exporter_run(argv, trial_env ? trial_env : own, NCU_EXPORT_TIMEOUT_SEC,
                                    NCU_EXPORT_MAX_BYTES, &text, len, err);
    if (status != 0) {
        aorta_warn("ncu", "%s: cannot read its report: %s", dir, aorta_error_message(err));
        aorta_free(text);
        text = NULL;
    }
    aorta_error_free(err);
    aorta_argv_free(argv);
    aorta_env_free(own);
    return text;
}

void ncu_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options;
    if (!is_directory(dir))
        return;
    char *log = aorta_path_join(dir, NCU_LOG_FILE);
    char *report = aorta_path_join(dir, NCU_REPORT_FILE);
    size_t len = 0;
    char *text = read_file(log, &len);
    struct stat st;
    if (!text && lstat(report, &st) == 0 && S_ISREG(st.st_mode))
        text = export_report(report, dir, aorta_metrics_env(metrics), &len);
    if (text)
        ncu_read_raw_page(text, len, dir, metrics);
    else
        aorta_metrics_set_string(metrics, "ncu_artifact_dir", dir);
    free(text);
    aorta_free(report);
    aorta_free(log);
}

int ncu_profiler_version(const aorta_options_t *options, const aorta_env_t *env,
                         aorta_error_t *version)
{
    (void)options;
    aorta_argv_t *argv = aorta_argv_new();
    aorta_argv_push(argv, "ncu");
    aorta_argv_push(argv, "--version");
    char *text = NULL;
    size_t len = 0;
    int status = aorta_exporter_run(argv, env, 30, 1 << 16, &text, &len, NULL);
    aorta_argv_free(argv);
    int found = -1;
    /* "NVIDIA (R) Nsight Compute Command Line Profiler", a copyright line,
     * then "Version 2025.1.1.0 (build 35528883) (public-release)". */
    for (char *line = text; status == 0 && line && *line && found != 0;) {
        char *newline = strchr(line, '\n');
        size_t n = newline ? (size_t)(newline - line) : strlen(line);
        size_t stripped = 0;
        const char *body = aorta_text_strip(line, n, &stripped);
        if (stripped > 8 && !strncmp(body, "Version ", 8)) {
            aorta_error_set(version, "%.*s", (int)(stripped - 8), body + 8);
            found = 0;
        }
        line = newline ? newline + 1 : NULL;
    }
    aorta_free(text);
    return found;
}
