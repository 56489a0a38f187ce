/* SPDX-License-Identifier: MIT */
/* parse_child.h - a collector's parse() run in a child process, so a crash,
 * a hang or garbage in it costs that collector's metrics, never the sweep. */
#ifndef AR_PARSE_CHILD_H
#define AR_PARSE_CHILD_H

#include <stdint.h>

#include "aorta/collector.h"
#include "registry/registry.h"

/* Seconds a parse may take: AORTA_PARSE_TIMEOUT, else this. */
#define AR_PARSE_TIMEOUT_DEFAULT 600.0
double ar_parse_timeout(void);

/* The metrics module's parse() reports for dir, with options (may be NULL).
 * On a crash, a timeout or an unreadable reply: only "<name>_artifact_dir"
 * (when dir is a directory) and one warning line on stderr.  Never NULL;
 * free with aorta_metrics_free(). */
aorta_metrics_t *ar_parse_in_child(const ar_module_t *module,
                                      const aorta_options_t *options, const char *dir);

/* The same, and SIGINT or SIGTERM reaching aorta-run ends the parse at once
 * (the child is killed): the signal is consumed and stored in *interrupted
 * (else 0).  ar_parse_in_child() leaves it pending instead.  What the
 * collector prints on stdout becomes one warning; what the parse leaves
 * running is killed (ar_spawn_kill_strays()). */
aorta_metrics_t *ar_parse_in_child_ex(const ar_module_t *module,
                                         const aorta_options_t *options, const char *dir,
                                         int *interrupted);

/* The same, with env (may be NULL: aorta-run's own environment) as what
 * the collector's parse() reads through aorta_metrics_env() (ABI 1.4): the
 * environment the trial's command ran with. */
aorta_metrics_t *ar_parse_in_child_env(const ar_module_t *module,
                                          const aorta_options_t *options, const char *dir,
                                          const aorta_env_t *env, int *interrupted);

/* In a parse child: attach env (NULL: aorta-run's own environment) to
 * metrics for aorta_metrics_env(). */
void ar_parse_attach_env(aorta_metrics_t *metrics, const aorta_env_t *env);

/* The child's address-space limit (RLIMIT_AS) in bytes: AORTA_PARSE_MEMORY
 * (bytes, or with a K, M or G suffix), else 4 GiB; 0 (none) in a build with
 * AddressSanitizer, which reserves terabytes of address space. */
#define AR_PARSE_MEMORY_DEFAULT (UINT64_C(4) << 30)
uint64_t ar_parse_memory_limit(void);

#endif
