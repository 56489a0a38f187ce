/* SPDX-License-Identifier: MIT */
/* fuzz_lane_chart.c - report.html's lane chart read back from a trial's
 * timeline.json (report/lane_svg.c), line by line: any bytes give a chart
 * or nothing, never a conversion of a double out of range (UBSan stops
 * one) or a crash, and a chart is valid UTF-8 without a control byte a
 * page could not hold. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "fuzz_util.h"
#include "report/lane_svg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *svg = ar_lane_svg((const char *)data, size);
    if (svg) {
        size_t len = strlen(svg);
        if (aorta_utf8_valid_prefix(svg, len, NULL, NULL) != len)
            fz_fail("the chart is not UTF-8: %s", svg);
        for (size_t i = 0; i < len; i++)
            if ((unsigned char)svg[i] < 0x20 && svg[i] != '\n')
                fz_fail("a control byte 0x%02x in the chart", (unsigned char)svg[i]);
    }
    free(svg);
    return 0;
}
