/* SPDX-License-Identifier: MIT */
/* kernel_names.c - the display and short forms of kernel names, cached by
 * raw name. */
#include "config.h"

#include "kernels/kernel_names.h"

#include <stdlib.h>
#include <string.h>

#include "keyindex.h"
#include "kernels/demangle.h"
#include "xalloc.h"

/* Entries by pointer, so a name handed out stays put while more come. */
struct ar_kernel_names {
    ar_kernel_name_t **items;
    size_t count, capacity;
    ar_keyindex_t index;   /* raw -> position in items */
};

ar_kernel_names_t *ar_kernel_names_new(void)
{
    return ar_xcalloc(1, sizeof(ar_kernel_names_t));
}

void ar_kernel_names_free(ar_kernel_names_t *names)
{
    if (!names)
        return;
    ar_keyindex_clear(&names->index);
    for (size_t i = 0; i < names->count; i++) {
        free((char *)names->items[i]->raw);
        free((char *)names->items[i]->full);
        free((char *)names->items[i]->brief);
        free(names->items[i]);
    }
    free(names->items);
    free(names);
}

const ar_kernel_name_t *ar_kernel_names_get(ar_kernel_names_t *names, const char *raw)
{
    size_t at = ar_keyindex_find(&names->index, raw);
    if (at != AR_KEYINDEX_NONE)
        return names->items[at];
    ar_kernel_name_t *name = ar_xmalloc(sizeof *name);
    char *full = ar_kernel_display(raw);
    name->raw = ar_xstrdup(raw);
    name->full = full;
    name->brief = ar_kernel_short(full, AR_KERNEL_NAME_WIDTH);
    ar_xgrow((void **)&names->items, &names->capacity, names->count + 1, sizeof *names->items);
    names->items[names->count] = name;
    ar_keyindex_add(&names->index, name->raw, names->count);
    names->count++;
    return name;
}
