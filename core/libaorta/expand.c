/* SPDX-License-Identifier: MIT */
/* expand.c - Python's os.path.expanduser and os.path.expandvars over the
 * variables of a command's environment.  Both collectors let the user name
 * their tool with "~" and "$VAR" in such a variable (ROCPROF_BIN,
 * AORTA_PROTON_PYTHON), which upstream expands with these two functions. */
#include "config.h"

#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "xalloc.h"

typedef struct text {
    char *data; /* NUL-terminated */
    size_t len;
    size_t cap;
} text_t;

static void put(text_t *text, const char *data, size_t len)
{
    ar_xgrow((void **)&text->data, &text->cap, text->len + len + 1, 1);
    memcpy(text->data + text->len, data, len);
    text->len += len;
    text->data[text->len] = '\0';
}

static const char *lookup(const aorta_env_t *env, const char *name)
{
    return env ? aorta_env_get(env, name) : NULL;
}

/* os.path.expanduser(path) */
static char *expand_user(const char *path, const aorta_env_t *env)
{
    if (path[0] != '~')
        return ar_xstrdup(path);
    const char *slash = strchr(path + 1, '/');
    size_t end = slash ? (size_t)(slash - path) : strlen(path);
    const char *home;
    if (end == 1) {
        home = lookup(env, "HOME");
        if (!home) {
            struct passwd *entry = getpwuid(getuid());
            home = entry ? entry->pw_dir : NULL;
        }
    } else {
        char *name = ar_xstrndup(path + 1, end - 1);
        struct passwd *entry = getpwnam(name);
        free(name);
        home = entry ? entry->pw_dir : NULL;
    }
    if (!home)
        return ar_xstrdup(path);
    size_t home_len = strlen(home);
    while (home_len > 0 && home[home_len - 1] == '/')
        home_len--;
    text_t out = {0};
    put(&out, home, home_len);
    put(&out, path + end, strlen(path + end));
    if (out.len == 0)
        put(&out, "/", 1);
    return out.data;
}

static int is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* os.path.expandvars(path): $NAME and ${NAME} (NAME a run of [A-Za-z0-9_]
 * for the bare form, anything but '}' in braces) become the variable's
 * value; unknown ones stay as written, braces and all; values are not
 * expanded again. */
static char *expand_vars(const char *path, const aorta_env_t *env)
{
    text_t out = {0};
    put(&out, "", 0);
    const char *p = path;
    while (*p) {
        const char *dollar = strchr(p, '$');
        if (!dollar) {
            put(&out, p, strlen(p));
            break;
        }
        put(&out, p, (size_t)(dollar - p));
        const char *name = NULL, *after = NULL;
        size_t name_len = 0;
        if (dollar[1] == '{') {
            const char *close = strchr(dollar + 2, '}');
            if (close) {
                name = dollar + 2;
                name_len = (size_t)(close - name);
                after = close + 1;
            }
        } else if (is_word(dollar[1])) {
            name = dollar + 1;
            while (is_word(name[name_len]))
                name_len++;
            after = name + name_len;
        }
        const char *value = NULL;
        if (name && name_len) {
            char *key = ar_xstrndup(name, name_len);
            value = lookup(env, key);
            free(key);
        }
        if (value) {
            put(&out, value, strlen(value));
            p = after;
        } else if (name) {
            put(&out, dollar, (size_t)(after - dollar));
            p = after;
        } else {
            put(&out, dollar, 1);
            p = dollar + 1;
        }
    }
    return out.data;
}

char *aorta_path_expand(const char *path, const aorta_env_t *env)
{
    char *home_expanded = expand_user(path, env);
    char *expanded = expand_vars(home_expanded, env);
    free(home_expanded);
    return expanded;
}
