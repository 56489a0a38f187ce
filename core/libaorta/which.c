/* SPDX-License-Identifier: MIT */
/* which.c - PATH lookup with the rules of Python's shutil.which. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "xalloc.h"

static int is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

char *aorta_which(const char *name, const char *path_value)
{
    if (!name || !name[0])
        return NULL;
    if (strchr(name, '/'))
        return is_executable_file(name) ? aorta_xstrdup(name) : NULL;
    if (!path_value)
        path_value = "/bin:/usr/bin"; /* os.defpath when PATH is unset */
    if (!path_value[0])
        return NULL;
    const char *entry = path_value;
    for (;;) {
        const char *end = strchr(entry, ':');
        size_t len = end ? (size_t)(end - entry) : strlen(entry);
        /* An empty entry means the current directory, as os.path.join('', name). */
        char *candidate = len ? aorta_xasprintf("%.*s/%s", (int)len, entry, name)
                              : aorta_xstrdup(name);
        if (is_executable_file(candidate))
            return candidate;
        free(candidate);
        if (!end)
            break;
        entry = end + 1;
    }
    return NULL;
}
