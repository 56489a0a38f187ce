/* SPDX-License-Identifier: MIT */
/* host_env.h - the environment snapshot of a run (host_env.json, and the
 * trial JSON's "env"): taken once, after the lock is held, and reused for
 * every trial.  The shape is upstream's env snapshot (schema "1.6"): the
 * blocks this tool fills are host, rocm, triton, runtime_context and
 * env_vars; every other block is null, and what could not be determined is
 * listed in partial_reasons. */
#ifndef AORTA_HOST_ENV_H
#define AORTA_HOST_ENV_H

#include "output/json.h"

/* Seconds the Triton probe may take (AORTA_PROBE_TIMEOUT overrides). */
#define AORTA_PROBE_TIMEOUT_DEFAULT 10.0

/* Take the snapshot.  envp is aorta-run's environment; command is the
 * user's argv: when its argv[0] is a Python interpreter, that interpreter
 * is asked for triton.__version__.  *interrupted is set to the signal when
 * SIGINT/SIGTERM arrived during the probe, else 0. */
aorta_json_t *aorta_host_env_capture(char *const *envp, char *const *command, int *interrupted);

/* Whether name (a path's last component) is a Python interpreter:
 * "python", "python3", "python3.12", ... */
int aorta_host_env_is_python(const char *argv0);

#endif
