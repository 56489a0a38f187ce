/* SPDX-License-Identifier: MIT */
/* wrap.c - the rocprofv3 argv of docs/collectors/rocprof.md:
 *   rocprofv3 -d DIR -o aorta --output-format F... <trace flags> [--stats]
 *             -S --summary-output-file rocprof_summary [-u U]
 *             [--kernel-include-regex R] [--pmc C...] -- COMMAND...
 * "-o aorta" makes rocprofv3 write flat aorta_*.csv files into DIR; the
 * summary file name is a stem rocprofv3 places in DIR as
 * aorta_rocprof_summary.txt; --pmc is variadic, so it comes last. */
#include "config.h"

#include <stdlib.h>

#include "rocprof.h"

#define OUTPUT_BASENAME "aorta"
#define SUMMARY_FILE_STEM "rocprof_summary"

int rocprof_wrap(const aorta_options_t *options, const char *out_dir,
                 const aorta_argv_t *command, const aorta_env_t *env,
                 aorta_argv_t *out, aorta_error_t *err)
{
    /* Options are checked again here, before the binary is looked for, so
     * a bad option is reported even where rocprofv3 is missing. */
    rocprof_opts_t opts;
    if (rocprof_opts_read(options, &opts, err) != 0)
        return -1;
    char *binary = rocprof_resolve_binary(env, err);
    if (!binary) {
        rocprof_opts_free(&opts);
        return -1;
    }
    char *dir = aorta_path_join(out_dir, NULL);
    aorta_argv_push(out, binary);
    aorta_argv_push(out, "-d");
    aorta_argv_push(out, dir);
    aorta_argv_push(out, "-o");
    aorta_argv_push(out, OUTPUT_BASENAME);
    aorta_argv_push(out, "--output-format");
    for (size_t i = 0; i < opts.format_count; i++)
        aorta_argv_push(out, opts.format_tokens[i]); /* -f takes one or more */
    for (size_t i = 0; i < opts.trace_count; i++)
        aorta_argv_push(out, opts.trace_flags[i]);
    if (opts.stats_on)
        aorta_argv_push(out, "--stats");
    /* Without a file, -S prints the summary on the trial's stderr, where
     * the classifier would read it as the workload's output. */
    aorta_argv_push(out, "-S");
    aorta_argv_push(out, "--summary-output-file");
    aorta_argv_push(out, SUMMARY_FILE_STEM);
    if (opts.summary_units) {
        aorta_argv_push(out, "-u");
        aorta_argv_push(out, opts.summary_units);
    }
    if (opts.kernel_include_regex) {
        aorta_argv_push(out, "--kernel-include-regex");
        aorta_argv_push(out, opts.kernel_include_regex);
    }
    if (opts.pmc) {
        aorta_argv_push(out, "--pmc");
        for (size_t i = 0; i < opts.pmc_count; i++)
            aorta_argv_push(out, opts.pmc_tokens[i]);
    }
    aorta_argv_push(out, "--");
    aorta_argv_push_all(out, command);
    aorta_free(dir);
    free(binary);
    rocprof_opts_free(&opts);
    return 0;
}
