/* SPDX-License-Identifier: MIT */
/* rank_exec_path.c - finding aorta-rank-exec (rank_exec_path.h). */
#include "config.h"

#include "sweep/rank_exec_path.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/knobs.h"
#include "xalloc.h"

#ifndef AR_BINDIR
#define AR_BINDIR "/usr/local/bin"
#endif
#ifndef AR_PKGLIBEXECDIR
#define AR_PKGLIBEXECDIR "/usr/local/libexec/aorta"
#endif

char *ar_relative_dir(const char *from, const char *to)
{
    /* The longest common prefix that ends at a component boundary. */
    size_t common = 0;
    for (size_t i = 0;; i++) {
        int end_from = from[i] == '/' || from[i] == '\0';
        int end_to = to[i] == '/' || to[i] == '\0';
        if (end_from && end_to)
            common = i;
        if (from[i] != to[i] || from[i] == '\0')
            break;
    }
    size_t ups = 0;
    for (const char *p = from + common; *p; p++)
        if (*p == '/' && p[1] && p[1] != '/')
            ups++;
    const char *rest = to + common;
    while (*rest == '/')
        rest++;
    size_t len = ups * 3 + strlen(rest) + 2;
    char *out = ar_xcalloc(len, 1);
    for (size_t i = 0; i < ups; i++)
        strcat(out, "../");
    strcat(out, rest);
    size_t n = strlen(out);
    if (n > 0 && out[n - 1] == '/')
        out[n - 1] = '\0';
    if (!out[0])
        strcpy(out, ".");
    return out;
}

static char *executable_if(char *path)
{
    if (access(path, X_OK) == 0)
        return path;
    free(path);
    return NULL;
}

char *ar_rank_exec_path(char **error)
{
    *error = NULL;
    const char *override = ar_knob_text("AORTA_LIBEXEC_DIR");
    if (override) {
        char *path = executable_if(ar_xasprintf("%s/" AR_RANK_EXEC_NAME, override));
        if (!path)
            *error = ar_xasprintf("AORTA_LIBEXEC_DIR='%s' has no executable "
                                     AR_RANK_EXEC_NAME, override);
        return path;
    }
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    char *found = NULL;
    if (len > 0) {
        self[len] = '\0';
        char *slash = strrchr(self, '/');
        if (slash)
            *slash = '\0';
        char *rel = ar_relative_dir(AR_BINDIR, AR_PKGLIBEXECDIR);
        found = executable_if(ar_xasprintf("%s/%s/" AR_RANK_EXEC_NAME, self, rel));
        free(rel);
        size_t self_len = strlen(self);
        /* libtool runs an uninstalled program from .libs/; the helper links
         * no libtool library, so the build tree's sits one level up, beside
         * aorta-run's wrapper. */
        if (!found && self_len > 6 && strcmp(self + self_len - 6, "/.libs") == 0) {
            char *up = ar_xstrndup(self, self_len - 6);
            found = executable_if(ar_xasprintf("%s/" AR_RANK_EXEC_NAME, up));
            free(up);
        }
        if (!found)
            found = executable_if(ar_xasprintf("%s/" AR_RANK_EXEC_NAME, self));
    }
    if (!found)
        found = executable_if(ar_xstrdup(AR_PKGLIBEXECDIR "/" AR_RANK_EXEC_NAME));
    if (!found)
        *error = ar_xstrdup("cannot find " AR_RANK_EXEC_NAME ", the per-rank step a "
                               "launcher needs, next to aorta-run or in " AR_PKGLIBEXECDIR
                               "; set AORTA_LIBEXEC_DIR to the directory that holds it");
    return found;
}
