/* SPDX-License-Identifier: MIT */
/* compose.c - turning the user's command into the argv a trial runs. */
#include "config.h"

#include "sweep/compose.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep/rank_env.h"
#include "sweep/rank_node.h"
#include "sweep/rank_exec_path.h"
#include "sys/nofollow.h"
#include "sys/quote.h"
#include "sys/rank_list.h"
#include "aorta/collector.h"
#include "xalloc.h"

/* Make <run_dir>/<collect_rel>/<name> empty (empty_name set) or make sure
 * it exists, then, with a leaf, make <name>/<leaf> an empty directory too.
 * Under a launcher the leaf is the rank%AORTA_RANK% placeholder, so that the
 * directory wrap() gets exists and is empty as the ABI promises (it is
 * removed again once every collector has wrapped); for one rank of an
 * --all-ranks run it is rank<k>, and <name>/ is kept: the other ranks write
 * beside it at the same time. */
static int prepare_dir(const char *run_dir, const char *collect_rel, const char *name,
                       int empty_name, const char *leaf, const char *out_dir, char **error)
{
    char *why = NULL;
    int status = -1;
    int run_fd = open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (run_fd < 0) {
        why = ar_xasprintf("%s: %s", run_dir, strerror(errno));
    } else {
        int collect_fd = ar_nofollow_open_dir(run_fd, collect_rel, 1, &why);
        if (collect_fd >= 0) {
            status = empty_name ? ar_nofollow_empty_dir_at(collect_fd, name, &why) : 0;
            if (status == 0 && leaf) {
                int name_fd = ar_nofollow_open_dir(collect_fd, name, 1, &why);
                status = name_fd >= 0 ? ar_nofollow_empty_dir_at(name_fd, leaf, &why) : -1;
                if (name_fd >= 0)
                    close(name_fd);
            }
            close(collect_fd);
        }
        close(run_fd);
    }
    if (status != 0) {
        *error = ar_xasprintf("collect: cannot prepare the %s artifact directory %s: %s. The "
                                 "collector has nowhere to write, so the trial would run "
                                 "unprofiled; fix the path or drop '%s' from the collect request.",
                                 name, out_dir, why, name);
    }
    free(why);
    return status;
}

/* The placeholder directory prepare_dir() made for wrap(): nobody writes
 * there (aorta-rank-exec points every rank at its own rank<k>/). */
static void remove_placeholder(const char *run_dir, const char *collect_rel, const char *name)
{
    char *rel = ar_xasprintf("%s/%s", collect_rel, name);
    char *why = NULL;
    int run_fd = open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int fd = run_fd >= 0 ? ar_nofollow_open_dir(run_fd, rel, 0, &why) : -1;
    if (fd >= 0) {
        char *leaf = ar_xasprintf("rank%s", AR_RANK_PLACEHOLDER);
        unlinkat(fd, leaf, AT_REMOVEDIR);
        free(leaf);
        close(fd);
    }
    if (run_fd >= 0)
        close(run_fd);
    free(why);
    free(rel);
}

/* "<name>: <message>", unless the message already starts with the name. */
static char *name_message(const char *name, const char *message)
{
    if (!message || !message[0])
        return ar_xasprintf("%s: wrap refused the command (no reason given)", name);
    size_t len = strlen(name);
    if (strncmp(message, name, len) == 0)
        return ar_xstrdup(message);
    return ar_xasprintf("%s: %s", name, message);
}

/* The collector's output directory: <dir> alone; under a launcher
 * <dir>/rank%AORTA_RANK% for aorta-rank-exec to fill in; for one rank of an
 * --all-ranks run, <dir>/rank<k>. */
static char *rank_out_dir(const char *collector_dir, int launched, long self_rank)
{
    if (self_rank >= 0)
        return ar_xasprintf("%s/rank%ld", collector_dir, self_rank);
    if (launched)
        return ar_xasprintf("%s/rank%s", collector_dir, AR_RANK_PLACEHOLDER);
    return ar_xstrdup(collector_dir);
}

/* One composition, as it wraps collector after collector. */
typedef struct composing {
    const ar_plan_t *plan;
    const char *run_dir, *collect_rel;
    char *collect_dir;             /* run_dir/collect_rel */
    const aorta_env_t *child_env;
    int prepare, launched;
    long self_rank;
    aorta_argv_t *current;         /* the command as wrapped so far */
    aorta_argv_t *rank_step;       /* aorta-rank-exec --mkdir DIR..., under a launcher */
    aorta_error_t *err;
} composing_t;

/* Wrap c->current in entry's collector, its directory prepared first.
 * 0, or -1 with *error set. */
