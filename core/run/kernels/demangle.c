/* SPDX-License-Identifier: MIT */
/* demangle.c - libstdc++'s abi::__cxa_demangle, looked up at run time.
 * dlopen, not a C++ source file: aorta-run stays a C program with no C++
 * toolchain in its build, and where libstdc++ is missing the names simply
 * stay raw.  The demangler is asked only about names that start with "_Z";
 * what it cannot read (a truncated or vendor-mangled name) shows raw. */
#include "config.h"

#include "kernels/demangle.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sys/child.h"
#include "sys/clock.h"
#include "sys/diag.h"
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

/* A demangler bomb: a name of a few hundred bytes whose back-references
 * double at each level demangles to 2^n characters, and __cxa_demangle
 * builds all of them (a 210-byte name gave a 243 MB report.html, 250 bytes
 * ran for minutes).  So: a mangled name longer than MANGLED_MAX stays raw;
 * one whose back-references could not make it longer than IN_PROCESS_BOUND
 * is demangled here; any other in a child (sys/child.c) under a deadline,
 * a memory limit and a reply limit, all of them together at most
 * CHILD_BUDGET seconds per process.  A demangled name longer than
 * DEMANGLED_MAX is not shown either: the raw one is, with one warning. */
#define MANGLED_MAX 4096
#define DEMANGLED_MAX (64 * 1024)
#define IN_PROCESS_BOUND (1u << 20)
/* The most characters one mangled character prints as ("Sd" is
 * "std::basic_iostream<char, std::char_traits<char> >"). */
#define EXPANSION 40
#define CHILD_TIMEOUT_SEC 1.0
#define CHILD_MEMORY ((uint64_t)256 << 20)
#define CHILD_BUDGET_SEC 10.0

/* ASan reserves terabytes of address space: RLIMIT_AS would stop it. */
#if defined(__SANITIZE_ADDRESS__)
#define MEMORY_LIMITED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEMORY_LIMITED 0
#endif
#endif
#ifndef MEMORY_LIMITED
#define MEMORY_LIMITED 1
#endif

/* Whether name's back-references (S_, S<id>_, T_, T<n>_), each at most
 * doubling what came before, keep its demangled form under
 * IN_PROCESS_BOUND.  Counted wherever they appear, so an identifier that
 * holds one only makes the bound larger. */
static int small_enough(const char *name, size_t len)
{
    uint64_t bound = (uint64_t)len * EXPANSION;
    for (size_t i = 0; i + 1 < len && bound <= IN_PROCESS_BOUND; i++) {
        if (name[i] != 'S' && name[i] != 'T')
            continue;
        size_t j = i + 1;
        while (j < len
               && (isdigit((unsigned char)name[j])
                   || (name[i] == 'S' && isupper((unsigned char)name[j]))))
            j++;
        if (j < len && name[j] == '_')
            bound *= 2;
    }
    return bound <= IN_PROCESS_BOUND;
}

/* One warning per process: a user sees why a name is raw, a hostile
 * capture cannot flood stderr. */
static void note_raw(size_t len, const char *why)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static int said;
    pthread_mutex_lock(&lock);
    int first = !said;
    said = 1;
    pthread_mutex_unlock(&lock);
    if (first)
        ar_diag_warn("a kernel name of %zu bytes is shown mangled: demangling it %s (at most "
                        "%d characters, %.0f s; a demangler bomb?); any other such name is too, "
                        "without a word",
                        len, why, DEMANGLED_MAX, CHILD_TIMEOUT_SEC);
}

/* The demangler's text (malloc'd by it), or NULL. */
static char *demangle_raw(const char *name)
{
    int status = -1;
    char *text = demangler()(name, NULL, NULL, &status);
    if (status != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static void demangle_in_child(void *user, int reply_fd)
{
    char *text = demangle_raw(user);
    if (text)
        ar_child_reply(reply_fd, text, strlen(text));
    free(text);
}

/* Seconds of demangling children left to this process; -1 once spent. */
static int take_budget(double spent)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static double used;
    pthread_mutex_lock(&lock);
    used += spent;
    int left = used < CHILD_BUDGET_SEC;
    pthread_mutex_unlock(&lock);
    return left;
}

/* name demangled in a child, or NULL (with the note when a limit ended it). */
static char *demangle_bounded(const char *name, size_t len)
{
    if (!take_budget(0)) {
        note_raw(len, "is past the time all such names may take");
        return NULL;
    }
    ar_child_spec_t spec = {.fn = demangle_in_child, .user = (void *)name,
                               .timeout_sec = CHILD_TIMEOUT_SEC, .reply_limit = DEMANGLED_MAX,
                               .memory_limit = MEMORY_LIMITED ? CHILD_MEMORY : 0,
                               .flags = AR_CHILD_CAPTURE_OUTPUT};
    ar_child_result_t result;
    double started = ar_clock_monotonic();
    ar_child_run(&spec, &result);
    take_budget(ar_clock_monotonic() - started);
    char *text = NULL;
    if (result.end == AR_CHILD_REPLIED && result.len > 0)
        text = ar_xstrdup(result.reply);
    else if (result.end != AR_CHILD_REPLIED && result.end != AR_CHILD_INTERRUPTED)
        note_raw(len, result.end == AR_CHILD_TOO_MUCH ? "gives too many characters"
                      : result.end == AR_CHILD_TIMED_OUT ? "takes too long"
                                                           : "fails in its child");
    ar_child_result_free(&result);
    return text;
}

char *ar_demangle(const char *name)
{
    if (!name || strncmp(name, "_Z", 2) != 0 || !demangler())
        return NULL;
    size_t len = strlen(name);
    if (len > MANGLED_MAX) {
        note_raw(len, "is not tried past 4096 bytes");
        return NULL;
    }
    if (!small_enough(name, len))
        return demangle_bounded(name, len);
    char *text = demangle_raw(name);
    if (text && strlen(text) > DEMANGLED_MAX) {
        note_raw(len, "gives too many characters");
        free(text);
        return NULL;
    }
    /* Ours to free with free(): __cxa_demangle allocates with malloc. */
    char *copy = text ? ar_xstrdup(text) : NULL;
    free(text);
    return copy;
}

char *ar_kernel_display(const char *name)
{
    char *demangled = ar_demangle(name);
    return demangled ? demangled : ar_xstrdup(name ? name : "");
}

/* text without namespace qualifiers: every "name::" and
 * "(anonymous namespace)::" goes (the full name is one click away). */
static char *drop_qualifiers(const char *text)
{
    static const char anonymous[] = "(anonymous namespace)::";
    char *out = ar_xmalloc(strlen(text) + 1);
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
            return ar_xasprintf("%.*s(...)", (int)(c - text), text);
    }
    return ar_xstrdup(text);
}

/* text with every template argument list nested deeper than keep levels
 * as "<...>", or NULL when the brackets do not balance (operator< and
 * friends): then only the cut applies. */
static char *collapse_templates(const char *display, int keep)
{
    size_t len = strlen(display);
    /* "<>" grows into "<...>": room for that everywhere. */
    char *out = ar_xmalloc(len * 3 + 1);
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

char *ar_kernel_short(const char *display, size_t width)
{
    if (width < 4)
        width = 4;
    char *text = ar_xstrdup(display);
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
    char *cut = ar_xasprintf("%.*s...", (int)keep, text);
    free(text);
    return cut;
}
