/* SPDX-License-Identifier: MIT */
/* repr.c - Python's repr() of a str and of a list of str, appended to a
 * buffer: upstream's messages quote values with repr (e.g. "unknown
 * option(s) ['a', 'b']").  The quoting itself is the SDK's. */
#include "config.h"

#include "collector_common.h"

void cc_buf_add_repr(cc_buf_t *buf, const char *text, size_t len)
{
    char *quoted = aorta_text_repr(text, len);
    cc_buf_adds(buf, quoted);
    aorta_free(quoted);
}

void cc_buf_add_repr_list(cc_buf_t *buf, const char *const *items, size_t count)
{
    char *quoted = aorta_text_repr_list(items, count);
    cc_buf_adds(buf, quoted);
    aorta_free(quoted);
}
