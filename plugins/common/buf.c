/* SPDX-License-Identifier: MIT */
/* buf.c - a growing text buffer, for the messages collectors build. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector_common.h"

void cc_buf_add(cc_buf_t *buf, const char *text, size_t len)
{
    if (buf->len + len + 1 > buf->cap) {
        size_t cap = buf->cap ? buf->cap : 64;
        while (cap < buf->len + len + 1)
            cap *= 2;
        buf->data = cc_xrealloc(buf->data, cap);
        buf->cap = cap;
    }
    if (len)
        memcpy(buf->data + buf->len, text, len);
    buf->len += len;
    buf->data[buf->len] = '\0';
}

void cc_buf_adds(cc_buf_t *buf, const char *text)
{
    cc_buf_add(buf, text, strlen(text));
}

void cc_buf_addf(cc_buf_t *buf, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *text = NULL;
    int n = vasprintf(&text, fmt, args);
    va_end(args);
    cc_xcheck(n < 0 ? NULL : text);
    cc_buf_add(buf, text, (size_t)n);
    free(text);
}

char *cc_buf_take(cc_buf_t *buf)
{
    char *out = buf->data ? buf->data : cc_xstrdup("");
    buf->data = NULL;
    buf->len = buf->cap = 0;
    return out;
}

void cc_buf_free(cc_buf_t *buf)
{
    free(buf->data);
    buf->data = NULL;
    buf->len = buf->cap = 0;
}
