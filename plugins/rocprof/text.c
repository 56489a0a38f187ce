/* text.c - a growing text buffer for messages, and Python's repr() of a
 * string or a list appended to it: upstream's error messages quote values
 * with repr (e.g. "unknown option(s) ['a', 'b']"), so these do the same,
 * through libaorta's aorta_text_repr(). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rocprof.h"

void rocprof_text_append(rocprof_text_t *text, const char *data, size_t len)
{
    if (text->len + len + 1 > text->cap) {
        size_t cap = text->cap ? text->cap : 64;
        while (cap < text->len + len + 1)
            cap *= 2;
        text->data = rocprof_xrealloc(text->data, cap);
        text->cap = cap;
    }
    memcpy(text->data + text->len, data, len);
    text->len += len;
    text->data[text->len] = '\0';
}

void rocprof_text_appends(rocprof_text_t *text, const char *data)
{
    rocprof_text_append(text, data, strlen(data));
}

void rocprof_text_free(rocprof_text_t *text)
{
    free(text->data);
    text->data = NULL;
    text->len = text->cap = 0;
}

void rocprof_repr_append(rocprof_text_t *text, const char *value, size_t len)
{
    char *quoted = rocprof_xcheck(aorta_text_repr(value, len));
    rocprof_text_appends(text, quoted);
    aorta_free(quoted);
}

void rocprof_repr_list_append(rocprof_text_t *text, const char *const *values, size_t count)
{
    char *quoted = rocprof_xcheck(aorta_text_repr_list(values, count));
    rocprof_text_appends(text, quoted);
    aorta_free(quoted);
}
