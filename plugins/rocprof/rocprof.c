/* SPDX-License-Identifier: MIT */
/* rocprof.c - the rocprof collector: rocprofv3 wrapped around any command.
 * The behaviour is docs/collectors/rocprof.md; this file describes the collector to
 * aorta-run and is the module's only exported symbol. */
#include "config.h"

#include "rocprof.h"

/* Named in plugins/common's out-of-memory line. */
const char cc_collector_name[] = "rocprof";

/* --describe says whether this build reads rocpd databases. */
#if HAVE_SQLITE3
#define ROCPROF_DESCRIPTION "rocprofv3 around the command: kernel count, GPU time and top " \
                            "kernels (from its CSVs and rocpd databases)"
#else
#define ROCPROF_DESCRIPTION "rocprofv3 around the command: kernel count, GPU time and top " \
                            "kernels (from its CSVs; built without SQLite, rocpd databases " \
                            "are not read)"
#endif

static const char *const format_values[] = {"csv", "json", "otf2", "pftrace", "rocpd", NULL};
static const char *const stats_values[] = {"true", "false", "1", "0", "yes", "no", "on", "off", NULL};
static const char *const unit_values[] = {"sec", "msec", "usec", "nsec", NULL};

const aorta_option_spec_t rocprof_options[] = {
    {"trace", NULL, "kernel",
     "tracing domains, comma- or space-separated: hip, hip_runtime, kernel, marker, "
     "memory_copy, rccl, scratch"},
    {"output_format", format_values, "csv",
     "rocprofv3 --output-format: one or more, space-separated; "
#if HAVE_SQLITE3
     "csv and rocpd yield metrics"},
#else
     "only csv yields metrics (built without SQLite)"},
#endif
    {"stats", stats_values, "true",
     "pass --stats (per-kernel totals, the preferred source of the metrics)"},
    {"pmc", NULL, NULL, "hardware counters for --pmc, comma- or space-separated"},
    {"kernel_include_regex", NULL, NULL,
     "--kernel-include-regex: the kernels counter collection and thread trace cover"},
    {"summary_units", unit_values, NULL, "-u: the unit of aorta_rocprof_summary.txt"},
    {NULL, NULL, NULL, NULL},
};

/* The keys and the defaults through the SDK's table check; the values are
 * rocprof_opts_read()'s to normalise and check (lists of domains and of
 * formats, booleans in any case), so the table it checks against lists
 * none: its messages are upstream's. */
static int rocprof_validate(aorta_options_t *options, aorta_error_t *err)
{
    enum { ROWS = sizeof rocprof_options / sizeof rocprof_options[0] };
    aorta_option_spec_t keys_only[ROWS];
    for (size_t i = 0; i < ROWS; i++) {
        keys_only[i] = rocprof_options[i];
        keys_only[i].values = NULL;
    }
    aorta_options_t *given = aorta_options_dup(options);
    rocprof_opts_t opts;
    int status = aorta_options_apply_table(given, keys_only, "rocprof", err) == 0
                 && rocprof_opts_read(given, &opts, err) == 0 ? 0 : -1;
    aorta_options_free(given);
    if (status != 0)
        return -1;
    rocprof_opts_write(&opts, options);
    rocprof_opts_free(&opts);
    return 0;
}

/* rocprofv3 always attaches an HSA queue interceptor, whatever the options
 * (ABI 1.4's resources, takes() left NULL: always taken).  No phrase and no
 * remedy: with proton the core's refusal then reads as upstream's,
 * "'rocprof' and 'proton' cannot run together with proton backend 'auto'
 * (...) -- both install an HSA queue interceptor ...". */
static const char *const rocprof_resources[] = {"hsa-queue-interceptor", NULL};

/* The metrics it reports, as every kernel-table collector does. */
static const aorta_metric_spec_t rocprof_metrics[] = {
    CC_KERNEL_METRICS("rocprof"),
    {NULL, NULL, AORTA_BETTER_NONE, NULL},
};

AORTA_COLLECTOR_DEFINE(rocprof,
    .version = PACKAGE_VERSION,
    .description = ROCPROF_DESCRIPTION,
    .wrap_rank = 10,
    .options = rocprof_options,
    .validate = rocprof_validate,
    .wrap = rocprof_wrap,
    .parse = rocprof_parse,
    .resources = rocprof_resources,
    .metrics = rocprof_metrics)
