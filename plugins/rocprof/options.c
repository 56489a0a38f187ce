/* SPDX-License-Identifier: MIT */
/* options.c - the rocprof collector's six options (docs/collectors/rocprof.md): which are
 * known, their defaults, how each is normalised, the order the checks run
 * in and upstream's error texts. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rocprof.h"

/* Documented order; the unknown-option message lists them so. */
static const char *const option_keys[] = {
    "trace", "output_format", "stats", "pmc", "kernel_include_regex", "summary_units",
};
#define OPTION_COUNT (sizeof option_keys / sizeof option_keys[0])

/* trace token -> rocprofv3 flag, sorted by token (the order of the
 * "valid: [...]" list in the messages). */
static const char *const trace_tokens[][2] = {
    {"hip", "--hip-trace"},
    {"hip_runtime", "--hip-runtime-trace"},
    {"kernel", "--kernel-trace"},
    {"marker", "--marker-trace"},
    {"memory_copy", "--memory-copy-trace"},
    {"rccl", "--rccl-trace"},
    {"scratch", "--scratch-memory-trace"},
};
#define TRACE_TOKEN_COUNT (sizeof trace_tokens / sizeof trace_tokens[0])

static const char *const output_formats[] = {"csv", "json", "otf2", "pftrace", "rocpd", NULL};
static const char *const summary_units[] = {"msec", "nsec", "sec", "usec", NULL};
static const char *const true_words[] = {"1", "true", "yes", "on", NULL};
static const char *const false_words[] = {"0", "false", "no", "off", NULL};

typedef struct span {
    const char *data;
    size_t len;
} span_t;

/* Bytes of the separator at text (a comma or a character Python's
 * str.split() splits on), or 0.  The whitespace set is libaorta's, reached
 * through aorta_text_strip() over a window the size of one character. */
static size_t separator_at(const char *text, size_t len)
{
    if (text[0] == ',')
        return 1;
    size_t rest = 0;
    const char *after = aorta_text_strip(text, len < 3 ? len : 3, &rest);
    return (size_t)(after - text);
}

/* value.replace(",", " ").split(): the tokens, pointing into value. */
static span_t *split_tokens(const char *value, size_t *count)
{
    size_t len = strlen(value), n = 0;
    span_t *tokens = cc_xmalloc((len / 2 + 1) * sizeof *tokens);
    size_t i = 0;
    while (i < len) {
        size_t sep = separator_at(value + i, len - i);
        if (sep) {
            i += sep;
            continue;
        }
        size_t start = i;
        while (i < len && separator_at(value + i, len - i) == 0)
            i++;
        tokens[n].data = value + start;
        tokens[n].len = i - start;
        n++;
    }
    *count = n;
    return tokens;
}

/* str.lower() as far as it can change the outcome: ASCII letters, and the
 * Kelvin sign, whose lower case is an ASCII 'k'. */
static char *lower(const char *value, size_t len)
{
    char *out = cc_xmalloc(len + 1);
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c == 0xe2 && i + 2 < len && (unsigned char)value[i + 1] == 0x84
            && (unsigned char)value[i + 2] == 0xaa) {
            out[o++] = 'k';
            i += 2;
        } else {
            out[o++] = (char)(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
        }
    }
    out[o] = '\0';
    return out;
}

/* value.strip().lower() */
static char *strip_lower(const char *value)
{
    size_t len = 0;
    const char *stripped = aorta_text_strip(value, strlen(value), &len);
    return lower(stripped, len);
}

static int in_list(const char *const *list, const char *value)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], value) == 0)
            return 1;
    return 0;
}

static size_t list_count(const char *const *list)
{
    size_t n = 0;
    while (list[n])
        n++;
    return n;
}

static int compare_strings(const void *left, const void *right)
{
    return strcmp(*(const char *const *)left, *(const char *const *)right);
}

/* sorted(set(values)): sorts in place and drops repeats; returns the count. */
static size_t sort_unique(const char **values, size_t count)
{
    qsort(values, count, sizeof *values, compare_strings);
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        if (n == 0 || strcmp(values[n - 1], values[i]) != 0)
            values[n++] = values[i];
    return n;
}

static void set_error_text(aorta_error_t *err, cc_buf_t *text)
{
    aorta_error_set(err, "%s", text->data);
    cc_buf_free(text);
}

/* "rocprof option 'KEY': REPR(value) is not one of LIST" */
static void not_one_of(aorta_error_t *err, const char *key, const char *value,
                       const char *const *choices)
{
    cc_buf_t text = {0};
    cc_buf_adds(&text, "rocprof option '");
    cc_buf_adds(&text, key);
    cc_buf_adds(&text, "': ");
    cc_buf_add_repr(&text, value, strlen(value));
    cc_buf_adds(&text, " is not one of ");
    cc_buf_add_repr_list(&text, choices, list_count(choices));
    set_error_text(err, &text);
}

