/* SPDX-License-Identifier: MIT */
/* student_t.c - Student's t distribution for Welch's test: its two-sided
 * tail through the regularized incomplete beta function (continued
 * fraction, Lentz's method: relative error near the double's own), and the
 * quantile by bisection on that tail.  Degrees of freedom need not be whole
 * (Welch-Satterthwaite). */
#include "config.h"

#include <math.h>

#include "stats/internal.h"

/* The continued fraction of I_x(a, b) (Numerical Recipes' betacf, modified
 * Lentz), valid for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
    const double tiny = 1e-300, eps = 1e-16;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
    d = fabs(d) < tiny ? tiny : d;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 10000; m++) {
        double m2 = 2.0 * m;
        double num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + num * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1.0 + num / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + num * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1.0 + num / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        double step = d * c;
        h *= step;
        if (fabs(step - 1.0) < eps)
            break;
    }
    return h;
}

double ar_betainc(double a, double b, double x)
{
    if (!(x > 0.0))
        return x == 0.0 ? 0.0 : NAN;
    if (!(x < 1.0))
        return x == 1.0 ? 1.0 : NAN;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * beta_fraction(a, b, x) / a;
    return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

double ar_t_two_sided(double t, double df)
{
    if (isnan(t) || !(df > 0.0))
        return NAN;
    if (isinf(t))
        return 0.0;
    if (isinf(df))
        return 2.0 * ar_normal_sf(fabs(t));
    /* P(|T| > t) = I_{df / (df + t^2)}(df / 2, 1 / 2): a small tail is a
     * small x, computed directly (never as a complement). */
    return ar_betainc(df / 2.0, 0.5, df / (df + t * t));
}

double ar_t_isf(double p, double df)
{
    if (!(p > 0.0 && p < 1.0) || !(df > 0.0))
        return p == 0.0 ? INFINITY : p == 1.0 ? -INFINITY : NAN;
    if (p > 0.5)
        return -ar_t_isf(1.0 - p, df);
    if (isinf(df))
        return ar_normal_isf(p);
    /* P(T > t) = p: bracket, then bisect to the double's resolution. */
    double lo = 0.0, hi = 1.0;
    while (ar_t_two_sided(hi, df) / 2.0 > p && hi < 1e300)
        lo = hi, hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 4e-16 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (ar_t_two_sided(mid, df) / 2.0 > p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}
