/* SPDX-License-Identifier: MIT */
/* proton's validate(), byte for byte: each request below, what it makes of
 * it (the effective options in their order, or the one message of a
 * refusal), as the collector answered before its validate() went through
 * the SDK's aorta_options_apply_table() (main at c7a275b).  The cases cover
 * every message, the check order when two options are wrong, normalisation
 * and where the defaults go. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protontest.h"

typedef struct validate_case {
    const char *given[9]; /* key, value, ..., NULL */
    const char *answer;   /* "ERR\t<message>" or "OK\t<key>=<value>\t..." */
} validate_case_t;

static const validate_case_t CASES[] = {
    {{NULL},
     "OK\tmode=cli\tbackend=auto\tcontext=shadow\tdata=tree"},
    {{"mode", "ENV", NULL},
     "OK\tmode=env\tbackend=auto\tcontext=shadow\tdata=tree"},
    {{"mode", "library", NULL},
     "ERR\tproton option 'mode': 'library' is not one of ['cli', 'env']"},
    {{"backend", " CUPTI ", NULL},
     "OK\tmode=cli\tbackend=cupti\tcontext=shadow\tdata=tree"},
    {{"backend", "nope", NULL},
     "ERR\tproton option 'backend': 'nope' is not one of ['auto', 'cupti', 'instrumentation', "
     "'rocprofiler', 'roctracer']"},
    {{"context", "cpp", NULL},
     "ERR\tproton option 'context': 'cpp' is not one of ['python', 'shadow']"},
    {{"context", " Python ", NULL},
     "OK\tmode=cli\tbackend=auto\tcontext=python\tdata=tree"},
    {{"data", "hatchet", NULL},
     "ERR\tproton option 'data': 'hatchet' is not one of ['trace', 'tree']"},
    {{"data", "TRACE", NULL},
     "OK\tmode=cli\tbackend=auto\tcontext=shadow\tdata=trace"},
    {{"backend", "instrumentation", "instrumentation_mode", "mma", "granularity", "warp", NULL},
     "OK\tmode=cli\tbackend=instrumentation\tcontext=shadow\tdata=tree\tinstrumentation_mode=mma"
     "\tgranularity=warp"},
    {{"backend", "instrumentation", "granularity", "warp_group_8", NULL},
     "OK\tmode=cli\tbackend=instrumentation\tcontext=shadow\tdata=tree\tgranularity=warp_group_8"},
    {{"backend_mode", "pcsampling", NULL},
     "ERR\tproton option 'backend_mode' requires an explicit backend from ['cupti', "
     "'rocprofiler', 'roctracer'] -- Proton's '--mode' domain is backend-specific, so there is "
     "nothing to validate it against under backend: auto. Pin the backend, or drop the option."},
    {{"backend", "roctracer", "backend_mode", "pcsampling", NULL},
     "ERR\tproton option 'backend_mode': 'pcsampling' is not one of ['periodic_flushing'] for "
     "backend: roctracer"},
    {{"backend", "roctracer", "backend_mode", "periodic_flushing", NULL},
     "OK\tmode=cli\tbackend=roctracer\tcontext=shadow\tdata=tree\tbackend_mode=periodic_flushing"},
    {{"backend", "cupti", "backend_mode", "periodic_flushing", NULL},
     "OK\tmode=cli\tbackend=cupti\tcontext=shadow\tdata=tree\tbackend_mode=periodic_flushing"},
    {{"backend", "cupti", "backend_mode", "bogus", NULL},
     "ERR\tproton option 'backend_mode': 'bogus' is not one of ['pcsampling', "
     "'periodic_flushing'] for backend: cupti"},
    {{"backend_mode", "x", "granularity", "cta", NULL},
     "ERR\tproton option 'backend_mode' conflicts with ['granularity']: both render into "
     "Proton's single '--mode' argument, so only one can be set. 'backend_mode' configures the "
     "whole-kernel backends (rocprofiler / roctracer / cupti); the intra-kernel pair configures "
     "backend: instrumentation."},
    {{"granularity", "cta", NULL},
     "ERR\tproton option(s) ['granularity'] require backend: instrumentation (they configure "
     "Proton's intra-kernel mode); got backend: auto"},
    {{"instrumentation_mode", "mma", NULL},
     "ERR\tproton option(s) ['instrumentation_mode'] require backend: instrumentation (they "
     "configure Proton's intra-kernel mode); got backend: auto"},
    {{"hook", "launch", NULL},
     "ERR\tproton option 'hook': 'launch' is not one of ['triton']"},
    {{"hook", "triton", NULL},
     "OK\tmode=cli\tbackend=auto\tcontext=shadow\tdata=tree\thook=triton"},
    {{"zz", "1", "aa", "2", NULL},
     "ERR\tproton: unknown option(s) ['aa', 'zz']; valid: ['mode', 'backend', 'backend_mode', "
     "'context', 'data', 'instrumentation_mode', 'granularity', 'hook']"},
    {{"it's", "1", NULL},
     "ERR\tproton: unknown option(s) [\"it's\"]; valid: ['mode', 'backend', 'backend_mode', "
     "'context', 'data', 'instrumentation_mode', 'granularity', 'hook']"},
    {{"backend", "nope", "mode", "library", NULL},
     "ERR\tproton option 'mode': 'library' is not one of ['cli', 'env']"},
    {{"backend", "   ", NULL},
     "ERR\tproton option 'backend': '' is not one of ['auto', 'cupti', 'instrumentation', "
     "'rocprofiler', 'roctracer']"},
    {{"Backend", "auto", NULL},
     "ERR\tproton: unknown option(s) ['Backend']; valid: ['mode', 'backend', 'backend_mode', "
     "'context', 'data', 'instrumentation_mode', 'granularity', 'hook']"},
    {{"hook", "x", "granularity", "y", NULL},
     "ERR\tproton option 'granularity': 'y' is not one of ['cta', 'warp', 'warp_2', 'warp_4', "
     "'warp_8', 'warp_group', 'warp_group_2', 'warp_group_4', 'warp_group_8']"},
    {{"backend", "instrumentation", "instrumentation_mode", "nope", NULL},
     "ERR\tproton option 'instrumentation_mode': 'nope' is not one of ['default', 'mma', "
     "'pcsampling']"},
    {{"backend", "instrumentation", "granularity", "thread", NULL},
     "ERR\tproton option 'granularity': 'thread' is not one of ['cta', 'warp', 'warp_2', "
     "'warp_4', 'warp_8', 'warp_group', 'warp_group_2', 'warp_group_4', 'warp_group_8']"},
    {{"granularity", "cta", "hook", "triton", "mode", "cli", NULL},
     "ERR\tproton option(s) ['granularity'] require backend: instrumentation (they configure "
     "Proton's intra-kernel mode); got backend: auto"},
    {{"hook", "triton", "backend_mode", "periodic_flushing", "backend", "rocprofiler", NULL},
     "OK\tmode=cli\tbackend=rocprofiler\tcontext=shadow\tdata=tree\thook=triton\tbackend_mode=per"
     "iodic_flushing"},
    {{"backend", "rocprofiler", "backend_mode", "sampling", NULL},
     "ERR\tproton option 'backend_mode': 'sampling' is not one of ['pcsampling', "
     "'periodic_flushing'] for backend: rocprofiler"},
    {{"backend", "auto", "backend_mode", "pcsampling", NULL},
     "ERR\tproton option 'backend_mode' requires an explicit backend from ['cupti', "
     "'rocprofiler', 'roctracer'] -- Proton's '--mode' domain is backend-specific, so there is "
     "nothing to validate it against under backend: auto. Pin the backend, or drop the option."},
};

