/* SPDX-License-Identifier: MIT */
/* The statistics module (core/run/stats) on known values: the textbook and
 * R/scipy reference values of the Mann-Whitney U test that scipy's own
 * suite checks (scipy/stats/tests/test_hypotests.py, test_stats.py,
 * scipy 1.10; R's wilcox.test), Mann and Whitney's 1947 table of the exact
 * distribution, Holm on families computed by hand, the Hodges-Lehmann
 * effect and its interval against their definitions, the summaries on
 * identical samples, and each verdict at its boundaries.  The random
 * differential test against scipy is scipy_reference.py. */
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

static ar_stats_mwu_t mwu(const double *a, size_t n_a, const double *b, size_t n_b)
{
    ar_stats_mwu_t r;
    ck_assert_int_eq(ar_stats_mwu(a, n_a, b, n_b, &r), AR_STATS_OK);
    return r;
}

/* ---- Mann-Whitney U ----------------------------------------------------- */

START_TEST(mwu_exact_as_scipy_documents_it)
{
    /* scipy's docstring, after Shier (2004): diagnosis ages. */
    static const double males[] = {19, 22, 16, 29, 24}, females[] = {20, 11, 17, 12};
    ar_stats_mwu_t r = mwu(males, 5, females, 4);
    ck_assert(r.u == 17.0);
    ck_assert_int_eq(r.exact, 1);
    assert_close(r.p, 14.0 / 126.0, 1e-15); /* 0.1111111111111111 */
    /* The p-value is symmetric in the sides; U is A's. */
    r = mwu(females, 4, males, 5);
    ck_assert(r.u == 3.0);
    assert_close(r.p, 14.0 / 126.0, 1e-15);
}
END_TEST

START_TEST(mwu_exact_with_a_large_side_matches_r)
{
    /* test_hypotests.py cases_basic: R's wilcox.test(x, y, exact=TRUE). */
    static const double x[] = {210.052110, 110.190630, 307.918612};
    static const double y[] = {436.08811482466416, 416.37397329768191, 179.96975939463582,
                               197.8118754228619,  34.038757281225756, 138.54220550921517,
                               128.7769351470246,  265.92721427951852, 275.6617533155341,
                               592.34083395416258, 448.73177590617018, 300.61495185038905,
                               187.97508449019588};
    ar_stats_mwu_t r = mwu(x, 3, y, 13);
    ck_assert(r.u == 16.0);
    ck_assert_int_eq(r.exact, 1);
    assert_close(r.p, 0.7035714285714, 1e-12);
}
END_TEST

START_TEST(mwu_ties_take_the_normal_approximation_with_tie_correction)
{
    /* test_hypotests.py test_tie_correct, the variants with ties (which
     * method="auto" sends to the normal approximation): R's
     * wilcox.test(x, y, exact=FALSE). */
    static const double x[] = {1, 2, 3, 4};
    static const double y[][5] = {
        {1, 2, 3, 4, 5}, {1, 1.99, 3, 3.99, 5}, {1, 2, 2.99, 4, 5}, {1, 2, 3.01, 4, 5},
        {1, 2.01, 3, 4.01, 5}};
    static const double u[] = {8, 9, 8.5, 7.5, 7};
    static const double p[] = {0.7086240584439, 0.9017048037317, 0.804080657472,
                               0.6197963884941, 0.5368784563079};
    for (size_t i = 0; i < N_OF(u); i++) {
        ar_stats_mwu_t r = mwu(x, 4, y[i], 5);
        ck_assert(r.u == u[i]);
        ck_assert_int_eq(r.exact, 0);
        assert_close(r.p, p[i], 1e-12);
    }
}
END_TEST

