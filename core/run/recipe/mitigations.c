/* SPDX-License-Identifier: MIT */
/* mitigations.c - named variable bundles: 'none', inline, sidecars. */
#include "config.h"

#include "recipe/mitigations.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "sys/files.h"
#include "sys/json.h"
#include "keyindex.h"
#include "sys/quote.h"
#include "sys/suggest.h"
#include "xalloc.h"

/* Like a recipe (1 MiB): mitigations are a few variables each. */
#define SIDECAR_MAX_BYTES (1u << 20)
#define SIDECAR_MAX_DEPTH 64

typedef struct mitigation {
    char *name;
    aorta_env_t *vars;
    char *source;
} mitigation_t;

struct ar_mitigations {
    mitigation_t *items;
    size_t count;
    size_t capacity;
    ar_keyindex_t index;  /* name -> position in items: a sidecar may define many */
    aorta_env_t *none;
};

ar_mitigations_t *ar_mitigations_new(void)
{
    ar_mitigations_t *table = ar_xcalloc(1, sizeof *table);
    table->none = aorta_env_new();
    return table;
}

void ar_mitigations_free(ar_mitigations_t *table)
{
    if (!table)
        return;
    for (size_t i = 0; i < table->count; i++) {
        free(table->items[i].name);
        aorta_env_free(table->items[i].vars);
        free(table->items[i].source);
    }
    free(table->items);
    ar_keyindex_clear(&table->index);
    aorta_env_free(table->none);
    free(table);
}

static const mitigation_t *find(const ar_mitigations_t *table, const char *name)
{
    size_t position = ar_keyindex_find(&table->index, name);
    return position == AR_KEYINDEX_NONE ? NULL : &table->items[position];
}

const aorta_env_t *ar_mitigations_find(const ar_mitigations_t *table, const char *name)
{
    if (strcmp(name, "none") == 0)
        return table->none;
    const mitigation_t *found = find(table, name);
    return found ? found->vars : NULL;
}

static int same_vars(const aorta_env_t *a, const aorta_env_t *b)
{
    if (aorta_env_count(a) != aorta_env_count(b))
        return 0;
    for (size_t i = 0; i < aorta_env_count(a); i++) {
        const char *other = aorta_env_get(b, aorta_env_name_at(a, i));
        if (!other || strcmp(other, aorta_env_value_at(a, i)) != 0)
            return 0;
    }
    return 1;
}

