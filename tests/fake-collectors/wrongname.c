/* SPDX-License-Identifier: MIT */
/* Its description says "othername", but the file is wrongname.so. */
#include "broken_common.h"

BROKEN_COLLECTOR(aorta_collector_wrongname_get, AORTA_COLLECTOR_ABI_MAJOR,
                 AORTA_COLLECTOR_ABI_MINOR, "othername", broken_validate, broken_wrap,
                 broken_parse)