START_TEST(mwu_normal_approximation_matches_scipys_vectors)
{
    /* test_stats.py TestMannWhitneyU.X and .Y: 30 and 20 values, no ties. */
    static const double X[] = {
        19.8958398126694, 19.5452691647182, 19.0577309166425, 21.716543054589,
        20.3269502208702, 20.0009273294025, 19.3440043632957, 20.4216806548105,
        19.0649894736528, 18.7808043120398, 19.3680942943298, 19.4848044069953,
        20.7514611265663, 19.0894948874598, 19.4975522356628, 18.9971170734274,
        20.3239606288208, 20.6921298083835, 19.0724259532507, 18.9825187935021,
        19.5144462609601, 19.8256857844223, 20.5174677102032, 21.1122407995892,
        17.9490854922535, 18.2847521114727, 20.1072217648826, 18.6439891962179,
        20.4970638083542, 19.5567594734914};
    static const double Y[] = {
        19.2790668029091, 16.993808441865, 18.5416338448258, 17.2634018833575,
        19.1577183624616, 18.5119655377495, 18.6068455037221, 18.8358343362655,
        19.0366413269742, 18.1135025515417, 19.2201873866958, 17.8344909022841,
        18.2894380745856, 18.6661374133922, 19.9688601693252, 16.0672254617636,
        19.00596360572, 19.201561539032, 19.0487501090183, 19.0847908674356};
    ar_stats_mwu_t r = mwu(X, 30, Y, 20);
    ck_assert(r.u == 498.0);
    ck_assert_int_eq(r.exact, 0);
    assert_rel(r.p, 9.188326533255e-05, 1e-12);
    ck_assert(mwu(Y, 20, X, 30).u == 102.0);
}
END_TEST

START_TEST(mwu_many_ties_match_r)
{
    /* test_stats.py test_mannwhitneyu_ones (gh-1428): 244 and 158 values
     * of 1, 2 and 3, given here by their counts; R's wilcox.test. */
    double x[244], y[158];
    for (size_t i = 0; i < 244; i++)
        x[i] = i < 233 ? 1 : i < 243 ? 2 : 3;
    for (size_t i = 0; i < 158; i++)
        y[i] = i < 132 ? 1 : i < 157 ? 2 : 3;
    ar_stats_mwu_t r = mwu(x, 244, y, 158);
    ck_assert(r.u == 16980.5);
    assert_rel(r.p, 5.642865531266e-05, 1e-11);
}
END_TEST

START_TEST(mwu_corner_cases)
{
    /* test_hypotests.py test_exact_U_equals_mean: p capped at 1. */
    static const double a[] = {1, 2, 3}, b[] = {1.5, 2.5};
    ar_stats_mwu_t r = mwu(a, 3, b, 2);
    ck_assert(r.u == 3.0 && r.p == 1.0);
    /* Every value tied: the variance is 0, z is -inf, p is 1. */
    static const double same[] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
    r = mwu(same, 10, same, 10);
    ck_assert(r.u == 50.0 && r.p == 1.0 && !r.exact);
    /* One against one: the only arrangement split, p 1. */
    r = mwu(a, 1, b, 1);
    ck_assert(r.p == 1.0 && r.exact);
    /* An empty side has no test (scipy refuses it). */
    r = mwu(a, 0, b, 2);
    ck_assert(isnan(r.p) && isnan(r.u));
    /* Not a number, or infinite: refused. */
    double bad[] = {1, NAN, 2};
    ck_assert_int_eq(ar_stats_mwu(bad, 3, b, 2, &r), AR_STATS_NOT_FINITE);
    bad[1] = INFINITY;
    ck_assert_int_eq(ar_stats_mwu(a, 3, bad, 3, &r), AR_STATS_NOT_FINITE);
}
END_TEST

START_TEST(mwu_exact_stays_exact_with_hundreds_on_one_side)
{
    double a[8], b[400];
    for (size_t i = 0; i < 8; i++)
        a[i] = 1000.0 + (double)i * 0.5;
    for (size_t j = 0; j < 400; j++)
        b[j] = (double)j * 2.6 + 0.3; /* no value of a */
    ar_stats_mwu_t r = mwu(a, 8, b, 400);
    ck_assert_int_eq(r.exact, 1);
    ck_assert(r.p > 0.0 && r.p <= 1.0);
    /* The same with A entirely below B: 2 / C(408, 8), far below 1e-15. */
    for (size_t i = 0; i < 8; i++)
        a[i] = -1.0 - (double)i;
    r = mwu(a, 8, b, 400);
    assert_rel(r.p, ar_stats_min_p(8, 400), 1e-12);
    ck_assert(r.p < 1e-15);
}
END_TEST

