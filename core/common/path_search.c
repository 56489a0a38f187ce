/* SPDX-License-Identifier: MIT */
/* path_search.c - a program name looked up on a PATH-style list
 * (path_search.h). */
#include "config.h"

#include "path_search.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ar_path_search(const char *name, const char *path_value,
                      int (*try)(const char *candidate, void *user), void *user)
{
    if (!path_value)
        path_value = AR_DEFAULT_PATH;
    size_t name_len = strlen(name);
    char *candidate = malloc(strlen(path_value) + name_len + 2);
    if (!candidate) {
        errno = ENOMEM;
        return -1;
    }
    int stop = 0;
    for (const char *entry = path_value; !stop;) {
        const char *end = strchr(entry, ':');
        size_t len = end ? (size_t)(end - entry) : strlen(entry);
        if (len == 0) {
            memcpy(candidate, name, name_len + 1);
        } else {
            memcpy(candidate, entry, len);
            candidate[len] = '/';
            memcpy(candidate + len + 1, name, name_len + 1);
        }
        stop = try(candidate, user);
        if (!end)
            break;
        entry = end + 1;
    }
    free(candidate);
    return stop;
}

typedef struct attempt {
    char *const *argv;
    char *const *envp;
    int saw_eacces;
    int last;
} attempt_t;

/* One candidate: execve() returns only when it failed. */
static int try_execve(const char *candidate, void *user)
{
    attempt_t *attempt = user;
    execve(candidate, attempt->argv, attempt->envp);
    if (errno == EACCES)
        attempt->saw_eacces = 1;
    else if (errno != ENOENT && errno != ENOTDIR)
        attempt->last = errno;
    return 0;
}

int ar_path_execve(char *const *argv, char *const *envp, const char *path_value)
{
    if (strchr(argv[0], '/')) {
        execve(argv[0], argv, envp);
        return errno;
    }
    attempt_t attempt = {argv, envp, 0, ENOENT};
    if (ar_path_search(argv[0], path_value, try_execve, &attempt) < 0)
        return ENOMEM;
    return attempt.saw_eacces ? EACCES : attempt.last;
}