int ar_mitigations_define(ar_mitigations_t *table, const char *name, aorta_env_t *vars,
                             const char *source, char **error)
{
    char *quoted = ar_repr_str(name);
    *error = NULL;
    if (strcmp(name, "none") == 0) {
        *error = ar_xstrdup("'none' is built in (no variables) and cannot be redefined");
    } else if (!name[0]) {
        *error = ar_xstrdup("a mitigation name must not be empty");
    } else {
        for (size_t i = 0; i < aorta_env_count(vars) && !*error; i++) {
            const char *var = aorta_env_name_at(vars, i);
            if (!var[0] || strchr(var, '=')) {
                char *text = ar_repr_str(var);
                *error = ar_xasprintf("mitigation %s: %s is not a variable name (empty, or "
                                         "holds '=')",
                                         quoted, text);
                free(text);
            }
        }
    }
    const mitigation_t *before = *error ? NULL : find(table, name);
    if (before && !same_vars(before->vars, vars))
        *error = ar_xasprintf("mitigation %s is defined twice, with different variables: "
                                 "in %s and in %s",
                                 quoted, before->source, source);
    free(quoted);
    if (*error || before) {
        aorta_env_free(vars);
        return *error ? -1 : 0;
    }
    ar_xgrow((void **)&table->items, &table->capacity, table->count + 1,
                sizeof *table->items);
    mitigation_t *item = &table->items[table->count++];
    item->name = ar_xstrdup(name);
    item->vars = vars;
    item->source = ar_xstrdup(source);
    ar_keyindex_add(&table->index, item->name, table->count - 1);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Sidecar files                                                             */
/* ------------------------------------------------------------------------ */

static const char *json_what(const ar_json_t *value)
{
    switch (ar_json_type(value)) {
    case AR_JSON_NULL:
        return "null";
    case AR_JSON_BOOL:
        return "a boolean";
    case AR_JSON_INT:
    case AR_JSON_DOUBLE:
        return "a number";
    case AR_JSON_STRING:
        return "a string";
    case AR_JSON_ARRAY:
        return "an array";
    default:
        return "an object";
    }
}

/* json-c reports neither where a value is nor a duplicate key, cuts keys at
 * a NUL and passes escaped lone surrogates through: a scan of the text
 * (after json-c accepted its syntax) finds those with their line:column,
 * and records where each value of "mitigations" is for the type errors. */
typedef struct position {
    int line, column;
} position_t;

typedef struct scan_frame {
    int is_object;
    int depth_kind;           /* 1 root, 2 "mitigations", 3 one mitigation, 0 other */
    ar_keyindex_t keys;    /* decoded key -> position in names */
    char **names;
    position_t *at;
    size_t count, capacity;
} scan_frame_t;

typedef struct scan {
    const char *text;
    size_t len, i;
    int line, column;         /* of text[i] */
    const char *path;
    char *error;
    position_t version_at, mitigations_at;
    position_t *values2, *values3; /* values in "mitigations" and in each mitigation */
    size_t count2, count3, cap2, cap3;
} scan_t;

static void advance(scan_t *s)
{
    unsigned char c = (unsigned char)s->text[s->i++];
    if (c == '\n') {
        s->line++;
        s->column = 1;
    } else if ((c & 0xc0) != 0x80) {
        s->column++; /* columns count characters, as the recipe's do */
    }
}

static void scan_fail(scan_t *s, position_t at, const char *message)
{
    if (!s->error)
        s->error = ar_xasprintf("%s:%d:%d: %s", s->path, at.line, at.column, message);
}

static unsigned hex4(const char *p)
{
    unsigned value = 0;
    for (int k = 0; k < 4; k++) {
        char c = p[k];
        value = value * 16
              + (unsigned)(c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                                            : c - 'A' + 10);
    }
    return value;
}

static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The string at s->i (its opening quote), decoded; NULL after an error. */
static char *scan_string(scan_t *s)
{
    position_t at = {s->line, s->column};
    advance(s);
    char *out = ar_xmalloc(s->len - s->i + 1); /* never longer than its text */
    size_t n = 0;
    while (s->i < s->len && s->text[s->i] != '"') {
        char c = s->text[s->i];
        if (c == '\0') {
            scan_fail(s, at, "a string holds a NUL character, which cannot be used");
            free(out);
            return NULL;
        }
        if (c != '\\') {
            out[n++] = c;
            advance(s);
            continue;
        }
        char e = s->text[s->i + 1];
        advance(s);
        advance(s);
        if (e != 'u') {
            out[n++] = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r'
                     : e == 't' ? '\t' : e;
            continue;
        }
        unsigned cp = hex4(s->text + s->i);
        for (int k = 0; k < 4; k++)
            advance(s);
        if (cp >= 0xd800 && cp < 0xdc00 && s->i + 6 <= s->len && s->text[s->i] == '\\'
            && s->text[s->i + 1] == 'u') {
            unsigned low = hex4(s->text + s->i + 2);
            if (low >= 0xdc00 && low < 0xe000) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                for (int k = 0; k < 6; k++)
                    advance(s);
            }
        }
        if (cp >= 0xd800 && cp < 0xe000) {
            scan_fail(s, at, "a string holds a lone surrogate escape, which is not UTF-8");
            free(out);
            return NULL;
        }
        if (cp == 0) {
            scan_fail(s, at, "a string holds a NUL character (\\u0000), which cannot be used");
            free(out);
            return NULL;
        }
        n += put_utf8(out + n, cp);
    }
    advance(s); /* the closing quote */
    out[n] = '\0';
    return out;
}

static void skip_space(scan_t *s)
{
    while (s->i < s->len && strchr(" \t\r\n", s->text[s->i]) && s->text[s->i])
        advance(s);
}

static void record_value(scan_t *s, const scan_frame_t *frame)
{
    position_t at = {s->line, s->column};
    if (!frame || !frame->is_object || frame->count == 0)
        return;
    const char *key = frame->names[frame->count - 1];
    if (frame->depth_kind == 1 && !strcmp(key, "version"))
        s->version_at = at;
    else if (frame->depth_kind == 1 && !strcmp(key, "mitigations"))
        s->mitigations_at = at;
    else if (frame->depth_kind == 2) {
        ar_xgrow((void **)&s->values2, &s->cap2, s->count2 + 1, sizeof *s->values2);
        s->values2[s->count2++] = at;
    } else if (frame->depth_kind == 3) {
        ar_xgrow((void **)&s->values3, &s->cap3, s->count3 + 1, sizeof *s->values3);
        s->values3[s->count3++] = at;
    }
}

static void frame_clear(scan_frame_t *frame)
{
    ar_keyindex_clear(&frame->keys);
    for (size_t k = 0; k < frame->count; k++)
        free(frame->names[k]);
    free(frame->names);
    free(frame->at);
}

/* The key at s into the object top, or a duplicate refused: 0, or -1
 * (s->error set, or the string could not be read). */
