/* SPDX-License-Identifier: MIT */
/* kernels.c - the per-kernel accumulator both collectors report through:
 * totals keyed by the kernel's name (all its bytes), kept in first-seen
 * order, and the five standard metrics computed from them.  One copy, so
 * the rules (top five, ties, when the count or the times are dropped) are
 * the same for every collector.
 *
 * Lookups go through an open-addressing table over the first-seen array;
 * the hash takes sixteen bytes a multiply because kernel names are long
 * (templated C++) and a trace may hold millions of rows, each looked up.  Per-file groups
 * are folded lazily: a kernel's sum of the previous group joins its run
 * total when the kernel is next touched (or read), so end_file is O(1) and
 * the floating-point sums are the ones an eager per-file merge computes. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sdk.h"
#include "xalloc.h"

#define INITIAL_SLOTS 64
#define TOP_N 5

typedef struct kernel {
    char *name;            /* len bytes and a NUL (the name may hold NULs too) */
    size_t len;
    uint64_t hash;
    uint64_t group;        /* the group group_time and group_count belong to */
    double group_time;
    int64_t group_count;   /* -1 once unknown or past INT64_MAX */
    double time;           /* the closed groups' sum */
    int64_t count;
} kernel_t;

struct aorta_kernels {
    unsigned flags;
    kernel_t *items;       /* first-seen order */
    size_t count;
    size_t capacity;
    uint32_t *slots;       /* index + 1; 0 = empty */
    size_t slot_count;     /* a power of two, or 0 before the first add */
    uint64_t group;        /* the open group */
};

static uint64_t load64(const char *p)
{
    uint64_t word;
    memcpy(&word, p, 8);
    return word;
}

/* The 128-bit product of a and b folded to 64 bits (wyhash's mixing step):
 * one multiply mixes sixteen bytes. */
static inline uint64_t fold(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__)
    unsigned __int128 product = (unsigned __int128)a * b;
    return (uint64_t)product ^ (uint64_t)(product >> 64);
#else
    uint64_t ha = a >> 32, la = (uint32_t)a, hb = b >> 32, lb = (uint32_t)b;
    uint64_t hh = ha * hb, hl = ha * lb, lh = la * hb, ll = la * lb;
    uint64_t mid = (ll >> 32) + (uint32_t)hl + (uint32_t)lh;
    uint64_t lo = (mid << 32) | (uint32_t)ll;
    uint64_t hi = hh + (hl >> 32) + (lh >> 32) + (mid >> 32);
    return lo ^ hi;
#endif
}

#define K0 0xa0761d6478bd642fULL
#define K1 0xe7037ed1a0b428dbULL
#define K2 0x8ebc6af09c88c6e3ULL

/* wyhash's shape: sixteen bytes a step in two lanes of 32, the last (or
 * only) sixteen read with loads that may overlap the ones before, names
 * under eight bytes copied into a word.  Unseeded, as the hash before it
 * was: names made to collide cost time, never a wrong total (names are
 * compared whole). */
uint64_t aorta_sdk_name_hash(const char *name, size_t len)
{
    const char *p = name;
    uint64_t a = K0 ^ len, b = K2, x, y;
    if (len >= 16) {
        size_t left = len;
        while (left > 32) {
            a = fold(load64(p) ^ K1, load64(p + 8) ^ a);
            b = fold(load64(p + 16) ^ K2, load64(p + 24) ^ b);
            p += 32;
            left -= 32;
        }
        if (left > 16)
            a = fold(load64(p) ^ K1, load64(p + 8) ^ a);
        x = load64(name + len - 16);
        y = load64(name + len - 8);
    } else if (len >= 8) {
        x = load64(p);
        y = load64(p + len - 8);
    } else {
        x = 0;
        y = 0;
        memcpy(&x, p, len);
    }
    a ^= b;
    return fold(K1 ^ len, fold(x ^ K1, y ^ a));
}

/* a + b, or -1 when either is unknown or the sum leaves int64. */
static int64_t add_counts(int64_t a, int64_t b)
{
    if (a < 0 || b < 0 || a > INT64_MAX - b)
        return -1;
    return a + b;
}

aorta_kernels_t *aorta_kernels_new(unsigned flags)
{
    if (flags & ~(unsigned)AORTA_KERNELS_SUM_COMPENSATED)
        return NULL;
    aorta_kernels_t *kernels = ar_xcalloc(1, sizeof *kernels);
    kernels->flags = flags;
    kernels->group = 1;
    return kernels;
}

void aorta_kernels_free(aorta_kernels_t *kernels)
{
    if (!kernels)
        return;
    for (size_t i = 0; i < kernels->count; i++)
        free(kernels->items[i].name);
    free(kernels->items);
    free(kernels->slots);
    free(kernels);
}

