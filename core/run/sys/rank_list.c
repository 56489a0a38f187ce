/* SPDX-License-Identifier: MIT */
/* rank_list.c - a list of ranks, read and written (rank_list.h). */
#include "config.h"

#include "sys/rank_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* One rank of an item: digits only, at most AR_RANK_MAX - 1.  The end
 * of the digits into *end; -1 when there are none or too many. */
static long read_rank(const char *text, const char **end)
{
    long value = 0;
    const char *p = text;
    while (*p >= '0' && *p <= '9') {
        value = value * 10 + (*p - '0');
        if (value >= AR_RANK_MAX)
            return -1;
        p++;
    }
    *end = p;
    return p == text ? -1 : value;
}

/* One item, "N" or "N-M" with blanks around it, its ranks appended. */
static int read_item(const char *item, long **ranks, size_t *count, size_t *cap, char **error)
{
    const char *p = item + strspn(item, " \t");
    const char *end = NULL;
    long first = read_rank(p, &end), last = first;
    if (first >= 0 && *end == '-')
        last = read_rank(end + 1, &end);
    if (first >= 0 && last >= 0)
        end += strspn(end, " \t");
    if (first < 0 || last < 0 || *end) {
        *error = ar_xasprintf("'%s' is not a rank (an integer from 0 to %d) or a range of "
                                 "them (N-M)",
                                 item, AR_RANK_MAX - 1);
        return -1;
    }
    if (last < first) {
        *error = ar_xasprintf("'%s' is not a range: it ends before it starts", item);
        return -1;
    }
    if ((size_t)(last - first) + *count >= AR_RANK_MAX) {
        *error = ar_xasprintf("'%s' makes more than %d ranks: some are listed twice", item,
                                 AR_RANK_MAX);
        return -1;
    }
    ar_xgrow((void **)ranks, cap, *count + (size_t)(last - first) + 1, sizeof **ranks);
    for (long k = first; k <= last; k++)
        (*ranks)[(*count)++] = k;
    return 0;
}

int ar_rank_list_parse(const char *text, long **ranks, size_t *count, char **error)
{
    *ranks = NULL;
    *count = 0;
    *error = NULL;
    size_t cap = 0;
    char *copy = ar_xstrdup(text);
    int status = 0;
    char *item = copy;
    for (;;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        if (item[strspn(item, " \t")] == '\0') {
            *error = ar_xstrdup(text[strspn(text, " \t")] ? "an empty item: two commas, or "
                                                               "a comma at an end"
                                                             : "no rank given");
            status = -1;
        } else {
            status = read_item(item, ranks, count, &cap, error);
        }
        if (status != 0 || !comma)
            break;
        item = comma + 1;
    }
    free(copy);
    long twice = status == 0 ? ar_rank_list_sort(*ranks, *count) : -1;
    if (twice >= 0) {
        *error = ar_xasprintf("rank %ld is listed twice", twice);
        status = -1;
    }
    if (status != 0) {
        free(*ranks);
        *ranks = NULL;
        *count = 0;
    }
    return status;
}

static int by_value(const void *left, const void *right)
{
    long a = *(const long *)left, b = *(const long *)right;
    return (a > b) - (a < b);
}

long ar_rank_list_sort(long *ranks, size_t count)
{
    if (count > 1)
        qsort(ranks, count, sizeof *ranks, by_value);
    for (size_t i = 1; i < count; i++)
        if (ranks[i] == ranks[i - 1])
            return ranks[i];
    return -1;
}

int ar_rank_list_has(const long *ranks, size_t count, long rank)
{
    size_t low = 0, high = count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (ranks[mid] == rank)
            return 1;
        if (ranks[mid] < rank)
            low = mid + 1;
        else
            high = mid;
    }
    return 0;
}

char *ar_rank_list_format(const long *ranks, size_t count, const char *separator)
{
    size_t len = 0, cap = 0;
    char *list = NULL;
    ar_xgrow((void **)&list, &cap, 1, 1);
    list[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        size_t last = i;
        while (last + 1 < count && ranks[last + 1] == ranks[last] + 1)
            last++;
        char item[48];
        if (last > i + 1) {
            snprintf(item, sizeof item, "%ld-%ld", ranks[i], ranks[last]);
            i = last;
        } else {
            snprintf(item, sizeof item, "%ld", ranks[i]); /* a pair stays two items */
        }
        ar_xgrow((void **)&list, &cap, len + strlen(separator) + strlen(item) + 1, 1);
        len += (size_t)sprintf(list + len, "%s%s", len ? separator : "", item);
    }
    return list;
}
