/* parse_child.c - a collector's parse() run in a child process (sys/child.c).
 * The child serialises its metrics through the core's JSON layer onto a
 * pipe; the parent reads them with a deadline and checks every member. */
#include "config.h"

#include "diag.h"
#include "sweep/parse_child.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aorta/collector.h"
#include "output/json.h"
#include "output/metrics_json.h"
#include "sys/child.h"
#include "xalloc.h"

/* A reply larger than this is garbage (five metrics and a short list). */
#define REPLY_LIMIT (1u << 20)

static double parse_timeout(void)
{
    const char *text = getenv("AORTA_PARSE_TIMEOUT");
    char *end = NULL;
    double value = text ? strtod(text, &end) : 0;
    return text && end && !*end && isfinite(value) && value > 0 ? value
                                                                : AORTA_PARSE_TIMEOUT_DEFAULT;
}

typedef struct parse_call {
    const aorta_module_t *module;
    const aorta_options_t *options;
    const char *dir;
    const char *prefix;
} parse_call_t;

static void run_parse(void *user, int out)
{
    const parse_call_t *call = user;
    aorta_metrics_t *metrics = aorta_metrics_new(call->prefix);
    call->module->collector.parse(call->options, call->dir, metrics);
    aorta_json_t *json = aorta_metrics_to_json(metrics);
    char *text = aorta_json_dump(json, 0);
    aorta_child_write_all(out, text, strlen(text));
}

static int is_directory(const char *dir)
{
    struct stat st;
    return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

aorta_metrics_t *aorta_parse_in_child(const aorta_module_t *module,
                                      const aorta_options_t *options, const char *dir)
{
    const char *name = module->collector.name;
    char *prefix = aorta_xasprintf("%s_", name);
    aorta_metrics_t *metrics = aorta_metrics_new(prefix);
    parse_call_t call = {module, options, dir, prefix};
    aorta_child_result_t child;
    aorta_child_run(run_parse, &call, parse_timeout(), REPLY_LIMIT, 0, &child);
    const char *problem = child.problem;
    if (!problem) {
        aorta_json_t *json = aorta_json_parse(child.reply, child.len, 64);
        if (!json || aorta_metrics_from_json(metrics, json) != 0)
            problem = "sent an unreadable reply";
        aorta_json_free(json);
    }
    free(child.reply);
    if (problem) {
        aorta_diag_warn("collect: %s summary parsing %s; skipping its "
                        "metrics for %s.",
                name, problem, dir);
        aorta_metrics_free(metrics);
        metrics = aorta_metrics_new(prefix);
        if (is_directory(dir)) {
            char *key = aorta_xasprintf("%s_artifact_dir", name);
            aorta_metrics_set_string(metrics, key, dir);
            free(key);
        }
    }
    free(prefix);
    return metrics;
}
