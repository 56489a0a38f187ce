/* SPDX-License-Identifier: MIT */
/* json.h - the core's one layer over json-c: every JSON file aorta-run reads
 * or writes goes through here, so no other core file includes json-c. */
#ifndef AR_JSON_H
#define AR_JSON_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* A JSON value.  NULL stands for JSON null.  Values are reference counted;
 * a value added to a container is owned by it. */
typedef struct json_object ar_json_t;

ar_json_t *ar_json_object(void);
ar_json_t *ar_json_array(void);
ar_json_t *ar_json_string(const char *text);
/* NULL when text is UTF-8, else a copy with U+FFFD for each byte that is
 * not (what ar_json_string() writes).  A reader keying by a name it will
 * write back uses this name, so that two names that differ only in invalid
 * bytes are one name from the first read on.  Free it. */
char *ar_json_utf8_or_null(const char *text);
ar_json_t *ar_json_int(int64_t value);
/* Written the way Python's repr() writes a float ("0.5", "3.0", "1e-05"). */
ar_json_t *ar_json_double(double value);
/* value rounded to 6 decimals, written without trailing zeros ("1.5",
 * "3.0"): one format call where the shortest repr takes several, for the
 * files that hold hundreds of thousands of times (ms to the nanosecond). */
ar_json_t *ar_json_micro(double value);
ar_json_t *ar_json_bool(int value);
/* A string array of count items. */
ar_json_t *ar_json_strings(char *const *items, size_t count);
/* The same with each item's byte length (items may hold NULs); lengths NULL
 * means strlen. */
ar_json_t *ar_json_strings_n(char *const *items, const size_t *lengths, size_t count);

/* Set key (copied) to value (owned by obj from now on; NULL = JSON null). */
void ar_json_set(ar_json_t *obj, const char *key, ar_json_t *value);
/* The same for a key that is an ASCII string literal, kept rather than
 * copied: a comparison of 10,000 cells sets a million members. */
void ar_json_set_literal(ar_json_t *obj, const char *key, ar_json_t *value);
void ar_json_append(ar_json_t *array, ar_json_t *value);
/* Another reference to value; free each with ar_json_free(). */
ar_json_t *ar_json_ref(ar_json_t *value);
void ar_json_free(ar_json_t *value);

typedef enum ar_json_type {
    AR_JSON_NULL,
    AR_JSON_BOOL,
    AR_JSON_INT,
    AR_JSON_DOUBLE,
    AR_JSON_STRING,
    AR_JSON_ARRAY,
    AR_JSON_OBJECT
} ar_json_type_t;

ar_json_type_t ar_json_type(const ar_json_t *value);
/* Borrowed member of obj, or NULL when absent (or obj is not an object). */
ar_json_t *ar_json_get(const ar_json_t *obj, const char *key);
int ar_json_has(const ar_json_t *obj, const char *key);
/* key and its value out of obj (nothing when absent). */
void ar_json_remove(ar_json_t *obj, const char *key);
/* Borrowed string, or NULL when value is not a string. */
const char *ar_json_get_string(const ar_json_t *value);
/* The same with its byte length in *len (a JSON string may hold \u0000). */
const char *ar_json_get_string_len(const ar_json_t *value, size_t *len);
int64_t ar_json_get_int(const ar_json_t *value);
double ar_json_get_double(const ar_json_t *value);
int ar_json_get_bool(const ar_json_t *value);
size_t ar_json_length(const ar_json_t *array);
ar_json_t *ar_json_at(const ar_json_t *array, size_t index);
/* Members of obj in document order; 0 when obj is not an object. */
size_t ar_json_object_count(const ar_json_t *obj);
/* Calls fn for each member in order; stops when fn returns non-zero. */
void ar_json_foreach(const ar_json_t *obj,
                        int (*fn)(const char *key, ar_json_t *value, void *user), void *user);

/* Text of value: pretty = 2-space indent, else compact.  Free with free(). */
char *ar_json_dump(const ar_json_t *value, int pretty);
/* value as ar_json_dump() writes it, and a newline, onto out, without
 * a copy of the text (a comparison's is tens of megabytes); 0 or -1. */
int ar_json_print(FILE *out, const ar_json_t *value, int pretty);
/* value freed, the elements of its array member key (most of a large
 * comparison) on every CPU. */
void ar_json_free_spread(ar_json_t *value, const char *key);
/* Write value, pretty, with a final newline, whole or not at all (temporary
 * file in the same directory, then rename).  Returns 0 or -1 (errno set). */
