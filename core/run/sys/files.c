/* SPDX-License-Identifier: MIT */
/* files.c - small filesystem helpers of the run directory: directories,
 * whole-file reads and atomic writes, names. */
#include "config.h"

#include "sys/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "xalloc.h"

int ar_mkdir_p(const char *path, mode_t mode)
{
    char *copy = ar_xstrdup(path);
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

int ar_write_all(int fd, const void *buffer, size_t len)
{
    const char *data = buffer;
    while (len > 0) {
        ssize_t done = write(fd, data, len);
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0) {
            if (done == 0)
                errno = EIO;
            return -1;
        }
        data += done;
        len -= (size_t)done;
    }
    return 0;
}

int ar_write_file_atomic(const char *path, const void *data, size_t len)
{
    return ar_write_file_atomic_at(AT_FDCWD, path, data, len);
}

int ar_atomic_start_at(int dir_fd, const char *name, char **temporary)
{
    /* O_EXCL, never an existing name: the payload can plant a FIFO (whose
     * open would block) or anything else at a name it can guess. */
    *temporary = NULL;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        free(*temporary);
        *temporary = ar_xasprintf("%s.tmp.%ld.%d", name, (long)getpid(), attempt);
        fd = openat(dir_fd, *temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0644);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int saved = errno;
        free(*temporary);
        *temporary = NULL;
        errno = saved;
    }
    return fd;
}

int ar_atomic_finish_at(int dir_fd, int fd, const char *temporary, const char *name, int ok)
{
    int status = ok ? 0 : -1, saved = errno;
    if (close(fd) != 0 && status == 0) {
        status = -1;
        saved = errno;
    }
    /* renameat() replaces a symlink at name, never what it points to. */
    if (status == 0 && renameat(dir_fd, temporary, dir_fd, name) != 0) {
        status = -1;
        saved = errno;
    }
    if (status != 0)
        unlinkat(dir_fd, temporary, 0);
    errno = saved;
    return status;
}

int ar_write_file_atomic_at(int dir_fd, const char *name, const void *data, size_t len)
{
    char *temporary;
    int fd = ar_atomic_start_at(dir_fd, name, &temporary);
    if (fd < 0)
        return -1;
    int ok = ar_write_all(fd, data, len) == 0;
    int status = ar_atomic_finish_at(dir_fd, fd, temporary, name, ok);
    int saved = errno;
    free(temporary);
    errno = saved;
    return status;
}

/* Whether name below dir_fd is a regular file, ours alone (one link),
 * that holds exactly the len bytes at data. */
