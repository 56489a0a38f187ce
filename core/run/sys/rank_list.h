/* SPDX-License-Identifier: MIT */
/* rank_list.h - a list of ranks (docs/multi-rank.md, Profiling chosen
 * ranks): read from the command line's "0,3" or "0-3,8", written for
 * people as "0, 3-7, 9".  libc only: aorta-rank-exec links it too. */
#ifndef AR_RANK_LIST_H
#define AR_RANK_LIST_H

#include <stddef.h>

/* The most ranks a job may have: a rank is below it, a world size at most
 * it.  A larger value is a launcher's mistake or a hostile environment; it
 * must not size an allocation or a wait (aorta-run(1), docs/multi-rank.md). */
#define AR_RANK_MAX 65536

/* text ("0,3", "0-3, 8": items separated by commas, blanks around an item
 * allowed, a range N-M with N <= M) into *ranks, sorted, each rank once.
 * Returns 0 with *ranks (free it) and *count (at least 1) set, or -1 with
 * *error set to what is wrong, naming the item (free it). */
int ar_rank_list_parse(const char *text, long **ranks, size_t *count, char **error);

/* Sort ranks in place; the first rank found twice, else -1. */
long ar_rank_list_sort(long *ranks, size_t count);

/* Whether rank is in the sorted list ranks. */
int ar_rank_list_has(const long *ranks, size_t count, long rank);

/* The sorted list ranks as text, runs of three or more as a range, items
 * joined by separator: "0, 3-7, 9" with ", ", "0,3-7,9" with ",", which
 * ar_rank_list_parse() reads back.  Linear in count.  Free it. */
char *ar_rank_list_format(const long *ranks, size_t count, const char *separator);

#endif
