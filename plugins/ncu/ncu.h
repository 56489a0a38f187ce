/* SPDX-License-Identifier: MIT */
/* ncu.h - what the files of the ncu collector (Nsight Compute around any
 * command, docs/collectors/ncu.md) share.  Compiled with hidden
 * visibility: the module exports only aorta_collector_ncu_get. */
#ifndef AORTA_NCU_H
#define AORTA_NCU_H

#include "aorta/collector.h"
#include "collector_common.h"

#pragma GCC visibility push(hidden)

/* The metric every run asks for: a launch's duration on the GPU. */
#define NCU_TIME_METRIC "gpu__time_duration.sum"
/* What ncu writes in the collector's directory: the report (output:
 * report) or the raw page (output: log). */
#define NCU_REPORT_STEM "ncu"
#define NCU_REPORT_FILE "ncu.ncu-rep"
#define NCU_LOG_FILE "ncu.csv"
/* The exporter's limits (the parse's own memory limit applies too). */
#define NCU_EXPORT_TIMEOUT_SEC 600.0
#define NCU_EXPORT_MAX_BYTES ((size_t)1 << 30)

extern const aorta_option_spec_t ncu_options[];

/* The effective options, as validate() left them. */
typedef struct ncu_opts {
    char **metrics;        /* NCU_TIME_METRIC first, then the others asked for */
    size_t metric_count;
    char **sections;
    size_t section_count;
    const char *set;           /* NULL when unset */
    const char *kernel_name;   /* NULL when unset */
    const char *launch_skip;   /* NULL when unset */
    const char *launch_count;  /* NULL when unset */
    const char *replay_mode;   /* NULL when unset */
    const char *output;        /* "report" or "log" */
} ncu_opts_t;

int ncu_validate(aorta_options_t *options, aorta_error_t *err);
/* Read options (validated) into opts; free with ncu_opts_free(). */
void ncu_opts_read(const aorta_options_t *options, ncu_opts_t *opts);
void ncu_opts_free(ncu_opts_t *opts);

int ncu_wrap(const aorta_options_t *options, const char *out_dir, const aorta_argv_t *command,
             const aorta_env_t *env, aorta_argv_t *out, aorta_error_t *err);
void ncu_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics);
/* The raw page's text (ncu's ==PROF== lines before it are passed over)
 * into metrics: the five, the kernel table, the launches profiled, each
 * other metric's total and unit.  dir is the artifact directory named. */
void ncu_read_raw_page(const char *text, size_t len, const char *dir, aorta_metrics_t *metrics);
int ncu_profiler_version(const aorta_options_t *options, const aorta_env_t *env,
                         aorta_error_t *version);

#pragma GCC visibility pop

#endif
