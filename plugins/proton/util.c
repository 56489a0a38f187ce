/* SPDX-License-Identifier: MIT */
/* util.c - small path and environment helpers. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "proton.h"

char *proton_basename(const char *path)
{
    /* pathlib drops '.' components and trailing slashes before naming. */
    char *normal = aorta_path_join(path, NULL);
    const char *slash = strrchr(normal, '/');
    const char *name = slash ? slash + 1 : normal;
    char *out = cc_xstrdup(strcmp(name, ".") == 0 ? "" : name);
    aorta_free(normal);
    return out;
}

const char *proton_env_lookup(const aorta_env_t *env, const char *name)
{
    return env ? aorta_env_get(env, name) : NULL;
}
