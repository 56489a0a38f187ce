/* SPDX-License-Identifier: MIT */
/* gpu_state.c - the GPUs just before a trial (gpu_state.h). */
#include "config.h"

#include "record/gpu_state.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/files.h"
#include "sys/spawn.h"
#include "xalloc.h"
#include "sys/knobs.h"

/* The query's output is a line per device: anything larger is not it. */
#define GPU_OUTPUT_MAX (64u << 10)

typedef enum { FIELD_INT, FIELD_NUMBER, FIELD_TEXT } field_kind_t;

static const struct {
    const char *key;
    field_kind_t kind;
} FIELDS[] = {
    {"index", FIELD_INT},           {"name", FIELD_TEXT},
    {"driver_version", FIELD_TEXT}, {"clocks_sm_mhz", FIELD_NUMBER},
    {"clocks_mem_mhz", FIELD_NUMBER}, {"clocks_max_sm_mhz", FIELD_NUMBER},
    {"temperature_c", FIELD_NUMBER}, {"utilization_pct", FIELD_NUMBER},
    {"memory_used_mib", FIELD_NUMBER}, {"memory_total_mib", FIELD_NUMBER},
    {"power_draw_w", FIELD_NUMBER}, {"pstate", FIELD_TEXT},
};
#define FIELD_COUNT (sizeof FIELDS / sizeof FIELDS[0])

/* nvidia-smi writes "[N/A]", "[Not Supported]" and the like for what a
 * device cannot say: null, as is a number that does not read. */
static ar_json_t *field_value(const char *text, field_kind_t kind)
{
    if (!text[0] || text[0] == '[' || !strcmp(text, "N/A"))
        return NULL;
    if (kind == FIELD_TEXT)
        return ar_json_string(text);
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    if (end == text || *end || errno)
        return NULL;
    if (kind == FIELD_INT || (value == (double)(long long)value && value < 1e15))
        return ar_json_int((int64_t)value);
    return ar_json_double(value);
}

/* One CSV line of the query ("0, NVIDIA H200, 570.124.06, ..."), or NULL
 * when it does not have the fields asked for. */
static ar_json_t *parse_device(char *line)
{
    char *cells[FIELD_COUNT];
    size_t n = 0;
    for (char *cell = line; cell && n < FIELD_COUNT; n++) {
        char *comma = strchr(cell, ',');
        if (comma)
            *comma = '\0';
        while (*cell == ' ')
            cell++;
        size_t len = strlen(cell);
        while (len && (cell[len - 1] == ' ' || cell[len - 1] == '\r'))
            cell[--len] = '\0';
        cells[n] = cell;
        cell = comma ? comma + 1 : NULL;
        if (!comma && n + 1 < FIELD_COUNT)
            return NULL;
    }
    ar_json_t *device = ar_json_object();
    for (size_t i = 0; i < FIELD_COUNT; i++)
        ar_json_set(device, FIELDS[i].key, field_value(cells[i], FIELDS[i].kind));
    return device;
}

static ar_json_t *parse_devices(char *text, char **error)
{
    ar_json_t *devices = ar_json_array();
    for (char *line = text, *end; line && *line; line = end) {
        end = strchr(line, '\n');
        if (end)
            *end++ = '\0';
        if (!line[0])
            continue;
        ar_json_t *device = parse_device(line);
        if (!device) {
            *error = ar_xasprintf("nvidia-smi: unexpected output line '%.80s'", line);
            ar_json_free(devices);
            return ar_json_array();
        }
        ar_json_append(devices, device);
    }
    return devices;
}

/* The first line of what fd holds, into line (may be empty). */
static void first_line(int fd, char *line, size_t size)
{
    line[0] = '\0';
    if (lseek(fd, 0, SEEK_SET) != 0)
        return;
    ssize_t n = read(fd, line, size - 1);
    line[n > 0 ? n : 0] = '\0';
    line[strcspn(line, "\r\n")] = '\0';
}

/* Why a query that ran gave no devices, else NULL: nvidia-smi says why on
 * stdout ("NVIDIA-SMI has failed because ..."), or on stderr. */
static char *failure(const ar_spawn_result_t *result, double timeout_sec, int out_fd,
                     int err_fd)
{
    if (result->timed_out)
        return ar_xasprintf("nvidia-smi: no answer within %g s (killed)", timeout_sec);
    if (result->exit_code == 0)
        return NULL;
    char line[200];
    first_line(err_fd, line, sizeof line);
    if (!line[0])
        first_line(out_fd, line, sizeof line);
    return result->exit_code < 0
               ? ar_xasprintf("nvidia-smi: killed by signal %d", -result->exit_code)
               : ar_xasprintf("nvidia-smi: exit status %d%s%s", result->exit_code,
                              line[0] ? ": " : "", line);
}

