/* SPDX-License-Identifier: MIT */
/* rptest.h - what the rocprof Check suites share: the collector loaded from
 * the build tree (plugins/rocprof.la) and short ways to call it. */
#ifndef AORTA_RPTEST_H
#define AORTA_RPTEST_H

#include <stdint.h>

#include "aorta/collector.h"
#include "registry/registry.h"
#include "testutil.h"

/* Load the build tree's plugins/ (an unchecked fixture: once per suite). */
void rp_setup(void);
void rp_teardown(void);
/* The rocprof collector (asserts it loaded). */
const struct aorta_collector *rp_collector(void);
const ar_module_t *rp_plugin(void);

/* An option map from "key", "value", ..., NULL (testutil's). */
#define rp_options tu_options
/* validate() on options; returns its status and, on failure, the message
 * (free it) in *message. */
int rp_validate(aorta_options_t *options, char **message);

/* parse() called in this process on dir. */
aorta_metrics_t *rp_parse(const char *dir);
/* The metric (asserting its presence and type). */
int64_t rp_int(const aorta_metrics_t *metrics, const char *key);
double rp_double(const aorta_metrics_t *metrics, const char *key);
const char *rp_string(const aorta_metrics_t *metrics, const char *key);
const aorta_metric_t *rp_strings(const aorta_metrics_t *metrics, const char *key);
int rp_has(const aorta_metrics_t *metrics, const char *key);
/* Assert the metrics are exactly {"rocprof_artifact_dir": dir}. */
void rp_assert_only_artifact_dir(const aorta_metrics_t *metrics, const char *dir);

/* tests/collectors/rocprof/fixtures/<rel> in the source tree (free it). */
char *rp_fixture(const char *rel);
/* Copy the file src to dst (parents created). */
void rp_copy(const char *src, const char *dst);
/* Write len bytes (NULs allowed) to dir/rel. */
void rp_write_bytes(const char *dir, const char *rel, const char *data, size_t len);
/* Remove dir/rel. */
void rp_remove(const char *dir, const char *rel);
/* Write text to dir/rel. */
void rp_write(const char *dir, const char *rel, const char *text);

#define RP_APPROX(a, b) ck_assert_msg(fabs((a) - (b)) <= 1e-9 * fmax(1.0, fabs(b)), \
                                      "%.17g is not %.17g", (double)(a), (double)(b))

#endif
