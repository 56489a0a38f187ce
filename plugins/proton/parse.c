/* SPDX-License-Identifier: MIT */
/* parse.c - the Proton summary of an artifact directory: every *.hatchet
 * below it, through the core's no-follow walk, one file open at a time.
 * Never fails: data: trace, a crashed run or a file that is not a readable
 * profile all mean fewer metrics, never an error. */
#include "config.h"

#include "hatchet.h"
#include "proton.h"

static int parse_file(const char *path, int fd, void *user)
{
    (void)path;
    aorta_kernels_t *kernels = user;
    proton_hatchet_count(fd, kernels);
    /* Upstream sums each file on its own first, then adds the files'
     * sums to the run's totals. */
    aorta_kernels_end_file(kernels);
    return 0;
}

void proton_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options;
    /* Upstream adds the kernels' totals one after the other: no
     * compensated sum. */
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    switch (aorta_walk_files_sorted(dir, ".hatchet", parse_file, kernels)) {
    case AORTA_WALK_OK:
    case AORTA_WALK_STOPPED:
        aorta_kernels_report(kernels, metrics, "proton", 1.0, dir);
        break;
    case AORTA_WALK_NO_FDS:
        /* Some files were skipped: totals would be silently short. */
        aorta_metrics_set_string(metrics, "proton_artifact_dir", dir);
        break;
    case AORTA_WALK_NOT_DIR:
    case AORTA_WALK_SYMLINK:
        break; /* no directory (or a refused symlink): no keys at all */
    }
    aorta_kernels_free(kernels);
}
