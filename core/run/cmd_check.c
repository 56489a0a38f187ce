/* SPDX-License-Identifier: MIT */
/* cmd_check.c - `aorta-run --check-collector NAME [DIR]`: a collector
 * author's self-check against aorta-collector(7).
 *
 * Every step calls the collector in a child process (sys/child.c), working
 * in a scratch directory under $TMPDIR.  The child writes what it finds as
 * lines: "ok TEXT", "note TEXT", "FAIL TEXT", "call CALLBACK" before each
 * callback, "done" at the end.  So a crash, a hang or an exit() names the
 * callback it happened in, and the check goes on with the next step. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "commands.h"
#include "sys/spawn.h"
#include "sys/child.h"
#include "sys/knobs.h"
#include "sys/nofollow.h"
#include "sys/quote.h"
#include "xalloc.h"

/* Seconds one step may take: AORTA_CHECK_TIMEOUT, else this. */
#define CHECK_TIMEOUT_DEFAULT 30.0
/* A child's findings are a few lines; more is a runaway message. */
#define REPLY_LIMIT (1u << 20)
/* Metric names shown on an ok line before "...". */
#define SHOWN_METRICS 8
/* An option no collector has: validate() should refuse it. */
#define UNKNOWN_OPTION "aorta_check_no_such_option"
/* The length of the long output directory wrap() is given: a path the
 * system takes (below PATH_MAX, 4096), which a buffer of PATH_MAX with
 * anything in front of the path cannot hold. */
#define LONG_DIR 4090
/* The start of it an argument holds when it holds a piece of it. */
#define LONG_DIR_PIECE 64

extern char **environ;

/* The sample commands wrap() is asked about: a Python script and a binary
 * (collectors usually handle one of the two). */
static char *const SAMPLE_PYTHON[] = {"python3", "script.py", "--flag", NULL};
static char *const SAMPLE_APP[] = {"./app", "--flag", NULL};

typedef struct check {
    const ar_module_t *module;
    const char *name;
    char *prefix;              /* "<name>_" */
    aorta_options_t *defaults; /* the option table's default values */
    char *tmp;                 /* the scratch directory */
    char *cwd;                 /* <tmp>/cwd: the children's working directory */
    double timeout;
    int accepts_none;          /* validate() accepted no options */
    int accepts_defaults;      /* validate() accepted the table's defaults */
    size_t violations, notes;
} check_t;

typedef enum step_kind {
    STEP_VALIDATE_NONE,     /* validate() on no options */
    STEP_VALIDATE_DEFAULTS, /* validate() on the table's defaults */
    STEP_VALIDATE_UNKNOWN,  /* validate() on an unknown option */
    STEP_WRAP,
    STEP_WRAP_LONG_DIR,     /* wrap() with an output directory of LONG_DIR bytes */
    STEP_ENV,
    STEP_PARSE,
    STEP_PARSE_NO_FDS       /* parse() with every file descriptor in use */
} step_kind_t;

typedef struct step {
    const check_t *check;
    step_kind_t kind;
    const char *label;         /* the callback checked */
    const char *subject;       /* what it is called on, for messages */
    char *const *command;      /* wrap: the sample command */
    const char *dir;           /* wrap and env: out_dir; parse: the directory */
    int is_dir;                /* parse: dir is a directory (else nothing may be reported) */
} step_t;

/* ------------------------------------------------------------------------ */
/* Text shown on one line                                                    */
/* ------------------------------------------------------------------------ */

/* text as is when it is printable UTF-8, else quoted as repr() quotes it
 * (a collector's message must not break the one-line format).  Free it. */
static char *shown(const char *text)
{
    if (!text)
        return ar_xstrdup("(null)");
    size_t len = strlen(text);
    int plain = aorta_utf8_valid_prefix(text, len, NULL, NULL) == len;
    for (size_t i = 0; plain && i < len; i++)
        plain = (unsigned char)text[i] >= 0x20 && text[i] != 0x7f;
    return plain ? ar_xstrdup(text) : ar_repr_str(text);
}

/* "k=v, k=v", or "(none)".  Free it. */
static char *shown_options(const aorta_options_t *options)
{
    char *text = ar_xstrdup("");
    for (size_t i = 0; i < aorta_options_count(options); i++) {
        char *key = shown(aorta_options_key_at(options, i));
        char *value = shown(aorta_options_value_at(options, i));
        char *next = ar_xasprintf("%s%s%s=%s", text, i ? ", " : "", key, value);
        free(text);
        free(key);
        free(value);
        text = next;
    }
    if (!text[0]) {
        free(text);
        text = ar_xstrdup("(none)");
    }
    return text;
}

static char *shown_argv(const aorta_argv_t *argv)
{
    return ar_repr_list((const char *const *)aorta_argv_items(argv), aorta_argv_count(argv));
}

/* ------------------------------------------------------------------------ */
/* The child's side                                                          */
/* ------------------------------------------------------------------------ */

typedef struct reply {
    int fd;
    size_t fails;
} reply_t;

