/* SPDX-License-Identifier: MIT */
/* normal.c - the standard normal distribution's upper tail, as scipy's
 * norm.sf computes it (cephes ndtr at -z: erf near 0, erfc in the tails),
 * and its inverse by Halley's iteration on that tail. */
#include "config.h"

#include <math.h>

#include "stats/internal.h"

/* P(Z <= a): cephes ndtr. */
static double ndtr(double a)
{
    double x = a * M_SQRT1_2, z = fabs(x);
    if (z < M_SQRT1_2)
        return 0.5 + 0.5 * erf(x);
    double y = 0.5 * erfc(z);
    return x > 0 ? 1.0 - y : y;
}

double ar_normal_sf(double z)
{
    if (isnan(z))
        return NAN;
    return ndtr(-z);
}

static double density(double z)
{
    return exp(-0.5 * z * z) / sqrt(2.0 * M_PI);
}

double ar_normal_isf(double p)
{
    if (!(p > 0.0 && p < 1.0))
        return p == 0.0 ? INFINITY : p == 1.0 ? -INFINITY : NAN;
    if (p > 0.5)
        return -ar_normal_isf(1.0 - p);
    /* Abramowitz and Stegun 26.2.23 (error below 4.5e-4), then Halley's
     * steps, each of which about triples the correct digits. */
    double t = sqrt(-2.0 * log(p));
    double z = t - (2.515517 + t * (0.802853 + t * 0.010328))
                       / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
    for (int step = 0; step < 8; step++) {
        double phi = density(z);
        if (phi == 0.0)
            break;
        double r = (ar_normal_sf(z) - p) / phi;
        double next = z + r / (1.0 - 0.5 * z * r);
        if (next == z)
            break;
        z = next;
    }
    return z;
}
