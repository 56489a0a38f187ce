/* SPDX-License-Identifier: MIT */
/* ncu.c - the ncu collector: NVIDIA Nsight Compute around any command
 * (docs/collectors/ncu.md).  This file describes the collector to aorta-run
 * and holds its option table; the module's only exported symbol. */
#include "config.h"

#include <string.h>

#include "ncu.h"

/* Named in plugins/common's out-of-memory line. */
const char cc_collector_name[] = "ncu";

static const char *const replay_values[] = {"kernel", "application", "range", "app-range",
                                            NULL};
static const char *const output_values[] = {"report", "log", NULL};

const aorta_option_spec_t ncu_options[] = {
    {"metrics", NULL, NCU_TIME_METRIC,
     "--metrics: metric names, comma- or space-separated (" NCU_TIME_METRIC
     " is always collected: the GPU time)"},
    {"section", NULL, NULL, "--section: section identifiers, comma- or space-separated"},
    {"set", NULL, NULL, "--set: a section set (basic, detailed, full, ...)"},
    {"kernel_name", NULL, NULL, "--kernel-name: a kernel's name, or regex:EXPRESSION"},
    {"launch_skip", NULL, NULL, "--launch-skip: launches to skip before profiling"},
    {"launch_count", NULL, NULL, "--launch-count: launches to profile, at most"},
    {"replay_mode", replay_values, NULL, "--replay-mode: how kernels are replayed"},
    {"output", output_values, "report",
     "report: keep ncu.ncu-rep and read it with ncu --import at parse; log: the raw page "
     "in ncu.csv (--log-file)"},
    {NULL, NULL, NULL, NULL},
};

/* CUPTI allows one subscriber per process, and ncu is one. */
static const char *const ncu_resources[] = {"cupti-subscriber", NULL};

/* What --describe and a run's provenance say of ncu's numbers. */
static const aorta_metric_spec_t ncu_metrics[] = {
    {"ncu_gpu_time_ms", "ms", AORTA_BETTER_LOWER,
     "the profiled launches' " NCU_TIME_METRIC ", summed (each launch replayed alone)"},
    {"ncu_top_kernel_ms", "ms", AORTA_BETTER_LOWER, "the largest kernel's total"},
    {"ncu_kernel_count", "launches", AORTA_BETTER_NONE, "launches profiled"},
    {"ncu_profiled_launches", "launches", AORTA_BETTER_NONE,
     "rows of the raw page (launches profiled), also when a time is n/a"},
    {NULL, NULL, AORTA_BETTER_NONE, NULL},
};

AORTA_COLLECTOR_DEFINE(ncu,
    .version = PACKAGE_VERSION,
    .description = "NVIDIA Nsight Compute (ncu) around any command: each launch replayed "
                   "alone, its GPU time and the metrics asked for, from the raw page",
    .wrap_rank = 15,
    .options = ncu_options,
    .validate = ncu_validate,
    .wrap = ncu_wrap,
    .parse = ncu_parse,
    .metrics = ncu_metrics,
    .resources = ncu_resources,
    .profiler_version = ncu_profiler_version)
