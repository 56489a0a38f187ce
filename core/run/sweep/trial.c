/* SPDX-License-Identifier: MIT */
/* trial.c - one trial, from its directories to its trial JSON.
 *
 * Order (docs/design.md, docs/collectors/rocprof.md): prepare the trial directory
 * and clear the last attempt's files; build the child's environment;
 * compose the argv (collector directories emptied); run; classify; write
 * result.json; parse the collectors' artifacts; apply retention (result.json
 * rewritten with capture.retention); write the trial JSON.  A failure before
 * the command runs is a setup failure: an error trial without result.json,
 * so a later run retries it. */
#include "config.h"

#include "sys/diag.h"
#include "sweep/trial.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/classify.h"
#include "sys/clock.h"
#include "sys/files.h"
#include "sys/knobs.h"
#include "sweep/compose.h"
#include "sys/nofollow.h"
#include "aorta/collector.h"
#include "sweep/parse_child.h"
#include "sweep/progress.h"
#include "sweep/rank_node.h"
#include "sweep/rank_parse.h"
#include "record/rank_record.h"
#include "record/retention.h"
#include "sys/spawn.h"
#include "record/kernel_file.h"
#include "record/timeline.h"
#include "sweep/timeline_parts.h"
#include "record/layout.h"
#include "record/gpu_state.h"
#include "record/trial_json.h"
#include "record/trial_record.h"
#include "xalloc.h"

#define ENV_FILE_NAME "probe.env"

extern char **environ;

typedef struct trial {
    const ar_run_ctx_t *ctx;
    const ar_plan_t *plan;
    const ar_cell_t *cell;
    int index;
    char *trial_rel, *collect_rel;       /* below the run directory */
    char *trial_dir, *result_path;       /* absolute */
    char *cell_dir, *log_prefix, *json_path;
    char *display_dir;                   /* the trial directory as the user sees it */
    int trial_fd;
    struct stat cell_stat;
    aorta_env_t *child_env;              /* what the command runs with */
    aorta_env_t *trial_env;              /* what the trial adds to aorta-run's environment */
    aorta_argv_t *argv;                  /* what ran */
    char *setup_error;                   /* why the command could not be set up */
    char *env_file_error;                /* why probe.env was refused */
    char *ranks_missing;                 /* --all-ranks: "1, 3", the ranks without a record */
    char *record_error;                  /* why a file of the trial could not be written */
    ar_spawn_result_t spawn;
    ar_classification_t classification;
    aorta_metrics_t *collected;
    int retained;
    ar_retain_level_t level;
    ar_retention_t retention;
    char started_at[AR_CLOCK_TEXT];      /* when it started, ISO 8601 UTC */
    char node[256];                      /* the host name; "" when unknown */
    ar_json_t *gpu;                      /* the GPUs just before it; NULL: no nvidia-smi */
} trial_t;

static void set_setup_error(trial_t *trial, char *message)
{
    if (trial->setup_error)
        free(message);
    else
        trial->setup_error = message;
}

/* A file of the trial that could not be written where it belongs: one
 * error line, the trial an error, the run's exit status 1. */
static void write_failed(trial_t *trial, const char *name, const char *why)
{
    ar_diag_error("cannot write %s/%s: %s", trial->display_dir, name, why);
    if (!trial->record_error)
        trial->record_error = ar_xasprintf("cannot write %s/%s: %s", trial->display_dir,
                                              name, why);
    if (trial->ctx->write_failed)
        *trial->ctx->write_failed = 1;
}

/* The trial directory (created, no symlink on the way), the _subprocess
 * directory, and the last attempt's files gone. */
static void prepare_dirs(trial_t *trial)
{
    const ar_run_ctx_t *ctx = trial->ctx;
    char *why = NULL;
    trial->trial_fd = ar_nofollow_open_dir(ctx->run_fd, trial->trial_rel, 1, &why);
    if (trial->trial_fd < 0) {
        set_setup_error(trial, ar_xasprintf("cannot prepare the trial directory %s: %s",
                                               trial->trial_dir, why));
        free(why);
        return;
    }
    char *sub_rel = ar_workload_dir_rel(trial->cell->name);
    int sub_fd = ar_nofollow_open_dir(ctx->run_fd, sub_rel, 1, &why);
    if (sub_fd < 0) {
        set_setup_error(trial, ar_xasprintf("cannot prepare %s/%s: %s", ctx->run_dir, sub_rel,
                                               why));
        free(why);
    } else {
        close(sub_fd);
    }
    free(sub_rel);
    if (fstatat(ctx->run_fd, trial->cell->name, &trial->cell_stat, AT_SYMLINK_NOFOLLOW) != 0)
        memset(&trial->cell_stat, 0, sizeof trial->cell_stat);
    unlinkat(trial->trial_fd, "result.json", 0);
    unlinkat(trial->trial_fd, "stdout.log", 0);
    unlinkat(trial->trial_fd, "stderr.log", 0);
    if (strcmp(trial->plan->env_passthrough_mode, "file") != 0)
        unlinkat(trial->trial_fd, ENV_FILE_NAME, 0);
}

