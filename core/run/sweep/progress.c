/* SPDX-License-Identifier: MIT */
/* progress.c - -v progress lines on stderr (local time, as upstream's
 * logging prints them). */
#include "config.h"

#include "sweep/progress.h"

#include "sys/live.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sys/text_escape.h"
#include "xalloc.h"

void ar_progress(int verbose, const char *fmt, ...)
{
    if (!verbose)
        return;
    time_t now = time(NULL);
    struct tm tm;
    char stamp[16] = "??:??:??";
    if (localtime_r(&now, &tm))
        strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
    va_list args;
    va_start(args, fmt);
    char *message = ar_xvasprintf(fmt, args);
    va_end(args);
    /* Cell names and reasons with their controls shown visibly. */
    char *shown = ar_text_escape(message);
    ar_live_suspend();
    fprintf(stderr, "[%s] %s\n", stamp, shown);
    ar_live_resume();
    free(shown);
    free(message);
}
