/* hatchet.h - reading Proton's .hatchet profiles (hidden). */
#ifndef AORTA_PROTON_HATCHET_H
#define AORTA_PROTON_HATCHET_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "aorta/collector.h"

/* Nesting json-c accepts: its default of 32 rejects real context: python
 * trees (docs/design.md, Deviation 3). */
#define PROTON_JSON_DEPTH 10000

/* ---- hatchet_read.c ------------------------------------------------------ */

/* The JSON value of the file open at fd, read as Python's json.load reads a
 * UTF-8 text file (NaN, Infinity and -Infinity accepted); NULL when the file
 * is unreadable, not UTF-8, not JSON, nested deeper than PROTON_JSON_DEPTH,
 * or the JSON null.  Free with proton_json_free(). */
struct json_object *proton_hatchet_read(int fd);
/* Release a value without recursing over its depth. */
void proton_json_free(struct json_object *root);

/* ---- kernels.c: per-kernel totals --------------------------------------- */

typedef struct proton_kernels proton_kernels_t;

proton_kernels_t *proton_kernels_new(void);
/* One counted leaf of the current file.  count < 0: unreadable. */
void proton_kernels_add(proton_kernels_t *kernels, const char *name, size_t len, double ms,
                        int64_t count);
/* Fold the current file's totals into the run's (in the file's order). */
void proton_kernels_end_file(proton_kernels_t *kernels);
/* The five metrics (spec §5.6) for artifact directory dir. */
void proton_kernels_report(const proton_kernels_t *kernels, const char *dir,
                           aorta_metrics_t *metrics);
void proton_kernels_free(proton_kernels_t *kernels);

/* ---- hatchet_walk.c: the leaf rule --------------------------------------- */

/* Add every counted leaf of a profile's value to kernels (spec §5.3-5.5). */
void proton_hatchet_walk(struct json_object *root, proton_kernels_t *kernels);

#endif