/* env_passthrough_mode file: the cell's variables, sorted, one KEY=VALUE
 * per line, 0600; a variable a line cannot carry refuses the file. */
/* "NAME=VALUE" lines by NAME (names hold no '='), byte-wise. */
static int by_name(const void *left, const void *right)
{
    const unsigned char *a = *(const unsigned char *const *)left;
    const unsigned char *b = *(const unsigned char *const *)right;
    for (;; a++, b++) {
        int ca = *a == '=' ? 0 : *a, cb = *b == '=' ? 0 : *b;
        if (ca != cb || ca == 0)
            return ca - cb;
    }
}

static void write_env_file(trial_t *trial)
{
    const aorta_env_t *env = trial->cell->env;
    size_t count = aorta_env_count(env), len = 0;
    /* "NAME=VALUE" lines, sorted by name. */
    char **lines = ar_xcalloc(count ? count : 1, sizeof *lines);
    for (size_t i = 0; i < count; i++) {
        const char *name = aorta_env_name_at(env, i), *value = aorta_env_value_at(env, i);
        if (strpbrk(name, "=\n\r") || strpbrk(value, "\n\r")) {
            trial->env_file_error = ar_xasprintf(
                "probe.env: variable '%s' has a line break or '=' that an env file cannot carry",
                name);
            for (size_t j = 0; j < i; j++)
                free(lines[j]);
            free(lines);
            return;
        }
        lines[i] = ar_xasprintf("%s=%s", name, value);
        len += strlen(lines[i]) + 1;
    }
    qsort(lines, count, sizeof *lines, by_name);
    char *text = ar_xmalloc(len + 1);
    char *cursor = text;
    for (size_t i = 0; i < count; i++) {
        cursor += sprintf(cursor, "%s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
    int fd = ar_open_output_at(trial->trial_fd, ENV_FILE_NAME, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || fchmod(fd, 0600) != 0 || ar_write_all(fd, text, len) != 0)
        set_setup_error(trial, ar_xasprintf("cannot write %s/" ENV_FILE_NAME ": %s",
                                               trial->trial_dir, strerror(errno)));
    if (fd >= 0)
        close(fd);
    free(text);
}

static void build_env(trial_t *trial)
{
    trial->child_env = aorta_env_dup(trial->ctx->base_env);
    trial->trial_env = aorta_env_dup(trial->cell->env);
    for (size_t i = 0; i < aorta_env_count(trial->cell->env); i++)
        aorta_env_set(trial->child_env, aorta_env_name_at(trial->cell->env, i),
                      aorta_env_value_at(trial->cell->env, i));
    if (trial->setup_error || strcmp(trial->plan->env_passthrough_mode, "file") != 0)
        return;
    write_env_file(trial);
    char *path = ar_xasprintf("%s/" ENV_FILE_NAME, trial->trial_dir);
    aorta_env_set(trial->child_env, "AORTA_ENV_FILE", path);
    aorta_env_set(trial->trial_env, "AORTA_ENV_FILE", path);
    free(path);
}

static void compose(trial_t *trial)
{
    if (trial->setup_error || trial->env_file_error)
        return;
    char *error = NULL;
    if (ar_compose(trial->plan, trial->plan->command, trial->ctx->run_dir,
                           trial->collect_rel, trial->child_env, 1, trial->ctx->self_rank,
                           &trial->argv, &error)
        != 0) {
        set_setup_error(trial, error);
        return;
    }
    /* A program that is not there starts no profiler: the command alone
     * fails to start as it does without collectors (exit 127, "cannot
     * execute", named in the summary), with the collectors' directories
     * emptied above. */
    char *missing = ar_compose_command_missing(trial->plan,
                                                  aorta_env_get(trial->child_env, "PATH"));
    if (missing) {
        aorta_argv_free(trial->argv);
        trial->argv = aorta_argv_dup(trial->plan->command);
        free(missing);
    }
}

static int open_capture(int dir_fd, const char *name)
{
    return ar_open_output_at(dir_fd, name, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
}

static void run_command(trial_t *trial)
{
    int out = open_capture(trial->trial_fd, "stdout.log");
    int err = out >= 0 ? open_capture(trial->trial_fd, "stderr.log") : -1;
    char **envp = aorta_env_to_envp(trial->child_env);
    if (out < 0 || err < 0
        || ar_spawn_run_fds(aorta_argv_items(trial->argv), envp, out, err,
                               trial->plan->timeout_sec, trial->ctx->kill_grace_sec, &trial->spawn)
               != 0)
        set_setup_error(trial, ar_xasprintf("cannot run the command with its output in %s: %s",
                                               trial->trial_dir, strerror(errno)));
    aorta_env_free_envp(envp);
    if (!trial->setup_error) {
        if (ar_fd_filled(out))
            write_failed(trial, "stdout.log", "the payload's output may be cut short: "
                                               "the disk is full or a file size limit was hit");
        else if (ar_fd_filled(err))
            write_failed(trial, "stderr.log", "the payload's output may be cut short: "
                                               "the disk is full or a file size limit was hit");
    }
    if (out >= 0)
        close(out);
    if (err >= 0)
        close(err);
}

static void write_record(trial_t *trial)
{
    const char *retention_level = ar_retain_level_name(trial->level);
    ar_trial_record_t record = {
        .spawn = &trial->spawn,
        .classification = &trial->classification,
        .argv = trial->argv ? trial->argv : trial->plan->command,
        .cell_name = trial->cell->name,
        .trial_index = trial->index,
        .env_passthrough_mode = trial->plan->env_passthrough_mode,
        .cell_env = trial->cell->env,
        .retention = trial->retained ? &trial->retention : NULL,
        .retention_level = retention_level,
        .failure_type = trial->env_file_error ? "env_file_validation_failed" : NULL,
        .error_message = trial->env_file_error,
    };
    ar_json_t *json = ar_trial_record_json(&record);
    /* Opened again from the run directory: the payload may have swapped the
     * trial directory for a symlink since. */
    char *why = NULL;
    int fd = ar_nofollow_open_dir(trial->ctx->run_fd, trial->trial_rel, 1, &why);
    if (fd < 0) {
        write_failed(trial, "result.json", why);
        free(why);
    } else {
        if (ar_json_write_file_at(fd, "result.json", json) != 0)
            write_failed(trial, "result.json", strerror(errno));
        close(fd);
    }
    ar_json_free(json);
}

static void merge_metrics(aorta_metrics_t *into, const aorta_metrics_t *from)
{
    for (size_t i = 0; i < aorta_metrics_count(from); i++) {
        const aorta_metric_t *metric = aorta_metrics_at(from, i);
        switch (metric->type) {
        case AORTA_METRIC_INT:
            aorta_metrics_set_int(into, metric->key, metric->int_value);
            break;
        case AORTA_METRIC_DOUBLE:
            aorta_metrics_set_double(into, metric->key, metric->double_value);
            break;
        case AORTA_METRIC_STRING:
            aorta_metrics_set_string(into, metric->key, metric->string_value);
            break;
        case AORTA_METRIC_STRINGS:
            aorta_metrics_set_strings_n(into, metric->key, (const char *const *)metric->strings,
                                        metric->string_lengths, metric->string_count);
            break;
        }
    }
}

/* Whether collectors write per rank: under the recipe's launcher, or as
 * rank 0 of an --all-ranks run. */
static int ranked(const trial_t *trial)
{
    return trial->ctx->self_rank >= 0
        || (trial->plan->launcher && aorta_argv_count(trial->plan->launcher) > 0);
}

/* Rank 0 of an --all-ranks run: the other ranks' records of this trial,
 * waited for (bounded).  A missing rank makes the trial an error, a rank
 * that failed makes a passing trial fail. */
static void gather_ranks(trial_t *trial)
{
    const ar_run_ctx_t *ctx = trial->ctx;
    if (ctx->world_size <= 1 || trial->spawn.interrupted)
        return;
    ar_json_t **records = ar_xcalloc((size_t)ctx->world_size, sizeof *records);
    size_t missing = ar_rank_records_wait(ctx->run_dir, trial->cell->name, trial->index,
                                             ctx->world_size, ctx->wall_started,
                                             ar_rank_wait_sec(trial->plan->timeout_sec),
                                             records);
    int failed = 0;
    char *list = ar_rank_missing_list(records, ctx->world_size);
    for (long k = 1; k < ctx->world_size; k++) {
        if (!records[k])
            continue;
        const char *verdict = ar_json_get_string(ar_json_get(records[k], "verdict"));
        failed |= !verdict || strcmp(verdict, "pass") != 0;
        ar_json_free(records[k]);
    }
    free(records);
    ar_classification_t *c = &trial->classification;
    if (missing) {
        ar_diag_warn("%s: no record from rank(s) %s after %.0f s; the trial is an error",
                        trial->display_dir, list, ar_rank_wait_sec(trial->plan->timeout_sec));
        trial->ranks_missing = list;
        c->verdict = "error";
        if (!c->error_detectors[0])
            c->error_detectors[0] = "meta:rank_missing";
        return;
    }
    free(list);
    if (failed && !strcmp(c->verdict, "pass")) {
        c->verdict = "fail";
        c->failure_detectors[0] = "meta:rank_failed";
        c->failure_detectors[1] = NULL;
    }
}

/* A file written beside the trial JSON (its kernel tables, its timeline):
 * the cell's _subprocess/ open below the run directory without following
 * a symlink, like the trial JSON, and the file's name there. */
typedef struct beside {
    char *sub_rel, *name, *why;
    int fd;
} beside_t;

static void beside_open(const trial_t *trial, char *(*name_of)(const char *), beside_t *b)
{
    char *json_rel = ar_trial_json_rel(trial->cell->name, trial->index);
    b->name = name_of(strrchr(json_rel, '/') + 1);
    free(json_rel);
    b->sub_rel = ar_workload_dir_rel(trial->cell->name);
    b->why = NULL;
    b->fd = ar_nofollow_open_dir(trial->ctx->run_fd, b->sub_rel, 1, &b->why);
}

/* Done with it; failed: one error line (why, else errno's), and the run
 * knows a file is missing. */
static void beside_close(const trial_t *trial, beside_t *b, int failed)
{
    if (failed) {
        ar_diag_error("cannot write %s/%s/%s: %s", trial->ctx->display_dir, b->sub_rel,
                         b->name, b->why ? b->why : strerror(errno));
        if (trial->ctx->write_failed)
            *trial->ctx->write_failed = 1;
    }
    if (b->fd >= 0)
        close(b->fd);
    free(b->why);
    free(b->sub_rel);
    free(b->name);
}

/* The kernel tables, now: retention may prune the artifacts next; tables
 * NULL: remove one an earlier attempt left. */
static void write_kernel_tables(const trial_t *trial, const ar_json_t *tables)
{
    beside_t b;
    beside_open(trial, ar_kernel_file_path, &b);
    int failed = b.fd < 0;
    if (b.fd >= 0 && !tables)
        unlinkat(b.fd, b.name, 0);
    else if (b.fd >= 0)
        failed = ar_kernel_file_write_at(b.fd, b.name, tables, &b.why) != 0;
    beside_close(trial, &b, failed);
}

/* Each rank's table of a multi-rank trial beside the merged one (a rank
 * whose parse failed has none: its figures are unknown, not zero). */
static void add_rank_tables(ar_json_t *tables, const char *name, const ar_rank_set_t *ranks)
{
    for (size_t r = 0; r < ranks->count; r++)
        if (ranks->results[r].metrics)
            ar_kernel_file_add_rank(tables, name, ranks->results[r].rank,
                                       aorta_metrics_kernels(ranks->results[r].metrics));
}

/* Whether the trial's ranks ran on one node and so share a clock: one
 * process, or every rank of the timeline noted the same node
 * (sweep/rank_node.h). */
static int one_node(const trial_t *trial, const ar_timeline_parts_t *parts)
{
    if (!ranked(trial))
        return 1;
    if (!parts || !parts->count)
        return 0;
    long *ranks = ar_xcalloc(parts->count, sizeof *ranks);
    for (size_t i = 0; i < parts->count; i++)
        ranks[i] = parts->sources[i].rank;
    int one = ar_rank_nodes_one(trial->ctx->run_fd, trial->collect_rel, ranks, parts->count);
    free(ranks);
    return one;
}

/* The timeline beside the kernel tables (docs/multi-rank.md, Timeline),
 * when a dispatch exists; else remove one an earlier attempt left.  Ranks
 * share its time 0 when they ran on one node (one_node()). */
static void write_timeline(const trial_t *trial, const ar_timeline_parts_t *parts)
{
    beside_t b;
    beside_open(trial, ar_timeline_path, &b);
    int failed = b.fd < 0
                 || ar_timeline_parts_write_at(parts, b.fd, b.name, one_node(trial, parts)) != 0;
    beside_close(trial, &b, failed);
}

/* Each collector's parse, in plan order, reached without following a
 * symlink; a missing directory contributes nothing. */
static void parse_collectors(trial_t *trial)
{
    const ar_plan_t *plan = trial->plan;
    if (plan->collector_count == 0) {
        /* A table left by an attempt with collectors is not this trial's. */
        write_kernel_tables(trial, NULL);
        write_timeline(trial, NULL);
        return;
    }
    ar_timeline_parts_t parts = {0};
    trial->collected = aorta_metrics_new(NULL);
    ar_json_t *tables = ar_kernel_file_new(trial->index);
    for (size_t i = 0; i < plan->collector_count; i++) {
        const ar_collect_entry_t *entry = &plan->collectors[i];
        const char *name = entry->module->collector.name;
        char *rel = ar_xasprintf("%s/%s", trial->collect_rel, name);
        char *dir = ar_xasprintf("%s/%s", trial->ctx->run_dir, rel);
        char *why = NULL;
        int fd = ar_nofollow_open_dir(trial->ctx->run_fd, rel, 0, &why);
        struct stat st;
        if (fd >= 0) {
            int interrupted = 0;
            aorta_metrics_t *metrics = ar_parse_in_child_env(
                entry->module, entry->effective, dir, trial->child_env, &interrupted);
            /* A launcher run, or one of --all-ranks: the per-rank keys too
             * (docs/design.md, Multi-rank runs); an interrupt stops them
             * and stays pending until taken here. */
            ar_rank_set_t ranks = {0};
            if (!interrupted && ranked(trial)) {
                ar_rank_metrics(entry->module, entry->effective, fd, dir, plan->ranks,
                                   plan->rank_count, metrics, &ranks);
                interrupted = ar_spawn_take_interrupt();
            }
            close(fd);
            merge_metrics(trial->collected, metrics);
            ar_kernel_file_add(tables, name, aorta_metrics_kernels(metrics));
            add_rank_tables(tables, name, &ranks);
            ar_timeline_parts_keep(&parts, name, metrics, &ranks);
            if (interrupted) {
                trial->spawn.interrupted = interrupted;
                ar_json_free(tables); /* an interrupted trial keeps no tables */
                ar_timeline_parts_free(&parts);
                free(why);
                free(dir);
                free(rel);
                return;
            }
        } else if (!(lstat(dir, &st) != 0 && errno == ENOENT)) {
            ar_diag_warn("collect: %s: %s; refusing to parse artifacts "
                            "through it. No %s metrics for this trial.",
                    dir, why, name);
        }
        free(why);
        free(dir);
        free(rel);
    }
    write_kernel_tables(trial, tables);
    ar_json_free(tables);
    write_timeline(trial, &parts);
    ar_timeline_parts_free(&parts);
}

static ar_retain_level_t level_for(const ar_plan_t *plan, const char *verdict)
{
    if (!strcmp(verdict, "pass"))
        return plan->retain_on_pass;
    if (!strcmp(verdict, "fail"))
        return plan->retain_on_fail;
    return plan->retain_on_error;
}

static void apply_retention(trial_t *trial)
{
    const ar_plan_t *plan = trial->plan;
    if (!plan->has_retain)
        return;
    trial->level = level_for(plan, trial->classification.verdict);
    int collect_fd = -1;
    const char **names = ar_xcalloc(plan->collector_count + 1, sizeof *names);
    for (size_t i = 0; i < plan->collector_count; i++)
        names[i] = plan->collectors[i].module->collector.name;
    if (plan->collector_count > 0 && trial->level < AR_RETAIN_FULL) {
        char *why = NULL;
        collect_fd = ar_nofollow_open_dir(trial->ctx->run_fd, trial->collect_rel, 0, &why);
        if (collect_fd < 0)
            ar_diag_warn("retention: collector artifacts of %s kept: %s",
                    trial->display_dir, why);
        free(why);
    }
    char *tag = ar_trial_tag(trial->index);
    char *prefix = ar_xasprintf("../" AR_WORKLOAD "/trial_d0_m0_%s/", tag);
    free(tag);
    ar_retention_apply(trial->trial_fd, collect_fd, prefix, names, plan->collector_count,
                          trial->level, trial->display_dir, &trial->retention);
    trial->retained = 1;
    if (collect_fd >= 0)
        close(collect_fd);
    free(prefix);
    free(names);
    write_record(trial);
    ar_progress(plan->verbose,
                   "retention[%s]: pruned %zu artifact(s) (~%lld bytes) for trial %s",
                   ar_retain_level_name(trial->level), trial->retention.count,
                   (long long)trial->retention.freed_bytes, trial->display_dir);
}

static const char *signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "signal";
}

/* Why the command could not be executed, as the summary shows it. */
static ar_json_t *exec_error(const trial_t *trial)
{
    const aorta_argv_t *argv = trial->argv ? trial->argv : trial->plan->command;
    char *text = ar_xasprintf("cannot execute '%s': %s", aorta_argv_items(argv)[0],
                                 strerror(trial->spawn.exec_errno));
    ar_json_t *json = ar_json_string(text);
    free(text);
    return json;
}

/* The one failure_details entry of a trial that did not pass. */
static ar_json_t *failure_detail(const trial_t *trial)
{
    ar_json_t *detail = ar_json_object();
    if (trial->record_error && !trial->setup_error && !trial->spawn.interrupted) {
        ar_json_set(detail, "error", ar_json_string(trial->record_error));
        ar_json_set(detail, "type", ar_json_string("record_failed"));
        ar_json_set(detail, "phase", ar_json_string("record"));
        return detail;
    }
    if (trial->setup_error) {
        ar_json_set(detail, "error", ar_json_string(trial->setup_error));
        ar_json_set(detail, "type", ar_json_string("setup_failed"));
        ar_json_set(detail, "phase", ar_json_string("setup"));
        return detail;
    }
    const ar_spawn_result_t *spawn = &trial->spawn;
    const char *type = trial->env_file_error   ? "env_file_validation_failed"
                     : spawn->interrupted      ? "subprocess_interrupted"
                     : !spawn->launched        ? "subprocess_exec_failed"
                     : spawn->timed_out        ? "subprocess_timeout"
                     : spawn->exit_code != 0   ? "subprocess_nonzero_exit"
                                               : "detector_failure";
    ar_json_set(detail, "exit_code", ar_json_int(spawn->exit_code));
    ar_json_set(detail, "timed_out", ar_json_bool(spawn->timed_out));
    ar_json_set(detail, "type", ar_json_string(type));
    ar_json_t *detectors = ar_json_array();
    for (size_t i = 0; trial->classification.failure_detectors[i]; i++)
        ar_json_append(detectors, ar_json_string(trial->classification.failure_detectors[i]));
    ar_json_set(detail, "failure_detectors_fired", detectors);
    if (trial->env_file_error)
        ar_json_set(detail, "error", ar_json_string(trial->env_file_error));
    else if (!spawn->launched && spawn->exec_errno && !spawn->interrupted)
        ar_json_set(detail, "error", exec_error(trial));
    if (spawn->interrupted)
        ar_json_set(detail, "signal", ar_json_string(signal_name(spawn->interrupted)));
    if (trial->ranks_missing)
        ar_json_set(detail, "ranks_missing", ar_json_string(trial->ranks_missing));
    return detail;
}

/* A trial that Proton cannot profile: the command's Python cannot import
 * Triton, as the probe of host_env.json found (once it has answered, so
 * the first trial is judged after it ran).  Not when AORTA_PROTON_PYTHON
 * names another interpreter for Proton.  The reason, or NULL. */
static char *proton_cannot_import(const trial_t *trial)
{
    const ar_plan_t *plan = trial->plan;
    int proton = 0;
    for (size_t i = 0; i < plan->collector_count; i++)
        proton |= !strcmp(plan->collectors[i].module->collector.name, "proton");
    if (!proton || !ar_host_env_done(trial->ctx->host_env)
        || ar_knob_text("AORTA_PROTON_PYTHON"))
        return NULL;
    const ar_json_t *snapshot = ar_host_env_snapshot(trial->ctx->host_env);
    const ar_json_t *reasons = ar_json_get(snapshot, "partial_reasons");
    for (size_t i = 0; i < ar_json_length(reasons); i++) {
        const char *reason = ar_json_get_string(ar_json_at(reasons, i));
        if (reason && strstr(reason, " cannot import triton"))
            return ar_xasprintf("proton: %s, so Proton cannot profile it; install Triton "
                                   "into that interpreter, or set AORTA_PROTON_PYTHON to one "
                                   "that has it",
                                   reason + (strncmp(reason, "triton: ", 8) ? 0 : 8));
    }
    return NULL;
}

/* Run the command (or record why it was refused) and its aftermath. */
static void execute(trial_t *trial)
{
    if (trial->env_file_error) {
        /* Refused before it ran: exit 2, an error; retention still applies. */
        memset(&trial->spawn, 0, sizeof trial->spawn);
        trial->spawn.exit_code = 2;
        memset(&trial->classification, 0, sizeof trial->classification);
        trial->classification.verdict = "error";
        trial->classification.error_detectors[0] = "meta:env_file_validation_failed";
        write_record(trial);
        apply_retention(trial);
        return;
    }
    run_command(trial);
    /* Before the strays are killed: the probe is aorta-run's own child. */
    ar_run_snapshot(trial->ctx, trial->spawn.interrupted);
    /* A launcher's step may still be ending (srun inside an allocation
     * tears its step down after the ranks exit): it is given the kill
     * grace before anything left is called a stray. */
    if (trial->plan->launcher && aorta_argv_count(trial->plan->launcher) > 0
        && !trial->spawn.interrupted)
        ar_spawn_settle(trial->ctx->kill_grace_sec);
    char *what = ar_xasprintf("%s: the payload", trial->display_dir);
    ar_spawn_kill_strays(what);
    free(what);
    if (!trial->setup_error && !trial->spawn.interrupted)
        set_setup_error(trial, proton_cannot_import(trial));
    if (trial->setup_error)
        return;
    /* The payload could write there: what retention prunes is reached again
     * from the run directory, never through what the trial directory may
     * have become. */
    char *why = NULL;
    int fresh = ar_nofollow_open_dir(trial->ctx->run_fd, trial->trial_rel, 1, &why);
    close(trial->trial_fd);
    trial->trial_fd = fresh;
    if (fresh < 0) {
        write_failed(trial, "result.json", why);
        free(why);
    }
    ar_classify(&trial->spawn, trial->trial_dir, &trial->classification);
    gather_ranks(trial);
    if (trial->spawn.interrupted) {
        /* Stopped by the user: an error, left without result.json so that
         * the next run retries it; its artifacts are not worth a parse. */
        memset(&trial->classification, 0, sizeof trial->classification);
        trial->classification.verdict = "error";
        trial->classification.error_detectors[0] = "meta:interrupted";
        return;
    }
    if (trial->trial_fd >= 0)
        write_record(trial);
    parse_collectors(trial);
    if (trial->spawn.interrupted) {
        /* Stopped during a parse: like an interrupted command, an error
         * without result.json, retried by the next run. */
        if (trial->trial_fd >= 0)
            unlinkat(trial->trial_fd, "result.json", 0);
        memset(&trial->classification, 0, sizeof trial->classification);
        trial->classification.verdict = "error";
        trial->classification.error_detectors[0] = "meta:interrupted";
        return;
    }
    if (trial->trial_fd >= 0)
        apply_retention(trial);
}

/* Write the trial JSON and read back what the matrix needs of it. */
static void write_trial_json(const trial_t *trial, ar_json_t *json, ar_outcome_t *out)
{
    const ar_run_ctx_t *ctx = trial->ctx;
    char *json_rel = ar_trial_json_rel(trial->cell->name, trial->index);
    /* Reached from the run directory without following a symlink, whatever
     * the payload made of the cell or its _subprocess. */
    char *sub_rel = ar_workload_dir_rel(trial->cell->name);
    char *why = NULL;
    int sub_fd = ar_nofollow_open_dir(ctx->run_fd, sub_rel, 1, &why);
    const char *json_name = strrchr(json_rel, '/') + 1;
    if (sub_fd < 0 || ar_json_write_file_at(sub_fd, json_name, json) != 0) {
        ar_diag_error("cannot write %s/%s: %s", ctx->display_dir, json_rel,
                         sub_fd < 0 ? why : strerror(errno));
        if (ctx->write_failed)
            *ctx->write_failed = 1;
    }
    if (sub_fd >= 0)
        close(sub_fd);
    free(why);
    free(sub_rel);
    char *display = ar_xasprintf("%s/%s", ctx->display_dir, json_rel);
    ar_outcome_from_json(json, trial->index, display, out);
    free(display);
    free(json_rel);
}

static void finish(trial_t *trial, double started, ar_outcome_t *out)
{
    const ar_run_ctx_t *ctx = trial->ctx;
    ar_json_t *metrics;
    const char *verdict, *status;
    if (trial->setup_error) {
        metrics = ar_json_object();
        verdict = "error";
        status = AR_STATUS_SETUP_FAILED;
        ar_diag_warn("%s: setup failed: %s", trial->display_dir,
                trial->setup_error);
    } else if (trial->record_error && !trial->spawn.interrupted) {
        /* What ran cannot be trusted to be on disk: aorta-run's failure. */
        verdict = "error";
        status = AR_STATUS_INFRA_FAILED;
        metrics = ar_trial_metrics(trial->collected, &trial->classification,
                                      trial->spawn.exit_code, NULL);
    } else {
        verdict = trial->classification.verdict;
        status = trial->spawn.interrupted    ? AR_STATUS_INFRA_FAILED
               : !strcmp(verdict, "pass")    ? AR_STATUS_OK
                                             : AR_STATUS_FAILED;
        metrics = ar_trial_metrics(trial->collected, &trial->classification,
                                      trial->spawn.exit_code,
                                      trial->spawn.interrupted ? NULL : trial->result_path);
    }
    ar_json_t *detail = strcmp(verdict, "pass") != 0 ? failure_detail(trial) : NULL;
    ar_trial_json_t shape = {
        .plan = trial->plan,
        .cell = trial->cell,
        .trial_index = trial->index,
        .collect_dir = trial->log_prefix, /* the collectors' directory stem */
        .log_prefix = trial->log_prefix,
        .results_root = trial->cell_dir,
        .results_root_dev = (int64_t)trial->cell_stat.st_dev,
        .results_root_ino = (int64_t)trial->cell_stat.st_ino,
        .trial_env = trial->trial_env,
        .env_snapshot = ar_run_snapshot(ctx, 0),
        .verdict = verdict,
        .exit_status = status,
        .launched = !trial->setup_error && trial->spawn.launched,
        .elapsed_sec = trial->setup_error ? 0.0 : trial->spawn.walltime_sec,
        .wall_clock_sec = ar_clock_monotonic() - started,
        .metrics = metrics,
        .failure_detail = detail,
        .started_at = trial->started_at[0] ? trial->started_at : NULL,
        .node = trial->node[0] ? trial->node : NULL,
        .gpu = trial->gpu,
    };
    ar_json_t *request = NULL;
    if (ctx->requests) {
        const ar_request_t *cell_request = &ctx->requests[trial->cell - trial->plan->cells];
        shape.request_fingerprint = cell_request->fingerprint;
        shape.request = request = ar_request_json(cell_request);
    }
    ar_json_t *json = ar_trial_json(&shape);
    write_trial_json(trial, json, out);
    ar_json_free(json);
    ar_json_free(request);
    ar_json_free(detail);
    ar_json_free(metrics);
}

int ar_trial_run(const ar_run_ctx_t *ctx, size_t cell_index, int trial_index,
                    ar_outcome_t *out)
{
    double started = ar_clock_monotonic();
    const ar_plan_t *plan = ctx->plan;
    trial_t trial = {
        .ctx = ctx, .plan = plan, .cell = &plan->cells[cell_index], .index = trial_index,
        .trial_fd = -1, .level = AR_RETAIN_FULL,
    };
    ar_clock_iso_utc_ms(ar_clock_wall(), trial.started_at);
    if (gethostname(trial.node, sizeof trial.node - 1) != 0)
        trial.node[0] = '\0';
    const char *cell = trial.cell->name;
    trial.trial_rel = ar_trial_dir_rel(cell, trial_index);
    trial.collect_rel = ar_trial_collect_rel(cell, trial_index);
    trial.trial_dir = ar_xasprintf("%s/%s", ctx->run_dir, trial.trial_rel);
    trial.result_path = ar_xasprintf("%s/result.json", trial.trial_dir);
    trial.cell_dir = ar_xasprintf("%s/%s", ctx->run_dir, cell);
    trial.log_prefix = ar_xasprintf("%s/%s", ctx->run_dir, trial.collect_rel);
    trial.json_path = ar_xasprintf("%s.json", trial.log_prefix);
    trial.display_dir = ar_xasprintf("%s/%s", ctx->display_dir, trial.trial_rel);

    prepare_dirs(&trial);
    build_env(&trial);
    compose(&trial);
    if (!trial.setup_error) /* known once the first trial ran */
        set_setup_error(&trial, proton_cannot_import(&trial));
    if (!trial.setup_error) {
        /* Just before the command: what the GPUs were doing (bounded), left
         * out of the trial's wall clock; started_at is after it. */
        double asked = ar_clock_monotonic();
        trial.gpu = ar_gpu_state_query(environ, ar_gpu_state_timeout());
        started += ar_clock_monotonic() - asked;
        ar_clock_iso_utc_ms(ar_clock_wall(), trial.started_at);
        execute(&trial);
    }
    finish(&trial, started, out);
    ar_json_free(trial.gpu);

    int interrupted = trial.setup_error ? 0 : trial.spawn.interrupted;
    if (trial.trial_fd >= 0)
        close(trial.trial_fd);
    ar_retention_clear(&trial.retention);
    aorta_metrics_free(trial.collected);
    aorta_argv_free(trial.argv);
    aorta_env_free(trial.child_env);
    aorta_env_free(trial.trial_env);
    free(trial.setup_error);
    free(trial.env_file_error);
    free(trial.ranks_missing);
    free(trial.record_error);
    free(trial.trial_rel);
    free(trial.collect_rel);
    free(trial.trial_dir);
    free(trial.result_path);
    free(trial.cell_dir);
    free(trial.log_prefix);
    free(trial.json_path);
    free(trial.display_dir);
    return interrupted;
}
