/* SPDX-License-Identifier: MIT */
/* fuzz_load_check.c - the registry's load-check reply, as the checking child
 * writes it and aorta-run reads it back (a broken module may leave anything
 * there): accepted only as "ok\n" or one "failed\t<reason>\n" line, and an
 * accepted reason is exactly the bytes between the tab and the newline. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "registry/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    char *reason = (char *)1;
    int status = ar_registry_parse_check_reply(text, size, &reason);
    if (status != 0 && reason)
        fz_fail("a refused reply left a reason");
    if (status == 0 && reason) {
        size_t len = strlen(reason);
        if (len == 0 || len + 8 != size || memcmp(text, "failed\t", 7) != 0
            || memcmp(text + 7, reason, len) != 0 || strchr(reason, '\n'))
            fz_fail("an accepted reason is not the reply's one line: '%s'", reason);
    }
    if (status == 0 && !reason && !(size == 3 && memcmp(text, "ok\n", 3) == 0))
        fz_fail("a reply other than \"ok\\n\" passed as ok");
    free(reason);
    return 0;
}
