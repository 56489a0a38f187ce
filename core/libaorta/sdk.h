/* SPDX-License-Identifier: MIT */
/* sdk.h - what the opaque handles of aorta/collector.h are made of.  Private
 * to libaorta: hosts and collectors see only the accessors. */
#ifndef AORTA_SDK_H
#define AORTA_SDK_H

#include <stdint.h>

#include "aorta/collector.h"
#include "keyindex.h"
#include "strmap.h"

struct aorta_options {
    ar_strmap_t map;
};

struct aorta_env {
    ar_strmap_t map;
};

struct aorta_argv {
    char **items;     /* always NULL-terminated, ready for execve() */
    size_t count;
    size_t capacity;
};

struct aorta_metrics {
    char *prefix;           /* "<collector>_": keys must start with it; NULL = any */
    aorta_metric_t *items;
    size_t count;
    size_t capacity;
    ar_keyindex_t index; /* key -> position in items: a reply may be large */
    aorta_kernels_t *kernels; /* the attached per-kernel table (ms), or NULL */
    aorta_dispatches_t *dispatches; /* the attached per-dispatch trace, or NULL */
    aorta_env_t *env;       /* the trial's environment for parse() (1.4), or NULL */
};

struct aorta_error {
    char *message;
};

/* The hash of a kernel's name (kernels.c), which dispatches.c interns
 * names with too. */
uint64_t aorta_sdk_name_hash(const char *name, size_t len);

#endif
