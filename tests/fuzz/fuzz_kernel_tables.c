/* SPDX-License-Identifier: MIT */
/* fuzz_kernel_tables.c - the kernel tables read from untrusted JSON: the
 * parse child's reply with its table (record/parse_reply.c), and a trial's
 * .kernels.json aggregated into a cell (kernels/kernel_agg.c).  A reply
 * accepted must write back out and read in again to the same reply; a cell
 * built from anything must never hold a NaN or an infinity. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "aorta/collector.h"
#include "sys/json.h"
#include "kernels/kernel_agg.h"
#include "record/kernel_file.h"
#include "record/parse_reply.h"

#define REPLY_DEPTH 64

/* The reply as the child sends it, a row a line: it reads back to the
 * same reply as the tree. */
static void lines(const aorta_metrics_t *metrics, const char *tree_text)
{
    size_t len;
    char *text = ar_parse_reply_text(metrics, 0, &len);
    aorta_metrics_t *copy = aorta_metrics_new("rocprof_");
    if (ar_parse_reply_read(copy, text, len) != 0)
        fz_fail("the reply's lines do not read back: %s", text);
    ar_json_t *out = ar_parse_reply_to_json(copy);
    char *again = ar_json_dump(out, 0);
    if (strcmp(tree_text, again) != 0)
        fz_fail("the reply changes through its lines: %s -> %s", tree_text, again);
    free(again);
    ar_json_free(out);
    aorta_metrics_free(copy);
    free(text);
}

static void reply(const ar_json_t *json)
{
    aorta_metrics_t *metrics = aorta_metrics_new("rocprof_");
    if (ar_parse_reply_from_json(metrics, json) == 0) {
        ar_json_t *out = ar_parse_reply_to_json(metrics);
        char *text = ar_json_dump(out, 0);
        ar_json_t *again = ar_json_parse(text, strlen(text), REPLY_DEPTH);
        aorta_metrics_t *copy = aorta_metrics_new("rocprof_");
        if (!again || ar_parse_reply_from_json(copy, again) != 0)
            fz_fail("the reply does not read back: %s", text);
        ar_json_t *out2 = ar_parse_reply_to_json(copy);
        char *text2 = ar_json_dump(out2, 0);
        if (strcmp(text, text2) != 0)
            fz_fail("the reply changes on the way back: %s -> %s", text, text2);
        free(text2);
        ar_json_free(out2);
        aorta_metrics_free(copy);
        lines(metrics, text);
        ar_json_free(again);
        free(text);
        ar_json_free(out);
    }
    aorta_metrics_free(metrics);
}

static void cell(const ar_json_t *json)
{
    /* The file as "collectors", or the input itself as that object, read
     * as each schema in turn. */
    int schema = 0;
    const ar_json_t *collectors = ar_kernel_file_collectors(json, &schema);
    ar_kagg_cell_t agg = {.name = strdup("c")};
    for (int t = 0; t < 2; t++)
        ar_kagg_add_trial(&agg, collectors ? collectors : json, collectors ? schema : t + 1);
    ar_kagg_finish(&agg);
    /* Every number the cell's JSON writes (a name may read "NaN": look at
     * the numbers, not the text). */
    for (size_t i = 0; i < agg.count; i++) {
        const ar_kagg_table_t *table = &agg.tables[i];
        if (!isfinite(table->gpu_mean_ms) || !isfinite(table->gpu_std_ms)
            || !isfinite(table->gpu_min) || !isfinite(table->gpu_max))
            fz_fail("a cell's GPU time is not finite");
        for (size_t k = 0; k < table->count; k++) {
            const ar_kagg_kernel_t *kernel = &table->kernels[k];
            if (!isfinite(kernel->mean_ms) || !isfinite(kernel->min_ms)
                || !isfinite(kernel->max_ms) || !isfinite(kernel->mean_launches))
                fz_fail("a kernel's figures are not finite");
        }
    }
    ar_json_t *out = ar_kagg_cell_json(&agg);
    char *text = ar_json_dump(out, 0);
    ar_json_t *again = ar_json_parse(text, strlen(text), REPLY_DEPTH);
    if (!again)
        fz_fail("a cell's table does not read back: %s", text);
    /* Written without the tree, the same text (when every name is UTF-8:
     * otherwise the tree is what gets written). */
    int kept = 1;
    for (size_t i = 0; i < agg.count; i++) {
        kept &= ar_json_key_is_kept(agg.tables[i].collector);
        for (size_t k = 0; k < agg.tables[i].count; k++)
            kept &= ar_json_key_is_kept(agg.tables[i].kernels[k].name);
    }
    if (kept) {
        ar_json_writer_t *writer = ar_json_writer_new();
        ar_kagg_cell_text(&agg, writer);
        size_t len;
        const char *streamed = ar_json_writer_text(writer, &len);
        if (len != strlen(text) || memcmp(streamed, text, len) != 0)
            fz_fail("a cell's table written without the tree differs: %s -> %s", text, streamed);
        ar_json_writer_free(writer);
    }
    ar_json_free(again);
    free(text);
    ar_json_free(out);
    ar_kagg_cell_clear(&agg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The input as the lines of a reply: read or refused, never a crash. */
    aorta_metrics_t *metrics = aorta_metrics_new("rocprof_");
    (void)ar_parse_reply_read(metrics, (const char *)data, size);
    aorta_metrics_free(metrics);
    ar_json_t *json = ar_json_parse((const char *)data, size, REPLY_DEPTH);
    if (json) {
        reply(json);
        cell(json);
    }
    ar_json_free(json);
    return 0;
}
