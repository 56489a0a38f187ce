/* SPDX-License-Identifier: MIT */
/* lock.c - the run directory's lock.
 *
 * The lock file itself is the upstream contract (O_EXCL, pid and host).
 * Taking over a stale one is read, check, unlink, create: two aorta-runs
 * doing that at once could each delete the other's fresh lock, so that
 * sequence runs under flock() on the run directory. */
#include "config.h"

#include "sys/diag.h"
#include "sweep/lock.h"

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
};

#define LOCK_MAX_BYTES 4096

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
 * printed), -1 to refuse (reported). */
static int judge_existing(const char *path, const char *host)
{
    ar_json_t *held = ar_json_read_file(path, LOCK_MAX_BYTES, 8);
    ar_json_t *pid_json = ar_json_get(held, "pid");
    const char *holder_host = ar_json_get_string(ar_json_get(held, "host"));
    const char *since = ar_json_get_string(ar_json_get(held, "started_at"));
    long pid = ar_json_type(pid_json) == AR_JSON_INT ? (long)ar_json_get_int(pid_json) : 0;
    int status = 0;
    if (!held || pid <= 0 || !holder_host) {
        ar_diag_warn("taking over the unreadable lock %s", path);
    } else if (strcmp(holder_host, host) != 0) {
        ar_diag_error("the run directory is locked by aorta-run pid %ld on host %s (since %s): "
                     "%s; if that run is gone, delete the lock file",
                     pid, holder_host, since ? since : "?", path);
        status = -1;
    } else if (process_alive(pid)) {
        ar_diag_error("the run directory is in use by aorta-run pid %ld (since %s): %s; wait "
                     "for it to finish or choose another --output or --ticket",
                     pid, since ? since : "?", path);
        status = -1;
    } else {
        ar_diag_warn("taking over the stale lock %s (pid %ld is gone)",
                path, pid);
    }
    ar_json_free(held);
    return status;
}

ar_lock_t *ar_lock_acquire(const char *run_dir)
{
    char *path = ar_xasprintf("%s/%s", run_dir, AR_LOCK_NAME);
    int dir_fd = open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
        ar_diag_error("cannot open the run directory %s: %s", run_dir, strerror(errno));
        free(path);
        return NULL;
    }
    char host[256];
    host_name(host, sizeof host);
    flock(dir_fd, LOCK_EX);
    int taken = 0;
    for (int attempt = 0; attempt < 2 && !taken; attempt++) {
        int fd = openat(dir_fd, AR_LOCK_NAME,
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            int failed = write_lock(fd, host);
            int saved = errno;
            close(fd);
            if (failed) {
                unlinkat(dir_fd, AR_LOCK_NAME, 0);
                ar_diag_error("cannot write the lock %s: %s", path, strerror(saved));
                break;
            }
            taken = 1;
            break;
        }
        if (errno != EEXIST) {
            ar_diag_error("cannot create the lock %s: %s", path, strerror(errno));
            break;
        }
        if (attempt > 0) {
            ar_diag_error("cannot take the lock %s: it came back after the stale one was removed",
                         path);
            break;
        }
        if (judge_existing(path, host) != 0)
            break;
        if (unlinkat(dir_fd, AR_LOCK_NAME, 0) != 0 && errno != ENOENT) {
            ar_diag_error("cannot remove the stale lock %s: %s", path, strerror(errno));
            break;
        }
    }
    flock(dir_fd, LOCK_UN);
    close(dir_fd);
    if (!taken) {
        free(path);
        return NULL;
    }
    ar_lock_t *lock = ar_xcalloc(1, sizeof *lock);
    lock->path = path;
    return lock;
}

void ar_lock_release(ar_lock_t *lock)
{
    if (!lock)
        return;
    unlink(lock->path);
    free(lock->path);
    free(lock);
}