START_TEST(smallest_p_and_the_trials_that_reach_alpha)
{
    /* Complete separation is the most extreme arrangement. */
    static const double three[] = {1, 2, 3}, three_up[] = {4, 5, 6};
    assert_close(mwu(three, 3, three_up, 3).p, 0.1, 1e-15);
    assert_close(ar_stats_min_p(3, 3), 2.0 / 20.0, 1e-15);
    assert_close(ar_stats_min_p(4, 4), 2.0 / 70.0, 1e-15);
    assert_close(ar_stats_min_p(5, 5), 2.0 / 252.0, 1e-15);
    ck_assert(ar_stats_min_p(0, 5) == 1.0);
    /* Alone, 5 per side reach 0.01 (2/252 = 0.0079, 4 per side 0.029); in
     * a family of 10, 7 (10 * 2/3432 = 0.0058; 6: 10 * 2/924 = 0.022). */
    ck_assert_uint_eq(ar_stats_trials_to_reach(0.01, 1), 5);
    ck_assert_uint_eq(ar_stats_trials_to_reach(0.01, 10), 7);
    ck_assert_uint_eq(ar_stats_trials_to_reach(0.05, 1), 4); /* 2/70 */
    /* Both sides past 8: the normal tail at the largest U, no ties. */
    double z = (81.0 / 2.0 - 0.5) / sqrt(81.0 * 19.0 / 12.0);
    assert_rel(ar_stats_min_p(9, 9), 2.0 * 0.5 * erfc(z / sqrt(2.0)), 1e-14);
}
END_TEST

/* Arrangements with U = k at sizes m, n by the defining recursion
 * f(m, n, k) = f(m - 1, n, k - n) + f(m, n - 1, k), in integers. */
static void exact_counts(size_t m, size_t n, uint64_t *out)
{
    size_t kmax = m * n;
    uint64_t *table = calloc((m + 1) * (n + 1) * (kmax + 1), sizeof *table);
#define F(i, j, k) table[((i) * (n + 1) + (j)) * (kmax + 1) + (k)]
    for (size_t i = 0; i <= m; i++)
        for (size_t j = 0; j <= n; j++)
            for (size_t k = 0; k <= i * j; k++)
                F(i, j, k) = k == 0 ? 1
                                    : (i > 0 && k >= j ? F(i - 1, j, k - j) : 0)
                                          + (j > 0 && k <= i * (j - 1) ? F(i, j - 1, k) : 0);
    for (size_t k = 0; k <= kmax; k++)
        out[k] = F(m, n, k);
#undef F
    free(table);
}

