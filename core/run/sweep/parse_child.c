/* SPDX-License-Identifier: MIT */
/* parse_child.c - a collector's parse() run in a child process
 * (sys/child.c): the child serialises its metrics and kernel table through
 * the core's JSON layer as its reply, a kernel row a line
 * (record/parse_reply.c); the parent checks every member, and relays what
 * the collector printed. */
#include "config.h"

#include "sweep/parse_child.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>

#include "aorta/collector.h"
#include "record/parse_reply.h"
#include "sys/child.h"
#include "sys/diag.h"
#include "sys/knobs.h"
#include "sys/quote.h"
#include "sys/spawn.h"
#include "xalloc.h"

/* A reply larger than this is garbage: five metrics, a short list and the
 * kernel table (tens of thousands of long template names fit). */
#define REPLY_LIMIT (16u << 20)
/* What is kept of what the collector prints (the rest is counted). */
#define STDOUT_KEPT 4096
#define STDERR_KEPT (64u << 10)

double ar_parse_timeout(void)
{
    return ar_knob_seconds("AORTA_PARSE_TIMEOUT", AR_PARSE_TIMEOUT_DEFAULT, 0);
}

/* ASan reserves terabytes of address space: RLIMIT_AS would stop it at once. */
#if defined(__SANITIZE_ADDRESS__)
#define AR_PARSE_MEMORY_LIMITED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AR_PARSE_MEMORY_LIMITED 0
#endif
#endif
#ifndef AR_PARSE_MEMORY_LIMITED
#define AR_PARSE_MEMORY_LIMITED 1
#endif

uint64_t ar_parse_memory_limit(void)
{
    if (!AR_PARSE_MEMORY_LIMITED)
        return 0;
    return ar_knob_size("AORTA_PARSE_MEMORY", AR_PARSE_MEMORY_DEFAULT);
}

