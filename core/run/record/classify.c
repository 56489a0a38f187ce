/* SPDX-License-Identifier: MIT */
/* classify.c - the Tier-1 (process) classifier and the three-way verdict
 * (docs/design.md): fail > error > pass. */
#include "config.h"

#include "record/classify.h"

#include <dirent.h>
#include <signal.h>
#include <string.h>

/* A "core" or "core.*" file directly in the trial directory. */
static int has_core_dump(const char *trial_dir)
{
    DIR *dir = trial_dir ? opendir(trial_dir) : NULL;
    if (!dir)
        return 0;
    int found = 0;
    struct dirent *entry;
    while (!found && (entry = readdir(dir)) != NULL)
        found = strcmp(entry->d_name, "core") == 0 || strncmp(entry->d_name, "core.", 5) == 0;
    closedir(dir);
    return found;
}

void ar_classify(const ar_spawn_result_t *result, const char *trial_dir,
                    ar_classification_t *out)
{
    memset(out, 0, sizeof *out);
    const char *failure = NULL, *error = NULL;
    if (!result->launched) {
        error = "tier1:exec_failed"; /* suppresses every other detector */
    } else if (result->timed_out) {
        error = "tier1:timeout";
    } else if (result->exit_code == -SIGSEGV) {
        failure = "tier1:sigsegv";
    } else if (result->exit_code == -SIGABRT) {
        failure = "tier1:sigabrt";
    } else if (result->exit_code == -SIGBUS) {
        failure = "tier1:sigbus";
    } else if (result->exit_code != 0) {
        failure = "tier1:exit_nonzero";
    }
    size_t failures = 0;
    if (failure)
        out->failure_detectors[failures++] = failure;
    if (result->launched && has_core_dump(trial_dir))
        out->failure_detectors[failures++] = failure = "tier1:coredump";
    out->error_detectors[0] = error;
    out->verdict = failure ? "fail" : error ? "error" : "pass";
}
