/* SPDX-License-Identifier: MIT */
/* rocprof's validate(), byte for byte: each request below, what it makes of
 * it (the effective options in their order, or the one message of a
 * refusal), as the collector answered before its validate() went through
 * the SDK's aorta_options_apply_table() (main at c7a275b).  The cases cover
 * every message, the check order when two options are wrong, normalisation
 * and where the defaults go. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rptest.h"

typedef struct validate_case {
    const char *given[9]; /* key, value, ..., NULL */
    const char *answer;   /* "ERR\t<message>" or "OK\t<key>=<value>\t..." */
} validate_case_t;

static const validate_case_t CASES[] = {
    {{NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats=true"},
    {{"trace", "kernel,hip", NULL},
     "OK\ttrace=kernel,hip\toutput_format=csv\tstats=true"},
    {{"trace", "KERNEL  hip,Kernel", NULL},
     "OK\ttrace=kernel,hip\toutput_format=csv\tstats=true"},
    {{"trace", "", NULL},
     "ERR\trocprof option 'trace': must name at least one domain; valid: ['hip', 'hip_runtime', "
     "'kernel', 'marker', 'memory_copy', 'rccl', 'scratch']"},
    {{"trace", " , ", NULL},
     "ERR\trocprof option 'trace': must name at least one domain; valid: ['hip', 'hip_runtime', "
     "'kernel', 'marker', 'memory_copy', 'rccl', 'scratch']"},
    {{"trace", "bogus, nope, bogus", NULL},
     "ERR\trocprof option 'trace': unknown domain(s) ['bogus', 'nope']; valid: ['hip', "
     "'hip_runtime', 'kernel', 'marker', 'memory_copy', 'rccl', 'scratch']"},
    {{"trace", "kernel scratch rccl marker memory_copy hip_runtime", NULL},
     "OK\ttrace=kernel,scratch,rccl,marker,memory_copy,hip_runtime\toutput_format=csv\tstats=true"},
    {{"output_format", "csv rocpd", NULL},
     "OK\ttrace=kernel\toutput_format=csv rocpd\tstats=true"},
    {{"output_format", "CSV", NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats=true"},
    {{"output_format", "csv,json", NULL},
     "ERR\trocprof option 'output_format': 'csv,json' is not one of ['csv', 'json', 'otf2', "
     "'pftrace', 'rocpd']"},
    {{"output_format", "", NULL},
     "ERR\trocprof option 'output_format': '' is not one of ['csv', 'json', 'otf2', 'pftrace', "
     "'rocpd']"},
    {{"output_format", "xml", NULL},
     "ERR\trocprof option 'output_format': 'xml' is not one of ['csv', 'json', 'otf2', "
     "'pftrace', 'rocpd']"},
    {{"output_format", "csv csv", NULL},
     "OK\ttrace=kernel\toutput_format=csv csv\tstats=true"},
    {{"stats", "yes", NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats=yes"},
    {{"stats", " TRUE ", NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats= TRUE "},
    {{"stats", "maybe", NULL},
     "ERR\trocprof option 'stats': expected a boolean (0/1/false/no/off/on/true/yes), got 'maybe'"},
    {{"stats", "0", NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats=0"},
    {{"summary_units", "MSEC", NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats=true\tsummary_units=msec"},
    {{"summary_units", "minutes", NULL},
     "ERR\trocprof option 'summary_units': 'minutes' is not one of ['msec', 'nsec', 'sec', "
     "'usec']"},
    {{"summary_units", " usec ", NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats=true\tsummary_units=usec"},
    {{"kernel_include_regex", "  ", NULL},
     "ERR\trocprof option 'kernel_include_regex': must be non-empty"},
    {{"kernel_include_regex", "gemm.*", NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats=true\tkernel_include_regex=gemm.*"},
    {{"pmc", "", NULL},
     "ERR\trocprof option 'pmc': must name at least one counter (comma- or space-separated)"},
    {{"pmc", "SQ_WAVES, GRBM_COUNT", NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats=true\tpmc=SQ_WAVES, GRBM_COUNT"},
    {{"pmc", " , ", NULL},
     "ERR\trocprof option 'pmc': must name at least one counter (comma- or space-separated)"},
    {{"bogus", "1", NULL},
     "ERR\trocprof: unknown option(s) ['bogus']; valid: ['trace', 'output_format', 'stats', "
     "'pmc', 'kernel_include_regex', 'summary_units']"},
    {{"Trace", "kernel", NULL},
     "ERR\trocprof: unknown option(s) ['Trace']; valid: ['trace', 'output_format', 'stats', "
     "'pmc', 'kernel_include_regex', 'summary_units']"},
    {{"zz", "1", "aa", "2", "trace", "hip", NULL},
     "ERR\trocprof: unknown option(s) ['aa', 'zz']; valid: ['trace', 'output_format', 'stats', "
     "'pmc', 'kernel_include_regex', 'summary_units']"},
    {{"pmc", "A", "trace", "hip", "summary_units", "sec", NULL},
     "OK\ttrace=hip\toutput_format=csv\tstats=true\tpmc=A\tsummary_units=sec"},
    {{"summary_units", "usec", "kernel_include_regex", "x", "stats", "off", "pmc", "B", NULL},
     "OK\ttrace=kernel\toutput_format=csv\tstats=off\tsummary_units=usec\tkernel_include_regex=x"
     "\tpmc=B"},
    {{"trace", "bad", "summary_units", "bad", NULL},
     "ERR\trocprof option 'trace': unknown domain(s) ['bad']; valid: ['hip', 'hip_runtime', "
     "'kernel', 'marker', 'memory_copy', 'rccl', 'scratch']"},
    {{"summary_units", "bad", "trace", "bad", NULL},
     "ERR\trocprof option 'trace': unknown domain(s) ['bad']; valid: ['hip', 'hip_runtime', "
     "'kernel', 'marker', 'memory_copy', 'rccl', 'scratch']"},
    {{"stats", "maybe", "output_format", "xml", NULL},
     "ERR\trocprof option 'output_format': 'xml' is not one of ['csv', 'json', 'otf2', "
     "'pftrace', 'rocpd']"},
    {{"output_format", "json", "trace", "hip", NULL},
     "OK\ttrace=hip\toutput_format=json\tstats=true"},
};

/* What validate() makes of the case's request, in the form of CASES. */
static char *answer_of(const validate_case_t *c)
{
    aorta_options_t *options = aorta_options_new();
    for (size_t i = 0; c->given[i]; i += 2)
        aorta_options_set(options, c->given[i], c->given[i + 1]);
    char *message = NULL;
    int status = rp_validate(options, &message);
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
    Suite *suite = suite_create("rocprof_validate");
    TCase *tc = tcase_create("validate");
    tcase_add_unchecked_fixture(tc, rp_setup, rp_teardown);
    tcase_add_test(tc, answers_as_before);
    suite_add_tcase(suite, tc);
    return suite;
}

AORTA_CHECK_MAIN(validate_suite)
