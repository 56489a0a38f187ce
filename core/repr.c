/* repr.c - Python-style quoting of user text inside one-line messages. */
#include "config.h"

#include "repr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

char *aorta_repr(const char *text, size_t len)
{
    /* Like Python: single quotes, unless the text has one and no double. */
    int has_single = memchr(text, '\'', len) != NULL;
    int has_double = memchr(text, '"', len) != NULL;
    char quote = has_single && !has_double ? '"' : '\'';
    char *out = aorta_xmalloc(len * 4 + 3), *o = out;
    *o++ = quote;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\\' || c == (unsigned char)quote) {
            *o++ = '\\';
            *o++ = (char)c;
        } else if (c == '\n') {
            *o++ = '\\';
            *o++ = 'n';
        } else if (c == '\r') {
            *o++ = '\\';
            *o++ = 'r';
        } else if (c == '\t') {
            *o++ = '\\';
            *o++ = 't';
        } else if (c < 0x20 || c == 0x7f) {
            o += sprintf(o, "\\x%02x", c);
        } else {
            *o++ = (char)c;
        }
    }
    *o++ = quote;
    *o = '\0';
    return out;
}

char *aorta_repr_str(const char *text)
{
    return aorta_repr(text, strlen(text));
}

char *aorta_repr_list(const char *const *items, size_t count)
{
    size_t size = 3, used = 0;
    char *out = aorta_xmalloc(size);
    out[used++] = '[';
    for (size_t i = 0; i < count; i++) {
        char *one = aorta_repr_str(items[i]);
        size_t len = strlen(one);
        out = aorta_xrealloc(out, size += len + 2);
        if (i > 0) {
            out[used++] = ',';
            out[used++] = ' ';
        }
        memcpy(out + used, one, len);
        used += len;
        free(one);
    }
    out[used++] = ']';
    out[used] = '\0';
    return out;
}
