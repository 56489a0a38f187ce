/* SPDX-License-Identifier: MIT */
/* knobs.h - aorta-run's AORTA_* environment variables, each read one way.
 *
 * Three kinds: seconds, sizes (bytes, or with a K, M or G suffix) and
 * counts.  A value that is not what its knob takes is never an error: one
 * warning names the variable, the value and the value used instead (once
 * per value, however often the knob is read), and the fallback applies.  An
 * empty number counts as unset.  Variables are read with secure_getenv():
 * a set-user-ID aorta-run takes none of them.  Every knob is listed in
 * aorta-run(1), ENVIRONMENT (tests/docs/check-knobs.sh holds the two
 * together). */
#ifndef AR_KNOBS_H
#define AR_KNOBS_H

#include <stdint.h>

/* The variable's value as it is (a path list may be empty on purpose),
 * borrowed; NULL when it is unset (or in secure execution). */
const char *ar_knob_text(const char *name);

/* Seconds at most this: longer is not a timeout but a typo. */
#define AR_KNOB_SECONDS_MAX 1e9
/* ar_knob_seconds(): 0 is a value too (a grace period may be none). */
#define AR_KNOB_ZERO_OK 1

/* A number of seconds as strtod() reads it (the whole value), finite, > 0
 * (>= 0 with AR_KNOB_ZERO_OK) and at most AR_KNOB_SECONDS_MAX; else
 * fallback. */
double ar_knob_seconds(const char *name, double fallback, int flags);

/* Bytes: decimal digits, optionally followed by one K, M or G (either
 * case) for 2^10, 2^20 or 2^30; more than 0 and at most 2^64 - 1; else
 * fallback. */
uint64_t ar_knob_size(const char *name, uint64_t fallback);

/* Counts at most this: a larger one is a typo or a hostile environment,
 * and must not size a loop or an allocation. */
#define AR_KNOB_COUNT_MAX 1024
#define AR_KNOB_COUNT_MAX_TEXT "1024"

/* A count: decimal digits, more than 0; more than AR_KNOB_COUNT_MAX
 * (however many digits) gives AR_KNOB_COUNT_MAX with a warning; else
 * fallback. */
long ar_knob_count(const char *name, long fallback);

#endif
