/* SPDX-License-Identifier: MIT */
/* cmd_merge.c - --merge RUN_DIR: the end of a sweep run in parts (--cells,
 * --rounds; decisions.md section 11, Clusters).  Rebuilds the run's reports
 * through --report's writers (cmd_report.c), then says, one line per cell,
 * which rounds of the whole request (matrix.json's order.sequence) have no
 * complete trial on disk.  Exit 0 when every round of every cell is on
 * record, 1 when any is missing (the merge itself done). */
#include "config.h"

#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/layout.h"
#include "sys/diag.h"
#include "sys/json.h"
#include "sys/text_escape.h"
#include "keyindex.h"
#include "xalloc.h"

#define RECORD_MAX_BYTES (4u << 20)

/* Whether trial t of cell has a complete record (result.json with a
 * verdict) under run_dir. */
static int trial_on_record(const char *run_dir, const char *cell, long t)
{
    char *rel = ar_trial_dir_rel(cell, (int)t);
    char *path = ar_xasprintf("%s/%s/result.json", run_dir, rel);
    ar_json_t *record = ar_json_read_file(path, RECORD_MAX_BYTES, 64);
    const char *verdict = ar_json_get_string(ar_json_get(record, "verdict"));
    int done = verdict && verdict[0];
    ar_json_free(record);
    free(path);
    free(rel);
    return done;
}

/* "2, 4-5": the rounds (1-based) missing[0..count-1] flags, as ranges. */
static char *ranges(const unsigned char *missing, long count)
{
    char *text = ar_xstrdup("");
    for (long t = 0; t < count; t++) {
        if (!missing[t])
            continue;
        long end = t;
        while (end + 1 < count && missing[end + 1])
            end++;
        char *more = end > t ? ar_xasprintf("%s%s%ld-%ld", text, text[0] ? ", " : "", t + 1,
                                            end + 1)
                             : ar_xasprintf("%s%s%ld", text, text[0] ? ", " : "", t + 1);
        free(text);
        text = more;
        t = end;
    }
    return text;
}

/* A cell of the request: its name (borrowed from matrix.json) and which of
 * its rounds the sequence lists with no record. */
typedef struct merge_cell {
    const char *name;
    unsigned char *missing; /* by trial index, rounds long */
    long rounds;
} merge_cell_t;

/* The cells of order.sequence, in first-seen order, each trial looked up
 * on disk; *count cells.  NULL (count 0) when matrix.json has no order. */
static merge_cell_t *request_cells(const char *run_dir, const ar_json_t *matrix, size_t *count)
{
    const ar_json_t *sequence = ar_json_get(ar_json_get(matrix, "order"), "sequence");
    ar_keyindex_t index = {0};
    merge_cell_t *cells = NULL;
    size_t capacity = 0;
    *count = 0;
    for (size_t i = 0; i < ar_json_length(sequence); i++) {
        const ar_json_t *slot = ar_json_at(sequence, i);
        const char *name = ar_json_get_string(ar_json_at(slot, 0));
        long t = (long)ar_json_get_int(ar_json_at(slot, 1));
        if (!name || strchr(name, '/') || t < 0 || t > 1000000)
            continue;
        size_t at = ar_keyindex_find(&index, name);
        if (at == AR_KEYINDEX_NONE) {
            ar_xgrow((void **)&cells, &capacity, *count + 1, sizeof *cells);
            cells[*count] = (merge_cell_t){.name = name};
            ar_keyindex_add(&index, name, *count);
            at = (*count)++;
        }
        merge_cell_t *cell = &cells[at];
        if (t >= cell->rounds) {
            cell->missing = ar_xrealloc(cell->missing, (size_t)t + 1);
            memset(cell->missing + cell->rounds, 0, (size_t)(t + 1 - cell->rounds));
            cell->rounds = t + 1;
        }
        cell->missing[t] = !trial_on_record(run_dir, name, t);
    }
    ar_keyindex_clear(&index);
    return cells;
}

int ar_cmd_merge(const ar_cli_t *cli)
{
    int status = ar_cmd_report(cli);
    if (status != AR_EXIT_OK)
        return status;
    ar_json_t *matrix = ar_cmd_read_matrix(cli->run_a);
    if (!matrix)
        return AR_EXIT_FAILED;
    size_t count = 0, incomplete = 0;
    merge_cell_t *cells = request_cells(cli->run_a, matrix, &count);
    for (size_t c = 0; c < count; c++) {
        char *missing = ranges(cells[c].missing, cells[c].rounds);
        if (missing[0]) {
            char *shown = ar_text_escape(cells[c].name);
            ar_diag_warn("cell '%s' is incomplete: round(s) %s of %ld have no record; run "
                         "them with --cells and --rounds, then --merge again",
                         shown, missing, cells[c].rounds);
            free(shown);
            incomplete++;
        }
        free(missing);
        free(cells[c].missing);
    }
    free(cells);
    ar_json_free(matrix);
    if (incomplete)
        return AR_EXIT_FAILED;
    printf("Merged: every round of the %zu cell(s) is on record\n", count);
    return AR_EXIT_OK;
}