static void trace_valid_list(cc_buf_t *text)
{
    const char *tokens[TRACE_TOKEN_COUNT];
    for (size_t i = 0; i < TRACE_TOKEN_COUNT; i++)
        tokens[i] = trace_tokens[i][0];
    cc_buf_adds(text, "; valid: ");
    cc_buf_add_repr_list(text, tokens, TRACE_TOKEN_COUNT);
}

static const char *trace_flag(const char *token, size_t len)
{
    for (size_t i = 0; i < TRACE_TOKEN_COUNT; i++)
        if (strlen(trace_tokens[i][0]) == len && memcmp(trace_tokens[i][0], token, len) == 0)
            return trace_tokens[i][1];
    return NULL;
}

static int read_trace(const char *value, rocprof_opts_t *opts, aorta_error_t *err)
{
    char *lowered = lower(value, strlen(value));
    size_t count = 0;
    span_t *tokens = split_tokens(lowered, &count);
    int status = 0;
    if (count == 0) {
        cc_buf_t text = {0};
        cc_buf_adds(&text, "rocprof option 'trace': must name at least one domain");
        trace_valid_list(&text);
        set_error_text(err, &text);
        status = -1;
        goto done;
    }
    const char **bad = cc_xmalloc(count * sizeof *bad);
    size_t bad_count = 0;
    for (size_t i = 0; i < count; i++)
        if (!trace_flag(tokens[i].data, tokens[i].len))
            bad[bad_count++] = cc_xstrndup(tokens[i].data, tokens[i].len);
    if (bad_count) {
        cc_buf_t text = {0};
        cc_buf_adds(&text, "rocprof option 'trace': unknown domain(s) ");
        const char **sorted = cc_xmalloc(bad_count * sizeof *sorted);
        memcpy(sorted, bad, bad_count * sizeof *sorted);
        cc_buf_add_repr_list(&text, sorted, sort_unique(sorted, bad_count));
        free(sorted);
        trace_valid_list(&text);
        set_error_text(err, &text);
        for (size_t i = 0; i < bad_count; i++)
            free((char *)bad[i]);
        free(bad);
        status = -1;
        goto done;
    }
    free(bad);
    /* dict.fromkeys(tokens): first occurrence wins. */
    cc_buf_t joined = {0};
    cc_buf_adds(&joined, "");
    for (size_t i = 0; i < count; i++) {
        const char *flag = trace_flag(tokens[i].data, tokens[i].len);
        int seen = 0;
        for (size_t k = 0; k < opts->trace_count; k++)
            seen |= opts->trace_flags[k] == flag;
        if (seen)
            continue;
        if (opts->trace_count)
            cc_buf_adds(&joined, ",");
        cc_buf_add(&joined, tokens[i].data, tokens[i].len);
        opts->trace_flags[opts->trace_count++] = flag;
    }
    opts->trace = joined.data;
done:
    free(tokens);
    free(lowered);
    return status;
}

/* rocprofv3's -f/--output-format: nargs="+", type=str.lower, one of the
 * choices each.  The value is its space-separated list (str.split()), so
 * "csv rocpd" asks for both and "csv,json" is one unknown format; repeats
 * are kept, as argparse keeps them. */
static int read_formats(const char *value, rocprof_opts_t *opts, aorta_error_t *err)
{
    char *lowered = lower(value, strlen(value));
    size_t count = 0, len = strlen(lowered);
    span_t *tokens = cc_xmalloc((len / 2 + 1) * sizeof *tokens);
    for (size_t i = 0; i < len;) {
        size_t rest = 0;
        size_t space = (size_t)(aorta_text_strip(lowered + i, len - i < 3 ? len - i : 3, &rest)
                                - (lowered + i));
        if (space) {
            i += space;
            continue;
        }
        size_t start = i;
        while (i < len && aorta_text_strip(lowered + i, len - i < 3 ? len - i : 3, &rest)
                              == lowered + i)
            i++;
        tokens[count].data = lowered + start;
        tokens[count++].len = i - start;
    }
    int status = 0;
    cc_buf_t joined = {0};
    cc_buf_adds(&joined, "");
    opts->format_tokens = cc_xmalloc((count ? count : 1) * sizeof *opts->format_tokens);
    for (size_t i = 0; i < count && status == 0; i++) {
        char *token = cc_xstrndup(tokens[i].data, tokens[i].len);
        if (!in_list(output_formats, token)) {
            not_one_of(err, "output_format", token, output_formats);
            free(token);
            status = -1;
            break;
        }
        opts->format_tokens[opts->format_count++] = token;
        if (i)
            cc_buf_adds(&joined, " ");
        cc_buf_adds(&joined, token);
    }
    if (status == 0 && count == 0) {
        not_one_of(err, "output_format", "", output_formats); /* nothing to pass */
        status = -1;
    }
    opts->output_format = cc_buf_take(&joined);
    free(tokens);
    free(lowered);
    return status;
}

