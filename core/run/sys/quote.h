/* SPDX-License-Identifier: MIT */
/* quote.h - the core's short forms of aorta_text_repr() and
 * aorta_text_repr_list() (aorta/collector.h), for messages that quote user
 * text: out of memory stops aorta-run, as every core allocation does.
 * Free the results with free(). */
#ifndef AR_QUOTE_H
#define AR_QUOTE_H

#include <stddef.h>
#include <string.h>

#include "aorta/collector.h"
#include "xalloc.h"

/* repr() of the len bytes at text. */
static inline char *ar_repr(const char *text, size_t len)
{
    return ar_xcheck(aorta_text_repr(text, len));
}

/* repr() of a NUL-terminated text. */
static inline char *ar_repr_str(const char *text)
{
    return ar_repr(text, strlen(text));
}

/* ['a', 'b'] for count texts. */
static inline char *ar_repr_list(const char *const *items, size_t count)
{
    return ar_xcheck(aorta_text_repr_list(items, count));
}

#endif
