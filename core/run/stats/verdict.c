/* SPDX-License-Identifier: MIT */
/* verdict.c - a family of measures judged: each one's Welch test and
 * effect, Holm's correction across the family, then each verdict against
 * the practical threshold delta by the rules in stats.h, and for an
 * inconclusive one the trials per side that would settle it at the
 * observed spread. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "stats/internal.h"
#include "stats/stats.h"

const char *ar_verdict_name(ar_verdict_t verdict)
{
    static const char *const names[] = {"unchanged",    "regressed", "improved",
                                        "inconclusive", "not gated", "incomparable",
                                        "no data",      "added",     "removed"};
    return (unsigned)verdict < sizeof names / sizeof *names ? names[verdict] : "unknown";
}

const char *ar_stats_status_text(ar_stats_status_t status)
{
    switch (status) {
    case AR_STATS_OK: return "ok";
    case AR_STATS_NOT_FINITE: return "a value is not a finite number";
    case AR_STATS_BAD_OPTION:
        return "alpha must lie between 0 and 0.5, the thresholds be at least 0";
    case AR_STATS_NO_MEMORY: return "out of memory";
    }
    return "unknown error";
}

double ar_stats_ci_level(const ar_stats_options_t *options)
{
    return 1.0 - 2.0 * options->alpha;
}

static int options_valid(const ar_stats_options_t *o)
{
    return o->alpha > 0.0 && o->alpha < 0.5 && o->threshold_pct >= 0.0
           && isfinite(o->threshold_pct) && o->min_delta >= 0.0 && isfinite(o->min_delta);
}

static int finite_all(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* The test and the effect of one measure, before the family's correction. */
static void test_one(const ar_stats_measure_t *m, double level, ar_stats_result_t *r)
{
    *r = (ar_stats_result_t){.n_a = m->n_a, .n_b = m->n_b, .t = NAN, .df = NAN,
                             .p_raw = NAN, .p_value = NAN, .effect_pct = NAN,
                             .ci_low_pct = NAN, .ci_high_pct = NAN, .effect_abs = NAN,
                             .ci_low_abs = NAN, .ci_high_abs = NAN, .spread = NAN,
                             .verdict = AR_VERDICT_INCONCLUSIVE, .gated = m->gated};
    if (m->n_a < AR_STATS_MIN_TRIALS || m->n_b < AR_STATS_MIN_TRIALS)
        return; /* too few for any verdict */
    ar_stats_welch_t w;
    ar_stats_welch(m->a, m->n_a, m->b, m->n_b, level, &w);
    r->t = w.t;
    r->df = w.df;
    r->p_raw = w.p;
    r->log_scale = w.log_scale;
    r->effect_pct = w.effect_pct;
    r->ci_low_pct = w.ci_low_pct;
    r->ci_high_pct = w.ci_high_pct;
    r->effect_abs = w.effect_abs;
    r->ci_low_abs = w.ci_low_abs;
    r->ci_high_abs = w.ci_high_abs;
    r->spread = w.spread;
}

static size_t at_least(size_t value, double bound)
{
    if (!(bound < (double)AR_STATS_TRIALS_MAX))
        return AR_STATS_TRIALS_MAX;
    size_t rounded = (size_t)ceil(bound);
    return rounded > value ? rounded : value;
}

/* Per side, both sides equal, at spread s of the log values: the interval's
 * half-width is about z s sqrt(2 / n) with z the one-sided 1 - alpha
 * quantile; it clears the boundary nearest the estimate e when that is
 * below their distance d.  A change past a boundary also needs the test to
 * reach alpha after the family's correction: z_f s sqrt(2 / n) below |e|. */
