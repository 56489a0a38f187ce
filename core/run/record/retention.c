/* SPDX-License-Identifier: MIT */
/* retention.c - pruning a trial's files by the retain: level of its verdict.
 * Everything here works through held directory descriptors with O_NOFOLLOW:
 * the payload could have planted a symlink anywhere in its trees. */
#include "config.h"

#include "sys/diag.h"
#include "record/retention.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/files.h"
#include "sys/json.h"
#include "strmap.h"
#include "xalloc.h"

#define MAX_DEPTH 64
#define MANIFEST_NAME "artifacts.json"
#define MANIFEST_MAX_BYTES (4u << 20)

/* Class ranks: a file is kept when its rank is at most the level. */
enum { CLASS_RECORD = 0, CLASS_LOG = 1, CLASS_SUMMARY = 2, CLASS_HEAVY = 3 };

typedef struct prune {
    ar_retain_level_t level;
    ar_strmap_t manifest;     /* relative path -> class name */
    const char *prefix;          /* recorded before each relative path */
    const char *display;         /* the tree, for warnings */
    char **deleted;
    size_t count, capacity;
    int64_t freed_bytes;
} prune_t;

const char *ar_retain_level_name(ar_retain_level_t level)
{
    switch (level) {
    case AR_RETAIN_NONE:
        return "none";
    case AR_RETAIN_LOG:
        return "log";
    case AR_RETAIN_SUMMARY:
        return "summary";
    case AR_RETAIN_FULL:
    default:
        return "full";
    }
}

static int class_level(const char *name)
{
    if (strcmp(name, "log") == 0)
        return CLASS_LOG;
    if (strcmp(name, "summary") == 0)
        return CLASS_SUMMARY;
    return CLASS_HEAVY; /* "heavy", and anything unknown */
}

static int classify(const prune_t *prune, const char *rel, const char *name)
{
    if (strcmp(rel, "result.json") == 0)
        return CLASS_RECORD;
    const char *declared = ar_strmap_get(&prune->manifest, rel);
    if (declared)
        return class_level(declared);
    if (!strcmp(name, "stdout.log") || !strcmp(name, "stderr.log") || !strcmp(name, "probe.env"))
        return CLASS_LOG;
    if (!strcmp(name, MANIFEST_NAME) || strstr(name, ".summary."))
        return CLASS_SUMMARY;
    return CLASS_HEAVY;
}

/* Read root_fd/artifacts.json into prune->manifest; a symlinked one is
 * ignored, a malformed one warned about (the convention applies). */
static void load_manifest(prune_t *prune, int root_fd)
{
    size_t len;
    char *text = ar_read_file_at(root_fd, MANIFEST_NAME, MANIFEST_MAX_BYTES, &len);
    if (!text && (errno == ENOENT || errno == ELOOP))
        return;
    ar_json_t *json = text ? ar_json_parse(text, len, 16) : NULL;
    free(text);
    ar_json_t *list = ar_json_get(json, "artifacts");
    if (ar_json_type(list) != AR_JSON_ARRAY) {
        ar_diag_warn("retention: %s/%s is malformed; classifying by "
                        "name instead",
                prune->display, MANIFEST_NAME);
    } else {
        for (size_t i = 0; i < ar_json_length(list); i++) {
            ar_json_t *entry = ar_json_at(list, i);
            const char *path = ar_json_get_string(ar_json_get(entry, "path"));
            const char *kind = ar_json_get_string(ar_json_get(entry, "class"));
            if (path)
                ar_strmap_set(&prune->manifest, path, kind ? kind : "heavy");
        }
    }
    ar_json_free(json);
}

static char **list_names(int dir_fd, size_t *count)
{
    *count = 0;
    int copy = dup(dir_fd);
    DIR *dir = copy >= 0 ? fdopendir(copy) : NULL;
    if (!dir) {
        if (copy >= 0)
            close(copy);
        return NULL;
    }
    char **names = NULL;
    size_t capacity = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
            continue;
        ar_xgrow((void **)&names, &capacity, *count + 1, sizeof *names);
        names[(*count)++] = ar_xstrdup(entry->d_name);
    }
    closedir(dir);
    return names;
}

