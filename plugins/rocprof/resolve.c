/* SPDX-License-Identifier: MIT */
/* resolve.c - which rocprofv3 a trial runs (docs/collectors/rocprof.md): $ROCPROF_BIN with
 * '~' and $VAR expanded as Python's os.path.expanduser/expandvars do, or
 * rocprofv3 on $PATH.  Every variable comes from the environment the command
 * will run with, never from aorta-run's own. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocprof.h"

#define DEFAULT_BINARY "rocprofv3"

/* os.path.normpath(path), which folds ".." lexically. */
static char *normalise(const char *path)
{
    size_t len = strlen(path);
    int slashes = path[0] == '/' ? (path[1] == '/' && path[2] != '/' ? 2 : 1) : 0;
    const char **parts = cc_xmalloc((len / 2 + 2) * sizeof *parts);
    size_t *lens = cc_xmalloc((len / 2 + 2) * sizeof *lens);
    size_t n = 0;
    for (const char *p = path; *p;) {
        while (*p == '/')
            p++;
        const char *start = p;
        while (*p && *p != '/')
            p++;
        size_t part = (size_t)(p - start);
        if (part == 0 || (part == 1 && start[0] == '.'))
            continue;
        int dotdot = part == 2 && start[0] == '.' && start[1] == '.';
        int last_dotdot = n > 0 && lens[n - 1] == 2 && memcmp(parts[n - 1], "..", 2) == 0;
        if (!dotdot || (!slashes && n == 0) || last_dotdot) {
            parts[n] = start;
            lens[n++] = part;
        } else if (n > 0) {
            n--;
        }
    }
    cc_buf_t out = {0};
    cc_buf_adds(&out, slashes == 2 ? "//" : slashes ? "/" : "");
    for (size_t i = 0; i < n; i++) {
        if (i)
            cc_buf_adds(&out, "/");
        cc_buf_add(&out, parts[i], lens[i]);
    }
    if (out.len == 0)
        cc_buf_adds(&out, ".");
    free(parts);
    free(lens);
    return out.data;
}

/* os.path.abspath(path), or NULL when the working directory is gone. */
static char *absolute(const char *path)
{
    if (path[0] == '/')
        return normalise(path);
    char *cwd = getcwd(NULL, 0);
    if (!cwd)
        return NULL;
    cc_buf_t joined = {0};
    cc_buf_adds(&joined, cwd);
    if (joined.len == 0 || joined.data[joined.len - 1] != '/')
        cc_buf_adds(&joined, "/");
    cc_buf_adds(&joined, path);
    free(cwd);
    char *result = normalise(joined.data);
    cc_buf_free(&joined);
    return result;
}

static int is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* "ROCPROF_BIN=REPR(value) TAIL" */
static void bin_error(aorta_error_t *err, const char *value, const char *tail)
{
    cc_buf_t text = {0};
    cc_buf_adds(&text, "ROCPROF_BIN=");
    cc_buf_add_repr(&text, value, strlen(value));
    cc_buf_adds(&text, tail);
    aorta_error_set(err, "%s", text.data);
    cc_buf_free(&text);
}

static char *copy_for_caller(char *found)
{
    char *copy = cc_xstrdup(found);
    aorta_free(found);
    return copy;
}

char *rocprof_resolve_binary(const aorta_env_t *env, aorta_error_t *err)
{
    const char *path_value = aorta_env_get(env, "PATH");
    const char *override = aorta_env_get(env, "ROCPROF_BIN");
    if (!override || !override[0]) {
        char *found = aorta_which(DEFAULT_BINARY, path_value);
        if (found)
            return copy_for_caller(found);
        aorta_error_set(err, "rocprofv3 not found: set $ROCPROF_BIN to the profiler binary, or "
                             "put 'rocprofv3' on $PATH (it ships with ROCm). Required by "
                             "'--collect rocprof'.");
        return NULL;
    }
    char *expanded = aorta_path_expand(override, env);
    char *result = NULL;
    if (strchr(expanded, '/')) {
        char *candidate = absolute(expanded);
        if (candidate && is_executable_file(candidate))
            result = candidate;
        else {
            free(candidate);
            bin_error(err, expanded, " looks like a path but does not point to an executable file.");
        }
    } else {
        char *found = aorta_which(expanded, path_value);
        if (found)
            result = copy_for_caller(found);
        else
            bin_error(err, expanded, " was not found on $PATH.");
    }
    aorta_free(expanded);
    return result;
}