static int wrap_in(composing_t *c, const ar_collect_entry_t *entry, char **error)
{
    const struct aorta_collector *collector = &entry->module->collector;
    char *collector_dir = aorta_path_join(c->collect_dir, collector->name);
    char *out_dir = rank_out_dir(collector_dir, c->launched, c->self_rank);
    free(collector_dir);
    if (c->rank_step) {
        aorta_argv_push(c->rank_step, "--mkdir");
        aorta_argv_push(c->rank_step, out_dir);
    }
    char *leaf = c->self_rank >= 0 ? ar_xasprintf("rank%ld", c->self_rank)
               : c->launched       ? ar_xasprintf("rank%s", AR_RANK_PLACEHOLDER)
                                   : NULL;
    int status = c->prepare ? prepare_dir(c->run_dir, c->collect_rel, collector->name,
                                          c->self_rank < 0, leaf, out_dir, error)
                            : 0;
    free(leaf);
    if (status == 0) {
        aorta_argv_t *wrapped = aorta_argv_new();
        aorta_error_clear(c->err);
        if (collector->wrap(entry->effective, out_dir, c->current, c->child_env, wrapped, c->err)
            != 0) {
            *error = name_message(collector->name, aorta_error_message(c->err));
            status = -1;
        } else if (aorta_argv_count(wrapped) == 0) {
            *error = ar_xasprintf("%s: wrap produced an empty command", collector->name);
            status = -1;
        } else {
            aorta_argv_free(c->current);
            c->current = wrapped;
            wrapped = NULL;
        }
        aorta_argv_free(wrapped);
    }
    free(out_dir);
    return status;
}

/* With chosen ranks, what aorta-rank-exec needs to run an unlisted rank
 * bare: the list and where the bare command is in the argv after "--".
 * Collectors that put the command last (rocprof, Proton mode env: argv
 * only, never aorta-run's environment) need --bare-at alone; one that
 * rewrites it (Proton mode cli) gets the command appended after its own
 * argv, which --wrapped-end ends. */
static void add_rank_choice(composing_t *c, const aorta_argv_t *command)
{
    const ar_plan_t *plan = c->plan;
    char *list = ar_rank_list_format(plan->ranks, plan->rank_count, ",");
    aorta_argv_push(c->rank_step, "--ranks");
    aorta_argv_push(c->rank_step, list);
    free(list);
    size_t wrapped = aorta_argv_count(c->current), bare = aorta_argv_count(command);
    int suffix = wrapped >= bare;
    for (size_t i = 0; suffix && i < bare; i++)
        suffix = !strcmp(aorta_argv_at(c->current, wrapped - bare + i), aorta_argv_at(command, i));
    char number[32];
    snprintf(number, sizeof number, "%zu", suffix ? wrapped - bare : wrapped);
    aorta_argv_push(c->rank_step, "--bare-at");
    aorta_argv_push(c->rank_step, number);
    if (!suffix) {
        aorta_argv_push(c->rank_step, "--wrapped-end");
        aorta_argv_push(c->rank_step, number);
        aorta_argv_push_all(c->current, command);
    }
}

/* The wrapped command inside aorta-rank-exec and then the launcher, as the
 * plan has them. */
static aorta_argv_t *enclose(composing_t *c, const aorta_argv_t *command)
{
    if (c->rank_step && c->plan->rank_count)
        add_rank_choice(c, command);
    aorta_argv_t *current = c->current;
    if (c->rank_step) {
        /* Each rank holds the run directory while it lives (record/lock.c). */
        aorta_argv_push(c->rank_step, "--hold");
        aorta_argv_push(c->rank_step, c->run_dir);
        aorta_argv_push(c->rank_step, "--");
        aorta_argv_push_all(c->rank_step, current);
        aorta_argv_free(current);
        current = c->rank_step;
    }
    const ar_plan_t *plan = c->plan;
    if (c->self_rank < 0 && plan->launcher && aorta_argv_count(plan->launcher) > 0) {
        aorta_argv_t *outer = aorta_argv_dup(plan->launcher);
        aorta_argv_push_all(outer, current);
        aorta_argv_free(current);
        current = outer;
    }
    return current;
}

/* Rank self_rank, not chosen, runs the command bare: its rank<k>/ an
 * earlier attempt may have left is removed (when preparing), so that no
 * capture of it is counted. */
