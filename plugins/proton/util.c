/* util.c - allocation, a string builder and small path/env helpers. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proton.h"

/* The core's policy: running out of memory stops the program (a parse runs
 * in a child, so there it costs only this collector's metrics). */
void *proton_xcheck(void *ptr)
{
    if (!ptr) {
        fputs("aorta-run: proton: out of memory\n", stderr);
        abort();
    }
    return ptr;
}

void *proton_xmalloc(size_t size)
{
    return proton_xcheck(malloc(size ? size : 1));
}

void *proton_xrealloc(void *ptr, size_t size)
{
    return proton_xcheck(realloc(ptr, size ? size : 1));
}

char *proton_xstrdup(const char *text)
{
    return proton_xcheck(strdup(text));
}

char *proton_xstrndup(const char *text, size_t len)
{
    return proton_xcheck(strndup(text, len));
}

char *proton_xasprintf(const char *fmt, ...)
{
    char *out = NULL;
    va_list args;
    va_start(args, fmt);
    int n = vasprintf(&out, fmt, args);
    va_end(args);
    return proton_xcheck(n < 0 ? NULL : out);
}

static void buf_reserve(proton_buf_t *buf, size_t extra)
{
    if (buf->len + extra + 1 <= buf->cap)
        return;
    size_t cap = buf->cap ? buf->cap : 64;
    while (cap < buf->len + extra + 1)
        cap *= 2;
    buf->data = proton_xrealloc(buf->data, cap);
    buf->cap = cap;
}

void proton_buf_add(proton_buf_t *buf, const char *text, size_t len)
{
    buf_reserve(buf, len);
    memcpy(buf->data + buf->len, text, len);
    buf->len += len;
    buf->data[buf->len] = '\0';
}

void proton_buf_adds(proton_buf_t *buf, const char *text)
{
    proton_buf_add(buf, text, strlen(text));
}

void proton_buf_addf(proton_buf_t *buf, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *text = NULL;
    int n = vasprintf(&text, fmt, args);
    va_end(args);
    proton_xcheck(n < 0 ? NULL : text);
    proton_buf_add(buf, text, (size_t)n);
    free(text);
}

char *proton_buf_take(proton_buf_t *buf)
{
    char *out = buf->data ? buf->data : proton_xstrdup("");
    buf->data = NULL;
    buf->len = buf->cap = 0;
    return out;
}

char *proton_basename(const char *path)
{
    /* pathlib drops '.' components and trailing slashes before naming. */
    char *normal = proton_xcheck(aorta_path_join(path, NULL));
    const char *slash = strrchr(normal, '/');
    const char *name = slash ? slash + 1 : normal;
    char *out = proton_xstrdup(strcmp(name, ".") == 0 ? "" : name);
    aorta_free(normal);
    return out;
}

const char *proton_env_lookup(const aorta_env_t *env, const char *name)
{
    return env ? aorta_env_get(env, name) : NULL;
}
