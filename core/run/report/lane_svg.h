/* SPDX-License-Identifier: MIT */
/* lane_svg.h - a trial's timeline as a lane chart for report.html: an
 * inline SVG, one lane per rank and track, read without a script. */
#ifndef AR_LANE_SVG_H
#define AR_LANE_SVG_H

#include <stddef.h>

/* Pixel columns of the time axis: each lane has at most one rectangle a
 * column (the kernel that covers most of it), so 64 ranks of 10,000
 * dispatches draw as at most lanes x columns rectangles. */
#define AR_LANE_COLUMNS 600
/* Lanes drawn at most (the rest are named in a note). */
#define AR_LANE_MAX 256
/* Kernels with a colour of their own in the legend; the rest are grey. */
#define AR_LANE_COLOURS 8
/* The largest timeline read back for the chart. */
#define AR_LANE_MAX_BYTES (512u << 20)

/* The chart of the timeline text (what record/timeline.c writes: an event a
 * line; lines of another shape are skipped): an <svg> element with a
 * <title> per lane, then a legend of the kernels with a colour, as HTML.
 * NULL when it holds no complete event.  Free it. */
char *ar_lane_svg(const char *text, size_t len);

/* The same for the timeline file name below dir_fd (never through a
 * symlink); NULL when there is none or it cannot be read. */
char *ar_lane_svg_at(int dir_fd, const char *name);

#endif