static int compose_bare(const ar_plan_t *plan, const aorta_argv_t *command,
                        const char *run_dir, const char *collect_rel, int prepare,
                        long self_rank, aorta_argv_t **out, char **error)
{
    int run_fd = prepare ? open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    char *leaf = ar_xasprintf("rank%ld", self_rank);
    for (size_t i = 0; run_fd >= 0 && i < plan->collector_count; i++) {
        const char *name = plan->collectors[i].module->collector.name;
        char *rel = ar_xasprintf("%s/%s", collect_rel, name);
        char *why = NULL;
        int fd = ar_nofollow_open_dir(run_fd, rel, 0, &why);
        if (fd >= 0 && ar_nofollow_remove_tree_at(fd, leaf, &why) != 0 && !*error)
            *error = ar_xasprintf("collect: cannot remove %s/%s/%s, an earlier attempt's "
                                     "captures of this rank, which is not among the chosen "
                                     "ranks: %s",
                                     run_dir, rel, leaf, why);
        if (fd >= 0)
            close(fd);
        free(why);
        free(rel);
    }
    free(leaf);
    if (run_fd >= 0)
        close(run_fd);
    if (*error)
        return -1;
    *out = aorta_argv_dup(command);
    return 0;
}

/* Where each profiled rank notes its node (sweep/rank_node.h): under a
 * launcher aorta-rank-exec writes it (--node-file), with --all-ranks the
 * rank itself, once its directories are prepared. */
static void note_node(composing_t *c)
{
    if (c->launched) {
        char *name = ar_rank_node_file(-1);
        char *path = aorta_path_join(c->collect_dir, name);
        aorta_argv_push(c->rank_step, "--node-file");
        aorta_argv_push(c->rank_step, path);
        aorta_free(path);
        free(name);
    } else if (c->self_rank >= 0 && c->prepare && c->plan->collector_count > 0) {
        int run_fd = open(c->run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (run_fd >= 0) {
            ar_rank_node_note(run_fd, c->collect_rel, c->self_rank);
            close(run_fd);
        }
    }
}

int ar_compose(const ar_plan_t *plan, const aorta_argv_t *command, const char *run_dir,
                  const char *collect_rel, const aorta_env_t *child_env, int prepare,
                  long self_rank, aorta_argv_t **out, char **error)
{
    *out = NULL;
    *error = NULL;
    if (aorta_argv_count(command) == 0) {
        *error = ar_xstrdup("empty command");
        return -1;
    }
    if (self_rank >= 0 && !ar_plan_profiles_rank(plan, self_rank))
        return compose_bare(plan, command, run_dir, collect_rel, prepare, self_rank, out,
                            error);
    /* Under a launcher every rank writes below its own rank<k>/, which
     * aorta-rank-exec, just inside the launcher, creates and names. */
    int launched = self_rank < 0 && plan->launcher && aorta_argv_count(plan->launcher) > 0
                && plan->collector_count > 0;
    composing_t c = {plan, run_dir, collect_rel, NULL, child_env, prepare, launched, self_rank,
                     NULL, NULL, NULL};
    if (launched) {
        char *helper = ar_rank_exec_path(error);
        if (!helper)
            return -1;
        c.rank_step = aorta_argv_new();
        aorta_argv_push(c.rank_step, helper);
        free(helper);
    }
    c.current = aorta_argv_dup(command);
    c.collect_dir = aorta_path_join(run_dir, collect_rel);
    note_node(&c);
    c.err = aorta_error_new();
    int status = 0;
    /* In wrap order, innermost first: the collector of the highest
     * wrap_rank wraps the command, the lowest wraps everything else. */
    for (size_t i = plan->collector_count; i-- > 0 && status == 0;)
        status = wrap_in(&c, &plan->collectors[i], error);
    aorta_error_free(c.err);
    free(c.collect_dir);
    if (prepare && launched)
        for (size_t i = 0; i < plan->collector_count; i++)
            remove_placeholder(run_dir, collect_rel, plan->collectors[i].module->collector.name);
    if (status != 0) {
        aorta_argv_free(c.rank_step);
        aorta_argv_free(c.current);
        return -1;
    }
    *out = enclose(&c, command);
    return 0;
}

char *ar_compose_command_missing(const ar_plan_t *plan, const char *path_value)
{
    if ((plan->launcher && aorta_argv_count(plan->launcher) > 0)
        || aorta_argv_count(plan->command) == 0)
        return NULL;
    const char *name = aorta_argv_at(plan->command, 0);
    const char *why = NULL;
    char reached[160];
    struct stat st;
    if (!strchr(name, '/')) {
        char *found = aorta_which(name, path_value);
        if (found) {
            aorta_free(found);
            return NULL;
        }
        why = "is not found on PATH";
    } else if (stat(name, &st) != 0) {
        snprintf(reached, sizeof reached, "cannot be reached: %s", strerror(errno));
        why = errno == ENOENT || errno == ENOTDIR ? "does not exist" : reached;
    } else if (S_ISDIR(st.st_mode)) {
        why = "is a directory";
    } else if (access(name, X_OK) != 0) {
        why = "is not executable";
    } else {
        return NULL;
    }
    char *quoted = ar_repr_str(name);
    char *line = ar_xasprintf("%s %s", quoted, why);
    free(quoted);
    return line;
}
