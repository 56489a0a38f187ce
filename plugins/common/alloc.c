/* SPDX-License-Identifier: MIT */
/* alloc.c - allocation that stops the process when memory runs out, as the
 * SDK and aorta-run do: a collector has no better answer. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector_common.h"

static void out_of_memory(void)
{
    fprintf(stderr, "%s: out of memory\n", cc_collector_name);
    abort();
}

void *cc_xcheck(void *ptr)
{
    if (!ptr)
        out_of_memory();
    return ptr;
}

void *cc_xmalloc(size_t size)
{
    return cc_xcheck(malloc(size ? size : 1));
}

void *cc_xrealloc(void *ptr, size_t size)
{
    return cc_xcheck(realloc(ptr, size ? size : 1));
}

void cc_xgrow(void **items, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return;
    size_t next = *cap ? *cap : 16;
    while (next < need) {
        if (next > ((size_t)-1) / 2 / elem_size)
            out_of_memory();
        next *= 2;
    }
    *items = cc_xrealloc(*items, next * elem_size);
    *cap = next;
}

char *cc_xstrndup(const char *text, size_t len)
{
    char *copy = cc_xmalloc(len + 1);
    if (len)
        memcpy(copy, text, len);
    copy[len] = '\0';
    return copy;
}

char *cc_xstrdup(const char *text)
{
    return cc_xstrndup(text, strlen(text));
}

char *cc_xasprintf(const char *fmt, ...)
{
    char *out = NULL;
    va_list args;
    va_start(args, fmt);
    int n = vasprintf(&out, fmt, args);
    va_end(args);
    return cc_xcheck(n < 0 ? NULL : out);
}
