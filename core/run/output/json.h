/* SPDX-License-Identifier: MIT */
/* json.h - the core's one layer over json-c: every JSON file aorta-run reads
 * or writes goes through here, so no other core file includes json-c. */
#ifndef AORTA_JSON_H
#define AORTA_JSON_H

#include <stddef.h>
#include <stdint.h>

/* A JSON value.  NULL stands for JSON null.  Values are reference counted;
 * a value added to a container is owned by it. */
typedef struct json_object aorta_json_t;

aorta_json_t *aorta_json_object(void);
aorta_json_t *aorta_json_array(void);
aorta_json_t *aorta_json_string(const char *text);
aorta_json_t *aorta_json_int(int64_t value);
/* Written the way Python's repr() writes a float ("0.5", "3.0", "1e-05"). */
aorta_json_t *aorta_json_double(double value);
/* value rounded to 6 decimals, written without trailing zeros ("1.5",
 * "3.0"): one format call where the shortest repr takes several, for the
 * files that hold hundreds of thousands of times (ms to the nanosecond). */
aorta_json_t *aorta_json_micro(double value);
aorta_json_t *aorta_json_bool(int value);
/* A string array of count items. */
aorta_json_t *aorta_json_strings(char *const *items, size_t count);
/* The same with each item's byte length (items may hold NULs); lengths NULL
 * means strlen. */
aorta_json_t *aorta_json_strings_n(char *const *items, const size_t *lengths, size_t count);

/* Set key (copied) to value (owned by obj from now on; NULL = JSON null). */
void aorta_json_set(aorta_json_t *obj, const char *key, aorta_json_t *value);
void aorta_json_append(aorta_json_t *array, aorta_json_t *value);
/* Another reference to value; free each with aorta_json_free(). */
aorta_json_t *aorta_json_ref(aorta_json_t *value);
void aorta_json_free(aorta_json_t *value);

typedef enum aorta_json_type {
    AORTA_JSON_NULL,
    AORTA_JSON_BOOL,
    AORTA_JSON_INT,
    AORTA_JSON_DOUBLE,
    AORTA_JSON_STRING,
    AORTA_JSON_ARRAY,
    AORTA_JSON_OBJECT
} aorta_json_type_t;

aorta_json_type_t aorta_json_type(const aorta_json_t *value);
/* Borrowed member of obj, or NULL when absent (or obj is not an object). */
aorta_json_t *aorta_json_get(const aorta_json_t *obj, const char *key);
int aorta_json_has(const aorta_json_t *obj, const char *key);
/* Borrowed string, or NULL when value is not a string. */
const char *aorta_json_get_string(const aorta_json_t *value);
/* The same with its byte length in *len (a JSON string may hold \u0000). */
const char *aorta_json_get_string_len(const aorta_json_t *value, size_t *len);
int64_t aorta_json_get_int(const aorta_json_t *value);
double aorta_json_get_double(const aorta_json_t *value);
int aorta_json_get_bool(const aorta_json_t *value);
size_t aorta_json_length(const aorta_json_t *array);
aorta_json_t *aorta_json_at(const aorta_json_t *array, size_t index);
/* Members of obj in document order; 0 when obj is not an object. */
size_t aorta_json_object_count(const aorta_json_t *obj);
/* Calls fn for each member in order; stops when fn returns non-zero. */
void aorta_json_foreach(const aorta_json_t *obj,
                        int (*fn)(const char *key, aorta_json_t *value, void *user), void *user);

/* Text of value: pretty = 2-space indent, else compact.  Free with free(). */
char *aorta_json_dump(const aorta_json_t *value, int pretty);
/* Write value, pretty, with a final newline, whole or not at all (temporary
 * file in the same directory, then rename).  Returns 0 or -1 (errno set). */
int aorta_json_write_file(const char *path, const aorta_json_t *value);
/* The same for name below dir_fd (AT_FDCWD: name is a path). */
int aorta_json_write_file_at(int dir_fd, const char *name, const aorta_json_t *value);
/* Parse text; NULL on a syntax error (and for the text "null").  max_depth
 * bounds nesting. */
aorta_json_t *aorta_json_parse(const char *text, size_t len, int max_depth);
/* The same; strict refuses what JSON does not allow and json-c otherwise
 * accepts (comments, single quotes, NaN, trailing commas). */
aorta_json_t *aorta_json_parse_strict(const char *text, size_t len, int max_depth, int strict);
/* Read and parse a regular file (no symlink followed) of at most max_bytes. */
aorta_json_t *aorta_json_read_file(const char *path, size_t max_bytes, int max_depth);
/* The same for name below dir_fd. */
aorta_json_t *aorta_json_read_file_at(int dir_fd, const char *name, size_t max_bytes,
                                      int max_depth);

#endif
