/* SPDX-License-Identifier: MIT */
/* verdict.c - a family of measures judged: each one's test and effect,
 * Holm's correction across the family, then each verdict by the rules in
 * stats.h, and for an inconclusive one the trials per side that would
 * settle it at the observed spread. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "stats/internal.h"
#include "stats/stats.h"

const char *ar_verdict_name(ar_verdict_t verdict)
{
    static const char *const names[] = {"unchanged", "regressed", "improved", "inconclusive",
                                        "incomparable"};
    return (unsigned)verdict < sizeof names / sizeof *names ? names[verdict] : "unknown";
}

const char *ar_stats_status_text(ar_stats_status_t status)
{
    switch (status) {
    case AR_STATS_OK: return "ok";
    case AR_STATS_NOT_FINITE: return "a value is not a finite number";
    case AR_STATS_BAD_OPTION: return "alpha must lie between 0 and 1, the thresholds be at least 0";
    case AR_STATS_NO_MEMORY: return "out of memory";
    }
    return "unknown error";
}

static int options_valid(const ar_stats_options_t *o)
{
    return o->alpha > 0.0 && o->alpha < 1.0 && o->threshold_pct >= 0.0
           && isfinite(o->threshold_pct) && o->min_delta >= 0.0 && isfinite(o->min_delta);
}

static int finite_all(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return 0;
    return 1;
}

/* The interval's count depends on the sizes alone; a family's measures
 * mostly share them. */
typedef struct critical_cache {
    size_t m, n, critical;
    int valid;
} critical_cache_t;

static size_t critical_for(critical_cache_t *cache, size_t m, size_t n)
{
    if (!cache->valid || cache->m != m || cache->n != n)
        *cache = (critical_cache_t){m, n, ar_u_critical(m, n, AR_STATS_CI_LEVEL), 1};
    return cache->critical;
}

/* The test and the effect of one measure, before the family's correction. */
static ar_stats_status_t test_one(const ar_stats_measure_t *m, critical_cache_t *cache,
                                     ar_stats_result_t *r)
{
    *r = (ar_stats_result_t){.n_a = m->n_a, .n_b = m->n_b, .u = NAN, .p_raw = NAN,
                                .p_value = NAN, .effect_pct = NAN, .ci_low_pct = NAN,
                                .ci_high_pct = NAN, .effect_abs = NAN, .ci_low_abs = NAN,
                                .ci_high_abs = NAN, .verdict = AR_VERDICT_INCONCLUSIVE,
                                .gated = m->gated};
    if (m->n_a == 0 || m->n_b == 0)
        return AR_STATS_OK; /* no test; the values were checked finite */
    double *sorted = ar_sorted_copy(m->a, m->n_a, m->b, m->n_b);
    if (!sorted)
        return AR_STATS_NO_MEMORY;
    ar_stats_mwu_t mwu;
    ar_stats_mwu_sorted(sorted, m->n_a, sorted + m->n_a, m->n_b, &mwu);
    r->u = mwu.u;
    r->exact = mwu.exact;
    r->p_raw = mwu.p;
    ar_stats_effect_t effect;
    ar_stats_status_t status = ar_stats_effect_sorted(
        sorted, m->n_a, sorted + m->n_a, m->n_b, critical_for(cache, m->n_a, m->n_b), &effect);
    free(sorted);
    if (status != AR_STATS_OK)
        return status;
    r->log_scale = effect.log_scale;
    r->effect_pct = effect.effect_pct;
    r->ci_low_pct = effect.ci_low_pct;
    r->ci_high_pct = effect.ci_high_pct;
    r->effect_abs = effect.effect_abs;
    r->ci_low_abs = effect.ci_low_abs;
    r->ci_high_abs = effect.ci_high_abs;
    r->spread = effect.spread;
    return AR_STATS_OK;
}

/* What a family shares: its size, and the trials that can reach alpha in it. */
typedef struct family {
    const ar_stats_options_t *options;
    size_t size, reach;
    double z_test; /* the normal quantile of alpha / (2 * size) */
} family_t;

static size_t at_least(size_t value, double bound)
{
    if (!(bound < (double)AR_STATS_TRIALS_MAX))
        return AR_STATS_TRIALS_MAX;
    size_t rounded = (size_t)ceil(bound);
    return rounded > value ? rounded : value;
}