static int scan_key(scan_t *s, scan_frame_t *top)
{
    position_t at = {s->line, s->column};
    char *key = scan_string(s);
    if (!key)
        return -1;
    size_t first = ar_keyindex_find(&top->keys, key);
    if (first != AR_KEYINDEX_NONE) {
        char *quoted = ar_repr_str(key);
        char *message = ar_xasprintf("duplicate key %s (first at line %d, column %d)", quoted,
                                        top->at[first].line, top->at[first].column);
        scan_fail(s, at, message);
        free(message);
        free(quoted);
        free(key);
        return -1;
    }
    ar_xgrow((void **)&top->names, &top->capacity, top->count + 1, sizeof *top->names);
    top->at = ar_xrealloc(top->at, top->capacity * sizeof *top->at);
    top->names[top->count] = key;
    top->at[top->count] = at;
    ar_keyindex_add(&top->keys, key, top->count);
    top->count++;
    return 0;
}

/* Walk text, which json-c parsed: one value, depth at most SIDECAR_MAX_DEPTH. */
static void scan_text(scan_t *s)
{
    scan_frame_t stack[SIDECAR_MAX_DEPTH + 2];
    int depth = 0;
    int expect_value = 1; /* the next token is a value, not a key */
    while (!s->error) {
        skip_space(s);
        if (s->i >= s->len)
            break;
        char c = s->text[s->i];
        scan_frame_t *top = depth ? &stack[depth - 1] : NULL;
        if (c == ',' || c == ':') {
            expect_value = c == ':' || !top->is_object;
            advance(s);
            continue;
        }
        if (c == '\'') {
            /* json-c takes it even when strict; JSON does not. */
            scan_fail(s, (position_t){s->line, s->column},
                      "JSON syntax error: a single-quoted string");
            break;
        }
        if (c == '}' || c == ']') {
            frame_clear(top);
            depth--;
            expect_value = 0;
            advance(s);
            continue;
        }
        if (!expect_value && c == '"') {
            if (scan_key(s, top) != 0)
                break;
            continue;
        }
        record_value(s, top);
        if ((c == '{' || c == '[') && depth == SIDECAR_MAX_DEPTH + 2)
            break; /* json-c refused deeper text already */
        if (c == '{' || c == '[') {
            int kind = 0;
            if (c == '{' && !top)
                kind = 1;
            else if (c == '{' && top && top->depth_kind == 1 && top->count
                     && !strcmp(top->names[top->count - 1], "mitigations"))
                kind = 2;
            else if (c == '{' && top && top->depth_kind == 2)
                kind = 3;
            stack[depth++] = (scan_frame_t){.is_object = c == '{', .depth_kind = kind};
            expect_value = c == '[';
            advance(s);
            continue;
        }
        if (c == '"') {
            char *value = scan_string(s);
            free(value);
        } else {
            while (s->i < s->len && !strchr(",:]} \t\r\n", s->text[s->i]))
                advance(s);
        }
        expect_value = 0;
    }
    while (depth > 0)
        frame_clear(&stack[--depth]);
}

/* The line:column of byte offset in text. */
static position_t position_of(const char *text, size_t offset)
{
    scan_t s = {.text = text, .len = offset, .line = 1, .column = 1};
    while (s.i < offset)
        advance(&s);
    return (position_t){s.line, s.column};
}

typedef struct sidecar {
    ar_mitigations_t *table;
    const char *path;
    const char *name;       /* the mitigation being read */
    aorta_env_t *vars;
    char *error;
    const scan_t *scan;
    size_t next2, next3;    /* the next value positions of the scan */
} sidecar_t;
/* "PATH:LINE:COLUMN" of a value the scan recorded, else "PATH". */
static char *where(const sidecar_t *s, const position_t *at)
{
    return at && at->line ? ar_xasprintf("%s:%d:%d", s->path, at->line, at->column)
                          : ar_xstrdup(s->path);
}

static const position_t *take(const position_t *list, size_t count, size_t *next)
{
    return *next < count ? &list[(*next)++] : NULL;
}

static int read_var(const char *var, ar_json_t *value, void *user)
{
    sidecar_t *s = user;
    const position_t *at = take(s->scan->values3, s->scan->count3, &s->next3);
    if (ar_json_type(value) != AR_JSON_STRING) {
        char *name = ar_repr_str(s->name), *text = ar_repr_str(var);
        char *place = where(s, at);
        s->error = ar_xasprintf("%s: mitigations[%s][%s]: must be a string, got %s", place,
                                   name, text, json_what(value));
        free(place);
        free(name);
        free(text);
        return 1;
    }
    aorta_env_set(s->vars, var, ar_json_get_string(value));
    return 0;
}