static void say(reply_t *reply, const char *tag, const char *fmt, ...) AORTA_PRINTF(3, 4);
static void say(reply_t *reply, const char *tag, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *text = ar_xvasprintf(fmt, args);
    va_end(args);
    for (char *c = text; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    char *line = ar_xasprintf("%s %s\n", tag, text);
    ar_child_reply(reply->fd, line, strlen(line));
    if (!strcmp(tag, "FAIL"))
        reply->fails++;
    free(line);
    free(text);
}

/* The error's message, or NULL when there is none (or it is empty). */
static const char *message_of(const aorta_error_t *err)
{
    const char *message = aorta_error_message(err);
    return message && message[0] ? message : NULL;
}

/* A callback that had to accept returned rc instead. */
static void refused(reply_t *reply, const char *label, int rc, const aorta_error_t *err,
                    const char *subject)
{
    if (rc != -1) {
        say(reply, "FAIL", "%s: returned %d on %s (0 or -1 expected)", label, rc, subject);
    } else if (message_of(err)) {
        char *message = shown(message_of(err));
        say(reply, "FAIL", "%s: refuses %s: %s", label, subject, message);
        free(message);
    } else {
        say(reply, "FAIL", "%s: refuses %s, and without a message", label, subject);
    }
}

static int call_validate(reply_t *reply, const check_t *check, aorta_options_t *options,
                         aorta_error_t *err)
{
    aorta_error_clear(err);
    say(reply, "call", "validate");
    return check->module->collector.validate(options, err);
}

/* What the later steps run with: validate() of no options, as aorta-run
 * makes the options of a collector named without any, or else of the
 * table's defaults (the steps run only when it accepted one of them). */
static aorta_options_t *effective_options(const check_t *check, reply_t *reply)
{
    aorta_options_t *options = check->accepts_none ? aorta_options_new()
                                                   : aorta_options_dup(check->defaults);
    aorta_error_t *err = aorta_error_new();
    call_validate(reply, check, options, err);
    aorta_error_free(err);
    return options;
}

/* Returns 1 when validate() accepted. */
static int child_validate(const step_t *step, reply_t *reply)
{
    const check_t *check = step->check;
    aorta_error_t *err = aorta_error_new();
    aorta_options_t *options = step->kind == STEP_VALIDATE_DEFAULTS
                                   ? aorta_options_dup(check->defaults)
                                   : aorta_options_new();
    if (step->kind == STEP_VALIDATE_UNKNOWN)
        aorta_options_set(options, UNKNOWN_OPTION, "1");
    char *given = shown_options(options);
    int rc = call_validate(reply, check, options, err);
    if (step->kind == STEP_VALIDATE_UNKNOWN) {
        if (rc == 0) {
            say(reply, "note", "validate: accepts the unknown option '" UNKNOWN_OPTION "' (a "
                               "misspelt option in a recipe would go unnoticed; "
                               "aorta_options_check_keys() refuses it)");
        } else if (rc == -1 && message_of(err)) {
            char *message = shown(message_of(err));
            say(reply, "ok", "validate: refuses an unknown option: %s", message);
            free(message);
        } else if (rc == -1) {
            say(reply, "FAIL", "validate: refuses an unknown option without a message");
        } else {
            say(reply, "FAIL", "validate: returned %d on an unknown option (0 or -1 expected)",
                rc);
        }
    } else if (rc != 0) {
        char *subject = step->kind == STEP_VALIDATE_NONE
                            ? ar_xstrdup("no options (what a recipe naming it without "
                                            "options gives)")
                            : ar_xasprintf("its own defaults (%s)", given);
        refused(reply, "validate", rc, err, subject);
        free(subject);
    } else {
        char *effective = shown_options(options);
        if (step->kind == STEP_VALIDATE_NONE)
            say(reply, "ok", "validate: no options accepted; effective options: %s", effective);
        else
            say(reply, "ok", "validate: its defaults accepted (%s)", given);
        free(effective);
    }
    free(given);
    aorta_options_free(options);
    aorta_error_free(err);
    return rc == 0;
}

static int same_argv(const aorta_argv_t *left, const aorta_argv_t *right)
{
    if (aorta_argv_count(left) != aorta_argv_count(right))
        return 0;
    for (size_t i = 0; i < aorta_argv_count(left); i++)
        if (strcmp(aorta_argv_at(left, i), aorta_argv_at(right, i)) != 0)
            return 0;
    return 1;
}

/* What wrap() made of a sample command.  Returns 1 when it refused (with a
 * message). */
static int judge_sample(reply_t *reply, int rc, const aorta_argv_t *command,
                        const aorta_argv_t *out, const aorta_error_t *err)
{
    char *sample = shown_argv(command);
    int refusal = 0;
    if (rc == 0 && aorta_argv_count(out) == 0) {
        say(reply, "FAIL", "wrap: returned an empty argv for %s without refusing (return -1 "
                           "with a message instead)", sample);
    } else if (rc == 0 && same_argv(out, command)) {
        say(reply, "FAIL", "wrap: returned the sample command %s unchanged, so the trial would "
                           "run unprofiled (return -1 with a message instead)", sample);
    } else if (rc == 0 && !aorta_argv_at(out, 0)[0]) {
        char *made = shown_argv(out);
        say(reply, "FAIL", "wrap: the argv it made of %s starts with an empty program: %s",
            sample, made);
        free(made);
    } else if (rc == 0) {
        char *made = shown_argv(out);
        say(reply, "ok", "wrap: %s -> %s", sample, made);
        free(made);
    } else if (rc == -1 && message_of(err)) {
        char *message = shown(message_of(err));
        say(reply, "note", "wrap: refused the sample command %s: %s", sample, message);
        free(message);
        refusal = 1;
    } else if (rc == -1) {
        say(reply, "FAIL", "wrap: refused the sample command %s without a message", sample);
    } else {
        say(reply, "FAIL", "wrap: returned %d for %s (0 or -1 expected)", rc, sample);
    }
    free(sample);
    return refusal;
}

/* Whether arg holds the start of dir without the rest of it: a path cut
 * short (*whole is set where it holds all of it). */
static int holds_cut(const char *arg, const char *dir, int *whole)
{
    size_t len = strlen(dir);
    int cut = 0;
    for (const char *at = arg; (at = strstr(at, "/")) != NULL; at++) {
        if (strncmp(at, dir, LONG_DIR_PIECE) != 0)
            continue;
        if (strncmp(at, dir, len) == 0)
            *whole = 1;
        else
            cut = 1;
    }
    return cut;
}

/* What wrap() made of an output directory of LONG_DIR bytes: it must pass
 * it whole, or refuse it with a message. */
static void judge_long_dir(reply_t *reply, int rc, const aorta_argv_t *out,
                           const aorta_error_t *err, const char *dir)
{
    size_t len = strlen(dir);
    if (rc == -1 && message_of(err)) {
        char *message = shown(message_of(err));
        say(reply, "ok", "wrap: refuses an output directory of %zu bytes: %s", len, message);
        free(message);
        return;
    }
    if (rc != 0) {
        say(reply, "FAIL", "wrap: refused an output directory of %zu bytes without a message",
            len);
        return;
    }
    int whole = 0, cut = 0;
    for (size_t i = 0; i < aorta_argv_count(out); i++)
        cut |= holds_cut(aorta_argv_at(out, i), dir, &whole);
    if (cut)
        say(reply, "FAIL", "wrap: the argv it made for an output directory of %zu bytes holds "
                           "it cut short (refuse, with a message, a path it cannot hold)",
            len);
    else if (whole)
        say(reply, "ok", "wrap: passes an output directory of %zu bytes whole", len);
    else
        say(reply, "ok", "wrap: takes an output directory of %zu bytes (its argv does not name "
                         "it)", len);
}

/* Returns 1 when wrap() refused (with a message). */
static int child_wrap(const step_t *step, reply_t *reply)
{
    const check_t *check = step->check;
    aorta_options_t *options = effective_options(check, reply);
    size_t count = 0;
    while (step->command[count])
        count++;
    aorta_argv_t *command = aorta_argv_from(step->command, count);
    aorta_env_t *env = aorta_env_from_environ(environ);
    aorta_argv_t *out = aorta_argv_new();
    aorta_error_t *err = aorta_error_new();
    say(reply, "call", "wrap");
    int rc = check->module->collector.wrap(options, step->dir, command, env, out, err);
    int refusal = 0;
    if (step->kind == STEP_WRAP_LONG_DIR)
        judge_long_dir(reply, rc, out, err, step->dir);
    else
        refusal = judge_sample(reply, rc, command, out, err);
    aorta_error_free(err);
    aorta_argv_free(out);
    aorta_env_free(env);
    aorta_argv_free(command);
    aorta_options_free(options);
    return refusal;
}

static void child_env(const step_t *step, reply_t *reply)
{
    const check_t *check = step->check;
    aorta_options_t *options = effective_options(check, reply);
    aorta_env_t *bundle = aorta_env_new();
    aorta_error_t *err = aorta_error_new();
    say(reply, "call", "env");
    int rc = check->module->collector.env(options, step->dir, bundle, err);
    if (rc == 0) {
        size_t before = reply->fails;
        char *names = ar_xstrdup("");
        for (size_t i = 0; i < aorta_env_count(bundle); i++) {
            const char *name = aorta_env_name_at(bundle, i);
            char *name_shown = shown(name);
            if (!name[0] || strchr(name, '='))
                say(reply, "FAIL", "env: the bundle holds a variable named '%s', which no "
                                   "environment can hold", name_shown);
            char *next = ar_xasprintf("%s%s%s", names, i ? ", " : "", name_shown);
            free(names);
            free(name_shown);
            names = next;
        }
        if (reply->fails == before && aorta_env_count(bundle) == 0)
            say(reply, "ok", "env: an empty bundle");
        else if (reply->fails == before)
            say(reply, "ok", "env: %zu variable%s: %s", aorta_env_count(bundle),
                aorta_env_count(bundle) == 1 ? "" : "s", names);
        free(names);
    } else if (rc == -1 && message_of(err)) {
        char *message = shown(message_of(err));
        say(reply, "note", "env: refused with its default options: %s", message);
        free(message);
    } else if (rc == -1) {
        say(reply, "FAIL", "env: refused without a message");
    } else {
        say(reply, "FAIL", "env: returned %d (0 or -1 expected)", rc);
    }
    aorta_error_free(err);
    aorta_env_free(bundle);
    aorta_options_free(options);
}

/* Every file descriptor in use from now on, as for a parse that runs out of
 * them: the soft RLIMIT_NOFILE set to the lowest free one, the limit that
 * was in *saved.  0, or -1 when it cannot be done. */
static int use_up_descriptors(struct rlimit *saved)
{
    int lowest = fcntl(0, F_DUPFD_CLOEXEC, 0);
    if (lowest < 0 || getrlimit(RLIMIT_NOFILE, saved) != 0)
        return -1;
    close(lowest);
    struct rlimit none = {(rlim_t)lowest, saved->rlim_max};
    return setrlimit(RLIMIT_NOFILE, &none);
}

static void child_parse(const step_t *step, reply_t *reply)
{
    const check_t *check = step->check;
    aorta_options_t *options = effective_options(check, reply);
    /* No prefix: the sink aorta-run uses would drop what must be reported. */
    aorta_metrics_t *metrics = aorta_metrics_new(NULL);
    struct rlimit saved;
    int limited = step->kind == STEP_PARSE_NO_FDS && use_up_descriptors(&saved) == 0;
    if (step->kind == STEP_PARSE_NO_FDS && !limited)
        say(reply, "note", "parse: could not use up the file descriptors; not checked on %s",
            step->subject);
    say(reply, "call", "parse");
    check->module->collector.parse(options, step->dir, metrics);
    if (limited)
        setrlimit(RLIMIT_NOFILE, &saved);
    size_t before = reply->fails, prefix_len = strlen(check->prefix);
    char *names = ar_xstrdup("");
    for (size_t i = 0; i < aorta_metrics_count(metrics); i++) {
        const char *key = aorta_metrics_at(metrics, i)->key;
        char *key_shown = shown(key);
        if (strncmp(key, check->prefix, prefix_len) != 0 || strlen(key) == prefix_len)
            say(reply, "FAIL", "parse: on %s it reports the metric '%s', not prefixed by '%s' "
                               "(aorta-run drops it)", step->subject, key_shown, check->prefix);
        if (i < SHOWN_METRICS || i + 1 == aorta_metrics_count(metrics)) {
            char *next = ar_xasprintf("%s%s%s", names, i ? ", " : "",
                                         i < SHOWN_METRICS ? key_shown : "...");
            free(names);
            names = next;
        }
        free(key_shown);
    }
    char *artifact_key = ar_xasprintf("%sartifact_dir", check->prefix);
    const aorta_metric_t *artifact = aorta_metrics_find(metrics, artifact_key);
    if (!step->is_dir && aorta_metrics_count(metrics) > 0)
        say(reply, "FAIL", "parse: on %s it reports %s (nothing at all is reported when the "
                           "directory is not one)", step->subject, names);
    else if (step->is_dir && !artifact)
        say(reply, "FAIL", "parse: on %s it reports no '%s' (required whenever the directory "
                           "exists)", step->subject, artifact_key);
    else if (artifact && artifact->type != AORTA_METRIC_STRING)
        say(reply, "FAIL", "parse: on %s its '%s' is not a string", step->subject,
            artifact_key);
    if (reply->fails == before) {
        size_t count = aorta_metrics_count(metrics);
        say(reply, "ok", "parse: %s: %zu metric%s%s%s", step->subject, count,
            count == 1 ? "" : "s", count ? ": " : "", names);
    }
    free(artifact_key);
    free(names);
    aorta_metrics_free(metrics);
    aorta_options_free(options);
}

/* The file descriptors this process has open, or -1 when /proc cannot
 * tell. */
static long open_descriptors(void)
{
    DIR *dir = opendir("/proc/self/fd");
    if (!dir)
        return -1;
    long count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL)
        count += entry->d_name[0] != '.';
    closedir(dir);
    return count - 1; /* the listing's own */
}