static size_t trials_needed(const ar_stats_result_t *r, const ar_stats_options_t *o,
                            size_t family)
{
    size_t larger = r->n_a > r->n_b ? r->n_a : r->n_b;
    size_t n = larger + 1 > AR_STATS_MIN_TRIALS ? larger + 1 : AR_STATS_MIN_TRIALS;
    double t = o->threshold_pct / 100.0, s = r->spread;
    double e = log1p(r->effect_pct / 100.0);
    double up = log1p(t), low = t < 1.0 ? log1p(-t) : -INFINITY;
    if (!r->log_scale || !isfinite(s) || !isfinite(e) || !(s > 0.0))
        return n;
    double k = 2.0 * s * s;
    if (e > up || e < low) {
        double z_f = ar_normal_isf(o->alpha / (2.0 * (double)(family ? family : 1)));
        return at_least(n, k * (z_f / e) * (z_f / e));
    }
    double d = fmin(up - e, e - low), z = ar_normal_isf(o->alpha);
    return at_least(n, d > 0.0 ? k * (z / d) * (z / d) : INFINITY);
}

static void decide(ar_stats_result_t *r, const ar_stats_measure_t *m,
                   const ar_stats_options_t *o, size_t family)
{
    if (m->better == AR_STATS_BETTER_NONE) {
        r->verdict = AR_VERDICT_NOT_GATED; /* no number of trials says better or worse */
        r->significant = r->p_value < o->alpha;
        return;
    }
    if (isnan(r->p_raw)) {
        r->trials_needed = AR_STATS_MIN_TRIALS;
        return; /* inconclusive: too few trials for any test */
    }
    double delta = o->threshold_pct;
    int floor_past = fabs(r->effect_abs) > o->min_delta;
    int past_up = r->effect_pct > delta && floor_past;
    int past_down = r->effect_pct < -delta && floor_past;
    int lower = m->better == AR_STATS_BETTER_LOWER;
    r->significant = r->p_value < o->alpha;
    r->practical = past_up || past_down;
    int inside = (r->ci_low_pct >= -delta && r->ci_high_pct <= delta)
                 || (r->ci_low_abs >= -o->min_delta && r->ci_high_abs <= o->min_delta);
    if (r->significant && (lower ? past_up : past_down))
        r->verdict = AR_VERDICT_REGRESSED;
    else if (r->significant && (lower ? past_down : past_up))
        r->verdict = AR_VERDICT_IMPROVED;
    else if (inside)
        r->verdict = AR_VERDICT_UNCHANGED;
    else
        r->verdict = AR_VERDICT_INCONCLUSIVE;
    r->trials_needed = r->verdict == AR_VERDICT_INCONCLUSIVE ? trials_needed(r, o, family) : 0;
}

static ar_stats_status_t check(const ar_stats_measure_t *measures, size_t count,
                               const ar_stats_options_t *options, size_t *bad)
{
    if (!options || !options_valid(options)) {
        *bad = count;
        return AR_STATS_BAD_OPTION;
    }
    for (size_t i = 0; i < count; i++)
        if (!finite_all(measures[i].a, measures[i].n_a)
            || !finite_all(measures[i].b, measures[i].n_b)) {
            *bad = i;
            return AR_STATS_NOT_FINITE;
        }
    return AR_STATS_OK;
}

ar_stats_status_t ar_stats_judge(const ar_stats_measure_t *measures, size_t count,
                                 const ar_stats_options_t *options,
                                 ar_stats_result_t *results, size_t *bad)
{
    size_t bad_local;
    bad = bad ? bad : &bad_local;
    ar_stats_status_t status = check(measures, count, options, bad);
    if (status != AR_STATS_OK)
        return status;
    double level = ar_stats_ci_level(options);
    for (size_t i = 0; i < count; i++)
        test_one(&measures[i], level, &results[i]);
    double *p = calloc(count ? count : 1, sizeof *p);
    if (!p) {
        *bad = count;
        return AR_STATS_NO_MEMORY;
    }
    size_t family = 0;
    for (size_t i = 0; i < count; i++) {
        p[i] = results[i].p_raw;
        family += !isnan(p[i]);
    }
    status = ar_stats_holm(p, count, p);
    for (size_t i = 0; i < count && status == AR_STATS_OK; i++)
        results[i].p_value = p[i];
    free(p);
    if (status != AR_STATS_OK)
        return status;
    for (size_t i = 0; i < count; i++)
        decide(&results[i], &measures[i], options, family);
    return AR_STATS_OK;
}
