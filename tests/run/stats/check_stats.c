/* SPDX-License-Identifier: MIT */
/* The statistics module (core/run/stats) on known values: Student's t
 * quantiles and tails and Welch's test against scipy's values (scipy 1.10,
 * scipy.stats.ttest_ind(log b, log a, equal_var=False)), Holm on families
 * computed by hand, the summaries on identical samples, each verdict at its
 * boundaries against the threshold, and the power figures against their
 * formulas.  The random differential test against scipy is
 * scipy_reference.py. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/internal.h"
#include "stats/stats.h"
#include "testutil.h"

#define N_OF(array) (sizeof(array) / sizeof *(array))

static void assert_close(double got, double want, double tolerance)
{
    ck_assert_msg(fabs(got - want) <= tolerance, "got %.17g, want %.17g (+-%g)", got, want,
                  tolerance);
}

static void assert_rel(double got, double want, double relative)
{
    assert_close(got, want, relative * fabs(want));
}

/* ---- Student's t and Welch's test --------------------------------------- */

START_TEST(t_quantiles_and_tails_match_scipy)
{
    /* scipy.stats.t.isf(p, df) (cephes' stdtrit, good to about 1e-9: its
     * 2.896459442760523 for (0.01, 8) has t.sf 0.0100000000759 by scipy's
     * own betainc) and 2 * t.sf(t, df); the quantile is held to its tail
     * exactly. */
    static const double p[] = {0.025, 0.01, 0.005, 1e-6}, df[] = {10, 8, 3.5, 4};
    static const double scipy[] = {2.2281388519649385, 2.896459442760523, 5.085702223526867,
                                   41.577854150453575};
    for (size_t i = 0; i < N_OF(p); i++) {
        assert_rel(ar_t_isf(p[i], df[i]), scipy[i], 1e-8);
        assert_rel(ar_t_two_sided(ar_t_isf(p[i], df[i]), df[i]), 2.0 * p[i], 1e-13);
    }
    assert_rel(ar_t_two_sided(2.0, 5), 0.10193947882985828, 1e-12);
    assert_rel(ar_t_two_sided(0.1, 2.5), 0.9278065440624896, 1e-12);
    assert_rel(ar_t_two_sided(30.0, 8), 1.6535256751789715e-09, 1e-10);
    assert_rel(ar_t_two_sided(1.5, 1e6), 0.1336147182367928, 1e-6);
    assert_close(ar_t_two_sided(0.0, 7), 1.0, 1e-15);
    assert_close(ar_t_two_sided(-2.0, 5), ar_t_two_sided(2.0, 5), 0);
    ck_assert(ar_t_two_sided(INFINITY, 3) == 0.0);
    ck_assert(isnan(ar_t_two_sided(1.0, 0.0)) && isnan(ar_t_isf(0.5, -1)));
    assert_close(ar_t_isf(0.5, 9), 0.0, 1e-12);
    assert_rel(ar_t_isf(0.975, 10), -2.2281388519649385, 1e-8);
    /* Infinite df is the normal. */
    assert_rel(ar_t_isf(0.025, INFINITY), 1.959963984540054, 1e-14);
    /* The incomplete beta at its ends and a symmetric point. */
    assert_close(ar_betainc(2, 3, 0.0), 0.0, 0);
    assert_close(ar_betainc(2, 3, 1.0), 1.0, 0);
    assert_close(ar_betainc(4, 4, 0.5), 0.5, 1e-15);
}
END_TEST

START_TEST(welch_on_logs_matches_scipy)
{
    static const double a[] = {1.00, 1.02, 0.98, 1.01, 0.99}, b[] = {1.10, 1.12, 1.08, 1.11, 1.09};
    ar_stats_welch_t w;
    ck_assert_int_eq(ar_stats_welch(a, 5, b, 5, 0.98, &w), AR_STATS_OK);
    ck_assert(w.log_scale);
    assert_rel(w.t, 9.97418840872678, 1e-12);
    assert_rel(w.p, 9.224745910458542e-06, 1e-9);
    assert_rel(w.df, 7.928378380276517, 1e-12);
    assert_rel(w.effect_pct, 10.001909700458496, 1e-12);
    assert_rel(w.ci_low_pct, 6.992135397301233, 1e-9);
    assert_rel(w.ci_high_pct, 13.0963513609155, 1e-9);
    /* Unequal sizes and spreads: df far from n_a + n_b - 2. */
    static const double c[] = {10.0, 11.0, 9.5, 10.2}, d[] = {12.0, 15.0, 11.0};
    ck_assert_int_eq(ar_stats_welch(c, 4, d, 3, 0.98, &w), AR_STATS_OK);
    assert_rel(w.t, 2.177589427726024, 1e-12);
    assert_rel(w.p, 0.1381028082955971, 1e-9);
    assert_rel(w.df, 2.437672903508402, 1e-12);
    assert_rel(w.effect_pct, 23.583155830150986, 1e-12);
    assert_rel(w.ci_low_pct, -27.567824480541454, 1e-9);
    assert_rel(w.ci_high_pct, 110.8565191561369, 1e-9);
}
END_TEST

