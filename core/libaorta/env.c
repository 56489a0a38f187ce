/* SPDX-License-Identifier: MIT */
/* env.c - environment maps: a command's environment, a collector's bundle. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sdk.h"
#include "xalloc.h"

aorta_env_t *aorta_env_new(void)
{
    aorta_env_t *env = ar_xcalloc(1, sizeof *env);
    ar_strmap_init(&env->map);
    return env;
}

aorta_env_t *aorta_env_from_environ(char *const *envp)
{
    aorta_env_t *env = aorta_env_new();
    for (size_t i = 0; envp && envp[i]; i++) {
        const char *eq = strchr(envp[i], '=');
        if (!eq || eq == envp[i])
            continue;
        char *name = ar_xstrndup(envp[i], (size_t)(eq - envp[i]));
        /* The first definition wins, as getenv() sees it. */
        if (!ar_strmap_get(&env->map, name))
            ar_strmap_set(&env->map, name, eq + 1);
        free(name);
    }
    return env;
}

aorta_env_t *aorta_env_dup(const aorta_env_t *env)
{
    aorta_env_t *copy = aorta_env_new();
    ar_strmap_copy(&copy->map, &env->map);
    return copy;
}

void aorta_env_free(aorta_env_t *env)
{
    if (!env)
        return;
    ar_strmap_clear(&env->map);
    free(env);
}

const char *aorta_env_get(const aorta_env_t *env, const char *name)
{
    return ar_strmap_get(&env->map, name);
}

int aorta_env_set(aorta_env_t *env, const char *name, const char *value)
{
    if (!env || !name || !value)
        return -1;
    ar_strmap_set(&env->map, name, value);
    return 0;
}

void aorta_env_unset(aorta_env_t *env, const char *name)
{
    ar_strmap_unset(&env->map, name);
}

size_t aorta_env_count(const aorta_env_t *env)
{
    return env->map.count;
}

const char *aorta_env_name_at(const aorta_env_t *env, size_t index)
{
    return index < env->map.count ? env->map.entries[index].key : NULL;
}

const char *aorta_env_value_at(const aorta_env_t *env, size_t index)
{
    return index < env->map.count ? env->map.entries[index].value : NULL;
}

char **aorta_env_to_envp(const aorta_env_t *env)
{
    char **envp = ar_xcalloc(env->map.count + 1, sizeof *envp);
    for (size_t i = 0; i < env->map.count; i++)
        envp[i] = ar_xasprintf("%s=%s", env->map.entries[i].key, env->map.entries[i].value);
    return envp;
}

void aorta_env_free_envp(char **envp)
{
    for (size_t i = 0; envp && envp[i]; i++)
        free(envp[i]);
    free(envp);
}
