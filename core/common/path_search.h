/* SPDX-License-Identifier: MIT */
/* path_search.h - a program name looked up on a PATH-style list, as
 * execvp() looks it up: one walk for aorta-run (the trial's command),
 * aorta-rank-exec (the program after --) and the SDK's aorta_which().
 * Not installed. */
#ifndef AR_PATH_SEARCH_H
#define AR_PATH_SEARCH_H

/* The list searched when the environment has no PATH: Python's os.defpath,
 * which is also what glibc's execvp() uses when PATH is unset. */
#define AR_DEFAULT_PATH "/bin:/usr/bin"

/* Call try(candidate, user) for each candidate of name (which holds no '/')
 * on path_value (NULL: AR_DEFAULT_PATH), in order: each entry, '/',
 * name; an empty entry stands for the working directory (the candidate is
 * name itself).  Stops at the first call that returns non-zero and returns
 * that; 0 when every call returned 0; -1 with errno ENOMEM when a candidate
 * could not be built.  Allocates with malloc() only, so a child between
 * fork() and exec may use it. */
int ar_path_search(const char *name, const char *path_value,
                      int (*try)(const char *candidate, void *user), void *user);

/* execve() of argv[0] with envp: directly when it holds a '/', else each
 * candidate on path_value (as above) in turn.  Returns only when nothing
 * could be executed, with the errno to report: EACCES when some candidate
 * was not executable, else the last error other than ENOENT and ENOTDIR,
 * else ENOENT.  No shell: a file the kernel refuses to execute is not
 * handed to /bin/sh. */
int ar_path_execve(char *const *argv, char *const *envp, const char *path_value);

#endif