int ar_json_write_file(const char *path, const ar_json_t *value);
/* The same for name below dir_fd (AT_FDCWD: name is a path). */
int ar_json_write_file_at(int dir_fd, const char *name, const ar_json_t *value);
/* The same, compact when pretty is 0 (then on one line). */
int ar_json_write_line_at(int dir_fd, const char *name, const ar_json_t *value, int pretty);
/* Parse text; NULL on a syntax error (and for the text "null").  max_depth
 * bounds nesting. */
ar_json_t *ar_json_parse(const char *text, size_t len, int max_depth);
/* The same; strict refuses what JSON does not allow and json-c otherwise
 * accepts (comments, single quotes, NaN, trailing commas). */
ar_json_t *ar_json_parse_strict(const char *text, size_t len, int max_depth, int strict);
/* The same; on a syntax error (NULL) *error_at is the byte offset where it
 * was found and *why json-c's words for it ("unexpected character"); for
 * the text "null", NULL with *why NULL. */
ar_json_t *ar_json_parse_where(const char *text, size_t len, int max_depth, int strict,
                                     size_t *error_at, const char **why);
/* Read and parse a regular file (no symlink followed) of at most max_bytes. */
ar_json_t *ar_json_read_file(const char *path, size_t max_bytes, int max_depth);
/* The same for name below dir_fd. */
ar_json_t *ar_json_read_file_at(int dir_fd, const char *name, size_t max_bytes,
                                      int max_depth);

/* One json-c tokener and one read buffer, reused file after file: what a
 * thread that reads thousands of small files keeps (never shared between
 * threads).  max_depth as for ar_json_parse(). */
typedef struct ar_json_reader ar_json_reader_t;

ar_json_reader_t *ar_json_reader_new(int max_depth);
void ar_json_reader_free(ar_json_reader_t *reader);
/* ar_json_read_file_at() through reader. */
ar_json_t *ar_json_reader_read_at(ar_json_reader_t *reader, int dir_fd,
                                        const char *name, size_t max_bytes);

/* Compact JSON written member by member into one buffer, reused document
 * after document, for a file too large to build as a tree only to
 * serialize it once (the cells' kernels.json: 200,000 rows in a large run).
 * The text is byte for byte what ar_json_dump(tree, 0) writes for the
 * same tree: keys and strings escaped by json-c (U+FFFD for what is not
 * UTF-8, as ar_json_set() and ar_json_string() do), numbers as
 * ar_json_int() and ar_json_micro() write them.  Only objects nest;
 * a key must differ from its siblings' keys (a tree would merge them).
 * Never shared between threads. */
typedef struct ar_json_writer ar_json_writer_t;

ar_json_writer_t *ar_json_writer_new(void);
void ar_json_writer_free(ar_json_writer_t *writer);
/* Empty, for the next document. */
void ar_json_writer_reset(ar_json_writer_t *writer);
void ar_json_writer_begin_object(ar_json_writer_t *writer);
void ar_json_writer_end_object(ar_json_writer_t *writer);
/* An array: ar_json_writer_item() before each of its items. */
void ar_json_writer_begin_array(ar_json_writer_t *writer);
void ar_json_writer_end_array(ar_json_writer_t *writer);
void ar_json_writer_item(ar_json_writer_t *writer);
/* The next member's key; its value follows. */
void ar_json_writer_key(ar_json_writer_t *writer, const char *key);
void ar_json_writer_string(ar_json_writer_t *writer, const char *text);
void ar_json_writer_int(ar_json_writer_t *writer, int64_t value);
/* ar_json_micro(value): null when it is not finite. */
void ar_json_writer_micro(ar_json_writer_t *writer, double value);
void ar_json_writer_null(ar_json_writer_t *writer);
/* Any value (NULL: null) as ar_json_dump(value, 0) writes it; json-c
 * caches the text in value, so no other thread may serialize it meanwhile. */
void ar_json_writer_value(ar_json_writer_t *writer, const ar_json_t *value);
/* The text so far, NUL-terminated, and its length; the writer's until its
 * next call. */
const char *ar_json_writer_text(const ar_json_writer_t *writer, size_t *len);
/* Write the text and a newline as name below dir_fd, whole or not at all,
 * leaving a file that already holds exactly that as it is
 * (ar_update_file_at()): 0, or -1 with errno set. */
int ar_json_writer_write_at(ar_json_writer_t *writer, int dir_fd, const char *name);
/* Whether ar_json_set() keeps key as it is (it is UTF-8): keys that it
 * would change may merge, which a writer cannot do. */
int ar_json_key_is_kept(const char *key);

#endif
