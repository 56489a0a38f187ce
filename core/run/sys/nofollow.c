/* SPDX-License-Identifier: MIT */
/* nofollow.c - directory operations that never follow symbolic links. */
#include "config.h"

#include "sys/nofollow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

static int is_plain_name(const char *name, size_t len)
{
    return len > 0 && !(len == 1 && name[0] == '.') && !(len == 2 && name[0] == '.' && name[1] == '.');
}

int ar_nofollow_open_dir(int base_fd, const char *rel, int create, char **error)
{
    int fd = dup(base_fd);
    if (fd < 0) {
        *error = ar_xasprintf("%s", strerror(errno));
        return -1;
    }
    const char *cursor = rel;
    while (*cursor) {
        const char *end = strchr(cursor, '/');
        size_t len = end ? (size_t)(end - cursor) : strlen(cursor);
        if (!is_plain_name(cursor, len)) {
            *error = ar_xasprintf("'%s' is not a plain relative path", rel);
            close(fd);
            return -1;
        }
        char *name = ar_xstrndup(cursor, len);
        int next = openat(fd, name, DIR_FLAGS);
        if (next < 0 && errno == ENOENT && create) {
            if (mkdirat(fd, name, 0755) == 0 || errno == EEXIST)
                next = openat(fd, name, DIR_FLAGS);
        }
        if (next < 0) {
            int saved = errno;
            struct stat st;
            if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
                *error = ar_xasprintf("'%s' in '%s' is a symbolic link (refused)", name, rel);
            else
                *error = ar_xasprintf("'%s' in '%s': %s", name, rel, strerror(saved));
            free(name);
            close(fd);
            return -1;
        }
        free(name);
        close(fd);
        fd = next;
        cursor += len;
        while (*cursor == '/')
            cursor++;
    }
    return fd;
}

static int remove_tree(int dir_fd, const char *name);

static int remove_contents(int dir_fd)
{
    int copy = dup(dir_fd);
    DIR *dir = copy >= 0 ? fdopendir(copy) : NULL;
    if (!dir) {
        if (copy >= 0)
            close(copy);
        return -1;
    }
    int status = 0;
    struct dirent *entry;
    /* Collect names first: removing while reading a directory is unspecified. */
    char **names = NULL;
    size_t count = 0, capacity = 0;
    while ((entry = readdir(dir)) != NULL) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        ar_xgrow((void **)&names, &capacity, count + 1, sizeof *names);
        names[count++] = ar_xstrdup(entry->d_name);
    }
    closedir(dir);
    for (size_t i = 0; i < count; i++) {
        if (remove_tree(dir_fd, names[i]) != 0)
            status = -1;
        free(names[i]);
    }
    free(names);
    return status;
}

/* name below dir_fd and everything under it: 0, or -1 with errno set. */
static int remove_tree(int dir_fd, const char *name)
{
    struct stat st;
    if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlinkat(dir_fd, name, 0);
    int sub = openat(dir_fd, name, DIR_FLAGS);
    if (sub < 0)
        return -1;
    int status = remove_contents(sub);
    close(sub);
    if (unlinkat(dir_fd, name, AT_REMOVEDIR) != 0)
        status = -1;
    return status;
}

int ar_nofollow_remove_tree_at(int dir_fd, const char *name, char **error)
{
    if (remove_tree(dir_fd, name) == 0)
        return 0;
    *error = ar_xstrdup(strerror(errno));
    return -1;
}

int ar_nofollow_empty_dir_at(int dir_fd, const char *name, char **error)
{
    struct stat st;
    if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISLNK(st.st_mode)) {
            *error = ar_xstrdup("it is a symbolic link (refused)");
            return -1;
        }
        /* Upstream's reference refuses a file where the directory goes and
         * leaves it: it may be someone's data, not a capture of ours. */
        if (!S_ISDIR(st.st_mode)) {
            *error = ar_xstrdup("it is not a directory (left as it is)");
            return -1;
        }
        if (remove_tree(dir_fd, name) != 0) {
            *error = ar_xasprintf("cannot remove what is there: %s", strerror(errno));
            return -1;
        }
    }
    if (mkdirat(dir_fd, name, 0755) != 0) {
        *error = ar_xasprintf("%s", strerror(errno));
        return -1;
    }
    return 0;
}
