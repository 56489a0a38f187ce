/* SPDX-License-Identifier: MIT */
/* live.h - the sweep's progress on stderr, on by default, off with -q.
 *
 * On a terminal: one line that rewrites itself (cell i/N, trial j/M,
 * elapsed, ETA, the verdict counts so far), cut to the terminal's width.  Elsewhere (CI logs, a pipe):
 * one plain line per finished trial, at most one a second, the first and
 * the last always; never a control character. */
#ifndef AR_LIVE_H
#define AR_LIVE_H

#include <stddef.h>
#include <stdio.h>

/* Start the display for cells x trials_per_cell trials on out; fd is out's
 * descriptor (asked whether it is a terminal).  quiet turns everything off. */
void ar_live_begin(FILE *out, int fd, int quiet, size_t cells, long trials_per_cell);
/* Trial `trial` (0-based) of cell `cell` (0-based, named name) starts. */
void ar_live_trial_start(size_t cell, const char *name, long trial);
/* The trial that started last finished with verdict after sec seconds. */
void ar_live_trial_done(const char *verdict, double sec);
/* The cell ran `ran` trials of its budget (fewer: stop_after or resumed). */
void ar_live_cell_done(long ran);
/* The sweep is over: the last line is printed (and the live line ended). */
void ar_live_end(void);

/* Cut text (UTF-8, no control character) in place to at most columns
 * terminal columns, never inside a character (East Asian wide ones and
 * emoji count two).  Returns the columns it takes. */
size_t ar_live_fit(char *text, size_t columns);

/* Take the live line off the terminal before another line is printed on
 * stderr, and put it back after; no-ops elsewhere. */
void ar_live_suspend(void);
void ar_live_resume(void);

#endif
