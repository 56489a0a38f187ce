/* SPDX-License-Identifier: MIT */
/* lock.h - the run directory's lock, .aorta-run.lock: {"pid", "host",
 * "started_at"}, created O_EXCL, removed when the run ends.  A lock held by
 * a live aorta-run on this host, or by one on another host, is refused; a
 * lock whose process is gone (or that cannot be read) is taken over, unless
 * the run directory's flock() is still held: then a process that run
 * started (a rank, a payload's leftover) still lives, or a payload deleted
 * a live run's lock file, and the directory is refused too (lock.c). */
#ifndef AR_LOCK_H
#define AR_LOCK_H

#define AR_LOCK_NAME ".aorta-run.lock"

typedef struct ar_lock ar_lock_t;

/* Take the lock of run_dir (an existing directory).  Returns the lock, or
 * NULL after reporting why on stderr (the run must stop, exit 1). */
ar_lock_t *ar_lock_acquire(const char *run_dir);
/* The same, waiting up to seconds while the lock is busy (another part of
 * the request writing the run's reports); reported only when it gives up. */
ar_lock_t *ar_lock_wait(const char *dir, double seconds);
/* A lock file of that name in dir alone, without the directory's flock():
 * a part's claim on one trial of a cell (CELL/.aorta-part-T.lock), many
 * held at once without a descriptor each.  The same JSON, the same refusal
 * of a live holder and takeover of a gone one. */
ar_lock_t *ar_lock_file(const char *dir, const char *name);
/* Remove the lock file and free the lock. */
void ar_lock_release(ar_lock_t *lock);

#endif
