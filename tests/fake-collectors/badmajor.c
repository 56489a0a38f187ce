/* SPDX-License-Identifier: MIT */
/* Built against a future, incompatible collector ABI (major + 1). */
#include "broken_common.h"

BROKEN_COLLECTOR(aorta_collector_badmajor_get, AORTA_COLLECTOR_ABI_MAJOR + 1, 0, "badmajor",
                 broken_validate, broken_wrap, broken_parse)
