/* SPDX-License-Identifier: MIT */
/* nofollow.h - directory operations that never follow symbolic links.  Everything
 * under the run directory is writable by the profiled payload, so cleanup
 * and preparation work through held directory descriptors. */
#ifndef AORTA_FSAFE_H
#define AORTA_FSAFE_H

/* Open (creating when create is set) the directory rel below base_fd, one
 * component at a time, refusing a symlink or a non-directory anywhere.
 * rel's components must be plain names ("", ".", ".." are refused).
 * Returns a descriptor, or -1 with *error set (free it). */
int aorta_fsafe_open_dir(int base_fd, const char *rel, int create, char **error);

/* Remove name below dir_fd and everything under it; symlinks are removed
 * as links, never followed.  Returns 0, or -1 (errno set). */
int aorta_fsafe_remove_tree_at(int dir_fd, const char *name);

/* Make name below dir_fd an empty directory: whatever was there (a file,
 * a directory tree) is removed first; a symlink there is refused.
 * Returns 0, or -1 with *error set (free it). */
int aorta_fsafe_empty_dir_at(int dir_fd, const char *name, char **error);

#endif
