/* SPDX-License-Identifier: MIT */
/* registry.h - finding and checking collector modules: the files on the
 * search path, each loaded and checked, and the collector each one provides.
 * Vocabulary: a module is a file (NAME.so or NAME.la); the collector is what
 * its aorta_collector_NAME_get() describes; "plugin" survives only in the
 * user-facing spellings (--plugin-dir, AORTA_PLUGIN_PATH). */
#ifndef AR_REGISTRY_H
#define AR_REGISTRY_H

#include <stdio.h>

#include "aorta/collector.h"

typedef enum ar_module_status {
    AR_MODULE_OK,        /* loaded, checked, first of its name: in use */
    AR_MODULE_SHADOWED,  /* loaded and checked, but an earlier one has its name */
    AR_MODULE_FAILED,    /* skipped; reason says why */
    AR_MODULE_UNCHECKED  /* found on the search path, not opened (yet) */
} ar_module_status_t;

typedef struct ar_module {
    char *name;                         /* the file stem */
    char *path;                         /* the file that was opened */
    ar_module_status_t status;
    char *reason;                       /* why it failed, else NULL */
    struct aorta_collector collector;   /* copy, optional slots defaulted (not FAILED) */
    int has_env;                        /* env() is the collector's own, not the default */
    void *handle;                       /* the loader's module handle */
} ar_module_t;

typedef struct ar_registry {
    ar_module_t *modules;            /* every candidate, in search order */
    size_t count;
    size_t capacity;
    char **dirs;                        /* the directories searched, NULL-terminated */
    size_t dir_count;
    int warn;                           /* a candidate that fails says so (a warning) */
} ar_registry_t;

/* The directories searched, in order: each of cli_dirs, then AORTA_PLUGIN_PATH
 * (a colon list), then AORTA_PLUGIN_SYSTEM_PATH when set (even empty) or else
 * the compiled-in collectordir.  Empty entries are dropped.  Returns a
 * NULL-terminated array; free with ar_search_path_free(). */
char **ar_search_path(char *const *cli_dirs, size_t cli_count);
void ar_search_path_free(char **dirs);

/* The candidate modules of every directory of dirs (NULL-terminated), in
 * search order, none opened yet: a run opens only the collectors it needs.
 * Opening a candidate first checks it in a forked child (load, entry
 * symbol, description), so one that crashes, hangs or returns garbage
 * while loading is a failed candidate with its reason ("crashed while
 * loading (signal 11)", "timed out while loading"), never the end of
 * aorta-run; only a candidate that passed is then opened here. */
ar_registry_t *ar_registry_load(char *const *dirs);
/* Open and check every candidate (--list-collectors, and listing what is
 * available in an error). */
void ar_registry_check_all(const ar_registry_t *registry);
/* From now on one "aorta-run: warning: skipping PATH: REASON" line for each
 * candidate that fails when it is opened (and one now for each that failed
 * already); without this call, failures are silent. */
void ar_registry_warn(ar_registry_t *registry);
/* Open the module in use under name: its candidates are checked (in a
 * child) and opened in search order until one passes.  NULL when none
 * does. */
const ar_module_t *ar_registry_open(const ar_registry_t *registry, const char *name);
/* The first failed candidate of that name (to explain why it is missing), or
 * NULL; after ar_registry_open() of that name.  Opens nothing. */
const ar_module_t *ar_registry_find_failed(const ar_registry_t *registry,
                                                 const char *name);
/* "a, b, c": names in use, sorted; "(none)" when there is none (every
 * candidate is checked first).  Free it. */
char *ar_registry_names(const ar_registry_t *registry);
void ar_registry_free(ar_registry_t *registry);

/* Seconds the load check of one candidate may take: AORTA_LOAD_TIMEOUT,
 * else 10. */
double ar_registry_load_timeout(void);

/* The load check's reply, as the checking child writes it: "ok\n", or
 * "failed\t<reason>\n".  Returns 0 with *reason NULL (ok) or set (failed;
 * free it), or -1 when the reply is neither (garbage from a broken module). */
int ar_registry_parse_check_reply(const char *reply, size_t len, char **reason);

#endif
