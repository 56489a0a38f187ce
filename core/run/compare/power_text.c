/* SPDX-License-Identifier: MIT */
/* power_text.c - what a plan's design can decide, said before any GPU hour
 * is spent (--dry-run, and a run's first line): the smallest regression of
 * a collector's GPU time that a comparison with a run of the same design
 * detects, at a CV of 1% and 3%, and that fewer than 3 passing trials a
 * side give no verdict. */
#include "config.h"

#include "compare/power_text.h"

#include <math.h>

#include "compare/verdicts.h"
#include "stats/stats.h"
#include "xalloc.h"

/* The power a detectable change is stated at. */
#define AR_POWER 0.8

static void percent_text(char *out, size_t size, double pct)
{
    if (isinf(pct))
        snprintf(out, size, "none");
    else
        snprintf(out, size, "+%.1f%%", pct);
}

char *ar_power_statement(const ar_plan_t *plan, const ar_stats_options_t *options)
{
    size_t trials = plan->trials > 0 ? (size_t)plan->trials : 0;
    size_t collectors = plan->collector_count ? plan->collector_count : 1;
    /* Compared with a run of the same design: a GPU time per cell and
     * collector in the gate's family. */
    size_t family = plan->cell_count * collectors;
    char at1[32], at3[32];
    percent_text(at1, sizeof at1,
                 ar_stats_detectable_pct(trials, 0.01, family, AR_POWER, options));
    percent_text(at3, sizeof at3,
                 ar_stats_detectable_pct(trials, 0.03, family, AR_POWER, options));
    const char *few = trials < AR_STATS_MIN_TRIALS
                          ? "; fewer than 3 passing trials a side give no verdict"
                          : "";
    return ar_xasprintf("design: %zu cell(s) x %zu trial(s), alpha %g, threshold %g%%: "
                        "against a run of the same design it detects a GPU-time "
                        "regression of %s at CV 1%%, %s at CV 3%% (80%% of the time)%s",
                        plan->cell_count, trials, options->alpha, options->threshold_pct, at1,
                        at3, few);
}
