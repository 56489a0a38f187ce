/* alloc.c - allocation for the rocprof collector.  Out of memory stops the
 * process, as it does in aorta-run; parse() runs in a child, so there it
 * costs only this collector's metrics. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocprof.h"

static void out_of_memory(void)
{
    fputs("aorta-run: rocprof: out of memory\n", stderr);
    abort();
}

void *rocprof_xcheck(void *ptr)
{
    if (!ptr)
        out_of_memory();
    return ptr;
}

void *rocprof_xmalloc(size_t size)
{
    void *ptr = malloc(size ? size : 1);
    if (!ptr)
        out_of_memory();
    return ptr;
}

void *rocprof_xrealloc(void *ptr, size_t size)
{
    void *grown = realloc(ptr, size ? size : 1);
    if (!grown)
        out_of_memory();
    return grown;
}

char *rocprof_xstrndup(const char *text, size_t len)
{
    char *copy = rocprof_xmalloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    return copy;
}

char *rocprof_xstrdup(const char *text)
{
    return rocprof_xstrndup(text, strlen(text));
}
