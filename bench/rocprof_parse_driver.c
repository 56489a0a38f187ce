/* rocprof_parse_driver.c - load the rocprof collector from a plugin
 * directory and run its parse() on DIR in this process, printing the
 * metrics as one JSON object: the parser alone, with no child process, for
 * bench/rocprof_parse.sh.
 *   usage: rocprof_parse_driver PLUGIN_DIR DIR */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "handles.h"
#include "loader.h"
#include "metrics_json.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PLUGIN_DIR DIR\n", argv[0]);
        return 2;
    }
    char *dirs[] = {argv[1], NULL};
    aorta_registry_t *registry = aorta_registry_load(dirs);
    const aorta_plugin_t *plugin = aorta_registry_find(registry, "rocprof");
    if (!plugin) {
        fprintf(stderr, "%s: no usable rocprof collector in %s\n", argv[0], argv[1]);
        aorta_registry_warn(registry, stderr);
        aorta_registry_free(registry);
        return 1;
    }
    aorta_metrics_t *metrics = aorta_metrics_new("rocprof_");
    plugin->collector.parse(NULL, argv[2], metrics);
    aorta_json_t *json = aorta_metrics_to_json(metrics);
    char *text = aorta_json_dump(json, 0);
    printf("%s\n", text);
    free(text);
    aorta_json_free(json);
    aorta_metrics_free(metrics);
    aorta_registry_free(registry);
    return 0;
}
