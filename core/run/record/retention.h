/* SPDX-License-Identifier: MIT */
/* retention.h - pruning a trial's files by the retain: level of its verdict
 * (docs/design.md).  Classes: record (the tree's top-level result.json,
 * never deleted), log (stdout.log, stderr.log, probe.env), summary
 * (artifacts.json, names containing ".summary."), heavy (everything else);
 * an artifacts.json manifest at the tree's root may reclassify files.  A
 * level keeps every class at or below it.  Symlinks are never followed or
 * deleted; subdirectories left empty are removed. */
#ifndef AR_RETENTION_H
#define AR_RETENTION_H

#include <stddef.h>
#include <stdint.h>

#include "recipe/plan.h"

typedef struct ar_retention {
    char **deleted;          /* paths relative to the trial directory, sorted per tree */
    size_t count;
    size_t capacity;
    int64_t freed_bytes;
} ar_retention_t;

/* "none", "log", "summary" or "full". */
const char *ar_retain_level_name(ar_retain_level_t level);

/* Prune the trial directory open at trial_fd and, when collect_fd >= 0, the
 * trial's collector tree open there, whose paths are recorded under
 * collect_prefix ("../_subprocess/trial_d0_m0_t<t>/").  When one of
 * collector_names (count of them) is a symlink in the collector tree, that
 * tree is left alone.  display names the trial directory in warnings.
 * Nothing is scanned at AR_RETAIN_FULL.  Fills *out (free it with
 * ar_retention_clear()). */
void ar_retention_apply(int trial_fd, int collect_fd, const char *collect_prefix,
                           const char *const *collector_names, size_t count,
                           ar_retain_level_t level, const char *display,
                           ar_retention_t *out);
void ar_retention_clear(ar_retention_t *retention);

#endif