/* Welch from the summaries a history keeps (n, mean and variance of the
 * logs) is the same test as from the values, to the last bit; a side on
 * the log scale against one on the raw scale is refused. */
START_TEST(welch_from_summaries_is_welch_from_values)
{
    const double a[] = {10.2, 10.5, 9.9, 10.1, 10.4}, b[] = {11.0, 11.3, 10.8, 11.1};
    ar_stats_welch_t direct, summary;
    ck_assert_int_eq(ar_stats_welch(a, 5, b, 4, 0.98, &direct), AR_STATS_OK);
    ar_stats_moments_t ma, mb;
    ar_stats_moments(a, 5, 1, &ma);
    ar_stats_moments(b, 4, 1, &mb);
    ck_assert(ma.log_scale && mb.log_scale);
    ck_assert_uint_eq(ma.n, 5);
    ck_assert_int_eq(ar_stats_welch_moments(&ma, &mb, 0.98, &summary), AR_STATS_OK);
    ck_assert(direct.t == summary.t && direct.p == summary.p && direct.df == summary.df);
    ck_assert(direct.ci_high_pct == summary.ci_high_pct);
    /* The mean of the logs, by hand. */
    double sum = 0;
    for (int i = 0; i < 5; i++)
        sum += log(a[i]);
    ck_assert(fabs(ma.mean - sum / 5) < 1e-15);
    /* A zero keeps that side raw: the two sides cannot be combined. */
    const double z[] = {0.0, 1.0, 2.0};
    ar_stats_moments_t mz;
    ar_stats_moments(z, 3, 1, &mz);
    ck_assert(!mz.log_scale);
    ck_assert_int_eq(ar_stats_welch_moments(&ma, &mz, 0.98, &summary), AR_STATS_NOT_FINITE);
    /* Fewer than two a side: no test. */
    ar_stats_moments(a, 1, 1, &ma);
    ck_assert_int_eq(ar_stats_welch_moments(&ma, &mb, 0.98, &summary), AR_STATS_OK);
    ck_assert(isnan(summary.p));
}
END_TEST

START_TEST(welch_corner_cases)
{
    ar_stats_welch_t w;
    static const double one[] = {5.0}, same[] = {2.0, 2.0, 2.0}, other[] = {3.0, 3.0, 3.0};
    /* A side of one value has no variance: no test. */
    ck_assert_int_eq(ar_stats_welch(one, 1, same, 3, 0.98, &w), AR_STATS_OK);
    ck_assert(isnan(w.p) && isnan(w.effect_pct));
    /* No spread: equal means are no change, others a certain one. */
    ck_assert_int_eq(ar_stats_welch(same, 3, same, 3, 0.98, &w), AR_STATS_OK);
    ck_assert(w.p == 1.0 && w.effect_pct == 0.0 && w.ci_low_pct == 0.0 && w.ci_high_pct == 0.0);
    ck_assert_int_eq(ar_stats_welch(same, 3, other, 3, 0.98, &w), AR_STATS_OK);
    ck_assert(w.p == 0.0);
    assert_rel(w.effect_pct, 50.0, 1e-12);
    assert_rel(w.ci_low_pct, 50.0, 1e-12);
    /* A zero: the raw values, a shift in percent of |mean(A)|, and never
     * below -100% for a quantity that is never negative. */
    static const double had[] = {1.0, 1.1, 0.9}, none[] = {0.0, 0.0, 0.01};
    ck_assert_int_eq(ar_stats_welch(had, 3, none, 3, 0.98, &w), AR_STATS_OK);
    ck_assert(!w.log_scale);
    ck_assert(w.effect_pct > -100.0 && w.ci_low_pct >= -100.0);
    assert_rel(w.effect_abs, (0.01 / 3.0) - 1.0, 1e-12);
    static const double neg[] = {-1.0, -1.2, -0.8}, pos[] = {1.0, 1.2, 0.8};
    ck_assert_int_eq(ar_stats_welch(neg, 3, pos, 3, 0.98, &w), AR_STATS_OK);
    assert_rel(w.effect_pct, 200.0, 1e-12);
    ck_assert_int_eq(ar_stats_welch(pos, 3, neg, 3, 0.98, &w), AR_STATS_OK);
    ck_assert(w.ci_low_pct < -100.0); /* a signed quantity has no floor */
}
END_TEST

