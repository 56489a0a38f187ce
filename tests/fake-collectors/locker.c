/* SPDX-License-Identifier: MIT */
/* locker.c - a third party's ABI 1.4 collector that takes an exclusive
 * resource of its own, "gpu-lock", when its option take is "yes" (the
 * default), saying why and how to avoid it through takes().  Built twice,
 * as resources/locker_a.la and resources/locker_b.la (LOCKER_NAME, wrap
 * rank LOCKER_RANK), so
 * that two collectors of one run take the same resource. */
#include <stdio.h>
#include <string.h>

#include "aorta/collector.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char *const yes_no[] = {"no", "yes", NULL};

static const aorta_option_spec_t locker_options[] = {
    {"take", yes_no, "yes", "take the gpu-lock"},
    {NULL, NULL, NULL, NULL},
};

static const char *const locker_resources[] = {"gpu-lock", NULL};

static int locker_validate(aorta_options_t *options, aorta_error_t *err)
{
    return aorta_options_apply_table(options, locker_options, STR(LOCKER_NAME), err);
}

static int locker_wrap(const aorta_options_t *options, const char *out_dir,
                       const aorta_argv_t *command, const aorta_env_t *env, aorta_argv_t *out,
                       aorta_error_t *err)
{
    (void)options, (void)out_dir, (void)env, (void)err;
    return aorta_argv_push_all(out, command);
}

static void locker_parse(const aorta_options_t *options, const char *dir,
                         aorta_metrics_t *metrics)
{
    (void)options, (void)dir, (void)metrics;
}

static int locker_takes(const aorta_options_t *options, const char *resource,
                        aorta_error_t *why, aorta_error_t *remedy)
{
    const char *take = aorta_options_get(options, "take");
    if (strcmp(resource, "gpu-lock") != 0 || !take || strcmp(take, "yes") != 0)
        return 0;
    aorta_error_set(why, "%s take 'yes'", STR(LOCKER_NAME));
    aorta_error_set(remedy, "Set %s's take to 'no'", STR(LOCKER_NAME));
    return 1;
}

#define DEFINE_LOCKER(NAME, ...) AORTA_COLLECTOR_DEFINE(NAME, __VA_ARGS__)
DEFINE_LOCKER(LOCKER_NAME,
    .version = "1.4",
    .description = "takes the gpu-lock (ABI 1.4 resources)",
    .wrap_rank = LOCKER_RANK,
    .options = locker_options,
    .validate = locker_validate,
    .wrap = locker_wrap,
    .parse = locker_parse,
    .resources = locker_resources,
    .takes = locker_takes)
