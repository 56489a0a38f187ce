/* SPDX-License-Identifier: MIT */
/* walk.c - the no-follow recursive walk collectors use to find artifacts.
 * Everything under a collector's directory is writable by the profiled
 * payload, so nothing here resolves a path twice: every step is relative to
 * a held directory descriptor and refuses symbolic links. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "xalloc.h"

#define WALK_MAX_DEPTH 64

typedef struct walk {
    const char *suffix;
    size_t suffix_len;
    aorta_walk_fn fn;
    void *user;
    int by_path;  /* files and subdirectories together, in name order */
} walk_t;

static int compare_names(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

static int out_of_fds(int error)
{
    return error == EMFILE || error == ENFILE;
}

/* The sorted entry names of the directory open at dfd (dfd stays open). */
static char **list_names(int dfd, size_t *count, int *error)
{
    *count = 0;
    *error = 0;
    int copy = dup(dfd);
    if (copy < 0) {
        *error = errno;
        return NULL;
    }
    DIR *dir = fdopendir(copy);
    if (!dir) {
        *error = errno;
        close(copy);
        return NULL;
    }
    rewinddir(dir);
    char **names = NULL;
    size_t capacity = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        ar_xgrow((void **)&names, &capacity, *count + 1, sizeof *names);
        names[(*count)++] = ar_xstrdup(entry->d_name);
    }
    closedir(dir);
    if (*count > 1)
        qsort(names, *count, sizeof *names, compare_names);
    return names;
}

static int has_suffix(const walk_t *walk, const char *name)
{
    size_t len = strlen(name);
    return len >= walk->suffix_len
        && memcmp(name + len - walk->suffix_len, walk->suffix, walk->suffix_len) == 0;
}

/* Open name under dfd as a regular file, or return -1 (errno kept). */
static int open_regular(int dfd, const char *name)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = EINVAL; /* swapped for something else after the listing */
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

static aorta_walk_status_t walk_directory(walk_t *walk, int dfd, const char *path, int depth);

/* Descend into the subdirectory name of dfd. */
static aorta_walk_status_t walk_sub(walk_t *walk, int dfd, const char *path, const char *name,
                                    int depth)
{
    if (depth >= WALK_MAX_DEPTH)
        return AORTA_WALK_OK;
    int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0)
        return out_of_fds(errno) ? AORTA_WALK_NO_FDS : AORTA_WALK_OK;
    char *sub_path = ar_xasprintf("%s/%s", path, name);
    aorta_walk_status_t status = walk_directory(walk, sub, sub_path, depth + 1);
    free(sub_path);
    close(sub);
    return status;
}

static aorta_walk_status_t walk_directory(walk_t *walk, int dfd, const char *path, int depth)
{
    size_t count = 0;
    int error = 0;
    char **names = list_names(dfd, &count, &error);
    if (!names && error)
        return out_of_fds(error) ? AORTA_WALK_NO_FDS : AORTA_WALK_OK;

    aorta_walk_status_t status = AORTA_WALK_OK;
    unsigned char *is_dir = ar_xcalloc(count ? count : 1, 1);

    /* Files first, then subdirectories, each in sorted order; or (by_path)
     * both together, which is the order of the whole paths compared
     * component by component. */
    for (size_t i = 0; i < count && status == AORTA_WALK_OK; i++) {
        struct stat st;
        if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            is_dir[i] = 1;
            if (walk->by_path)
                status = walk_sub(walk, dfd, path, names[i], depth);
            continue;
        }
        if (!S_ISREG(st.st_mode) || !has_suffix(walk, names[i]))
            continue;
        int fd = open_regular(dfd, names[i]);
        if (fd < 0) {
            if (out_of_fds(errno))
                status = AORTA_WALK_NO_FDS;
            continue;
        }
        char *file_path = ar_xasprintf("%s/%s", path, names[i]);
        int stop = walk->fn(file_path, fd, walk->user);
        free(file_path);
        close(fd);
        if (stop)
            status = AORTA_WALK_STOPPED;
    }
    for (size_t i = 0; i < count && status == AORTA_WALK_OK && !walk->by_path; i++)
        if (is_dir[i])
            status = walk_sub(walk, dfd, path, names[i], depth);
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    free(is_dir);
    return status;
}

static aorta_walk_status_t walk_root(const char *dir, const char *suffix, aorta_walk_fn fn,
                                     void *user, int by_path)
{
    if (!dir || !suffix || !fn)
        return AORTA_WALK_NOT_DIR;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        int error = errno;
        struct stat st;
        if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
            return AORTA_WALK_SYMLINK;
        return out_of_fds(error) ? AORTA_WALK_NO_FDS : AORTA_WALK_NOT_DIR;
    }
    walk_t walk = {suffix, strlen(suffix), fn, user, by_path};
    /* The printed paths keep the directory as given, without a trailing '/'. */
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--;
    char *root = ar_xstrndup(dir, len);
    aorta_walk_status_t status = walk_directory(&walk, dfd, root, 0);
    free(root);
    close(dfd);
    return status;
}

aorta_walk_status_t aorta_walk_files(const char *dir, const char *suffix, aorta_walk_fn fn,
                                     void *user)
{
    return walk_root(dir, suffix, fn, user, 0);
}

aorta_walk_status_t aorta_walk_files_sorted(const char *dir, const char *suffix,
                                            aorta_walk_fn fn, void *user)
{
    return walk_root(dir, suffix, fn, user, 1);
}
