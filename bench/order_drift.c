/* SPDX-License-Identifier: MIT */
/* bench/order_drift: why trials run in rounds (docs/design.md, Trial
 * order).  An A/A sweep, synthesized: 6 cells of one and the same
 * workload, 5 trials each, each trial's time log-normal with a CV of 1%,
 * and a drift of +0.5% per trial in the order the trials ran (a GPU
 * warming up).  The order is the runner's own (ar_order_sequence(), with
 * a seed of its own per repetition, as runs of different tickets have).
 * Each repetition compares every cell with the baseline cell (the first)
 * by Welch's t on the log values, two-sided, Holm's correction over the 5
 * at alpha 0.01, and counts a repetition that calls any cell different.
 * 1,000 repetitions per order; prints the share for each and exits 1 when
 * sequential order stays at or below 10% or interleaved order passes 1%.
 *
 * The statistics are computed here (Welch's t, the t distribution from
 * the regularized incomplete beta), not by --compare's module, which is
 * being rewritten (decisions.md section 11): the same test it will use.
 * Usage: order_drift [REPETITIONS]. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recipe/plan.h"
#include "sweep/order.h"

#define CELLS 6
#define TRIALS 5
#define CV 0.01
#define DRIFT 0.005
#define ALPHA 0.01

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *state)
{
    return ((double)(splitmix64(state) >> 11) + 0.5) / 9007199254740992.0;
}

static double gaussian(uint64_t *state)
{
    return sqrt(-2.0 * log(uniform(state))) * cos(2.0 * M_PI * uniform(state));
}

/* The continued fraction of the incomplete beta (modified Lentz). */
static double beta_fraction(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
    d = 1.0 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m;
        double num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        for (int step = 0; step < 2; step++) {
            d = 1.0 + num * d;
            d = 1.0 / (fabs(d) < tiny ? tiny : d);
            c = 1.0 + num / c;
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
            num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
            if (step == 1 && fabs(d * c - 1.0) < 1e-15)
                return h;
        }
    }
    return h;
}

/* The regularized incomplete beta I_x(a, b). */
static double incomplete_beta(double a, double b, double x)
{
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * beta_fraction(a, b, x) / a;
    return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

static void mean_var(const double *x, int n, double *mean, double *var)
{
    double sum = 0.0, ss = 0.0;
    for (int i = 0; i < n; i++)
        sum += x[i];
    *mean = sum / n;
    for (int i = 0; i < n; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    *var = ss / (n - 1);
}

/* Welch's t on a and b (n each), the two-sided p. */
static double welch_p(const double *a, const double *b, int n)
{
    double ma, va, mb, vb;
    mean_var(a, n, &ma, &va);
    mean_var(b, n, &mb, &vb);
    double sa = va / n, sb = vb / n;
    double t = (mb - ma) / sqrt(sa + sb);
    double df = (sa + sb) * (sa + sb) / (sa * sa / (n - 1) + sb * sb / (n - 1));
    return incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
}

static int by_value(const void *l, const void *r)
{
    double a = *(const double *)l, b = *(const double *)r;
    return (a > b) - (a < b);
}

/* Whether Holm's correction at ALPHA rejects any of the count p-values. */
static int holm_rejects_any(double *p, int count)
{
    qsort(p, (size_t)count, sizeof *p, by_value);
    return p[0] <= ALPHA / count;
}

/* One A/A sweep in plan's order: whether it calls any cell different. */
static int one_sweep(const ar_plan_t *plan, uint64_t *noise)
{
    size_t count = 0;
    ar_slot_t *slots = ar_order_sequence(plan, &count);
    double logs[CELLS][TRIALS];
    for (size_t k = 0; k < count; k++)
        logs[slots[k].cell][slots[k].trial] = (double)k * log1p(DRIFT) + CV * gaussian(noise);
    free(slots);
    double p[CELLS - 1];
    for (int c = 1; c < CELLS; c++)
        p[c - 1] = welch_p(logs[0], logs[c], TRIALS);
    return holm_rejects_any(p, CELLS - 1);
}

int main(int argc, char **argv)
{
    long reps = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
    if (reps <= 0) {
        fprintf(stderr, "usage: order_drift [REPETITIONS]\n");
        return 2;
    }
    ar_cell_t cells[CELLS];
    memset(cells, 0, sizeof cells);
    char names[CELLS][16];
    for (int c = 0; c < CELLS; c++) {
        snprintf(names[c], sizeof names[c], "cell%d", c);
        cells[c].name = names[c];
    }
    ar_plan_t plan;
    memset(&plan, 0, sizeof plan);
    plan.cells = cells;
    plan.cell_count = CELLS;
    plan.trials = TRIALS;
    static const ar_order_t orders[] = {AR_ORDER_SEQUENTIAL, AR_ORDER_INTERLEAVED,
                                        AR_ORDER_RANDOM};
    double share[3];
    printf("A/A sweep: %d cells x %d trials, CV %.0f%%, drift %+.1f%% per trial; Welch's t "
           "on logs, Holm over %d cells, alpha %.2f; %ld repetitions\n",
           CELLS, TRIALS, CV * 100, DRIFT * 100, CELLS - 1, ALPHA, reps);
    for (int o = 0; o < 3; o++) {
        plan.order = orders[o];
        uint64_t noise = 20261207, seeds = 33;
        long called = 0;
        for (long r = 0; r < reps; r++) {
            plan.order_seed = splitmix64(&seeds) >> 12; /* < 2^52, as the runner's */
            called += one_sweep(&plan, &noise);
        }
        share[o] = 100.0 * (double)called / (double)reps;
        printf("  %-12s a baseline difference reported in %5.1f%% of repetitions\n",
               ar_order_name(orders[o]), share[o]);
    }
    int ok = share[0] > 10.0 && share[1] <= 1.0;
    printf("%s: sequential > 10%% and interleaved <= 1%%\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
