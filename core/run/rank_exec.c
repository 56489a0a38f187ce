/* SPDX-License-Identifier: MIT */
/* rank_exec.c - aorta-rank-exec, the per-rank step aorta-run puts just
 * inside a launcher (docs/design.md, Multi-rank runs):
 *
 *   aorta-rank-exec [--mkdir DIR]... [--node-file FILE] [--hold RUN_DIR]
 *                   [--ranks LIST --bare-at N [--wrapped-end M]] -- PROGRAM [ARG...]
 *
 * It reads the rank the launcher gave this process (sweep/rank_env.h),
 * replaces %AORTA_RANK% by it in each DIR, in PROGRAM and every ARG and in
 * every environment value, creates each DIR (so a rank that ran but wrote
 * nothing still shows), writes this node's name into FILE (the trial's
 * timeline lines up the ranks of one node: sweep/rank_node.h), takes the
 * run directory RUN_DIR's flock() shared on a descriptor PROGRAM and all it
 * starts inherit (so a rank that outlives its aorta-run keeps the run
 * directory from being resumed under it: record/lock.c), and execs
 * PROGRAM.  No shell: PROGRAM is looked up
 * on PATH and run with execve().  Exit status, as env(1): 125 for its own
 * errors, 126 when PROGRAM cannot run, 127 when it is not found.
 *
 * With --ranks (docs/multi-rank.md, Profiling chosen ranks), a rank not in
 * LIST ("0,3", "0-3,8") creates no DIR and execs the bare command, words N
 * to the end of the argv after "--"; a listed rank execs words 0 to M
 * (default: all of them).  The collectors' variables travel in that argv
 * (env NAME=VALUE ...), never in this process's environment, so the bare
 * command runs without them. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sys/diag.h"
#include "path_search.h"
#include "sweep/rank_env.h"
#include "sys/rank_list.h"
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
        ar_diag_warn("aorta-rank-exec: %s already exists: another process of this job has "
                        "rank %ld too; their captures mix",
                        path, rank);
        return 0;
    }
    ar_diag_error("aorta-rank-exec: cannot create %s: %s", path,
                     errno == EEXIST ? "something that is not a directory is in the way"
                                     : strerror(errno));
    return -1;
}

/* What the options before "--" ask for. */
typedef struct request {
    int first;            /* the index of "--" in argv */
    long *ranks;          /* --ranks, sorted; NULL: every rank profiles itself */
    size_t rank_count;
    long bare_at;         /* --bare-at N, else -1 */
    long wrapped_end;     /* --wrapped-end M, else -1 */
} request_t;

static int usage(void)
{
    ar_diag_error("aorta-rank-exec: usage: aorta-rank-exec [--mkdir DIR]... [--node-file FILE] "
                     "[--hold RUN_DIR] [--ranks LIST --bare-at N [--wrapped-end M]] -- PROGRAM "
                     "[ARG...]");
    return -1;
}

/* A word index of the argv after "--": 0 to count. */
static int read_index(const char *flag, const char *text, size_t count, long *out)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || !text[0] || *end || value < 0 || (size_t)value > count) {
        ar_diag_error("aorta-rank-exec: %s: expected a word index from 0 to %zu, got '%s'",
                         flag, count, text);
        return -1;
    }
    *out = value;
    return 0;
}

static int read_request(int argc, char **argv, request_t *req)
{
    *req = (request_t){.first = 1, .bare_at = -1, .wrapped_end = -1};
    while (req->first < argc && strcmp(argv[req->first], "--") != 0)
        req->first += 2;
    if (req->first >= argc)
        return usage();
    size_t count = (size_t)(argc - req->first - 1);
    for (int i = 1; i < req->first; i += 2) {
        const char *flag = argv[i], *value = i + 1 < req->first ? argv[i + 1] : NULL;
        char *why = NULL;
        if (!value)
            return usage();
        if (!strcmp(flag, "--ranks")) {
            free(req->ranks);
            if (ar_rank_list_parse(value, &req->ranks, &req->rank_count, &why) != 0) {
                ar_diag_error("aorta-rank-exec: --ranks: %s", why);
                free(why);
                return -1;
            }
        } else if (!strcmp(flag, "--bare-at") || !strcmp(flag, "--wrapped-end")) {
            if (read_index(flag, value, count, flag[2] == 'b' ? &req->bare_at : &req->wrapped_end)
                != 0)
                return -1;
        } else if (strcmp(flag, "--mkdir") != 0 && strcmp(flag, "--node-file") != 0
                   && strcmp(flag, "--hold") != 0) {
            return usage();
        }
    }
    if (count == 0) {
        ar_diag_error("aorta-rank-exec: no program after '--'");
        return -1;
    }
    if (req->ranks && (req->bare_at < 0 || (size_t)req->bare_at >= count || req->wrapped_end == 0)) {
        ar_diag_error("aorta-rank-exec: --ranks needs --bare-at N before the last word after "
                         "'--' (where the bare command starts), and --wrapped-end M above 0");
        return -1;
    }
    return 0;
}

