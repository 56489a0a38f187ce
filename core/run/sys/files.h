/* SPDX-License-Identifier: MIT */
/* files.h - small filesystem helpers of the run directory: directories,
 * whole-file reads and atomic writes, names. */
#ifndef AR_FILES_H
#define AR_FILES_H

#include <stddef.h>
#include <sys/types.h>

/* Create path and its missing parents (mode for new ones).  Returns 0 or -1
 * (errno set); an existing directory is fine, anything else in the way is not. */
int ar_mkdir_p(const char *path, mode_t mode);

/* Write all len bytes at data to fd, through short writes and EINTR: 0, or
 * -1 with errno set (EIO when write() wrote nothing). */
int ar_write_all(int fd, const void *data, size_t len);
/* Open name below dir_fd to write, as openat() with flags and mode: never
 * through a symlink, and only a regular file (a FIFO or device there is
 * -1 with EINVAL, never opened to block).  -1 with errno on failure. */
int ar_open_output_at(int dir_fd, const char *name, int flags, mode_t mode);
/* 1 when the file open as fd reached the file size limit (errno EFBIG) or
 * its filesystem is full (ENOSPC): what a process writing it may have
 * lost; else 0. */
int ar_fd_filled(int fd);

/* Write the len bytes at data to path whole or not at all: a temporary file
 * next to it (opened without following a symlink), then rename() over path.
 * Returns 0, or -1 (errno set) with path untouched and no temporary left. */
int ar_write_file_atomic(const char *path, const void *data, size_t len);
/* The same for name below dir_fd (AT_FDCWD: name is a path). */
int ar_write_file_atomic_at(int dir_fd, const char *name, const void *data, size_t len);

/* The same written in pieces, for a file too large to hold whole: a
 * temporary file next to name (O_EXCL, no symlink followed), open for
 * writing; -1 (errno set) or its descriptor, its name in *temporary (free
 * it).  ar_atomic_finish_at() closes it and, when ok, renames it over
 * name; else (or when that fails) removes it: 0, or -1 with errno set. */
int ar_atomic_start_at(int dir_fd, const char *name, char **temporary);
int ar_atomic_finish_at(int dir_fd, int fd, const char *temporary, const char *name, int ok);

/* The same, except that a regular file of one link already holding exactly
 * those bytes is left as it is: a report written again over an unchanged
 * run replaces nothing (a replaced file is a new inode and, on a
 * filesystem mounted with discard, a synchronous discard of the old one's
 * blocks in rename()). */
int ar_update_file_at(int dir_fd, const char *name, const void *data, size_t len);

/* The whole of name below dir_fd (AT_FDCWD: name is a path), NUL-terminated,
 * its length in *len, when it is a regular file of at most max_bytes.  NULL
 * with errno set otherwise: ENOENT when missing, ELOOP for a symlink (never
 * followed), EINVAL when not a regular file, EFBIG when too large, or the
 * error that stopped the open or a read.  Free it. */
char *ar_read_file_at(int dir_fd, const char *name, size_t max_bytes, size_t *len);
/* The same into *buffer, *capacity bytes (NULL, 0 at first), replaced by a
 * larger one when the file does not fit, so one buffer serves file after
 * file: 0, or -1 with errno set (*buffer stays the caller's to free). */
int ar_read_file_into_at(int dir_fd, const char *name, size_t max_bytes, char **buffer,
                            size_t *capacity, size_t *len);

/* The whole of a file the user named (a recipe, a sidecar), NUL-terminated,
 * its length in *len: symlinks are followed, but it must be a regular file
 * (checked before it is opened, so a FIFO or a device is never opened) of
 * at most max_bytes.  NULL with errno set otherwise: EISDIR for a directory,
 * EINVAL for anything else that is not a regular file (ar_file_kind()
 * names it), EFBIG past max_bytes, or the error of the stat, the open or a
 * read.  Free it. */
char *ar_read_user_file(const char *path, size_t max_bytes, size_t *len);

/* What fd holds from where it stands to its end, NUL-terminated, its
 * length in *len: at most max_bytes (EFBIG past them).  NULL with errno set
 * when a read fails.  Free it. */
char *ar_read_fd(int fd, size_t max_bytes, size_t *len);

/* What a file of mode is, for messages: "a FIFO", "a socket", ... */
const char *ar_file_kind(mode_t mode);
/* The same for what path names now (symlinks followed). */
const char *ar_path_kind(const char *path);

/* upstream's safe_slug: characters outside [A-Za-z0-9_.-] become '_', and
 * "", "." and ".." become "_".  Free the result. */
char *ar_slug(const char *text);

#endif