ar_json_t *ar_gpu_state_query(char *const *envp, double timeout_sec)
{
    static char *const argv[] = {"nvidia-smi", "--query-gpu=" AR_GPU_QUERY_FIELDS,
                                 "--format=csv,noheader,nounits", NULL};
    FILE *out = tmpfile(), *err = tmpfile();
    ar_spawn_result_t result;
    memset(&result, 0, sizeof result);
    int ran = out && err
              && ar_spawn_run_fds(argv, envp, fileno(out), fileno(err), timeout_sec, 1.0,
                                  &result) == 0;
    ar_json_t *gpu = NULL;
    if (ran && result.launched) {
        char *error = result.interrupted ? ar_xstrdup("nvidia-smi: interrupted")
                                         : failure(&result, timeout_sec, fileno(out), fileno(err));
        ar_json_t *devices = NULL;
        if (!error) {
            size_t len = 0;
            lseek(fileno(out), 0, SEEK_SET);
            char *text = ar_read_fd(fileno(out), GPU_OUTPUT_MAX, &len);
            if (!text)
                error = ar_xstrdup("nvidia-smi: its output cannot be read or is too long");
            else
                devices = parse_devices(text, &error);
            free(text);
        }
        gpu = ar_json_object();
        ar_json_set(gpu, "tool", ar_json_string("nvidia-smi"));
        ar_json_set(gpu, "error", error ? ar_json_string(error) : NULL);
        ar_json_set(gpu, "devices", devices ? devices : ar_json_array());
        free(error);
        /* The interrupt belongs to the sweep, as the environment probe's does. */
        if (result.interrupted)
            raise(result.interrupted);
    }
    if (out)
        fclose(out);
    if (err)
        fclose(err);
    return gpu;
}

void ar_gpu_state_summary(const ar_json_t *gpu, ar_gpu_summary_t *summary)
{
    *summary = (ar_gpu_summary_t){NULL, NULL, -1, -1};
    ar_json_t *devices = ar_json_get(gpu, "devices");
    for (size_t i = 0; i < ar_json_length(devices); i++) {
        ar_json_t *device = ar_json_at(devices, i);
        if (i == 0) {
            summary->name = ar_json_get_string(ar_json_get(device, "name"));
            summary->driver = ar_json_get_string(ar_json_get(device, "driver_version"));
        }
        ar_json_t *util = ar_json_get(device, "utilization_pct");
        ar_json_t *temp = ar_json_get(device, "temperature_c");
        if (util && ar_json_get_double(util) > summary->max_utilization)
            summary->max_utilization = ar_json_get_double(util);
        if (temp && ar_json_get_double(temp) > summary->max_temperature)
            summary->max_temperature = ar_json_get_double(temp);
    }
}

void ar_gpu_tally_init(ar_gpu_tally_t *tally)
{
    *tally = (ar_gpu_tally_t){0, 0, 0, -1, -1};
}

void ar_gpu_tally_add(ar_gpu_tally_t *tally, const ar_json_t *gpu)
{
    if (ar_json_length(ar_json_get(gpu, "devices")) == 0)
        return;
    ar_gpu_summary_t summary;
    ar_gpu_state_summary(gpu, &summary);
    tally->trials++;
    tally->busy += summary.max_utilization >= AR_GPU_BUSY_PCT;
    tally->hot += summary.max_temperature >= AR_GPU_HOT_C;
    if (summary.max_utilization > tally->max_utilization)
        tally->max_utilization = summary.max_utilization;
    if (summary.max_temperature > tally->max_temperature)
        tally->max_temperature = summary.max_temperature;
}

static ar_json_t *known_or_null(double value)
{
    return value >= 0 ? ar_json_double(value) : NULL;
}

ar_json_t *ar_gpu_tally_json(const ar_gpu_tally_t *tally)
{
    if (tally->trials == 0)
        return NULL;
    ar_json_t *obj = ar_json_object();
    ar_json_set(obj, "trials", ar_json_int((int64_t)tally->trials));
    ar_json_set(obj, "busy_trials", ar_json_int((int64_t)tally->busy));
    ar_json_set(obj, "hot_trials", ar_json_int((int64_t)tally->hot));
    ar_json_set(obj, "max_utilization_pct", known_or_null(tally->max_utilization));
    ar_json_set(obj, "max_temperature_c", known_or_null(tally->max_temperature));
    ar_json_set(obj, "busy_at_pct", ar_json_double(AR_GPU_BUSY_PCT));
    ar_json_set(obj, "hot_at_c", ar_json_double(AR_GPU_HOT_C));
    return obj;
}

double ar_gpu_state_timeout(void)
{
    return ar_knob_seconds("AORTA_GPU_QUERY_TIMEOUT", AR_GPU_QUERY_TIMEOUT_DEFAULT, 0);
}
