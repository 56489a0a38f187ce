/* SPDX-License-Identifier: MIT */
/* suggest.c - "did you mean" (suggest.h). */
#include "config.h"

#include "sys/suggest.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Past this, no name is a typo of another: skip the quadratic work. */
#define SUGGEST_MAX_LEN 256

/* Optimal string alignment distance (Levenshtein plus adjacent swaps). */
static size_t distance(const char *a, size_t n, const char *b, size_t m)
{
    size_t *rows = ar_xcalloc(3 * (m + 1), sizeof *rows);
    size_t *before = rows, *prev = rows + m + 1, *cur = rows + 2 * (m + 1);
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            cur[j] = best;
        }
        size_t *spare = before;
        before = prev;
        prev = cur;
        cur = spare;
    }
    size_t result = prev[m];
    free(rows);
    return result;
}

const char *ar_suggest(const char *word, const char *const *candidates, size_t count)
{
    size_t n = strlen(word);
    if (n == 0 || n > SUGGEST_MAX_LEN)
        return NULL;
    const char *best = NULL;
    size_t best_distance = 3;
    for (size_t i = 0; i < count; i++) {
        size_t m = strlen(candidates[i]);
        if (m > SUGGEST_MAX_LEN || (m > n ? m - n : n - m) >= best_distance)
            continue;
        size_t d = distance(word, n, candidates[i], m);
        size_t longer = n > m ? n : m;
        if (d > 0 && d < best_distance && d * 3 <= longer) {
            best = candidates[i];
            best_distance = d;
        }
    }
    return best;
}

char *ar_suggest_hint(const char *word, const char *const *candidates, size_t count)
{
    const char *best = ar_suggest(word, candidates, count);
    return best ? ar_xasprintf(" (did you mean '%s'?)", best) : ar_xstrdup("");
}
