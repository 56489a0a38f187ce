/* SPDX-License-Identifier: MIT */
/* suggest.h - "did you mean" for a misspelt name: the closest of the
 * names it could have been, when it is close enough to be a typo. */
#ifndef AR_SUGGEST_H
#define AR_SUGGEST_H

#include <stddef.h>

/* The candidate nearest to word by edit distance (insert, delete,
 * substitute, swap two neighbours), or NULL when none is close: at most 2
 * edits, and at most a third of the longer word's length (so "ab" never
 * suggests "xy").  The first of equals wins; word itself never matches. */
const char *ar_suggest(const char *word, const char *const *candidates, size_t count);

/* " (did you mean 'X'?)" for ar_suggest()'s answer, or "" (free it). */
char *ar_suggest_hint(const char *word, const char *const *candidates, size_t count);

#endif
