/* SPDX-License-Identifier: MIT */
/* sweeputil.c - the sweep suites' kit (sweeputil.h). */
#include "config.h"

#include "sweeputil.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aorta/collector.h"
#include "xalloc.h"

static char **argv_of(char *const *args)
{
    size_t n = 0;
    while (args[n])
        n++;
    char **argv = calloc(n + 3, sizeof *argv);
    argv[0] = tu_aorta_run();
    /* -q: the progress display is tested on its own (check_progress). */
    argv[1] = "-q";
    for (size_t i = 0; i < n; i++)
        argv[i + 2] = args[i];
    return argv;
}

int su_aorta(char *const *env_changes, char *const *args, char **out, char **err)
{
    char **argv = argv_of(args);
    int status = tu_run(argv, env_changes, out, err);
    free(argv[0]);
    free(argv);
    return status;
}

pid_t su_aorta_start(char *const *env_changes, char *const *args, const char *out_path,
                     const char *err_path)
{
    char **argv = argv_of(args);
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ck_assert(out >= 0 && err >= 0);
    pid_t pid = tu_spawn(argv, env_changes, out, err);
    close(out);
    close(err);
    free(argv[0]);
    free(argv);
    return pid;
}

int su_wait_for(const char *path, double seconds)
{
    struct timespec step = {0, 10 * 1000 * 1000};
    for (double waited = 0; waited < seconds; waited += 0.01) {
        if (tu_exists(path))
            return 1;
        nanosleep(&step, NULL);
    }
    return tu_exists(path);
}

ar_json_t *su_json(const char *dir, const char *rel)
{
    char *path = tu_join(dir, rel);
    ar_json_t *json = ar_json_read_file(path, 64u << 20, 64);
    ck_assert_msg(json != NULL, "%s is missing or not JSON", path);
    free(path);
    return json;
}

static ar_json_t *walk(const ar_json_t *obj, va_list args)
{
    ar_json_t *cursor = (ar_json_t *)obj;
    const char *key;
    while ((key = va_arg(args, const char *)) != NULL) {
        if (key[0] >= '0' && key[0] <= '9')
            cursor = ar_json_at(cursor, (size_t)atoi(key));
        else
            cursor = ar_json_get(cursor, key);
    }
    return cursor;
}

ar_json_t *su_at(const ar_json_t *obj, ...)
{
    va_list args;
    va_start(args, obj);
    ar_json_t *value = walk(obj, args);
    va_end(args);
    return value;
}

const char *su_str(const ar_json_t *obj, ...)
{
    va_list args;
    va_start(args, obj);
    ar_json_t *value = walk(obj, args);
    va_end(args);
    return ar_json_get_string(value);
}

ar_plan_t *su_plan(const char *run_dir, char *const *argv)
{
    ar_plan_t *plan = ar_xcalloc(1, sizeof *plan);
    plan->trials = 1;
    plan->env_passthrough_mode = ar_xstrdup("inherit");
    plan->output_root = ar_xstrdup(run_dir);
    plan->run_dir = ar_xstrdup(run_dir);
    size_t n = 0;
    while (argv[n])
        n++;
    plan->command = aorta_argv_from(argv, n);
    plan->retain_on_pass = plan->retain_on_fail = plan->retain_on_error = AR_RETAIN_FULL;
    su_plan_cell(plan, "none", "none", NULL);
    return plan;
}

void su_plan_cell(ar_plan_t *plan, const char *mitigation, const char *diagnostic,
                  char *const *vars)
{
    plan->cells = ar_xrealloc(plan->cells, (plan->cell_count + 1) * sizeof *plan->cells);
    ar_cell_t *cell = &plan->cells[plan->cell_count++];
    cell->name = ar_xasprintf("%s-%s", mitigation, diagnostic);
    cell->mitigation = ar_xstrdup(mitigation);
    cell->diagnostic = ar_xstrdup(diagnostic);
    cell->env = aorta_env_new();
    for (size_t i = 0; vars && vars[i]; i++) {
        char *eq = strchr(vars[i], '=');
        char *name = strndup(vars[i], (size_t)(eq - vars[i]));
        aorta_env_set(cell->env, name, eq + 1);
        free(name);
    }
}

void su_plan_collect(ar_plan_t *plan, const ar_registry_t *registry, const char *name,
                     char *const *options)
{
    const ar_module_t *module = ar_registry_open(registry, name);
    ck_assert_msg(module != NULL, "test collector %s is not built", name);
    ar_collect_entry_t entry = {module, aorta_options_new(), NULL};
    for (size_t i = 0; options && options[i]; i++) {
        char *eq = strchr(options[i], '=');
        char *key = strndup(options[i], (size_t)(eq - options[i]));
        aorta_options_set(entry.given, key, eq + 1);
        free(key);
    }
    entry.effective = aorta_options_dup(entry.given);
    aorta_error_t *err = aorta_error_new();
    ck_assert_msg(module->collector.validate(entry.effective, err) == 0, "%s: %s", name,
                  aorta_error_message(err));
    aorta_error_free(err);
    plan->collectors = ar_xrealloc(plan->collectors,
                                      (plan->collector_count + 1) * sizeof *plan->collectors);
    size_t at = plan->collector_count;
    while (at > 0 && plan->collectors[at - 1].module->collector.wrap_rank > module->collector.wrap_rank) {
        plan->collectors[at] = plan->collectors[at - 1];
        at--;
    }
    plan->collectors[at] = entry;
    plan->collector_count++;
}

void su_plan_retain(ar_plan_t *plan, ar_retain_level_t on_pass, ar_retain_level_t on_fail,
                    ar_retain_level_t on_error)
{
    plan->has_retain = 1;
    plan->retain_on_pass = on_pass;
    plan->retain_on_fail = on_fail;
    plan->retain_on_error = on_error;
}

void su_quiet(const char *stderr_path)
{
    fflush(stdout);
    fflush(stderr);
    int null_fd = open("/dev/null", O_WRONLY);
    int err_fd = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert(null_fd >= 0 && err_fd >= 0);
    dup2(null_fd, 1);
    dup2(err_fd, 2);
    close(null_fd);
    close(err_fd);
}