/* ---- Holm ---------------------------------------------------------------- */

START_TEST(holm_on_families_computed_by_hand)
{
    /* Ascending 0.005 0.01 0.03 0.04 times 4 3 2 1: 0.02 0.03 0.06 0.04,
     * made non-decreasing: 0.02 0.03 0.06 0.06. */
    double p[] = {0.01, 0.04, 0.03, 0.005}, adjusted[4];
    ck_assert_int_eq(ar_stats_holm(p, 4, adjusted), AR_STATS_OK);
    static const double want[] = {0.03, 0.06, 0.06, 0.02};
    for (size_t i = 0; i < 4; i++)
        assert_close(adjusted[i], want[i], 1e-15);
    /* Capped at 1. */
    double big[] = {0.5, 0.6};
    ck_assert_int_eq(ar_stats_holm(big, 2, big), AR_STATS_OK); /* in place */
    ck_assert(big[0] == 1.0 && big[1] == 1.0);
    /* A measure without a p-value is no member: F = 2. */
    double some[] = {NAN, 0.01, 0.02};
    ck_assert_int_eq(ar_stats_holm(some, 3, some), AR_STATS_OK);
    ck_assert(isnan(some[0]));
    assert_close(some[1], 0.02, 1e-15);
    assert_close(some[2], 0.02, 1e-15);
    /* Ties: each times F. */
    double tied[] = {0.01, 0.01, 0.01};
    ck_assert_int_eq(ar_stats_holm(tied, 3, tied), AR_STATS_OK);
    for (size_t i = 0; i < 3; i++)
        assert_close(tied[i], 0.03, 1e-15);
    /* One alone is itself; none is nothing. */
    double one[] = {0.004};
    ck_assert_int_eq(ar_stats_holm(one, 1, one), AR_STATS_OK);
    ck_assert(one[0] == 0.004);
    ck_assert_int_eq(ar_stats_holm(NULL, 0, NULL), AR_STATS_OK);
}
END_TEST

/* ---- Summaries ----------------------------------------------------------- */

START_TEST(identical_samples_have_their_value_as_mean_and_no_spread)
{
    static const double values[] = {6.1, 0.1, 1e-3, 123.456, 0.5398, 1e15 + 0.125, 3.0};
    for (size_t v = 0; v < N_OF(values); v++)
        for (size_t n = 1; n <= 40; n++) {
            double x[40];
            for (size_t i = 0; i < n; i++)
                x[i] = values[v];
            ck_assert(ar_stats_mean(x, n) == values[v]);
            ck_assert(ar_stats_pstdev(x, n) == 0.0);
        }
    /* What the naive sums give, and the issue saw. */
    double x[] = {6.1, 6.1, 6.1};
    ck_assert((x[0] + x[1] + x[2]) / 3.0 != 6.1);
    double sumsq = x[0] * x[0] + x[1] * x[1] + x[2] * x[2], mean = (x[0] + x[1] + x[2]) / 3.0;
    ck_assert(sumsq / 3.0 - mean * mean != 0.0);
}
END_TEST