static int read_mitigation(const char *name, ar_json_t *value, void *user)
{
    sidecar_t *s = user;
    const position_t *at = take(s->scan->values2, s->scan->count2, &s->next2);
    if (ar_json_type(value) != AR_JSON_OBJECT) {
        char *text = ar_repr_str(name);
        char *place = where(s, at);
        s->error = ar_xasprintf("%s: mitigations[%s]: must be an object of VAR: \"value\", "
                                   "got %s",
                                   place, text, json_what(value));
        free(place);
        free(text);
        return 1;
    }
    s->name = name;
    s->vars = aorta_env_new();
    ar_json_foreach(value, read_var, s);
    if (s->error) {
        aorta_env_free(s->vars);
        return 1;
    }
    char *why = NULL;
    if (ar_mitigations_define(s->table, name, s->vars, s->path, &why) != 0) {
        char *place = where(s, at);
        s->error = ar_xasprintf("%s: %s", place, why);
        free(place);
        free(why);
        return 1;
    }
    return 0;
}

int ar_mitigations_load_file(ar_mitigations_t *table, const char *path, char **error)
{
    static const char SHAPE[] = "{\"version\": 1, \"mitigations\": {NAME: {VAR: \"value\"}}}";
    *error = NULL;
    size_t len = 0;
    char *text = ar_read_user_file(path, SIDECAR_MAX_BYTES, &len);
    if (!text && errno == EINVAL) {
        *error = ar_xasprintf("%s: cannot read the mitigations file: it is %s, not a regular "
                                 "file",
                                 path, ar_path_kind(path));
        return -1;
    }
    if (!text) {
        *error = ar_xasprintf("%s: cannot read the mitigations file: %s", path,
                                 strerror(errno));
        return -1;
    }
    /* Strict UTF-8 first, like the recipe's reader: json-c passes any byte. */
    size_t valid = aorta_utf8_valid_prefix(text, len, NULL, NULL);
    if (valid < len) {
        position_t at = position_of(text, valid);
        *error = ar_xasprintf("%s:%d:%d: JSON syntax error: invalid UTF-8 (byte 0x%02x)", path,
                                 at.line, at.column, (unsigned char)text[valid]);
        free(text);
        return -1;
    }
    /* Strict: the scan below reads only what JSON allows. */
    size_t error_at = 0;
    const char *why = NULL;
    ar_json_t *json = ar_json_parse_where(text, len, SIDECAR_MAX_DEPTH, 1, &error_at, &why);
    scan_t scan = {.text = text, .len = len, .line = 1, .column = 1, .path = path};
    if (json) {
        scan_text(&scan);
    } else if (why) {
        /* Where json-c stopped, as the recipe's errors say it. */
        position_t at = position_of(text, error_at);
        scan.error = ar_xasprintf("%s:%d:%d: JSON syntax error: %s", path, at.line, at.column,
                                     why);
    }
    free(text);
    ar_json_t *version = ar_json_get(json, "version");
    ar_json_t *mitigations = ar_json_get(json, "mitigations");
    sidecar_t s = {table, path, NULL, NULL, NULL, &scan, 0, 0};
    if (scan.error) {
        *error = scan.error;
        scan.error = NULL;
    } else if (ar_json_type(json) != AR_JSON_OBJECT) {
        *error = ar_xasprintf("%s: not a mitigations file: expected a JSON object %s", path,
                                 SHAPE);
    } else if (ar_json_type(version) != AR_JSON_INT || ar_json_get_int(version) != 1) {
        char *place = where(&s, &scan.version_at);
        *error = ar_xasprintf("%s: \"version\" must be 1 (%s)", place, SHAPE);
        free(place);
    } else if (mitigations && ar_json_type(mitigations) != AR_JSON_OBJECT) {
        char *place = where(&s, &scan.mitigations_at);
        *error = ar_xasprintf("%s: \"mitigations\" must be an object (%s), got %s", place,
                                 SHAPE, json_what(mitigations));
        free(place);
    } else if (mitigations) {
        ar_json_foreach(mitigations, read_mitigation, &s);
        *error = s.error;
    }
    free(scan.values2);
    free(scan.values3);
    ar_json_free(json);
    return *error ? -1 : 0;
}

char *ar_mitigations_suggest(const ar_mitigations_t *table, const char *name)
{
    const char **names = ar_xcalloc(table->count + 1, sizeof *names);
    names[0] = "none";
    for (size_t i = 0; i < table->count; i++)
        names[i + 1] = table->items[i].name;
    char *hint = ar_suggest_hint(name, names, table->count + 1);
    free(names);
    return hint;
}
