/* SPDX-License-Identifier: MIT */
/* replay.c - make check's side of the fuzz harnesses: run one harness's
 * LLVMFuzzerTestOneInput() over the inputs checked in under
 * tests/fuzz/corpus/<target>/ (the crashes, hangs and blow-ups fuzzing
 * found, and a few seeds), built with the normal compiler and no libFuzzer.
 * A harness stops the process when a check fails; a whole replay that
 * takes more than a minute counts as a hang.
 *
 * Usage: replay_<target> [FILE|DIR]...  (default: the target's corpus and
 * the fixtures it is seeded with, FUZZ_FIXTURES, below $AORTA_TEST_SRCDIR). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"

#ifndef FUZZ_TARGET
#error "FUZZ_TARGET names the corpus directory"
#endif

#define REPLAY_SECONDS 60

static size_t replayed;

static void replay_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        fz_fail("cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    unsigned char *data = malloc(cap);
    for (size_t got; (got = fread(data + len, 1, cap - len, file)) > 0;) {
        len += got;
        if (len == cap)
            data = realloc(data, cap *= 2);
    }
    fclose(file);
    /* An exact-size copy, so reading past the input is caught by ASan. */
    unsigned char *exact = malloc(len ? len : 1);
    memcpy(exact, data, len);
    free(data);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    replayed++;
}

static int compare_names(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

static void replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        fz_fail("cannot read %s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        replay_file(path);
        return;
    }
    DIR *dir = opendir(path);
    if (!dir)
        fz_fail("cannot list %s: %s", path, strerror(errno));
    char **names = NULL;
    size_t count = 0;
    for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
        if (entry->d_name[0] == '.' || !strcmp(entry->d_name, "README.md"))
            continue;
        names = realloc(names, (count + 1) * sizeof *names);
        names[count++] = strdup(entry->d_name);
    }
    closedir(dir);
    qsort(names, count, sizeof *names, compare_names);
    for (size_t i = 0; i < count; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *child = malloc(len);
        snprintf(child, len, "%s/%s", path, names[i]);
        replay_path(child);
        free(child);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    alarm(REPLAY_SECONDS);
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            replay_path(argv[i]);
    } else {
        const char *srcdir = getenv("AORTA_TEST_SRCDIR");
        static const char *const dirs[] = {"tests/fuzz/corpus/" FUZZ_TARGET,
#ifdef FUZZ_FIXTURES
                                           FUZZ_FIXTURES,
#endif
        };
        for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
            size_t len = strlen(srcdir ? srcdir : ".") + strlen(dirs[i]) + 2;
            char *dir = malloc(len);
            snprintf(dir, len, "%s/%s", srcdir ? srcdir : ".", dirs[i]);
            replay_path(dir);
            free(dir);
        }
    }
    if (replayed == 0)
        fz_fail("no input replayed");
    printf("%s: %zu input(s) replayed\n", FUZZ_TARGET, replayed);
    return 0;
}
