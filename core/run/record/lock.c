/* SPDX-License-Identifier: MIT */
/* lock.c - the run directory's lock.
 *
 * The lock file itself is the upstream contract (O_EXCL, pid and host).
 * Beside it, the run directory's own flock(): taken exclusively (never
 * waiting) while the lock file is judged and written, so two aorta-runs
 * never delete each other's fresh lock, then held shared for the whole run
 * on a descriptor every child inherits, and aorta-rank-exec takes it
 * shared too (--hold).  So the directory stays held while anything the run
 * started lives: a rank of a run killed with SIGKILL (whose launcher died
 * with it, but not the ranks) or a payload's lost daemon, and a run whose
 * lock file a payload deleted.  A file system without flock() (some NFS)
 * keeps the lock file alone, as before. */
#include "config.h"

#include "sys/diag.h"
#include "record/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "sys/clock.h"
#include "sys/files.h"
#include "sys/json.h"
#include "xalloc.h"

struct ar_lock {
    char *path;
    int dir_fd;   /* the run directory, flock()ed shared; inherited by every child */
};

#define LOCK_MAX_BYTES 4096

/* Set while ar_lock_wait() tries again: a busy lock is not reported. */
static int quiet;

static void host_name(char *out, size_t size)
{
    if (gethostname(out, size) != 0)
        out[0] = '\0';
    out[size - 1] = '\0';
}

static int write_lock(int fd, const char *host)
{
    char started[AR_CLOCK_TEXT];
    ar_clock_iso_utc(time(NULL), started);
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "pid", ar_json_int(getpid()));
    ar_json_set(obj, "host", ar_json_string(host));
    ar_json_set(obj, "started_at", ar_json_string(started));
    char *text = ar_json_dump(obj, 0);
    ar_json_free(obj);
    int status = ar_write_all(fd, text, strlen(text));
    int saved = errno;
    free(text);
    errno = saved;
    return status;
}

static int process_alive(long pid)
{
    if (pid <= 0 || pid == (long)getpid())
        return 0;
    return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* Decide about the lock that is there: 0 to take it over (a warning was
 * printed), -1 to refuse (reported).  busy: another process holds the run
 * directory's flock(), so it is never taken over: its lock file names a
 * live run, or a dead run's processes still hold the directory. */
static int judge_existing(const char *path, const char *host, int busy)
{
    ar_json_t *held = ar_json_read_file(path, LOCK_MAX_BYTES, 8);
    ar_json_t *pid_json = ar_json_get(held, "pid");
    const char *holder_host = ar_json_get_string(ar_json_get(held, "host"));
    const char *since = ar_json_get_string(ar_json_get(held, "started_at"));
    long pid = ar_json_type(pid_json) == AR_JSON_INT ? (long)ar_json_get_int(pid_json) : 0;
    int readable = held && pid > 0 && holder_host;
    int status = 0;
    if (readable && strcmp(holder_host, host) != 0) {
        if (!quiet) ar_diag_error("the run directory is locked by aorta-run pid %ld on host %s (since %s): "
                     "%s; if that run is gone, delete the lock file",
                     pid, holder_host, since ? since : "?", path);
        status = -1;
    } else if (readable && process_alive(pid)) {
        if (!quiet) ar_diag_error("the run directory is in use by aorta-run pid %ld (since %s): %s; wait "
                     "for it to finish or choose another --output or --ticket",
                     pid, since ? since : "?", path);
        status = -1;
    } else if (busy && readable) {
        if (!quiet) ar_diag_error("the run directory is still held by a process of a run that is gone "
                      "(aorta-run pid %ld): a rank or a process its trials left may still write "
                      "into it: %s; wait for it to end, or find it with 'fuser -v' on the run "
                      "directory and kill it",
                      pid, path);
        status = -1;
    } else if (busy) {
        if (!quiet) ar_diag_error("the run directory is held by another process and its lock file is gone "
                      "or unreadable (a payload may have deleted it): %s; wait for that run to "
                      "end, or find the process with 'fuser -v' on the run directory",
                      path);
        status = -1;
    } else if (!readable) {
        ar_diag_warn("taking over the unreadable lock %s", path);
    } else {
        ar_diag_warn("taking over the stale lock %s (pid %ld is gone)",
                path, pid);
    }
    ar_json_free(held);
    return status;
}

/* The lock file created in dir_fd: 1, or 0 after reporting why. */
static int take_file(int dir_fd, const char *name, const char *path, const char *host,
                     int busy)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        int fd = busy ? -1
                      : openat(dir_fd, name,
                               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            int failed = write_lock(fd, host);
            int saved = errno;
            close(fd);
            if (!failed)
                return 1;
            unlinkat(dir_fd, name, 0);
            if (!quiet) ar_diag_error("cannot write the lock %s: %s", path, strerror(saved));
            return 0;
        }
        if (!busy && errno != EEXIST) {
            if (!quiet) ar_diag_error("cannot create the lock %s: %s", path, strerror(errno));
            return 0;
        }
        if (attempt > 0) {
            if (!quiet) ar_diag_error("cannot take the lock %s: it came back after the stale one was removed",
                         path);
            return 0;
        }
        if (judge_existing(path, host, busy) != 0)
            return 0;
        if (unlinkat(dir_fd, name, 0) != 0 && errno != ENOENT) {
            if (!quiet) ar_diag_error("cannot remove the stale lock %s: %s", path, strerror(errno));
            return 0;
        }
    }
    return 0;
}