/* Per side, both sides equal: the Hodges-Lehmann estimate's variance is
 * about (pi/3) s^2 (1/n + 1/n) for a spread s on the effect's scale.  The
 * 95% interval clears the threshold boundary nearest the estimate e when
 * its half-width 1.96 sqrt(2 pi/3 / n) s is below that distance d; a change
 * past the threshold also needs the test to reach alpha after the
 * correction: z sqrt(2 pi/3 / n) s below |e|. */
static size_t trials_needed(const ar_stats_result_t *r, const family_t *f)
{
    size_t larger = r->n_a > r->n_b ? r->n_a : r->n_b;
    size_t n = at_least(larger + 1, (double)f->reach);
    double t = f->options->threshold_pct / 100.0, s = r->spread;
    double e = r->log_scale ? log1p(r->effect_pct / 100.0) : r->effect_pct / 100.0;
    double up = r->log_scale ? log1p(t) : t;
    double low = !r->log_scale ? -t : t < 1.0 ? log1p(-t) : -INFINITY;
    if (!isfinite(s) || !isfinite(e))
        return n;
    double d = fmin(fabs(e - up), fabs(e - low)), k = 2.0 * M_PI / 3.0 * s * s;
    double z95 = ar_normal_isf((1.0 - AR_STATS_CI_LEVEL) / 2.0);
    if (k > 0.0)
        n = at_least(n, d > 0.0 ? k * (z95 / d) * (z95 / d) : INFINITY);
    if (k > 0.0 && (e > up || e < low))
        n = at_least(n, k * (f->z_test / e) * (f->z_test / e));
    return n;
}

static void decide(ar_stats_result_t *r, const ar_stats_measure_t *m, const family_t *f)
{
    const ar_stats_options_t *o = f->options;
    if (isnan(r->p_raw)) {
        r->trials_needed = f->reach;
        return; /* inconclusive: a side is empty */
    }
    r->reachable = (double)f->size * ar_stats_min_p(r->n_a, r->n_b) < o->alpha;
    r->significant = r->p_value < o->alpha;
    r->practical = fabs(r->effect_pct) > o->threshold_pct && fabs(r->effect_abs) > o->min_delta;
    int inside = (r->ci_low_pct >= -o->threshold_pct && r->ci_high_pct <= o->threshold_pct)
                 || (r->ci_low_abs >= -o->min_delta && r->ci_high_abs <= o->min_delta);
    if (!r->reachable)
        r->verdict = AR_VERDICT_INCONCLUSIVE;
    else if (r->significant && r->practical && m->better == AR_STATS_BETTER_NONE) {
        r->verdict = AR_VERDICT_INCONCLUSIVE;
        r->trials_needed = 0; /* changed, but neither better nor worse */
        return;
    } else if (r->significant && r->practical)
        r->verdict = (r->effect_pct > 0) == (m->better == AR_STATS_BETTER_LOWER)
                         ? AR_VERDICT_REGRESSED
                         : AR_VERDICT_IMPROVED;
    else if (r->significant || inside)
        r->verdict = AR_VERDICT_UNCHANGED;
    else
        r->verdict = AR_VERDICT_INCONCLUSIVE;
    r->trials_needed = r->verdict == AR_VERDICT_INCONCLUSIVE ? trials_needed(r, f) : 0;
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
    critical_cache_t cache = {0, 0, 0, 0};
    for (size_t i = 0; i < count && status == AR_STATS_OK; i++)
        if ((status = test_one(&measures[i], &cache, &results[i])) != AR_STATS_OK)
            *bad = i;
    double *p = status == AR_STATS_OK ? calloc(count ? count : 1, sizeof *p) : NULL;
    if (status == AR_STATS_OK && !p)
        status = AR_STATS_NO_MEMORY;
    if (status != AR_STATS_OK) {
        *bad = status == AR_STATS_NO_MEMORY ? count : *bad;
        return status;
    }
    family_t family = {options, 0, 0, 0.0};
    for (size_t i = 0; i < count; i++) {
        p[i] = results[i].p_raw;
        family.size += !isnan(p[i]);
    }
    status = ar_stats_holm(p, count, p);
    for (size_t i = 0; i < count && status == AR_STATS_OK; i++)
        results[i].p_value = p[i];
    free(p);
    if (status != AR_STATS_OK)
        return status;
    family.reach = ar_stats_trials_to_reach(options->alpha, family.size);
    family.z_test = ar_normal_isf(options->alpha / (2.0 * (double)(family.size ? family.size : 1)));
    for (size_t i = 0; i < count; i++)
        decide(&results[i], &measures[i], &family);
    return AR_STATS_OK;
}
