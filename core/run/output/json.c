/* SPDX-License-Identifier: MIT */
/* json.c - the core's one layer over json-c. */
#include "config.h"

#include "output/json.h"

#include <errno.h>
#include <fcntl.h> /* AT_FDCWD */
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "sys/files.h"
#include "xalloc.h"

aorta_json_t *aorta_json_object(void)
{
    return json_object_new_object();
}

aorta_json_t *aorta_json_array(void)
{
    return json_object_new_array();
}

/* text when it is UTF-8, else a copy with U+FFFD for each byte that is not
 * (an argument, an environment variable or a collector's string may hold
 * any byte; json-c writes bytes as they are, and readers decode strictly). */
static char *utf8_or_null(const char *text)
{
    size_t len = strlen(text);
    size_t valid = aorta_utf8_valid_prefix(text, len, NULL, NULL);
    if (valid == len)
        return NULL;
    char *out = aorta_xmalloc(len * 3 + 1), *cursor = out;
    while (len > 0) {
        memcpy(cursor, text, valid);
        cursor += valid;
        text += valid;
        len -= valid;
        if (len == 0)
            break;
        memcpy(cursor, "\xef\xbf\xbd", 3);
        cursor += 3;
        text++;
        len--;
        valid = aorta_utf8_valid_prefix(text, len, NULL, NULL);
    }
    *cursor = '\0';
    return out;
}

aorta_json_t *aorta_json_string(const char *text)
{
    char *fixed = utf8_or_null(text ? text : "");
    aorta_json_t *value = json_object_new_string(fixed ? fixed : text ? text : "");
    free(fixed);
    return value;
}

aorta_json_t *aorta_json_int(int64_t value)
{
    return json_object_new_int64(value);
}

/* Python's repr(float): the shortest digits that read back to the same
 * double, positional for exponents -4..15, scientific otherwise, and always
 * with a '.' or an exponent. */
static void format_double(double value, char *out, size_t size)
{
    char digits[40];
    /* The fewest digits that read back, by bisection: a precision that
     * reads back implies every larger one does (the closer rounding of p+1
     * digits is at least as near as the p digits, padded), and 17 always
     * does.  A kernel table writes hundreds of thousands of these. */
    int low = 1, high = 17;
    while (low < high) {
        int mid = (low + high) / 2;
        snprintf(digits, sizeof digits, "%.*e", mid - 1, value);
        if (strtod(digits, NULL) == value)
            high = mid;
        else
            low = mid + 1;
    }
    snprintf(digits, sizeof digits, "%.*e", low - 1, value);
    /* digits is "[-]d.ddde[+-]XX": split mantissa digits and exponent. */
    const char *cursor = digits;
    int negative = 0;
    if (*cursor == '-') {
        negative = 1;
        cursor++;
    }
    char mantissa[20];
    size_t count = 0;
    for (; *cursor && *cursor != 'e'; cursor++)
        if (*cursor != '.')
            mantissa[count++] = *cursor;
    while (count > 1 && mantissa[count - 1] == '0')
        count--;
    mantissa[count] = '\0';
    int exponent = atoi(cursor + 1);
    size_t len = 0;
    if (negative)
        out[len++] = '-';
    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            len += (size_t)snprintf(out + len, size - len, "0.");
            for (int i = -1; i > exponent; i--)
                out[len++] = '0';
            len += (size_t)snprintf(out + len, size - len, "%s", mantissa);
        } else {
            for (int i = 0; i <= exponent || i < (int)count; i++) {
                if (i == exponent + 1)
                    out[len++] = '.';
                out[len++] = i < (int)count ? mantissa[i] : '0';
            }
            if ((int)count <= exponent + 1) {
                out[len++] = '.';
                out[len++] = '0';
            }
            out[len] = '\0';
        }
    } else {
        out[len++] = mantissa[0];
        if (count > 1) {
            out[len++] = '.';
            memcpy(out + len, mantissa + 1, count - 1);
            len += count - 1;
        }
        snprintf(out + len, size - len, "e%c%02d", exponent < 0 ? '-' : '+', abs(exponent));
    }
}

