/* SPDX-License-Identifier: MIT */
/* envp.c - a variable of an envp array (envp.h). */
#include "config.h"

#include "sys/envp.h"

#include <string.h>

const char *ar_envp_get(char *const *envp, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; envp && envp[i]; i++)
        if (strncmp(envp[i], name, len) == 0 && envp[i][len] == '=')
            return envp[i] + len + 1;
    return NULL;
}
