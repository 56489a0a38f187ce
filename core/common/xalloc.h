/* SPDX-License-Identifier: MIT */
/* xalloc.h - allocation that cannot fail: the process stops on out-of-memory.
 * Not installed: compiled into libaorta (hidden) and into aorta-run. */
#ifndef AORTA_XALLOC_H
#define AORTA_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

#include "aorta/collector.h"

/* ptr, or stop when it is NULL (for what a NULL-on-out-of-memory function
 * of aorta/collector.h returned). */
void *aorta_xcheck(void *ptr);
void *aorta_xmalloc(size_t size);
void *aorta_xcalloc(size_t count, size_t size);
void *aorta_xrealloc(void *ptr, size_t size);
/* Grow *ptr (of *cap elements of elem_size) to hold at least need elements. */
void aorta_xgrow(void **ptr, size_t *cap, size_t need, size_t elem_size);
char *aorta_xstrdup(const char *text);
char *aorta_xstrndup(const char *text, size_t len);
char *aorta_xasprintf(const char *fmt, ...) AORTA_PRINTF(1, 2);
char *aorta_xvasprintf(const char *fmt, va_list args) AORTA_PRINTF(1, 0);

#endif
