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
    aorta_strmap_t map;
};

struct aorta_env {
    aorta_strmap_t map;
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
    aorta_keyindex_t index; /* key -> position in items: a reply may be large */
    aorta_kernels_t *kernels; /* the attached per-kernel table (ms), or NULL */
};

struct aorta_error {
    char *message;
};

#endif
