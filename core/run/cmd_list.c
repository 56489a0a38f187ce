/* SPDX-License-Identifier: MIT */
/* cmd_list.c - `aorta-run --list-collectors` and `--describe NAME`. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/diag.h"
#include "xalloc.h"
#include "commands.h"

static const char *status_word(ar_module_status_t status)
{
    switch (status) {
    case AR_MODULE_OK:
        return "ok";
    case AR_MODULE_SHADOWED:
        return "shadowed";
    default:
        return "failed";
    }
}

int ar_cmd_list(const ar_registry_t *registry, char *const *dirs)
{
    /* An empty listing alone looks like success; say where we looked, so a
     * missing or misplaced collector package is found quickly. */
    if (registry->count == 0) {
        if (!dirs || !dirs[0]) {
            ar_diag_warn("no collectors found: no directory to search "
                            "(AORTA_PLUGIN_SYSTEM_PATH is empty)");
            return AR_EXIT_OK;
        }
        size_t len = 1;
        for (size_t i = 0; dirs[i]; i++)
            len += strlen(dirs[i]) + 2;
        char *list = ar_xmalloc(len);
        list[0] = '\0';
        for (size_t i = 0; dirs[i]; i++) {
            if (i)
                strcat(list, ", ");
            strcat(list, dirs[i]);
        }
        ar_diag_warn("no collectors found; searched %s", list);
        free(list);
        return AR_EXIT_OK;
    }
    /* name version ABI status path; a failed one's status is "failed: REASON". */
    ar_registry_check_all(registry);
    printf("NAME VERSION ABI STATUS PATH\n");
    for (size_t i = 0; i < registry->count; i++) {
        const ar_module_t *module = &registry->modules[i];
        if (module->status == AR_MODULE_FAILED) {
            printf("%s - - failed: %s %s\n", module->name, module->reason, module->path);
        } else {
            printf("%s %s %u.%u %s %s\n", module->name, module->collector.version,
                   module->collector.abi_major, module->collector.abi_minor,
                   status_word(module->status), module->path);
        }
    }
    return AR_EXIT_OK;
}

/* The metrics the collector declares (ABI 1.2): unit and better direction,
 * the rows it declares nothing by named as such. */
static void describe_metrics(const struct aorta_collector *collector)
{
    size_t count = aorta_collector_metric_count(collector);
    if (!count) {
        printf("\nmetrics: none declared (every metric is compared and shown, never gated)\n");
        return;
    }
    printf("\nmetrics:\n");
    for (size_t i = 0; i < count; i++) {
        const aorta_metric_spec_t *row = aorta_collector_metric_at(collector, i);
        aorta_error_t *why = aorta_error_new();
        if (aorta_collector_metric_check(collector, i, why) != 0) {
            printf("  row %zu: declares nothing: %s\n", i, aorta_error_message(why));
        } else {
            static const char *const better[] = {"none: compared and shown, never gated",
                                                 "lower is better", "higher is better"};
            printf("  %s%s%s%s: %s\n", row->key, row->unit ? " (" : "",
                   row->unit ? row->unit : "", row->unit ? ")" : "", better[row->better]);
            if (row->help && row->help[0])
                printf("      %s\n", row->help);
        }
        aorta_error_free(why);
    }
}

/* The exclusive resources it may take (ABI 1.4, and the HSA queue
 * interceptor of 1.0-1.3's slots), and where its profiler version comes
 * from. */
static void describe_resources(const struct aorta_collector *collector)
{
    int any = collector->resources && collector->resources[0];
    int legacy = collector->queue_interceptor_why != NULL;
    if (any || legacy)
        printf("\nexclusive resources (two collectors of a run that take one are refused):\n");
    for (size_t i = 0; any && collector->resources[i]; i++)
        printf("  %s: %s\n", collector->resources[i],
               collector->takes ? "with some options" : "always");
    if (legacy)
        printf("  hsa-queue-interceptor: with some options\n");
    if (collector->profiler_version)
        printf("\nprofiler version: the collector's own word (recorded in matrix.json's "
               "provenance)\n");
}

int ar_cmd_describe(const ar_registry_t *registry, const char *name)
{
    const ar_module_t *module = ar_registry_open(registry, name);
    if (!module)
        return ar_cmd_unknown_collector(registry, "--describe", name);
    const struct aorta_collector *collector = &module->collector;
    printf("%s %s (collector ABI %u.%u, wrap rank %d)\n", collector->name, collector->version,
           collector->abi_major, collector->abi_minor, collector->wrap_rank);
    if (collector->description[0])
        printf("  %s\n", collector->description);
    printf("  from %s\n", module->path);
    describe_metrics(collector);
    describe_resources(collector);
    if (!collector->options || !collector->options[0].key) {
        printf("\nno options\n");
        return AR_EXIT_OK;
    }
    printf("\noptions:\n");
    for (const aorta_option_spec_t *spec = collector->options; spec->key; spec++) {
        printf("  %s\n", spec->key);
        if (spec->help && spec->help[0])
            printf("      %s\n", spec->help);
        if (spec->values) {
            printf("      values: ");
            for (size_t v = 0; spec->values[v]; v++)
                printf("%s%s", v ? ", " : "", spec->values[v]);
            printf("\n");
        } else {
            printf("      values: free text\n");
        }
        printf("      default: %s\n", spec->default_value ? spec->default_value : "(unset)");
    }
    return AR_EXIT_OK;
}
