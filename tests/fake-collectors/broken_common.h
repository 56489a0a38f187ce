/* SPDX-License-Identifier: MIT */
/* Callbacks shared by the deliberately broken test collectors. */
#ifndef BROKEN_COMMON_H
#define BROKEN_COMMON_H

#include "aorta/collector.h"

__attribute__((unused)) static int broken_validate(aorta_options_t *options, aorta_error_t *err)
{
    (void)options, (void)err;
    return 0;
}

__attribute__((unused)) static int broken_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *environ, aorta_argv_t *out,
                       aorta_error_t *err)
{
    (void)options, (void)out_dir, (void)environ, (void)err;
    return aorta_argv_push_all(out, command);
}

__attribute__((unused)) static void broken_parse(const aorta_options_t *options, const char *dir, aorta_metrics_t *metrics)
{
    (void)options, (void)dir, (void)metrics;
}

/* A description with every field given explicitly (AORTA_COLLECTOR_DEFINE
 * would fill in the right ABI and name). */
#define BROKEN_COLLECTOR(SYMBOL, MAJOR, MINOR, NAME, VALIDATE, WRAP, PARSE)           \
    static const struct aorta_collector SYMBOL##_desc = {                              \
        .abi_major = (MAJOR), .abi_minor = (MINOR), .name = (NAME), .version = "0.1", \
        .description = "a broken test collector", .wrap_rank = 50,                     \
        .validate = (VALIDATE), .wrap = (WRAP), .parse = (PARSE)};                     \
    AORTA_EXPORT const struct aorta_collector *SYMBOL(void);                           \
    const struct aorta_collector *SYMBOL(void) { return &SYMBOL##_desc; }

#endif