static void run_step_child(void *user, int fd)
{
    const step_t *step = user;
    reply_t reply = {fd, 0};
    /* Anything a callback writes without a path lands where it can be seen. */
    if (chdir(step->check->cwd) != 0)
        say(&reply, "note", "%s: could not work in the scratch directory", step->label);
    long before = open_descriptors();
    const char *outcome = "returned";
    switch (step->kind) {
    case STEP_VALIDATE_NONE:
    case STEP_VALIDATE_DEFAULTS:
    case STEP_VALIDATE_UNKNOWN:
        outcome = child_validate(step, &reply) ? "accepted" : "refused";
        break;
    case STEP_WRAP:
    case STEP_WRAP_LONG_DIR:
        outcome = child_wrap(step, &reply) ? "refused" : "returned";
        break;
    case STEP_ENV:
        child_env(step, &reply);
        break;
    case STEP_PARSE:
    case STEP_PARSE_NO_FDS:
        child_parse(step, &reply);
        break;
    }
    /* A collector's callbacks run once per trial in aorta-run's children,
     * and in the collector's own process when a host calls them directly. */
    long after = open_descriptors();
    if (before >= 0 && after > before)
        say(&reply, "FAIL", "%s: on %s it leaves %ld file descriptor%s open (close what it "
                            "opens, on every path)",
            step->label, step->subject, after - before, after - before == 1 ? "" : "s");
    say(&reply, "done", "%s", outcome);
}

