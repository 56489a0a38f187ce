/* SPDX-License-Identifier: MIT */
/* interpreter.c - which Python runs Proton's command front-end (docs/collectors/proton.md,
 * with docs/design.md, Deviation 1 for the fallback).
 *
 * Precedence: AORTA_PROTON_PYTHON from the command's environment (~ and
 * $VAR expanded there), then argv[0] when it is a Python, then for a bare
 * pytest the interpreter its #! line names, then the first python3 on the
 * command's PATH.  The wrap replaces the command's own interpreter with this
 * one, so guessing wrong would profile a different environment. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proton.h"

/* Python reads at most this much of a #! line (readline(256)). */
#define SHEBANG_MAX 256

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int proton_is_python(const char *path)
{
    char *name = proton_basename(path);
    const char *s = name;
    int match = 0;
    if (strncmp(s, "python", 6) == 0) {
        s += 6;
        if (is_digit(*s)) {
            while (is_digit(*s))
                s++;
            if (*s == '.' && is_digit(s[1]))
                for (s++; is_digit(*s); s++)
                    ;
        }
        match = *s == '\0';
    }
    free(name);
    return match;
}

/* Whether the character of n bytes at s is whitespace to str.split(). */
static int is_space(const char *s, size_t n)
{
    size_t len;
    aorta_text_strip(s, n, &len);
    return len == 0;
}

/* The length of the character that starts with lead, in text known to be
 * valid UTF-8. */
static size_t char_len(unsigned char lead)
{
    return lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

/* The Python a console script's #! line names, or NULL (docs/collectors/proton.md). */
static char *shebang_python(const char *command, const aorta_env_t *env)
{
    char *resolved = aorta_which(command, proton_env_lookup(env, "PATH"));
    if (!resolved)
        return NULL;
    int fd = open(resolved, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    aorta_free(resolved);
    if (fd < 0)
        return NULL;
    char line[SHEBANG_MAX + 1];
    size_t len = 0;
    while (len < SHEBANG_MAX) {
        ssize_t n = read(fd, line + len, SHEBANG_MAX - len);
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    char *newline = memchr(line, '\n', len);
    if (newline)
        len = (size_t)(newline - line) + 1;
    if (len < 2 || line[0] != '#' || line[1] != '!'
        || aorta_utf8_valid_prefix(line + 2, len - 2, NULL, NULL) != len - 2)
        return NULL;
    /* Split the rest on whitespace into at most the two words used. */
    const char *words[2];
    size_t word_len[2], nwords = 0, i = 2;
    while (i < len && nwords < 2) {
        size_t n = char_len((unsigned char)line[i]);
        if (is_space(line + i, n)) {
            i += n;
            continue;
        }
        size_t start = i;
        while (i < len) {
            n = char_len((unsigned char)line[i]);
            if (is_space(line + i, n))
                break;
            i += n;
        }
        words[nwords] = line + start;
        word_len[nwords++] = i - start;
    }
    if (nwords == 0)
        return NULL;
    char *first = cc_xstrndup(words[0], word_len[0]);
    char *base = proton_basename(first);
    /* #!/usr/bin/env python3 names the interpreter in its argument. */
    if (strcmp(base, "env") == 0 && nwords > 1) {
        free(first);
        first = cc_xstrndup(words[1], word_len[1]);
    }
    free(base);
    if (!proton_is_python(first)) {
        free(first);
        return NULL;
    }
    return first;
}

char *proton_resolve_python(const aorta_argv_t *command, const aorta_env_t *env,
                            aorta_error_t *err)
{
    const char *override = proton_env_lookup(env, PROTON_PYTHON_VAR);
    if (override && override[0]) {
        char *expanded = aorta_path_expand(override, env);
        char *out = cc_xstrdup(expanded);
        aorta_free(expanded);
        return out;
    }
    const char *argv0 = aorta_argv_at(command, 0);
    if (proton_is_python(argv0))
        return cc_xstrdup(argv0);
    char *base = proton_basename(argv0);
    int pytest = strcmp(base, "pytest") == 0;
    free(base);
    if (pytest) {
        char *named = shebang_python(argv0, env);
        if (named)
            return named;
    }
    char *fallback = aorta_which("python3", proton_env_lookup(env, "PATH"));
    cc_buf_t msg = {0};
    if (!fallback) {
        cc_buf_adds(&msg, "proton mode 'cli' found no python3 on $PATH to run Proton's "
                              "front-end under for ");
        cc_buf_add_repr(&msg, argv0, strlen(argv0));
        cc_buf_adds(&msg, ". Set " PROTON_PYTHON_VAR " to the Python that has Triton "
                              "installed, or launch the workload as '<python> <script.py> "
                              "...'.");
        char *text = cc_buf_take(&msg);
        aorta_error_set(err, "%s", text);
        free(text);
        return NULL;
    }
    if (pytest) {
        cc_buf_adds(&msg, "could not read an interpreter from ");
        cc_buf_add_repr(&msg, argv0, strlen(argv0));
        cc_buf_addf(&msg, "; running Proton under %s instead. Set $" PROTON_PYTHON_VAR
                              " if that is the wrong environment.",
                        fallback);
        char *text = cc_buf_take(&msg);
        aorta_warn("proton", "%s", text);
        free(text);
    }
    char *out = cc_xstrdup(fallback);
    aorta_free(fallback);
    return out;
}
