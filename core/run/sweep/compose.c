/* compose.c - turning the user's command into the argv a trial runs. */
#include "config.h"

#include "sweep/compose.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/nofollow.h"
#include "aorta/collector.h"
#include "xalloc.h"

/* Make <run_dir>/<collect_rel>/<name> empty. */
static int prepare_dir(const char *run_dir, const char *collect_rel, const char *name,
                       const char *out_dir, char **error)
{
    char *why = NULL;
    int status = -1;
    int run_fd = open(run_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (run_fd < 0) {
        why = aorta_xasprintf("%s: %s", run_dir, strerror(errno));
    } else {
        int collect_fd = aorta_fsafe_open_dir(run_fd, collect_rel, 1, &why);
        if (collect_fd >= 0) {
            status = aorta_fsafe_empty_dir_at(collect_fd, name, &why);
            close(collect_fd);
        }
        close(run_fd);
    }
    if (status != 0) {
        *error = aorta_xasprintf("collect: cannot prepare the %s artifact directory %s: %s. The "
                                 "collector has nowhere to write, so the trial would run "
                                 "unprofiled; fix the path or drop '%s' from the collect request.",
                                 name, out_dir, why, name);
    }
    free(why);
    return status;
}

/* "<name>: <message>", unless the message already starts with the name. */
static char *name_message(const char *name, const char *message)
{
    if (!message || !message[0])
        return aorta_xasprintf("%s: wrap refused the command (no reason given)", name);
    size_t len = strlen(name);
    if (strncmp(message, name, len) == 0)
        return aorta_xstrdup(message);
    return aorta_xasprintf("%s: %s", name, message);
}

int aorta_compose(const aorta_plan_t *plan, const aorta_argv_t *command, const char *run_dir,
                  const char *collect_rel, const aorta_env_t *child_env, int prepare,
                  aorta_argv_t **out, char **error)
{
    *out = NULL;
    *error = NULL;
    if (aorta_argv_count(command) == 0) {
        *error = aorta_xstrdup("empty command");
        return -1;
    }
    aorta_argv_t *current = aorta_argv_dup(command);
    char *collect_dir = aorta_path_join(run_dir, collect_rel);
    aorta_error_t *err = aorta_error_new();
    int status = 0;
    /* Innermost first: the collector with the highest wrap_rank wraps the
     * command, the lowest wraps everything else. */
    for (size_t i = plan->collector_count; i-- > 0 && status == 0;) {
        const aorta_collect_entry_t *entry = &plan->collectors[i];
        const struct aorta_collector *collector = &entry->module->collector;
        char *out_dir = aorta_path_join(collect_dir, collector->name);
        if (prepare && prepare_dir(run_dir, collect_rel, collector->name, out_dir, error) != 0) {
            status = -1;
        } else {
            aorta_argv_t *wrapped = aorta_argv_new();
            aorta_error_clear(err);
            if (collector->wrap(entry->effective, out_dir, current, child_env, wrapped, err) != 0) {
                *error = name_message(collector->name, aorta_error_message(err));
                aorta_argv_free(wrapped);
                status = -1;
            } else if (aorta_argv_count(wrapped) == 0) {
                *error = aorta_xasprintf("%s: wrap produced an empty command", collector->name);
                aorta_argv_free(wrapped);
                status = -1;
            } else {
                aorta_argv_free(current);
                current = wrapped;
            }
        }
        free(out_dir);
    }
    aorta_error_free(err);
    free(collect_dir);
    if (status != 0) {
        aorta_argv_free(current);
        return -1;
    }
    if (plan->launcher && aorta_argv_count(plan->launcher) > 0) {
        aorta_argv_t *launched = aorta_argv_dup(plan->launcher);
        aorta_argv_push_all(launched, current);
        aorta_argv_free(current);
        current = launched;
    }
    *out = current;
    return 0;
}
