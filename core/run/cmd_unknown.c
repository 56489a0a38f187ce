/* SPDX-License-Identifier: MIT */
/* cmd_unknown.c - the error every mode that names a collector gives when
 * there is none of that name: the command layer's, since it decides the
 * exit status (and aorta-rank-exec, which prints through sys/diag.c, links
 * no loader). */
#include "config.h"

#include <stdlib.h>

#include "commands.h"

int ar_cmd_unknown_collector(const ar_registry_t *registry, const char *flag,
                                const char *name)
{
    char *available = ar_registry_names(registry);
    const ar_module_t *failed = ar_registry_find_failed(registry, name);
    if (failed)
        ar_diag_error("%s: collector '%s' is broken (%s: %s); available: %s", flag, name,
                     failed->path, failed->reason, available);
    else
        ar_diag_error("%s: unknown collector '%s'; available: %s", flag, name, available);
    free(available);
    return AR_EXIT_USAGE;
}
