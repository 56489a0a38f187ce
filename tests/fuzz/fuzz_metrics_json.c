/* SPDX-License-Identifier: MIT */
/* fuzz_metrics_json.c - the parse child's reply, as ar_parse_in_child()
 * reads it: JSON text into a metrics sink whose keys must carry the
 * collector's prefix.  What is accepted must write back out as JSON that
 * reads in again to the same metrics. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "aorta/collector.h"
#include "sys/json.h"
#include "record/metrics_json.h"

/* The reply limit of parse_child.c. */
#define REPLY_DEPTH 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ar_json_t *json = ar_json_parse((const char *)data, size, REPLY_DEPTH);
    aorta_metrics_t *metrics = aorta_metrics_new("rocprof_");
    if (json && ar_metrics_from_json(metrics, json) == 0) {
        ar_json_t *out = ar_metrics_to_json(metrics);
        char *text = ar_json_dump(out, 0);
        ar_json_t *again = ar_json_parse(text, strlen(text), REPLY_DEPTH);
        aorta_metrics_t *copy = aorta_metrics_new("rocprof_");
        if (!again || ar_metrics_from_json(copy, again) != 0)
            fz_fail("the metrics do not read back: %s", text);
        ar_json_t *out2 = ar_metrics_to_json(copy);
        char *text2 = ar_json_dump(out2, 0);
        if (strcmp(text, text2) != 0)
            fz_fail("the metrics change on the way back: %s -> %s", text, text2);
        free(text2);
        ar_json_free(out2);
        aorta_metrics_free(copy);
        ar_json_free(again);
        free(text);
        ar_json_free(out);
    }
    aorta_metrics_free(metrics);
    ar_json_free(json);
    return 0;
}
