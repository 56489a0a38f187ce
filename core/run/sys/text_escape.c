/* SPDX-License-Identifier: MIT */
/* text_escape.c - names for people (text_escape.h): one pass over the
 * text in units, a code point decoded strictly (no overlong form, no
 * surrogate, nothing past U+10FFFF) or one invalid byte, each written as
 * itself or as its visible escape, then by the format's own rule. */
#include "config.h"

#include "sys/text_escape.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* One unit at s: its length, *cp the code point or -1 for an invalid
 * byte. */
static size_t next_unit(const unsigned char *s, long *cp)
{
    static const long min[5] = {0, 0, 0x80, 0x800, 0x10000};
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3
               : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0) {
        *cp = -1;
        return 1;
    }
    long value = len == 1 ? s[0] : s[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = -1;
            return 1;
        }
        value = value << 6 | (s[i] & 0x3F);
    }
    if (value < min[len] || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) {
        *cp = -1;
        return 1;
    }
    *cp = value;
    return len;
}

static int is_bidi(long cp)
{
    return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E)
        || (cp >= 0x2066 && cp <= 0x2069);
}

/* The visible escape of a unit into buf (at least 8 bytes), or 0 when it
 * shows as itself. */
static size_t visible(char *buf, long cp, unsigned char byte)
{
    if (cp == '\t' || cp == '\n' || cp == '\r') {
        buf[0] = '\\';
        buf[1] = cp == '\t' ? 't' : cp == '\n' ? 'n' : 'r';
        buf[2] = '\0';
        return 2;
    }
    if (cp < 0)
        return (size_t)snprintf(buf, 8, "\\x%02x", byte);
    if (cp < 0x20 || cp == 0x7F)
        return (size_t)snprintf(buf, 8, "\\x%02lx", cp);
    if ((cp >= 0x80 && cp <= 0x9F) || is_bidi(cp) || cp == 0x2028 || cp == 0x2029)
        return (size_t)snprintf(buf, 8, "\\u%04lx", cp);
    return 0;
}

/* The text's units as written by put, which gets each unit's bytes, its
 * visible escape (or NULL) and where it stands in the text. */
typedef void (*unit_fn)(FILE *out, const char *text, size_t at, size_t len,
                        const char *escape);

static void each_unit(FILE *out, const char *text, unit_fn put)
{
    if (!text)
        return;
    const unsigned char *s = (const unsigned char *)text;
    for (size_t at = 0; s[at];) {
        long cp;
        size_t len = next_unit(s + at, &cp);
        char escape[8];
        put(out, text, at, len, visible(escape, cp, s[at]) ? escape : NULL);
        at += len;
    }
}

static char *to_string(void (*put)(FILE *, const char *), const char *text)
{
    char *result = NULL;
    size_t len = 0;
    FILE *out = ar_xcheck(open_memstream(&result, &len));
    put(out, text);
    fclose(out);
    return result;
}

static void text_unit(FILE *out, const char *text, size_t at, size_t len, const char *escape)
{
    if (escape)
        fputs(escape, out);
    else
        fwrite(text + at, 1, len, out);
}

void ar_text_put(FILE *out, const char *text)
{
    each_unit(out, text, text_unit);
}

char *ar_text_escape(const char *text)
{
    return to_string(ar_text_put, text);
}

size_t ar_text_escape_into(char *buf, size_t size, const char *text)
{
    const unsigned char *s = (const unsigned char *)(text ? text : "");
    size_t n = 0;
    for (size_t at = 0; s[at];) {
        long cp;
        size_t len = next_unit(s + at, &cp);
        char escape[8];
        size_t shown = visible(escape, cp, s[at]);
        if (n + (shown ? shown : len) + 1 > size)
            break;
        memcpy(buf + n, shown ? escape : (const char *)s + at, shown ? shown : len);
        n += shown ? shown : len;
        at += len;
    }
    buf[n] = '\0';
    return n;
}

static int is_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* One ASCII character of Markdown inline text: a backslash escape where
 * all three renderers take one, an entity where one of them does not. */
static const char *md_char(const char *text, size_t at)
{
    char c = text[at], next = text[at + 1];
    switch (c) {
    case '\\': return "\\\\";
    case '`': return "\\`";
    case '*': return "\\*";
    case '[': return "\\[";
    case ']': return "\\]";
    case '|': return "\\|";
    case '#': return "\\#";
    case '_': return at > 0 && is_alnum(text[at - 1]) && is_alnum(next) ? NULL : "\\_";
    case '-': return next == '-' ? "\\-" : NULL; /* pandoc's dashes */
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '&': return "&amp;";
    case '$': return "&#36;";
    case '~': return "&#126;";
    case '^': return "&#94;";
    default: return NULL;
    }
}

static void md_unit(FILE *out, const char *text, size_t at, size_t len, const char *escape)
{
    if (escape) {
        fputc('\\', out); /* the escape's backslash, itself escaped */
        fputs(escape, out);
        return;
    }
    const char *md = len == 1 ? md_char(text, at) : NULL;
    if (md)
        fputs(md, out);
    else
        fwrite(text + at, 1, len, out);
}

void ar_md_put(FILE *out, const char *text)
{
    each_unit(out, text, md_unit);
}

char *ar_md_escape(const char *text)
{
    return to_string(ar_md_put, text);
}

void ar_md_code_put(FILE *out, const char *text)
{
    char *shown = ar_text_escape(text ? text : "");
    size_t longest = 0, run = 0, len = strlen(shown);
    for (size_t i = 0; i < len; i++) {
        run = shown[i] == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    /* A space inside each fence where the text begins or ends with a
     * backtick, or would lose its own outer spaces. */
    int pad = len == 0 || shown[0] == '`' || shown[len - 1] == '`'
           || (shown[0] == ' ' && shown[len - 1] == ' ');
    for (size_t i = 0; i <= longest; i++)
        fputc('`', out);
    fputs(pad ? " " : "", out);
    fputs(shown, out);
    fputs(pad ? " " : "", out);
    for (size_t i = 0; i <= longest; i++)
        fputc('`', out);
    free(shown);
}

char *ar_md_code(const char *text)
{
    return to_string(ar_md_code_put, text);
}

static void html_unit(FILE *out, const char *text, size_t at, size_t len, const char *escape)
{
    if (escape) {
        fputs(escape, out);
        return;
    }
    const char *entity = NULL;
    switch (text[at]) {
    case '<': entity = "&lt;"; break;
    case '>': entity = "&gt;"; break;
    case '&': entity = "&amp;"; break;
    case '"': entity = "&quot;"; break;
    case '\'': entity = "&#39;"; break;
    default: break;
    }
    if (entity)
        fputs(entity, out);
    else
        fwrite(text + at, 1, len, out);
}

void ar_html_put(FILE *out, const char *text)
{
    each_unit(out, text, html_unit);
}

/* XML 1.0 forbids U+FFFE and U+FFFF (Char production); the visible escapes
 * already cover the C0 controls and the surrogates (invalid UTF-8). */
static void xml_unit(FILE *out, const char *text, size_t at, size_t len, const char *escape)
{
    const unsigned char *s = (const unsigned char *)text + at;
    if (!escape && len == 3 && s[0] == 0xEF && s[1] == 0xBF && (s[2] == 0xBE || s[2] == 0xBF))
        return;
    html_unit(out, text, at, len, escape);
}

void ar_xml_put(FILE *out, const char *text)
{
    each_unit(out, text, xml_unit);
}