START_TEST(sums_and_means_are_correctly_rounded)
{
    /* math.fsum's own examples. */
    static const double a[] = {1e100, 1.0, -1e100}, b[] = {1e-16, 1.0, 1e16};
    ck_assert(ar_stats_fsum(a, 3) == 1.0);
    ck_assert(ar_stats_fsum(b, 3) == 1.0000000000000002e16); /* half-even fix-up */
    double tenth[10];
    for (size_t i = 0; i < 10; i++)
        tenth[i] = 0.1;
    ck_assert(ar_stats_fsum(tenth, 10) == 1.0);
    /* statistics.mean (exact fractions): 0.15000000000000002,
     * 1.2333333333333334, 0.23333333333333334. */
    static const double c[] = {0.1, 0.2}, d[] = {1.1, 1.2, 1.4}, e[] = {0.1, 0.2, 0.4};
    ck_assert(ar_stats_mean(c, 2) == 0.15000000000000002);
    ck_assert(ar_stats_mean(d, 3) == 1.2333333333333334);
    ck_assert(ar_stats_mean(e, 3) == 0.23333333333333334);
    /* Past the range a naive sum stays in. */
    static const double huge[] = {1e308, 1e308, 1e308};
    ck_assert(ar_stats_mean(huge, 3) == 1e308);
    ck_assert(ar_stats_pstdev(huge, 3) == 0.0);
    static const double tiny[] = {1e-300, 3e-300};
    ck_assert(ar_stats_mean(tiny, 2) == 2e-300);
    ck_assert(isnan(ar_stats_mean(NULL, 0)) && isnan(ar_stats_pstdev(NULL, 0)));
}
END_TEST

START_TEST(population_std_and_percentiles)
{
    /* The textbook example: population std 2. */
    static const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    ck_assert(ar_stats_pstdev(x, 8) == 2.0);
    /* statistics.pstdev's docstring. */
    static const double y[] = {1.5, 2.5, 2.5, 2.75, 3.25, 4.75};
    assert_rel(ar_stats_pstdev(y, 6), 0.986893273527251, 1e-15);
    /* Upstream's interpolation at (n - 1) q. */
    static const double s[] = {1, 2, 3, 4};
    ck_assert(ar_stats_percentile(s, 4, 0.5) == 2.5);
    assert_close(ar_stats_percentile(s, 4, 0.9), 3.7, 1e-15);
    ck_assert(ar_stats_percentile(s, 4, 0.0) == 1.0 && ar_stats_percentile(s, 4, 1.0) == 4.0);
    ck_assert(ar_stats_percentile(s, 1, 0.99) == 1.0);
    ar_stats_summary_t sum;
    static const double unsorted[] = {1412.318, 1388.907, 1401.552};
    ck_assert_int_eq(ar_stats_summarize(unsorted, 3, &sum), AR_STATS_OK);
    ck_assert(sum.min == 1388.907 && sum.max == 1412.318 && sum.p50 == 1401.552);
    /* platform.md's example cell: mean 1400.926, std 9.568, p90 1410.165,
     * p99 1412.103 at three places. */
    assert_close(sum.mean, 1400.926, 5e-4);
    assert_close(sum.std, 9.568, 5e-4);
    assert_close(sum.p90, 1410.165, 5e-4);
    assert_close(sum.p99, 1412.103, 5e-4);
    ck_assert_int_eq(ar_stats_summarize(unsorted, 0, &sum), AR_STATS_OK);
    ck_assert(isnan(sum.mean) && sum.n == 0);
    double bad[] = {1, NAN};
    ck_assert_int_eq(ar_stats_summarize(bad, 2, &sum), AR_STATS_NOT_FINITE);
}
END_TEST

START_TEST(means_print_at_the_precision_of_their_data)
{
    static const double d1[] = {6.1}, d7[] = {1.25e-05}, d0[] = {100, 1e20}, d3[] = {0.1, 2.125};
    ck_assert_int_eq(ar_stats_decimals(d1, 1), 1);
    ck_assert_int_eq(ar_stats_decimals(d7, 1), 7);
    ck_assert_int_eq(ar_stats_decimals(d0, 2), 0);
    ck_assert_int_eq(ar_stats_decimals(d3, 2), 3);
    char out[64];
    struct {
        double x[4];
        size_t n;
        const char *want;
    } cases[] = {
        {{6.1, 6.1, 6.1}, 3, "6.1"},      {{1.1, 1.2, 1.4}, 3, "1.23"},
        {{1, 2}, 2, "1.5"},               {{1, 2, 2}, 3, "1.7"},
        {{5, 5}, 2, "5.0"},               {{0.001, 0.002}, 2, "0.0015"},
        {{-2.5, -2.5}, 2, "-2.5"},        {{0.5398, 0.5389, 0.5411}, 3, "0.53993"},
    };
    for (size_t i = 0; i < N_OF(cases); i++) {
        double mean = ar_stats_mean(cases[i].x, cases[i].n);
        int len = ar_stats_format_mean(out, sizeof out, mean, cases[i].x, cases[i].n);
        ck_assert_int_eq(len, (int)strlen(cases[i].want));
        ck_assert_str_eq(out, cases[i].want);
    }
    /* Never more than the value's own digits; never past the buffer. */
    static const double third[] = {1, 2, 2};
    ck_assert_int_eq(ar_stats_format_mean(out, sizeof out, 0.5, third, 3), 3);
    ck_assert_str_eq(out, "0.5");
    ck_assert_int_eq(ar_stats_format_mean(out, 3, 6.1, d1, 1), -1);
    ck_assert_int_eq(ar_stats_format_mean(out, sizeof out, NAN, d1, 1), -1);
}
END_TEST

