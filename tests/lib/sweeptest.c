/* SPDX-License-Identifier: MIT */
/* sweeptest.c - helpers of the end-to-end sweep suites. */
#include "config.h"

#include "sweeptest.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

tu_result_t tu_aorta_v(char *const *env_changes, char *const *args)
{
    char *run = tu_aorta_run();
    char *modules = tu_builddir("plugins");
    /* -q: stderr holds only the messages under test (the progress display
     * is tested on its own, in check_progress). */
    char *argv[64] = {run, "-q", "--plugin-dir", modules};
    size_t n = 4;
    for (size_t i = 0; args[i]; i++) {
        ck_assert_uint_lt(n, 63);
        argv[n++] = args[i];
    }
    argv[n] = NULL;
    tu_result_t result;
    result.status = tu_run(argv, env_changes, &result.out, &result.err);
    free(run);
    free(modules);
    return result;
}

tu_result_t tu_aorta(char *const *env_changes, ...)
{
    char *args[61];
    size_t n = 0;
    va_list list;
    va_start(list, env_changes);
    for (char *arg = va_arg(list, char *); arg; arg = va_arg(list, char *)) {
        ck_assert_uint_lt(n, 60);
        args[n++] = arg;
    }
    va_end(list);
    args[n] = NULL;
    return tu_aorta_v(env_changes, args);
}

void tu_result_free(tu_result_t *result)
{
    free(result->out);
    free(result->err);
    result->out = result->err = NULL;
}

char *tu_fmt(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *text = NULL;
    int len = vasprintf(&text, fmt, args);
    va_end(args);
    ck_assert_int_ge(len, 0);
    return text;
}

char *tu_cwd(void)
{
    char *cwd = getcwd(NULL, 0);
    ck_assert_ptr_nonnull(cwd);
    char *real = realpath(cwd, NULL);
    ck_assert_ptr_nonnull(real);
    free(cwd);
    return real;
}

json_object *tu_json(const char *path)
{
    char *text = tu_read(path);
    ck_assert_msg(text != NULL, "%s is missing", path);
    json_object *obj = json_tokener_parse(text);
    ck_assert_msg(obj != NULL, "%s is not JSON: %s", path, text);
    free(text);
    return obj;
}

static json_object *walk(json_object *obj, va_list args)
{
    for (const char *key = va_arg(args, const char *); key && obj;
         key = va_arg(args, const char *)) {
        if (key[0] >= '0' && key[0] <= '9') {
            size_t index = (size_t)strtoul(key, NULL, 10);
            obj = json_object_is_type(obj, json_type_array)
                          && index < json_object_array_length(obj)
                      ? json_object_array_get_idx(obj, index)
                      : NULL;
        } else if (!json_object_object_get_ex(obj, key, &obj)) {
            obj = NULL;
        }
    }
    return obj;
}

json_object *tu_at(json_object *obj, ...)
{
    va_list args;
    va_start(args, obj);
    json_object *value = walk(obj, args);
    va_end(args);
    return value;
}

const char *tu_str(json_object *obj, ...)
{
    va_list args;
    va_start(args, obj);
    json_object *value = walk(obj, args);
    va_end(args);
    ck_assert_msg(json_object_is_type(value, json_type_string), "not a string: %s",
                  value ? json_object_to_json_string(value) : "(absent)");
    return json_object_get_string(value);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *tu_keys(json_object *obj)
{
    ck_assert(json_object_is_type(obj, json_type_object));
    size_t n = 0;
    const char *names[256];
    json_object_object_foreach(obj, key, value)
    {
        (void)value;
        ck_assert_uint_lt(n, 256);
        names[n++] = key;
    }
    qsort(names, n, sizeof *names, compare_strings);
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(names[i]) + 1;
    char *text = calloc(1, len);
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(text, " ");
        strcat(text, names[i]);
    }
    return text;
}

void tu_expect_strings(json_object *array, const char *const *expected)
{
    ck_assert_msg(json_object_is_type(array, json_type_array), "not an array: %s",
                  array ? json_object_to_json_string(array) : "(absent)");
    size_t n = 0;
    while (expected[n])
        n++;
    ck_assert_msg(json_object_array_length(array) == n, "%zu items expected: %s", n,
                  json_object_to_json_string(array));
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(array, i)), expected[i]);
}

char *tu_listing(const char *dir)
{
    struct dirent **entries = NULL;
    int n = scandir(dir, &entries, NULL, alphasort);
    if (n < 0)
        return NULL;
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(entries[i]->d_name) + 1;
    char *text = calloc(1, len);
    for (int i = 0; i < n; i++) {
        const char *name = entries[i]->d_name;
        if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
            strcat(text, name);
            strcat(text, "\n");
        }
        free(entries[i]);
    }
    free(entries);
    return text;
}

size_t tu_count(const char *haystack, const char *needle)
{
    size_t count = 0, len = strlen(needle);
    for (const char *at = haystack; (at = strstr(at, needle)) != NULL; at += len)
        count++;
    return count;
}

char *tu_which(const char *name)
{
    const char *path = getenv("PATH");
    char *copy = strdup(path ? path : "");
    char *found = NULL;
    for (char *save = NULL, *entry = strtok_r(copy, ":", &save); entry && !found;
         entry = strtok_r(NULL, ":", &save)) {
        char *candidate = tu_join(entry, name);
        if (entry[0] == '/' && access(candidate, X_OK) == 0)
            found = candidate;
        else
            free(candidate);
    }
    free(copy);
    return found;
}
