/* proton_parse_driver - run the proton collector's parse() on a directory in
 * this process and print its metrics, one "key value" per line.  The parse
 * benchmark times this until `aorta-run --parse proton DIR` is available,
 * and uses the same plugin either way.
 *
 * usage: proton_parse_driver PLUGIN_DIR ARTIFACT_DIR */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "handles.h"
#include "loader.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PLUGIN_DIR ARTIFACT_DIR\n", argv[0]);
        return 2;
    }
    char *dirs[] = {argv[1], NULL};
    aorta_registry_t *registry = aorta_registry_load(dirs);
    const aorta_plugin_t *plugin = aorta_registry_find(registry, "proton");
    if (!plugin) {
        fprintf(stderr, "%s: no proton collector in %s\n", argv[0], argv[1]);
        aorta_registry_free(registry);
        return 2;
    }
    aorta_metrics_t *metrics = aorta_metrics_new("proton_");
    plugin->collector.parse(NULL, argv[2], metrics);
    for (size_t i = 0; i < aorta_metrics_count(metrics); i++) {
        const aorta_metric_t *metric = aorta_metrics_at(metrics, i);
        switch (metric->type) {
        case AORTA_METRIC_INT:
            printf("%s %" PRId64 "\n", metric->key, metric->int_value);
            break;
        case AORTA_METRIC_DOUBLE:
            printf("%s %.17g\n", metric->key, metric->double_value);
            break;
        case AORTA_METRIC_STRING:
            printf("%s %s\n", metric->key, metric->string_value);
            break;
        case AORTA_METRIC_STRINGS:
            for (size_t s = 0; s < metric->string_count; s++)
                printf("%s %s\n", metric->key, metric->strings[s]);
            break;
        }
    }
    aorta_metrics_free(metrics);
    aorta_registry_free(registry);
    return 0;
}
