/* SPDX-License-Identifier: MIT */
/* history_run.c - a run directory as the history stores it: its
 * provenance, and one record per (cell, collector, measure, kernel) over
 * the cell's passing trials, enumerated as a comparison enumerates them
 * (compare/verdicts.c), so the store keeps exactly what the gate judges.
 * No SQL here: history.c writes what this gathers. */
#include "config.h"

#include "history/history_run.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/provenance.h"
#include "compare/verdicts.h"
#include "kernels/kernel_agg.h"
#include "sys/sha256.h"
#include "xalloc.h"

#define MATRIX_MAX_BYTES (256u << 20)
#define MATRIX_MAX_DEPTH 64

static void record_of(const ar_measure_t *m, ar_history_record_t *r)
{
    ar_stats_moments_t logs, raw;
    ar_stats_moments(m->a, m->n_a, 1, &logs);
    ar_stats_moments(m->a, m->n_a, 0, &raw);
    ar_stats_summary_t summary;
    ar_stats_summarize(m->a, m->n_a, &summary);
    *r = (ar_history_record_t){.cell = m->cell, .collector = m->collector ? m->collector : "",
                               .measure = m->measure, .kernel = m->kernel ? m->kernel : "",
                               .better = (int)m->better, .headline = m->headline,
                               .gated = m->gated, .n = m->n_a, .log_scale = logs.log_scale,
                               .mean_log = logs.mean, .var_log = logs.var,
                               .mean = summary.mean, .var = raw.var, .median = summary.p50,
                               .min = summary.min, .max = summary.max};
}

/* The command as one line, its words joined by spaces. */
static char *command_of(const ar_json_t *provenance)
{
    const ar_json_t *argv = ar_json_get(provenance, "command");
    char *line = ar_xstrdup("");
    for (size_t i = 0; i < ar_json_length(argv); i++) {
        const char *word = ar_json_get_string(ar_json_at(argv, i));
        char *next = ar_xasprintf("%s%s%s", line, i ? " " : "", word ? word : "");
        free(line);
        line = next;
    }
    return line;
}

static char *hash_text(const char *text)
{
    ar_sha256_t ctx;
    char hex[65];
    ar_sha256_init(&ctx);
    ar_sha256_update(&ctx, text, strlen(text));
    ar_sha256_hex(&ctx, hex);
    return ar_xstrdup(hex);
}

/* The cells' names in order, one a line: what a blessing is the baseline of. */
static char *cells_text(const ar_kagg_run_t *run)
{
    char *text = ar_xstrdup("");
    for (size_t c = 0; c < run->count; c++) {
        char *next = ar_xasprintf("%s%s\n", text, run->cells[c].name);
        free(text);
        text = next;
    }
    return text;
}

static void fill_run(ar_history_gathered_t *g, const ar_json_t *matrix, const char *run_dir,
                     int run_fd)
{
    const ar_json_t *provenance = ar_json_get(matrix, "provenance");
    char *matrix_text = ar_json_dump(matrix, 0);
    g->strings[0] = hash_text(matrix_text);
    free(matrix_text);
    g->strings[1] = command_of(provenance);
    g->strings[2] = ar_json_dump(provenance, 0);
    char *cells = cells_text(&g->kagg);
    char *request = ar_xasprintf("%s\n%s", g->strings[2], cells);
    g->strings[3] = hash_text(request);
    g->strings[4] = hash_text(cells);
    free(request);
    free(cells);
    ar_json_t *host_env = ar_json_read_file_at(run_fd, "host_env.json", 16u << 20, 64);
    const char *host = ar_json_get_string(ar_json_get(ar_json_get(host_env, "host"), "hostname"));
    g->strings[5] = host ? ar_xstrdup(host) : NULL;
    ar_json_free(host_env);
    const char *gpu = ar_json_get_string(ar_json_get(ar_json_get(provenance, "gpu"), "name"));
    g->strings[6] = gpu ? ar_xstrdup(gpu) : NULL;
    const char *ticket = ar_json_get_string(ar_json_get(matrix, "ticket"));
    const char *stamp = ar_json_get_string(ar_json_get(matrix, "run_timestamp"));
    const char *version = ar_json_get_string(ar_json_get(provenance, "aorta_version"));
    g->strings[7] = ticket ? ar_xstrdup(ticket) : NULL;
    g->strings[8] = stamp ? ar_xstrdup(stamp) : NULL;
    g->strings[9] = version ? ar_xstrdup(version) : NULL;
    g->strings[10] = ar_xstrdup(run_dir);
    g->run = (ar_history_run_t){.key = g->strings[0], .command = g->strings[1],
                                .provenance = g->strings[2], .fingerprint = g->strings[3],
                                .scope = g->strings[4], .host = g->strings[5],
                                .gpu = g->strings[6], .ticket = g->strings[7],
                                .run_timestamp = g->strings[8], .aorta_version = g->strings[9],
                                .run_dir = g->strings[10], .cells = g->kagg.count};
}

/* Every measure of every cell, each cell against itself: its own sample
 * is side A. */
static void fill_records(ar_history_gathered_t *g, const ar_json_t *provenance)
{
    ar_verdict_request_t request = AR_VERDICT_REQUEST_INIT;
    ar_json_t *declared = ar_provenance_declared(provenance);
    request.declared = declared;
    for (size_t c = 0; c < g->kagg.count; c++)
        ar_measures_add_cells(&g->set, &g->kagg.cells[c], &g->kagg.cells[c], &request);
    ar_json_free(declared);
    g->records = ar_xcalloc(g->set.count + 1, sizeof *g->records);
    for (size_t i = 0; i < g->set.count; i++) {
        const ar_measure_t *m = &g->set.items[i];
        /* A rank's measure is kept by its collector's GPU time. */
        if (m->rank >= 0 || !m->n_a)
            continue;
        record_of(m, &g->records[g->count++]);
    }
}

int ar_history_gather(const char *run_dir, ar_history_gathered_t *g, char **error)
{
    memset(g, 0, sizeof *g);
    char *path = ar_xasprintf("%s/matrix.json", run_dir);
    ar_json_t *matrix = ar_json_read_file(path, MATRIX_MAX_BYTES, MATRIX_MAX_DEPTH);
    free(path);
    if (!matrix || ar_json_type(ar_json_get(matrix, "cells")) != AR_JSON_ARRAY) {
        *error = ar_xasprintf("%s is not a run directory: cannot read its matrix.json", run_dir);
        ar_json_free(matrix);
        return -1;
    }
    int fd = open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        *error = ar_xasprintf("cannot open the run directory %s", run_dir);
        ar_json_free(matrix);
        return -1;
    }
    ar_kagg_load(fd, run_dir, matrix, NULL, &g->kagg);
    char *absolute = realpath(run_dir, NULL);
    fill_run(g, matrix, absolute ? absolute : run_dir, fd);
    free(absolute);
    fill_records(g, ar_json_get(matrix, "provenance"));
    close(fd);
    ar_json_free(matrix);
    return 0;
}

void ar_history_gathered_clear(ar_history_gathered_t *g)
{
    for (size_t i = 0; i < sizeof g->strings / sizeof g->strings[0]; i++)
        free(g->strings[i]);
    free(g->records);
    ar_measures_clear(&g->set);
    ar_kagg_run_clear(&g->kagg);
    memset(g, 0, sizeof *g);
}
