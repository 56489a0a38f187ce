/* SPDX-License-Identifier: MIT */
/* proton_readers.c - one .hatchet through one of the Proton collector's
 * readers, for bench/proton_parse.py: "stream" (the streaming reader the
 * collector uses) or "json-c" (the whole value and its walk, the reference
 * the streaming one is tested against).  Prints the launches, the GPU time
 * in ms and the number of kernels as JSON; exit 1 when the reader refuses
 * the file.  It compiles the collector's sources in, to reach its readers
 * below the module's one exported symbol (as tests/fuzz/ does). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hatchet.h"
#include "json_stream.h"

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "stream") != 0 && strcmp(argv[1], "json-c") != 0)) {
        fprintf(stderr, "usage: proton_readers stream|json-c FILE\n");
        return 2;
    }
    int fd = open(argv[2], O_RDONLY);
    if (fd < 0) {
        perror(argv[2]);
        return 2;
    }
    aorta_kernels_t *kernels = aorta_kernels_new(0);
    int ok;
    if (strcmp(argv[1], "stream") == 0) {
        ok = proton_hatchet_stream(fd, kernels, JSON_STREAM_BLOCK) == PROTON_READ_OK;
    } else {
        struct json_object *root = proton_hatchet_read(fd);
        ok = root != NULL;
        if (root)
            proton_hatchet_walk(root, kernels);
        proton_json_free(root);
    }
    close(fd);
    int64_t launches = 0;
    double ms = 0;
    for (size_t i = 0; i < aorta_kernels_count(kernels); i++) {
        int64_t n = aorta_kernels_launches_at(kernels, i);
        launches = launches < 0 || n < 0 ? -1 : launches + n;
        ms += aorta_kernels_time_at(kernels, i);
    }
    printf("{\"launches\": %lld, \"gpu_ms\": %.17g, \"kernels\": %zu}\n", (long long)launches, ms,
           aorta_kernels_count(kernels));
    aorta_kernels_free(kernels);
    return ok ? 0 : 1;
}
