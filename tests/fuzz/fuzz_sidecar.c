/* SPDX-License-Identifier: MIT */
/* fuzz_sidecar.c - a --mitigations-file JSON sidecar.  It is read twice
 * into one table (as when a file is given twice): the second time defines
 * nothing new and must not be refused.  A refusal is one line naming the
 * file. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "recipe/mitigations.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_write("sidecar.json", data, size);
    char *path = fz_path("sidecar.json");
    ar_mitigations_t *table = ar_mitigations_new();
    char *error = NULL;
    int status = ar_mitigations_load_file(table, path, &error);
    if (status != 0) {
        if (!error || strncmp(error, path, strlen(path)) != 0 || strchr(error, '\n'))
            fz_fail("not one line naming the file: %s", error ? error : "(none)");
    } else if (ar_mitigations_load_file(table, path, &error) != 0) {
        fz_fail("the same file refused the second time: %s", error);
    }
    free(error);
    ar_mitigations_free(table);
    free(path);
    return 0;
}
