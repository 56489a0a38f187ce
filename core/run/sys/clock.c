/* SPDX-License-Identifier: MIT */
/* clock.c - the run's timestamps and its monotonic clock. */
#include "config.h"

#include "sys/clock.h"

#include <stdio.h>

/* strftime with a literal format each (-Wformat-nonliteral). */
void ar_clock_iso_utc(time_t when, char out[AR_CLOCK_TEXT])
{
    struct tm tm;
    if (!gmtime_r(&when, &tm) || strftime(out, AR_CLOCK_TEXT, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        out[0] = '\0';
}

void ar_clock_iso_utc_ms(double wall, char out[AR_CLOCK_TEXT])
{
    time_t seconds = (time_t)wall;
    long ms = (long)((wall - (double)seconds) * 1000.0);
    if (ms < 0 || ms > 999)
        ms = 0;
    struct tm tm;
    char text[AR_CLOCK_TEXT];
    if (!gmtime_r(&seconds, &tm) || strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
        out[0] = '\0';
    else
        snprintf(out, AR_CLOCK_TEXT, "%.20s.%03ldZ", text, ms);
}

void ar_clock_stamp_utc(time_t when, char out[AR_CLOCK_TEXT])
{
    struct tm tm;
    if (!gmtime_r(&when, &tm) || strftime(out, AR_CLOCK_TEXT, "%Y-%m-%dT%H-%M-%S", &tm) == 0)
        out[0] = '\0';
}

double ar_clock_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double ar_clock_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
