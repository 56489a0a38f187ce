/* SPDX-License-Identifier: MIT */
/* testutil.c - helpers shared by the Check suites. */
#include "config.h"

#include "testutil.h"

#include "commands.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *tu_join(const char *a, const char *b)
{
    size_t len = strlen(a) + strlen(b) + 2;
    char *out = malloc(len);
    snprintf(out, len, "%s/%s", a, b);
    return out;
}

static char *from_env_dir(const char *var, const char *rel)
{
    const char *dir = getenv(var);
    ck_assert_msg(dir != NULL, "%s is not set (run through make check)", var);
    return tu_join(dir, rel);
}

char *tu_builddir(const char *rel)
{
    return from_env_dir("AORTA_TEST_BUILDDIR", rel);
}

char *tu_srcdir(const char *rel)
{
    return from_env_dir("AORTA_TEST_SRCDIR", rel);
}

char *tu_aorta_run(void)
{
    return tu_builddir("core/aorta-run");
}

char *tu_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *templ = tu_join(base && base[0] ? base : "/tmp", "aorta-test-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(templ));
    return templ;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    if (remove(path) != 0 && errno == EACCES) {
        chmod(path, 0700);
        remove(path);
    }
    return 0;
}

void tu_rmtree(const char *path)
{
    /* Make unreadable test directories removable first. */
    char *cmd_chmod = NULL;
    (void)cmd_chmod;
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void mkdir_parents(const char *path)
{
    char *copy = strdup(path);
    for (char *c = copy + 1; *c; c++) {
        if (*c == '/') {
            *c = '\0';
            mkdir(copy, 0755);
            *c = '/';
        }
    }
    free(copy);
}

void tu_write_mode(const char *path, const char *text, int mode)
{
    mkdir_parents(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    ck_assert_msg(fd >= 0, "cannot write %s: %s", path, strerror(errno));
    size_t len = strlen(text);
    ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
    chmod(path, (mode_t)mode);
}

void tu_write(const char *path, const char *text)
{
    tu_write_mode(path, text, 0644);
}

void tu_text_add(tu_text_t *text, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    va_list copy;
    va_copy(copy, args);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    ck_assert_int_ge(n, 0);
    if (text->len + (size_t)n + 1 > text->cap) {
        text->cap = (text->len + (size_t)n + 1) * 2;
        text->data = realloc(text->data, text->cap);
        ck_assert_ptr_nonnull(text->data);
    }
    vsnprintf(text->data + text->len, (size_t)n + 1, fmt, args);
    text->len += (size_t)n;
    va_end(args);
}

char *tu_read(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    size_t cap = 4096, len = 0;
    char *data = malloc(cap);
    size_t got;
    while ((got = fread(data + len, 1, cap - len - 1, file)) > 0) {
        len += got;
        if (cap - len < 2) {
            cap *= 2;
            data = realloc(data, cap);
        }
    }
    fclose(file);
    data[len] = '\0';
    return data;
}

int tu_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

char *tu_stderr_of(void (*fn)(void *user), void *user)
{
    char *dir = tu_tmpdir();
    char *path = tu_join(dir, "stderr");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    close(fd);
    fn(user);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char *text = tu_read(path);
    ck_assert_ptr_nonnull(text);
    tu_rmtree(dir);
    free(path);
    free(dir);
    return text;
}

char *tu_mask_wall(const char *summary)
{
    const char *key = "Wall time: ";
    const char *at = summary ? strstr(summary, key) : NULL;
    if (!at)
        return strdup(summary ? summary : "");
    const char *end = strchr(at, '\n');
    end = end ? end : at + strlen(at);
    size_t head = (size_t)(at - summary) + strlen(key);
    char *out = malloc(head + 1 + strlen(end) + 1);
    memcpy(out, summary, head);
    out[head] = 'T';
    strcpy(out + head + 1, end);
    return out;
}

static char *slurp_fd(int fd)
{
    size_t cap = 4096, len = 0;
    char *data = malloc(cap);
    for (;;) {
        if (cap - len < 2) {
            cap *= 2;
            data = realloc(data, cap);
        }
        ssize_t got = read(fd, data + len, cap - len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    data[len] = '\0';
    return data;
}

pid_t tu_spawn(char *const *argv, char *const *env_changes, int out_fd, int err_fd)
{
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        for (size_t i = 0; env_changes && env_changes[i]; i++) {
            char *eq = strchr(env_changes[i], '=');
            if (eq) {
                char *name = strndup(env_changes[i], (size_t)(eq - env_changes[i]));
                setenv(name, eq + 1, 1);
                free(name);
            } else {
                unsetenv(env_changes[i]);
            }
        }
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

int tu_wait(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int tu_run(char *const *argv, char *const *env_changes, char **out, char **err)
{
    /* Capture through temporary files so a large output cannot block. */
    char out_path[] = "/tmp/aorta-tu-out-XXXXXX";
    char err_path[] = "/tmp/aorta-tu-err-XXXXXX";
    int out_fd = mkstemp(out_path);
    int err_fd = mkstemp(err_path);
    ck_assert(out_fd >= 0 && err_fd >= 0);
    int status = tu_wait(tu_spawn(argv, env_changes, out_fd, err_fd));
    lseek(out_fd, 0, SEEK_SET);
    lseek(err_fd, 0, SEEK_SET);
    if (out)
        *out = slurp_fd(out_fd);
    if (err)
        *err = slurp_fd(err_fd);
    close(out_fd);
    close(err_fd);
    unlink(out_path);
    unlink(err_path);
    return status;
}

ar_registry_t *tu_registry(const char *rel)
{
    /* The suites call collectors as aorta-run does, warnings included. */
    aorta_warning_set_handler(ar_diag_collector_warning, NULL);
    char *dir = tu_builddir(rel);
    char *dirs[] = {dir, NULL};
    ar_registry_t *registry = ar_registry_load(dirs);
    /* Every candidate checked, as --list-collectors sees them. */
    ar_registry_check_all(registry);
    free(dir);
    return registry;
}

const ar_module_t *tu_plugin(const ar_registry_t *registry, const char *name)
{
    const ar_module_t *module = ar_registry_open(registry, name);
    ck_assert_msg(module != NULL, "collector %s did not load", name);
    return module;
}

aorta_options_t *tu_options(const char *first_key, ...)
{
    aorta_options_t *options = aorta_options_new();
    va_list args;
    va_start(args, first_key);
    for (const char *key = first_key; key; key = va_arg(args, const char *))
        aorta_options_set(options, key, va_arg(args, const char *));
    va_end(args);
    return options;
}

aorta_argv_t *tu_argv(const char *first, ...)
{
    aorta_argv_t *argv = aorta_argv_new();
    va_list args;
    va_start(args, first);
    for (const char *arg = first; arg; arg = va_arg(args, const char *))
        aorta_argv_push(argv, arg);
    va_end(args);
    return argv;
}

aorta_env_t *tu_env(const char *first_name, ...)
{
    aorta_env_t *env = aorta_env_new();
    va_list args;
    va_start(args, first_name);
    for (const char *name = first_name; name; name = va_arg(args, const char *))
        aorta_env_set(env, name, va_arg(args, const char *));
    va_end(args);
    return env;
}

int tu_validate(const struct aorta_collector *collector, aorta_options_t *options,
                char **message)
{
    aorta_error_t *err = aorta_error_new();
    int status = collector->validate(options, err);
    const char *text = aorta_error_message(err);
    ck_assert_msg(status == 0 || text, "%s: validate refused without a message", collector->name);
    if (message)
        *message = text ? strdup(text) : NULL;
    aorta_error_free(err);
    return status;
}
