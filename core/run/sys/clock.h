/* SPDX-License-Identifier: MIT */
/* clock.h - the run's timestamps and its monotonic clock. */
#ifndef AR_CLOCK_H
#define AR_CLOCK_H

#include <time.h>

#define AR_CLOCK_TEXT 32

/* "2026-06-01T10:00:00Z" (UTC). */
void ar_clock_iso_utc(time_t when, char out[AR_CLOCK_TEXT]);
/* "2026-06-01T10:00:00.123Z" (UTC, to the millisecond) of a wall-clock time
 * (ar_clock_wall()): when a trial started. */
void ar_clock_iso_utc_ms(double wall, char out[AR_CLOCK_TEXT]);
/* "2026-06-01T10-00-00" (UTC): matrix.json's run_timestamp. */
void ar_clock_stamp_utc(time_t when, char out[AR_CLOCK_TEXT]);
/* Seconds since the epoch on CLOCK_REALTIME, with their fraction. */
double ar_clock_wall(void);

/* Seconds on CLOCK_MONOTONIC. */
double ar_clock_monotonic(void);

#endif
