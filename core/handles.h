/* handles.h - what the opaque handles of aorta/collector.h are, for the core.
 * Collectors see only the accessors; the core builds, reads and frees them. */
#ifndef AORTA_HANDLES_H
#define AORTA_HANDLES_H

#include <stdint.h>

#include "aorta/collector.h"
#include "strmap.h"

struct aorta_options {
    aorta_strmap_t map;
};

struct aorta_env {
    aorta_strmap_t map;
};

struct aorta_argv {
    char **items;     /* always NULL-terminated, ready for execve() */
    size_t count;
    size_t capacity;
};

typedef enum aorta_metric_type {
    AORTA_METRIC_INT,
    AORTA_METRIC_DOUBLE,
    AORTA_METRIC_STRING,
    AORTA_METRIC_STRINGS
} aorta_metric_type_t;

typedef struct aorta_metric {
    char *key;
    aorta_metric_type_t type;
    int64_t int_value;
    double double_value;
    char *string_value;
    char **strings;
    size_t string_count;
} aorta_metric_t;

struct aorta_metrics {
    char *prefix;           /* "<collector>_": keys must start with it; NULL = any */
    aorta_metric_t *items;
    size_t count;
    size_t capacity;
    aorta_keyindex_t index; /* key -> position in items: a reply may be large */
};

struct aorta_error {
    char *message;
};

AORTA_EXPORT aorta_options_t *aorta_options_new(void);
AORTA_EXPORT aorta_options_t *aorta_options_dup(const aorta_options_t *options);
AORTA_EXPORT void aorta_options_free(aorta_options_t *options);

AORTA_EXPORT aorta_argv_t *aorta_argv_new(void);
AORTA_EXPORT aorta_argv_t *aorta_argv_from(char *const *items, size_t count);
AORTA_EXPORT aorta_argv_t *aorta_argv_dup(const aorta_argv_t *argv);
AORTA_EXPORT void aorta_argv_free(aorta_argv_t *argv);
AORTA_EXPORT char *const *aorta_argv_items(const aorta_argv_t *argv);

AORTA_EXPORT aorta_env_t *aorta_env_new(void);
/* A map of a "NAME=VALUE" array such as environ; entries without '=' are skipped. */
AORTA_EXPORT aorta_env_t *aorta_env_from_environ(char *const *envp);
AORTA_EXPORT aorta_env_t *aorta_env_dup(const aorta_env_t *env);
AORTA_EXPORT void aorta_env_unset(aorta_env_t *env, const char *name);
/* A NULL-terminated "NAME=VALUE" array; free with aorta_env_free_envp(). */
AORTA_EXPORT char **aorta_env_to_envp(const aorta_env_t *env);
AORTA_EXPORT void aorta_env_free_envp(char **envp);
AORTA_EXPORT void aorta_env_free(aorta_env_t *env);

/* A sink that accepts only keys starting with prefix (NULL: any key). */
AORTA_EXPORT aorta_metrics_t *aorta_metrics_new(const char *prefix);
AORTA_EXPORT size_t aorta_metrics_count(const aorta_metrics_t *metrics);
AORTA_EXPORT const aorta_metric_t *aorta_metrics_at(const aorta_metrics_t *metrics, size_t index);
AORTA_EXPORT const aorta_metric_t *aorta_metrics_find(const aorta_metrics_t *metrics, const char *key);
AORTA_EXPORT void aorta_metrics_free(aorta_metrics_t *metrics);

AORTA_EXPORT aorta_error_t *aorta_error_new(void);
AORTA_EXPORT void aorta_error_clear(aorta_error_t *err);
AORTA_EXPORT void aorta_error_free(aorta_error_t *err);

#endif
