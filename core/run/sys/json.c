/* SPDX-License-Identifier: MIT */
/* json.c - the core's one layer over json-c. */
#include "config.h"

#include "sys/json.h"

#include <errno.h>
#include <fcntl.h> /* AT_FDCWD */
#include <inttypes.h>
#include <json-c/json.h>
#include <json-c/printbuf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aorta/collector.h"
#include "sys/files.h"
#include "sys/parallel.h"
#include "xalloc.h"

ar_json_t *ar_json_object(void)
{
    return json_object_new_object();
}

ar_json_t *ar_json_array(void)
{
    return json_object_new_array();
}

/* The len bytes of text (NULs may be among them) when they are UTF-8
 * (NULL), else a copy with U+FFFD for each byte that is not, its length in
 * *out_len (when not NULL). */
static char *utf8_or_null_n(const char *text, size_t len, size_t *out_len)
{
    size_t valid = aorta_utf8_valid_prefix(text, len, NULL, NULL);
    if (valid == len)
        return NULL;
    char *out = ar_xmalloc(len * 3 + 1), *cursor = out;
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
    if (out_len)
        *out_len = (size_t)(cursor - out);
    return out;
}

/* text when it is UTF-8, else a copy with U+FFFD for each byte that is not
 * (an argument, an environment variable or a collector's string may hold
 * any byte; json-c writes bytes as they are, and readers decode strictly). */
char *ar_json_utf8_or_null(const char *text)
{
    return utf8_or_null_n(text, strlen(text), NULL);
}

ar_json_t *ar_json_string(const char *text)
{
    char *fixed = ar_json_utf8_or_null(text ? text : "");
    ar_json_t *value = json_object_new_string(fixed ? fixed : text ? text : "");
    free(fixed);
    return value;
}

ar_json_t *ar_json_int(int64_t value)
{
    return json_object_new_int64(value);
}

/* The shortest digits of a short decimal without printing: the first
 * scaling d of |value| by ten whose nearest integer reads back (a division
 * correctly rounded is what reading the decimal gives) has as few places,
 * so as few digits, as any text that reads back, and is the nearest of
 * them.  0, with mantissa (no trailing zeros), its count and the decimal
 * exponent; -1 when value is 0 or needs more than 15 places or 2^52. */
