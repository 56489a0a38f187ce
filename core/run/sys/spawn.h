/* SPDX-License-Identifier: MIT */
/* spawn.h - running one command: its own session, captured output, a
 * timeout, and the interrupt signals aorta-run receives passed on to it. */
#ifndef AR_SPAWN_H
#define AR_SPAWN_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct ar_spawn_result {
    int launched;          /* the command was executed */
    int exit_code;         /* exit status; -N when killed by signal N; 127/126/1 exec failure */
    int exec_errno;        /* why it could not be executed, else 0 */
    int timed_out;         /* killed after the timeout */
    int interrupted;       /* SIGINT/SIGTERM reached aorta-run: that signal, else 0 */
    double walltime_sec;   /* spawn to exit, monotonic clock */
} ar_spawn_result_t;

/* Block SIGINT, SIGTERM and SIGCHLD in aorta-run so that ar_spawn_run_fds()
 * receives them synchronously; call once at start-up, before any thread. */
void ar_spawn_block_signals(void);

/* The interrupt (SIGINT/SIGTERM) pending for aorta-run, consumed, else 0. */
int ar_spawn_take_interrupt(void);
/* The same, left pending. */
int ar_spawn_peek_interrupt(void);

/* Make aorta-run the subreaper of everything it starts, so that what a
 * payload or a parse leaves running comes back to it (see
 * ar_spawn_kill_strays()).  Call once at start-up. */
void ar_spawn_become_subreaper(void);

/* In a child just forked from parent: die with it (PR_SET_PDEATHSIG,
 * SIGKILL), and exit at once when it is already gone. */
void ar_spawn_child_guard(pid_t parent);

/* Kill (SIGKILL, with their process groups) and reap every process still
 * running whose parent is aorta-run: what a command or a parse left behind
 * once it was done.  what names the culprit for the warning ("trial X: the
 * payload"); nothing is printed when nothing was left.  Returns how many
 * were killed. */
size_t ar_spawn_kill_strays(const char *what);

/* Wait, at most wait_sec (and no longer once an interrupt is pending), for
 * every process whose parent is aorta-run to end on its own: what a
 * launcher's step leaves ending after the command returned (srun inside an
 * allocation) is then not taken for a stray.  1 when none is left
 * running, else 0 (ar_spawn_kill_strays() then names them). */
int ar_spawn_settle(double wait_sec);

/* Run argv with envp (argv[0] is looked up on envp's PATH) in a new session,
 * stdin from /dev/null, stdout and stderr to out_fd and err_fd (kept open;
 * -1 leaves aorta-run's own stdout or stderr to the command).
 * timeout_sec <= 0 means no limit.  After a timeout or an interrupt the
 * command's process group gets SIGTERM, then SIGKILL after grace_sec.
 * Returns 0, or -1 when the command could not be started (errno set). */
int ar_spawn_run_fds(char *const *argv, char *const *envp, int out_fd, int err_fd,
                        double timeout_sec, double grace_sec, ar_spawn_result_t *result);

/* The same in two steps, for a command that runs while aorta-run does
 * something else (the environment probe beside the first trial). */
typedef struct ar_spawn_child {
    pid_t pid;      /* -1 when it was never launched */
    double started; /* monotonic clock */
} ar_spawn_child_t;

/* Start argv as ar_spawn_run_fds() would and return once it is executed
 * (result->launched) or could not be (result says why; child->pid -1).
 * Returns 0, or -1 when it could not be started (errno set). */
int ar_spawn_start_fds(char *const *argv, char *const *envp, int out_fd, int err_fd,
                          ar_spawn_child_t *child, ar_spawn_result_t *result);

/* Wait for a started child as ar_spawn_run_fds() does; timeout_sec
 * counts from its start.  An interrupt ends the wait (the group killed) and
 * is consumed into result->interrupted. */
void ar_spawn_wait(const ar_spawn_child_t *child, double timeout_sec, double grace_sec,
                      ar_spawn_result_t *result);

/* Kill a started child's group now (SIGTERM, SIGKILL after grace) and reap it. */
void ar_spawn_stop(const ar_spawn_child_t *child, double grace_sec,
                      ar_spawn_result_t *result);

#endif
