/* SPDX-License-Identifier: MIT */
/* read_ahead.c - the reads csv.c parses, a large file's made on a thread of
 * their own one buffer ahead of the parse.
 *
 * Why: copying a trace out of the page cache is a quarter of its parse
 * (about 65 ms of a 460 MB one), and the parse never waits on it when
 * another core makes the next read meanwhile.  Two buffers take turns: the
 * thread fills one while csv.c parses the other.  The reads are the same,
 * in the same order and of the same size, as without the thread, so the
 * parse sees the same bytes in the same pieces either way (a read error
 * too reaches it where it happened).  Small files, pipes and sockets are
 * read on the caller's thread, as is everything when the thread cannot be
 * started. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocprof.h"

/* Files from this size on are read ahead: below it the thread's start
 * costs about what it saves. */
#define AHEAD_MIN ((off_t)4 << 20)

struct rocprof_reads {
    int fd;
    char *buffer[2];
    int threaded;
    pthread_t thread;
    int ended;             /* the last result was the end or an error */
    ssize_t last;
    /* Under lock, while threaded: */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int full[2];           /* buffer[i] holds a read the parse has not had */
    ssize_t got[2];        /* its result */
    int quit;              /* the parse is done: stop reading */
    int current;           /* the buffer the parse has now; -1: none yet */
};

/* One read of up to ROCPROF_READ_SIZE bytes into buffer: its count, 0 at
 * the end of the file, -1 on an error (an interrupted read is made again). */
static ssize_t read_once(int fd, char *buffer)
{
    for (;;) {
        ssize_t got = read(fd, buffer + ROCPROF_READ_HEAD, ROCPROF_READ_SIZE);
        if (got >= 0 || errno != EINTR)
            return got < 0 ? -1 : got;
    }
}

static void *reader_thread(void *arg)
{
    rocprof_reads_t *reads = arg;
    for (int i = 0;; i ^= 1) {
        pthread_mutex_lock(&reads->lock);
        while (reads->full[i] && !reads->quit)
            pthread_cond_wait(&reads->changed, &reads->lock);
        int quit = reads->quit;
        pthread_mutex_unlock(&reads->lock);
        if (quit)
            return NULL;
        ssize_t got = read_once(reads->fd, reads->buffer[i]);
        pthread_mutex_lock(&reads->lock);
        reads->got[i] = got;
        reads->full[i] = 1;
        pthread_cond_broadcast(&reads->changed);
        pthread_mutex_unlock(&reads->lock);
        if (got <= 0)
            return NULL; /* nothing is read after the end or an error */
    }
}

rocprof_reads_t *rocprof_reads_start(int fd, int ahead)
{
    rocprof_reads_t *reads = cc_xmalloc(sizeof *reads);
    *reads = (rocprof_reads_t){.fd = fd, .current = -1};
    const size_t size = ROCPROF_READ_HEAD + ROCPROF_READ_SIZE + ROCPROF_READ_TAIL;
    reads->buffer[0] = cc_xmalloc(size);
    struct stat st;
    if (!ahead || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < AHEAD_MIN)
        return reads;
    reads->buffer[1] = cc_xmalloc(size);
    if (pthread_mutex_init(&reads->lock, NULL) != 0)
        return reads;
    if (pthread_cond_init(&reads->changed, NULL) != 0) {
        pthread_mutex_destroy(&reads->lock);
        return reads;
    }
    /* The thread takes no signal the parse would: they stay with the
     * caller's thread, as without it. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    reads->threaded = pthread_create(&reads->thread, NULL, reader_thread, reads) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!reads->threaded) {
        pthread_cond_destroy(&reads->changed);
        pthread_mutex_destroy(&reads->lock);
    }
    return reads;
}

ssize_t rocprof_reads_next(rocprof_reads_t *reads, char **data)
{
    if (reads->ended) /* the thread reads nothing after the end */
        return reads->last;
    if (!reads->threaded) {
        *data = reads->buffer[0] + ROCPROF_READ_HEAD;
        return read_once(reads->fd, reads->buffer[0]);
    }
    int i = reads->current < 0 ? 0 : reads->current ^ 1;
    pthread_mutex_lock(&reads->lock);
    if (reads->current >= 0) {
        reads->full[reads->current] = 0; /* the parse is done with it */
        pthread_cond_broadcast(&reads->changed);
    }
    while (!reads->full[i])
        pthread_cond_wait(&reads->changed, &reads->lock);
    ssize_t got = reads->got[i];
    pthread_mutex_unlock(&reads->lock);
    reads->current = i;
    *data = reads->buffer[i] + ROCPROF_READ_HEAD;
    reads->ended = got <= 0;
    reads->last = got;
    return got;
}

void rocprof_reads_stop(rocprof_reads_t *reads)
{
    if (reads->threaded) {
        pthread_mutex_lock(&reads->lock);
        reads->quit = 1;
        pthread_cond_broadcast(&reads->changed);
        pthread_mutex_unlock(&reads->lock);
        pthread_join(reads->thread, NULL);
        pthread_cond_destroy(&reads->changed);
        pthread_mutex_destroy(&reads->lock);
    }
    free(reads->buffer[0]);
    free(reads->buffer[1]);
    free(reads);
}
