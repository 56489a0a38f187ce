/* SPDX-License-Identifier: MIT */
/* The layout of struct aorta_collector: ABI 1.1 took queue_interceptor_why
 * and 1.2 took metrics from the front of reserved, so a collector built
 * against 1.0 or 1.1 has every field where the core reads it.  The check is
 * at compile time, against copies of the 1.0 and 1.1 structs; and what an
 * older collector has in the new slots is never read as a slot. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "aorta/collector.h"
#include "testutil.h"

/* The fields of 1.0, which every later minor keeps where they are. */
#define COLLECTOR_1_0_FIELDS                                                                 \
    uint32_t abi_major;                                                                      \
    uint32_t abi_minor;                                                                      \
    const char *name;                                                                        \
    const char *version;                                                                     \
    const char *description;                                                                 \
    int wrap_rank;                                                                           \
    const aorta_option_spec_t *options;                                                      \
    int (*validate)(aorta_options_t *, aorta_error_t *);                                     \
    int (*wrap)(const aorta_options_t *, const char *, const aorta_argv_t *,                 \
                const aorta_env_t *, aorta_argv_t *, aorta_error_t *);                       \
    int (*env)(const aorta_options_t *, const char *, aorta_env_t *, aorta_error_t *);       \
    void (*parse)(const aorta_options_t *, const char *, aorta_metrics_t *);                 \
    int (*conflicts)(const aorta_options_t *, const char *, const aorta_options_t *,         \
                     aorta_error_t *);                                                       \
    int (*queue_interceptor)(const aorta_options_t *, char *, size_t, char *, size_t);

struct collector_1_0 {
    COLLECTOR_1_0_FIELDS
    void *reserved[16];
};

/* 1.1: 1.0's reserved[0] became queue_interceptor_why. */
struct collector_1_1 {
    COLLECTOR_1_0_FIELDS
    int (*queue_interceptor_why)(const aorta_options_t *, aorta_error_t *, aorta_error_t *);
    void *reserved[15];
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
/* 1.2's slot is 1.1's reserved[0], and 1.0's reserved[1]. */
_Static_assert(sizeof(struct aorta_collector) == sizeof(struct collector_1_1),
               "struct aorta_collector changed size");
_Static_assert(offsetof(struct aorta_collector, queue_interceptor_why)
                   == offsetof(struct collector_1_1, queue_interceptor_why),
               "queue_interceptor_why moved");
_Static_assert(offsetof(struct aorta_collector, queue_interceptor)
                   == offsetof(struct collector_1_1, queue_interceptor),
               "queue_interceptor moved");
_Static_assert(offsetof(struct aorta_collector, metrics) == offsetof(struct collector_1_1, reserved),
               "metrics is not reserved[0] of 1.1");
_Static_assert(offsetof(struct aorta_collector, metrics)
                   == offsetof(struct collector_1_0, reserved) + sizeof(void *),
               "metrics is not reserved[1] of 1.0");
/* 1.3 added functions only (the per-dispatch trace): no field. */
/* 1.4's three slots are 1.2's reserved[0..2] (1.0's reserved[2..4]). */
struct collector_1_2 {
    COLLECTOR_1_0_FIELDS
    int (*queue_interceptor_why)(const aorta_options_t *, aorta_error_t *, aorta_error_t *);
    const aorta_metric_spec_t *metrics;
    void *reserved[14];
};
_Static_assert(sizeof(struct aorta_collector) == sizeof(struct collector_1_2),
               "struct aorta_collector changed size");
_Static_assert(offsetof(struct aorta_collector, metrics)
                   == offsetof(struct collector_1_2, metrics),
               "metrics moved");
_Static_assert(offsetof(struct aorta_collector, resources)
                   == offsetof(struct collector_1_2, reserved),
               "resources is not reserved[0] of 1.2");
_Static_assert(offsetof(struct aorta_collector, takes)
                   == offsetof(struct collector_1_2, reserved) + sizeof(void *),
               "takes is not reserved[1] of 1.2");
_Static_assert(offsetof(struct aorta_collector, profiler_version)
                   == offsetof(struct collector_1_2, reserved) + 2 * sizeof(void *),
               "profiler_version is not reserved[2] of 1.2");
_Static_assert(offsetof(struct aorta_collector, resources)
                   == offsetof(struct collector_1_0, reserved) + 2 * sizeof(void *),
               "resources is not reserved[2] of 1.0");
_Static_assert(AORTA_COLLECTOR_ABI_MAJOR == 1 && AORTA_COLLECTOR_ABI_MINOR == 4,
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
    ck_assert_ptr_null(now.metrics);
    ck_assert_ptr_null(now.resources);
    ck_assert_ptr_null(now.takes);
    ck_assert_ptr_null(now.profiler_version);
}
END_TEST

static const aorta_metric_spec_t a_table[] = {
    {"x_files", "count", AORTA_BETTER_NONE, NULL},
    {NULL, NULL, AORTA_BETTER_NONE, NULL},
};

START_TEST(an_older_collectors_reserved_space_is_no_metric_table)
{
    /* A 1.1 (or 1.0) collector owns its reserved space: whatever it holds
     * where 1.2 put metrics is not a table. */
    struct collector_1_1 old = {.abi_major = 1, .abi_minor = 1, .name = "x"};
    old.reserved[0] = (void *)a_table;
    struct aorta_collector now;
    memcpy(&now, &old, sizeof now);
    ck_assert_ptr_eq(now.metrics, a_table);
    ck_assert_uint_eq(aorta_collector_metric_count(&now), 0);
    ck_assert_ptr_null(aorta_collector_metric_at(&now, 0));
    ck_assert_ptr_null(aorta_collector_metric_find(&now, "x_files"));
    now.abi_minor = 0;
    ck_assert_uint_eq(aorta_collector_metric_count(&now), 0);
    /* The same bytes from a 1.2 collector are its table. */
    now.abi_minor = 2;
    ck_assert_uint_eq(aorta_collector_metric_count(&now), 1);
    ck_assert_ptr_eq(aorta_collector_metric_find(&now, "x_files"), &a_table[0]);
}
END_TEST

static Suite *abi_suite(void)
{
    Suite *suite = suite_create("sdk_abi");
    TCase *tc = tcase_create("abi");
    tcase_add_test(tc, a_1_0_description_reads_the_same);
    tcase_add_test(tc, an_older_collectors_reserved_space_is_no_metric_table);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(abi_suite)
