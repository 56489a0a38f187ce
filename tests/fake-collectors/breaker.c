/* SPDX-License-Identifier: MIT */
/* A collector that keeps the contract of aorta-collector(7) unless $BREAKER
 * names ways to break it (a comma list), for `aorta-run --check-collector`:
 *   table       the option table's default is not one of its values
 *   defaults    validate() refuses the table's defaults
 *   silent      wrap() and env() refuse without a message
 *   unchanged   wrap() returns the command as it is
 *   empty       wrap() returns an empty argv
 *   exit        wrap() calls exit(0)
 *   stray       wrap() writes a file into the current directory
 *   unprefixed  parse() reports "kernel_count" and no breaker_artifact_dir
 *   nodir       parse() reports metrics for what is not a directory (a
 *               missing one, a file)
 *   crash       parse() raises SIGSEGV
 *   hang        parse() never returns
 *   load        the module crashes as it is loaded
 *   loadhang    the module never finishes loading
 *   bogus       its entry point returns a pointer to nothing
 * Built as tests/fake-collectors/contract/breaker.la, away from the loader's test
 * collectors, whose directory listing other suites compare. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"

static int breaks(const char *how)
{
    const char *list = getenv("BREAKER");
    size_t len = strlen(how);
    for (const char *at = list; at && *at;) {
        const char *end = strchr(at, ',');
        size_t item = end ? (size_t)(end - at) : strlen(at);
        if (item == len && strncmp(at, how, len) == 0)
            return 1;
        at = end ? end + 1 : NULL;
    }
    return 0;
}

static const char *const level_values[] = {"low", "high", NULL};

/* Not const: "table" changes a default as the module loads. */
static aorta_option_spec_t breaker_options[] = {
    {"level", level_values, "high", "how much to collect"},
    {NULL, NULL, NULL, NULL},
};

__attribute__((constructor)) static void breaker_load(void)
{
    if (breaks("load"))
        raise(SIGSEGV);
    while (breaks("loadhang"))
        pause();
    if (breaks("table"))
        breaker_options[0].default_value = "medium";
}

static int breaker_validate(aorta_options_t *options, aorta_error_t *err)
{
    if (aorta_options_check_keys(options, breaker_options, "breaker", err) != 0)
        return -1;
    const char *level = aorta_options_get(options, "level");
    if (level && breaks("defaults") && strcmp(level, "high") == 0) {
        aorta_error_set(err, "breaker option 'level': 'high' is its default, yet refused");
        return -1;
    }
    if (!level)
        aorta_options_set(options, "level", "high");
    return 0;
}

static int breaker_wrap(const aorta_options_t *options, const char *out_dir,
                        const aorta_argv_t *command, const aorta_env_t *environ,
                        aorta_argv_t *out, aorta_error_t *err)
{
    (void)options, (void)environ;
    if (breaks("silent"))
        return -1;
    if (breaks("exit"))
        exit(0);
    if (breaks("stray")) {
        FILE *file = fopen("stray.txt", "w");
        if (file)
            fclose(file);
    }
    if (breaks("empty"))
        return 0;
    if (!breaks("unchanged")) {
        char *wrapper = aorta_path_join(out_dir, "breaker-wrapper");
        aorta_argv_push(out, wrapper);
        aorta_free(wrapper);
    }
    (void)err;
    return aorta_argv_push_all(out, command);
}

static int breaker_env(const aorta_options_t *options, const char *out_dir, aorta_env_t *bundle,
                       aorta_error_t *err)
{
    (void)options, (void)err;
    if (breaks("silent"))
        return -1;
    return aorta_env_set(bundle, "BREAKER_DIR", out_dir);
}

static void breaker_parse(const aorta_options_t *options, const char *dir,
                          aorta_metrics_t *metrics)
{
    (void)options;
    if (breaks("crash"))
        raise(SIGSEGV);
    if (breaks("hang"))
        for (;;)
            pause();
    if (breaks("unprefixed")) {
        aorta_metrics_set_int(metrics, "kernel_count", 3);
        return;
    }
    struct stat st;
    int is_dir = lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    if (!is_dir && !breaks("nodir"))
        return; /* not a directory: nothing at all */
    if (access(dir, F_OK) == 0)
        aorta_metrics_set_string(metrics, "breaker_artifact_dir", dir);
    aorta_metrics_set_int(metrics, "breaker_kernel_count", 3);
}

static const struct aorta_collector breaker_collector = {
    .abi_major = AORTA_COLLECTOR_ABI_MAJOR,
    .abi_minor = AORTA_COLLECTOR_ABI_MINOR,
    .name = "breaker",
    .version = "1.0",
    .description = "a test collector that breaks the collector contract on request",
    .wrap_rank = 50,
    .options = breaker_options,
    .validate = breaker_validate,
    .wrap = breaker_wrap,
    .env = breaker_env,
    .parse = breaker_parse,
};

/* Written out rather than AORTA_COLLECTOR_DEFINE()'d, for "bogus". */
AORTA_EXPORT const struct aorta_collector *aorta_collector_breaker_get(void);
const struct aorta_collector *aorta_collector_breaker_get(void)
{
    if (breaks("bogus"))
        return (const struct aorta_collector *)(uintptr_t)16;
    return &breaker_collector;
}
