/* SPDX-License-Identifier: MIT */
/* load_module.c - `load_module PATH NAME`: open the collector module PATH
 * as a host would, binding every symbol now (RTLD_NOW: a symbol version the
 * libaorta.so.0 found lacks fails here, as it would in that aorta), and
 * print "NAME ABI MAJOR.MINOR" from its description.  It links no libaorta
 * of its own, so LD_LIBRARY_PATH decides which libaorta.so.0 the module
 * gets.  Exit 1, with the loader's message, when the module does not load. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "aorta/collector.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: load_module PATH NAME\n");
        return 2;
    }
    void *module = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!module) {
        fprintf(stderr, "load_module: %s\n", dlerror());
        return 1;
    }
    char symbol[256];
    snprintf(symbol, sizeof symbol, "aorta_collector_%s_get", argv[2]);
    void *entry = dlsym(module, symbol);
    if (!entry) {
        fprintf(stderr, "load_module: no symbol %s\n", symbol);
        return 1;
    }
    aorta_collector_get_fn get;
    memcpy(&get, &entry, sizeof get);
    const struct aorta_collector *collector = get();
    printf("%s ABI %u.%u\n", collector->name, collector->abi_major, collector->abi_minor);
    return 0;
}