/* ------------------------------------------------------------------------ */
/* The parent's side                                                         */
/* ------------------------------------------------------------------------ */

static void finding(check_t *check, const char *tag, const char *fmt, ...) AORTA_PRINTF(3, 4);
static void finding(check_t *check, const char *tag, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *text = ar_xvasprintf(fmt, args);
    va_end(args);
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    printf("%-4s %s\n", tag, text);
    if (!strcmp(tag, "FAIL"))
        check->violations++;
    else if (!strcmp(tag, "note"))
        check->notes++;
    free(text);
}

static int is_callback(const char *name)
{
    return !strcmp(name, "validate") || !strcmp(name, "wrap") || !strcmp(name, "env")
           || !strcmp(name, "parse");
}

/* Names left in the children's working directory, reported and removed. */
static void stray_files(check_t *check, const step_t *step)
{
    DIR *dir = opendir(check->cwd);
    if (!dir)
        return;
    char *names = NULL;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        char *name = ar_repr_str(entry->d_name);
        char *next = ar_xasprintf("%s%s%s", names ? names : "", names ? ", " : "", name);
        free(names);
        free(name);
        names = next;
    }
    closedir(dir);
    if (!names)
        return;
    finding(check, "FAIL", "%s: on %s it wrote %s into its current directory (artifacts belong "
                           "under the output directory it is given)",
            step->label, step->subject, names);
    free(names);
    char *error = NULL;
    if (ar_nofollow_empty_dir_at(AT_FDCWD, check->cwd, &error) != 0)
        free(error);
}

