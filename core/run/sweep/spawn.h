/* spawn.h - running one command: its own session, captured output, a
 * timeout, and the interrupt signals aorta-run receives passed on to it. */
#ifndef AORTA_SPAWN_H
#define AORTA_SPAWN_H

#include <signal.h>

typedef struct aorta_spawn_result {
    int launched;          /* the command was executed */
    int exit_code;         /* exit status; -N when killed by signal N; 127/126/1 exec failure */
    int exec_errno;        /* why it could not be executed, else 0 */
    int timed_out;         /* killed after the timeout */
    int interrupted;       /* SIGINT/SIGTERM reached aorta-run: that signal, else 0 */
    double walltime_sec;   /* spawn to exit, monotonic clock */
} aorta_spawn_result_t;

/* Block SIGINT, SIGTERM and SIGCHLD in aorta-run so that aorta_spawn_run_fds()
 * receives them synchronously; call once at start-up, before any thread. */
void aorta_spawn_block_signals(void);

/* The interrupt (SIGINT/SIGTERM) pending for aorta-run, consumed, else 0. */
int aorta_spawn_take_interrupt(void);

/* Run argv with envp (argv[0] is looked up on envp's PATH) in a new session,
 * stdin from /dev/null, stdout and stderr to out_fd and err_fd (kept open;
 * -1 leaves aorta-run's own stdout or stderr to the command).
 * timeout_sec <= 0 means no limit.  After a timeout or an interrupt the
 * command's process group gets SIGTERM, then SIGKILL after grace_sec.
 * Returns 0, or -1 when the command could not be started (errno set). */
int aorta_spawn_run_fds(char *const *argv, char *const *envp, int out_fd, int err_fd,
                        double timeout_sec, double grace_sec, aorta_spawn_result_t *result);

#endif
