/* SPDX-License-Identifier: MIT */
/* xalloc.c - allocation that cannot fail: the process stops on out-of-memory.
 * Compiled into libaorta and into aorta-run, each naming itself in the one
 * line it prints (AR_XALLOC_WHO, set by the Makefile). */
#include "config.h"

#include "xalloc.h"

#ifndef AR_XALLOC_WHO
#error "AR_XALLOC_WHO names the product this copy is built into"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
    fputs(AR_XALLOC_WHO ": out of memory\n", stderr);
    abort();
}

void *ar_xcheck(void *ptr)
{
    if (!ptr)
        out_of_memory();
    return ptr;
}

void *ar_xmalloc(size_t size)
{
    void *ptr = malloc(size ? size : 1);
    if (!ptr)
        out_of_memory();
    return ptr;
}

void *ar_xcalloc(size_t count, size_t size)
{
    void *ptr = calloc(count ? count : 1, size ? size : 1);
    if (!ptr)
        out_of_memory();
    return ptr;
}

void *ar_xrealloc(void *ptr, size_t size)
{
    void *grown = realloc(ptr, size ? size : 1);
    if (!grown)
        out_of_memory();
    return grown;
}

void ar_xgrow(void **ptr, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return;
    size_t next = *cap ? *cap : 8;
    while (next < need) {
        if (next > ((size_t)-1) / 2 / elem_size)
            out_of_memory();
        next *= 2;
    }
    *ptr = ar_xrealloc(*ptr, next * elem_size);
    *cap = next;
}

char *ar_xstrdup(const char *text)
{
    return ar_xstrndup(text, strlen(text));
}

char *ar_xstrndup(const char *text, size_t len)
{
    char *copy = ar_xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    return copy;
}

char *ar_xvasprintf(const char *fmt, va_list args)
{
    va_list again;
    va_copy(again, args);
    int len = vsnprintf(NULL, 0, fmt, args);
    if (len < 0)
        out_of_memory();
    char *text = ar_xmalloc((size_t)len + 1);
    vsnprintf(text, (size_t)len + 1, fmt, again);
    va_end(again);
    return text;
}

char *ar_xasprintf(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *text = ar_xvasprintf(fmt, args);
    va_end(args);
    return text;
}
