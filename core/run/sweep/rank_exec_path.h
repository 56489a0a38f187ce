/* SPDX-License-Identifier: MIT */
/* rank_exec_path.h - where aorta-rank-exec is: found from aorta-run's own
 * location, so build trees, DESTDIR stages and relocated installs work. */
#ifndef AR_RANK_EXEC_PATH_H
#define AR_RANK_EXEC_PATH_H

#define AR_RANK_EXEC_NAME "aorta-rank-exec"

/* The helper's absolute path, or NULL with *error set (free both).  In
 * order: $AORTA_LIBEXEC_DIR/aorta-rank-exec when the variable is set (and
 * nothing else); the installed layout relative to /proc/self/exe (bindir to
 * pkglibexecdir, as configured); the build tree (the directory of the
 * executable, or its parent when the executable is libtool's .libs/ copy);
 * the configured pkglibexecdir. */
char *ar_rank_exec_path(char **error);

/* The relative path from directory from to directory to, both absolute and
 * normalised ("../libexec/aorta" from "/usr/bin" to "/usr/libexec/aorta").
 * Free it. */
char *ar_relative_dir(const char *from, const char *to);

#endif
