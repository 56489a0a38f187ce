/* SPDX-License-Identifier: MIT */
/* options.c - the ncu collector's options (docs/collectors/ncu.md):
 * checked and normalised at recipe load, so a wrong one is refused before
 * any trial rather than by ncu in every trial. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ncu.h"

/* Split text at commas and whitespace; the non-empty tokens. */
static size_t split(const char *text, char ***out)
{
    size_t count = 0, cap = 0;
    char **items = NULL;
    const char *p = text ? text : "";
    while (*p) {
        while (*p == ',' || *p == ' ' || *p == '\t')
            p++;
        size_t len = strcspn(p, ", \t");
        if (len) {
            cc_xgrow((void **)&items, &cap, count + 1, sizeof *items);
            items[count++] = cc_xstrndup(p, len);
        }
        p += len;
    }
    *out = items;
    return count;
}

static void free_list(char **items, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(items[i]);
    free(items);
}

/* Whether every byte of text is a letter, a digit or one of extra. */
static int is_word(const char *text, const char *extra)
{
    if (!text[0])
        return 0;
    for (const char *p = text; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
              || strchr(extra, *p)))
            return 0;
    return 1;
}

/* A list option's tokens checked against extra and joined by ','; with
 * first, that token leads and is not repeated.  0, or -1 with err set. */
static int normalise_list(aorta_options_t *options, const char *key, const char *first,
                          const char *extra, const char *what, aorta_error_t *err)
{
    const char *value = aorta_options_get(options, key);
    if (!value)
        return 0;
    char **items;
    size_t count = split(value, &items);
    cc_buf_t joined = {0};
    if (first)
        cc_buf_adds(&joined, first);
    int status = 0;
    for (size_t i = 0; i < count && status == 0; i++) {
        if (!is_word(items[i], extra)) {
            cc_buf_t message = {0};
            cc_buf_add_repr(&message, items[i], strlen(items[i]));
            aorta_error_set(err, "ncu option '%s': %s is not %s", key, message.data, what);
            cc_buf_free(&message);
            status = -1;
        } else if (!first || strcmp(items[i], first) != 0) {
            int seen = 0;
            for (size_t k = 0; k < i; k++)
                seen |= !strcmp(items[k], items[i]);
            if (!seen) {
                if (joined.len)
                    cc_buf_adds(&joined, ",");
                cc_buf_adds(&joined, items[i]);
            }
        }
    }
    if (status == 0 && joined.len)
        aorta_options_set(options, key, joined.data);
    else if (status == 0)
        aorta_options_unset(options, key);
    cc_buf_free(&joined);
    free_list(items, count);
    return status;
}

/* A count option: digits only, at least min.  0, or -1 with err set. */
static int check_count(const aorta_options_t *options, const char *key, int min,
                       aorta_error_t *err)
{
    const char *value = aorta_options_get(options, key);
    if (!value)
        return 0;
    size_t len = strlen(value);
    int ok = len > 0 && len < 19 && strspn(value, "0123456789") == len
             && (min == 0 || strtoll(value, NULL, 10) >= min);
    if (!ok)
        aorta_error_set(err, "ncu option '%s': '%s' is not a whole number of at least %d", key,
                        value, min);
    return ok ? 0 : -1;
}

static int check_kernel_name(const aorta_options_t *options, aorta_error_t *err)
{
    const char *value = aorta_options_get(options, "kernel_name");
    if (!value)
        return 0;
    int ok = value[0] != '\0' && strcmp(value, "regex:") != 0;
    for (const char *p = value; ok && *p; p++)
        ok = (unsigned char)*p >= 0x20 && *p != 0x7f;
    if (!ok)
        aorta_error_set(err, "ncu option 'kernel_name': give a kernel's name or "
                             "regex:EXPRESSION, on one line");
    return ok ? 0 : -1;
}

int ncu_validate(aorta_options_t *options, aorta_error_t *err)
{
    aorta_options_t *work = aorta_options_dup(options);
    int status = aorta_options_apply_table(work, ncu_options, "ncu", err);
    if (status == 0)
        status = normalise_list(work, "metrics", NCU_TIME_METRIC, "_.:", "a metric name "
                                "(letters, digits, '_', '.', ':')", err);
    if (status == 0)
        status = normalise_list(work, "section", NULL, "_-", "a section identifier", err);
    if (status == 0 && aorta_options_get(work, "set")
        && !is_word(aorta_options_get(work, "set"), "_-")) {
        aorta_error_set(err, "ncu option 'set': '%s' is not a set identifier",
                        aorta_options_get(work, "set"));
        status = -1;
    }
    if (status == 0)
        status = check_kernel_name(work, err);
    if (status == 0)
        status = check_count(work, "launch_skip", 0, err);
    if (status == 0)
        status = check_count(work, "launch_count", 1, err);
    if (status == 0) {
        aorta_options_clear(options);
        for (size_t i = 0; i < aorta_options_count(work); i++)
            aorta_options_set(options, aorta_options_key_at(work, i),
                              aorta_options_value_at(work, i));
    }
    aorta_options_free(work);
    return status;
}

void ncu_opts_read(const aorta_options_t *options, ncu_opts_t *opts)
{
    memset(opts, 0, sizeof *opts);
    const char *metrics = aorta_options_get(options, "metrics");
    opts->metric_count = split(metrics ? metrics : NCU_TIME_METRIC, &opts->metrics);
    opts->section_count = split(aorta_options_get(options, "section"), &opts->sections);
    opts->set = aorta_options_get(options, "set");
    opts->kernel_name = aorta_options_get(options, "kernel_name");
    opts->launch_skip = aorta_options_get(options, "launch_skip");
    opts->launch_count = aorta_options_get(options, "launch_count");
    opts->replay_mode = aorta_options_get(options, "replay_mode");
    const char *output = aorta_options_get(options, "output");
    opts->output = output ? output : "report";
}

void ncu_opts_free(ncu_opts_t *opts)
{
    free_list(opts->metrics, opts->metric_count);
    free_list(opts->sections, opts->section_count);
    memset(opts, 0, sizeof *opts);
}