aorta_json_t *aorta_json_double(double value)
{
    if (!isfinite(value))
        return NULL; /* JSON has no NaN/Infinity; callers never report them */
    char text[64];
    format_double(value, text, sizeof text);
    return json_object_new_double_s(value, text);
}

aorta_json_t *aorta_json_micro(double value)
{
    if (!isfinite(value))
        return NULL;
    char text[400];
    int len;
    double scaled = round(fabs(value) * 1e6), rounded = NAN;
    if (scaled < 9e15) {
        rounded = copysign(scaled / 1e6, value);
        /* Integer digits: printf's %f takes the multi-precision path. */
        uint64_t micro = (uint64_t)scaled;
        len = snprintf(text, sizeof text, "%s%" PRIu64 ".%06u", value < 0 ? "-" : "",
                       micro / 1000000u, (unsigned)(micro % 1000000u));
    } else {
        len = snprintf(text, sizeof text, "%.6f", value);
    }
    if (len <= 0 || (size_t)len >= sizeof text)
        return aorta_json_double(value);
    while (len > 2 && text[len - 1] == '0' && text[len - 2] != '.')
        text[--len] = '\0';
    if (!strcmp(text, "-0.0"))
        strcpy(text, "0.0");
    return json_object_new_double_s(isnan(rounded) ? strtod(text, NULL) : rounded + 0.0, text);
}

aorta_json_t *aorta_json_bool(int value)
{
    return json_object_new_boolean(value ? 1 : 0);
}

aorta_json_t *aorta_json_strings(char *const *items, size_t count)
{
    aorta_json_t *array = json_object_new_array_ext((int)count);
    for (size_t i = 0; i < count; i++)
        json_object_array_add(array, aorta_json_string(items[i]));
    return array;
}

aorta_json_t *aorta_json_strings_n(char *const *items, const size_t *lengths, size_t count)
{
    aorta_json_t *array = json_object_new_array_ext((int)count);
    for (size_t i = 0; i < count; i++)
        json_object_array_add(array, lengths ? json_object_new_string_len(items[i],
                                                                          (int)lengths[i])
                                             : aorta_json_string(items[i]));
    return array;
}

void aorta_json_set(aorta_json_t *obj, const char *key, aorta_json_t *value)
{
    char *fixed = utf8_or_null(key);
    json_object_object_add(obj, fixed ? fixed : key, value);
    free(fixed);
}

void aorta_json_append(aorta_json_t *array, aorta_json_t *value)
{
    json_object_array_add(array, value);
}

aorta_json_t *aorta_json_ref(aorta_json_t *value)
{
    return json_object_get(value);
}

void aorta_json_free(aorta_json_t *value)
{
    json_object_put(value);
}

aorta_json_type_t aorta_json_type(const aorta_json_t *value)
{
    switch (json_object_get_type(value)) {
    case json_type_boolean:
        return AORTA_JSON_BOOL;
    case json_type_int:
        return AORTA_JSON_INT;
    case json_type_double:
        return AORTA_JSON_DOUBLE;
    case json_type_string:
        return AORTA_JSON_STRING;
    case json_type_array:
        return AORTA_JSON_ARRAY;
    case json_type_object:
        return AORTA_JSON_OBJECT;
    case json_type_null:
    default:
        return AORTA_JSON_NULL;
    }
}

aorta_json_t *aorta_json_get(const aorta_json_t *obj, const char *key)
{
    struct json_object *member = NULL;
    if (!json_object_is_type(obj, json_type_object))
        return NULL;
    return json_object_object_get_ex(obj, key, &member) ? member : NULL;
}

int aorta_json_has(const aorta_json_t *obj, const char *key)
{
    return json_object_is_type(obj, json_type_object)
        && json_object_object_get_ex(obj, key, NULL);
}

const char *aorta_json_get_string_len(const aorta_json_t *value, size_t *len)
{
    *len = 0;
    if (!json_object_is_type(value, json_type_string))
        return NULL;
    int n = json_object_get_string_len((aorta_json_t *)value);
    *len = n > 0 ? (size_t)n : 0;
    return json_object_get_string((aorta_json_t *)value);
}

