/* SPDX-License-Identifier: MIT */
/* summary.c - the numbers a report prints about one side's samples: mean,
 * population std, min, max and upstream's percentiles, and a mean's text
 * at the precision its data has (a mean of three 6.1s is "6.1", never
 * "6.099999999999999"). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/internal.h"
#include "stats/stats.h"

double ar_stats_percentile(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double index = (double)(n - 1) * q;
    size_t low = (size_t)floor(index), high = (size_t)ceil(index);
    return sorted[low] + (sorted[high] - sorted[low]) * (index - (double)low);
}

ar_stats_status_t ar_stats_summarize(const double *x, size_t n, ar_stats_summary_t *out)
{
    *out = (ar_stats_summary_t){n, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return AR_STATS_NOT_FINITE;
    if (n == 0)
        return AR_STATS_OK;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return AR_STATS_NO_MEMORY;
    memcpy(sorted, x, n * sizeof *sorted);
    ar_sort_doubles(sorted, n);
    out->mean = ar_stats_mean(x, n);
    out->std = ar_stats_pstdev(x, n);
    out->min = sorted[0];
    out->max = sorted[n - 1];
    out->p50 = ar_stats_percentile(sorted, n, 0.5);
    out->p90 = ar_stats_percentile(sorted, n, 0.9);
    out->p99 = ar_stats_percentile(sorted, n, 0.99);
    free(sorted);
    return isnan(out->mean) || isnan(out->std) ? AR_STATS_NO_MEMORY : AR_STATS_OK;
}

/* The same places without printing, for values whose decimal fits in 15
 * places and 2^53: the first d for which value rounded to d places reads
 * back as value (a division correctly rounded is what reading the decimal
 * gives); -1 when none does.  A comparison of many cells asks it for
 * every sample. */
static int places_scaled(double value)
{
    static const double ten[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    double magnitude = fabs(value);
    for (int d = 0; d < 16; d++) {
        double scaled = magnitude * ten[d];
        if (scaled >= 4e15)
            return -1;
        if (nearbyint(scaled) / ten[d] == magnitude)
            return d;
    }
    return -1;
}

/* The decimal places of value's shortest round-trip text: its significant
 * digits (the fewest that read back, found by bisection as 17 always do)
 * less those before the point. */
static int places_of(double value)
{
    if (value == 0.0 || !isfinite(value))
        return 0;
    int scaled = places_scaled(value);
    if (scaled >= 0)
        return scaled;
    char text[40];
    int low = 1, high = 17;
    while (low < high) {
        int middle = (low + high) / 2;
        snprintf(text, sizeof text, "%.*e", middle - 1, value);
        if (strtod(text, NULL) == value)
            high = middle;
        else
            low = middle + 1;
    }
    snprintf(text, sizeof text, "%.*e", low - 1, value);
    char *exponent = strchr(text, 'e');
    int digits = 0;
    for (const char *c = text; c < exponent; c++)
        digits += *c >= '0' && *c <= '9';
    for (const char *c = exponent - 1; *c == '0'; c--)
        digits--;
    int places = digits - 1 - atoi(exponent + 1);
    return places > 0 ? places : 0;
}

int ar_stats_decimals(const double *x, size_t n)
{
    int finest = 0;
    for (size_t i = 0; i < n; i++) {
        int places = places_of(x[i]);
        finest = places > finest ? places : finest;
    }
    return finest;
}

/* min(places_of(value), limit), without printing when it can be seen
 * from the first limit scalings: one that reads back is the answer; where
 * none of them does and each stayed below 2^51, value has no decimal of
 * fewer places (reading one back would be exact there: the product's two
 * roundings stay under half a unit), so the answer is limit.  A mean of
 * noisy samples has no short decimal: this spares its bisection. */
static int places_at_most(double value, int limit)
{
    static const double ten[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    if (limit <= 0 || value == 0.0 || !isfinite(value))
        return 0;
    double magnitude = fabs(value);
    for (int d = 0; d < limit; d++) {
        double scaled = d < 16 ? magnitude * ten[d] : 0x1p51;
        if (scaled >= 0x1p51)
            break;
        if (nearbyint(scaled) / ten[d] == magnitude)
            return d;
        if (d + 1 == limit)
            return limit;
    }
    int own = places_of(value);
    return own < limit ? own : limit;
}

int ar_stats_format_mean(char *out, size_t size, double value, const double *x, size_t n)
{
    if (!isfinite(value) || size == 0)
        return -1;
    int places = ar_stats_decimals(x, n);
    for (size_t step = 1; step < n; step *= 10)
        places++;
    places = places_at_most(value, places);
    int len = snprintf(out, size, "%.*f", places, value);
    if (len < 0 || (size_t)len + 2 >= size)
        return -1;
    if (!strchr(out, '.')) {
        strcpy(out + len, ".0");
        len += 2;
    }
    while (out[len - 1] == '0' && out[len - 2] != '.')
        out[--len] = '\0';
    if (!strcmp(out, "-0.0"))
        len = (int)strlen(strcpy(out, "0.0"));
    return len;
}