/* How a step's child finished: its "done" word ("accepted", "refused",
 * "returned"), "" when it did not get there. */
typedef char outcome_t[16];

/* Run one step.  Returns 0, the signal that interrupted aorta-run, or -1
 * when no child could be started. */
static int run_step(check_t *check, const step_t *step, outcome_t outcome)
{
    ar_child_spec_t spec = {.fn = run_step_child, .user = (void *)step,
                               .timeout_sec = check->timeout, .reply_limit = REPLY_LIMIT};
    ar_child_result_t result;
    ar_child_run(&spec, &result);
    int interrupt = ar_spawn_take_interrupt();
    if (interrupt) {
        ar_child_result_free(&result);
        return interrupt;
    }
    const char *problem = ar_child_problem(&result);
    if (result.end == AR_CHILD_NOT_STARTED) {
        ar_diag_error("--check-collector: cannot start a child process: %s",
                         strerror(result.start_errno));
        return -1;
    }
    char callback[16];
    snprintf(callback, sizeof callback, "%s", step->label);
    int done = 0, garbled = 0;
    outcome[0] = '\0';
    /* Whole lines only: a child killed mid-line leaves a partial one. */
    for (char *line = result.reply; line && *line;) {
        char *end = strchr(line, '\n');
        if (!end)
            break;
        *end = '\0';
        char *text = strchr(line, ' ');
        if (text)
            *text++ = '\0';
        if (!text)
            garbled = 1;
        else if (!strcmp(line, "call") && is_callback(text))
            snprintf(callback, sizeof callback, "%s", text);
        else if (!strcmp(line, "done"))
            done = 1, snprintf(outcome, sizeof(outcome_t), "%s", text);
        else if (!strcmp(line, "ok") || !strcmp(line, "note") || !strcmp(line, "FAIL"))
            finding(check, line, "%s", text);
        else
            garbled = 1;
        line = end + 1;
    }
    if (problem)
        outcome[0] = '\0';
    if (garbled)
        finding(check, "FAIL", "%s: on %s something wrote into aorta-run's reply pipe (a "
                               "descriptor the collector did not open)",
                callback, step->subject);
    if (problem && !strcmp(problem, "crashed"))
        finding(check, "FAIL", "%s: crashed with signal %d (%s) on %s", callback, result.signal,
                strsignal(result.signal), step->subject);
    else if (problem && !strcmp(problem, "timed out"))
        finding(check, "FAIL", "%s: did not return within %g s on %s (killed; "
                               "AORTA_CHECK_TIMEOUT sets the limit)",
                callback, check->timeout, step->subject);
    else if (problem && !strcmp(problem, "sent too much"))
        finding(check, "FAIL", "%s: on %s it produced more than %u bytes of findings (a "
                               "runaway message?)",
                callback, step->subject, REPLY_LIMIT);
    else if (problem || !done)
        finding(check, "FAIL", "%s: ended the process (exit status %d) on %s instead of "
                               "returning",
                callback, result.exit_code, step->subject);
    ar_child_result_free(&result);
    stray_files(check, step);
    return 0;
}