START_TEST(exact_distribution_matches_the_recursion_and_the_1947_table)
{
    /* Every size up to 8 by 40, all of the distribution: within 1e-13 of
     * the integer counts, and symmetric. */
    for (size_t m = 1; m <= 8; m++)
        for (size_t n = m; n <= 40; n += n < 12 ? 1 : 7) {
            size_t kmax = m * n;
            uint64_t *counts = malloc((kmax + 1) * sizeof *counts);
            double *pmf = malloc((kmax + 1) * sizeof *pmf);
            exact_counts(m, n, counts);
            ck_assert_int_eq(ar_u_pmf(m, n, kmax, pmf), 0);
            double total = 0, cdf = 0, want = 0;
            for (size_t k = 0; k <= kmax; k++)
                total += (double)counts[k];
            for (size_t k = 0; k <= kmax; k++) {
                cdf += pmf[k];
                want += (double)counts[k] / total;
                assert_close(cdf, want, 1e-13 * want + 1e-300);
                assert_rel(pmf[k], pmf[kmax - k], 1e-12);
            }
            free(counts);
            free(pmf);
        }
    /* Mann and Whitney (1947), p. 52, as test_hypotests.py keeps it:
     * P(U <= u) for n = 4, m = 3, and n = 6, m = 5. */
    static const double n4m3[] = {0.028, 0.057, 0.114, 0.2, .314, 0.429, 0.571};
    static const double n6m5[] = {0.002, 0.004, 0.009, 0.015, 0.026, 0.041, 0.063, 0.089,
                                  0.123, 0.165, 0.214, 0.268, 0.331, 0.396, 0.465, 0.535};
    for (size_t u = 0; u < N_OF(n4m3); u++)
        assert_close(ar_u_cdf(3, 4, u), n4m3[u], 1e-3);
    for (size_t u = 0; u < N_OF(n6m5); u++)
        assert_close(ar_u_cdf(5, 6, u), n6m5[u], 1e-3);
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

/* ---- Effect and interval ------------------------------------------------ */

static ar_stats_effect_t effect(const double *a, size_t n_a, const double *b, size_t n_b)
{
    ar_stats_effect_t e;
    ck_assert_int_eq(ar_stats_effect(a, n_a, b, n_b, &e), AR_STATS_OK);
    return e;
}

START_TEST(interval_counts_match_the_tables)
{
    /* The largest C with P(U <= C - 1) <= 0.025: one more than the
     * two-sided 5% critical value of U in the usual tables (10 and 10: 23;
     * 8 and 8: 13; 20 and 20: 127); 3 per side cannot make a 95% interval. */
    ck_assert_uint_eq(ar_u_critical(3, 3, 0.95), 0);
    ck_assert_uint_eq(ar_u_critical(4, 4, 0.95), 1); /* 1/70 <= 0.025 < 2/70 */
    ck_assert_uint_eq(ar_u_critical(5, 5, 0.95), 3); /* 4/252 <= 0.025 < 7/252 */
    ck_assert_uint_eq(ar_u_critical(8, 8, 0.95), 14);
    ck_assert_uint_eq(ar_u_critical(10, 10, 0.95), 24);
    ck_assert_uint_eq(ar_u_critical(20, 20, 0.95), 128);
    /* Past the exact distribution's reach, the normal approximation:
     * 2,000 per side, within a few of the exact count's neighbourhood. */
    size_t c = ar_u_critical(2000, 2000, 0.95);
    double expected = 2000.0 * 2000.0 / 2 - 1.959963984540054 * sqrt(4e6 * 4001.0 / 12.0);
    ck_assert(fabs((double)c - expected) < 2.0);
}
END_TEST

START_TEST(effect_is_the_ratio_of_a_pure_scaling)
{
    static const double a[] = {10, 11, 12, 13, 14};
    double b[5];
    for (size_t i = 0; i < 5; i++)
        b[i] = a[i] * 1.10;
    ar_stats_effect_t e = effect(a, 5, b, 5);
    ck_assert_int_eq(e.log_scale, 1);
    assert_close(e.effect_pct, 10.0, 1e-9);
    ck_assert(e.ci_low_pct < 10.0 && e.ci_high_pct > 10.0);
    assert_close(e.effect_abs, 12.0 * 0.10, 1e-9); /* median(A) times the change */
    /* Identical samples: no change, an interval of one point. */
    static const double same[] = {7, 7, 7, 7, 7};
    e = effect(same, 5, same, 5);
    ck_assert(e.effect_pct == 0.0 && e.ci_low_pct == 0.0 && e.ci_high_pct == 0.0);
    ck_assert(e.spread == 0.0);
}
END_TEST

START_TEST(effect_follows_its_definition)
{
    /* Two per side: log differences 0, log 2, log 2, log 4; the median is
     * log 2 (+100%), and 2 by 2 cannot make a 95% interval. */
    static const double a[] = {1, 2}, b[] = {2, 4};
    ar_stats_effect_t e = effect(a, 2, b, 2);
    assert_close(e.effect_pct, 100.0, 1e-12);
    ck_assert(e.ci_low_pct == -100.0 && isinf(e.ci_high_pct) && e.ci_high_pct > 0);
    /* 5 by 5: the interval is the 3rd smallest and 3rd largest of the 25
     * log differences. */
    static const double x[] = {3.1, 2.9, 3.3, 3.0, 3.6}, y[] = {3.5, 3.2, 3.9, 3.4, 4.1};
    double d[25];
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 5; j++)
            d[i * 5 + j] = log(y[j]) - log(x[i]);
    for (size_t i = 0; i < 25; i++) /* insertion sort */
        for (size_t k = i; k > 0 && d[k - 1] > d[k]; k--) {
            double t = d[k];
            d[k] = d[k - 1];
            d[k - 1] = t;
        }
    e = effect(x, 5, y, 5);
    assert_close(e.effect_pct, 100.0 * expm1(d[12]), 1e-12);
    assert_close(e.ci_low_pct, 100.0 * expm1(d[2]), 1e-12);
    assert_close(e.ci_high_pct, 100.0 * expm1(d[22]), 1e-12);
}
END_TEST

START_TEST(effect_on_zeros_and_negatives_is_a_shift)
{
    /* b - a over a = -1, 0, 1 and b = 0, 1, 2: -1 0 0 1 1 1 2 2 3, median
     * 1; median(A) is 0, so the percent is infinite and the unit says 1. */
    static const double a[] = {-1, 0, 1}, b[] = {0, 1, 2};
    ar_stats_effect_t e = effect(a, 3, b, 3);
    ck_assert_int_eq(e.log_scale, 0);
    ck_assert(e.effect_abs == 1.0);
    ck_assert(isinf(e.effect_pct) && e.effect_pct > 0);
    ck_assert(isinf(e.ci_low_pct) && e.ci_low_pct < 0); /* 3 per side: unbounded */
    /* A zero among positives also rules the log out; the percent is of
     * |median(A)| = 4: shifts -4 0 4 ... median 2 -> 50%. */
    static const double c[] = {2, 4, 6}, d[] = {0, 6, 8};
    e = effect(c, 3, d, 3);
    ck_assert_int_eq(e.log_scale, 0);
    assert_close(e.effect_abs, 2.0, 1e-15);
    assert_close(e.effect_pct, 50.0, 1e-12);
    /* No shift at a zero median: 0%, not NaN. */
    static const double z[] = {0, 0, 0};
    e = effect(z, 3, z, 3);
    ck_assert(e.effect_pct == 0.0 && e.effect_abs == 0.0);
    /* Refused: not finite. */
    double bad[] = {1, INFINITY};
    ck_assert_int_eq(ar_stats_effect(bad, 2, c, 3, &e), AR_STATS_NOT_FINITE);
}
END_TEST

