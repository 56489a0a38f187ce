/* rank.c - aorta-run under a launcher. */
#include "config.h"

#include "diag.h"
#include "sweep/rank.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "aorta/collector.h"
#include "sweep/spawn.h"
#include "sweep/trial.h"

extern char **environ;

static const char *const rank_vars[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                                        "SLURM_PROCID", NULL};

long aorta_rank_detect(void)
{
    for (size_t i = 0; rank_vars[i]; i++) {
        const char *text = getenv(rank_vars[i]);
        if (!text)
            continue;
        char *end = NULL;
        errno = 0;
        long rank = strtol(text, &end, 10);
        if (errno || end == text || *end) {
            aorta_diag_warn("%s='%s' is not an integer; running as rank 0",
                    rank_vars[i], text);
            return 0;
        }
        return rank;
    }
    return 0;
}

int aorta_rank_run_bare(const aorta_plan_t *plan)
{
    aorta_env_t *base = aorta_env_from_environ(environ);
    double grace = aorta_trial_kill_grace();
    int interrupted = 0;
    for (size_t c = 0; c < plan->cell_count && !interrupted; c++) {
        aorta_env_t *env = aorta_env_dup(base);
        const aorta_env_t *cell_env = plan->cells[c].env;
        for (size_t i = 0; i < aorta_env_count(cell_env); i++)
            aorta_env_set(env, aorta_env_name_at(cell_env, i), aorta_env_value_at(cell_env, i));
        char **envp = aorta_env_to_envp(env);
        for (long t = 0; t < aorta_trial_budget(plan) && !interrupted; t++) {
            interrupted = aorta_spawn_take_interrupt();
            aorta_spawn_result_t result;
            if (!interrupted
                && aorta_spawn_run_fds(aorta_argv_items(plan->command), envp, -1, -1,
                                       plan->timeout_sec, grace, &result)
                       == 0)
                interrupted = result.interrupted;
        }
        aorta_env_free_envp(envp);
        aorta_env_free(env);
    }
    aorta_env_free(base);
    fflush(stdout);
    return interrupted ? 128 + interrupted : 0;
}
