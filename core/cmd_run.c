/* cmd_run.c - the sweep: run the command as trials and record them.
 * For now one trial of one cell, with no collector. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "classify.h"
#include "commands.h"
#include "fsutil.h"
#include "handles.h"
#include "json.h"
#include "spawn.h"
#include "trial_record.h"
#include "xalloc.h"

extern char **environ;

#define TERMINATE_GRACE_SEC 10.0

static int not_implemented(const char *flag)
{
    aorta_report("%s: not implemented yet", flag);
    return AORTA_EXIT_USAGE;
}

int aorta_cmd_run(const aorta_cli_t *cli, const aorta_registry_t *registry)
{
    (void)registry;
    if (cli->recipe)
        return not_implemented("--recipe");
    if (cli->mitigation_file_count)
        return not_implemented("--mitigations-file");
    if (cli->collect)
        return not_implemented("--collect");
    if (cli->trials > 1)
        return not_implemented("--trials");
    if (cli->timeout > 0)
        return not_implemented("--timeout");

    char *ticket = aorta_slug(cli->ticket ? cli->ticket : "_no_ticket_");
    char *run_dir = aorta_xasprintf("%s/%s", cli->output ? cli->output : AORTA_DEFAULT_OUTPUT,
                                    ticket);
    const char *cell = "none-none";
    char *trial_dir = aorta_xasprintf("%s/%s/trial_0", run_dir, cell);
    int status = AORTA_EXIT_OK;
    if (aorta_mkdir_p(trial_dir, 0755) != 0) {
        aorta_report("cannot create %s: %s", trial_dir, strerror(errno));
        status = AORTA_EXIT_ENVIRONMENT;
        goto done;
    }
    char *out_log = aorta_xasprintf("%s/stdout.log", trial_dir);
    char *err_log = aorta_xasprintf("%s/stderr.log", trial_dir);
    /* A re-run replaces the logs of the attempt before. */
    unlink(out_log);
    unlink(err_log);
    aorta_argv_t *argv = aorta_argv_from(cli->command, cli->command_count);
    aorta_spawn_result_t result;
    if (aorta_spawn_run(aorta_argv_items(argv), environ, out_log, err_log, 0,
                        TERMINATE_GRACE_SEC, &result)
        != 0) {
        aorta_report("cannot capture the output into %s: %s", trial_dir, strerror(errno));
        status = AORTA_EXIT_ENVIRONMENT;
    } else {
        aorta_classification_t classification;
        aorta_classify(&result, trial_dir, &classification);
        aorta_trial_record_t record = {&result, &classification, argv, cell, 0, "inherit", NULL};
        aorta_json_t *json = aorta_trial_record_json(&record);
        char *path = aorta_xasprintf("%s/result.json", trial_dir);
        if (aorta_json_write_file(path, json) != 0) {
            aorta_report("cannot write %s: %s", path, strerror(errno));
            status = AORTA_EXIT_ENVIRONMENT;
        } else {
            printf("trial 0: %s (exit %d, %.3f s) -> %s\n", classification.verdict,
                   result.exit_code, result.walltime_sec, trial_dir);
        }
        free(path);
        aorta_json_free(json);
        if (result.interrupted)
            status = 128 + result.interrupted;
    }
    aorta_argv_free(argv);
    free(out_log);
    free(err_log);
done:
    free(trial_dir);
    free(run_dir);
    free(ticket);
    return status;
}