/* argv[from, to) with %AORTA_RANK% replaced, NULL-terminated. */
static char **expand_args(char **argv, int from, int to, long rank)
{
    char **args = ar_xcalloc((size_t)(to - from) + 1, sizeof *args);
    for (int i = from; i < to; i++)
        args[i - from] = ar_rank_expand(argv[i], rank);
    return args;
}

/* environ with %AORTA_RANK% replaced in every value. */
static char **expand_environ(long rank)
{
    size_t env_count = 0;
    while (environ[env_count])
        env_count++;
    char **envp = ar_xcalloc(env_count + 1, sizeof *envp);
    for (size_t i = 0; i < env_count; i++) {
        /* Values only: a name holding the placeholder is left as it is. */
        const char *eq = strchr(environ[i], '=');
        if (!eq) {
            envp[i] = ar_xstrdup(environ[i]);
            continue;
        }
        char *value = ar_rank_expand(eq + 1, rank);
        envp[i] = ar_xasprintf("%.*s=%s", (int)(eq - environ[i]), environ[i], value);
        free(value);
    }
    return envp;
}

/* This node's name into path (%AORTA_RANK% replaced), for the trial's
 * timeline to know which ranks share a clock; a failure costs only that
 * (the rank is then aligned on its own), so it is no error. */
static void note_node(const char *path, long rank)
{
    struct utsname host;
    char *file = ar_rank_expand(path, rank);
    int fd = uname(&host) == 0 ? open(file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
                                      0644)
                               : -1;
    free(file);
    if (fd < 0)
        return;
    size_t len = strlen(host.nodename);
    host.nodename[len] = '\n';
    if (write(fd, host.nodename, len + 1) < 0) {
        /* nothing more to do: the note is a hint */
    }
    close(fd);
}

/* The run directory held shared for as long as this rank or anything it
 * starts lives: the descriptor is left open across exec on purpose.  A
 * failure (no flock() there, a new run's brief exclusive hold) costs only
 * that protection. */
static void hold_run_dir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY);
    if (fd >= 0 && flock(fd, LOCK_SH | LOCK_NB) != 0)
        close(fd);
}

static void free_strings(char **items)
{
    for (size_t i = 0; items[i]; i++)
        free(items[i]);
    free(items);
}

int main(int argc, char **argv)
{
    request_t req;
    if (read_request(argc, argv, &req) != 0) {
        free(req.ranks); /* a list read before the mistake */
        return EXIT_OWN;
    }
    long rank = 0;
    const char *var = NULL, *text = NULL;
    if (ar_rank_read(&rank, &var, &text) < 0) {
        ar_diag_error("aorta-rank-exec: %s='%s' is not a rank (an integer from 0 to %d); "
                         "refusing to guess where this process's captures go",
                         var, text, AR_RANK_MAX - 1);
        return EXIT_OWN;
    }
    for (int i = 1; i < req.first; i += 2)
        if (!strcmp(argv[i], "--hold"))
            hold_run_dir(argv[i + 1]);
    /* No variable set: a launcher of one process (taskset, numactl): rank 0. */
    int profiled = !req.ranks || ar_rank_list_has(req.ranks, req.rank_count, rank);
    free(req.ranks);
    for (int i = 1; profiled && i < req.first; i += 2) {
        if (strcmp(argv[i], "--mkdir") != 0)
            continue;
        char *dir = ar_rank_expand(argv[i + 1], rank);
        int status = make_rank_dir(dir, rank);
        free(dir);
        if (status != 0)
            return EXIT_OWN;
    }
    for (int i = 1; profiled && i < req.first; i += 2)
        if (!strcmp(argv[i], "--node-file"))
            note_node(argv[i + 1], rank);
    int from = req.first + 1, to = argc;
    if (!profiled)
        from += (int)req.bare_at;
    else if (req.wrapped_end > 0)
        to = from + (int)req.wrapped_end;
    char **args = expand_args(argv, from, to, rank);
    char **envp = expand_environ(rank);
    int error = ar_path_execve(args, envp, getenv("PATH"));
    ar_diag_error("aorta-rank-exec: cannot run %s: %s", args[0], strerror(error));
    free_strings(args);
    free_strings(envp);
    return error == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
