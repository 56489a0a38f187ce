/* xalloc.h - allocation that cannot fail: aorta-run stops on out-of-memory. */
#ifndef AORTA_XALLOC_H
#define AORTA_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

#include "aorta/collector.h"

/* ptr, or stop when it is NULL (for what a NULL-on-out-of-memory function
 * of aorta/collector.h returned). */
AORTA_EXPORT void *aorta_xcheck(void *ptr);
AORTA_EXPORT void *aorta_xmalloc(size_t size);
AORTA_EXPORT void *aorta_xcalloc(size_t count, size_t size);
AORTA_EXPORT void *aorta_xrealloc(void *ptr, size_t size);
/* Grow *ptr (of *cap elements of elem_size) to hold at least need elements. */
AORTA_EXPORT void aorta_xgrow(void **ptr, size_t *cap, size_t need, size_t elem_size);
AORTA_EXPORT char *aorta_xstrdup(const char *text);
AORTA_EXPORT char *aorta_xstrndup(const char *text, size_t len);
AORTA_EXPORT char *aorta_xasprintf(const char *fmt, ...) AORTA_PRINTF(1, 2);
AORTA_EXPORT char *aorta_xvasprintf(const char *fmt, va_list args) AORTA_PRINTF(1, 0);

#endif
