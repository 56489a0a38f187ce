/* SPDX-License-Identifier: MIT */
/* progress.h - -v progress lines on stderr: "[HH:MM:SS] message". */
#ifndef AR_PROGRESS_H
#define AR_PROGRESS_H

#include "aorta/collector.h"

/* Print one progress line when verbose is set. */
void ar_progress(int verbose, const char *fmt, ...) AORTA_PRINTF(2, 3);

#endif
