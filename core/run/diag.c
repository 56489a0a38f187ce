/* SPDX-License-Identifier: MIT */
/* diag.c - aorta-run's one-line errors and warnings (diag.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"

#include "sweep/live.h"

static void line(FILE *out, const char *kind, const char *fmt, va_list args)
{
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
        aorta_live_suspend();
    fprintf(out, "aorta-run: %s%s\n", kind, message ? message : "(message lost: out of memory)");
    fflush(out);
    if (out == stderr)
        aorta_live_resume();
    free(message);
}

void aorta_diag_error(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    line(stderr, "", fmt, args);
    va_end(args);
}

void aorta_diag_warn(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    line(stderr, "warning: ", fmt, args);
    va_end(args);
}

void aorta_diag_warn_to(FILE *out, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    line(out, "warning: ", fmt, args);
    va_end(args);
}

/* aorta_warn() of the collectors, through the host's channel. */
void aorta_diag_collector_warning(const char *source, const char *message, void *user)
{
    (void)user;
    aorta_diag_warn("%s: %s", source, message);
}
