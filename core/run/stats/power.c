/* SPDX-License-Identifier: MIT */
/* power.c - what a design can decide before any GPU hour is spent: the
 * smallest regression it detects, and the trials an unchanged measure
 * needs for the gate to pass it.  Both on the log scale of Welch's test
 * with equal sizes and spreads (df = 2n - 2), a coefficient of variation
 * cv being a lognormal spread of sqrt(log(1 + cv^2)). */
#include "config.h"

#include <math.h>

#include "stats/stats.h"

static double log_spread(double cv)
{
    return sqrt(log1p(cv * cv));
}

double ar_stats_detectable_pct(size_t n, double cv, size_t family, double power,
                               const ar_stats_options_t *options)
{
    if (n < AR_STATS_MIN_TRIALS || !(cv > 0.0) || !(power > 0.0 && power < 1.0))
        return INFINITY;
    double df = 2.0 * (double)n - 2.0, se = log_spread(cv) * sqrt(2.0 / (double)n);
    /* Significant after the family's correction (its worst step, Bonferroni),
     * and the estimate past delta, each with the power asked for. */
    double critical = ar_t_isf(options->alpha / (2.0 * (double)(family ? family : 1)), df);
    double margin = ar_t_isf(1.0 - power, df);
    double significant = se * (critical + margin);
    double past = log1p(options->threshold_pct / 100.0) + margin * se;
    return 100.0 * expm1(fmax(significant, past));
}

size_t ar_stats_trials_to_pass(double cv, double power, const ar_stats_options_t *options)
{
    double limit = log1p(options->threshold_pct / 100.0), s = log_spread(cv);
    for (size_t n = AR_STATS_MIN_TRIALS; n < AR_STATS_TRIALS_MAX; n++) {
        double df = 2.0 * (double)n - 2.0, se = s * sqrt(2.0 / (double)n);
        /* The upper bound d + t se stays below the limit when the estimate
         * d, centred on 0, is below limit - t se with probability power. */
        if (se * (ar_t_isf(options->alpha, df) + ar_t_isf(1.0 - power, df)) < limit)
            return n;
    }
    return AR_STATS_TRIALS_MAX;
}
