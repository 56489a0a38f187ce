/* SPDX-License-Identifier: MIT */
/* path.c - path joining with the normalisation of Python's pathlib, so the
 * paths aorta-run prints and passes to profilers match upstream's. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "xalloc.h"

/* Append the components of text (not its root) to out, dropping empty and
 * "." components. */
static void append_parts(char *out, size_t *len, const char *text)
{
    const char *cursor = text;
    while (*cursor) {
        while (*cursor == '/')
            cursor++;
        const char *end = strchr(cursor, '/');
        size_t part = end ? (size_t)(end - cursor) : strlen(cursor);
        if (part > 0 && !(part == 1 && cursor[0] == '.')) {
            if (*len > 0 && out[*len - 1] != '/')
                out[(*len)++] = '/';
            memcpy(out + *len, cursor, part);
            *len += part;
        }
        cursor += part;
    }
    out[*len] = '\0';
}

/* pathlib keeps exactly two leading slashes ("//x"), folds one or three or
 * more into "/". */
static size_t root_length(const char *text)
{
    if (text[0] != '/')
        return 0;
    if (text[1] == '/' && text[2] != '/')
        return 2;
    return 1;
}

char *aorta_path_join(const char *base, const char *leaf)
{
    if (!base)
        base = "";
    if (leaf && leaf[0] == '/')
        base = ""; /* an absolute leaf replaces the base */
    size_t size = strlen(base) + (leaf ? strlen(leaf) : 0) + 4;
    char *out = ar_xmalloc(size);
    const char *first = base[0] ? base : (leaf ? leaf : "");
    size_t len = root_length(first);
    memcpy(out, "//", len);
    out[len] = '\0';
    append_parts(out, &len, base);
    if (leaf)
        append_parts(out, &len, leaf);
    if (len == 0) {
        strcpy(out, ".");
    }
    return out;
}
