/* SPDX-License-Identifier: MIT */
/* sweeptest.h - what the end-to-end sweep suites share: the built aorta-run
 * with the build tree's collectors, the files it writes read back with
 * json-c (independently of the core's JSON layer), and small text helpers. */
#ifndef AORTA_SWEEPTEST_H
#define AORTA_SWEEPTEST_H

#include <json-c/json.h>
#include <stddef.h>

#include "testutil.h"

typedef struct tu_result {
    int status;
    char *out;
    char *err;
} tu_result_t;

/* aorta-run --plugin-dir <builddir>/plugins ARGS... (NULL-terminated), with
 * env_changes as tu_run takes them ("K=V" sets, "K" unsets). */
tu_result_t tu_aorta(char *const *env_changes, ...);
/* The same with the arguments as a NULL-terminated array. */
tu_result_t tu_aorta_v(char *const *env_changes, char *const *args);
void tu_result_free(tu_result_t *result);

/* asprintf that asserts. */
char *tu_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The working directory, symlinks resolved: what aorta-run makes a relative
 * --output absolute against. */
char *tu_cwd(void);

/* The JSON file at path (asserted to exist and parse); json_object_put it. */
json_object *tu_json(const char *path);
/* obj's member at a path of keys (NULL-terminated); a key of digits indexes
 * an array.  NULL when absent. */
json_object *tu_at(json_object *obj, ...);
/* The string at a path (asserted to be a string). */
const char *tu_str(json_object *obj, ...);
/* The member names of obj, space-separated, sorted (free it). */
char *tu_keys(json_object *obj);
/* Assert array is exactly the NULL-terminated list of strings. */
void tu_expect_strings(json_object *array, const char *const *expected);

/* The names in dir, sorted, one per line (free it); "" when dir is empty,
 * NULL when it cannot be read. */
char *tu_listing(const char *dir);
/* Occurrences of needle in haystack. */
size_t tu_count(const char *haystack, const char *needle);
/* The first absolute path of name on $PATH (free it), or NULL. */
char *tu_which(const char *name);

#endif
