/* SPDX-License-Identifier: MIT */
/* nofollow.h - directory operations that never follow symbolic links.
 * Everything under the run directory is writable by the profiled payload,
 * so cleanup and preparation work through held directory descriptors.
 * Each returns 0, or -1 with *error set to what went wrong (free it): the
 * runner's convention, since which component was a symbolic link is more
 * than errno can say. */
#ifndef AR_NOFOLLOW_H
#define AR_NOFOLLOW_H

/* Open (creating when create is set) the directory rel below base_fd, one
 * component at a time, refusing a symlink or a non-directory anywhere.
 * rel's components must be plain names ("", ".", ".." are refused).
 * Returns a descriptor, or -1 with *error set. */
int ar_nofollow_open_dir(int base_fd, const char *rel, int create, char **error);

/* Remove name below dir_fd and everything under it; symlinks are removed
 * as links, never followed.  A name that is not there is fine.  *error is
 * strerror() of the first failure. */
int ar_nofollow_remove_tree_at(int dir_fd, const char *name, char **error);

/* Make name below dir_fd an empty directory: a directory tree there is
 * emptied first; a symlink or anything else that is not a directory (a
 * regular file, a FIFO) is refused and left as it is. */
int ar_nofollow_empty_dir_at(int dir_fd, const char *name, char **error);

#endif