static int parse_bool(const char *value, int *on)
{
    char *word = strip_lower(value);
    int known = 1;
    if (in_list(true_words, word))
        *on = 1;
    else if (in_list(false_words, word))
        *on = 0;
    else
        known = 0;
    free(word);
    return known ? 0 : -1;
}

static void note_extra(rocprof_opts_t *opts, const char *key)
{
    for (size_t i = 0; i < OPTION_COUNT; i++)
        if (strcmp(option_keys[i], key) == 0)
            opts->extra_order[opts->extra_count++] = option_keys[i];
}

int rocprof_opts_read(const aorta_options_t *given, rocprof_opts_t *opts, aorta_error_t *err)
{
    memset(opts, 0, sizeof *opts);
    if (aorta_options_check_keys(given, rocprof_options, "rocprof", err) != 0)
        return -1;
    /* dict(defaults) updated with the user's values: the optional keys
     * follow the three defaulted ones, in the order given. */
    for (size_t i = 0; i < aorta_options_count(given); i++) {
        const char *key = aorta_options_key_at(given, i);
        if (strcmp(key, "pmc") == 0 || strcmp(key, "kernel_include_regex") == 0
            || strcmp(key, "summary_units") == 0)
            note_extra(opts, key);
    }
    const char *trace = aorta_options_get(given, "trace");
    const char *format = aorta_options_get(given, "output_format");
    const char *stats = aorta_options_get(given, "stats");
    const char *units = aorta_options_get(given, "summary_units");
    const char *regex = aorta_options_get(given, "kernel_include_regex");
    const char *pmc = aorta_options_get(given, "pmc");

    if (read_trace(trace ? trace : "kernel", opts, err) != 0)
        goto fail;

    if (read_formats(format ? format : "csv", opts, err) != 0)
        goto fail;

    opts->stats = cc_xstrdup(stats ? stats : "true");
    if (parse_bool(opts->stats, &opts->stats_on) != 0) {
        cc_buf_t text = {0};
        cc_buf_adds(&text, "rocprof option 'stats': expected a boolean "
                                    "(0/1/false/no/off/on/true/yes), got ");
        cc_buf_add_repr(&text, opts->stats, strlen(opts->stats));
        set_error_text(err, &text);
        goto fail;
    }

    if (units) {
        opts->summary_units = strip_lower(units);
        if (!in_list(summary_units, opts->summary_units)) {
            not_one_of(err, "summary_units", opts->summary_units, summary_units);
            goto fail;
        }
    }

    if (regex) {
        size_t len = 0;
        aorta_text_strip(regex, strlen(regex), &len);
        if (len == 0) {
            aorta_error_set(err, "rocprof option 'kernel_include_regex': must be non-empty");
            goto fail;
        }
        opts->kernel_include_regex = cc_xstrdup(regex);
    }

    if (pmc) {
        size_t count = 0;
        span_t *tokens = split_tokens(pmc, &count);
        if (count == 0) {
            free(tokens);
            aorta_error_set(err, "rocprof option 'pmc': must name at least one counter "
                                 "(comma- or space-separated)");
            goto fail;
        }
        opts->pmc = cc_xstrdup(pmc);
        opts->pmc_tokens = cc_xmalloc(count * sizeof *opts->pmc_tokens);
        for (size_t i = 0; i < count; i++)
            opts->pmc_tokens[i] = cc_xstrndup(tokens[i].data, tokens[i].len);
        opts->pmc_count = count;
        free(tokens);
    }
    return 0;
fail:
    rocprof_opts_free(opts);
    return -1;
}

void rocprof_opts_write(const rocprof_opts_t *opts, aorta_options_t *options)
{
    aorta_options_clear(options);
    aorta_options_set(options, "trace", opts->trace);
    aorta_options_set(options, "output_format", opts->output_format);
    aorta_options_set(options, "stats", opts->stats);
    for (size_t i = 0; i < opts->extra_count; i++) {
        const char *key = opts->extra_order[i];
        const char *value = strcmp(key, "pmc") == 0 ? opts->pmc
                          : strcmp(key, "kernel_include_regex") == 0 ? opts->kernel_include_regex
                                                                     : opts->summary_units;
        aorta_options_set(options, key, value);
    }
}

void rocprof_opts_free(rocprof_opts_t *opts)
{
    free(opts->trace);
    free(opts->output_format);
    for (size_t i = 0; i < opts->format_count; i++)
        free(opts->format_tokens[i]);
    free(opts->format_tokens);
    free(opts->stats);
    free(opts->pmc);
    for (size_t i = 0; i < opts->pmc_count; i++)
        free(opts->pmc_tokens[i]);
    free(opts->pmc_tokens);
    free(opts->kernel_include_regex);
    free(opts->summary_units);
    memset(opts, 0, sizeof *opts);
}
