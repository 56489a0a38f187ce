/* SPDX-License-Identifier: MIT */
/* fuzz_artifacts.c - retention with a payload's artifacts.json manifest.
 *
 * The input is the manifest of a small trial tree (logs, a summary, heavy
 * files, a nested directory, a symlink to a file outside the tree) and of
 * the trial's collector tree, where a collector's directory is sometimes a
 * symlink.  Both are pruned at the level the input's length picks.
 * Whatever the manifest says, result.json stays, the symlinks stay, the
 * file outside the trees stays, a collector tree with a symlinked
 * collector is left alone, and every path reported deleted is gone. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "record/retention.h"

static const char *const FILES[] = {
    "trial/result.json",   "trial/stdout.log",          "trial/stderr.log",
    "trial/probe.env",     "trial/report.summary.json", "trial/heavy.bin",
    "trial/sub/a.bin",     "trial/sub/deeper/b.log",    "trial/sub/result.json",
    "outside/keep.txt",    "collect/rocprof/out.csv",   "collect/proton/p.hatchet",
};
static const char *const COLLECTORS[] = {"rocprof", "proton"};
#define COLLECT_PREFIX "../_subprocess/trial_d0_m0_t0/"

static int exists(const char *rel)
{
    char *path = fz_path(rel);
    struct stat st;
    int found = lstat(path, &st) == 0;
    free(path);
    return found;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_remove("");
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++)
        fz_write(FILES[i], "x", 1);
    fz_write("trial/artifacts.json", data, size);
    fz_write("collect/artifacts.json", data, size);
    char *link = fz_path("trial/sub/outside");
    if (symlink("../../outside/keep.txt", link) != 0)
        fz_fail("symlink %s", link);
    free(link);
    int linked = size % 5 == 0;
    if (linked) {
        fz_remove("collect/proton");
        link = fz_path("collect/proton");
        if (symlink("../outside", link) != 0)
            fz_fail("symlink %s", link);
        free(link);
    }
    char *trial = fz_path("trial"), *collect = fz_path("collect");
    int fd = open(trial, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int collect_fd = open(collect, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || collect_fd < 0)
        fz_fail("open %s", trial);
    ar_retain_level_t level = (ar_retain_level_t)(size % 3); /* none, log, summary */
    ar_retention_t out;
    int saved = dup(2), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    dup2(null, 2); /* the warnings about the symlink and a malformed manifest */
    ar_retention_apply(fd, collect_fd, COLLECT_PREFIX, COLLECTORS, 2, level, "trial", &out);
    dup2(saved, 2);
    close(saved);
    close(null);
    close(fd);
    close(collect_fd);
    if (!exists("trial/result.json") || !exists("trial/sub/outside")
        || !exists("outside/keep.txt"))
        fz_fail("retention deleted what it must keep");
    for (size_t i = 0; i < out.count; i++) {
        const char *path = out.deleted[i];
        int collected = strncmp(path, COLLECT_PREFIX, strlen(COLLECT_PREFIX)) == 0;
        if (collected && linked)
            fz_fail("%s deleted from a tree with a symlinked collector", path);
        char rel[4096];
        snprintf(rel, sizeof rel, "%s/%s", collected ? "collect" : "trial",
                 collected ? path + strlen(COLLECT_PREFIX) : path);
        if (exists(rel))
            fz_fail("%s is reported deleted and is there", out.deleted[i]);
    }
    ar_retention_clear(&out);
    free(collect);
    free(trial);
    return 0;
}
