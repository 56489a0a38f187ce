/* SPDX-License-Identifier: MIT */
/* kernel_reports.c - the kernel tables' reports, from the records alone. */
#include "config.h"

#include "output/kernel_reports.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/kernel_agg.h"
#include "output/kernel_file.h"
#include "output/kernel_md.h"
#include "output/report_html.h"
#include "sys/files.h"
#include "xalloc.h"

static void note_failure(char **error, const char *path)
{
    if (!*error)
        *error = aorta_xasprintf("cannot write %s: %s", path, strerror(errno));
}

char *aorta_kernel_reports(const char *run_dir, const aorta_json_t *matrix, const char *baseline,
                           char **error)
{
    *error = NULL;
    aorta_kagg_run_t run;
    aorta_kagg_load(run_dir, matrix, baseline, &run);
    for (size_t i = 0; i < run.count; i++) {
        if (run.cells[i].count == 0)
            continue;
        char *path = aorta_xasprintf("%s/%s/kernels.json", run_dir, run.cells[i].name);
        aorta_json_t *json = aorta_kagg_cell_json(&run.cells[i]);
        if (aorta_kernel_file_write(path, json) != 0)
            note_failure(error, path);
        aorta_json_free(json);
        free(path);
    }
    char *html = aorta_report_html(matrix, &run);
    char *path = aorta_xasprintf("%s/report.html", run_dir);
    if (aorta_write_file_atomic(path, html, strlen(html)) != 0)
        note_failure(error, path);
    free(path);
    free(html);
    char *section = aorta_kernel_md(&run);
    aorta_kagg_run_clear(&run);
    return section;
}
