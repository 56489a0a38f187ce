/* SPDX-License-Identifier: MIT */
/* A loadable module that exports no aorta_collector_nosymbol_get. */
#include "aorta/collector.h"

AORTA_EXPORT int aorta_collector_something_else_get(void);
int aorta_collector_something_else_get(void)
{
    return 42;
}
