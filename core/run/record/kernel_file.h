/* SPDX-License-Identifier: MIT */
/* kernel_file.h - a trial's kernel tables, _subprocess/trial_d0_m0_t<t>.kernels.json
 * (docs/design.md, Output tree): every kernel each collector saw, written
 * right after parsing, before retention prunes the artifacts. */
#ifndef AR_KERNEL_FILE_H
#define AR_KERNEL_FILE_H

#include "aorta/collector.h"
#include "sys/json.h"

/* The schema written; 1 and 2 are still read (docs/design.md, Kernel
 * tables). */
#define AR_KERNEL_FILE_SCHEMA 3
/* Bounds when reading one back (a table of 100,000 long names fits). */
#define AR_KERNEL_FILE_MAX_BYTES (256u << 20)
#define AR_KERNEL_FILE_MAX_DEPTH 8

/* The file's name for a trial JSON's ("....json" -> "....kernels.json"). */
char *ar_kernel_file_path(const char *trial_json_path);

/* An empty file object: {"schema_version", "trial_index", "collectors": {}}. */
ar_json_t *ar_kernel_file_new(int trial_index);

/* Add collector's table (NULL: nothing) as
 * "collectors": {name: {"names": [raw name, ...], "total_ms": [...],
 * "launches": [...]}}, in first-seen order; launches null when unknown,
 * non-finite totals left out, names that are one JSON key (cut at a NUL,
 * U+FFFD for what is not UTF-8) merged as schema 1's object merged them. */
void ar_kernel_file_add(ar_json_t *file, const char *collector,
                           const aorta_kernels_t *kernels);

/* One rank's table of a multi-rank trial: appended to the collector's
 * "ranks" array as {"rank", "names", "total_ms", "launches"} (kernels NULL:
 * an empty table, a rank that ran no kernel).  Call in rank order. */
void ar_kernel_file_add_rank(ar_json_t *file, const char *collector, long rank,
                                const aorta_kernels_t *kernels);

/* Write file as name below dir_fd whole or not at all, on one line: the
 * tables are read by programs, and a run holds thousands of them.  0, or -1
 * with *error set (free it). */
int ar_kernel_file_write_at(int dir_fd, const char *name, const ar_json_t *file,
                               char **error);

/* The "collectors" member of a file read back, its schema_version in
 * *schema (1, 2 or 3: how to read each collector's entry), or NULL when json
 * is not a kernel file of a schema this build reads. */
const ar_json_t *ar_kernel_file_collectors(const ar_json_t *json, int *schema);

#endif