static int is_directory(const char *dir)
{
    struct stat st;
    return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* What the collector printed on stdout: one warning. */
static void warn_noise(const char *name, const char *dir, const ar_child_result_t *result)
{
    const char *data = result->output[0];
    size_t len = result->output_len[0], total = result->output_total[0];
    if (total == 0)
        return;
    size_t shown = 0;
    while (shown < len && shown < 120 && data[shown] != '\n')
        shown++;
    int cut = 0;
    shown = aorta_utf8_valid_prefix(data, shown, &cut, NULL);
    char *text = ar_repr(data, shown);
    ar_diag_warn("collect: %s printed %zu byte(s) on stdout while parsing %s (not used): %s%s",
                    name, total, dir, text, shown < total ? "..." : "");
    free(text);
}

/* The collector's stderr: its own "aorta-run: " lines (warnings) as they
 * are, anything else summed up in one warning. */
static void relay_errors(const char *name, const char *dir, const ar_child_result_t *result)
{
    size_t other = 0;
    const char *first = NULL;
    size_t first_len = 0;
    const char *cursor = result->output[1] ? result->output[1] : "";
    const char *end = cursor + result->output_len[1];
    while (cursor < end) {
        const char *newline = memchr(cursor, '\n', (size_t)(end - cursor));
        size_t len = newline ? (size_t)(newline - cursor) : (size_t)(end - cursor);
        if (newline && len >= 11 && !memcmp(cursor, "aorta-run: ", 11)
            && aorta_utf8_valid_prefix(cursor, len, NULL, NULL) == len && !memchr(cursor, 0, len)) {
            ar_diag_relay(cursor, len);
        } else {
            if (!first) {
                first = cursor;
                first_len = len;
            }
            other += len + (newline != NULL);
        }
        cursor += len + (newline != NULL);
    }
    other += result->output_total[1] - result->output_len[1];
    if (!other)
        return;
    size_t shown = first_len > 120 ? 120 : first_len;
    int cut = 0;
    shown = aorta_utf8_valid_prefix(first ? first : "", shown, &cut, NULL);
    char *text = ar_repr(first ? first : "", shown);
    ar_diag_warn("collect: %s printed %zu byte(s) on stderr while parsing %s (not used): %s%s",
                    name, other, dir, text, shown < other ? "..." : "");
    free(text);
}

/* In the child: the collector's parse of dir, its metrics and kernel table
 * as the reply. */
typedef struct parse_call {
    const ar_module_t *module;
    const aorta_options_t *options;
    const char *dir;
    const char *prefix;
    const aorta_env_t *env; /* the trial's, or NULL: aorta-run's own */
} parse_call_t;

static void parse_in_child(void *user, int reply_fd)
{
    const parse_call_t *call = user;
    aorta_metrics_t *metrics = aorta_metrics_new(call->prefix);
    ar_parse_attach_env(metrics, call->env);
    call->module->collector.parse(call->options, call->dir, metrics);
    fflush(stdout);
    fflush(stderr);
    size_t len;
    char *text = ar_parse_reply_text(metrics, REPLY_LIMIT - 1, &len);
    ar_child_reply(reply_fd, text, len);
}

/* The reply into metrics; NULL, or the problem of a reply that is not one. */
static const char *read_reply(const ar_child_result_t *result, aorta_metrics_t *metrics)
{
    if (result->end != AR_CHILD_REPLIED)
        return result->end == AR_CHILD_INTERRUPTED ? "was interrupted"
                                                      : ar_child_problem(result);
    int readable = ar_parse_reply_read(metrics, result->reply, result->len) == 0;
    return readable ? NULL : "sent an unreadable reply";
}

/* A table the child had to cut to fit its reply: one warning. */
static void warn_cut(const char *name, const char *dir, const ar_child_result_t *result)
{
    int64_t kept = 0;
    int64_t total = result->end == AR_CHILD_REPLIED
                        ? ar_parse_reply_rows_cut(result->reply, result->len, &kept)
                        : 0;
    if (total)
        ar_diag_warn("collect: %s's kernel table of %s cut to %lld of its %lld kernels: the "
                        "parse reply holds at most %u MiB (its five metrics are whole)",
                        name, dir, (long long)kept, (long long)total, REPLY_LIMIT >> 20);
    total = result->end == AR_CHILD_REPLIED
                ? ar_parse_reply_dispatches_cut(result->reply, result->len, &kept)
                : 0;
    if (total)
        ar_diag_warn("collect: %s's dispatches of %s cut to the first %lld of %lld for the "
                        "timeline: the parse reply holds at most %u MiB (its metrics are whole)",
                        name, dir, (long long)kept, (long long)total, REPLY_LIMIT >> 20);
}

/* A parse that gave nothing usable: one warning (naming the memory limit
 * when the child had used most of it), and metrics of "<name>_artifact_dir"
 * alone when dir is a directory. */
static aorta_metrics_t *fallback(const char *name, const char *prefix, const char *dir,
                                 const char *problem, uint64_t limit, int near_limit)
{
    char *memory = near_limit && (!strcmp(problem, "crashed") || !strcmp(problem, "failed"))
                     ? ar_xasprintf(" (perhaps past its memory limit, AORTA_PARSE_MEMORY "
                                       "= %llu bytes)",
                                       (unsigned long long)limit)
                     : ar_xstrdup("");
    ar_diag_warn("collect: %s summary parsing %s%s; skipping its metrics for %s.", name,
                    problem, memory, dir);
    free(memory);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    if (is_directory(dir)) {
        char *key = ar_xasprintf("%s_artifact_dir", name);
        aorta_metrics_set_string(metrics, key, dir);
        free(key);
    }
    return metrics;
}

aorta_metrics_t *ar_parse_in_child(const ar_module_t *module,
                                      const aorta_options_t *options, const char *dir)
{
    return ar_parse_in_child_ex(module, options, dir, NULL);
}

aorta_metrics_t *ar_parse_in_child_ex(const ar_module_t *module,
                                         const aorta_options_t *options, const char *dir,
                                         int *interrupted)
{
    return ar_parse_in_child_env(module, options, dir, NULL, interrupted);
}

void ar_parse_attach_env(aorta_metrics_t *metrics, const aorta_env_t *env)
{
    extern char **environ;
    aorta_env_t *own = env ? NULL : aorta_env_from_environ(environ);
    aorta_metrics_set_env(metrics, env ? env : own);
    aorta_env_free(own);
}

aorta_metrics_t *ar_parse_in_child_env(const ar_module_t *module,
                                          const aorta_options_t *options, const char *dir,
                                          const aorta_env_t *env, int *interrupted)
{
    const char *name = module->collector.name;
    char *prefix = ar_xasprintf("%s_", name);
    parse_call_t call = {module, options, dir, prefix, env};
    uint64_t limit = ar_parse_memory_limit();
    ar_child_spec_t spec = {.fn = parse_in_child, .user = &call, .reply_limit = REPLY_LIMIT,
                               .memory_limit = limit, .flags = AR_CHILD_CAPTURE_OUTPUT,
                               .output_keep = {STDOUT_KEPT, STDERR_KEPT}};
    spec.timeout_sec = ar_parse_timeout();
    ar_child_result_t result;
    ar_child_run(&spec, &result);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    const char *problem = read_reply(&result, metrics);
    if (!problem)
        warn_cut(name, dir, &result);
    /* A parse that ran out of the limit dies one way or another; say why
     * when it had used most of it. */
    int near_limit = limit && result.end != AR_CHILD_NOT_STARTED
                     && (uint64_t)result.max_rss_kib * 1024 >= limit / 2;
    if (result.end != AR_CHILD_NOT_STARTED) {
        char *what = ar_xasprintf("collect: %s's parse of %s", name, dir);
        ar_spawn_kill_strays(what);
        free(what);
    }
    relay_errors(name, dir, &result);
    warn_noise(name, dir, &result);
    /* Taken for a caller that asks for it, else left pending. */
    int taken = interrupted && result.end == AR_CHILD_INTERRUPTED ? ar_spawn_take_interrupt()
                                                                     : 0;
    if (interrupted)
        *interrupted = taken;
    ar_child_result_free(&result);
    if (problem) {
        aorta_metrics_free(metrics);
        metrics = fallback(name, prefix, dir, problem, limit, near_limit);
    }
    free(prefix);
    return metrics;
}