/* What validate() makes of the case's request, in the form of CASES. */
static char *answer_of(const validate_case_t *c)
{
    aorta_options_t *options = aorta_options_new();
    for (size_t i = 0; c->given[i]; i += 2)
        aorta_options_set(options, c->given[i], c->given[i + 1]);
    char *message = NULL;
    int status = pt_validate(options, &message);
    tu_text_t text = {0};
    if (status != 0) {
        tu_text_add(&text, "ERR\t%s", message);
    } else {
        tu_text_add(&text, "OK");
        for (size_t i = 0; i < aorta_options_count(options); i++)
            tu_text_add(&text, "\t%s=%s", aorta_options_key_at(options, i),
                        aorta_options_value_at(options, i));
    }
    free(message);
    aorta_options_free(options);
    return text.data;
}

START_TEST(answers_as_before)
{
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char *got = answer_of(&CASES[i]);
        ck_assert_msg(strcmp(got, CASES[i].answer) == 0, "case %zu:\n got: %s\nwant: %s", i, got,
                      CASES[i].answer);
        free(got);
    }
}
END_TEST


static Suite *validate_suite(void)
{
    Suite *suite = suite_create("proton_validate");
    TCase *tc = tcase_create("validate");
    tcase_add_checked_fixture(tc, pt_load, pt_unload);
    tcase_add_test(tc, answers_as_before);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(validate_suite)
