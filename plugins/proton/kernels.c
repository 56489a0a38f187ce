/* kernels.c - per-kernel totals over a run's profiles, and the metrics
 * (spec §5.6).
 *
 * Kernels are keyed by their stripped name alone: the same kernel under
 * different parents, branches or files is one kernel.  Each file is summed on
 * its own first and then added to the run's totals, in first-encounter order,
 * so the floating-point sums are the ones upstream's Python computes. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hatchet.h"
#include "proton.h"

/* How many names proton_top_kernels carries. */
#define TOP_N 5

typedef struct kernel {
    char *name;            /* NUL-terminated copy of len bytes */
    size_t len;
    uint64_t hash;
    unsigned file_serial;  /* the file that last touched it */
    double file_ms;        /* this file's sum */
    int64_t file_count;    /* this file's launches, -1 once unreadable */
    int in_run;            /* already in the run's order */
    double ms;             /* the run's sum */
    int64_t count;         /* the run's launches, -1 once unreadable */
} kernel_t;

typedef struct index_list {
    size_t *items;
    size_t count;
    size_t cap;
} index_list_t;

struct proton_kernels {
    kernel_t *items;
    size_t count;
    size_t cap;
    size_t *slots;         /* open addressing: index + 1, 0 when free */
    size_t nslots;         /* a power of two */
    unsigned file_serial;
    index_list_t file_order; /* kernels of the current file, first touch first */
    index_list_t run_order;  /* kernels of the run, first merge first */
};

static void list_push(index_list_t *list, size_t value)
{
    if (list->count == list->cap) {
        list->cap = list->cap ? list->cap * 2 : 64;
        list->items = proton_xrealloc(list->items, list->cap * sizeof *list->items);
    }
    list->items[list->count++] = value;
}

/* FNV-1a. */
static uint64_t hash_of(const char *name, size_t len)
{
    uint64_t hash = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) {
        hash ^= (unsigned char)name[i];
        hash *= 1099511628211ull;
    }
    return hash;
}

/* a + b, or -1 when either is unreadable or the sum leaves int64. */
static int64_t add_counts(int64_t a, int64_t b)
{
    if (a < 0 || b < 0 || a > INT64_MAX - b)
        return -1;
    return a + b;
}

proton_kernels_t *proton_kernels_new(void)
{
    proton_kernels_t *kernels = proton_xmalloc(sizeof *kernels);
    memset(kernels, 0, sizeof *kernels);
    kernels->nslots = 256;
    kernels->slots = proton_xmalloc(kernels->nslots * sizeof *kernels->slots);
    memset(kernels->slots, 0, kernels->nslots * sizeof *kernels->slots);
    kernels->file_serial = 1;
    return kernels;
}

static void rehash(proton_kernels_t *kernels)
{
    size_t nslots = kernels->nslots * 2;
    size_t *slots = proton_xmalloc(nslots * sizeof *slots);
    memset(slots, 0, nslots * sizeof *slots);
    for (size_t i = 0; i < kernels->count; i++) {
        size_t at = (size_t)kernels->items[i].hash & (nslots - 1);
        while (slots[at])
            at = (at + 1) & (nslots - 1);
        slots[at] = i + 1;
    }
    free(kernels->slots);
    kernels->slots = slots;
    kernels->nslots = nslots;
}

static kernel_t *find_or_add(proton_kernels_t *kernels, const char *name, size_t len)
{
    uint64_t hash = hash_of(name, len);
    size_t at = (size_t)hash & (kernels->nslots - 1);
    while (kernels->slots[at]) {
        kernel_t *kernel = &kernels->items[kernels->slots[at] - 1];
        if (kernel->hash == hash && kernel->len == len && memcmp(kernel->name, name, len) == 0)
            return kernel;
        at = (at + 1) & (kernels->nslots - 1);
    }
    if (kernels->count == kernels->cap) {
        kernels->cap = kernels->cap ? kernels->cap * 2 : 64;
        kernels->items = proton_xrealloc(kernels->items, kernels->cap * sizeof *kernels->items);
    }
    kernel_t *kernel = &kernels->items[kernels->count];
    *kernel = (kernel_t){.name = proton_xstrndup(name, len), .len = len, .hash = hash};
    kernels->slots[at] = ++kernels->count;
    if (kernels->count * 2 > kernels->nslots)
        rehash(kernels);
    return &kernels->items[kernels->count - 1];
}