const char *aorta_json_get_string(const aorta_json_t *value)
{
    return json_object_is_type(value, json_type_string) ? json_object_get_string((aorta_json_t *)value)
                                                        : NULL;
}

int64_t aorta_json_get_int(const aorta_json_t *value)
{
    return json_object_get_int64(value);
}

double aorta_json_get_double(const aorta_json_t *value)
{
    return json_object_get_double(value);
}

int aorta_json_get_bool(const aorta_json_t *value)
{
    return json_object_get_boolean(value);
}

size_t aorta_json_length(const aorta_json_t *array)
{
    return json_object_is_type(array, json_type_array) ? json_object_array_length(array) : 0;
}

aorta_json_t *aorta_json_at(const aorta_json_t *array, size_t index)
{
    return json_object_is_type(array, json_type_array) ? json_object_array_get_idx(array, index)
                                                       : NULL;
}

size_t aorta_json_object_count(const aorta_json_t *obj)
{
    return json_object_is_type(obj, json_type_object) ? (size_t)json_object_object_length(obj) : 0;
}

void aorta_json_foreach(const aorta_json_t *obj,
                        int (*fn)(const char *key, aorta_json_t *value, void *user), void *user)
{
    if (!json_object_is_type(obj, json_type_object))
        return;
    struct json_object_iterator it = json_object_iter_begin((aorta_json_t *)obj);
    struct json_object_iterator end = json_object_iter_end(obj);
    while (!json_object_iter_equal(&it, &end)) {
        if (fn(json_object_iter_peek_name(&it), json_object_iter_peek_value(&it), user))
            return;
        json_object_iter_next(&it);
    }
}

char *aorta_json_dump(const aorta_json_t *value, int pretty)
{
    int flags = JSON_C_TO_STRING_NOSLASHESCAPE
              | (pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN);
    return aorta_xstrdup(json_object_to_json_string_ext((aorta_json_t *)value, flags));
}

int aorta_json_write_file(const char *path, const aorta_json_t *value)
{
    return aorta_json_write_file_at(AT_FDCWD, path, value);
}

int aorta_json_write_file_at(int dir_fd, const char *name, const aorta_json_t *value)
{
    char *dumped = aorta_json_dump(value, 1);
    char *text = aorta_xasprintf("%s\n", dumped);
    int status = aorta_write_file_atomic_at(dir_fd, name, text, strlen(text));
    int saved = errno;
    free(text);
    free(dumped);
    errno = saved;
    return status;
}

aorta_json_t *aorta_json_parse(const char *text, size_t len, int max_depth)
{
    return aorta_json_parse_strict(text, len, max_depth, 0);
}

aorta_json_t *aorta_json_parse_strict(const char *text, size_t len, int max_depth, int strict)
{
    struct json_tokener *tokener = json_tokener_new_ex(max_depth);
    if (!tokener)
        return NULL;
    if (strict)
        json_tokener_set_flags(tokener, JSON_TOKENER_STRICT);
    aorta_json_t *value = json_tokener_parse_ex(tokener, text, (int)len);
    enum json_tokener_error error = json_tokener_get_error(tokener);
    /* The whole text must be one value (trailing whitespace allowed). */
    if (error == json_tokener_success) {
        size_t used = json_tokener_get_parse_end(tokener);
        for (; used < len; used++)
            if (text[used] != ' ' && text[used] != '\t' && text[used] != '\r'
                && text[used] != '\n')
                break;
        if (used != len) {
            json_object_put(value);
            value = NULL;
        }
    } else {
        json_object_put(value);
        value = NULL;
    }
    json_tokener_free(tokener);
    return value;
}

aorta_json_t *aorta_json_read_file(const char *path, size_t max_bytes, int max_depth)
{
    return aorta_json_read_file_at(AT_FDCWD, path, max_bytes, max_depth);
}

aorta_json_t *aorta_json_read_file_at(int dir_fd, const char *name, size_t max_bytes,
                                      int max_depth)
{
    size_t len;
    char *text = aorta_read_file_at(dir_fd, name, max_bytes, &len);
    if (!text)
        return NULL;
    aorta_json_t *value = aorta_json_parse(text, len, max_depth);
    free(text);
    return value;
}
