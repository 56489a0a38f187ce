/* diag.c - aorta-run's one-line messages on stderr. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"

void aorta_report(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("aorta-run: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

void aorta_report_warning(const char *source, const char *message, void *user)
{
    (void)user;
    fprintf(stderr, "aorta-run: warning: %s: %s\n", source, message);
}

int aorta_report_unknown_collector(const aorta_registry_t *registry, const char *flag,
                                   const char *name)
{
    char *available = aorta_registry_names(registry);
    const aorta_module_t *failed = aorta_registry_find_failed(registry, name);
    if (failed)
        aorta_report("%s: collector '%s' is broken (%s: %s); available: %s", flag, name,
                     failed->path, failed->reason, available);
    else
        aorta_report("%s: unknown collector '%s'; available: %s", flag, name, available);
    free(available);
    return AORTA_EXIT_USAGE;
}