/* A fresh empty directory <tmp>/name; NULL after reporting.  Free it. */
static char *scratch_dir(const check_t *check, const char *name)
{
    char *path = ar_xasprintf("%s/%s", check->tmp, name);
    if (mkdir(path, 0700) != 0) {
        ar_diag_error("--check-collector: cannot create %s: %s", path, strerror(errno));
        free(path);
        return NULL;
    }
    return path;
}

/* The option table itself: unique non-empty keys, defaults among the
 * allowed values. */
static void check_table(check_t *check)
{
    const aorta_option_spec_t *table = check->module->collector.options;
    size_t count = 0, before = check->violations;
    for (const aorta_option_spec_t *spec = table; spec && spec->key; spec++, count++) {
        char *key = shown(spec->key);
        if (!spec->key[0])
            finding(check, "FAIL", "options: row %zu has an empty key", count + 1);
        for (const aorta_option_spec_t *earlier = table; earlier < spec; earlier++)
            if (!strcmp(earlier->key, spec->key)) {
                finding(check, "FAIL", "options: '%s' is in the table twice", key);
                break;
            }
        if (spec->values && spec->default_value) {
            size_t v = 0;
            while (spec->values[v] && strcmp(spec->values[v], spec->default_value) != 0)
                v++;
            if (!spec->values[v]) {
                char *value = shown(spec->default_value);
                finding(check, "FAIL", "options: the default '%s' of '%s' is not one of its "
                                       "values",
                        value, key);
                free(value);
            }
        }
        free(key);
    }
    if (check->violations == before)
        finding(check, "ok", "options: %zu option%s%s", count, count == 1 ? "" : "s",
                count ? ", defaults among their values" : "");
}

/* The metric table (ABI 1.2): a row that declares nothing breaks the
 * contract (aorta-run warns for it and leaves that metric ungated). */
static void check_metrics(check_t *check)
{
    const struct aorta_collector *collector = &check->module->collector;
    size_t count = aorta_collector_metric_count(collector), before = check->violations;
    for (size_t i = 0; i < count; i++) {
        aorta_error_t *why = aorta_error_new();
        if (aorta_collector_metric_check(collector, i, why) != 0)
            finding(check, "FAIL", "metrics: %s", aorta_error_message(why));
        aorta_error_free(why);
    }
    if (check->violations == before)
        finding(check, "ok", "metrics: %zu declared", count);
}

/* Whether outcome is word. */
static int ended(const outcome_t outcome, const char *word)
{
    return strcmp(outcome, word) == 0;
}

/* validate() on no options, on the table's defaults, on an unknown option;
 * what it accepts decides what the later steps run with.  Returns
 * run_step()'s status. */
static int check_validate(check_t *check)
{
    outcome_t outcome;
    step_t none = {check, STEP_VALIDATE_NONE, "validate", "no options", NULL, NULL, 0};
    int status = run_step(check, &none, outcome);
    check->accepts_none = ended(outcome, "accepted");
    check->accepts_defaults = check->accepts_none;
    if (!status && aorta_options_count(check->defaults) > 0) {
        step_t step = {check, STEP_VALIDATE_DEFAULTS, "validate", "its defaults", NULL, NULL, 0};
        status = run_step(check, &step, outcome);
        check->accepts_defaults = ended(outcome, "accepted");
    }
    if (!status) {
        step_t step = {check, STEP_VALIDATE_UNKNOWN, "validate", "an unknown option", NULL, NULL,
                       0};
        status = run_step(check, &step, outcome);
    }
    return status;
}

/* <tmp>/long/... to LONG_DIR bytes, made; NULL after reporting (or with a
 * note when $TMPDIR leaves no room for it).  Free it. */
static char *long_dir(check_t *check)
{
    char *path = scratch_dir(check, "long");
    if (path && strlen(path) + 2 > LONG_DIR) {
        finding(check, "note", "wrap: $TMPDIR is too long to try an output directory of %d "
                               "bytes",
                LONG_DIR);
        free(path);
        return NULL;
    }
    char component[201];
    memset(component, 'd', sizeof component - 1);
    component[sizeof component - 1] = '\0';
    while (path && strlen(path) < LONG_DIR) {
        size_t room = LONG_DIR - strlen(path) - 1, len = room < 200 ? room : 200;
        char *next = ar_xasprintf("%s/%.*s", path, (int)len, component);
        free(path);
        path = next;
        if (mkdir(path, 0700) != 0) {
            ar_diag_error("--check-collector: cannot create %s: %s", path, strerror(errno));
            free(path);
            path = NULL;
        }
    }
    return path;
}

