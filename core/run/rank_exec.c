/* SPDX-License-Identifier: MIT */
/* rank_exec.c - aorta-rank-exec, the per-rank step aorta-run puts just
 * inside a launcher (docs/design.md, Multi-rank runs):
 *
 *   aorta-rank-exec [--mkdir DIR]... -- PROGRAM [ARG...]
 *
 * It reads the rank the launcher gave this process (sweep/rank_env.h),
 * replaces %AORTA_RANK% by it in each DIR, in PROGRAM and every ARG and in
 * every environment value, creates each DIR (so a rank that ran but wrote
 * nothing still shows), and execs PROGRAM.  No shell: PROGRAM is looked up
 * on PATH and run with execve().  Exit status, as env(1): 125 for its own
 * errors, 126 when PROGRAM cannot run, 127 when it is not found. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/diag.h"
#include "path_search.h"
#include "sweep/rank_env.h"
#include "xalloc.h"

extern char **environ;

#define EXIT_OWN 125
#define EXIT_CANNOT_RUN 126
#define EXIT_NOT_FOUND 127

static int make_rank_dir(const char *path, long rank)
{
    if (mkdir(path, 0755) == 0)
        return 0;
    struct stat st;
    if (errno == EEXIST && lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        /* aorta-run empties the collector directory before each attempt, so
         * an existing rank directory means two processes share a rank. */
        aorta_diag_warn("aorta-rank-exec: %s already exists: another process of this job has "
                        "rank %ld too; their captures mix",
                        path, rank);
        return 0;
    }
    aorta_diag_error("aorta-rank-exec: cannot create %s: %s", path,
                     errno == EEXIST ? "something that is not a directory is in the way"
                                     : strerror(errno));
    return -1;
}

int main(int argc, char **argv)
{
    int first = 1;
    while (first < argc && strcmp(argv[first], "--") != 0) {
        if (strcmp(argv[first], "--mkdir") != 0 || first + 1 >= argc) {
            aorta_diag_error("aorta-rank-exec: usage: aorta-rank-exec [--mkdir DIR]... -- "
                             "PROGRAM [ARG...]");
            return EXIT_OWN;
        }
        first += 2;
    }
    if (first + 1 >= argc) {
        aorta_diag_error("aorta-rank-exec: no program after '--'");
        return EXIT_OWN;
    }
    long rank = 0;
    const char *var = NULL, *text = NULL;
    if (aorta_rank_read(&rank, &var, &text) < 0) {
        aorta_diag_error("aorta-rank-exec: %s='%s' is not a rank (an integer from 0 to %d); "
                         "refusing to guess where this process's captures go",
                         var, text, AORTA_RANK_MAX - 1);
        return EXIT_OWN;
    }
    /* No variable set: a launcher of one process (taskset, numactl): rank 0. */
    for (int i = 1; i < first; i += 2) {
        char *dir = aorta_rank_expand(argv[i + 1], rank);
        int status = make_rank_dir(dir, rank);
        free(dir);
        if (status != 0)
            return EXIT_OWN;
    }
    size_t count = (size_t)(argc - first - 1);
    char **args = aorta_xcalloc(count + 1, sizeof *args);
    for (size_t i = 0; i < count; i++)
        args[i] = aorta_rank_expand(argv[first + 1 + (int)i], rank);
    size_t env_count = 0;
    while (environ[env_count])
        env_count++;
    char **envp = aorta_xcalloc(env_count + 1, sizeof *envp);
    for (size_t i = 0; i < env_count; i++) {
        /* Values only: a name holding the placeholder is left as it is. */
        const char *eq = strchr(environ[i], '=');
        if (!eq) {
            envp[i] = aorta_xstrdup(environ[i]);
            continue;
        }
        char *value = aorta_rank_expand(eq + 1, rank);
        envp[i] = aorta_xasprintf("%.*s=%s", (int)(eq - environ[i]), environ[i], value);
        free(value);
    }
    int error = aorta_path_execve(args, envp, getenv("PATH"));
    aorta_diag_error("aorta-rank-exec: cannot run %s: %s", args[0], strerror(error));
    for (size_t i = 0; i < count; i++)
        free(args[i]);
    free(args);
    for (size_t i = 0; i < env_count; i++)
        free(envp[i]);
    free(envp);
    return error == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
