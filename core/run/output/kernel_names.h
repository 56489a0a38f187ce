/* SPDX-License-Identifier: MIT */
/* kernel_names.h - kernel names as a person reads them, worked out once per
 * distinct raw name: a run repeats the same few hundred names in every
 * cell, and demangling and shortening them is most of what a table row
 * costs to render. */
#ifndef AORTA_KERNEL_NAMES_H
#define AORTA_KERNEL_NAMES_H

typedef struct aorta_kernel_name {
    const char *raw;
    const char *full;    /* aorta_kernel_display(raw) */
    const char *brief;   /* aorta_kernel_short(full, AORTA_KERNEL_NAME_WIDTH) */
} aorta_kernel_name_t;

/* A cache of them; never shared between threads. */
typedef struct aorta_kernel_names aorta_kernel_names_t;

aorta_kernel_names_t *aorta_kernel_names_new(void);
void aorta_kernel_names_free(aorta_kernel_names_t *names);
/* raw's forms, the cache's until it is freed. */
const aorta_kernel_name_t *aorta_kernel_names_get(aorta_kernel_names_t *names, const char *raw);

#endif
