/* kernels.c - per-kernel totals keyed by name: an open-addressing hash table
 * over an array kept in first-seen order (the order the ranking's ties and
 * the total's summation follow).  Memory grows with distinct kernels only. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rocprof.h"

#define INITIAL_SLOTS 64

static uint64_t load64(const char *p)
{
    uint64_t word;
    memcpy(&word, p, 8);
    return word;
}

static uint64_t mix(uint64_t x)
{
    x *= 0xff51afd7ed558ccdULL;
    return x ^ (x >> 32);
}

/* Kernel names are long (templated C++): four independent lanes of eight
 * bytes keep the multiplier busy; a tail shorter than 32 bytes is read with
 * overlapping loads. */
static uint64_t hash_name(const char *name, size_t len)
{
    uint64_t a = 0x9e3779b97f4a7c15ULL ^ len, b = 0xc2b2ae3d27d4eb4fULL, c = 0x165667b19e3779f9ULL,
             d = 0x27d4eb2f165667c5ULL;
    const char *p = name;
    size_t left = len;
    while (left >= 32) {
        a = mix(a ^ load64(p));
        b = mix(b ^ load64(p + 8));
        c = mix(c ^ load64(p + 16));
        d = mix(d ^ load64(p + 24));
        p += 32;
        left -= 32;
    }
    if (left >= 16) {
        a = mix(a ^ load64(p));
        b = mix(b ^ load64(p + 8));
        c = mix(c ^ load64(name + len - 16));
        d = mix(d ^ load64(name + len - 8));
    } else if (left >= 8) {
        a = mix(a ^ load64(p));
        b = mix(b ^ load64(name + len - 8));
    } else if (left > 0) {
        uint64_t tail = 0;
        memcpy(&tail, p, left);
        a = mix(a ^ tail);
    }
    uint64_t h = a ^ (b << 17 | b >> 47) ^ (c << 31 | c >> 33) ^ (d << 47 | d >> 17);
    return mix(mix(h));
}

void rocprof_kernels_init(rocprof_kernels_t *kernels)
{
    memset(kernels, 0, sizeof *kernels);
}

void rocprof_kernels_free(rocprof_kernels_t *kernels)
{
    for (size_t i = 0; i < kernels->count; i++)
        free(kernels->items[i].name);
    free(kernels->items);
    free(kernels->slots);
    memset(kernels, 0, sizeof *kernels);
}

static void place(rocprof_kernels_t *kernels, size_t index)
{
    size_t mask = kernels->slot_count - 1;
    size_t slot = (size_t)kernels->items[index].hash & mask;
    while (kernels->slots[slot])
        slot = (slot + 1) & mask;
    kernels->slots[slot] = (uint32_t)(index + 1);
}

static void grow_slots(rocprof_kernels_t *kernels)
{
    free(kernels->slots);
    kernels->slot_count = kernels->slot_count ? kernels->slot_count * 2 : INITIAL_SLOTS;
    kernels->slots = rocprof_xmalloc(kernels->slot_count * sizeof *kernels->slots);
    memset(kernels->slots, 0, kernels->slot_count * sizeof *kernels->slots);
    for (size_t i = 0; i < kernels->count; i++)
        place(kernels, i);
}

rocprof_kernel_t *rocprof_kernels_get(rocprof_kernels_t *kernels, const char *name, size_t len)
{
    uint64_t hash = hash_name(name, len);
    if (kernels->slot_count) {
        size_t mask = kernels->slot_count - 1;
        for (size_t slot = (size_t)hash & mask; kernels->slots[slot]; slot = (slot + 1) & mask) {
            rocprof_kernel_t *kernel = &kernels->items[kernels->slots[slot] - 1];
            if (kernel->hash == hash && kernel->len == len && memcmp(kernel->name, name, len) == 0)
                return kernel;
        }
    }
    if (kernels->count == kernels->capacity) {
        kernels->capacity = kernels->capacity ? kernels->capacity * 2 : 16;
        kernels->items = rocprof_xrealloc(kernels->items, kernels->capacity * sizeof *kernels->items);
    }
    rocprof_kernel_t *kernel = &kernels->items[kernels->count++];
    kernel->name = rocprof_xstrndup(name, len);
    kernel->len = len;
    kernel->hash = hash;
    kernel->total_ns = 0.0;
    if ((kernels->count) * 2 > kernels->slot_count)
        grow_slots(kernels);
    else
        place(kernels, kernels->count - 1);
    return kernel;
}

void rocprof_kernels_add_calls(rocprof_kernels_t *kernels, int64_t calls)
{
    if (kernels->calls > INT64_MAX - calls)
        kernels->calls_unusable = 1;
    else
        kernels->calls += calls;
}
