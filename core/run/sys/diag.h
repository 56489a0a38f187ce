/* SPDX-License-Identifier: MIT */
/* diag.h - aorta-run's diagnostics: every error and warning it prints goes
 * through here, as one line on stderr ("aorta-run: ..." or "aorta-run:
 * warning: ..."), and so do the collectors' warnings (through the SDK's
 * warning channel).  Beneath it, three error conventions
 * (docs/architecture.md, Rules): the ABI's aorta_error_t; the runner's
 * 0, or -1 with one line in char **error (the caller frees it); POSIX -1
 * with errno, in sys/ only.  A stage prints warnings and its own errors
 * through these functions and returns what happened; only the command
 * layer decides the exit status.  Out of memory stops aorta-run with one
 * line (xalloc.h). */
#ifndef AR_DIAG_H
#define AR_DIAG_H

#include <stdio.h>

#include "aorta/collector.h"

/* Where every line goes: stderr, unless a test or a fuzz harness points
 * them elsewhere (NULL: stderr again). */
void ar_diag_set_stream(FILE *out);
/* "aorta-run: <message>" on stderr: an error that ends the request. */
void ar_diag_error(const char *fmt, ...) AORTA_PRINTF(1, 2);
/* "aorta-run: warning: <message>" on stderr: the run goes on. */
void ar_diag_warn(const char *fmt, ...) AORTA_PRINTF(1, 2);
/* "aorta-run: <message>" on stderr: what the request will do (a plan's
 * power), neither an error nor a warning. */
void ar_diag_note(const char *fmt, ...) AORTA_PRINTF(1, 2);
/* A line another process already wrote as "aorta-run: ..." (a parse
 * child's warning), relayed as it is: len bytes of text, no newline. */
void ar_diag_relay(const char *text, size_t len);
/* The host's warning handler for the SDK (aorta_warning_set_handler()): a
 * collector's aorta_warn() reads "aorta-run: warning: <source>: <message>". */
void ar_diag_collector_warning(const char *source, const char *message, void *user);
/* The error of a report phase stopped by SIGINT or SIGTERM (run_dir as the
 * user named it): what is missing and the command that writes it. */
void ar_diag_reports_interrupted(int sig, const char *run_dir);

#endif
