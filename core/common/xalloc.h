/* SPDX-License-Identifier: MIT */
/* xalloc.h - allocation that cannot fail: the process stops on out-of-memory.
 * Not installed: compiled into libaorta (hidden) and into aorta-run. */
#ifndef AR_XALLOC_H
#define AR_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

#include "aorta/collector.h"

/* ptr, or stop when it is NULL (for what a NULL-on-out-of-memory function
 * of aorta/collector.h returned). */
void *ar_xcheck(void *ptr);
void *ar_xmalloc(size_t size);
void *ar_xcalloc(size_t count, size_t size);
void *ar_xrealloc(void *ptr, size_t size);
/* Grow *ptr (of *cap elements of elem_size) to hold at least need elements. */
void ar_xgrow(void **ptr, size_t *cap, size_t need, size_t elem_size);
char *ar_xstrdup(const char *text);
char *ar_xstrndup(const char *text, size_t len);
char *ar_xasprintf(const char *fmt, ...) AORTA_PRINTF(1, 2);
char *ar_xvasprintf(const char *fmt, va_list args) AORTA_PRINTF(1, 0);

#endif