void proton_kernels_add(proton_kernels_t *kernels, const char *name, size_t len, double ms,
                        int64_t count)
{
    kernel_t *kernel = find_or_add(kernels, name, len);
    if (kernel->file_serial != kernels->file_serial) {
        kernel->file_serial = kernels->file_serial;
        kernel->file_ms = 0.0;
        kernel->file_count = 0;
        list_push(&kernels->file_order, (size_t)(kernel - kernels->items));
    }
    kernel->file_ms += ms;
    kernel->file_count = add_counts(kernel->file_count, count);
}

void proton_kernels_end_file(proton_kernels_t *kernels)
{
    for (size_t i = 0; i < kernels->file_order.count; i++) {
        kernel_t *kernel = &kernels->items[kernels->file_order.items[i]];
        if (!kernel->in_run) {
            kernel->in_run = 1;
            kernel->ms = 0.0;
            kernel->count = 0;
            list_push(&kernels->run_order, kernels->file_order.items[i]);
        }
        kernel->ms += kernel->file_ms;
        kernel->count = add_counts(kernel->count, kernel->file_count);
    }
    kernels->file_order.count = 0;
    kernels->file_serial++;
}

void proton_kernels_report(const proton_kernels_t *kernels, const char *dir,
                           aorta_metrics_t *metrics)
{
    aorta_metrics_set_string(metrics, "proton_artifact_dir", dir);
    const index_list_t *order = &kernels->run_order;
    if (order->count == 0)
        return;
    double total = 0.0;
    int64_t launches = 0;
    for (size_t i = 0; i < order->count; i++) {
        const kernel_t *kernel = &kernels->items[order->items[i]];
        total += kernel->ms;
        launches = add_counts(launches, kernel->count);
    }
    /* The hottest first; a tie keeps the order of first encounter. */
    const char *top[TOP_N];
    double top_ms[TOP_N];
    size_t ntop = 0;
    while (ntop < TOP_N && ntop < order->count) {
        const kernel_t *best = NULL;
        for (size_t i = 0; i < order->count; i++) {
            const kernel_t *kernel = &kernels->items[order->items[i]];
            int taken = 0;
            for (size_t t = 0; t < ntop && !taken; t++)
                taken = top[t] == kernel->name;
            if (!taken && (!best || kernel->ms > best->ms))
                best = kernel;
        }
        top[ntop] = best->name;
        top_ms[ntop++] = best->ms;
    }
    /* Finite leaves can still sum to infinity: report none of it then. */
    if (!isfinite(total) || !isfinite(top_ms[0]))
        return;
    /* Omitted, not guessed, when any launch count was unreadable. */
    if (launches >= 0)
        aorta_metrics_set_int(metrics, "proton_kernel_count", launches);
    aorta_metrics_set_double(metrics, "proton_gpu_time_ms", total);
    aorta_metrics_set_double(metrics, "proton_top_kernel_ms", top_ms[0]);
    aorta_metrics_set_strings(metrics, "proton_top_kernels", top, ntop);
}

void proton_kernels_free(proton_kernels_t *kernels)
{
    if (!kernels)
        return;
    for (size_t i = 0; i < kernels->count; i++)
        free(kernels->items[i].name);
    free(kernels->items);
    free(kernels->slots);
    free(kernels->file_order.items);
    free(kernels->run_order.items);
    free(kernels);
}
