/* SPDX-License-Identifier: MIT */
/* which.c - PATH lookup with the rules of Python's shutil.which. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "path_search.h"
#include "xalloc.h"

static int is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The first executable candidate, copied into *user. */
static int take_executable(const char *candidate, void *user)
{
    if (!is_executable_file(candidate))
        return 0;
    *(char **)user = ar_xstrdup(candidate);
    return 1;
}

char *aorta_which(const char *name, const char *path_value)
{
    if (!name || !name[0])
        return NULL;
    if (strchr(name, '/'))
        return is_executable_file(name) ? ar_xstrdup(name) : NULL;
    /* shutil.which() searches nothing when PATH is set but empty. */
    if (path_value && !path_value[0])
        return NULL;
    char *found = NULL;
    if (ar_path_search(name, path_value, take_executable, &found) < 0)
        ar_xcheck(NULL); /* out of memory: stop, as every SDK allocation does */
    return found;
}
