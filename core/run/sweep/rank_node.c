/* SPDX-License-Identifier: MIT */
/* rank_node.c - the ranks' node notes (rank_node.h).  The name is
 * uname()'s node name, what MPI launchers and Slurm call the host. */
#include "config.h"

#include "sweep/rank_node.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sweep/rank_env.h"
#include "sys/files.h"
#include "sys/nofollow.h"
#include "xalloc.h"

/* A node name is at most 64 bytes (HOST_NAME_MAX); more is not a note. */
#define NOTE_MAX 256

char *ar_rank_node_file(long rank)
{
    return rank < 0 ? ar_xasprintf("rank%s.node", AR_RANK_PLACEHOLDER)
                    : ar_xasprintf("rank%ld.node", rank);
}

int ar_rank_node_note(int run_fd, const char *collect_rel, long rank)
{
    struct utsname host;
    if (uname(&host) != 0)
        return -1;
    char *why = NULL;
    int dir_fd = ar_nofollow_open_dir(run_fd, collect_rel, 1, &why);
    free(why);
    if (dir_fd < 0)
        return -1;
    char *name = ar_rank_node_file(rank);
    char *text = ar_xasprintf("%s\n", host.nodename);
    int status = ar_write_file_atomic_at(dir_fd, name, text, strlen(text));
    free(text);
    free(name);
    close(dir_fd);
    return status;
}

/* rank's note (its first line), or NULL. */
static char *read_note(int dir_fd, long rank)
{
    char *name = ar_rank_node_file(rank);
    int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    free(name);
    if (fd < 0)
        return NULL;
    char buf[NOTE_MAX];
    ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0)
        return NULL;
    buf[got] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    return buf[0] ? ar_xstrdup(buf) : NULL;
}

int ar_rank_nodes_one(int run_fd, const char *collect_rel, const long *ranks, size_t count)
{
    char *why = NULL;
    int dir_fd = ar_nofollow_open_dir(run_fd, collect_rel, 0, &why);
    free(why);
    if (dir_fd < 0)
        return 0;
    char *first = NULL;
    int one = count > 0;
    for (size_t i = 0; one && i < count; i++) {
        char *note = read_note(dir_fd, ranks[i]);
        if (!note)
            one = 0;
        else if (!first)
            first = note, note = NULL;
        else
            one = !strcmp(first, note);
        free(note);
    }
    free(first);
    close(dir_fd);
    return one;
}
