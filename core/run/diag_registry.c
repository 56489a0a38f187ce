/* SPDX-License-Identifier: MIT */
/* diag_registry.c - the diagnostics that need the registry, apart from
 * diag.c so that aorta-rank-exec can print through diag.c without linking
 * the loader. */
#include "config.h"

#include <stdlib.h>

#include "diag.h"

#include "commands.h"

int aorta_diag_unknown_collector(const aorta_registry_t *registry, const char *flag,
                                 const char *name)
{
    char *available = aorta_registry_names(registry);
    const aorta_module_t *failed = aorta_registry_find_failed(registry, name);
    if (failed)
        aorta_diag_error("%s: collector '%s' is broken (%s: %s); available: %s", flag, name,
                     failed->path, failed->reason, available);
    else
        aorta_diag_error("%s: unknown collector '%s'; available: %s", flag, name, available);
    free(available);
    return AORTA_EXIT_USAGE;
}