static void place(aorta_kernels_t *kernels, size_t index)
{
    size_t mask = kernels->slot_count - 1;
    size_t slot = (size_t)kernels->items[index].hash & mask;
    while (kernels->slots[slot])
        slot = (slot + 1) & mask;
    kernels->slots[slot] = (uint32_t)(index + 1);
}

static void grow_slots(aorta_kernels_t *kernels)
{
    free(kernels->slots);
    kernels->slot_count = kernels->slot_count ? kernels->slot_count * 2 : INITIAL_SLOTS;
    kernels->slots = ar_xcalloc(kernels->slot_count, sizeof *kernels->slots);
    for (size_t i = 0; i < kernels->count; i++)
        place(kernels, i);
}

static kernel_t *find_or_add(aorta_kernels_t *kernels, const char *name, size_t len)
{
    uint64_t hash = aorta_sdk_name_hash(name, len);
    if (kernels->slot_count) {
        size_t mask = kernels->slot_count - 1;
        for (size_t slot = (size_t)hash & mask; kernels->slots[slot]; slot = (slot + 1) & mask) {
            kernel_t *kernel = &kernels->items[kernels->slots[slot] - 1];
            if (kernel->hash == hash && kernel->len == len && memcmp(kernel->name, name, len) == 0)
                return kernel;
        }
    }
    /* The slots hold 32-bit indices. */
    if (kernels->count >= UINT32_MAX / 4)
        return NULL;
    if (kernels->count == kernels->capacity)
        ar_xgrow((void **)&kernels->items, &kernels->capacity, kernels->count + 1,
                    sizeof *kernels->items);
    kernel_t *kernel = &kernels->items[kernels->count++];
    char *copy = ar_xmalloc(len + 1);
    if (len)
        memcpy(copy, name, len);
    copy[len] = '\0';
    *kernel = (kernel_t){.name = copy, .len = len, .hash = hash, .group = kernels->group};
    if (kernels->count * 2 > kernels->slot_count)
        grow_slots(kernels);
    else
        place(kernels, kernels->count - 1);
    return kernel;
}

int aorta_kernels_add(aorta_kernels_t *kernels, const char *name, size_t name_len, double time,
                      int64_t count)
{
    /* No kernel runs for a negative time, and a NaN cannot be ranked. */
    if (!kernels || (!name && name_len) || isnan(time) || time < 0)
        return -1;
    kernel_t *kernel = find_or_add(kernels, name ? name : "", name_len);
    if (!kernel)
        return -1;
    if (kernel->group != kernels->group) {
        kernel->time += kernel->group_time;
        kernel->count = add_counts(kernel->count, kernel->group_count);
        kernel->group = kernels->group;
        kernel->group_time = 0.0;
        kernel->group_count = 0;
    }
    kernel->group_time += time;
    kernel->group_count = add_counts(kernel->group_count, count < 0 ? -1 : count);
    return 0;
}

void aorta_kernels_end_file(aorta_kernels_t *kernels)
{
    if (kernels)
        kernels->group++;
}

size_t aorta_kernels_count(const aorta_kernels_t *kernels)
{
    return kernels ? kernels->count : 0;
}

const char *aorta_kernels_name_at(const aorta_kernels_t *kernels, size_t index, size_t *len)
{
    if (!kernels || index >= kernels->count) {
        if (len)
            *len = 0;
        return NULL;
    }
    if (len)
        *len = kernels->items[index].len;
    return kernels->items[index].name;
}

/* The run total: the closed groups' sum plus the last group's. */
static double total_of(const kernel_t *kernel)
{
    return kernel->time + kernel->group_time;
}

double aorta_kernels_time_at(const aorta_kernels_t *kernels, size_t index)
{
    if (!kernels || index >= kernels->count)
        return NAN;
    return total_of(&kernels->items[index]);
}

int64_t aorta_kernels_launches_at(const aorta_kernels_t *kernels, size_t index)
{
    if (!kernels || index >= kernels->count)
        return -1;
    return add_counts(kernels->items[index].count, kernels->items[index].group_count);
}

static int set_key(aorta_metrics_t *metrics, const char *collector, const char *suffix,
                   aorta_metric_type_t type, int64_t int_value, double double_value,
                   const char *string_value, const char *const *strings, size_t count)
{
    char *key = ar_xasprintf("%s_%s", collector, suffix);
    int status;
    switch (type) {
    case AORTA_METRIC_INT:
        status = aorta_metrics_set_int(metrics, key, int_value);
        break;
    case AORTA_METRIC_DOUBLE:
        status = aorta_metrics_set_double(metrics, key, double_value);
        break;
    case AORTA_METRIC_STRING:
        status = aorta_metrics_set_string(metrics, key, string_value);
        break;
    case AORTA_METRIC_STRINGS:
    default:
        status = aorta_metrics_set_strings(metrics, key, strings, count);
        break;
    }
    free(key);
    return status;
}

