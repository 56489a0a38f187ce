/* SPDX-License-Identifier: MIT */
/* Leaves the mandatory parse slot empty. */
#include "broken_common.h"

BROKEN_COLLECTOR(aorta_collector_noparse_get, AORTA_COLLECTOR_ABI_MAJOR,
                 AORTA_COLLECTOR_ABI_MINOR, "noparse", broken_validate, broken_wrap, NULL)
