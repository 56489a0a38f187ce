/* SPDX-License-Identifier: MIT */
/* order.c - the order of a sweep's trials (order.h).  The shuffles draw
 * from SplitMix64: small, well mixed, and the same on every platform, so
 * that a seed names one order. */
#include "config.h"

#include "sweep/order.h"

#include <stdint.h>
#include <stdlib.h>

#include "xalloc.h"

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform index below n (n > 0), without modulo bias. */
static size_t below(uint64_t *state, size_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = splitmix64(state);
    while (x >= limit);
    return (size_t)(x % n);
}

static void shuffle(size_t *items, size_t n, uint64_t state)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = below(&state, i);
        size_t held = items[i - 1];
        items[i - 1] = items[j];
        items[j] = held;
    }
}

void ar_order_round(const ar_plan_t *plan, long round, size_t *perm)
{
    for (size_t i = 0; i < plan->cell_count; i++)
        perm[i] = i;
    uint64_t state = plan->order_seed ^ (0xD1B54A32D192ED03ull * (uint64_t)(round + 1));
    shuffle(perm, plan->cell_count, state);
}

/* Random order: each cell's budget of slots shuffled together, the trial
 * numbers then given in the order a cell's slots come. */
static void random_sequence(const ar_plan_t *plan, long budget, ar_slot_t *slots)
{
    size_t n = plan->cell_count * (size_t)budget;
    size_t *cells = ar_xcalloc(n + 1, sizeof *cells);
    long *next = ar_xcalloc(plan->cell_count + 1, sizeof *next);
    for (size_t i = 0; i < n; i++)
        cells[i] = i / (size_t)budget;
    shuffle(cells, n, plan->order_seed ^ 0x5851F42D4C957F2Dull);
    for (size_t i = 0; i < n; i++)
        slots[i] = (ar_slot_t){cells[i], next[cells[i]]++};
    free(next);
    free(cells);
}

ar_slot_t *ar_order_sequence(const ar_plan_t *plan, size_t *count)
{
    long budget = ar_plan_trial_budget(plan);
    size_t cells = plan->cell_count;
    *count = cells * (size_t)(budget > 0 ? budget : 0);
    ar_slot_t *slots = ar_xcalloc(*count + 1, sizeof *slots);
    if (*count == 0)
        return slots;
    if (plan->order == AR_ORDER_RANDOM) {
        random_sequence(plan, budget, slots);
        return slots;
    }
    size_t at = 0;
    if (plan->order == AR_ORDER_SEQUENTIAL) {
        for (size_t c = 0; c < cells; c++)
            for (long t = 0; t < budget; t++)
                slots[at++] = (ar_slot_t){c, t};
        return slots;
    }
    size_t *perm = ar_xcalloc(cells, sizeof *perm);
    for (long r = 0; r < budget; r++) {
        ar_order_round(plan, r, perm);
        for (size_t k = 0; k < cells; k++)
            slots[at++] = (ar_slot_t){perm[k], r};
    }
    free(perm);
    return slots;
}

ar_json_t *ar_order_json(const ar_plan_t *plan)
{
    ar_json_t *order = ar_json_object();
    ar_json_set(order, "mode", ar_json_string(ar_order_name(plan->order)));
    ar_json_set(order, "seed", ar_json_int((int64_t)plan->order_seed));
    size_t count = 0;
    ar_slot_t *slots = ar_order_sequence(plan, &count);
    ar_json_t *sequence = ar_json_array();
    for (size_t i = 0; i < count; i++) {
        ar_json_t *pair = ar_json_array();
        ar_json_append(pair, ar_json_string(plan->cells[slots[i].cell].name));
        ar_json_append(pair, ar_json_int(slots[i].trial));
        ar_json_append(sequence, pair);
    }
    free(slots);
    ar_json_set(order, "sequence", sequence);
    return order;
}
