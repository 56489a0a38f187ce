/* SPDX-License-Identifier: MIT */
/* protontest.h - what the Proton suites share: the module loaded through the
 * registry, handles built from literal lists, and argv comparison. */
#ifndef AORTA_PROTONTEST_H
#define AORTA_PROTONTEST_H

#include "aorta/collector.h"
#include "registry/registry.h"
#include "testutil.h"

/* The "/tmp/o" of the spec's cases: wraps never touch it. */
#define PT_OUT "/tmp/o"
#define PT_MOD "triton.profiler.proton"

/* Load the built plugins/proton.la (checked fixture setup/teardown). */
void pt_load(void);
void pt_unload(void);
const struct aorta_collector *pt_collector(void);
const ar_module_t *pt_plugin(void);

/* Handles from NULL-terminated literal lists ("key", "value", ..., NULL):
 * testutil's. */
#define pt_options tu_options
#define pt_argv tu_argv
#define pt_env tu_env

/* validate(); 0 or -1 with *message set (free it; NULL when not wanted). */
int pt_validate(aorta_options_t *options, char **message);

/* A directory holding an executable "env", and an empty one, for PATH. */
typedef struct pt_bins {
    char *root;    /* remove with pt_bins_free */
    char *with_env;
    char *env;     /* <with_env>/env */
    char *empty;
} pt_bins_t;
void pt_bins_make(pt_bins_t *bins);
void pt_bins_free(pt_bins_t *bins);

/* validate() then wrap() into out_dir.  Returns wrap's status; *out is the
 * wrapped argv (free it), *error the message (or NULL), *warnings what went
 * to stderr (or NULL; free them).  Fails the test when validate refuses. */
int pt_wrap(aorta_options_t *options, const char *out_dir, const aorta_argv_t *command,
            const aorta_env_t *environ, aorta_argv_t **out, char **error, char **warnings);

/* Compare argv with the NULL-terminated expected list. */
void pt_expect_argv(const aorta_argv_t *argv, const char *first, ...);
/* Index of arg in argv, or -1. */
long pt_index(const aorta_argv_t *argv, const char *arg);
/* The argv as one "[a, b]" line, for messages (free it). */
char *pt_argv_text(const aorta_argv_t *argv);
/* Assert haystack contains needle. */
void pt_contains(const char *haystack, const char *needle);

#endif
