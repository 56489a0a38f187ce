/* SPDX-License-Identifier: MIT */
/* rank_env.c - the rank a launcher gives a process (rank_env.h).  No
 * dependency beyond libc: aorta-rank-exec links it alone. */
#include "config.h"

#include "sweep/rank_env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

const char *const ar_rank_vars[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                       "SLURM_PROCID", NULL};

static const char *const size_vars[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                        "SLURM_NTASKS", NULL};

/* A non-negative decimal integer: 0, 1 when it is more than AR_RANK_MAX
 * (*out is then AR_RANK_MAX), -1 when it is not one. */
static int read_long(const char *text, long *out)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text || *end || value < 0 || (errno && errno != ERANGE))
        return -1;
    if (errno == ERANGE || value > AR_RANK_MAX) {
        *out = AR_RANK_MAX;
        return 1;
    }
    *out = value;
    return 0;
}

int ar_rank_read(long *rank, const char **var, const char **text)
{
    for (size_t i = 0; ar_rank_vars[i]; i++) {
        const char *value = getenv(ar_rank_vars[i]);
        if (!value)
            continue;
        *var = ar_rank_vars[i];
        *text = value;
        return read_long(value, rank) == 0 && *rank < AR_RANK_MAX ? 1 : -1;
    }
    return 0;
}

long ar_rank_world_size(const char **var, const char **text)
{
    *var = *text = NULL;
    for (size_t i = 0; size_vars[i]; i++) {
        const char *value = getenv(size_vars[i]);
        long size = 0;
        int status = value ? read_long(value, &size) : -1;
        if (status == 1) {
            *var = size_vars[i];
            *text = value;
            return -1;
        }
        if (status == 0 && size > 0)
            return size;
    }
    return 0;
}

char *ar_rank_expand(const char *text, long rank)
{
    static const char key[] = AR_RANK_PLACEHOLDER;
    const size_t key_len = sizeof key - 1;
    size_t count = 0;
    for (const char *p = strstr(text, key); p; p = strstr(p + key_len, key))
        count++;
    if (count == 0)
        return ar_xstrdup(text);
    char digits[24];
    int digit_len = snprintf(digits, sizeof digits, "%ld", rank);
    char *out = ar_xmalloc(strlen(text) + count * (size_t)digit_len + 1);
    char *cursor = out;
    for (const char *p = text;;) {
        const char *hit = strstr(p, key);
        if (!hit) {
            strcpy(cursor, p);
            break;
        }
        memcpy(cursor, p, (size_t)(hit - p));
        cursor += hit - p;
        memcpy(cursor, digits, (size_t)digit_len);
        cursor += digit_len;
        p = hit + key_len;
    }
    return out;
}