/* A fixed pseudo-random stream (no libc state). */
static double next_uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*state >> 11) / 9007199254740992.0;
}

static int ascending(const void *left, const void *right)
{
    double x = *(const double *)left, y = *(const double *)right;
    return x < y ? -1 : x > y;
}

static void sort_sizes(size_t *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            size_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

START_TEST(pair_bisection_gives_the_sorted_differences)
{
    static const size_t sizes[][2] = {{1, 1}, {1, 9}, {7, 11}, {12, 12}, {40, 35}, {3, 60},
                                      {70, 65}};
    uint64_t state = 21;
    for (size_t s = 0; s < N_OF(sizes); s++) {
        size_t m = sizes[s][0], n = sizes[s][1];
        double *x = malloc(m * sizeof *x), *y = malloc(n * sizeof *y);
        double *all = malloc(m * n * sizeof *all);
        for (size_t i = 0; i < m; i++) /* ties and signs on purpose */
            x[i] = floor(next_uniform(&state) * 20.0) / 4.0 - 2.0;
        for (size_t j = 0; j < n; j++)
            y[j] = s % 2 ? next_uniform(&state) * 5.0 - 1.0 : floor(next_uniform(&state) * 8.0) / 4.0;
        qsort(x, m, sizeof *x, ascending);
        qsort(y, n, sizeof *y, ascending);
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++)
                all[i * n + j] = y[j] - x[i];
        qsort(all, m * n, sizeof *all, ascending);
        ar_pairs_t sorted, bisected;
        ck_assert_int_eq(ar_pairs_init(&sorted, x, m, y, n, 0), 0);
        ck_assert_int_eq(ar_pairs_init(&bisected, x, m, y, n, 1), 0);
        ck_assert(bisected.stored == NULL);
        ck_assert((sorted.stored != NULL) == (m * n <= AR_PAIRS_STORED_MAX));
        for (size_t k = 1; k <= m * n; k += m * n > 1000 ? 7 : 1) {
            ck_assert(ar_pairs_kth(&sorted, k) == all[k - 1]);
            ck_assert(ar_pairs_kth(&bisected, k) == all[k - 1]);
        }
        /* Several at once, equal ones among them, as the effect asks. */
        size_t count = m * n, ks[] = {1, (count + 1) / 2, count / 2 + 1, (count + 1) / 2, count};
        sort_sizes(ks, N_OF(ks));
        double got[N_OF(ks)], got_bisected[N_OF(ks)];
        ar_pairs_select(&sorted, ks, N_OF(ks), got);
        ar_pairs_select(&bisected, ks, N_OF(ks), got_bisected);
        for (size_t i = 0; i < N_OF(ks); i++)
            ck_assert(got[i] == all[ks[i] - 1] && got_bisected[i] == all[ks[i] - 1]);
        ar_pairs_free(&sorted);
        ar_pairs_free(&bisected);
        free(x);
        free(y);
        free(all);
    }
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

START_TEST(three_trials_a_side_are_inconclusive)
{
    /* The tf32_off cell: 20.93 +- 0.40 s against 22.79 +- 1.15 s. */
    static const double a[] = {20.53, 20.93, 21.33}, b[] = {21.64, 22.79, 23.94};
    ar_stats_result_t r = judge_one(a, 3, b, 3, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert_str_eq(ar_verdict_name(r.verdict), "inconclusive");
    ck_assert_int_eq(r.reachable, 0);
    assert_close(r.p_raw, 0.1, 1e-15);
    ck_assert(r.effect_pct > 5.0);
    ck_assert_uint_ge(r.trials_needed, 5); /* what 0.01 needs at all */
    /* Even a doubling cannot be told at 3 per side. */
    double twice[3] = {41.06, 41.86, 42.66};
    r = judge_one(a, 3, twice, 3, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert_int_eq(r.verdict, AR_VERDICT_INCONCLUSIVE);
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
    ck_assert(r.significant && r.practical && r.reachable && r.exact);
    assert_close(r.p_value, 2.0 / 252.0, 1e-15);
    assert_close(r.effect_pct, 10.0, 1e-9);
    ck_assert_uint_eq(r.trials_needed, 0);
    ck_assert_int_eq(judge_one(a, 5, up, 5, AR_STATS_BETTER_HIGHER, &defaults).verdict,
                     AR_VERDICT_IMPROVED);
    ck_assert_int_eq(judge_one(a, 5, down, 5, AR_STATS_BETTER_LOWER, &defaults).verdict,
                     AR_VERDICT_IMPROVED);
    ck_assert_int_eq(judge_one(a, 5, down, 5, AR_STATS_BETTER_HIGHER, &defaults).verdict,
                     AR_VERDICT_REGRESSED);
    /* Significant, but 3% is inside the 5% threshold. */
    r = judge_one(a, 5, small, 5, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert(r.significant && !r.practical);
    ck_assert_int_eq(r.verdict, AR_VERDICT_UNCHANGED);
    /* No better direction: a change is reported as such, never as better
     * or worse, and no number of trials turns it into either. */
    r = judge_one(a, 5, up, 5, AR_STATS_BETTER_NONE, &defaults);
    ck_assert_int_eq(r.verdict, AR_VERDICT_INCONCLUSIVE);
    ck_assert(r.significant && r.practical && r.trials_needed == 0);
    ck_assert_int_eq(judge_one(a, 5, small, 5, AR_STATS_BETTER_NONE, &defaults).verdict,
                     AR_VERDICT_UNCHANGED);
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
                     AR_VERDICT_UNCHANGED);
    o.threshold_pct = nextafter(first.effect_pct, 0.0);
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_REGRESSED);
    /* The absolute floor, in the measure's unit, likewise. */
    o = defaults;
    o.min_delta = first.effect_abs;
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_UNCHANGED);
    o.min_delta = nextafter(first.effect_abs, 0.0);
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_REGRESSED);
    /* alpha: p must be below it.  At alpha = 2/252, the smallest p of 5 a
     * side, these sizes cannot reach it at all. */
    o = defaults;
    o.alpha = 2.0 / 252.0;
    ar_stats_result_t r = judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o);
    ck_assert(!r.reachable && !r.significant);
    ck_assert_int_eq(r.verdict, AR_VERDICT_INCONCLUSIVE);
    ck_assert_uint_eq(r.trials_needed, 6);
    o.alpha = nextafter(2.0 / 252.0, 1.0);
    ck_assert_int_eq(judge_one(a, 5, b, 5, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_REGRESSED);
}
END_TEST