static int short_digits(double value, char *mantissa, size_t *count, int *exponent)
{
    static const double ten[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    double magnitude = fabs(value);
    for (int d = 0; magnitude > 0 && d < 16; d++) {
        double scaled = magnitude * ten[d];
        if (scaled >= 4e15)
            return -1;
        double whole = nearbyint(scaled);
        if (whole == 0 || whole / ten[d] != magnitude)
            continue;
        char reversed[20];
        size_t n = 0;
        for (uint64_t left = (uint64_t)whole; left; left /= 10)
            reversed[n++] = (char)('0' + left % 10);
        *exponent = (int)n - 1 - d;
        size_t first = 0;
        while (first + 1 < n && reversed[first] == '0')
            first++; /* trailing zeros of the digits */
        *count = n - first;
        for (size_t i = 0; i < *count; i++)
            mantissa[i] = reversed[n - 1 - i];
        mantissa[*count] = '\0';
        return 0;
    }
    return -1;
}

/* Whether value printed to precision digits (at digits) reads back. */
static int reads_back(char *digits, size_t size, int precision, double value)
{
    snprintf(digits, size, "%.*e", precision - 1, value);
    return strtod(digits, NULL) == value;
}

/* The shortest digits that read back to value, printed: by bisection, as a
 * precision that reads back implies every larger one does (the closer
 * rounding of p+1 digits is at least as near as the p digits, padded), and
 * 17 always does. */
static void printed_digits(double value, char *mantissa, size_t *count, int *exponent)
{
    char digits[40];
    int low = 1, high = 17, binary_exponent;
    /* What is not a short decimal (a p-value, a difference of means) mostly
     * needs 16 or 17 digits: asked first, they spare the bisection.  Not at
     * a power of two, whose rounding interval is lopsided: there the
     * bisection alone says. */
    if (fabs(frexp(value, &binary_exponent)) != 0.5) {
        if (!reads_back(digits, sizeof digits, 16, value))
            low = 17;
        else if (!reads_back(digits, sizeof digits, 15, value))
            low = high = 16;
        else
            high = 15;
    }
    while (low < high) {
        int mid = (low + high) / 2;
        if (reads_back(digits, sizeof digits, mid, value))
            high = mid;
        else
            low = mid + 1;
    }
    snprintf(digits, sizeof digits, "%.*e", low - 1, value);
    /* digits is "[-]d.ddde[+-]XX": split mantissa digits and exponent. */
    const char *cursor = digits + (digits[0] == '-');
    size_t n = 0;
    for (; *cursor && *cursor != 'e'; cursor++)
        if (*cursor != '.')
            mantissa[n++] = *cursor;
    while (n > 1 && mantissa[n - 1] == '0')
        n--;
    mantissa[n] = '\0';
    *count = n;
    *exponent = atoi(cursor + 1);
}

/* Python's repr(float): the shortest digits that read back to the same
 * double, positional for exponents -4..15, scientific otherwise, and always
 * with a '.' or an exponent.  A kernel table writes hundreds of thousands
 * of these: most are short decimals, found without printing. */
static void format_double(double value, char *out, size_t size)
{
    char mantissa[20];
    size_t count = 0;
    int exponent = 0;
    if (short_digits(value, mantissa, &count, &exponent) != 0)
        printed_digits(value, mantissa, &count, &exponent);
    size_t len = 0;
    if (signbit(value))
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

ar_json_t *ar_json_double(double value)
{
    if (!isfinite(value))
        return NULL; /* JSON has no NaN/Infinity; callers never report them */
    char text[64];
    format_double(value, text, sizeof text);
    return json_object_new_double_s(value, text);
}

/* Decimal digits of value at out; their count. */
static size_t put_uint(char *out, uint64_t value)
{
    char digits[20];
    size_t count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    for (size_t i = 0; i < count; i++)
        out[i] = digits[count - 1 - i];
    return count;
}

/* What json-c writes for an int64 ("%" PRId64). */
static size_t put_int(char *out, int64_t value)
{
    if (value >= 0)
        return put_uint(out, (uint64_t)value);
    out[0] = '-';
    return 1 + put_uint(out + 1, 0 - (uint64_t)value);
}

#define MICRO_TEXT_MAX 400

/* ar_json_micro()'s text of a finite value at out (MICRO_TEXT_MAX
 * bytes) and the double it stands for in *rounded; its length, or 0 when
 * it does not fit. */
static size_t micro_text(double value, char *out, double *rounded)
{
    size_t len;
    double scaled = round(fabs(value) * 1e6);
    if (scaled < 9e15) {
        *rounded = copysign(scaled / 1e6, value) + 0.0;
        /* Integer digits: printf's %f takes the multi-precision path, and
         * a run writes a million of these. */
        uint64_t micro = (uint64_t)scaled;
        len = 0;
        if (value < 0)
            out[len++] = '-';
        len += put_uint(out + len, micro / 1000000u);
        out[len++] = '.';
        unsigned fraction = (unsigned)(micro % 1000000u);
        for (unsigned scale = 100000; scale; scale /= 10)
            out[len++] = (char)('0' + fraction / scale % 10);
    } else {
        int printed = snprintf(out, MICRO_TEXT_MAX, "%.6f", value);
        if (printed <= 0 || (size_t)printed >= MICRO_TEXT_MAX)
            return 0;
        len = (size_t)printed;
        *rounded = NAN; /* read back below */
    }
    while (len > 2 && out[len - 1] == '0' && out[len - 2] != '.')
        len--;
    out[len] = '\0';
    if (!strcmp(out, "-0.0")) {
        strcpy(out, "0.0");
        len = 3;
    }
    if (isnan(*rounded))
        *rounded = strtod(out, NULL);
    return len;
}

ar_json_t *ar_json_micro(double value)
{
    if (!isfinite(value))
        return NULL;
    char text[MICRO_TEXT_MAX];
    double rounded;
    if (!micro_text(value, text, &rounded))
        return ar_json_double(value);
    return json_object_new_double_s(rounded, text);
}

ar_json_t *ar_json_bool(int value)
{
    return json_object_new_boolean(value ? 1 : 0);
}

ar_json_t *ar_json_strings(char *const *items, size_t count)
{
    ar_json_t *array = json_object_new_array_ext((int)count);
    for (size_t i = 0; i < count; i++)
        json_object_array_add(array, ar_json_string(items[i]));
    return array;
}

ar_json_t *ar_json_strings_n(char *const *items, const size_t *lengths, size_t count)
{
    ar_json_t *array = json_object_new_array_ext((int)count);
    for (size_t i = 0; i < count; i++) {
        if (!lengths) {
            json_object_array_add(array, ar_json_string(items[i]));
            continue;
        }
        /* Repaired as a single string is (a NUL kept): a list item with
         * 0xff made the whole trial JSON invalid UTF-8. */
        size_t len = lengths[i];
        char *fixed = utf8_or_null_n(items[i], len, &len);
        json_object_array_add(array, json_object_new_string_len(fixed ? fixed : items[i],
                                                                (int)len));
        free(fixed);
    }
    return array;
}

void ar_json_set(ar_json_t *obj, const char *key, ar_json_t *value)
{
    char *fixed = ar_json_utf8_or_null(key);
    json_object_object_add(obj, fixed ? fixed : key, value);
    free(fixed);
}

void ar_json_remove(ar_json_t *obj, const char *key)
{
    if (json_object_is_type(obj, json_type_object))
        json_object_object_del(obj, key);
}

void ar_json_set_literal(ar_json_t *obj, const char *key, ar_json_t *value)
{
    json_object_object_add_ex(obj, key, value, JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

void ar_json_append(ar_json_t *array, ar_json_t *value)
{
    json_object_array_add(array, value);
}

ar_json_t *ar_json_ref(ar_json_t *value)
{
    return json_object_get(value);
}

void ar_json_free(ar_json_t *value)
{
    json_object_put(value);
}

ar_json_type_t ar_json_type(const ar_json_t *value)
{
    switch (json_object_get_type(value)) {
    case json_type_boolean:
        return AR_JSON_BOOL;
    case json_type_int:
        return AR_JSON_INT;
    case json_type_double:
        return AR_JSON_DOUBLE;
    case json_type_string:
        return AR_JSON_STRING;
    case json_type_array:
        return AR_JSON_ARRAY;
    case json_type_object:
        return AR_JSON_OBJECT;
    case json_type_null:
    default:
        return AR_JSON_NULL;
    }
}

ar_json_t *ar_json_get(const ar_json_t *obj, const char *key)
{
    struct json_object *member = NULL;
    if (!json_object_is_type(obj, json_type_object))
        return NULL;
    return json_object_object_get_ex(obj, key, &member) ? member : NULL;
}

int ar_json_has(const ar_json_t *obj, const char *key)
{
    return json_object_is_type(obj, json_type_object)
        && json_object_object_get_ex(obj, key, NULL);
}

const char *ar_json_get_string_len(const ar_json_t *value, size_t *len)
{
    *len = 0;
    if (!json_object_is_type(value, json_type_string))
        return NULL;
    int n = json_object_get_string_len((ar_json_t *)value);
    *len = n > 0 ? (size_t)n : 0;
    return json_object_get_string((ar_json_t *)value);
}

const char *ar_json_get_string(const ar_json_t *value)
{
    return json_object_is_type(value, json_type_string) ? json_object_get_string((ar_json_t *)value)
                                                        : NULL;
}

int64_t ar_json_get_int(const ar_json_t *value)
{
    return json_object_get_int64(value);
}

double ar_json_get_double(const ar_json_t *value)
{
    return json_object_get_double(value);
}

int ar_json_get_bool(const ar_json_t *value)
{
    return json_object_get_boolean(value);
}

size_t ar_json_length(const ar_json_t *array)
{
    return json_object_is_type(array, json_type_array) ? json_object_array_length(array) : 0;
}

ar_json_t *ar_json_at(const ar_json_t *array, size_t index)
{
    return json_object_is_type(array, json_type_array) ? json_object_array_get_idx(array, index)
                                                       : NULL;
}

size_t ar_json_object_count(const ar_json_t *obj)
{
    return json_object_is_type(obj, json_type_object) ? (size_t)json_object_object_length(obj) : 0;
}

void ar_json_foreach(const ar_json_t *obj,
                        int (*fn)(const char *key, ar_json_t *value, void *user), void *user)
{
    if (!json_object_is_type(obj, json_type_object))
        return;
    struct json_object_iterator it = json_object_iter_begin((ar_json_t *)obj);
    struct json_object_iterator end = json_object_iter_end(obj);
    while (!json_object_iter_equal(&it, &end)) {
        if (fn(json_object_iter_peek_name(&it), json_object_iter_peek_value(&it), user))
            return;
        json_object_iter_next(&it);
    }
}

static int dump_flags(int pretty)
{
    return JSON_C_TO_STRING_NOSLASHESCAPE
         | (pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN);
}

char *ar_json_dump(const ar_json_t *value, int pretty)
{
    return ar_xstrdup(json_object_to_json_string_ext((ar_json_t *)value, dump_flags(pretty)));
}

int ar_json_print(FILE *out, const ar_json_t *value, int pretty)
{
    size_t len;
    const char *dumped = ar_xcheck((void *)json_object_to_json_string_length(
        (ar_json_t *)value, dump_flags(pretty), &len));
    return fwrite(dumped, 1, len, out) == len && putc('\n', out) != EOF ? 0 : -1;
}

static void free_one(size_t index, void *state, void *user)
{
    (void)state;
    json_object_put(((ar_json_t **)user)[index]);
}

void ar_json_free_spread(ar_json_t *value, const char *key)
{
    /* Each element referenced once more, the rest freed; then the
     * elements, each on one thread (json-c's counts are not atomic, but no
     * two threads touch one element). */
    ar_json_t *array = json_object_object_get(value, key);
    size_t count = json_object_is_type(array, json_type_array)
                       ? json_object_array_length(array) : 0;
    ar_json_t **items = ar_xcalloc(count + 1, sizeof *items);
    for (size_t i = 0; i < count; i++)
        items[i] = json_object_get(json_object_array_get_idx(array, i));
    json_object_put(value);
    ar_parallel_t loop = {.count = count, .per_worker = 256, .item = free_one, .user = items};
    ar_parallel_run(&loop);
    free(items);
}

int ar_json_write_line_at(int dir_fd, const char *name, const ar_json_t *value, int pretty)
{
    size_t len;
    const char *dumped = ar_xcheck((void *)json_object_to_json_string_length(
        (ar_json_t *)value, dump_flags(pretty), &len));
    /* One copy with the newline: the text can be megabytes. */
    char *text = ar_xmalloc(len + 1);
    memcpy(text, dumped, len);
    text[len] = '\n';
    int status = ar_write_file_atomic_at(dir_fd, name, text, len + 1);
    int saved = errno;
    free(text);
    errno = saved;
    return status;
}

int ar_json_write_file(const char *path, const ar_json_t *value)
{
    return ar_json_write_file_at(AT_FDCWD, path, value);
}

int ar_json_write_file_at(int dir_fd, const char *name, const ar_json_t *value)
{
    return ar_json_write_line_at(dir_fd, name, value, 1);
}

/* text as one value through tokener (fresh or reset); NULL on an error. */
/* json-c's tokener over the whole text.  On a syntax error, NULL with
 * *error_at the byte offset where it was found and *why what it is. */
static ar_json_t *parse_with(struct json_tokener *tokener, const char *text, size_t len,
                                size_t *error_at, const char **why)
{
    ar_json_t *value = json_tokener_parse_ex(tokener, text, (int)len);
    enum json_tokener_error error = json_tokener_get_error(tokener);
    size_t used = json_tokener_get_parse_end(tokener);
    *why = NULL;
    /* The whole text must be one value (trailing whitespace allowed). */
    if (error == json_tokener_success) {
        for (; used < len; used++)
            if (text[used] != ' ' && text[used] != '\t' && text[used] != '\r'
                && text[used] != '\n')
                break;
        if (used != len)
            *why = "unexpected text after the JSON value";
    } else if (error == json_tokener_continue) {
        *why = "unexpected end of data";
        used = len;
    } else {
        *why = json_tokener_error_desc(error);
    }
    if (*why) {
        json_object_put(value);
        value = NULL;
        *error_at = used;
    }
    return value;
}

ar_json_t *ar_json_parse(const char *text, size_t len, int max_depth)
{
    return ar_json_parse_strict(text, len, max_depth, 0);
}

ar_json_t *ar_json_parse_strict(const char *text, size_t len, int max_depth, int strict)
{
    size_t at;
    const char *why;
    return ar_json_parse_where(text, len, max_depth, strict, &at, &why);
}

ar_json_t *ar_json_parse_where(const char *text, size_t len, int max_depth, int strict,
                                     size_t *error_at, const char **why)
{
    *error_at = 0;
    *why = "out of memory";
    struct json_tokener *tokener = json_tokener_new_ex(max_depth);
    if (!tokener)
        return NULL;
    if (strict)
        json_tokener_set_flags(tokener, JSON_TOKENER_STRICT);
    ar_json_t *value = parse_with(tokener, text, len, error_at, why);
    json_tokener_free(tokener);
    return value;
}

ar_json_t *ar_json_read_file(const char *path, size_t max_bytes, int max_depth)
{
    return ar_json_read_file_at(AT_FDCWD, path, max_bytes, max_depth);
}

ar_json_t *ar_json_read_file_at(int dir_fd, const char *name, size_t max_bytes,
                                      int max_depth)
{
    size_t len;
    char *text = ar_read_file_at(dir_fd, name, max_bytes, &len);
    if (!text)
        return NULL;
    ar_json_t *value = ar_json_parse(text, len, max_depth);
    free(text);
    return value;
}

struct ar_json_reader {
    struct json_tokener *tokener;
    char *buffer;
    size_t capacity;
};

ar_json_reader_t *ar_json_reader_new(int max_depth)
{
    ar_json_reader_t *reader = ar_xcalloc(1, sizeof *reader);
    reader->tokener = ar_xcheck(json_tokener_new_ex(max_depth));
    return reader;
}

void ar_json_reader_free(ar_json_reader_t *reader)
{
    if (!reader)
        return;
    json_tokener_free(reader->tokener);
    free(reader->buffer);
    free(reader);
}

ar_json_t *ar_json_reader_read_at(ar_json_reader_t *reader, int dir_fd,
                                        const char *name, size_t max_bytes)
{
    size_t len;
    if (ar_read_file_into_at(dir_fd, name, max_bytes, &reader->buffer, &reader->capacity,
                                &len) != 0)
        return NULL;
    json_tokener_reset(reader->tokener);
    size_t at;
    const char *why;
    return parse_with(reader->tokener, reader->buffer, len, &at, &why);
}

/* The writer: json-c's own buffer, and a string object reused to escape
 * each key and string the way json-c escapes them in a tree. */
#define WRITER_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)
#define WRITER_MAX_DEPTH 64

struct ar_json_writer {
    struct printbuf *text;
    ar_json_t *scratch;
    int depth;
    unsigned char has_member[WRITER_MAX_DEPTH];
};

ar_json_writer_t *ar_json_writer_new(void)
{
    ar_json_writer_t *writer = ar_xcalloc(1, sizeof *writer);
    writer->text = ar_xcheck(printbuf_new());
    writer->scratch = ar_xcheck(json_object_new_string(""));
    return writer;
}

void ar_json_writer_free(ar_json_writer_t *writer)
{
    if (!writer)
        return;
    printbuf_free(writer->text);
    json_object_put(writer->scratch);
    free(writer);
}

void ar_json_writer_reset(ar_json_writer_t *writer)
{
    printbuf_reset(writer->text);
    writer->depth = 0;
    writer->has_member[0] = 0;
}

static void append(ar_json_writer_t *writer, const char *text, size_t len)
{
    struct printbuf *buffer = writer->text;
    if (buffer->size - buffer->bpos > (int)len) { /* json-c's printbuf_memappend_fast() */
        memcpy(buffer->buf + buffer->bpos, text, len);
        buffer->bpos += (int)len;
        buffer->buf[buffer->bpos] = '\0';
    } else if (printbuf_memappend(buffer, text, (int)len) < 0) {
        abort(); /* out of memory, as ar_xmalloc() */
    }
}

void ar_json_writer_begin_object(ar_json_writer_t *writer)
{
    append(writer, "{", 1);
    if (writer->depth + 1 >= WRITER_MAX_DEPTH)
        abort(); /* a caller's bug: the files written this way are shallow */
    writer->has_member[++writer->depth] = 0;
}

void ar_json_writer_end_object(ar_json_writer_t *writer)
{
    append(writer, "}", 1);
    writer->depth--;
}

void ar_json_writer_begin_array(ar_json_writer_t *writer)
{
    append(writer, "[", 1);
    if (writer->depth + 1 >= WRITER_MAX_DEPTH)
        abort(); /* a caller's bug, as for an object */
    writer->has_member[++writer->depth] = 0;
}

void ar_json_writer_end_array(ar_json_writer_t *writer)
{
    append(writer, "]", 1);
    writer->depth--;
}

void ar_json_writer_item(ar_json_writer_t *writer)
{
    if (writer->has_member[writer->depth])
        append(writer, ",", 1);
    writer->has_member[writer->depth] = 1;
}

/* text as json-c writes a string of it, quotes included. */
static void put_string(ar_json_writer_t *writer, const char *text, size_t len)
{
    json_object_set_string_len(writer->scratch, text, (int)len);
    size_t escaped_len;
    const char *escaped = json_object_to_json_string_length(writer->scratch, WRITER_FLAGS,
                                                            &escaped_len);
    append(writer, escaped, escaped_len);
}

#define BYTES(c) (0x0101010101010101ULL * (uint64_t)(c))
#define HIGH BYTES(0x80)

/* Whether some byte of x is below n (n <= 0x80): the classic test, exact
 * about whether any is (x - n borrows into the high bit of such a byte). */
static uint64_t has_below(uint64_t x, unsigned n)
{
    return (x - BYTES(n)) & ~x & HIGH;
}

/* Whether some byte of word is a control, '"', '\\' or '/' (a byte equal
 * to c is a zero byte of word ^ c). */
static int word_needs_escape(uint64_t word)
{
    return (has_below(word, 0x20) | has_below(word ^ BYTES('"'), 1)
            | has_below(word ^ BYTES('\\'), 1) | has_below(word ^ BYTES('/'), 1)) != 0;
}

/* Whether text is ASCII with no byte any JSON writer escapes (a control,
 * '"', '\\', '/'): json-c would copy it as it is. */
static int plain_ascii(const char *text, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, text + i, 8);
        if ((word & HIGH) || word_needs_escape(word))
            return 0;
    }
    for (; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '/')
            return 0;
    }
    return 1;
}

/* text (UTF-8 fixed as ar_json_string() fixes it) as a JSON string. */
static void put_text(ar_json_writer_t *writer, const char *text)
{
    size_t len = strlen(text);
    if (plain_ascii(text, len)) { /* nearly every name: copied here */
        append(writer, "\"", 1);
        append(writer, text, len);
        append(writer, "\"", 1);
    } else if (aorta_utf8_valid_prefix(text, len, NULL, NULL) == len) {
        put_string(writer, text, len);
    } else {
        char *fixed = ar_json_utf8_or_null(text);
        put_string(writer, fixed, strlen(fixed));
        free(fixed);
    }
}

void ar_json_writer_key(ar_json_writer_t *writer, const char *key)
{
    if (writer->has_member[writer->depth])
        append(writer, ",", 1);
    writer->has_member[writer->depth] = 1;
    put_text(writer, key);
    append(writer, ":", 1);
}

void ar_json_writer_string(ar_json_writer_t *writer, const char *text)
{
    put_text(writer, text ? text : "");
}

void ar_json_writer_int(ar_json_writer_t *writer, int64_t value)
{
    char text[24];
    append(writer, text, put_int(text, value));
}

void ar_json_writer_micro(ar_json_writer_t *writer, double value)
{
    char text[MICRO_TEXT_MAX];
    double rounded;
    size_t len = isfinite(value) ? micro_text(value, text, &rounded) : 0;
    if (len) {
        append(writer, text, len);
        return;
    }
    ar_json_t *json = ar_json_micro(value); /* NULL (null) or the repr */
    ar_json_writer_value(writer, json);
    ar_json_free(json);
}

void ar_json_writer_null(ar_json_writer_t *writer)
{
    append(writer, "null", 4);
}

void ar_json_writer_value(ar_json_writer_t *writer, const ar_json_t *value)
{
    size_t len;
    const char *text = json_object_to_json_string_length((ar_json_t *)value, WRITER_FLAGS,
                                                         &len);
    append(writer, text, len);
}

int ar_json_writer_write_at(ar_json_writer_t *writer, int dir_fd, const char *name)
{
    append(writer, "\n", 1);
    int status = ar_update_file_at(dir_fd, name, writer->text->buf,
                                            (size_t)printbuf_length(writer->text));
    writer->text->buf[--writer->text->bpos] = '\0';
    return status;
}

int ar_json_key_is_kept(const char *key)
{
    size_t len = strlen(key);
    return aorta_utf8_valid_prefix(key, len, NULL, NULL) == len;
}

const char *ar_json_writer_text(const ar_json_writer_t *writer, size_t *len)
{
    *len = (size_t)printbuf_length(writer->text);
    return writer->text->buf;
}
