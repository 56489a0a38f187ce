/* SPDX-License-Identifier: MIT */
/* kernel_names.c - the display and short forms of kernel names, cached by
 * raw name. */
#include "config.h"

#include "output/kernel_names.h"

#include <stdlib.h>
#include <string.h>

#include "keyindex.h"
#include "output/demangle.h"
#include "xalloc.h"

/* Entries by pointer, so a name handed out stays put while more come. */
struct aorta_kernel_names {
    aorta_kernel_name_t **items;
    size_t count, capacity;
    aorta_keyindex_t index;   /* raw -> position in items */
};

aorta_kernel_names_t *aorta_kernel_names_new(void)
{
    return aorta_xcalloc(1, sizeof(aorta_kernel_names_t));
}

void aorta_kernel_names_free(aorta_kernel_names_t *names)
{
    if (!names)
        return;
    aorta_keyindex_clear(&names->index);
    for (size_t i = 0; i < names->count; i++) {
        free((char *)names->items[i]->raw);
        free((char *)names->items[i]->full);
        free((char *)names->items[i]->brief);
        free(names->items[i]);
    }
    free(names->items);
    free(names);
}

const aorta_kernel_name_t *aorta_kernel_names_get(aorta_kernel_names_t *names, const char *raw)
{
    size_t at = aorta_keyindex_find(&names->index, raw);
    if (at != AORTA_KEYINDEX_NONE)
        return names->items[at];
    aorta_kernel_name_t *name = aorta_xmalloc(sizeof *name);
    char *full = aorta_kernel_display(raw);
    name->raw = aorta_xstrdup(raw);
    name->full = full;
    name->brief = aorta_kernel_short(full, AORTA_KERNEL_NAME_WIDTH);
    aorta_xgrow((void **)&names->items, &names->capacity, names->count + 1, sizeof *names->items);
    names->items[names->count] = name;
    aorta_keyindex_add(&names->index, name->raw, names->count);
    names->count++;
    return name;
}
