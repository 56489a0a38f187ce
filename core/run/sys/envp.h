/* SPDX-License-Identifier: MIT */
/* envp.h - a variable of an environment held as an envp array (what
 * execve() is given), rather than of aorta-run's own. */
#ifndef AR_ENVP_H
#define AR_ENVP_H

/* The value of name in envp ("NAME=VALUE" strings, NULL-terminated; envp
 * NULL holds none), borrowed, or NULL when it is not set.  The first
 * definition wins, as getenv() would see it. */
const char *ar_envp_get(char *const *envp, const char *name);

#endif
