/* SPDX-License-Identifier: MIT */
/* protontest.c - helpers shared by the Proton suites. */
#include "config.h"

#include "protontest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ar_registry_t *registry;
static const ar_module_t *module;

void pt_load(void)
{
    registry = tu_registry("plugins");
    module = tu_plugin(registry, "proton");
}

void pt_unload(void)
{
    ar_registry_free(registry);
    registry = NULL;
    module = NULL;
}

const ar_module_t *pt_plugin(void)
{
    return module;
}

const struct aorta_collector *pt_collector(void)
{
    return &module->collector;
}

int pt_validate(aorta_options_t *options, char **message)
{
    return tu_validate(pt_collector(), options, message);
}

void pt_bins_make(pt_bins_t *bins)
{
    bins->root = tu_tmpdir();
    bins->with_env = tu_join(bins->root, "bin");
    bins->env = tu_join(bins->with_env, "env");
    bins->empty = tu_join(bins->root, "empty");
    /* Only its path and executability matter to a wrap. */
    tu_write_mode(bins->env, "#!/bin/sh\nexec /usr/bin/env \"$@\"\n", 0755);
    char *keep = tu_join(bins->empty, "README");
    tu_write(keep, "nothing executable here\n");
    free(keep);
}

void pt_bins_free(pt_bins_t *bins)
{
    tu_rmtree(bins->root);
    free(bins->root);
    free(bins->with_env);
    free(bins->env);
    free(bins->empty);
}

/* Run fn with stderr going to a temporary file; return what it wrote. */
static char *stderr_of(int (*fn)(void *), void *user, int *status)
{
    char path[] = "/tmp/aorta-pt-err-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    *status = fn(user);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    char *text = tu_read(path);
    unlink(path);
    return text;
}

typedef struct wrap_call {
    const aorta_options_t *options;
    const char *out_dir;
    const aorta_argv_t *command;
    const aorta_env_t *environ;
    aorta_argv_t *out;
    aorta_error_t *err;
} wrap_call_t;

static int call_wrap(void *user)
{
    wrap_call_t *call = user;
    return pt_collector()->wrap(call->options, call->out_dir, call->command, call->environ, call->out,
                                call->err);
}

int pt_wrap(aorta_options_t *options, const char *out_dir, const aorta_argv_t *command,
            const aorta_env_t *environ, aorta_argv_t **out, char **error, char **warnings)
{
    char *message = NULL;
    ck_assert_msg(pt_validate(options, &message) == 0, "validate refused: %s", message);
    wrap_call_t call = {options, out_dir, command, environ, aorta_argv_new(), aorta_error_new()};
    int status;
    char *text = stderr_of(call_wrap, &call, &status);
    const char *msg = aorta_error_message(call.err);
    ck_assert_msg((status == 0) == (msg == NULL), "status %d with message %s", status,
                  msg ? msg : "(none)");
    if (error)
        *error = msg ? strdup(msg) : NULL;
    if (warnings)
        *warnings = text;
    else
        free(text);
    *out = call.out;
    aorta_error_free(call.err);
    return status;
}

char *pt_argv_text(const aorta_argv_t *argv)
{
    size_t len = 3;
    for (size_t i = 0; i < aorta_argv_count(argv); i++)
        len += strlen(aorta_argv_at(argv, i)) + 4;
    char *text = malloc(len);
    strcpy(text, "[");
    for (size_t i = 0; i < aorta_argv_count(argv); i++) {
        if (i)
            strcat(text, ", ");
        strcat(text, "\"");
        strcat(text, aorta_argv_at(argv, i));
        strcat(text, "\"");
    }
    strcat(text, "]");
    return text;
}

void pt_expect_argv(const aorta_argv_t *argv, const char *first, ...)
{
    aorta_argv_t *expected = aorta_argv_new();
    va_list args;
    va_start(args, first);
    for (const char *arg = first; arg; arg = va_arg(args, const char *))
        aorta_argv_push(expected, arg);
    va_end(args);
    int same = aorta_argv_count(argv) == aorta_argv_count(expected);
    for (size_t i = 0; same && i < aorta_argv_count(argv); i++)
        same = strcmp(aorta_argv_at(argv, i), aorta_argv_at(expected, i)) == 0;
    if (!same) {
        char *got = pt_argv_text(argv);
        char *want = pt_argv_text(expected);
        ck_abort_msg("argv\n  got  %s\n  want %s", got, want);
    }
    aorta_argv_free(expected);
}

long pt_index(const aorta_argv_t *argv, const char *arg)
{
    for (size_t i = 0; i < aorta_argv_count(argv); i++)
        if (strcmp(aorta_argv_at(argv, i), arg) == 0)
            return (long)i;
    return -1;
}

void pt_contains(const char *haystack, const char *needle)
{
    ck_assert_msg(haystack && strstr(haystack, needle), "expected '%s' in: %s", needle,
                  haystack ? haystack : "(null)");
}
