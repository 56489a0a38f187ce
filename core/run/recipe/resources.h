/* SPDX-License-Identifier: MIT */
/* resources.h - the exclusive resources collectors take (ABI 1.4's
 * resources and takes(), and the HSA queue interceptor that 1.0-1.3
 * collectors declare through queue_interceptor(_why)): two collectors of a
 * cell that take the same one are refused at recipe load, with both names,
 * their phrases and the ways out (docs/collectors/proton.md,
 * docs/collectors/ncu.md). */
#ifndef AR_RESOURCES_H
#define AR_RESOURCES_H

#include <stddef.h>

#include "aorta/collector.h"
#include "registry/registry.h"

/* One collector of a run: its module and effective options. */
typedef struct ar_resource_user {
    const ar_module_t *module;
    const aorta_options_t *options;
} ar_resource_user_t;

/* The first two of users (in wrap order) that take one resource: 0 when
 * there are none, else -1 with *message set to the refusal (one line
 * without a location; free it). */
int ar_resources_check(const ar_resource_user_t *users, size_t count, char **message);

#endif
