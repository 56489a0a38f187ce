/* fsutil.c - small filesystem helpers of the run directory. */
#include "config.h"

#include "fsutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "xalloc.h"

int aorta_mkdir_p(const char *path, mode_t mode)
{
    char *copy = aorta_xstrdup(path);
    size_t len = strlen(copy);
    for (size_t i = 1; i <= len; i++) {
        if (copy[i] != '/' && copy[i] != '\0')
            continue;
        char saved = copy[i];
        copy[i] = '\0';
        if (mkdir(copy, mode) != 0 && errno != EEXIST) {
            free(copy);
            return -1;
        }
        copy[i] = saved;
    }
    struct stat st;
    int ok = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    free(copy);
    if (!ok) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

char *aorta_slug(const char *text)
{
    if (!text[0] || strcmp(text, ".") == 0 || strcmp(text, "..") == 0)
        return aorta_xstrdup("_");
    char *slug = aorta_xstrdup(text);
    for (char *c = slug; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
              || *c == '_' || *c == '.' || *c == '-'))
            *c = '_';
    return slug;
}
