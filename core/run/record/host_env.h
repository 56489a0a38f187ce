/* SPDX-License-Identifier: MIT */
/* host_env.h - the environment snapshot of a run (host_env.json, and the
 * trial JSON's "env"): taken once, after the lock is held, and reused for
 * every trial.  The shape is upstream's env snapshot (schema "1.6"): the
 * blocks this tool fills are host, rocm, triton, runtime_context and
 * env_vars; every other block is null, and what could not be determined is
 * listed in partial_reasons. */
#ifndef AR_HOST_ENV_H
#define AR_HOST_ENV_H

#include "sys/json.h"

/* Seconds the Triton probe may take: AORTA_PROBE_TIMEOUT, else this. */
#define AR_PROBE_TIMEOUT_DEFAULT 10.0
double ar_host_env_probe_timeout(void);

/* The snapshot being taken.  What can be read at once is read by
 * ar_host_env_start(); when the user's argv[0] is a Python interpreter,
 * that interpreter is asked for triton.__version__ in a child that runs
 * beside the first trial, and ar_host_env_finish() collects it. */
typedef struct ar_host_env ar_host_env_t;

/* Start the snapshot.  envp is aorta-run's environment; command the user's
 * argv. */
ar_host_env_t *ar_host_env_start(char *const *envp, char *const *command);

/* Complete it: wait for the probe (at most AORTA_PROBE_TIMEOUT from its
 * start), or with stop set kill it now (the run is being interrupted).  An
 * interrupt that arrives while waiting kills the probe and is left pending
 * for the caller.  Returns 1 on the call that completed it, 0 after. */
int ar_host_env_finish(ar_host_env_t *env, int stop);

/* Whether the snapshot is complete (the probe has answered, or was never
 * needed), without waiting for it. */
int ar_host_env_done(const ar_host_env_t *env);

/* The snapshot (host_env.json's content): complete once finished. */
ar_json_t *ar_host_env_snapshot(const ar_host_env_t *env);

/* Kill a probe still running, and free.  NULL is a no-op. */
void ar_host_env_free(ar_host_env_t *env);

/* Run argv (found on PATH) with aorta-run's environment and no input, at
 * most timeout_sec, and return the first line it printed when it exited 0,
 * stripped; NULL otherwise (not found, failed, timed out, said nothing).
 * Free it.  An interrupt that arrives meanwhile is left pending. */
char *ar_host_env_ask(char *const *argv, double timeout_sec);

/* Whether name (a path's last component) is a Python interpreter:
 * "python", "python3", "python3.12", ... */
int ar_host_env_is_python(const char *argv0);

#endif
