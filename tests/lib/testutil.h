/* SPDX-License-Identifier: MIT */
/* testutil.h - helpers shared by the Check suites. */
#ifndef AORTA_TESTUTIL_H
#define AORTA_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <sys/types.h>

#include "aorta/collector.h"

/* The registry's types by name only (registry/registry.h defines them): the
 * SDK's suites include this header and see nothing of core/. */
typedef struct ar_registry ar_registry_t;
typedef struct ar_module ar_module_t;

/* Whether this build runs under AddressSanitizer, whose own handlers turn
 * a child's SIGSEGV into exit status 1 and an address-space limit into its
 * own report: the few tests that provoke either expect that instead. */
#if defined(__SANITIZE_ADDRESS__)
#define TU_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TU_UNDER_ASAN 1
#endif
#endif
#ifndef TU_UNDER_ASAN
#define TU_UNDER_ASAN 0
#endif
/* The reason the registry gives a module that segfaults while loading. */
#define TU_CRASHED_WHILE_LOADING \
    (TU_UNDER_ASAN ? "exited while loading (status 1)" : "crashed while loading (signal 11)")

/* One main() per suite program: `AORTA_CHECK_MAIN(loader_suite)`. */
#define AORTA_CHECK_MAIN(SUITE_FN)                                  \
    int main(void)                                                  \
    {                                                               \
        SRunner *runner = srunner_create(SUITE_FN());               \
        srunner_run_all(runner, CK_ENV);                            \
        int failed = srunner_ntests_failed(runner);                 \
        srunner_free(runner);                                       \
        return failed == 0 ? 0 : 1;                                 \
    }

/* $AORTA_TEST_BUILDDIR / $AORTA_TEST_SRCDIR joined with rel (static buffer
 * per call site is not needed: the result is malloc'd; free it). */
char *tu_builddir(const char *rel);
char *tu_srcdir(const char *rel);

/* A fresh empty directory under $TMPDIR; free the path after tu_rmtree(). */
char *tu_tmpdir(void);
/* rm -rf without following symlinks. */
void tu_rmtree(const char *path);
/* Write text to path (0644); mkdir -p its parent. */
void tu_write(const char *path, const char *text);

/* A text grown by printf-style pieces: data is NUL-terminated once a piece
 * is in (start from {0}; free(data)). */
typedef struct tu_text {
    char *data;
    size_t len;
    size_t cap;
} tu_text_t;
void tu_text_add(tu_text_t *text, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tu_write_mode(const char *path, const char *text, int mode);
/* The whole file, NUL-terminated, or NULL. */
char *tu_read(const char *path);
/* What fn(user) writes on stderr (this process's), as text; free it. */
char *tu_stderr_of(void (*fn)(void *user), void *user);
char *tu_join(const char *a, const char *b);
int tu_exists(const char *path);
/* A copy of a run's summary with its "Wall time: ..." line read as
 * "Wall time: T" (the one figure that changes from run to run); free it. */
char *tu_mask_wall(const char *summary);
#define tu_assert_summary(got, want)              \
    do {                                          \
        char *masked_ = tu_mask_wall(got);        \
        ck_assert_str_eq(masked_, want);          \
        free(masked_);                            \
    } while (0)

/* Run argv (argv[0] looked up on PATH) with extra "K=V" settings applied to
 * the environment (and "K" alone to unset), capturing stdout and stderr
 * (either may be NULL).  Returns the exit status, or 128+signal. */
int tu_run(char *const *argv, char *const *env_changes, char **out, char **err);
/* The same started in the background with stdout and stderr on out_fd and
 * err_fd (the caller closes them).  Returns the child's pid. */
pid_t tu_spawn(char *const *argv, char *const *env_changes, int out_fd, int err_fd);
/* Wait for pid: its exit status, or 128+signal. */
int tu_wait(pid_t pid);

/* aorta-run from the build tree. */
char *tu_aorta_run(void);

/* The collectors in the build tree's directory rel ("plugins",
 * "tests/fake-collectors"), every candidate checked as --list-collectors
 * checks them, for suites that call a collector in this process. */
ar_registry_t *tu_registry(const char *rel);
/* Collector name of registry (asserted to have loaded). */
const ar_module_t *tu_plugin(const ar_registry_t *registry, const char *name);

/* Handles from NULL-terminated literal lists: ("key", "value", ..., NULL),
 * ("arg", ..., NULL), ("NAME", "VALUE", ..., NULL). */
aorta_options_t *tu_options(const char *first_key, ...);
aorta_argv_t *tu_argv(const char *first, ...);
aorta_env_t *tu_env(const char *first_name, ...);

/* collector's validate() on options: its status, and its message in
 * *message (free it; NULL when there is none) unless message is NULL.
 * Fails the test when validate refuses without a message. */
int tu_validate(const struct aorta_collector *collector, aorta_options_t *options,
                char **message);

#endif
