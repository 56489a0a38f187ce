/* SPDX-License-Identifier: MIT */
/* cmd_unknown.c - the error every mode that names a collector gives when
 * there is none of that name: the command layer's, since it decides the
 * exit status (and aorta-rank-exec, which prints through sys/diag.c, links
 * no loader). */
#include "config.h"

#include <stdlib.h>

#include "commands.h"

int aorta_cmd_unknown_collector(const aorta_registry_t *registry, const char *flag,
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
