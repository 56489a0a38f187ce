/* SPDX-License-Identifier: MIT */
/* The layout of struct aorta_collector: ABI 1.1 took queue_interceptor_why
 * from the front of reserved, so a collector built against 1.0 has every
 * field where the core reads it.  The check is at compile time, against a
 * copy of the 1.0 struct. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "aorta/collector.h"
#include "testutil.h"

struct collector_1_0 {
    uint32_t abi_major;
    uint32_t abi_minor;
    const char *name;
    const char *version;
    const char *description;
    int wrap_rank;
    const aorta_option_spec_t *options;
    int (*validate)(aorta_options_t *, aorta_error_t *);
    int (*wrap)(const aorta_options_t *, const char *, const aorta_argv_t *, const aorta_env_t *,
                aorta_argv_t *, aorta_error_t *);
    int (*env)(const aorta_options_t *, const char *, aorta_env_t *, aorta_error_t *);
    void (*parse)(const aorta_options_t *, const char *, aorta_metrics_t *);
    int (*conflicts)(const aorta_options_t *, const char *, const aorta_options_t *,
                     aorta_error_t *);
    int (*queue_interceptor)(const aorta_options_t *, char *, size_t, char *, size_t);
    void *reserved[16];
};

#define SAME_OFFSET(field)                                                                  \
    _Static_assert(offsetof(struct aorta_collector, field)                                  \
                       == offsetof(struct collector_1_0, field),                            \
                   #field " moved")

_Static_assert(sizeof(struct aorta_collector) == sizeof(struct collector_1_0),
               "struct aorta_collector changed size");
SAME_OFFSET(abi_major);
SAME_OFFSET(abi_minor);
SAME_OFFSET(name);
SAME_OFFSET(version);
SAME_OFFSET(description);
SAME_OFFSET(wrap_rank);
SAME_OFFSET(options);
SAME_OFFSET(validate);
SAME_OFFSET(wrap);
SAME_OFFSET(env);
SAME_OFFSET(parse);
SAME_OFFSET(conflicts);
SAME_OFFSET(queue_interceptor);
/* 1.1's slot is 1.0's reserved[0]. */
_Static_assert(offsetof(struct aorta_collector, queue_interceptor_why)
                   == offsetof(struct collector_1_0, reserved),
               "queue_interceptor_why is not reserved[0] of 1.0");
_Static_assert(AORTA_COLLECTOR_ABI_MAJOR == 1 && AORTA_COLLECTOR_ABI_MINOR == 1,
               "a new minor adds its fields to this check");

START_TEST(a_1_0_description_reads_the_same)
{
    /* What a 1.0 collector leaves in reserved reads as no 1.1 slot. */
    struct collector_1_0 old = {.abi_major = 1, .abi_minor = 0, .name = "x"};
    struct aorta_collector now;
    _Static_assert(sizeof now == sizeof old, "size");
    memcpy(&now, &old, sizeof now);
    ck_assert_str_eq(now.name, "x");
    ck_assert_ptr_null(now.queue_interceptor);
    ck_assert_ptr_null(now.queue_interceptor_why);
}
END_TEST

static Suite *abi_suite(void)
{
    Suite *suite = suite_create("sdk_abi");
    TCase *tc = tcase_create("abi");
    tcase_add_test(tc, a_1_0_description_reads_the_same);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(abi_suite)
