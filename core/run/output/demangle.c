/* SPDX-License-Identifier: MIT */
/* demangle.c - libstdc++'s abi::__cxa_demangle, looked up at run time.
 * dlopen, not a C++ source file: aorta-run stays a C program with no C++
 * toolchain in its build, and where libstdc++ is missing the names simply
 * stay raw.  The demangler is asked only about names that start with "_Z";
 * what it cannot read (a truncated or vendor-mangled name) shows raw. */
#include "config.h"

#include "output/demangle.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buffer, size_t *length,
                                 int *status);

static cxa_demangle_fn demangle_fn;

static void look_up(void)
{
    void *self = dlsym(RTLD_DEFAULT, "__cxa_demangle");
    if (self) {
        demangle_fn = (cxa_demangle_fn)self;
    } else {
        /* Kept open for the process: the function lives in it. */
        void *library = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        if (library)
            demangle_fn = (cxa_demangle_fn)dlsym(library, "__cxa_demangle");
    }
}

/* Looked up once, by whichever thread renders first: the cells' workers
 * render their perf.md tables. */
static cxa_demangle_fn demangler(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, look_up);
    return demangle_fn;
}

char *aorta_demangle(const char *name)
{
    if (!name || strncmp(name, "_Z", 2) != 0)
        return NULL;
    cxa_demangle_fn fn = demangler();
    if (!fn)
        return NULL;
    int status = -1;
    char *text = fn(name, NULL, NULL, &status);
    if (status != 0 || !text) {
        free(text);
        return NULL;
    }
    /* Ours to free with free(): __cxa_demangle allocates with malloc. */
    char *copy = aorta_xstrdup(text);
    free(text);
    return copy;
}

char *aorta_kernel_display(const char *name)
{
    char *demangled = aorta_demangle(name);
    return demangled ? demangled : aorta_xstrdup(name ? name : "");
}

/* text without namespace qualifiers: every "name::" and
 * "(anonymous namespace)::" goes (the full name is one click away). */
static char *drop_qualifiers(const char *text)
{
    static const char anonymous[] = "(anonymous namespace)::";
    char *out = aorta_xmalloc(strlen(text) + 1);
    size_t at = 0, word = 0; /* word: where the identifier being copied began */
    for (const char *c = text; *c;) {
        if (!strncmp(c, anonymous, sizeof anonymous - 1)) {
            c += sizeof anonymous - 1;
            word = at;
            continue;
        }
        if (c[0] == ':' && c[1] == ':') {
            at = word; /* forget the qualifier just copied */
            c += 2;
            continue;
        }
        if (!(isalnum((unsigned char)*c) || *c == '_'))
            word = at + 1;
        out[at++] = *c++;
    }
    out[at] = '\0';
    return out;
}

/* text with the function's parameter list (the first "(" outside any
 * template argument list, to the end) as "(...)", and no leading "void ". */
static char *drop_parameters(const char *text)
{
    if (!strncmp(text, "void ", 5))
        text += 5;
    int depth = 0;
    for (const char *c = text; *c; c++) {
        if (!strncmp(c, "(anonymous namespace)", 21)) {
            c += 20;
            continue;
        }
        if (*c == '<')
            depth++;
        else if (*c == '>')
            depth--;
        else if (*c == '(' && depth == 0 && c > text && c[strlen(c) - 1] == ')')
            return aorta_xasprintf("%.*s(...)", (int)(c - text), text);
    }
    return aorta_xstrdup(text);
}

/* text with every template argument list nested deeper than keep levels
 * as "<...>", or NULL when the brackets do not balance (operator< and
 * friends): then only the cut applies. */
static char *collapse_templates(const char *display, int keep)
{
    size_t len = strlen(display);
    /* "<>" grows into "<...>": room for that everywhere. */
    char *out = aorta_xmalloc(len * 3 + 1);
    size_t at = 0;
    int depth = 0;
    for (const char *c = display; *c; c++) {
        if (*c == '<') {
            if (depth++ == keep) {
                memcpy(out + at, "<...", 4);
                at += 4;
                continue;
            }
        } else if (*c == '>') {
            if (--depth < 0)
                break;
            if (depth == keep) {
                out[at++] = '>';
                continue;
            }
        }
        if (depth <= keep)
            out[at++] = *c;
    }
    if (depth != 0) {
        free(out);
        return NULL;
    }
    out[at] = '\0';
    return out;
}

static size_t char_count(const char *text)
{
    size_t count = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        count += (*c & 0xC0) != 0x80;
    return count;
}

/* Replace *text with next when next is not NULL; whether it now fits. */
static int step(char **text, char *next, size_t width)
{
    if (next) {
        free(*text);
        *text = next;
    }
    return char_count(*text) <= width;
}

char *aorta_kernel_short(const char *display, size_t width)
{
    if (width < 4)
        width = 4;
    char *text = aorta_xstrdup(display);
    if (step(&text, NULL, width)
        || step(&text, drop_parameters(text), width)
        || step(&text, drop_qualifiers(text), width)
        || step(&text, collapse_templates(text, 1), width)
        || step(&text, collapse_templates(text, 0), width))
        return text;
    /* Cut at a character boundary, leaving room for "...". */
    size_t keep = 0, chars = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if ((*c & 0xC0) != 0x80) {
            if (chars == width - 3)
                break;
            chars++;
        }
        keep++;
    }
    char *cut = aorta_xasprintf("%.*s...", (int)keep, text);
    free(text);
    return cut;
}