static int holds_already(int dir_fd, const char *name, const char *data, size_t len)
{
    int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return 0;
    struct stat st;
    int same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1
            && (size_t)st.st_size == len;
    char chunk[16384];
    size_t at = 0;
    while (same && at < len) {
        ssize_t got = read(fd, chunk, len - at < sizeof chunk ? len - at : sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        same = got > 0 && memcmp(chunk, data + at, (size_t)got) == 0;
        at += got > 0 ? (size_t)got : 0;
    }
    close(fd);
    return same;
}

int ar_update_file_at(int dir_fd, const char *name, const void *data, size_t len)
{
    int saved = errno;
    if (holds_already(dir_fd, name, data, len)) {
        errno = saved;
        return 0;
    }
    return ar_write_file_atomic_at(dir_fd, name, data, len);
}

int ar_read_file_into_at(int dir_fd, const char *name, size_t max_bytes, char **buffer,
                            size_t *capacity, size_t *len)
{
    /* O_NONBLOCK: a FIFO planted there must not hang the open. */
    int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct stat st;
    int refused = 0;
    if (fstat(fd, &st) != 0)
        refused = errno;
    else if (!S_ISREG(st.st_mode))
        refused = EINVAL;
    else if ((size_t)st.st_size > max_bytes)
        refused = EFBIG;
    if (refused) {
        close(fd);
        errno = refused;
        return -1;
    }
    size_t size = (size_t)st.st_size, have = 0;
    if (!*buffer || *capacity < size + 1) {
        free(*buffer);
        *capacity = size + 1;
        *buffer = ar_xmalloc(*capacity);
    }
    char *text = *buffer;
    while (have < size) {
        ssize_t got = read(fd, text + have, size - have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        if (got == 0)
            break; /* it shrank: what is there */
        have += (size_t)got;
    }
    close(fd);
    text[have] = '\0';
    *len = have;
    return 0;
}

char *ar_read_file_at(int dir_fd, const char *name, size_t max_bytes, size_t *len)
{
    char *text = NULL;
    size_t capacity = 0;
    if (ar_read_file_into_at(dir_fd, name, max_bytes, &text, &capacity, len) != 0) {
        int saved = errno;
        free(text);
        errno = saved;
        return NULL;
    }
    return text;
}

const char *ar_file_kind(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
         : S_ISFIFO(mode)   ? "a FIFO"
         : S_ISSOCK(mode)   ? "a socket"
         : S_ISCHR(mode)    ? "a character device"
         : S_ISBLK(mode)    ? "a block device"
         : S_ISLNK(mode)    ? "a symbolic link"
                            : "a special file";
}

const char *ar_path_kind(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? ar_file_kind(st.st_mode) : "a special file";
}

char *ar_read_user_file(const char *path, size_t max_bytes, size_t *len)
{
    /* Checked before the open and again on the descriptor: opening a FIFO
     * blocks until a writer comes, and a device can do anything on open. */
    struct stat st;
    if (stat(path, &st) != 0)
        return NULL;
    if (!S_ISREG(st.st_mode)) {
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return NULL;
    }
    /* Read to the end (the file may grow). */
    char *text = ar_read_fd(fd, max_bytes, len);
    int saved = errno;
    close(fd);
    errno = saved;
    return text;
}

char *ar_read_fd(int fd, size_t max_bytes, size_t *len)
{
    /* One byte past the limit is enough to know. */
    size_t capacity = 4096;
    char *text = ar_xmalloc(capacity + 1);
    *len = 0;
    int failed = 0;
    for (;;) {
        if (*len == capacity)
            text = ar_xrealloc(text, (capacity *= 2) + 1);
        ssize_t got = read(fd, text + *len, capacity - *len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            failed = errno;
        if (got <= 0)
            break;
        *len += (size_t)got;
        if (*len > max_bytes) {
            failed = EFBIG;
            break;
        }
    }
    if (failed) {
        free(text);
        errno = failed;
        return NULL;
    }
    text[*len] = '\0';
    return text;
}

char *ar_slug(const char *text)
{
    if (!text[0] || strcmp(text, ".") == 0 || strcmp(text, "..") == 0)
        return ar_xstrdup("_");
    char *slug = ar_xstrdup(text);
    for (char *c = slug; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
              || *c == '_' || *c == '.' || *c == '-'))
            *c = '_';
    return slug;
}

/* Never a symlink; a FIFO or device planted there is refused instead of
 * blocking the open or being written. */
int ar_open_output_at(int dir_fd, const char *name, int flags, mode_t mode)
{
    int fd = openat(dir_fd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

/* Its own writes failed (a full disk, a file size limit), so only the
 * result tells. */
int ar_fd_filled(int fd)
{
    struct stat st;
    struct rlimit limit;
    if (fstat(fd, &st) == 0 && getrlimit(RLIMIT_FSIZE, &limit) == 0
        && limit.rlim_cur != RLIM_INFINITY && (rlim_t)st.st_size >= limit.rlim_cur) {
        errno = EFBIG;
        return 1;
    }
    struct statvfs fs;
    if (fstatvfs(fd, &fs) == 0 && fs.f_bavail == 0) {
        errno = ENOSPC;
        return 1;
    }
    return 0;
}
