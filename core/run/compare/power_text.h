/* SPDX-License-Identifier: MIT */
/* power_text.h - a plan's design and what it can decide, in one line. */
#ifndef AR_POWER_TEXT_H
#define AR_POWER_TEXT_H

#include "recipe/plan.h"
#include "stats/stats.h"

/* "design: 6 cell(s) x 5 trial(s), alpha 0.01, threshold 5%: against a run
 * of the same design it detects a GPU-time regression of +7.9% at CV 1%,
 * +25.3% at CV 3% (80% of the time)", with "; fewer than 3 passing trials a
 * side give no verdict" below 3 trials.  Free it. */
char *ar_power_statement(const ar_plan_t *plan, const ar_stats_options_t *options);

#endif