/* ---- Verdicts ------------------------------------------------------------ */

static const ar_stats_options_t defaults = AR_STATS_OPTIONS_INIT;

static ar_stats_result_t judge_one(const double *a, size_t n_a, const double *b, size_t n_b,
                                      ar_stats_better_t better, const ar_stats_options_t *o)
{
    ar_stats_measure_t m = {a, n_a, b, n_b, better, 1};
    ar_stats_result_t r;
    ck_assert_int_eq(ar_stats_judge(&m, 1, o, &r, NULL), AR_STATS_OK);
    return r;
}

/* base * (1 + spread * k) for a fixed spread pattern k in -1..1. */
static void noisy(double *out, size_t n, double base, double spread, double scale)
{
    static const double k[] = {0.0, 0.6, -0.8, 0.3, -0.4, 1.0, -1.0, 0.15, -0.2, 0.8, -0.6, 0.45};
    for (size_t i = 0; i < n; i++)
        out[i] = base * (1.0 + spread * k[i % N_OF(k)] * (1.0 + 0.01 * (double)(i / N_OF(k))))
                 * scale;
}

START_TEST(fewer_than_three_trials_a_side_give_no_verdict)
{
    static const double a[] = {20.53, 20.93}, b[] = {41.06, 41.86, 42.66};
    ar_stats_result_t r = judge_one(a, 2, b, 3, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert_int_eq(r.verdict, AR_VERDICT_INCONCLUSIVE);
    ck_assert(isnan(r.p_raw) && isnan(r.effect_pct));
    ck_assert_uint_eq(r.trials_needed, 3);
    /* Three a side can: the rank tests' floor (2/20 at 3 vs 3) is gone. */
    static const double c[] = {20.53, 20.93, 21.33};
    r = judge_one(c, 3, b, 3, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert_int_eq(r.verdict, AR_VERDICT_REGRESSED);
    ck_assert(r.p_value < 0.01);
}
END_TEST

START_TEST(a_clear_change_regresses_or_improves_by_direction)
{
    double a[5], up[5], down[5], small[5];
    noisy(a, 5, 100.0, 0.01, 1.0);
    noisy(up, 5, 100.0, 0.01, 1.10);
    noisy(down, 5, 100.0, 0.01, 0.90);
    noisy(small, 5, 100.0, 0.002, 1.03);
    ar_stats_result_t r = judge_one(a, 5, up, 5, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert_int_eq(r.verdict, AR_VERDICT_REGRESSED);
    ck_assert(r.significant && r.practical);
    ck_assert(r.p_value < 1e-6);
    assert_close(r.effect_pct, 10.0, 0.05);
    ck_assert_uint_eq(r.trials_needed, 0);
    ck_assert_int_eq(judge_one(a, 5, up, 5, AR_STATS_BETTER_HIGHER, &defaults).verdict,
                     AR_VERDICT_IMPROVED);
    ck_assert_int_eq(judge_one(a, 5, down, 5, AR_STATS_BETTER_LOWER, &defaults).verdict,
                     AR_VERDICT_IMPROVED);
    ck_assert_int_eq(judge_one(a, 5, down, 5, AR_STATS_BETTER_HIGHER, &defaults).verdict,
                     AR_VERDICT_REGRESSED);
    /* Significant, but 3% is inside the 5% threshold, interval too:
     * unchanged, its effect shown. */
    r = judge_one(a, 5, small, 5, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert(r.significant && !r.practical && r.ci_high_pct < 5.0);
    ck_assert_int_eq(r.verdict, AR_VERDICT_UNCHANGED);
    /* No better direction: shown, never judged better or worse. */
    r = judge_one(a, 5, up, 5, AR_STATS_BETTER_NONE, &defaults);
    ck_assert_int_eq(r.verdict, AR_VERDICT_NOT_GATED);
    ck_assert(r.significant && r.trials_needed == 0);
    ck_assert_str_eq(ar_verdict_name(r.verdict), "not gated");
}
END_TEST

START_TEST(an_interval_reaching_past_delta_is_never_unchanged)
{
    /* The issue's +6%: significant, estimate +4.8% inside 5%, but the
     * interval reaches past it: inconclusive, not unchanged. */
    double a[6], b[6];
    noisy(a, 6, 100.0, 0.03, 1.0);
    noisy(b, 6, 100.0, 0.03, 1.048);
    ar_stats_result_t r = judge_one(a, 6, b, 6, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert(r.effect_pct < 5.0 && r.ci_high_pct > 5.0);
    ck_assert_int_eq(r.verdict, AR_VERDICT_INCONCLUSIVE);
    ck_assert_uint_gt(r.trials_needed, 6);
}
END_TEST

START_TEST(thresholds_are_strict_at_their_boundaries)
{
    double a[5], b[5];
    noisy(a, 5, 100.0, 0.01, 1.0);
    noisy(b, 5, 100.0, 0.01, 1.10);
    ar_stats_result_t first = judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &defaults);
    /* The percent threshold: an estimate equal to it is not past it. */
    ar_stats_options_t o = defaults;
    o.threshold_pct = first.effect_pct;
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_INCONCLUSIVE);
    o.threshold_pct = nextafter(first.effect_pct, 0.0);
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_REGRESSED);
    /* An interval ending on the threshold is inside it. */
    o.threshold_pct = first.ci_high_pct;
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_UNCHANGED);
    /* The absolute floor, in the measure's unit, likewise. */
    o = defaults;
    o.min_delta = first.effect_abs;
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_INCONCLUSIVE);
    o.min_delta = first.ci_high_abs;
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_UNCHANGED);
    o.min_delta = nextafter(first.effect_abs, 0.0);
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_REGRESSED);
    /* alpha: p must be below it. */
    o = defaults;
    o.alpha = first.p_value;
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_INCONCLUSIVE);
    /* The interval's level is 1 - 2 alpha: its upper end the one-sided
     * 1 - alpha bound. */
    assert_close(ar_stats_ci_level(&defaults), 0.98, 1e-15);
}
END_TEST

