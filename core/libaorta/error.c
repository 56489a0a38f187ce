/* SPDX-License-Identifier: MIT */
/* error.c - the one actionable message a callback can hand back. */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>

#include "sdk.h"
#include "xalloc.h"

aorta_error_t *aorta_error_new(void)
{
    return ar_xcalloc(1, sizeof(aorta_error_t));
}

void aorta_error_clear(aorta_error_t *err)
{
    free(err->message);
    err->message = NULL;
}

void aorta_error_free(aorta_error_t *err)
{
    if (!err)
        return;
    free(err->message);
    free(err);
}

void aorta_error_set(aorta_error_t *err, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *message = ar_xvasprintf(fmt, args);
    va_end(args);
    free(err->message);
    err->message = message;
}

const char *aorta_error_message(const aorta_error_t *err)
{
    return err->message;
}

void aorta_free(void *ptr)
{
    free(ptr);
}