START_TEST(no_significance_is_unchanged_only_when_the_interval_rules_a_change_out)
{
    /* 20 a side, 0.5% noise, no shift: the interval is inside +-5%. */
    double a[20], b[20], wide_a[6], wide_b[6];
    noisy(a, 20, 50.0, 0.005, 1.0);
    for (size_t i = 0; i < 20; i++) /* other trials of the same spread */
        b[i] = a[(i + 7) % 20] * (1.0 + 0.001 * (double)(i % 3));
    ar_stats_result_t r = judge_one(a, 20, b, 20, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert(!r.significant);
    ck_assert(r.ci_low_pct >= -5.0 && r.ci_high_pct <= 5.0);
    ck_assert_int_eq(r.verdict, AR_VERDICT_UNCHANGED);
    /* 6 a side, 20% noise: the interval reaches past 5%. */
    noisy(wide_a, 6, 50.0, 0.2, 1.0);
    noisy(wide_b, 6, 50.0, 0.2, 1.02);
    r = judge_one(wide_a, 6, wide_b, 6, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert(!r.significant && r.reachable);
    ck_assert(r.ci_high_pct > 5.0 || r.ci_low_pct < -5.0);
    ck_assert_int_eq(r.verdict, AR_VERDICT_INCONCLUSIVE);
    ck_assert_uint_gt(r.trials_needed, 6);
    /* A floor above the whole interval's reach in the unit rules it out. */
    ar_stats_options_t o = defaults;
    o.min_delta = 1e6;
    ck_assert_int_eq(judge_one(wide_a, 6, wide_b, 6, AR_STATS_BETTER_LOWER, &o).verdict,
                     AR_VERDICT_UNCHANGED);
}
END_TEST

START_TEST(trials_needed_follow_the_formula)
{
    /* Logs L-d, L, L+d against the same plus e: pooled spread d, estimate
     * e.  3 a side never reach 0.01, so at least 5; with d = 0.3 and a 20%
     * change, the interval's need rules: 2 pi/3 d^2 1.96^2 / (e - log 1.05)^2. */
    double d = 0.3, e = log(1.2), a[3], b[3];
    for (int i = 0; i < 3; i++) {
        a[i] = 100.0 * exp(d * (i - 1));
        b[i] = a[i] * 1.2;
    }
    ar_stats_result_t r = judge_one(a, 3, b, 3, AR_STATS_BETTER_LOWER, &defaults);
    ck_assert_int_eq(r.verdict, AR_VERDICT_INCONCLUSIVE);
    assert_close(r.spread, d, 1e-12);
    double z = 1.959963984540054, distance = e - log(1.05);
    double want = ceil(2.0 * M_PI / 3.0 * d * d * z * z / (distance * distance));
    ck_assert_uint_eq(r.trials_needed, (size_t)want);
    ck_assert_uint_eq(r.trials_needed, 41);
    /* Tight data: only alpha's own need, 5. */
    for (int i = 0; i < 3; i++) {
        a[i] = 100.0 * exp(0.001 * (i - 1));
        b[i] = a[i] * 1.2;
    }
    ck_assert_uint_eq(judge_one(a, 3, b, 3, AR_STATS_BETTER_LOWER, &defaults).trials_needed, 5);
}
END_TEST

START_TEST(holm_decides_within_a_family)
{
    /* Two kernels of one cell, each regressed alone at 5 a side (p
     * 0.0079): together each p doubles past 0.01, and 5 a side cannot
     * reach 0.01 in a family of two; 6 can (2 x 2/924 = 0.0043). */
    double a[5], b[5];
    noisy(a, 5, 100.0, 0.01, 1.0);
    noisy(b, 5, 100.0, 0.01, 1.10);
    ar_stats_measure_t family[3] = {{a, 5, b, 5, AR_STATS_BETTER_LOWER, 1},
                                       {a, 5, b, 5, AR_STATS_BETTER_LOWER, 0},
                                       {a, 0, b, 5, AR_STATS_BETTER_LOWER, 1}};
    ar_stats_result_t r[3];
    ck_assert_int_eq(ar_stats_judge(family, 2, &defaults, r, NULL), AR_STATS_OK);
    for (int i = 0; i < 2; i++) {
        assert_close(r[i].p_value, 2.0 * 2.0 / 252.0, 1e-15);
        ck_assert_int_eq(r[i].verdict, AR_VERDICT_INCONCLUSIVE);
        ck_assert_uint_eq(r[i].trials_needed, 6);
    }
    ck_assert(r[0].gated == 1 && r[1].gated == 0);
    /* An empty side leaves the measure out of the family: the first is
     * judged as alone. */
    family[1] = family[2];
    ck_assert_int_eq(ar_stats_judge(family, 2, &defaults, r, NULL), AR_STATS_OK);
    ck_assert_int_eq(r[0].verdict, AR_VERDICT_REGRESSED);
    assert_close(r[0].p_value, 2.0 / 252.0, 1e-15);
    ck_assert_int_eq(r[1].verdict, AR_VERDICT_INCONCLUSIVE);
    ck_assert(isnan(r[1].p_value) && isnan(r[1].effect_pct) && r[1].n_a == 0);
    ck_assert_uint_eq(r[1].trials_needed, 5);
}
END_TEST

START_TEST(headline_family_across_cells)
{
    /* Three cells' GPU time against the baseline, 10 a side (the normal
     * approximation): one 20% slower, two unchanged. */
    double base[10], same1[10], same2[10], slow[10];
    noisy(base, 10, 8.0, 0.01, 1.0);
    noisy(slow, 10, 8.0, 0.01, 1.2);
    for (size_t i = 0; i < 10; i++) { /* other trials, same spread */
        same1[i] = base[(i + 3) % 10] * (1.0 - 0.002 * (double)(i % 2));
        same2[i] = base[(i + 5) % 10] * 1.001;
    }
    ar_stats_measure_t cells[] = {{base, 10, same1, 10, AR_STATS_BETTER_LOWER, 1},
                                     {base, 10, slow, 10, AR_STATS_BETTER_LOWER, 1},
                                     {base, 10, same2, 10, AR_STATS_BETTER_LOWER, 1}};
    ar_stats_result_t r[3];
    ck_assert_int_eq(ar_stats_judge(cells, 3, &defaults, r, NULL), AR_STATS_OK);
    ck_assert_int_eq(r[0].verdict, AR_VERDICT_UNCHANGED);
    ck_assert_int_eq(r[1].verdict, AR_VERDICT_REGRESSED);
    ck_assert_int_eq(r[2].verdict, AR_VERDICT_UNCHANGED);
    ck_assert(!r[1].exact && r[1].p_value < 0.01 && r[1].p_value >= r[1].p_raw);
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
    ar_stats_options_t wrong[] = {{0.0, 5, 0}, {1.0, 5, 0}, {0.01, -1, 0}, {0.01, 5, NAN},
                                     {NAN, 5, 0}, {0.01, INFINITY, 0}};
    for (size_t i = 0; i < N_OF(wrong); i++) {
        ck_assert_int_eq(ar_stats_judge(m, 1, &wrong[i], r, &bad), AR_STATS_BAD_OPTION);
        ck_assert_uint_eq(bad, 1);
    }
    ck_assert_str_eq(ar_stats_status_text(AR_STATS_NOT_FINITE),
                     "a value is not a finite number");
    ck_assert_int_eq(ar_stats_judge(m, 0, &defaults, r, &bad), AR_STATS_OK);
    static const char *const names[] = {"unchanged", "regressed", "improved", "inconclusive",
                                        "incomparable"};
    for (int v = AR_VERDICT_UNCHANGED; v <= AR_VERDICT_INCOMPARABLE; v++)
        ck_assert_str_eq(ar_verdict_name((ar_verdict_t)v), names[v]);
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
    TCase *test = tcase_create("mann-whitney");
    tcase_add_test(test, mwu_exact_as_scipy_documents_it);
    tcase_add_test(test, mwu_exact_with_a_large_side_matches_r);
    tcase_add_test(test, mwu_ties_take_the_normal_approximation_with_tie_correction);
    tcase_add_test(test, mwu_normal_approximation_matches_scipys_vectors);
    tcase_add_test(test, mwu_many_ties_match_r);
    tcase_add_test(test, mwu_corner_cases);
    tcase_add_test(test, mwu_exact_stays_exact_with_hundreds_on_one_side);
    tcase_add_test(test, smallest_p_and_the_trials_that_reach_alpha);
    tcase_add_test(test, exact_distribution_matches_the_recursion_and_the_1947_table);
    tcase_add_test(test, normal_tail_and_its_inverse);
    suite_add_tcase(suite, test);
    TCase *holm = tcase_create("holm");
    tcase_add_test(holm, holm_on_families_computed_by_hand);
    suite_add_tcase(suite, holm);
    TCase *eff = tcase_create("effect");
    tcase_add_test(eff, interval_counts_match_the_tables);
    tcase_add_test(eff, effect_is_the_ratio_of_a_pure_scaling);
    tcase_add_test(eff, effect_follows_its_definition);
    tcase_add_test(eff, effect_on_zeros_and_negatives_is_a_shift);
    tcase_add_test(eff, pair_bisection_gives_the_sorted_differences);
    suite_add_tcase(suite, eff);
    TCase *summary = tcase_create("summary");
    tcase_add_test(summary, identical_samples_have_their_value_as_mean_and_no_spread);
    tcase_add_test(summary, sums_and_means_are_correctly_rounded);
    tcase_add_test(summary, population_std_and_percentiles);
    tcase_add_test(summary, means_print_at_the_precision_of_their_data);
    suite_add_tcase(suite, summary);
    TCase *verdict = tcase_create("verdict");
    tcase_add_test(verdict, three_trials_a_side_are_inconclusive);
    tcase_add_test(verdict, a_clear_change_regresses_or_improves_by_direction);
    tcase_add_test(verdict, thresholds_are_strict_at_their_boundaries);
    tcase_add_test(verdict, no_significance_is_unchanged_only_when_the_interval_rules_a_change_out);
    tcase_add_test(verdict, trials_needed_follow_the_formula);
    tcase_add_test(verdict, holm_decides_within_a_family);
    tcase_add_test(verdict, headline_family_across_cells);
    tcase_add_test(verdict, judge_refuses_bad_input_and_names_it);
    tcase_add_test(verdict, decimals_without_printing_agree_with_printing);
    suite_add_tcase(suite, verdict);
    return suite;
}

AORTA_CHECK_MAIN(stats_suite)
