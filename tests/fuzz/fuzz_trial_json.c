/* SPDX-License-Identifier: MIT */
/* fuzz_trial_json.c - what a resumed run reads back: trial_<t>/result.json
 * and the trial JSON of each trial, then matrix.json, perf.md and the
 * summary built from them.
 *
 * The input is a trial JSON, used for both trials of a one-cell plan; when
 * it holds a line "@@", what follows is trial_<t>/result.json instead of
 * {"verdict": "pass"}.  One input bit asks for stop_after.  The matrix
 * built from whatever was read must dump to JSON that reads back.  The same
 * records are then read as the reports and --compare read them
 * (kernels/kernel_agg.c): a record without the keys it needs is an error
 * trial, never a crash, and a trial of many metrics stays near linear. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "aorta/collector.h"
#include "kernels/kernel_agg.h"
#include "sys/diag.h"
#include "sys/json.h"
#include "report/matrix.h"
#include "report/perf_md.h"
#include "sweep/resume.h"
#include "report/summary.h"
#include "sweep/trial.h"

#define SEPARATOR "\n@@\n"
#define DEFAULT_RESULT "{\"verdict\": \"pass\"}\n"

static FILE *sink;

static const uint8_t *find(const uint8_t *data, size_t size, const char *needle)
{
    size_t len = strlen(needle);
    for (size_t i = 0; i + len <= size; i++)
        if (memcmp(data + i, needle, len) == 0)
            return data + i;
    return NULL;
}

static void write_trials(const uint8_t *data, size_t size)
{
    const uint8_t *cut = find(data, size, SEPARATOR);
    size_t trial_len = cut ? (size_t)(cut - data) : size;
    const void *result = cut ? cut + strlen(SEPARATOR) : (const void *)DEFAULT_RESULT;
    size_t result_len = cut ? size - trial_len - strlen(SEPARATOR) : strlen(DEFAULT_RESULT);
    fz_remove("");
    for (int t = 0; t < 2; t++) {
        char rel[128];
        snprintf(rel, sizeof rel, "run/none-none/trial_%d/result.json", t);
        fz_write(rel, result, result_len);
        snprintf(rel, sizeof rel, "run/none-none/_subprocess/trial_d0_m0_t%d.json", t);
        fz_write(rel, data, trial_len);
    }
}

/* The records as the report phase, --report and --compare read them. */
static void aggregate(void)
{
    char *run = fz_path("run");
    int run_fd = open(run, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(run);
    if (run_fd < 0)
        return;
    static const char json[] = "{\"name\": \"none-none\", \"trials\": 2}";
    ar_json_t *entry = ar_json_parse(json, strlen(json), 8);
    ar_kagg_cell_t cell;
    memset(&cell, 0, sizeof cell);
    ar_kagg_load_cell(run_fd, "run", entry, &cell, NULL);
    if (cell.trials > 2 || cell.passing + cell.failed + cell.errored != cell.trials)
        fz_fail("%zu trials read, %zu + %zu + %zu by verdict", cell.trials, cell.passing,
                cell.failed, cell.errored);
    ar_kagg_cell_clear(&cell);
    ar_json_free(entry);
    close(run_fd);
}

static void report(const ar_plan_t *plan, const ar_cell_result_t *result)
{
    ar_json_t *matrix = ar_matrix_json(plan, result, "2024-01-01T00:00:00", NULL, NULL);
    char *text = ar_json_dump(matrix, 1);
    ar_json_t *again = ar_json_parse(text, strlen(text), 64);
    if (!again)
        fz_fail("matrix.json does not read back: %s", text);
    ar_json_free(again);
    free(text);
    char *perf = ar_perf_md(matrix, 1.5, NULL);
    fputs(perf, sink);
    free(perf);
    ar_summary_print(sink, plan, result, "run", 0, 0, 1.5);
    ar_json_free(matrix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink) {
        sink = fopen("/dev/null", "w");
        ar_diag_set_stream(sink);
    }
    write_trials(data, size);
    aggregate();
    ar_cell_t cell = {"none-none", "none", "none", aorta_env_new()};
    ar_plan_t plan;
    memset(&plan, 0, sizeof plan);
    plan.trials = 2;
    plan.cells = &cell;
    plan.cell_count = 1;
    plan.has_stop_after = size % 2;
    plan.stop_events = 1;
    plan.stop_max_trials = 2;
    plan.stop_event_verdict = "fail";
    ar_run_ctx_t ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.plan = &plan;
    ctx.run_dir = fz_path("run");
    ctx.display_dir = "run";
    ar_cell_result_t result;
    memset(&result, 0, sizeof result);
    if (ar_resume_cell(&ctx, 0, &result)) {
        if (result.count == 0 || result.count > 2)
            fz_fail("%zu trials resumed", result.count);
        report(&plan, &result);
    }
    ar_cell_result_clear(&result);
    free(ctx.run_dir);
    aorta_env_free(cell.env);
    return 0;
}
