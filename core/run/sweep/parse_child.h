/* parse_child.h - a collector's parse() run in a child process, so a crash,
 * a hang or garbage in it costs that collector's metrics, never the sweep. */
#ifndef AORTA_PARSE_CHILD_H
#define AORTA_PARSE_CHILD_H

#include "aorta/collector.h"
#include "registry/registry.h"

/* Seconds a parse may take (AORTA_PARSE_TIMEOUT overrides). */
#define AORTA_PARSE_TIMEOUT_DEFAULT 600.0

/* The metrics module's parse() reports for dir, with options (may be NULL).
 * On a crash, a timeout or an unreadable reply: only "<name>_artifact_dir"
 * (when dir is a directory) and one warning line on stderr.  Never NULL;
 * free with aorta_metrics_free(). */
aorta_metrics_t *aorta_parse_in_child(const aorta_module_t *module,
                                      const aorta_options_t *options, const char *dir);

#endif