static void prune_dir(prune_t *prune, int dir_fd, const char *rel, int depth)
{
    size_t count = 0;
    char **names = list_names(dir_fd, &count);
    for (size_t i = 0; i < count; i++) {
        const char *name = names[i];
        char *path = rel[0] ? ar_xasprintf("%s/%s", rel, name) : ar_xstrdup(name);
        struct stat st;
        if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            /* gone meanwhile */
        } else if (S_ISLNK(st.st_mode)) {
            ar_diag_warn("retention: kept the symlink %s/%s (symlinks "
                            "are never followed or deleted)",
                    prune->display, path);
        } else if (S_ISDIR(st.st_mode)) {
            int sub = depth < MAX_DEPTH
                        ? openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                        : -1;
            if (sub >= 0) {
                prune_dir(prune, sub, path, depth + 1);
                close(sub);
                unlinkat(dir_fd, name, AT_REMOVEDIR); /* only when left empty */
            }
        } else if (S_ISREG(st.st_mode) && classify(prune, path, name) > (int)prune->level
                   && unlinkat(dir_fd, name, 0) == 0) {
            ar_xgrow((void **)&prune->deleted, &prune->capacity, prune->count + 1,
                        sizeof *prune->deleted);
            prune->deleted[prune->count++] = ar_xasprintf("%s%s", prune->prefix, path);
            prune->freed_bytes += st.st_size;
        }
        free(path);
        free(names[i]);
    }
    free(names);
}

static int compare_paths(const void *left, const void *right)
{
    return strcmp(*(char *const *)left, *(char *const *)right);
}

static void prune_tree(int root_fd, const char *prefix, const char *display,
                       ar_retain_level_t level, ar_retention_t *out)
{
    prune_t prune = {.level = level, .prefix = prefix, .display = display};
    ar_strmap_init(&prune.manifest);
    load_manifest(&prune, root_fd);
    prune_dir(&prune, root_fd, "", 0);
    ar_strmap_clear(&prune.manifest);
    if (prune.count > 1)
        qsort(prune.deleted, prune.count, sizeof *prune.deleted, compare_paths);
    for (size_t i = 0; i < prune.count; i++) {
        ar_xgrow((void **)&out->deleted, &out->capacity, out->count + 1, sizeof *out->deleted);
        out->deleted[out->count++] = prune.deleted[i];
    }
    free(prune.deleted);
    out->freed_bytes += prune.freed_bytes;
}

void ar_retention_apply(int trial_fd, int collect_fd, const char *collect_prefix,
                           const char *const *collector_names, size_t count,
                           ar_retain_level_t level, const char *display,
                           ar_retention_t *out)
{
    memset(out, 0, sizeof *out);
    if (level >= AR_RETAIN_FULL)
        return;
    prune_tree(trial_fd, "", display, level, out);
    if (collect_fd < 0)
        return;
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (fstatat(collect_fd, collector_names[i], &st, AT_SYMLINK_NOFOLLOW) == 0
            && S_ISLNK(st.st_mode)) {
            ar_diag_warn("retention: %s%s is a symlink; the collector "
                            "artifacts of %s are kept",
                    collect_prefix, collector_names[i], display);
            return;
        }
    }
    char *collect_display = ar_xasprintf("%s/%s", display, collect_prefix);
    size_t len = strlen(collect_display);
    if (len > 1 && collect_display[len - 1] == '/')
        collect_display[len - 1] = '\0';
    prune_tree(collect_fd, collect_prefix, collect_display, level, out);
    free(collect_display);
}

void ar_retention_clear(ar_retention_t *retention)
{
    for (size_t i = 0; i < retention->count; i++)
        free(retention->deleted[i]);
    free(retention->deleted);
    memset(retention, 0, sizeof *retention);
}