ar_lock_t *ar_lock_acquire(const char *run_dir)
{
    char *path = ar_xasprintf("%s/%s", run_dir, AR_LOCK_NAME);
    /* Not close-on-exec: every process the run starts holds the directory. */
    int dir_fd = open(run_dir, O_RDONLY | O_DIRECTORY);
    if (dir_fd < 0) {
        ar_diag_error("cannot open the run directory %s: %s", run_dir, strerror(errno));
        free(path);
        return NULL;
    }
    char host[256];
    host_name(host, sizeof host);
    /* Never waiting: a holder may be a run's leftover that never ends. */
    int flocked = flock(dir_fd, LOCK_EX | LOCK_NB) == 0;
    int busy = !flocked && errno == EWOULDBLOCK;
    int taken = take_file(dir_fd, AR_LOCK_NAME, path, host, busy);
    if (!taken) {
        close(dir_fd);
        free(path);
        return NULL;
    }
    if (flocked)
        flock(dir_fd, LOCK_SH); /* shared from now on: the run's ranks take it too */
    ar_lock_t *lock = ar_xcalloc(1, sizeof *lock);
    lock->path = path;
    lock->dir_fd = dir_fd;
    return lock;
}

void ar_lock_release(ar_lock_t *lock)
{
    if (!lock)
        return;
    unlink(lock->path);
    if (lock->dir_fd >= 0)
        close(lock->dir_fd);
    free(lock->path);
    free(lock);
}

ar_lock_t *ar_lock_wait(const char *dir, double seconds)
{
    struct timespec pause = {0, 100 * 1000 * 1000};
    quiet = 1;
    ar_lock_t *lock = ar_lock_acquire(dir);
    for (double waited = 0; !lock && waited < seconds; waited += 0.1) {
        nanosleep(&pause, NULL);
        lock = ar_lock_acquire(dir);
    }
    quiet = 0;
    return lock ? lock : ar_lock_acquire(dir);
}

ar_lock_t *ar_lock_file(const char *dir, const char *name)
{
    int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
        ar_diag_error("cannot open the run directory %s: %s", dir, strerror(errno));
        return NULL;
    }
    char *path = ar_xasprintf("%s/%s", dir, name);
    char host[256];
    host_name(host, sizeof host);
    int taken = take_file(dir_fd, name, path, host, 0);
    close(dir_fd);
    if (!taken) {
        free(path);
        return NULL;
    }
    ar_lock_t *lock = ar_xcalloc(1, sizeof *lock);
    lock->path = path;
    lock->dir_fd = -1;
    return lock;
}
