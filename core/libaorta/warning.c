/* SPDX-License-Identifier: MIT */
/* warning.c - the warning channel: collectors say what went wrong, the host
 * decides how it is shown (aorta-run prefixes its own name).  The library
 * never names a host: without a handler it writes "warning: SOURCE: ...". */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "sdk.h"
#include "xalloc.h"

static aorta_warning_fn handler;
static void *handler_user;

void aorta_warning_set_handler(aorta_warning_fn fn, void *user)
{
    handler = fn;
    handler_user = fn ? user : NULL;
}

void aorta_warn(const char *source, const char *fmt, ...)
{
    if (!fmt)
        return;
    va_list args;
    va_start(args, fmt);
    char *message = ar_xvasprintf(fmt, args);
    va_end(args);
    const char *from = source ? source : "";
    if (handler)
        handler(from, message, handler_user);
    else if (from[0])
        fprintf(stderr, "warning: %s: %s\n", from, message);
    else
        fprintf(stderr, "warning: %s\n", message);
    free(message);
}
