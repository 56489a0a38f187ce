/* SPDX-License-Identifier: MIT */
/* kernel_reports.c - the kernel tables' reports, from the records alone. */
#include "config.h"

#include "output/kernel_reports.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/kernel_agg.h"
#include "output/kernel_file.h"
#include "output/kernel_md.h"
#include "output/report_html.h"
#include "sys/files.h"
#include "sys/nofollow.h"
#include "xalloc.h"

static void note_failure(char **error, const char *name, const char *why)
{
    if (!*error)
        *error = aorta_xasprintf("cannot write %s: %s", name, why ? why : strerror(errno));
}

char *aorta_kernel_reports(int run_fd, const aorta_json_t *matrix, const char *baseline,
                           char **error)
{
    *error = NULL;
    aorta_kagg_run_t run;
    aorta_kagg_load(run_fd, matrix, baseline, &run);
    for (size_t i = 0; i < run.count; i++) {
        if (run.cells[i].count == 0)
            continue;
        /* Below the run directory without following a symlink, whatever the
         * payload made of its cell. */
        char *why = NULL;
        int cell_fd = aorta_fsafe_open_dir(run_fd, run.cells[i].name, 0, &why);
        char *name = aorta_xasprintf("%s/kernels.json", run.cells[i].name);
        aorta_json_t *json = aorta_kagg_cell_json(&run.cells[i]);
        if (cell_fd < 0 || aorta_kernel_file_write_at(cell_fd, "kernels.json", json) != 0)
            note_failure(error, name, cell_fd < 0 ? why : NULL);
        if (cell_fd >= 0)
            close(cell_fd);
        aorta_json_free(json);
        free(name);
        free(why);
    }
    char *html = aorta_report_html(matrix, &run);
    if (aorta_write_file_atomic_at(run_fd, "report.html", html, strlen(html)) != 0)
        note_failure(error, "report.html", NULL);
    free(html);
    char *section = aorta_kernel_md(&run);
    aorta_kagg_run_clear(&run);
    return section;
}