START_TEST(trials_needed_follow_the_formula)
{
    /* Logs L-d, L, L+d against the same plus e: pooled spread d, estimate
     * e inside delta; the interval clears log 1.05 when 2 d^2 z^2 / n is
     * below (log 1.05 - e)^2, z the one-sided 0.99 normal quantile. */
    double d = 0.05, e = log(1.02), a[3], b[3];
    for (int i = 0; i < 3; i++) {
        a[i] = 100.0 * exp(d * (i - 1));
        b[i] = a[i] * 1.02;
    }
    ar_stats_result_t r = judge_one(a, 3, b, 3, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert_int_eq(r.verdict, AR_VERDICT_INCONCLUSIVE);
    assert_close(r.spread, d, 1e-12);
    double z = 2.3263478740408408, distance = log(1.05) - e;
    double want = ceil(2.0 * d * d * z * z / (distance * distance));
    ck_assert_uint_eq(r.trials_needed, (size_t)want);
    /* Past delta: what the correction asks of the test, z_f = isf(alpha / 2). */
    for (int i = 0; i < 3; i++)
        b[i] = a[i] * 1.2;
    d = 0.3;
    for (int i = 0; i < 3; i++) {
        a[i] = 100.0 * exp(d * (i - 1));
        b[i] = a[i] * 1.2;
    }
    r = judge_one(a, 3, b, 3, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert_int_eq(r.verdict, AR_VERDICT_INCONCLUSIVE);
    double z_f = 2.5758293035489004, big = log(1.2);
    ck_assert_uint_eq(r.trials_needed, (size_t)ceil(2.0 * d * d * z_f * z_f / (big * big)));
}
END_TEST

START_TEST(holm_decides_within_a_family)
{
    /* Two measures with p just under 0.01 alone: together each p doubles. */
    double a[5], b[5];
    noisy(a, 5, 100.0, 0.05, 1.0);
    noisy(b, 5, 100.0, 0.05, 1.12);
    ar_stats_result_t alone = judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &defaults);
    ar_stats_measure_t family[3] = {{a, 5, b, 5, AR_STATS_BETTER_LOWER, 1},
                                    {a, 5, b, 5, AR_STATS_BETTER_LOWER, 0},
                                    {a, 0, b, 5, AR_STATS_BETTER_LOWER, 1}};
    ar_stats_result_t r[3];
    ck_assert_int_eq(ar_stats_judge(family, 2, &defaults, r, NULL), AR_STATS_OK);
    for (int i = 0; i < 2; i++)
        assert_rel(r[i].p_value, fmin(1.0, 2.0 * alone.p_raw), 1e-15);
    ck_assert(r[0].gated == 1 && r[1].gated == 0);
    /* An empty side leaves the measure out of the family. */
    family[1] = family[2];
    ck_assert_int_eq(ar_stats_judge(family, 2, &defaults, r, NULL), AR_STATS_OK);
    assert_rel(r[0].p_value, alone.p_raw, 1e-15);
    ck_assert_int_eq(r[1].verdict, AR_VERDICT_INCONCLUSIVE);
    ck_assert(isnan(r[1].p_value) && isnan(r[1].effect_pct) && r[1].n_a == 0);
    ck_assert_uint_eq(r[1].trials_needed, 3);
}
END_TEST

START_TEST(judge_refuses_bad_input_and_names_it)
{
    double a[] = {1, 2, 3}, b[] = {1, NAN, 3};
    ar_stats_measure_t m[] = {{a, 3, a, 3, AR_STATS_BETTER_LOWER, 1},
                              {a, 3, b, 3, AR_STATS_BETTER_LOWER, 1}};
    ar_stats_result_t r[2];
    size_t bad = 99;
    ck_assert_int_eq(ar_stats_judge(m, 2, &defaults, r, &bad), AR_STATS_NOT_FINITE);
    ck_assert_uint_eq(bad, 1);
    ar_stats_options_t wrong[] = {{0.0, 5, 0}, {0.5, 5, 0}, {0.01, -1, 0}, {0.01, 5, NAN},
                                  {NAN, 5, 0}, {0.01, INFINITY, 0}};
    for (size_t i = 0; i < N_OF(wrong); i++) {
        ck_assert_int_eq(ar_stats_judge(m, 1, &wrong[i], r, &bad), AR_STATS_BAD_OPTION);
        ck_assert_uint_eq(bad, 1);
    }
    ck_assert_str_eq(ar_stats_status_text(AR_STATS_NOT_FINITE),
                     "a value is not a finite number");
    ck_assert_int_eq(ar_stats_judge(m, 0, &defaults, r, &bad), AR_STATS_OK);
    static const char *const names[] = {"unchanged",    "regressed", "improved",
                                        "inconclusive", "not gated", "incomparable",
                                        "no data",      "added",     "removed"};
    for (int v = AR_VERDICT_UNCHANGED; v <= AR_VERDICT_REMOVED; v++)
        ck_assert_str_eq(ar_verdict_name((ar_verdict_t)v), names[v]);
}
END_TEST

START_TEST(power_figures_follow_their_formulas)
{
    /* An A/A passes when d + t se < log 1.05, d ~ N(0, se): the n at which
     * that holds 90% of the time grows with the spread. */
    size_t n1 = ar_stats_trials_to_pass(0.01, 0.9, &defaults);
    size_t n3 = ar_stats_trials_to_pass(0.03, 0.9, &defaults);
    size_t n5 = ar_stats_trials_to_pass(0.05, 0.9, &defaults);
    ck_assert(n1 >= 3 && n1 <= 5 && n3 > n1 && n5 > n3);
    double s = sqrt(log1p(0.03 * 0.03)), se = s * sqrt(2.0 / (double)n3);
    ck_assert(se * (ar_t_isf(0.01, 2.0 * n3 - 2) + ar_t_isf(0.1, 2.0 * n3 - 2)) < log(1.05));
    se = s * sqrt(2.0 / (double)(n3 - 1));
    ck_assert(se * (ar_t_isf(0.01, 2.0 * n3 - 4) + ar_t_isf(0.1, 2.0 * n3 - 4)) >= log(1.05));
    /* The detectable regression: never below delta, larger at a larger CV
     * or a larger family, none below 3 trials. */
    double d1 = ar_stats_detectable_pct(5, 0.01, 6, 0.8, &defaults);
    double d3 = ar_stats_detectable_pct(5, 0.03, 6, 0.8, &defaults);
    ck_assert(d1 > 5.0 && d3 > d1);
    ck_assert(ar_stats_detectable_pct(5, 0.03, 60, 0.8, &defaults) > d3);
    ck_assert(isinf(ar_stats_detectable_pct(2, 0.01, 6, 0.8, &defaults)));
}
END_TEST

START_TEST(normal_tail_and_its_inverse)
{
    assert_close(ar_normal_sf(0.0), 0.5, 1e-16);
    assert_rel(ar_normal_sf(1.959963984540054), 0.025, 1e-14);
    assert_rel(ar_normal_sf(-1.0), 0.8413447460685429, 1e-15);
    assert_rel(ar_normal_sf(8.0), 6.22096057427178e-16, 1e-13);
    static const double p[] = {0.5, 0.025, 0.005, 1e-6, 1e-12, 1e-300, 0.9};
    for (size_t i = 0; i < N_OF(p); i++)
        assert_rel(ar_normal_sf(ar_normal_isf(p[i])), p[i], 1e-12); /* z ulp(z) */
    assert_close(ar_normal_isf(0.025), 1.959963984540054, 1e-14);
}
END_TEST

/* The places of a value's shortest round-trip text, found the slow way:
 * every precision printed and read back. */
static int places_by_printing(double value)
{
    if (value == 0.0 || !isfinite(value))
        return 0;
    char text[40];
    int digits = 1;
    for (; digits < 17; digits++) {
        snprintf(text, sizeof text, "%.*e", digits - 1, value);
        if (strtod(text, NULL) == value)
            break;
    }
    snprintf(text, sizeof text, "%.*e", digits - 1, value);
    char *exponent = strchr(text, 'e');
    int count = 0;
    for (const char *c = text; c < exponent; c++)
        count += *c >= '0' && *c <= '9';
    for (const char *c = exponent - 1; *c == '0'; c--)
        count--;
    int places = count - 1 - atoi(exponent + 1);
    return places > 0 ? places : 0;
}

START_TEST(decimals_without_printing_agree_with_printing)
{
    /* Decimals of every length and magnitude, as trials record them, and
     * arbitrary doubles; the fast path must agree with the printed one. */
    uint64_t state = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 200000; i++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        double value;
        if (i % 2) {
            int places = (int)((state >> 33) % 12);
            double digits = (double)((state >> 5) % 100000000ULL);
            value = digits / pow(10.0, places) * ((state >> 40) % 2 ? -1 : 1);
        } else {
            uint64_t bits = state;
            memcpy(&value, &bits, sizeof value);
            if (!isfinite(value))
                continue;
        }
        int got = ar_stats_decimals(&value, 1);
        ck_assert_msg(got == places_by_printing(value), "%.17g: %d vs %d", value, got,
                      places_by_printing(value));
    }
}
END_TEST

