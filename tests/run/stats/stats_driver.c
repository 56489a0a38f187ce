/* SPDX-License-Identifier: MIT */
/* stats_driver - the statistics module on cases read from stdin, one per
 * line, for the reference scripts (scipy_reference.py, bench/verdicts.py):
 *
 *   welch N_A N_B A... B...    -> "T P DF EFFECT_PCT CI_LOW_PCT CI_HIGH_PCT LOG_SCALE"
 *                                 (the interval at 98%)
 *   summary N 0 X...           -> "FSUM MEAN PSTDEV"
 *   judge N_A N_B A... B...    -> "VERDICT P_RAW EFFECT_PCT CI_LOW_PCT CI_HIGH_PCT TRIALS_NEEDED"
 *                                 (a family of one, lower is better, default options)
 *
 * Numbers are read with strtod (Python's repr reads back exactly) and
 * written with %.17g; a line that is not a case is an error (exit 2). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

static int parse_case(char *line, char *mode, size_t mode_size, double **values, size_t *n_a,
                      size_t *n_b)
{
    char *cursor = line, *end;
    size_t len = strcspn(cursor, " \t\n");
    if (len == 0 || len >= mode_size)
        return -1;
    memcpy(mode, cursor, len);
    mode[len] = '\0';
    cursor += len;
    unsigned long a = strtoul(cursor, &end, 10), b = strtoul(end, &cursor, 10);
    if (cursor == end)
        return -1;
    *n_a = a;
    *n_b = b;
    *values = malloc((a + b + 1) * sizeof **values);
    if (!*values)
        return -1;
    for (size_t i = 0; i < a + b; i++) {
        (*values)[i] = strtod(cursor, &end);
        if (end == cursor)
            return -1;
        cursor = end;
    }
    return 0;
}

static int run_case(const char *mode, const double *a, size_t n_a, const double *b, size_t n_b)
{
    if (!strcmp(mode, "welch")) {
        ar_stats_welch_t w;
        if (ar_stats_welch(a, n_a, b, n_b, 0.98, &w) != AR_STATS_OK)
            return -1;
        printf("%.17g %.17g %.17g %.17g %.17g %.17g %d\n", w.t, w.p, w.df, w.effect_pct,
               w.ci_low_pct, w.ci_high_pct, w.log_scale);
    } else if (!strcmp(mode, "summary")) {
        printf("%.17g %.17g %.17g\n", ar_stats_fsum(a, n_a), ar_stats_mean(a, n_a),
               ar_stats_pstdev(a, n_a));
    } else if (!strcmp(mode, "judge")) {
        ar_stats_measure_t m = {a, n_a, b, n_b, AR_STATS_BETTER_LOWER, 1};
        ar_stats_options_t options = AR_STATS_OPTIONS_INIT;
        ar_stats_result_t r;
        if (ar_stats_judge(&m, 1, &options, &r, NULL) != AR_STATS_OK)
            return -1;
        printf("%s %.17g %.17g %.17g %.17g %zu\n", ar_verdict_name(r.verdict), r.p_raw,
               r.effect_pct, r.ci_low_pct, r.ci_high_pct, r.trials_needed);
    } else {
        return -1;
    }
    return 0;
}

int main(void)
{
    char *line = NULL;
    size_t capacity = 0;
    unsigned long number = 0;
    while (getline(&line, &capacity, stdin) > 0) {
        number++;
        char mode[16];
        double *values = NULL;
        size_t n_a, n_b;
        if (parse_case(line, mode, sizeof mode, &values, &n_a, &n_b) != 0
            || run_case(mode, values, n_a, values + n_a, n_b) != 0) {
            fprintf(stderr, "stats_driver: line %lu is not a case\n", number);
            free(values);
            free(line);
            return 2;
        }
        free(values);
    }
    free(line);
    return fflush(stdout) == 0 ? 0 : 1;
}
