/* SPDX-License-Identifier: MIT */
/* kernel_names.h - kernel names as a person reads them, worked out once per
 * distinct raw name: a run repeats the same few hundred names in every
 * cell, and demangling and shortening them is most of what a table row
 * costs to render. */
#ifndef AR_KERNEL_NAMES_H
#define AR_KERNEL_NAMES_H

typedef struct ar_kernel_name {
    const char *raw;
    const char *full;    /* ar_kernel_display(raw) */
    const char *brief;   /* ar_kernel_short(full, AR_KERNEL_NAME_WIDTH) */
} ar_kernel_name_t;

/* A cache of them; never shared between threads. */
typedef struct ar_kernel_names ar_kernel_names_t;

ar_kernel_names_t *ar_kernel_names_new(void);
void ar_kernel_names_free(ar_kernel_names_t *names);
/* raw's forms, the cache's until it is freed. */
const ar_kernel_name_t *ar_kernel_names_get(ar_kernel_names_t *names, const char *raw);

#endif
