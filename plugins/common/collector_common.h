/* SPDX-License-Identifier: MIT */
/* collector_common.h - what every collector of this tree needs beyond the
 * SDK: allocation that stops on out-of-memory, a growing text buffer, and
 * Python's repr() appended to it (upstream's messages quote values so).
 * A static, non-installed helper library: each module links its own copy,
 * with hidden visibility, so nothing here leaves a module. */
#ifndef AORTA_COLLECTOR_COMMON_H
#define AORTA_COLLECTOR_COMMON_H

#include <stdarg.h>
#include <stddef.h>

#include "aorta/collector.h"

#pragma GCC visibility push(hidden)

/* ---- the metrics a kernel-table collector reports (ABI 1.2 rows) ----
 * What aorta_metrics_set_kernels() (libaorta/kernels.c) reports for
 * collector NAME, declared so that --describe lists them with their units
 * and directions.  The GPU time is the gated one; the top kernel's time is
 * shown only (its kernel is judged in the kernel table, gated by its share,
 * so gating it here would count one change twice); the strings change
 * nothing.  End the table with {NULL, NULL, AORTA_BETTER_NONE, NULL}. */
#define CC_KERNEL_METRICS(NAME)                                                               \
    {NAME "_gpu_time_ms", "ms", AORTA_BETTER_LOWER,                                          \
     "GPU time: every kernel dispatch's time summed (gated per cell)"},                      \
    {NAME "_top_kernel_ms", "ms", AORTA_BETTER_NONE,                                         \
     "the longest kernel's summed time (that kernel is judged in the kernel table)"},        \
    {NAME "_kernel_count", "dispatches", AORTA_BETTER_NONE, "kernel dispatches"},            \
    {NAME "_top_kernels", NULL, AORTA_BETTER_NONE, "the longest kernels' names (text)"},     \
    {NAME "_artifact_dir", NULL, AORTA_BETTER_NONE, "where the capture was read (text)"}

/* ---- alloc.c: out of memory writes "<cc_collector_name>: out of memory"
 * and aborts (parse() runs in a child, so there it costs only this
 * collector's metrics) ---- */

/* The module's name, defined once by each module for that line. */
extern const char cc_collector_name[];

/* ptr, or stop when it is NULL (for what a NULL-on-out-of-memory function
 * of the SDK returned). */
void *cc_xcheck(void *ptr);
void *cc_xmalloc(size_t size);
void *cc_xrealloc(void *ptr, size_t size);
/* Grow *items (of *cap elements of elem_size) to hold at least need. */
void cc_xgrow(void **items, size_t *cap, size_t need, size_t elem_size);
char *cc_xstrdup(const char *text);
/* The @p len bytes at @p text (NULs included) and a NUL. */
char *cc_xstrndup(const char *text, size_t len);
char *cc_xasprintf(const char *fmt, ...) AORTA_PRINTF(1, 2);

/* ---- buf.c: a growing text buffer ---- */
typedef struct cc_buf {
    char *data;   /* NUL-terminated once anything was added; NULL before */
    size_t len;
    size_t cap;
} cc_buf_t;

void cc_buf_add(cc_buf_t *buf, const char *text, size_t len);
void cc_buf_adds(cc_buf_t *buf, const char *text);
void cc_buf_addf(cc_buf_t *buf, const char *fmt, ...) AORTA_PRINTF(2, 3);
/* The text built so far (never NULL; free it); the buffer is left empty. */
char *cc_buf_take(cc_buf_t *buf);
void cc_buf_free(cc_buf_t *buf);

/* ---- repr.c: repr(str) of @p len bytes (aorta_text_repr()), and repr()
 * of a list of NUL-terminated str, appended ---- */
void cc_buf_add_repr(cc_buf_t *buf, const char *text, size_t len);
void cc_buf_add_repr_list(cc_buf_t *buf, const char *const *items, size_t count);

#pragma GCC visibility pop

#endif