/* wrap() on the first sample command it took, with an output directory of
 * LONG_DIR bytes. */
static int check_wrap_long(check_t *check, char *const *sample)
{
    char *out_dir = long_dir(check);
    if (!out_dir)
        return 0;
    char *subject = ar_xasprintf("an output directory of %d bytes", LONG_DIR);
    step_t step = {check, STEP_WRAP_LONG_DIR, "wrap", subject, sample, out_dir, 0};
    outcome_t outcome;
    int status = run_step(check, &step, outcome);
    free(subject);
    free(out_dir);
    return status;
}

/* wrap() on the two sample commands, each with an output directory of its
 * own, then with a long one.  Returns run_step()'s status, or -1 when no
 * directory could be made. */
static int check_wrap(check_t *check)
{
    char *const *samples[] = {SAMPLE_PYTHON, SAMPLE_APP};
    char *const *taken = NULL;
    size_t refusals = 0;
    int status = 0;
    for (size_t i = 0; i < 2 && !status; i++) {
        char leaf[16];
        snprintf(leaf, sizeof leaf, "wrap-%zu", i + 1);
        char *out_dir = scratch_dir(check, leaf);
        if (!out_dir)
            return -1;
        size_t words = 0;
        while (samples[i][words])
            words++;
        char *subject = ar_repr_list((const char *const *)samples[i], words);
        step_t step = {check, STEP_WRAP, "wrap", subject, samples[i], out_dir, 0};
        outcome_t outcome;
        status = run_step(check, &step, outcome);
        refusals += ended(outcome, "refused");
        if (!taken && ended(outcome, "returned"))
            taken = samples[i];
        free(subject);
        free(out_dir);
    }
    if (!status && refusals == 2)
        finding(check, "note", "wrap: refused both sample commands, so its argv went "
                               "unchecked (run the check where the profiler is installed)");
    if (!status && taken)
        status = check_wrap_long(check, taken);
    return status;
}

/* env(), when the collector has one. */
static int check_env(check_t *check)
{
    if (!check->module->has_env) {
        finding(check, "ok", "env: none (optional: an empty bundle)");
        return 0;
    }
    char *out_dir = scratch_dir(check, "env");
    if (!out_dir)
        return -1;
    step_t step = {check, STEP_ENV, "env", "its output directory", NULL, out_dir, 0};
    outcome_t outcome;
    int status = run_step(check, &step, outcome);
    free(out_dir);
    return status;
}

/* A fresh empty file <tmp>/name, where parse() is given a directory; NULL
 * after reporting.  Free it. */
