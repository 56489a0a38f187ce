/* fsutil.h - small filesystem helpers of the run directory. */
#ifndef AORTA_FSUTIL_H
#define AORTA_FSUTIL_H

#include <sys/types.h>

/* Create path and its missing parents (mode for new ones).  Returns 0 or -1
 * (errno set); an existing directory is fine, anything else in the way is not. */
int aorta_mkdir_p(const char *path, mode_t mode);

/* upstream's safe_slug: characters outside [A-Za-z0-9_.-] become '_', and
 * "", "." and ".." become "_".  Free the result. */
char *aorta_slug(const char *text);

#endif
