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
    proton_kernels_t *kernels = user;
    struct json_object *root = proton_hatchet_read(fd);
    if (root) {
        proton_hatchet_walk(root, kernels);
        proton_json_free(root);
    }
    proton_kernels_end_file(kernels);
    return 0;
}

void proton_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options;
    proton_kernels_t *kernels = proton_kernels_new();
    switch (aorta_walk_files(dir, ".hatchet", parse_file, kernels)) {
    case AORTA_WALK_OK:
    case AORTA_WALK_STOPPED:
        proton_kernels_report(kernels, dir, metrics);
        break;
    case AORTA_WALK_NO_FDS:
        /* Some files were skipped: totals would be silently short. */
        aorta_metrics_set_string(metrics, "proton_artifact_dir", dir);
        break;
    case AORTA_WALK_NOT_DIR:
    case AORTA_WALK_SYMLINK:
        break; /* no directory (or a refused symlink): no keys at all */
    }
    proton_kernels_free(kernels);
}
