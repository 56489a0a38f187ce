/* SPDX-License-Identifier: MIT */
/* progress.c - -v progress lines on stderr (local time, as upstream's
 * logging prints them). */
#include "config.h"

#include "sweep/progress.h"

#include "sys/live.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

void aorta_progress(int verbose, const char *fmt, ...)
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
    aorta_live_suspend();
    fprintf(stderr, "[%s] ", stamp);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    aorta_live_resume();
    va_end(args);
}
