/* SPDX-License-Identifier: MIT */
/* gpu_state.h - what the GPUs were doing just before a trial: one query of
 * nvidia-smi for every device it can see (model, driver, clocks,
 * temperature, utilisation, memory in use), bounded in time, recorded as
 * the trial JSON's "gpu" (docs/design.md, Trial order). */
#ifndef AR_GPU_STATE_H
#define AR_GPU_STATE_H

#include "sys/json.h"

/* The nvidia-smi query: these fields, in this order, as CSV without header
 * or units. */
#define AR_GPU_QUERY_FIELDS                                                          \
    "index,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu," \
    "utilization.gpu,memory.used,memory.total,power.draw,pstate"

/* Seconds the query may take: AORTA_GPU_QUERY_TIMEOUT, else this. */
#define AR_GPU_QUERY_TIMEOUT_DEFAULT 10.0
/* AORTA_GPU_QUERY_TIMEOUT, else the default (one warning for a bad value). */
double ar_gpu_state_timeout(void);

/* {"tool": "nvidia-smi", "error": null or why the query failed, "devices":
 * [{"index", "name", "driver_version", "clocks_sm_mhz", "clocks_mem_mhz",
 * "clocks_max_sm_mhz", "temperature_c", "utilization_pct",
 * "memory_used_mib", "memory_total_mib", "power_draw_w", "pstate"}, ...]}
 * (a value the tool reports as not available is null), or NULL when
 * nvidia-smi is not on envp's PATH.  The query is killed after timeout_sec;
 * an interrupt that came during it is left pending for the sweep. */
ar_json_t *ar_gpu_state_query(char *const *envp, double timeout_sec);

/* What the devices of a "gpu" record say (NULL, null or no devices: all
 * NULL or -1): the first device's name and driver, and the highest
 * utilisation (percent) and temperature (Celsius) of any. */
typedef struct ar_gpu_summary {
    const char *name, *driver;
    double max_utilization, max_temperature;
} ar_gpu_summary_t;
void ar_gpu_state_summary(const ar_json_t *gpu, ar_gpu_summary_t *summary);

/* Before a trial, a GPU this busy (utilization.gpu, percent) was not idle,
 * and one this hot (Celsius) may throttle: --compare warns of either. */
#define AR_GPU_BUSY_PCT 10.0
#define AR_GPU_HOT_C 85.0

/* What a run's trials found before they started: the provenance's
 * "gpu_before_trials" (docs/design.md, Trial order). */
typedef struct ar_gpu_tally {
    size_t trials;           /* with a gpu record that has devices */
    size_t busy, hot;        /* of those, how many found a device busy, hot */
    double max_utilization, max_temperature; /* -1: none known */
} ar_gpu_tally_t;
void ar_gpu_tally_init(ar_gpu_tally_t *tally);
void ar_gpu_tally_add(ar_gpu_tally_t *tally, const ar_json_t *gpu);
/* {"trials", "busy_trials", "hot_trials", "max_utilization_pct",
 * "max_temperature_c", "busy_at_pct", "hot_at_c"}, or NULL (no trial had a
 * gpu record). */
ar_json_t *ar_gpu_tally_json(const ar_gpu_tally_t *tally);

#endif
