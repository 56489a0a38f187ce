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

struct aorta_lock {
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
    char started[AORTA_CLOCK_TEXT];
    aorta_clock_iso_utc(time(NULL), started);
    aorta_json_t *obj = aorta_json_object();
    aorta_json_set(obj, "pid", aorta_json_int(getpid()));
    aorta_json_set(obj, "host", aorta_json_string(host));
    aorta_json_set(obj, "started_at", aorta_json_string(started));
    char *text = aorta_json_dump(obj, 0);
    aorta_json_free(obj);
    int status = aorta_write_all(fd, text, strlen(text));
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
    aorta_json_t *held = aorta_json_read_file(path, LOCK_MAX_BYTES, 8);
    aorta_json_t *pid_json = aorta_json_get(held, "pid");
    const char *holder_host = aorta_json_get_string(aorta_json_get(held, "host"));
    const char *since = aorta_json_get_string(aorta_json_get(held, "started_at"));
    long pid = aorta_json_type(pid_json) == AORTA_JSON_INT ? (long)aorta_json_get_int(pid_json) : 0;
    int status = 0;
    if (!held || pid <= 0 || !holder_host) {
        aorta_diag_warn("taking over the unreadable lock %s", path);
    } else if (strcmp(holder_host, host) != 0) {
        aorta_diag_error("the run directory is locked by aorta-run pid %ld on host %s (since %s): "
                     "%s; if that run is gone, delete the lock file",
                     pid, holder_host, since ? since : "?", path);
        status = -1;
    } else if (process_alive(pid)) {
        aorta_diag_error("the run directory is in use by aorta-run pid %ld (since %s): %s; wait "
                     "for it to finish or choose another --output or --ticket",
                     pid, since ? since : "?", path);
        status = -1;
    } else {
        aorta_diag_warn("taking over the stale lock %s (pid %ld is gone)",
                path, pid);
    }
    aorta_json_free(held);
    return status;
}

aorta_lock_t *aorta_lock_acquire(const char *run_dir)
{
    char *path = aorta_xasprintf("%s/%s", run_dir, AORTA_LOCK_NAME);
    int dir_fd = open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) {
        aorta_diag_error("cannot open the run directory %s: %s", run_dir, strerror(errno));
        free(path);
        return NULL;
    }
    char host[256];
    host_name(host, sizeof host);
    flock(dir_fd, LOCK_EX);
    int taken = 0;
    for (int attempt = 0; attempt < 2 && !taken; attempt++) {
        int fd = openat(dir_fd, AORTA_LOCK_NAME,
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            int failed = write_lock(fd, host);
            int saved = errno;
            close(fd);
            if (failed) {
                unlinkat(dir_fd, AORTA_LOCK_NAME, 0);
                aorta_diag_error("cannot write the lock %s: %s", path, strerror(saved));
                break;
            }
            taken = 1;
            break;
        }
        if (errno != EEXIST) {
            aorta_diag_error("cannot create the lock %s: %s", path, strerror(errno));
            break;
        }
        if (attempt > 0) {
            aorta_diag_error("cannot take the lock %s: it came back after the stale one was removed",
                         path);
            break;
        }
        if (judge_existing(path, host) != 0)
            break;
        if (unlinkat(dir_fd, AORTA_LOCK_NAME, 0) != 0 && errno != ENOENT) {
            aorta_diag_error("cannot remove the stale lock %s: %s", path, strerror(errno));
            break;
        }
    }
    flock(dir_fd, LOCK_UN);
    close(dir_fd);
    if (!taken) {
        free(path);
        return NULL;
    }
    aorta_lock_t *lock = aorta_xcalloc(1, sizeof *lock);
    lock->path = path;
    return lock;
}

void aorta_lock_release(aorta_lock_t *lock)
{
    if (!lock)
        return;
    unlink(lock->path);
    free(lock->path);
    free(lock);
}