static Suite *stats_suite(void)
{
    Suite *suite = suite_create("stats");
    TCase *test = tcase_create("welch");
    tcase_add_test(test, t_quantiles_and_tails_match_scipy);
    tcase_add_test(test, welch_on_logs_matches_scipy);
    tcase_add_test(test, welch_corner_cases);
    tcase_add_test(test, welch_from_summaries_is_welch_from_values);
    tcase_add_test(test, normal_tail_and_its_inverse);
    suite_add_tcase(suite, test);
    TCase *holm = tcase_create("holm");
    tcase_add_test(holm, holm_on_families_computed_by_hand);
    suite_add_tcase(suite, holm);
    TCase *summary = tcase_create("summary");
    tcase_add_test(summary, identical_samples_have_their_value_as_mean_and_no_spread);
    tcase_add_test(summary, sums_and_means_are_correctly_rounded);
    tcase_add_test(summary, population_std_and_percentiles);
    tcase_add_test(summary, means_print_at_the_precision_of_their_data);
    suite_add_tcase(suite, summary);
    TCase *verdict = tcase_create("verdict");
    tcase_add_test(verdict, fewer_than_three_trials_a_side_give_no_verdict);
    tcase_add_test(verdict, a_clear_change_regresses_or_improves_by_direction);
    tcase_add_test(verdict, an_interval_reaching_past_delta_is_never_unchanged);
    tcase_add_test(verdict, thresholds_are_strict_at_their_boundaries);
    tcase_add_test(verdict, trials_needed_follow_the_formula);
    tcase_add_test(verdict, holm_decides_within_a_family);
    tcase_add_test(verdict, judge_refuses_bad_input_and_names_it);
    tcase_add_test(verdict, power_figures_follow_their_formulas);
    tcase_add_test(verdict, decimals_without_printing_agree_with_printing);
    suite_add_tcase(suite, verdict);
    return suite;
}

AORTA_CHECK_MAIN(stats_suite)