int aorta_metrics_set_kernels(aorta_metrics_t *metrics, const aorta_kernels_t *kernels,
                              double time_units_per_ms)
{
    if (!metrics || !kernels || !isfinite(time_units_per_ms) || time_units_per_ms <= 0)
        return -1;
    /* A copy with one closed group per kernel: the totals are final. */
    aorta_kernels_t *copy = aorta_kernels_new(0);
    for (size_t i = 0; i < kernels->count; i++) {
        const kernel_t *kernel = &kernels->items[i];
        kernel_t *into = find_or_add(copy, kernel->name, kernel->len);
        if (!into)
            break;
        into->group_time = total_of(kernel) / time_units_per_ms;
        into->group_count = add_counts(kernel->count, kernel->group_count);
    }
    aorta_kernels_free(metrics->kernels);
    metrics->kernels = copy;
    return 0;
}

const aorta_kernels_t *aorta_metrics_kernels(const aorta_metrics_t *metrics)
{
    return metrics ? metrics->kernels : NULL;
}

int aorta_kernels_report(const aorta_kernels_t *kernels, aorta_metrics_t *metrics,
                         const char *collector_name, double time_units_per_ms,
                         const char *artifact_dir)
{
    if (!kernels || !metrics || !collector_name || !isfinite(time_units_per_ms)
        || time_units_per_ms <= 0)
        return -1;
    aorta_metrics_set_kernels(metrics, kernels, time_units_per_ms);
    int status = 0;
    if (artifact_dir)
        status |= set_key(metrics, collector_name, "artifact_dir", AORTA_METRIC_STRING, 0, 0,
                          artifact_dir, NULL, 0);
    if (kernels->count == 0)
        return status;
    /* One pass: the sum in first-seen order, the launches, and the top
     * five by an insertion that only a strictly larger total passes, so
     * equal totals keep first-seen order. */
    double sum = 0.0, compensation = 0.0;
    int64_t launches = 0;
    size_t top[TOP_N];
    double top_time[TOP_N];
    size_t ntop = 0;
    for (size_t i = 0; i < kernels->count; i++) {
        const kernel_t *kernel = &kernels->items[i];
        double x = total_of(kernel);
        if (kernels->flags & AORTA_KERNELS_SUM_COMPENSATED) {
            /* Neumaier's compensation, as CPython >= 3.12 sum() adds floats. */
            double t = sum + x;
            if (fabs(sum) >= fabs(x))
                compensation += (sum - t) + x;
            else
                compensation += (x - t) + sum;
            sum = t;
        } else {
            sum += x;
        }
        launches = add_counts(launches, add_counts(kernel->count, kernel->group_count));
        if (ntop == TOP_N && !(x > top_time[TOP_N - 1]))
            continue;
        size_t at = ntop < TOP_N ? ntop++ : TOP_N - 1;
        for (; at > 0 && x > top_time[at - 1]; at--) {
            top[at] = top[at - 1];
            top_time[at] = top_time[at - 1];
        }
        top[at] = i;
        top_time[at] = x;
    }
    if (compensation != 0.0 && isfinite(compensation))
        sum += compensation;
    double total_ms = sum / time_units_per_ms;
    double top_ms = top_time[0] / time_units_per_ms;
    /* Finite rows can still sum past the largest double: report none of it. */
    if (!isfinite(total_ms) || !isfinite(top_ms))
        return status;
    /* Omitted, not guessed, when a count was unknown or the sum overflowed. */
    if (launches >= 0)
        status |= set_key(metrics, collector_name, "kernel_count", AORTA_METRIC_INT, launches, 0,
                          NULL, NULL, 0);
    status |= set_key(metrics, collector_name, "gpu_time_ms", AORTA_METRIC_DOUBLE, 0, total_ms,
                      NULL, NULL, 0);
    status |= set_key(metrics, collector_name, "top_kernel_ms", AORTA_METRIC_DOUBLE, 0, top_ms,
                      NULL, NULL, 0);
    /* Names go whole, with their lengths: one read from a file may hold a
     * NUL, which Python would carry too. */
    const char *names[TOP_N];
    size_t lengths[TOP_N];
    for (size_t i = 0; i < ntop; i++) {
        names[i] = kernels->items[top[i]].name;
        lengths[i] = kernels->items[top[i]].len;
    }
    char *key = ar_xasprintf("%s_top_kernels", collector_name);
    status |= aorta_metrics_set_strings_n(metrics, key, names, lengths, ntop);
    free(key);
    return status ? -1 : 0;
}