static char *scratch_file(const check_t *check, const char *name)
{
    char *path = ar_xasprintf("%s/%s", check->tmp, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        ar_diag_error("--check-collector: cannot create %s: %s", path, strerror(errno));
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

/* parse() on an empty directory, a missing one, a file in place of one and
 * DIR when given. */
static int check_parse(check_t *check, const char *dir, const char *dir_given)
{
    char *empty = scratch_dir(check, "parse-empty");
    char *file = empty ? scratch_file(check, "parse-file") : NULL;
    if (!file) {
        free(empty);
        return -1;
    }
    char *missing = ar_xasprintf("%s/missing", check->tmp);
    char *given = dir ? ar_xasprintf("DIR %s", dir_given) : NULL;
    struct {
        step_kind_t kind;
        const char *subject;
        const char *dir;
        int is_dir;
    } parses[] = {
        {STEP_PARSE, "an empty directory", empty, 1},
        {STEP_PARSE, "a missing directory", missing, 0},
        {STEP_PARSE, "a file in place of the directory", file, 0},
        {STEP_PARSE_NO_FDS, "a directory while no file descriptor is left", empty, 1},
        {STEP_PARSE, given, dir, 1}, /* dir is resolved: a directory, no symbolic link */
    };
    int status = 0;
    for (size_t i = 0; i < sizeof parses / sizeof parses[0] && !status && parses[i].dir; i++) {
        step_t step = {check, parses[i].kind, "parse", parses[i].subject, NULL, parses[i].dir,
                       parses[i].is_dir};
        outcome_t outcome;
        status = run_step(check, &step, outcome);
    }
    free(given);
    free(missing);
    free(file);
    free(empty);
    return status;
}

static int run_checks(check_t *check, const char *dir, const char *dir_given)
{
    check_table(check);
    check_metrics(check);
    int status = check_validate(check);
    if (!status && !check->accepts_none && !check->accepts_defaults) {
        /* aorta-run never calls them with options validate() refused. */
        finding(check, "note", "wrap, env, parse: not checked, as validate() accepts neither "
                               "no options nor its defaults");
        return 0;
    }
    if (!status)
        status = check_wrap(check);
    if (!status)
        status = check_env(check);
    if (!status)
        status = check_parse(check, dir, dir_given);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Loading, and the command                                                  */
/* ------------------------------------------------------------------------ */

/* The summary line; the exit status. */
static int verdict(const char *name, size_t violations, size_t notes)
{
    printf("\n%s: %zu violation%s, %zu note%s\n", name, violations, violations == 1 ? "" : "s",
           notes, notes == 1 ? "" : "s");
    if (!violations)
        return AR_EXIT_OK;
    fflush(stdout);
    ar_diag_error("--check-collector: %s breaks the collector contract (%zu violation%s: the "
                 "FAIL lines)",
                 name, violations, violations == 1 ? "" : "s");
    return AR_EXIT_FAILED;
}

static int check_loaded(const ar_registry_t *registry, const char *name, double timeout,
                        const char *dir, const char *dir_given)
{
    const ar_module_t *module = ar_registry_open(registry, name);
    if (!module) {
        const ar_module_t *failed = ar_registry_find_failed(registry, name);
        if (!failed)
            return ar_cmd_unknown_collector(registry, "--check-collector", name);
        printf("FAIL load: %s: %s\n", failed->path, failed->reason);
        return verdict(name, 1, 0);
    }
    check_t check = {module, name, NULL, NULL, NULL, NULL, timeout, 0, 0, 0, 0};
    const char *tmpdir = getenv("TMPDIR");
    tmpdir = tmpdir && tmpdir[0] ? tmpdir : "/tmp";
    check.tmp = ar_xasprintf("%s/aorta-check-XXXXXX", tmpdir);
    if (!mkdtemp(check.tmp)) {
        ar_diag_error("--check-collector: cannot create a scratch directory in %s: %s", tmpdir,
                     strerror(errno));
        free(check.tmp);
        return AR_EXIT_FAILED;
    }
    /* The children work in <tmp>/cwd: a relative $TMPDIR would not lead back. */
    char *absolute = realpath(check.tmp, NULL);
    if (absolute) {
        free(check.tmp);
        check.tmp = absolute;
    }
    check.prefix = ar_xasprintf("%s_", name);
    check.defaults = aorta_options_new();
    for (const aorta_option_spec_t *spec = module->collector.options; spec && spec->key; spec++)
        if (spec->default_value)
            aorta_options_set(check.defaults, spec->key, spec->default_value);

    ar_cmd_describe(registry, name);
    printf("\nchecks (each step in a child process, at most %g s):\n", timeout);
    ar_registry_check_all(registry);
    for (size_t i = 0; i < registry->count; i++)
        if (registry->modules[i].status == AR_MODULE_SHADOWED
            && !strcmp(registry->modules[i].name, name))
            finding(&check, "note", "load: %s is shadowed by the one checked",
                    registry->modules[i].path);
    check.cwd = scratch_dir(&check, "cwd");
    int status = check.cwd ? run_checks(&check, dir, dir_given) : -1;
    if (status == 0)
        status = verdict(name, check.violations, check.notes);
    else if (status > 0) {
        ar_diag_error("--check-collector: interrupted");
        status += 128;
    } else {
        status = AR_EXIT_FAILED;
    }
    char *why = NULL;
    if (ar_nofollow_remove_tree_at(AT_FDCWD, check.tmp, &why) != 0)
        ar_diag_warn("--check-collector: cannot remove %s: %s", check.tmp, why);
    free(why);
    free(check.cwd);
    free(check.tmp);
    free(check.prefix);
    aorta_options_free(check.defaults);
    return status;
}

double ar_cmd_check_timeout(void)
{
    return ar_knob_seconds("AORTA_CHECK_TIMEOUT", CHECK_TIMEOUT_DEFAULT, 0);
}

int ar_cmd_check(const ar_cli_t *cli, char *const *dirs)
{
    double timeout = ar_cmd_check_timeout();
    char *dir = NULL;
    if (cli->dir) {
        struct stat st;
        const char *why = NULL;
        if (stat(cli->dir, &st) != 0)
            why = strerror(errno);
        else if (!S_ISDIR(st.st_mode))
            why = "not a directory";
        /* The children work elsewhere: they get DIR as an absolute path. */
        else if (!(dir = realpath(cli->dir, NULL)))
            why = strerror(errno);
        if (why) {
            char *quoted = ar_repr_str(cli->dir);
            ar_diag_error("--check-collector: DIR %s: %s", quoted, why);
            free(quoted);
            return AR_EXIT_USAGE;
        }
    }
    /* The registry checks each candidate in a child before opening it here:
     * one that crashes, hangs or exits while loading is a failed candidate,
     * reported below as the load's violation. */
    ar_registry_t *registry = ar_registry_load(dirs);
    ar_registry_warn(registry);
    char *given = cli->dir ? ar_repr_str(cli->dir) : NULL;
    int status = check_loaded(registry, cli->collector, timeout, dir, given);
    free(given);
    ar_registry_free(registry);
    int interrupt = ar_spawn_take_interrupt();
    if (interrupt) {
        ar_diag_error("--check-collector: interrupted");
        status = 128 + interrupt;
    }
    free(dir);
    return status;
}
