/* SPDX-License-Identifier: MIT */
/* diag.c - aorta-run's one-line errors and warnings (diag.h). */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/diag.h"

#include "sys/live.h"
#include "sys/text_escape.h"
#include "xalloc.h"

/* Where the lines go; NULL: stderr. */
static FILE *stream;

void ar_diag_set_stream(FILE *out)
{
    stream = out;
}

static void line(const char *kind, const char *fmt, va_list args)
{
    FILE *out = stream ? stream : stderr;
    /* The whole line in one write, so the lines of concurrent processes
     * (ranks, parse children) do not interleave mid-line. */
    va_list again;
    va_copy(again, args);
    int len = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    char *message = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (message)
        vsnprintf(message, (size_t)len + 1, fmt, args);
    /* The live progress line steps aside for the message. */
    if (out == stderr)
        ar_live_suspend();
    /* A name in the message shows its controls visibly: one line stays
     * one line, and nothing in it reaches the terminal as a control. */
    char *shown = message ? ar_text_escape(message) : NULL;
    fprintf(out, "aorta-run: %s%s\n", kind, shown ? shown : "(message lost: out of memory)");
    fflush(out);
    if (out == stderr)
        ar_live_resume();
    free(shown);
    free(message);
}

void ar_diag_error(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    line("", fmt, args);
    va_end(args);
}

void ar_diag_note(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    line("", fmt, args);
    va_end(args);
}

void ar_diag_relay(const char *text, size_t len)
{
    FILE *out = stream ? stream : stderr;
    if (out == stderr)
        ar_live_suspend();
    fprintf(out, "%.*s\n", (int)len, text);
    fflush(out);
    if (out == stderr)
        ar_live_resume();
}

void ar_diag_warn(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    line("warning: ", fmt, args);
    va_end(args);
}

/* text as one shell word: itself when nothing in it is special, else in
 * single quotes (a quote inside as '\''). */
static char *shell_word(const char *text)
{
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
                                "/._-+,:@%=";
    if (text[0] && strspn(text, plain) == strlen(text))
        return ar_xstrdup(text);
    char *word = ar_xmalloc(strlen(text) * 4 + 3);
    char *cursor = word;
    *cursor++ = '\'';
    for (const char *c = text; *c; c++) {
        if (*c == '\'') {
            memcpy(cursor, "'\\''", 4);
            cursor += 4;
        } else {
            *cursor++ = *c;
        }
    }
    *cursor++ = '\'';
    *cursor = '\0';
    return word;
}

void ar_diag_reports_interrupted(int sig, const char *run_dir)
{
    char *quoted = shell_word(run_dir);
    ar_diag_error("the reports were interrupted by %s: perf.md, report.html and the cells' "
                     "kernels.json are not all written; 'aorta-run --report %s' writes them",
                     sig == SIGTERM ? "SIGTERM" : "SIGINT", quoted);
    free(quoted);
}

/* aorta_warn() of the collectors, through the host's channel. */
void ar_diag_collector_warning(const char *source, const char *message, void *user)
{
    (void)user;
    ar_diag_warn("%s: %s", source, message);
}
